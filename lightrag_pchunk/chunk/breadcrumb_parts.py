"""The ``part`` rule of the breadcrumb contract (``chunk/breadcrumbs.py``): ``[part n]``
counts the parts of one declared heading 1, 2, 3 … with no gap; its parts are the consecutive
chunks that declare it and a span beside them that names it as its end on their side."""

from __future__ import annotations

import re
from collections.abc import Sequence

from lightrag_pchunk.chunk.chunk_headings import short_name, span_end
from lightrag_pchunk.chunk.part_numbers import run_around

_PART = re.compile(r"\[part (\d+)\]\s*$")

_Ends = tuple[str, str]
#: A chunk labelled as a span: the parent of its children as it declares it, and the ends.
Span = tuple[tuple[str, ...], _Ends]


def part_number(heading: str) -> int | None:
    """The ``n`` of a heading's ``[part n]``, or None."""
    match = _PART.search(heading)
    return int(match.group(1)) if match else None


def part_violations(
    headings: Sequence[str], paths: Sequence[tuple[str, ...]], spans: Sequence[Span | None]
) -> list[tuple[int, str]]:
    """``(chunk index, why)`` for each chunk whose ``[part n]`` breaks the count of the parts
    of its declared heading (``headings`` as written; ``paths`` declared; ``spans``: how each
    reads as a span)."""
    numbers = [part_number(heading) for heading in headings]
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
    return out


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
        return (last if j < index else first).rstrip("…") in names  # its end on our side

    return run_around(len(paths), member, index)


def names_of(heading: str) -> set[str]:
    """The names a span's end may give ``heading`` by: whole, short, or as spans end it."""
    return {name.rstrip("…") for name in (heading, short_name(heading), span_end(heading))}
