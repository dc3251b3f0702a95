"""Stage A for PDF: the runs of rows (segments on one baseline, top down) that may form a
table shown by its text's alignment (``text_tables``), the lines alone inside a run, and
the strips of x its cells cover (its columns).

A run starts on a row of two cells or more that is not a table-of-contents entry and goes on
while rows follow closely and hold cells, or one line that is not at the run's left edge (a
wrapped cell's next line), or one line that goes on with the first cell above it (a long
label wrapped in a narrow first column, a list of values its comma leaves going on), or a
group's title across the table, or a group's label set halfway between two of its rows; it
stops short of the page's running footer below it (:data:`FOOTER_GAP`).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from lightrag_pchunk.outline.page_references import is_toc_line
from lightrag_pchunk.pdf.cell_wraps import ALIGN_SLACK, WRAP_GAP_SLACK, starts_lower
from lightrag_pchunk.pdf.grids import WORD_SPACE, first_word_width
from lightrag_pchunk.pdf.segments import SOFT_HYPHENS, Segment

#: A row in the page's foot band further below the run above it than this many times
#: the widest gap between the run's rows is the page's footer, not the table's.
FOOTER_GAP = 1.5
#: Median characters of a label in the first column of a two-column table.
MAX_LABEL_CHARS = 25
#: A column boundary lies in a gap at least this wide (points).
MIN_COLUMN_GAP = 4.0
#: Font sizes within this many points are one print (a group's title and its rows).
SIZE_SLACK = 0.5
#: A group's title runs across a table of this many columns at least (two columns of short
#: lines are as often an index set in two columns).
MIN_TITLED_COLUMNS = 3


def is_entry_row(row: Sequence[Segment]) -> bool:
    """A row of two cells or more whose cells, joined by spaces, read as a table-of-contents
    entry (a title, then leaders, then a page number); never a row of titles' tails
    (:func:`_titles_tails`)."""
    if len(row) < 2 or _titles_tails(row):
        return False
    return is_toc_line(" ".join(s.text for s in row))


def _titles_tails(row: Sequence[Segment]) -> bool:
    """Whether the cells before the last are each a lower-case letter alone: column titles'
    wrapped tails ("s" under "Ob", "d" under "Censore", as a statistics package prints
    them), which title nothing, whatever the last reads as (a roman page "d")."""
    return all(len(text := s.text.strip()) == 1 and text.islower() for s in row[:-1])


def is_cell_row(row: Sequence[Segment], entry: bool) -> bool:
    """A row of two cells or more that is not a table-of-contents entry (a title, then
    leaders or a wide gap, then a page number); ``entry``: whether it reads as one, its
    cells joined by spaces (:func:`is_entry_row`)."""
    if len(row) < 2:
        return False
    texts = [s.text for s in row]
    if entry or (not _titles_tails(row) and is_toc_line(" ".join(texts[:-1]) + "\t" + texts[-1])):
        return len(row) > 2 and not any(".." in t or "…" in t for t in texts)
    return True


def run_end(
    rows: Sequence[Sequence[Segment]],
    cells: Sequence[bool],
    gaps: Sequence[float],
    close: Sequence[bool],
    start: int,
    bands: tuple[float, float],
) -> tuple[int, list[int]]:
    """Where the run of rows that may form a table from ``start`` ends, and its rows of group
    titles: it starts on a row of cells, not on a running header in the page's head band
    (:func:`_is_running_header`), and goes on while rows follow closely and hold cells, or one
    cell that is not at the run's left edge (a wrapped cell's next line), or a group's title
    (:func:`_titles_group`) or label (:func:`_labels_rows`), but not into the page's foot band
    across a gap wider than :data:`FOOTER_GAP` times any between its rows (a running footer
    below a table that ends the page). ``cells``: which rows are rows of cells
    (:func:`is_cell_row`); ``gaps``: the space between each row and the next
    (``cell_wraps.row_gap``); ``close``: which rows the next one follows closely; ``bands``:
    where the page's head band ends and its foot band starts."""
    head, foot = bands
    if not cells[start] or _is_running_header(rows[start], head):
        return start + 1, []
    left = rows[start][0].x0
    end = start + 1
    widest = 0.0  # the widest gap between the run's rows so far
    label = start  # the run's last row of cells, whose first cell a line alone may go on
    titles: list[int] = []
    cell_rows = [rows[start]]  # the run's rows of cells so far
    while end < len(rows) and close[end - 1]:
        row = rows[end]
        gap = gaps[end - 1]
        # Two gaps in the run at least before a wider one can part a footer from it.
        beyond = end - start > 2 and min(s.top for s in row) >= foot
        if beyond and gap > FOOTER_GAP * widest > 0:
            break
        if not cells[end]:
            indent = max(s.height for s in rows[end - 1])
            if _wraps_label(rows[label], rows[end - 1], row):
                pass
            elif _labels_rows(rows, cells, gaps, end, left):
                pass  # a group's label set between two rows of its group
            elif _titles_group(rows, cells, gaps, end, cell_rows, widest):
                titles.append(end)
            elif not (len(row) == 1 and row[0].x0 > left + indent):
                break
        else:
            label = end
            cell_rows.append(row)
        widest = max(widest, gap)
        end += 1
    return end, titles


