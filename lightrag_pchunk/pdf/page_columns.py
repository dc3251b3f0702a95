"""Stage A for PDF: a table shown by its text's alignment (``text_tables``) that is the
page's text columns side by side, not a table.

Rows run across the whole page, so on a page of text columns the lines of one column beside
a list or short lines in the next can align into a "table" whose columns are the page's.
``text_tables`` drops such a table and searches each text column on its own
(:func:`by_column`): a table set inside one column is still found there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from lightrag_pchunk.pdf.cell_wraps import ALIGN_SLACK
from lightrag_pchunk.pdf.column_text import PROSE_CHARS
from lightrag_pchunk.pdf.layout import Gutter, column_of, find_gutters
from lightrag_pchunk.pdf.segments import Segment

if TYPE_CHECKING:
    from lightrag_pchunk.pdf.text_tables import TextTable

#: A first column of labels this wide or wider, as a share of the second column, is a
#: column of text beside another (a two-column page), not labels beside their values.
PROSE_COLUMNS_RATIO = 0.8


def is_page_columns(table: TextTable, segments: Sequence[Segment]) -> bool:
    """Whether ``table`` is the page's text columns side by side, not a table: the page's
    text beside its rows (above and below them) stands in columns (``layout.find_gutters``:
    strips between columns of prose; a table's own cells do not count, however long)
    that no line of prose there crosses (a page of columns throughout, not a block of two
    columns under text across the page: a table's rows printed before the ones that
    aligned, an address block), one of the table's column borders lies in such a gutter,
    and the table's column beside
    that border, on either side, covers :data:`PROSE_COLUMNS_RATIO` of the page's text
    column there or more (the extent of the prose beside the rows between that gutter and
    the next): a table's column as wide as the page's."""
    beside = [s for s in segments if not in_rows(table, s)]
    gutters = find_gutters(beside)
    prose = [s for s in beside if len(s.text) >= PROSE_CHARS]
    edges = [-math.inf, *(g.middle for g in gutters), math.inf]
    for number, gutter in enumerate(gutters, start=1):
        if any(s.x0 < gutter.x0 and s.x1 > gutter.x1 for s in prose):
            continue
        for index in range(1, len(table.xs) - 1):
            border = table.xs[index]
            if not gutter.x0 - ALIGN_SLACK <= border <= gutter.x1 + ALIGN_SLACK:
                continue
            for low, high, cell in (
                (edges[number - 1], gutter.middle, table.xs[index - 1 : index + 1]),
                (gutter.middle, edges[number + 1], table.xs[index : index + 2]),
            ):
                side = [s for s in prose if low <= (s.x0 + s.x1) / 2 < high]
                if not side:
                    continue
                start, end = min(s.x0 for s in side), max(s.x1 for s in side)
                covered = min(cell[1], end) - max(cell[0], start)
                if covered >= PROSE_COLUMNS_RATIO * (end - start):
                    return True
    return False


def in_rows(table: TextTable, segment: Segment) -> bool:
    """Whether the middle of ``segment`` lies between ``table``'s top and bottom."""
    return table.ys[0] <= (segment.top + segment.bottom) / 2 <= table.ys[-1]


def holds(table: TextTable, segment: Segment) -> bool:
    """Whether the middle of ``segment`` lies inside ``table``'s borders."""
    x, y = (segment.x0 + segment.x1) / 2, (segment.top + segment.bottom) / 2
    return table.xs[0] <= x <= table.xs[-1] and table.ys[0] <= y <= table.ys[-1]


def by_column(segments: Sequence[Segment], gutters: Sequence[Gutter]) -> list[list[Segment]]:
    """``segments`` by text column (``layout.column_of``), left to right; a line across a
    gutter (a title over both columns) goes with the column it starts in."""
    columns: list[list[Segment]] = [[] for _ in range(len(gutters) + 1)]
    for segment in segments:
        columns[column_of(segment, gutters)].append(segment)
    return columns
