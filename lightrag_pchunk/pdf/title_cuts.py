"""Stage A for PDF: column titles printed one space apart, read as one segment across two
columns of a table shown by its text's alignment (a statistics package's output: ``Failure
Survival Standard`` over the columns ``Failure`` and ``Survival Standard Error``).

Input: the head of a run of rows (its first :data:`HEAD_LINES` lines, where titles stand),
the columns of the rows below it (``table_runs.text_columns``) and a
:class:`~lightrag_pchunk.pdf.segments.WordCutter`. Output: the head with each title cut at
the word spaces that lie in the gaps between those columns, and the columns widened over
the head's text, or None when no title is cut.

A title is cut only where each piece stands over one column of the rows below, and lines up
with it (its left side, its right side or its middle, as titles over columns are set): a
title centred over several columns (``95% Confidence Interval`` over ``Lower`` and
``Upper``) names them together and is left whole, and so is a row of the body (prose across
columns is no table's title).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from lightrag_pchunk.pdf.cell_wraps import ALIGN_SLACK
from lightrag_pchunk.pdf.segments import Segment, WordCutter

#: The lines at a run's head where its column titles stand (a title wrapped once).
HEAD_LINES = 2

Column = tuple[float, float]


def cut_titles(
    head: Sequence[Sequence[Segment]], columns: Sequence[Column], cutter: WordCutter
) -> tuple[list[list[Segment]], list[Column], dict[int, list[Segment]]] | None:
    """The head's lines with its titles cut, the columns widened over them, and the
    pieces of each cut segment (by its id); None when no title is cut (see the module
    doc)."""
    if len(columns) < 2:
        return None
    cut: dict[int, list[Segment]] = {}
    lines = []
    for line in head:
        parts: list[Segment] = []
        for segment in line:
            pieces = _cut(segment, columns, cutter)
            if len(pieces) > 1:
                cut[id(segment)] = pieces
            parts += pieces
        lines.append(parts)
    if not cut:
        return None
    return lines, _widened(columns, [s for line in lines for s in line]), cut


def _cut(segment: Segment, columns: Sequence[Column], cutter: WordCutter) -> list[Segment]:
    """``segment`` cut at a word space in each gap between ``columns`` it runs across, when
    every piece stands over one column and lines up with it; else ``[segment]``."""
    gaps = [
        (left[1], right[0])
        for left, right in itertools.pairwise(columns)
        if segment.x0 < left[1] and segment.x1 > right[0]
    ]
    if not gaps or " " not in segment.text:
        return [segment]
    spaces = cutter.spaces(segment)
    at = []
    for low, high in gaps:
        inside = [(lo + hi) / 2 for lo, hi in spaces if low <= (lo + hi) / 2 <= high]
        if not inside:
            return [segment]
        at.append(inside)
    # Each gap's space is the one that leaves the piece before it lined up with its column.
    chosen: list[float] = []
    for options in at:
        for x in options:
            pieces = cutter.cut(segment, [*chosen, x])
            if len(pieces) == len(chosen) + 2 and _lines_up(pieces[-2], columns):
                chosen.append(x)
                break
        else:
            return [segment]
    pieces = cutter.cut(segment, chosen)
    if len(pieces) != len(chosen) + 1 or not all(_lines_up(p, columns) for p in pieces):
        return [segment]
    return pieces


def _lines_up(piece: Segment, columns: Sequence[Column]) -> bool:
    """Whether ``piece`` stands over one of ``columns`` alone and lines up with it."""
    over = [c for c in columns if piece.x0 < c[1] and piece.x1 > c[0]]
    if len(over) != 1:
        return False
    (x0, x1) = over[0]
    return (
        abs(piece.x0 - x0) <= ALIGN_SLACK
        or abs(piece.x1 - x1) <= ALIGN_SLACK
        or abs((piece.x0 + piece.x1) / 2 - (x0 + x1) / 2) <= ALIGN_SLACK
    )


def _widened(columns: Sequence[Column], head: Sequence[Segment]) -> list[Column]:
    """``columns`` each widened over the head's segments that stand over it alone, a
    segment over none a column of its own, strips that then overlap merged."""
    strips = [list(c) for c in columns]
    for segment in head:
        over = [s for s in strips if segment.x0 < s[1] and segment.x1 > s[0]]
        if len(over) == 1:
            over[0][0], over[0][1] = min(over[0][0], segment.x0), max(over[0][1], segment.x1)
        elif not over:
            strips.append([segment.x0, segment.x1])
    merged: list[list[float]] = []
    for x0, x1 in sorted(strips):
        if merged and x0 < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], x1)
        else:
            merged.append([x0, x1])
    return [(a, b) for a, b in merged]
