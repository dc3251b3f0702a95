"""Stage A for PDF: a ruled grid's cells over several columns whose text stands in
separate columns (``grids``: the grids and each cell's segments).

A table style may rule its rows and draw the column borders in its header row alone (a
coloured header, white lines between its titles, the body's rows parted by rules only):
below the header each row is one rectangle across the columns. A cell over several
columns whose text stands in two of those columns or more, no segment of it crossing a
column border, is one cell a column: a row of values under their titles, not one text;
so are texts side by side in it whose lines do not pair up (two captions under two
pictures). Text that crosses a border (a group's title, a note across the table) keeps
its cell merged, and so do lines that pair up across the columns, one on each baseline
(the rows of a body ruled as one cell), read row by row.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.pdf.grids import TOLERANCE, Grid
from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.sub_rows import BASELINE_SLACK, line_spans


def split_spanning_cells(
    grid: Grid, owned: dict[int, list[Segment]]
) -> tuple[Grid, dict[int, list[Segment]]]:
    """The grid with each cell over several columns whose text stands in separate columns
    cut into one cell a column (see the module doc), and each cell's segments."""
    cells: list[tuple[int, int, int, int]] = []
    split: dict[int, list[Segment]] = {}
    for index, (r0, r1, c0, c1) in enumerate(grid.cells):
        segments = owned[index]
        columns = [_column_of(grid, segment) for segment in segments]
        merged = r1 > r0 or c1 == c0 or None in columns or len(set(columns)) < 2
        if merged or _rows_across(segments, columns):
            split[len(cells)] = segments
            cells.append((r0, r1, c0, c1))
            continue
        for column in range(c0, c1 + 1):
            split[len(cells)] = [s for s, c in zip(segments, columns, strict=True) if c == column]
            cells.append((r0, r1, column, column))
    return replace(grid, cells=cells), split


def _column_of(grid: Grid, segment: Segment) -> int | None:
    """The grid column ``segment`` stands in, None when it crosses a column border."""
    first = bisect.bisect_right(grid.xs, segment.x0 + TOLERANCE) - 1
    last = bisect.bisect_right(grid.xs, segment.x1 - TOLERANCE) - 1
    return first if first == last else None


def _rows_across(segments: Sequence[Segment], columns: Sequence[int | None]) -> bool:
    """Whether the lines of ``segments`` (in ``columns``) stand in rows across the columns:
    more than one line, each column's on the same baselines as the others'."""
    by_column: dict[int | None, list[Segment]] = defaultdict(list)
    for segment, column in zip(segments, columns, strict=True):
        by_column[column].append(segment)
    tops = [[top for top, _ in line_spans(part)] for part in by_column.values()]
    if len({len(column) for column in tops}) > 1 or len(tops[0]) < 2:
        return False
    return all(max(row) - min(row) <= BASELINE_SLACK for row in zip(*tops, strict=True))
