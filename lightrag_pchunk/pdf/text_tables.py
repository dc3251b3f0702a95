"""Stage A for PDF: tables without ruled cells, found from the alignment of their text.

Input: a page's segments that no ruled table took. Output: grids (column and row borders in
the reading frame, as ``grids.Grid``) of the tables their alignment shows, for the table
finder to read like ruled ones.

A run of rows (segments on one baseline, top down) is a table when at least
:data:`MIN_ROWS` of them hold two cells or more (:data:`MIN_RULED_ROWS` under a rule across
the run's top, a header's underline), their cells fall into the same columns (the
columns are the strips of x that the cells cover, separated by gaps no cell crosses), and
they read as cells, not as prose: three columns or more of short cells, or a first column of
short labels beside longer text (a property table, a glossary, a form); lines alone at a
later column's left edge are wrapped cells, however many. Text of two or three columns of
prose is laid out in columns by ``layout``, not read as a table, and so are labels beside
text that holds a table of contents' leaders (a cover beside its contents) or a reference
list's ``[12]`` beside each entry, and a title set large beside a box of text
(``text_boxes``: a slide's). A row whose first column is empty continues the row above it
(a cell's text wrapped over lines), unless a rule across the table parts them (a header's
underline), and so does a row of
wrapped cells' next lines in several columns, where the table's rows stand further apart
than its lines, and a line alone under a first cell that it goes on (a long label wrapped
in a narrow first column, or a list of values its comma leaves going on); a group's
title, one line alone at the run's left edge set as the rows around it, is a row of one cell
across the table. A run of
bullets or numbering labels beside words is a list, and a run of lines numbered one by one
beside what they hold is text (a program's listing, a brace alone on some lines); rows of
:data:`MIN_NUMBERED_CELLS` cells or more numbered in their first are a table, or of one fewer,
short, whose last cells are no page numbers (a grade, its name and its marks), or under a
header row naming their columns (``row_markers.names_columns``), and so are
numbers beside figures, and rows a rule across them parts (a table style's),
and a run of table-of-contents entries is one. Where a run of rows ends, and which lines
alone in it go on with a cell or title a group: ``table_runs``.

At a page's head, the header of the table going on from the page before printed again and
underlined is a table with the lines under it however few of them hold cells: over the
rest of a row the page break cut, alone in its column (whose text, wider than the titles,
sets the last column's width), the table finder joins that rest to the row.
"""

from __future__ import annotations

import bisect
import itertools
import statistics
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from lightrag_pchunk.pdf.cell_wraps import (
    ALIGN_SLACK,
    row_gap,
    wrapped_lines,
)
from lightrag_pchunk.pdf.gutters import find_gutters
from lightrag_pchunk.pdf.header_rules import (
    alike_rows,
    free_rules,
    header_top,
    is_underlined,
    joined_rules,
)
from lightrag_pchunk.pdf.label_columns import labels_beside_text
from lightrag_pchunk.pdf.layout import visual_rows
from lightrag_pchunk.pdf.page_columns import (
    by_column,
    holds,
    in_rows,
    is_page_columns,
)
from lightrag_pchunk.pdf.row_markers import (
    MARKER_SHARE,
    MAX_CELL_CHARS,
    is_marker,
    labelled_short_cells,
    names_columns,
    no_figure,
    numbered_lines,
)
from lightrag_pchunk.pdf.segments import Segment, WordCutter
from lightrag_pchunk.pdf.table_runs import (
    is_cell_row,
    is_entry_row,
    run_end,
    text_columns,
)
from lightrag_pchunk.pdf.text_boxes import bulleted_boxes, shows_bullet, titles_beside_text
from lightrag_pchunk.pdf.text_table_grid import TextTable, TitleCuts
from lightrag_pchunk.pdf.title_cuts import HEAD_LINES, cut_titles
from lightrag_pchunk.pdf.title_rows import between_titles, overlap

#: Rows with two cells or more a table needs.
MIN_ROWS = 3
#: ... when a rule runs across the run's top, under its first row or above it (a header's
#: underline: the table's style draws it, not the text's alignment alone), each row
#: holding a cell in every column, in print of one height, not in a monospaced font.
MIN_RULED_ROWS = 2
#: The widest gap between two rows of one table, in multiples of the row height.
MAX_ROW_GAP = 2.5
#: Share of a run's rows that must hold two cells or more.
CELL_ROW_SHARE = 0.5
#: Rows numbered in their first cell are a table's, not a list's, when they hold this
#: many cells or more (a list item is a label, its text and at most a page number), or one
#: fewer, all short, their last no page numbers (a grade, its name and its marks).
MIN_NUMBERED_CELLS = 4
#: Points a table's outer column border stands off the text nearest it.
BORDER_MARGIN = 1.0


