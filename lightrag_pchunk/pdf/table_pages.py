"""Stage A for PDF: a table gathered page by page (its rows so far, where each was printed,
its header rows and column widths), and whether a table opening a page goes on from the
page before.

A table opening a page goes on from the table that ended the page before when its columns
are that table's (within :data:`COLUMN_MATCH` points), or, shown by its text's alignment
(whose widths vary with the text), as many of them and it opens with the table's first row
printed again. Rows that repeat the table's first rows at the start of its part on a new
page are a header printed again: they are dropped and counted as its header.

In a table shown by its text's alignment, the first row of its part on a new page goes on
with the last row of the page before (a row the page break cut: one row of the document)
when each of its cells stands under text of that row, and either another of its cells goes
on a sentence the cell above it left unfinished (in lower case under words of a sentence,
four at least, without its end: ``analysis_ended`` / ``(optional)`` beside ``The date and
time that the`` / ``malware analysis ended.``), or its first cell is empty and a cell of
that row but the first has nothing under it (its short cells ended on the page before, its
long ones go on). A row of a group, whose first cell its author left empty under the
group's, fills every column the row above fills, and stays a row.

A title printed over the table, in the page's top band, set :data:`TITLE_SIZE` times the
table's text at least, opens a section: the table under it goes on from no other (a
designed report's pages, each under its banner title, each laid out in one ruled box).
A running header over the table is set at about the text's size.

The lines printed right above a table where it opens (its title) and printed again right
above its part on a new page are that title printed again over its rows, as a header row
is: dropped (a directory's pages, each under the title of the list it goes on with)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import median_high

from lightrag_pchunk.parse.tables import GridCell
from lightrag_pchunk.pdf.grids import Grid, cell_text
from lightrag_pchunk.pdf.layout import visual_rows
from lightrag_pchunk.pdf.outline import normalise
from lightrag_pchunk.pdf.segments import Segment

#: Column borders of a continued table match within this many points.
COLUMN_MATCH = 3.0
#: Leading rows of a continuation compared with the table's first rows (a repeated header).
MAX_REPEATED_HEADER = 3
#: Words of a cell that make it a sentence's, not a value's.
MIN_SENTENCE_WORDS = 4
#: A title over a table opening a page is set this many times the table's text at least.
TITLE_SIZE = 2.0
#: Marks that end a sentence.
_ENDS = (".", "!", "?", ":", ";", "。", "！", "？")


@dataclass(slots=True)
class GatheredTable:
    """A table being gathered: its rows of cell texts and cell structure, where each row
    was printed, the header rows found, and its column borders (to recognise a
    continuation)."""

    key: str
    rows: list[list[str]] = field(default_factory=list)
    cells: list[list[GridCell]] = field(default_factory=list)
    row_pages: list[int] = field(default_factory=list)
    boxes: dict[int, tuple[float, float, float, float]] = field(default_factory=dict)
    header_rows: int = 0
    widths: list[float] = field(default_factory=list)
    #: Rows the page break cut, joined again: the row's index, the last page printing it.
    reaches: dict[int, int] = field(default_factory=dict)
    #: The lines printed right above the table where it opens, nearest first, normalised
    #: (:func:`lines_above`, :func:`printed_title`).
    title: tuple[str, ...] = ()


def drop_repeated_header(table: GatheredTable, start: int) -> None:
    """Drop a continuation's leading rows that repeat the table's first rows."""
    for count in range(min(MAX_REPEATED_HEADER, start, len(table.rows) - start), 0, -1):
        head = [_norm(row) for row in table.rows[:count]]
        again = [_norm(row) for row in table.rows[start : start + count]]
        if head == again and any(any(row) for row in head):
            del table.rows[start : start + count]
            del table.cells[start : start + count]
            del table.row_pages[start : start + count]
            table.header_rows = max(table.header_rows, count)
            return


def join_cut_row(table: GatheredTable, start: int) -> None:
    """Join the row ``start`` (the first of the table's part on a new page, after its
    header printed again) to the row above when the page break cut them apart (see the
    module doc): each cell's text after the text above it."""
    if not 0 < start < len(table.rows):
        return
    row, above = table.rows[start], table.rows[start - 1]
    if not any(cell.strip() for cell in row):
        return
    sentence = _sentence_goes_on(above, row)
    if row[0].strip() and not sentence:
        return  # a first cell of its own: a row, unless its text goes on a sentence above
    pairs = list(zip(above, row, strict=False))
    if any(cell.strip() and not upper.strip() for upper, cell in pairs):
        return  # text under an empty cell: a row of its own
    if not sentence and not any(upper.strip() and not cell.strip() for upper, cell in pairs[1:]):
        return  # every column filled again: a row of a group under its first
    table.rows[start - 1] = [
        f"{upper} {cell}" if cell.strip() else upper for upper, cell in pairs
    ] + above[len(pairs) :]
    table.reaches[start - 1] = table.row_pages[start]
    del table.rows[start]
    del table.cells[start]
    del table.row_pages[start]


