"""Stage A for PDF: a table shown by its text's alignment (``text_tables``) that is the
page's text columns side by side, not a table.

Rows run across the whole page, so on a page of text columns the lines of one column beside
a list or short lines in the next can align into a "table" whose columns are the page's.
``text_tables`` drops such a table and searches each text column on its own
(:func:`by_column`): a table set inside one column is still found there. So it does with a
"table" that holds a title (:func:`titled_columns`): a section's title set large in one
column, its text beside a table in the next, aligned across the gutter; a title is no
table's cell, and a heading's type tells it from the cells. Titles over text in two of
its columns are the page's columns of sections side by side (a reference card), dropped
whatever the page holds around them.
"""

from __future__ import annotations

import bisect
import itertools
import math
import statistics
from collections.abc import Sequence

from lightrag_pchunk.outline.lines import is_caption
from lightrag_pchunk.pdf.cell_wraps import ALIGN_SLACK
from lightrag_pchunk.pdf.column_text import PROSE_CHARS, TITLE_TYPE_RATIO, WRAPPED_TITLE_RATIO
from lightrag_pchunk.pdf.gutters import Gutter, crosses, find_gutters
from lightrag_pchunk.pdf.layout import column_of, visual_rows
from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.text_table_grid import TextTable

#: A first column of labels this wide or wider, as a share of the second column, is a
#: column of text beside another (a two-column page), not labels beside their values.
PROSE_COLUMNS_RATIO = 0.8
#: A title's text starts under it within this many of its heights.
TITLE_TEXT_GAP = 2.0
#: Rows of two columns' lines set at two pitches drift apart by this many points a row at
#: least, each row's drift within :data:`PITCH_SLACK` points of the others', over
#: :data:`MIN_PITCH_STEPS` steps from row to row or more.
MIN_DRIFT = 1.0
PITCH_SLACK = 2.0
MIN_PITCH_STEPS = 2


def is_page_columns(table: TextTable, segments: Sequence[Segment]) -> bool:
    """Whether ``table`` is the page's text columns side by side, not a table: the page's text
    beside its rows (above and below them) stands in columns (``gutters.find_gutters``: strips
    between columns of prose; a table's own cells do not count, however long) that no line of prose
    there crosses (a page of columns throughout, not a block of two columns under text across the
    page: a table's rows printed before the ones that aligned, an address block; a running header or
    a float's caption across the page with the columns' prose between it and the rows does not
    count), unless the table holds a title over text in its own column (:func:`titled_columns`): a
    section's title tells a page of columns, whatever line runs across them (a running header, a
    proof's slug), and so do rows that pair lines of two pitches (:func:`_two_pitches`); one of the
    table's column borders lies in such a gutter, and the table's column beside that border, on
    either side, covers :data:`PROSE_COLUMNS_RATIO` of the page's text column there or more (the
    extent of the prose beside the rows between that gutter and the next): a table's column as wide
    as the page's. A table holding titles over text in two of its columns or more
    (:func:`titled_columns`) is the page's columns of sections side by side (a reference card's
    page), whatever the page holds around it."""
    titled = titled_columns(table, segments)
    if len(titled) >= 2:
        return True
    beside = [s for s in segments if not in_rows(table, s)]
    gutters = find_gutters(beside)
    prose = [s for s in beside if len(s.text) >= PROSE_CHARS]
    edges = [-math.inf, *(g.middle for g in gutters), math.inf]
    strips = _free_strips(table, segments)
    # A running header or footer, and a caption of a float set across the columns (a
    # paper's table or figure over both), cross the page, not the columns by the rows.
    across_page = _running_lines(segments, prose) + [s for s in prose if is_caption(s.text)]
    for number, gutter in enumerate(gutters, start=1):
        columned = [s for s in prose if not crosses(s, gutter)]
        crossing = [s for s in prose if crosses(s, gutter)]
        crossed = any(
            s not in across_page or not _columns_between(table, s, columned) for s in crossing
        )
        if crossed and not titled and not _two_pitches(table, segments, gutter):
            continue
        for index in range(1, len(table.xs) - 1):
            if not _parts_at(table, strips[index - 1], index, gutter):
                continue
            for low, high, cell in (
                (edges[number - 1], gutter.middle, table.xs[index - 1 : index + 1]),
                (gutter.middle, edges[number + 1], table.xs[index : index + 2]),
            ):
                side = [s for s in columned if low <= (s.x0 + s.x1) / 2 < high]
                if not side:
                    continue
                start, end = min(s.x0 for s in side), max(s.x1 for s in side)
                covered = min(cell[1], end) - max(cell[0], start)
                if covered >= PROSE_COLUMNS_RATIO * (end - start):
                    return True
    return False


def _running_lines(segments: Sequence[Segment], prose: Sequence[Segment]) -> list[Segment]:
    """The segments that may be a running header or footer: in the page's first or last
    row, set no larger than its prose."""
    rows = visual_rows(segments)
    size = statistics.median(s.size for s in prose) if prose else 0.0
    return [s for row in rows[:1] + rows[-1:] for s in row if s.size <= size]


