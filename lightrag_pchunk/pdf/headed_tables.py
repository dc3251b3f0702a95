"""Stage A for PDF: a table whose header row is ruled and whose body is not (a ruled band of
column titles over rows of text set in its columns, without rules between them).

Input: a ruled grid of one row, its cells' segments, and the page's segments that no table
took. Output: the grid extended down over its body, or None when no body follows it.

The band names every column. The body is the run of lines below the band that follow
closely (as a table's rows do, ``text_tables.MAX_ROW_GAP``, the first within that many of
the titles' line heights), stay within the band's width and, where a line holds two
cells or more, cross none of its column borders; it ends at its last line of two cells or
more, and half its lines at least hold two cells (prose under a ruled box runs across the
band's columns in lines of one segment). Under a band's cell the body may set more columns
than the band names (a label and its figure under one title): where the body's cells leave
a gap that none of them crosses, a column border is added. Each line of two cells or more,
or starting in the first column, starts a row; a line of one cell elsewhere goes on with
the row above (a cell wrapped over lines); a line of one cell across several columns is a
cell merged over them (a sub-heading).

A ruled grid of two rows or more goes on over the unruled lines printed right under it in its
columns (a total row its author left without rules): lines that follow closely, within the
grid's width, each segment in a column of its own and inside it, the first free to run over
several columns (a label: "Total:" over the narrow columns of numbers and codes) that become
its cell, and :data:`MIN_FOOT_CELLS` of them or more figures. Prose under a table runs
across the columns in one segment a line, a caption too; signatures set in columns under a
statement ("Director: ...") hold no figures.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence

from lightrag_pchunk.pdf.grids import (
    TOLERANCE,
    WORD_SPACE,
    Grid,
    cell_segments,
    first_word_width,
)
from lightrag_pchunk.pdf.layout import visual_rows
from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.table_runs import text_columns
from lightrag_pchunk.pdf.text_tables import CELL_ROW_SHARE, MAX_ROW_GAP

#: Lines of two cells or more a body needs (under a band of titles, one is a table row).
MIN_BODY_ROWS = 1
#: Figures standing inside one column each that a line under a ruled grid needs to be
#: one of its rows (one beside a label is a sentence's end as often as a total).
MIN_FOOT_CELLS = 2


def extend_header_band(
    grid: Grid, owned: dict[int, list[Segment]], free: Sequence[Segment], limit: float
) -> tuple[Grid, dict[int, list[Segment]]] | None:
    """``grid`` (one ruled row) extended over the body below it (see the module doc), with
    each cell's segments; None when no body follows. ``free``: the page's segments that
    no table took; ``limit``: where the body must end (the next table's top, the page's
    foot band)."""
    if len(grid.ys) != 2 or not all(owned.values()):
        return None  # a band of titles names every column
    x0, _, x1, bottom = grid.box
    below = _below(free, bottom, limit)
    titles = [s for group in owned.values() for s in group]
    body = _body(grid, visual_rows(below), max(s.height for s in titles))
    cell_rows = [row for row in body if len(row) >= 2]
    if len(cell_rows) < MIN_BODY_ROWS or len(cell_rows) < CELL_ROW_SHARE * len(body):
        return None
    xs = _body_columns(grid.xs, [s for row in cell_rows for s in row])
    ys = [grid.ys[0], grid.ys[1]]
    row_columns: list[tuple[int, int] | None] = []  # a merged row's columns, else None
    for index, row in enumerate(body):
        columns = sorted({_column(xs, s) for s in row})
        spans = len(row) == 1 and _spanned(xs, row[0])
        if index and len(columns) == 1 and columns[0] > 0 and not spans:
            continue  # a cell's wrapped line: the row above goes on
        wraps = index and _wraps_on(body[index - 1][0], row, (x0, x1))
        if wraps and row_columns[-1] is not None:
            continue  # a merged cell's text wrapped over lines
        if index:  # the body's first row starts at the band's foot
            ys.append(min(s.top for s in row) - 0.5)
        row_columns.append(spans or None)
    ys.append(max(s.bottom for row in body for s in row) + 0.5)
    cells = [(0, 0, bisect.bisect_left(xs, grid.xs[c0] - TOLERANCE),
              bisect.bisect_left(xs, grid.xs[c1 + 1] - TOLERANCE) - 1)
             for _, _, c0, c1 in grid.cells]  # fmt: skip
    for row, merged in enumerate(row_columns, start=1):
        cells += _row_cells(row, merged or (0, 0), len(xs) - 1)
    extended = Grid(xs, ys, sorted(cells))
    return extended, cell_segments(extended, titles + [s for row in body for s in row])


def extend_foot_rows(
    grid: Grid, owned: dict[int, list[Segment]], free: Sequence[Segment], limit: float
) -> tuple[Grid, dict[int, list[Segment]]] | None:
    """``grid`` (ruled, two rows or more) extended over the unruled rows printed under it
    in its columns (see the module doc), with each cell's segments; None when none
    follows. ``free`` and ``limit`` as for :func:`extend_header_band`."""
    if len(grid.ys) < 3:
        return None
    bottom = grid.box[3]
    below = _below(free, bottom, limit)
    rows: list[list[Segment]] = []
    for row in visual_rows(below):
        row = sorted(row, key=lambda s: s.x0)
        if min(s.top for s in row) - bottom > MAX_ROW_GAP * max(s.height for s in row):
            break
        if not _is_foot_row(grid, row):
            break
        rows.append(row)
        bottom = max(s.bottom for s in row)
    if not rows:
        return None
    ys = grid.ys + [min(s.top for s in row) - 0.5 for row in rows[1:]]
    ys.append(bottom + 0.5)
    cells = list(grid.cells)
    for number, row in enumerate(rows, start=len(grid.ys) - 1):
        cells += _row_cells(number, _columns_run(grid.xs, row[0]), len(grid.xs) - 1)
    extended = Grid(grid.xs, ys, sorted(cells))
    segments = [s for group in owned.values() for s in group]
    return extended, cell_segments(extended, segments + [s for row in rows for s in row])


def _is_foot_row(grid: Grid, row: Sequence[Segment]) -> bool:
    """Whether a line (``row``, left to right) under ``grid`` is one of its unruled rows:
    inside its width, every column holding one segment at most, the segments but the
    first inside one column, :data:`MIN_FOOT_CELLS` of them or more figures."""
    x0, _, x1, _ = grid.box
    if any(s.x0 < x0 - TOLERANCE or s.x1 > x1 + TOLERANCE for s in row):
        return False
    if any(_crosses(grid.xs, s) for s in row[1:]):
        return False
    figures = [s for s in row if not _crosses(grid.xs, s) and any(c.isdecimal() for c in s.text)]
    if len(figures) < MIN_FOOT_CELLS:
        return False
    starts = [_columns_run(grid.xs, s) for s in row]
    return all(a[1] < b[0] for a, b in itertools.pairwise(starts))


def _below(free: Sequence[Segment], bottom: float, limit: float) -> list[Segment]:
    """The segments of ``free`` whose middle lies below ``bottom`` that end by ``limit``."""
    return [s for s in free if (s.top + s.bottom) / 2 > bottom and s.bottom <= limit]


def _row_cells(row: int, merged: tuple[int, int], columns: int) -> list[tuple[int, int, int, int]]:
    """The cells of grid row ``row`` of ``columns`` columns: one cell over the ``merged``
    columns (first, last), one in each other column."""
    first, last = merged
    cells = [(row, row, c, c) for c in range(first)]
    cells.append((row, row, first, last))
    return cells + [(row, row, c, c) for c in range(last + 1, columns)]


def _body(grid: Grid, rows: Sequence[Sequence[Segment]], height: float) -> list[list[Segment]]:
    """The lines under the band that form its body (see the module doc), top down;
    ``height``: the band's titles' line height (a heading below stands further off)."""
    x0, _, x1, last = grid.box
    body: list[list[Segment]] = []
    for row in rows:
        pitch = max(s.height for s in row) if body else height
        if min(s.top for s in row) - last > MAX_ROW_GAP * pitch:
            break
        if any(s.x0 < x0 - TOLERANCE or s.x1 > x1 + TOLERANCE for s in row):
            break
        if len(row) >= 2 and any(_crosses(grid.xs, s) for s in row):
            break
        body.append(sorted(row, key=lambda s: s.x0))
        last = max(s.bottom for s in row)
    while body and len(body[-1]) < 2:
        body.pop()
    return body


def _wraps_on(line: Segment, row: Sequence[Segment], sides: tuple[float, float]) -> bool:
    """Whether ``row`` is the next line of the merged cell whose line is ``line``: one
    segment starting where it starts, whose first word, after a space, would have run
    past the table's right side less the space the text keeps from its left one
    (``sides``: the table's left and right)."""
    below = row[0]
    if len(row) != 1 or abs(below.x0 - line.x0) > TOLERANCE or not below.text.strip():
        return False
    word_width = first_word_width(below)
    edge = sides[1] - max(line.x0 - sides[0], 0.0)
    return line.x1 + WORD_SPACE * line.height + word_width > edge


def _crosses(xs: Sequence[float], segment: Segment) -> bool:
    """Whether ``segment`` runs across one of the inner column borders ``xs``."""
    return any(segment.x0 < x - TOLERANCE and segment.x1 > x + TOLERANCE for x in xs[1:-1])


def _body_columns(xs: Sequence[float], segments: Sequence[Segment]) -> list[float]:
    """The band's column borders with a border added in each gap that the body's cells
    under one band column leave and none of them crosses."""
    borders = [xs[0]]
    for left, right in itertools.pairwise(xs):
        inside = [s for s in segments if left <= (s.x0 + s.x1) / 2 < right]
        strips = text_columns(inside)
        borders += [(a[1] + b[0]) / 2 for a, b in itertools.pairwise(strips)]
        borders.append(right)
    return borders


def _column(xs: Sequence[float], segment: Segment) -> int:
    """The column of ``segment``'s middle."""
    return max(bisect.bisect_right(xs, (segment.x0 + segment.x1) / 2) - 1, 0)


def _columns_run(xs: Sequence[float], segment: Segment) -> tuple[int, int]:
    """The first and last columns a segment runs over (one column: its middle's)."""
    return _spanned(xs, segment) or (_column(xs, segment),) * 2


def _spanned(xs: Sequence[float], segment: Segment) -> tuple[int, int] | None:
    """The first and last columns a segment runs over, when they are more than one."""
    first = max(bisect.bisect_right(xs, segment.x0 + TOLERANCE) - 1, 0)
    last = min(bisect.bisect_left(xs, segment.x1 - TOLERANCE) - 1, len(xs) - 2)
    return (first, last) if last > first else None
