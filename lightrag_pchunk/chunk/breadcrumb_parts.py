"""The ``part`` rule of the breadcrumb contract (``chunk/breadcrumbs.py``): ``[part n]``
counts the parts of one declared heading 1, 2, 3 … with no gap; its parts are the consecutive
chunks that declare it and a span beside them that names it as its end on their side, where
that end carries the part it holds (``V2 (Requirements [part 2] – References)``)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import partial

from lightrag_pchunk.chunk.chunk_headings import short_name, span_end
from lightrag_pchunk.chunk.part_numbers import part_number, run_around, strip_part_suffix

_Ends = tuple[str, str]
#: A chunk labelled as a span: the parent of its children as it declares it, and the ends.
Span = tuple[tuple[str, ...], _Ends]


def part_violations(
    headings: Sequence[str],
    paths: Sequence[tuple[str, ...]],
    spans: Sequence[Span | None],
    unsure: Sequence[Collection[str]] = (),
) -> list[tuple[int, str]]:
    """``(chunk index, why)`` for each chunk whose ``[part n]`` breaks the count of the parts
    of its declared heading (``headings`` as written; ``paths`` declared; ``spans``: how each
    reads as a span; ``unsure``: the ends of each that name several sections, which may go
    without a number)."""
    numbers = [part_number(heading) for heading in headings]
    carried = _carried(numbers, paths, spans)
    runs: dict[int, tuple[int, int]] = {}  # chunk -> the (start, end) of its parts
    out: list[tuple[int, str]] = []
    for index, path in enumerate(paths):
        if index not in runs:  # the chunks of one label among its parts share the count
            start, end = _parts(paths, spans, index)
            runs.update((j, (start, end)) for j in range(start, end) if paths[j] == path)
        reason = _part_reason(numbers, spans, index, runs[index])
        if (
            reason
            and _part_reason(numbers, spans, index, _parts(paths, spans, index, True)) is None
        ):
            # A span's end that names the parent and this child alike ("SC-8" for "SC-8
            # Transmission …" and "SC-8 (5)-2 …"): it may stand for either, so either holds.
            reason = None
        if reason:
            out.append((index, reason))
    expected = [_expected_ends(paths, spans, apart) for apart in (False, True)]
    for index, ends in carried.items():
        known = unsure[index] if unsure else ()
        reasons = [
            _end_reason(spans[index], ends, e.get(index, (None, None)), known) for e in expected
        ]
        if all(reasons):
            out.append((index, reasons[0]))
    return sorted(out)


_Numbers = tuple[int | None, int | None]


def _carried(
    numbers: list[int | None], paths: Sequence[tuple[str, ...]], spans: Sequence[Span | None]
) -> dict[int, _Numbers]:
    """The ``[part n]`` each end of a span carries, by chunk, for the spans that have no
    parts of their own. At the top a span's last end is the heading's end, so its
    ``[part n]`` is that end's, not the span's: it is taken out of ``numbers``."""
    carried: dict[int, _Numbers] = {}
    for index, span in enumerate(spans):
        if span is None:
            continue
        start, end = run_around(len(paths), partial(_same, paths, index), index)
        if end - start > 1:
            continue  # a span numbered as itself: its ends carry none
        first, last = (part_number(end) for end in span[1])
        if not span[0]:
            last, numbers[index] = numbers[index], None
        carried[index] = (first, last)
    return carried


def _same(paths: Sequence[tuple[str, ...]], one: int, other: int) -> bool:
    return paths[one] == paths[other]


def _expected_ends(
    paths: Sequence[tuple[str, ...]], spans: Sequence[Span | None], apart: bool
) -> dict[int, list[int | None]]:
    """The part each end of a span holds of a section of several parts that it names (on
    the side of the section's own chunks), by chunk; ``apart``: see :func:`_parts`."""
    expected: dict[int, list[int | None]] = {}
    for index, span in enumerate(spans):
        if span is not None:
            continue
        start, end = _parts(paths, spans, index, apart)
        for j in range(start, end) if end - start > 1 else ():
            if spans[j] is not None:
                expected.setdefault(j, [None, None])[j < index] = j - start + 1
    return expected


def _end_reason(
    span: Span | None,
    carried: _Numbers,
    expected: Sequence[int | None],
    unsure: Collection[str],
) -> str:
    """Why a span's ends carry the wrong ``[part n]`` (``carried``), or "": each end that
    names a section of several parts carries the part it holds (``expected``)."""
    assert span is not None
    ends = [strip_part_suffix(end) for end in span[1]]
    if ends[0] == ends[1]:  # one name for both ends: either may carry the part it holds
        has, wanted = ({n for n in numbers if n} for numbers in (carried, expected))
        if has == wanted or (not has and ends[0] in unsure):
            return ""
        return f"{_listed(has)} on its ends {ends[0]!r}, which hold {_listed(wanted)} of it"
    for name, has, wanted in zip(ends, carried, expected, strict=True):
        if has == wanted or (has is None and name in unsure):
            continue
        if has is None:
            return f"no [part {wanted}] on its end {name!r}, which holds part {wanted} of it"
        if wanted is None:
            return f"[part {has}] on its end {name!r}, which holds no part of a section of several"
        if has != wanted:
            return f"[part {has}] on its end {name!r}, which holds part {wanted} of it"
    return ""


def _part_reason(
    numbers: Sequence[int | None], spans: Sequence[Span | None], index: int, run: tuple[int, int]
) -> str | None:
    """Why chunk ``index``'s ``[part n]`` is wrong among the parts ``run`` (start, end);
    ``numbers``: each chunk's ``n`` (:func:`part_number`)."""
    start, end = run
    if spans[index] is not None and all(numbers[j] is None for j in range(start, end)):
        return None  # a span label nothing numbers
    number, position, count = numbers[index], index - start + 1, end - start
    if count == 1 and number is not None:
        return f"[part {number}] on the only chunk of its heading"
    if count > 1 and number is None:
        return f"no [part n] on part {position} of {count} of its heading"
    if count > 1 and number != position:
        return f"[part {number}] is part {position} of {count} of its heading"
    return None


def _parts(
    paths: Sequence[tuple[str, ...]],
    spans: Sequence[Span | None],
    index: int,
    parent_ends_apart: bool = False,
) -> tuple[int, int]:
    """``(start, end)`` of the chunks that are the parts of chunk ``index``'s label: the
    consecutive chunks of that label and, for a heading, a span beside them that names it
    as its end on their side (a middle child of a span lies wholly inside it). With
    ``parent_ends_apart``, an end that names the parent too is read as the parent's."""
    path = paths[index]
    names = names_of(path[-1]) if path else set()
    if parent_ends_apart and len(path) > 1:
        names -= names_of(path[-2])

    def member(j: int) -> bool:
        if paths[j] == path:
            return True
        span = spans[j]
        if spans[index] is not None or span is None or span[0] != path[:-1]:
            return False
        first, last = span[1]
        end = strip_part_suffix(last if j < index else first)
        return end.rstrip("…") in names  # its end on our side

    return run_around(len(paths), member, index)


def names_of(heading: str) -> set[str]:
    """The names a span's end may give ``heading`` by: whole, short, or as spans end it."""
    return {name.rstrip("…") for name in (heading, short_name(heading), span_end(heading))}


def _listed(numbers: Collection[int]) -> str:
    return " and ".join(f"[part {n}]" for n in sorted(numbers)) or "no [part n]"