def _columns_between(table: TextTable, line: Segment, columned: Sequence[Segment]) -> bool:
    """Whether columns' prose stands between ``table`` and a ``line`` across the gutter
    above or below it: that line, a running header or footer, crosses the page, not the
    columns beside the table's rows."""
    top, bottom = table.ys[0], table.ys[-1]
    if line.bottom <= top:
        return any(line.bottom <= s.top and s.bottom <= top for s in columned)
    if line.top >= bottom:
        return any(bottom <= s.top and s.bottom <= line.top for s in columned)
    return False


def _parts_at(table: TextTable, strip: tuple[float, float], index: int, gutter: Gutter) -> bool:
    """Whether ``table``'s column border ``index`` parts its columns at ``gutter``: the
    border lies in it, or the gutter's middle lies in the strip its text leaves free between
    the two columns (``strip``: a column's prose ends at the gutter, the next column's lines,
    a figure's labels set in from its column's edge, start further right: the border,
    halfway, lies past the gutter; or a reference list's first lines, hanging out of the
    next column, start inside the gutter its other lines leave)."""
    border = table.xs[index]
    if gutter.x0 - ALIGN_SLACK <= border <= gutter.x1 + ALIGN_SLACK:
        return True
    low, high = strip
    return low - ALIGN_SLACK <= gutter.middle <= high + ALIGN_SLACK


def _free_strips(table: TextTable, segments: Sequence[Segment]) -> list[tuple[float, float]]:
    """For each inner column border of ``table``, left to right, the strip its text leaves
    free there: from the right end of the lines of the column left of it to the left start
    of the lines of the column right of it (each line in the column of its middle); an
    empty strip where either column holds no line."""
    inside = [s for s in segments if holds(table, s)]
    columns = [bisect.bisect_right(table.xs, (s.x0 + s.x1) / 2) for s in inside]
    strips = []
    for index in range(1, len(table.xs) - 1):
        left = [s.x1 for s, c in zip(inside, columns, strict=True) if c == index]
        right = [s.x0 for s, c in zip(inside, columns, strict=True) if c == index + 1]
        strips.append((max(left), min(right)) if left and right else (math.inf, -math.inf))
    return strips


def _two_pitches(table: TextTable, segments: Sequence[Segment], gutter: Gutter) -> bool:
    """Whether ``table``'s rows pair the lines of two columns set at two pitches across
    ``gutter``: in each row the line right of it stands further below (or above) the line
    left of it than in the row before, by about one step each row (a column's prose beside
    a chart of wider rows in the next: their lines meet in rows by chance; a table's cells
    in a row start at one height, or at heights that vary without a trend)."""
    offsets = []
    for top, bottom in itertools.pairwise(table.ys):
        row = [s for s in segments if top <= (s.top + s.bottom) / 2 <= bottom]
        left = [s.top for s in row if table.xs[0] <= s.x0 and s.x1 <= gutter.x1]
        right = [s.top for s in row if s.x0 >= gutter.x0 and s.x1 <= table.xs[-1]]
        if left and right:
            offsets.append(min(right) - min(left))
    steps = [b - a for a, b in itertools.pairwise(offsets)]
    if len(steps) < MIN_PITCH_STEPS or max(steps) - min(steps) > PITCH_SLACK:
        return False
    return all(step >= MIN_DRIFT for step in steps) or all(step <= -MIN_DRIFT for step in steps)


def titled_columns(table: TextTable, segments: Sequence[Segment]) -> set[int]:
    """The columns of ``table`` (1 the first) holding a line that is a title over text in
    its own column, not a cell: set in a heading's type over the table's lines
    (:func:`_title_type`; a bookmark alone does not tell: a Word table's cells set in
    heading styles are bookmarked), no other line of its row a title too (a header's row
    of column titles), with a line of text, no title, under it in its column, within
    :data:`TITLE_TEXT_GAP` of its height (a section's title over its text; a side heading
    beside its paragraph stands alone in its column)."""
    inside = [s for s in segments if holds(table, s)]
    sizes = [s.size for s in inside if s.size > 0]
    body = statistics.median(sizes) if sizes else 0.0
    plain = 2 * sum(s.bold for s in inside) < len(inside)
    typed = {id(s) for s in inside if _title_type(s, body, plain)}
    titled: set[int] = set()
    for line in inside:
        if id(line) not in typed:
            continue
        row = [s for s in inside if s.top < line.bottom and line.top < s.bottom]
        if any(id(s) in typed for s in row if s is not line):
            continue
        column = bisect.bisect_right(table.xs, (line.x0 + line.x1) / 2)
        if column not in titled and any(
            id(s) not in typed
            and bisect.bisect_right(table.xs, (s.x0 + s.x1) / 2) == column
            and 0 <= s.top - line.bottom <= TITLE_TEXT_GAP * line.height
            for s in inside
        ):
            titled.add(column)
    return titled


def _title_type(segment: Segment, body: float, plain: bool) -> bool:
    """Whether ``segment`` is set in a heading's type over lines of median size ``body``:
    ``column_text.TITLE_TYPE_RATIO`` times it or more, or bold where most of those lines
    are not (``plain``) and ``WRAPPED_TITLE_RATIO`` times it (a table's header and row
    labels are set bold in its cells' size)."""
    if body <= 0:  # no size read (a font PDFium sets at 0 points): no type to tell by
        return False
    if segment.size >= TITLE_TYPE_RATIO * body:
        return True
    return plain and segment.bold and segment.size >= WRAPPED_TITLE_RATIO * body


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
