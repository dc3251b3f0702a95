"""Stage E (spec §3.4): ``[part n]`` numbers, counted on the final chunks.

Where a section became several chunks, each chunk that declares its heading gets its
1-based number (:func:`numbered_parts`), counted after merging so that a fragment merged
into the chunk before leaves no gap and no suffix is ever stacked (§9.5).
``render_heading`` adds the suffix to the output heading; ``parent_headings`` never carry
one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Sequence

# Suffixes written by earlier chunkers ("[part 3]", legacy "[表格片段3]"): never kept,
# never stacked.
_GENERATED_SUFFIX = re.compile(r"\s*\[(?:part\s+\d+|表格片段\s*\d+)\]\s*$", re.IGNORECASE)
#: The suffix :func:`with_part` writes, as the breadcrumb contract reads it back.
_PART = re.compile(r"\[part (\d+)\]\s*$")

_Keys = Sequence[tuple[str, ...]]
_Spans = Sequence[frozenset[tuple[str, ...]]]
#: ``(index, start, end)`` of each label's first chunk and the run of its parts (:func:`_runs`).
_Runs = Sequence[tuple[int, int, int]]
#: The paths of a span's first and last sections, None for a chunk of one section.
_Edges = Sequence[tuple[tuple[str, ...], tuple[str, ...]] | None]


def strip_part_suffix(heading: str) -> str:
    """``heading`` without any trailing ``[part n]`` / ``[表格片段n]`` suffixes."""
    cleaned = heading.rstrip()
    while cleaned.endswith("]"):  # every suffix ends so: most headings need no search
        shorter = _GENERATED_SUFFIX.sub("", cleaned)
        if shorter == cleaned:
            break
        cleaned = shorter
    return cleaned


def label_path(heading: str, parents: Sequence[str]) -> tuple[str, ...]:
    """The path a label declares: its ``parents``, then its ``heading`` without ``[part n]``
    (none when that is empty)."""
    heading = strip_part_suffix(heading)
    return (*parents, heading) if heading else tuple(parents)


def numbered_parts(
    labels: Sequence[tuple[str, tuple[str, ...]]],
    spanned: Sequence[Collection[tuple[str, ...]]],
    edges: _Edges,
) -> tuple[list[int], list[tuple[int, int]]]:
    """The ``[part n]`` of each chunk, 0 for none, and the parts a span's ends hold
    (:func:`_ends`), from the ``(heading, parents)`` each declares and, for a chunk
    labelled as a span of sections, the paths of the sections it holds text of
    (``spanned``; empty for a chunk of one declared section, or empty for all) and of its
    first and last sections (``edges``; None for a chunk of one section).

    A section's parts are the consecutive chunks that declare it or hold its text under a
    span naming it: ``§ 12``, ``Part (§ 12–§ 13)``, ``§ 13`` are ``§ 12 [part 1]``, the
    span, ``§ 13 [part 2]``, so a reader finds part 1 of ``§ 13`` in the span that names it
    (whose ends say so).
    A chunk of a parent section that holds the start of a child does not name it, so it is
    none of the child's parts. A span numbers the consecutive chunks of its own label; a
    heading declared by one chunk alone has no number. Counted on the final chunks, so a
    fragment merged into a chunk of another heading leaves no gap, and a stage C anchor,
    which heads its own sub-block, numbers only its own parts."""
    keys, spans = _keys_and_spans(labels, spanned)
    runs = list(_runs(keys, spans, edges))
    return _declared(keys, spans, runs), _ends(keys, spans, runs, edges)


def _declared(keys: _Keys, spans: _Spans, runs: _Runs) -> list[int]:
    numbers: dict[int, int] = {}
    for index, start, end in runs:
        for position in range(start, end):
            if _same_label(keys, spans, index, position):  # they share the run: number all
                numbers[position] = position - start + 1 if end - start > 1 else 0
    return [numbers[index] for index in range(len(keys))]


def _ends(keys: _Keys, spans: _Spans, runs: _Runs, edges: _Edges) -> list[tuple[int, int]]:
    """For each chunk labelled as a span, the part of a section of several parts that its
    first and its last end hold, ``(0, 0)`` for none (and for every other chunk): in
    ``Requirements [part 1]``, ``V2 (Requirements – References)`` the span holds part 2 of
    Requirements, written at its first end (``V2 (Requirements [part 2] – References)``),
    so a reader sees the section go on; in ``1 Introduction – 2 Objects``,
    ``2 Objects [part 2]`` its last end holds part 1. An end is numbered only where it is
    the section (a title may name two sections)."""
    ends = [[0, 0] for _ in keys]
    for index, start, end in runs:
        if spans[index] or end - start < 2:
            continue
        for position in range(start, end):
            edge = edges[position]
            # before the section's own chunks, a span holds its start: its last end
            if edge is not None and edge[position < index] == keys[index]:
                ends[position][position < index] = position - start + 1
    return [(first, last) for first, last in ends]


def _keys_and_spans(
    labels: Sequence[tuple[str, tuple[str, ...]]],
    spanned: Sequence[Collection[tuple[str, ...]]],
) -> tuple[list[tuple[str, ...]], list[frozenset[tuple[str, ...]]]]:
    keys = [label_path(heading, parents) for heading, parents in labels]
    return keys, [frozenset(paths) for paths in spanned] or [frozenset()] * len(keys)


def _runs(keys: _Keys, spans: _Spans, edges: _Edges) -> Iterator[tuple[int, int, int]]:
    """``(index, start, end)``: the first chunk of each label and the run of its parts."""
    seen: set[int] = set()
    for index in range(len(keys)):
        if index in seen:
            continue
        start, end = _run_of(keys, spans, edges, index)
        seen.update(p for p in range(start, end) if _same_label(keys, spans, index, p))
        yield index, start, end


def _run_of(keys: _Keys, spans: _Spans, edges: _Edges, index: int) -> tuple[int, int]:
    """``(start, end)`` of the run of chunk ``index``'s parts (:func:`_is_part`) around it:
    a span among them is where the section opens (before it) or closes (after it), so
    the run ends there."""
    start, end = index, index + 1
    while start > 0 and _is_part(keys, spans, edges, index, start - 1):
        start -= 1
        if not _same_label(keys, spans, index, start):
            break
    while end < len(keys) and _is_part(keys, spans, edges, index, end):
        end += 1
        if not _same_label(keys, spans, index, end - 1):
            break
    return start, end


def _same_label(keys: _Keys, spans: _Spans, one: int, other: int) -> bool:
    return keys[one] == keys[other] and bool(spans[one]) == bool(spans[other])


def _is_part(keys: _Keys, spans: _Spans, edges: _Edges, of: int, other: int) -> bool:
    """Whether chunk ``other`` is one of the parts of chunk ``of``'s label: a chunk of the
    same label or, when that declares a section, a span holding the section's text at its
    end on ``of``'s side (after ``of``, its first end goes on with it; before it, its last
    end opens it): a span after a section that opens another of the same title ("Estimates"
    over each table of a statistics output) holds none of the first one."""
    if _same_label(keys, spans, of, other):
        return True
    if spans[of] or keys[of] not in spans[other]:
        return False
    edge = edges[other]
    return edge is None or edge[other < of] == keys[of]


def run_around(count: int, member: Callable[[int], bool], index: int) -> tuple[int, int]:
    """``(start, end)`` of the run of consecutive ``member`` indexes around ``index``."""
    start, end = index, index + 1
    while start > 0 and member(start - 1):
        start -= 1
    while end < count and member(end):
        end += 1
    return start, end


def render_heading(heading: str, part: int) -> str:
    """The output heading: ``heading`` (any old suffix removed) plus ``[part n]`` when
    ``part`` is not 0."""
    return with_part(strip_part_suffix(heading), part)


def with_part(text: str, part: int) -> str:
    """``text`` with the suffix ``[part n]`` (``part``; 0: ``text`` as it is)."""
    if not part:
        return text
    suffix = f"[part {part}]"
    return f"{text} {suffix}" if text else suffix


def part_number(heading: str) -> int | None:
    """The ``n`` of the ``[part n]`` :func:`with_part` wrote at the end of ``heading``, or
    None (a legacy suffix is none)."""
    match = _PART.search(heading)
    return int(match.group(1)) if match else None