def find_text_tables(
    segments: Sequence[Segment],
    bands: tuple[float, float],
    rules: np.ndarray | None = None,
    header: Sequence[str] = (),
    cutter: WordCutter | None = None,
    bookmarked: frozenset[str] = frozenset(),
) -> list[TextTable]:
    """Each table's column and row borders and its rows of group titles (see
    :class:`TextTable` and the module doc). ``bands``: where the page's head band
    ends and its foot band starts (its running footer may stand there, below a table that
    ends the page); ``rules``: the page's rules in the reading frame (``x0, top, x1,
    bottom`` rows), whose free-standing horizontal ones underline a table's header, but
    in the head band only under ``header``, the first row of the table going on from the
    page before printed again (else a running header's rule); ``cutter``: cuts the
    segments of the page at word spaces (column titles printed one space apart).

    Rows run across the whole page, so on a page of text columns the lines of one column
    beside a list or short lines in the next can align into a "table" whose columns are
    the page's (``page_columns``): a column's title and text beside a table in the next,
    aligned across the gutter. Such a table is dropped, and on a page whose text stands in
    columns each column is searched on its own too: a table set inside one column is
    found there, though rows read across the page run on into the prose beside and under
    it (a paper's table in its left column) and show no table.

    A table that holds one of ``bookmarked`` (the titles the page's bookmarks name,
    normalised), printed on a row in segments side by side set larger than the page's
    text, took a heading: the rows above each such row and below it are searched apart,
    and its segments stay text (a margin note's lines beside a section title aligned with
    the body's into a "table" that took the title). The other tables are kept. A title
    set at the text's size may be a table's cell (a heading style in a Word table's cell,
    which the file bookmarks too): the table stays whole."""
    find = partial(_find_tables, bands=bands, rules=rules, header=header, cutter=cutter)
    tables = _search(segments, find)
    if not bookmarked:
        return tables
    parts, titled = between_titles(segments, bookmarked)
    if not any(holds(table, s) for table in tables for s in titled):
        return tables
    kept = [table for table in tables if not any(holds(table, s) for s in titled)]
    for part in parts:
        kept += [
            table
            for table in _search(part, find)
            if not any(overlap(table, other) for other in kept)
        ]
    return sorted(kept, key=lambda table: table.ys[0])


def _search(
    segments: Sequence[Segment], find: Callable[[Sequence[Segment]], list[TextTable]]
) -> list[TextTable]:
    """The tables ``find`` reads in ``segments`` across the page, but those that are the
    page's columns, and in each of the page's text columns, where it has some, the tables
    it holds apart from those (:func:`find_text_tables`)."""
    tables = find(segments)
    columned = [table for table in tables if is_page_columns(table, segments)]
    kept = [table for table in tables if table not in columned]
    gutters = find_gutters([s for s in segments if not any(in_rows(t, s) for t in tables)])
    if not gutters:  # one column, or the columns of each such table's page differ
        return kept
    rest = [s for s in segments if not any(holds(table, s) for table in kept)]
    for column in by_column(rest, gutters):
        kept += find(column)
    return sorted(kept, key=lambda table: table.ys[0])


