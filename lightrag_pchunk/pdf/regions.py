"""Stage A for PDF: the cells of a ruled grid's region, a set of neighbouring places
(row, column) with no rule between them (``grids``).

A region is one merged cell, its box. The margin of a frame drawn around a table inside it
(the region holds its box's first and last columns whole: a margin on both sides of the
inner table's cells, open at the top or the bottom or not) is no box covering the inner
cells, whose text it would take: it is rectangles beside them, each row's runs of places,
runs over the same columns in rows that follow merged. Any other region is its box even
where that covers another's places (an L left by a stray border's end: a tall cell stays
one cell, its text whole).
"""

from __future__ import annotations

from collections.abc import Sequence

Cell = tuple[int, int, int, int]  # first row, last row, first column, last column


def region_cells(places: Sequence[tuple[int, int]]) -> list[Cell]:
    """The cells of a region of grid places (see the module doc)."""
    r0, r1 = min(r for r, _ in places), max(r for r, _ in places)
    c0, c1 = min(c for _, c in places), max(c for _, c in places)
    held = set(places)
    sides = all((r, c0) in held and (r, c1) in held for r in range(r0, r1 + 1))
    if len(held) == (r1 - r0 + 1) * (c1 - c0 + 1) or not sides:
        return [(r0, r1, c0, c1)]
    runs: list[Cell] = []
    for r, c in sorted(held):
        if runs and runs[-1][0] == r and runs[-1][3] == c - 1:
            runs[-1] = (r, r, runs[-1][2], c)
        else:
            runs.append((r, r, c, c))
    cells: list[Cell] = []
    below: dict[tuple[int, int], int] = {}  # a cell's columns -> its index, to extend it
    for r, _, first, last in runs:
        index = below.get((first, last))
        if index is not None and cells[index][1] == r - 1:
            cells[index] = (cells[index][0], r, first, last)
        else:
            below[(first, last)] = len(cells)
            cells.append((r, r, first, last))
    return cells