def _sentence_goes_on(above: Sequence[str], row: Sequence[str]) -> bool:
    """Whether a cell of ``row`` but the first goes on the sentence of the cell above it:
    it starts in lower case, and the text above is words of a sentence (a value in lower
    case, ``string`` over ``timestamp``, is none) without a mark that ends it."""
    return any(
        cell.strip()[:1].islower()
        and len(upper.split()) >= MIN_SENTENCE_WORDS
        and not upper.rstrip().endswith(_ENDS)
        for upper, cell in zip(above[1:], row[1:], strict=False)
    )


def _norm(row: Sequence[str]) -> list[str]:
    return [" ".join(cell.split()).lower() for cell in row]


def printed_again(
    box: tuple[float, float, float, float], before: Sequence[tuple[float, float, float, float]]
) -> bool:
    """Whether a ruled box stands where one stood on the page before (within
    :data:`COLUMN_MATCH` points on every side)."""
    return any(
        all(abs(a - b) <= COLUMN_MATCH for a, b in zip(box, old, strict=True)) for old in before
    )


def goes_on(
    table: GatheredTable, grid: Grid, owned: dict[int, list[Segment]], aligned: bool
) -> bool:
    """Whether ``grid``, opening its page, continues ``table``: its columns are the
    table's, or, ``aligned`` (its columns placed by its text's alignment, whose widths
    vary with the text), as many and it opens with the table's first row printed again."""
    if _same_columns(table, grid):
        return True
    if not aligned or len(grid.xs) - 1 != len(table.widths) or not table.rows:
        return False
    first = ["" for _ in table.widths]
    for index, (r0, _, c0, _) in enumerate(grid.cells):
        if r0 == 0:
            first[c0] = cell_text(owned[index])
    return any(first) and _norm(first) == _norm(table.rows[0])


def titled_above(
    table: Sequence[Segment], others: Sequence[Segment], top: float, band: float
) -> bool:
    """Whether a segment of ``others`` printed above the table (its ``top``) in the page's
    top ``band`` is set :data:`TITLE_SIZE` times the size of the ``table``'s segments (its
    cells') at least: a title over it, which opens a section."""
    sizes = [s.size for s in table if s.size > 0]
    if not sizes:
        return False
    size = median_high(sizes)
    return any(s.bottom <= top and s.top <= band and s.size >= TITLE_SIZE * size for s in others)


def lines_above(top: float, others: Sequence[Segment]) -> list[list[Segment]]:
    """The segments of the :data:`MAX_REPEATED_HEADER` lines printed nearest above ``top``
    (a table's top edge), nearest first."""
    return visual_rows([s for s in others if s.bottom <= top])[::-1][:MAX_REPEATED_HEADER]


def printed_title(lines: Sequence[Sequence[Segment]]) -> tuple[str, ...]:
    """The text of each of ``lines``, left to right, normalised as titles are compared."""
    return tuple(
        normalise(" ".join(s.text for s in sorted(line, key=lambda s: s.x0))) for line in lines
    )


def title_again(table: GatheredTable, lines: Sequence[Sequence[Segment]]) -> list[Segment]:
    """The segments of ``lines`` (above the table's part on a new page, nearest first) that
    print the table's title again: as many of its lines as they repeat, from the nearest."""
    again: list[Segment] = []
    for line, printed, title in zip(lines, printed_title(lines), table.title, strict=False):
        if not title or printed != title:
            break
        again.extend(line)
    return again


def column_widths(grid: Grid) -> list[float]:
    return [b - a for a, b in zip(grid.xs, grid.xs[1:], strict=False)]


def _same_columns(table: GatheredTable, grid: Grid) -> bool:
    widths = column_widths(grid)
    return len(widths) == len(table.widths) and all(
        abs(a - b) <= COLUMN_MATCH for a, b in zip(widths, table.widths, strict=True)
    )