def _find_tables(
    segments: Sequence[Segment],
    bands: tuple[float, float],
    rules: np.ndarray | None,
    header: Sequence[str],
    cutter: WordCutter | None,
) -> list[TextTable]:
    """The tables of ``segments`` read row by row across them (:func:`find_text_tables`)."""
    head = bands[0]
    header_words = " ".join(header).split()
    lines = free_rules(rules)
    rows = [sorted(row, key=lambda s: s.x0) for row in visual_rows(segments)]
    # What each row is, decided once: a run is tried from each of its rows in turn.
    entries = [is_entry_row(row) for row in rows]
    cells = [is_cell_row(row, entry) for row, entry in zip(rows, entries, strict=True)]
    if not any(cells):
        return []  # a table's run starts on a row of two cells or more
    numbered = numbered_lines(rows)
    markers = [
        len(row) >= 2 and (is_marker(row[0].text) or line) and no_figure(row[1].text)
        for row, line in zip(rows, numbered, strict=True)
    ]
    bulleted = [any(shows_bullet(s) for s in row) for row in rows]
    # The space below each row, and whether the next row is near enough to be a table's next.
    gaps = [row_gap(above, row) for above, row in itertools.pairwise(rows)]
    close = [
        gap <= MAX_ROW_GAP * max(s.height for s in above)
        for gap, above in zip(gaps, rows[:-1], strict=True)
    ]
    tables: list[TextTable] = []
    index = floor = 0  # floor: the first row after the last table
    while index < len(rows):
        end, titles = run_end(rows, cells, gaps, close, index, bands)
        if end - index < MIN_RULED_ROWS:  # too short for any table, ruled or not
            index += 1
            continue
        run = rows[index:end]
        if titles_beside_text(run) or (any(bulleted[index:end]) and bulleted_boxes(run)):
            # Text boxes: no row a table's.
            index = end
            continue
        first = run[0]
        again = _prints_header_again(first, header_words)
        placed = min(s.top for s in first) > head or again
        underlined = placed and is_underlined(run, lines)
        # The header printed again over a cut row's rest: a table however few rows follow.
        header_again = again and underlined
        least = 1 if header_again else (MIN_RULED_ROWS if underlined else MIN_ROWS)
        titles = frozenset(i - index for i in titles)
        found = (
            _table(run, markers[index:end], entries[index:end], lines, least, titles, cutter)
            if end - index >= least
            else None
        )
        if found is not None:
            xs, ys, title_rows, cuts = found
            if header_again:  # the cut row's rest, wider than the titles, sets the width
                xs[-1] = max(xs[-1], max(s.x1 for row in run for s in row) + BORDER_MARGIN)
            strips = text_columns([s for row in run if len(row) >= 2 for s in row])
            top = header_top(rows[floor:index], run, xs, ys, lines, strips)
            tables.append(TextTable(xs, [top, *ys[1:]], title_rows, cuts))
            index = floor = end
        else:
            index += 1
    return tables


def _prints_header_again(row: Sequence[Segment], header: Sequence[str]) -> bool:
    """Whether ``row`` (two cells or more) prints ``header`` (the words of the first row of
    the table going on) again: its words are the header's, in order, but for upper lines
    of titles wrapped above it (``Relationship`` over ``Type``)."""
    words = iter(header)
    return bool(header) and len(row) >= 2 and all(w in words for s in row for w in s.text.split())


def _table(
    rows: Sequence[Sequence[Segment]],
    markers: Sequence[bool],
    entries: Sequence[bool],
    lines: np.ndarray,
    least: int,
    titles: frozenset[int],
    cutter: WordCutter | None,
) -> tuple[list[float], list[float], frozenset[int], TitleCuts] | None:
    """The table ``rows`` form (its column and row borders, its rows of group titles), or
    None when they do not read as one; ``titles``: which of ``rows`` title a group (each a
    row of the table). ``markers``: which rows of cells start with a bullet or a bare label
    (``row_markers.is_marker``), or a listing's line number (``numbered_lines``), before
    no figure (a list item's text, a listing's code; a number beside figures is a table's
    first column: ``no_figure``); ``entries``: which rows read as a table-of-contents
    entry (``table_runs.is_entry_row``), as printed (a column title cut is no entry);
    ``lines``: the page's horizontal rules; ``least``: the rows of two cells or more it needs;
    ``cutter``: cuts column titles printed one space apart (``title_cuts``), whose pieces
    the table's rows and columns then hold (the last item returned: each segment cut and
    its pieces)."""
    cut = _titles_cut(rows, cutter)
    if cut is not None:  # the head's rows, their titles cut, are read again
        rows = cut[0]
    cell_rows = [row for row in rows if len(row) >= 2]
    if len(cell_rows) < least:
        return None
    firsts = [row[0] for row in cell_rows]
    if sum(entries) >= CELL_ROW_SHARE * len(cell_rows):
        return None  # a contents page: titles, their leaders, the page numbers beside them
    marked = sum(markers)  # rows of one cell are never counted as marked
    cells = statistics.median(len(row) for row in cell_rows)
    wide = cells >= MIN_NUMBERED_CELLS or (
        cells >= MIN_NUMBERED_CELLS - 1 and (labelled_short_cells(cell_rows) or names_columns(rows))
    )
    ruled = _ruled_rows(rows, lines)
    if marked >= MARKER_SHARE * len(firsts) and not wide and not ruled:
        return None  # bullets or numbers beside text: a list, headings, a contents page
    columns = cut[1] if cut else text_columns([s for row in cell_rows for s in row])
    if len(columns) < 2:
        return None
    if len(cell_rows) < MIN_ROWS and not alike_rows(cell_rows, columns):
        return None  # too few rows to tell a table from lines that happen to align
    # A line alone that starts at a later column's left edge is a wrapped cell's next line
    # (a description column of many lines).
    starts = [x0 for x0, _ in columns[1:]]
    wrapped = sum(
        1 for row in rows if len(row) == 1 and any(abs(row[0].x0 - x) <= 1.0 for x in starts)
    )
    if len(cell_rows) < CELL_ROW_SHARE * (len(rows) - wrapped):
        return None  # mostly single lines: text with a few aligned ones
    lengths = [len(s.text) for row in cell_rows for s in row]
    if len(columns) >= 3:
        if statistics.median(lengths) > MAX_CELL_CHARS:
            return None
    elif not labels_beside_text(rows, columns, ruled=ruled):
        return None
    xs = [columns[0][0] - BORDER_MARGIN]
    xs += [(a[1] + b[0]) / 2 for a, b in itertools.pairwise(columns)]
    xs.append(columns[-1][1] + BORDER_MARGIN)
    ys, title_rows = _row_borders(rows, xs, lines, titles)
    return (xs, ys, title_rows, cut[2] if cut else ()) if len(ys) >= 3 else None