def _is_running_header(row: Sequence[Segment], head: float) -> bool:
    """Whether ``row`` is a running header in the page's head band (down to ``head``): a
    page number beside a title ("54", "3.3. ÜBERLAGERUNGEN"), which a figure's labels
    aligned under it would make a table's first row."""
    if len(row) != 2 or min(s.top for s in row) > head:
        return False
    left, right = (s.text.strip() for s in row)
    return (left.isdigit() and _has_letters(right)) or (right.isdigit() and _has_letters(left))


def _has_letters(text: str) -> bool:
    return any(c.isalpha() for c in text)


def _titles_group(
    rows: Sequence[Sequence[Segment]],
    cells: Sequence[bool],
    gaps: Sequence[float],
    index: int,
    cell_rows: Sequence[Sequence[Segment]],
    widest: float,
) -> bool:
    """Whether the row ``index``, one line alone at the left edge of the run whose rows of
    cells so far are ``cell_rows``, titles a group of the rows under it across the table
    (``Монтаж оборудования (5)`` over the group's costs): the widest of those rows holds
    :data:`MIN_TITLED_COLUMNS` cells at least, their first cells are labels (their median
    length at most :data:`MAX_LABEL_CHARS`: not a column of prose beside a table); the line
    reaches past them (a line within them may be a row of one cell) and does not start in
    lower case (a sentence going on: a list item's line wrapped under its bullet); a row of
    cells follows it; it stands from the row above and the row below no further than the
    run's rows stand apart (``widest``, within :data:`WRAP_GAP_SLACK` line heights: glyph
    boxes vary); and it is printed as the row above, size and weight (a heading between two
    tables stands apart, or is set larger or bold)."""
    row, above = rows[index], rows[index - 1]
    if len(row) != 1 or index + 1 >= len(rows) or not cells[index + 1] or widest <= 0:
        return False
    firsts = [r[0] for r in cell_rows]
    if max(len(r) for r in cell_rows) < MIN_TITLED_COLUMNS:
        return False
    if statistics.median(len(s.text) for s in firsts) > MAX_LABEL_CHARS:
        return False
    line = row[0]
    if starts_lower(line):
        return False  # a sentence going on: a wrapped line of the row above
    if abs(line.x0 - firsts[0].x0) > ALIGN_SLACK or line.x1 <= max(s.x1 for s in firsts):
        return False
    if line.bold != above[0].bold or abs(line.size - above[0].size) > SIZE_SLACK:
        return False
    spacing = widest + WRAP_GAP_SLACK * line.height
    return gaps[index - 1] <= spacing and gaps[index] <= spacing


def _labels_rows(
    rows: Sequence[Sequence[Segment]],
    cells: Sequence[bool],
    gaps: Sequence[float],
    index: int,
    left: float,
) -> bool:
    """Whether the row ``index``, one short line alone at the run's ``left`` edge, labels
    the rows of cells on either side of it, which leave their first column empty and start
    their second at one x: set halfway between them, it meets both within
    :data:`WRAP_GAP_SLACK` of its height (a group's label in a multi-row cell, ``Multi``
    between ``DPR`` and ``BM25+DPR``)."""
    row = rows[index]
    if len(row) != 1 or index + 1 >= len(rows) or not (cells[index - 1] and cells[index + 1]):
        return False
    line, above, below = row[0], rows[index - 1][0], rows[index + 1][0]
    if len(line.text) > MAX_LABEL_CHARS or abs(line.x0 - left) > ALIGN_SLACK:
        return False
    if above.x0 < line.x1 + MIN_COLUMN_GAP or abs(above.x0 - below.x0) > ALIGN_SLACK:
        return False
    near = WRAP_GAP_SLACK * line.height
    return gaps[index - 1] <= near and gaps[index] <= near


def _wraps_label(
    cells: Sequence[Segment], above: Sequence[Segment], row: Sequence[Segment]
) -> bool:
    """Whether ``row`` is one line going on with the first cell of the row of ``cells``
    (a long label wrapped in a narrow first column), whose line ``above`` it is (that
    row, or a line of the cell already going on): that cell is no longer than a label
    (:data:`MAX_LABEL_CHARS`; a column of prose wraps longer lines), the line starts where
    its line above starts and ends before the next cell's column, and that line ends in a
    hyphen or a comma (a list of values going on: ``campaign,`` over ``intrusion-set``) or,
    under the row itself, the line's first word, after a space, would have run into the
    next cell's column."""
    if len(row) != 1 or len(cells) < 2 or abs(row[0].x0 - above[0].x0) > ALIGN_SLACK:
        return False
    if len(cells[0].text) > MAX_LABEL_CHARS:
        return False
    column = cells[1].x0 - MIN_COLUMN_GAP  # where the next cell's column starts
    if row[0].x1 > column:
        return False
    if above[0].text.endswith(("-", ",", *SOFT_HYPHENS)):
        return True  # a word cut, or a list of values going on
    line = row[0]
    if not line.text.strip() or above is not cells:
        return False  # under a line already going on, only its hyphen or comma tells
    return above[0].x1 + WORD_SPACE * line.height + first_word_width(line) > column


def text_columns(segments: Sequence[Segment]) -> list[tuple[float, float]]:
    """The strips of x the segments cover, merged where they overlap or nearly touch,
    left to right."""
    spans = sorted((s.x0, s.x1) for s in segments)
    columns: list[list[float]] = []
    for x0, x1 in spans:
        if columns and x0 < columns[-1][1] + MIN_COLUMN_GAP:
            columns[-1][1] = max(columns[-1][1], x1)
        else:
            columns.append([x0, x1])
    return [(a, b) for a, b in columns]