def _titles_cut(
    rows: Sequence[Sequence[Segment]], cutter: WordCutter | None
) -> tuple[list[list[Segment]], list[tuple[float, float]], TitleCuts] | None:
    """``rows`` with the column titles of their head cut at word spaces over the columns
    of the rows below (``title_cuts``), those columns widened over the head, and each
    segment cut with its pieces; None when no title is cut."""
    body = [row for row in rows[HEAD_LINES:] if len(row) >= 2]
    if cutter is None or len(body) < MIN_ROWS:
        return None  # too few rows under the titles to show where their columns part
    found = cut_titles(rows[:HEAD_LINES], text_columns([s for row in body for s in row]), cutter)
    if found is None:
        return None
    head, columns, pieces = found
    originals = [s for row in rows[:HEAD_LINES] for s in row if id(s) in pieces]
    cuts = tuple((s, tuple(pieces[id(s)])) for s in originals)
    return [*head, *(list(row) for row in rows[HEAD_LINES:])], columns, cuts


def _ruled_rows(rows: Sequence[Sequence[Segment]], lines: np.ndarray) -> bool:
    """Whether :data:`MIN_RULED_ROWS` rules or more run across ``rows`` between their
    first line and their last, each reaching past the end of the text over it by a line's
    height or more: rows a table style parts (numbers in a first column under a title, a
    topic list), not a list's items, nor its lines underlined (an underline ends where its
    text ends, or a trailing space or two after it)."""
    left = min(s.x0 for row in rows for s in row)
    right = max(s.x1 for row in rows for s in row)
    top = max(s.bottom for s in rows[0])
    bottom = min(s.top for s in rows[-1])
    tops = [min(s.top for s in row) for row in rows]
    ruled = 0
    for x0, y, x1, _ in joined_rules(lines).tolist():
        if not (x0 <= left + ALIGN_SLACK and x1 >= right - ALIGN_SLACK and top < y < bottom):
            continue
        over = rows[bisect.bisect_left(tops, y) - 1]  # an underline lies inside its line's box
        ruled += x1 > max(s.x1 for s in over) + max(s.height for s in over)
    return ruled >= MIN_RULED_ROWS


def _row_borders(
    rows: Sequence[Sequence[Segment]],
    xs: Sequence[float],
    lines: np.ndarray,
    titles: frozenset[int] = frozenset(),
) -> tuple[list[float], frozenset[int]]:
    """Row borders top down and which rows title a group: a table row starts where cells
    of two columns or more start on one baseline, unless they are all wrapped cells' next
    lines (``cell_wraps``), under a horizontal rule across the table (``lines``), and at
    each group's title (``titles``, indexes of ``rows``) and under it; a line in one column
    only goes on with the row above (a cell's text wrapped over lines)."""
    goes_on = wrapped_lines(rows, xs[1])
    across = lines[(lines[:, 0] <= xs[0] + ALIGN_SLACK) & (lines[:, 2] >= xs[-1] - ALIGN_SLACK)]
    borders: list[float] = []
    title_rows: set[int] = set()
    for index, row in enumerate(rows):
        columns = {bisect.bisect_right(xs, (s.x0 + s.x1) / 2) for s in row}
        top = min(s.top for s in row)
        ruled = index and bool(
            ((across[:, 1] > max(s.bottom for s in rows[index - 1])) & (across[:, 1] < top)).any()
        )
        titled = index in titles or index - 1 in titles
        if not borders or ruled or titled or (len(columns) >= 2 and not goes_on[index]):
            borders.append(min(s.top for s in row) - 0.5)
            if index in titles:
                title_rows.add(len(borders) - 1)
    borders.append(max(s.bottom for row in rows for s in row) + 0.5)
    return borders, frozenset(title_rows)
