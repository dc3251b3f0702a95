"""Stage A for PDF: a page's tables, ruled (``grids``) or shown by the alignment of their
text (``text_tables``), written as the Word parser writes its tables.

Input: a page's text (:class:`~lightrag_pchunk.pdf.segments.PageText`: segments, and rules
in its reading frame). Output: the page with each table's segments replaced by one segment
standing for it (``Segment.table``, its key), placed in the reading order where the table
is; at the end of the document each table rendered by the Word parser's rules
(``parse.table_shape``: a compact ``<table>`` tag with its header, or the cell texts as
lines for a layout table) with its ``.tables.json`` record and where each page's rows are
in the tag.

A table at the foot of a page continues on the next page when that page opens with a table
of the same columns, or, shown by its text's alignment, of as many that opens with the
table's first row printed again (a ruled box above it printed where the page before
printed one, a running header's banner, does not count): the rows join the first table, and
the rows that repeat its first rows (a header printed again) are dropped and become its
header; a row the page break cut in a table shown by its text's alignment is joined
again (``table_pages``). A ruled grid of one row over
unruled rows set in its columns is extended over them (``headed_tables``).
"""

from __future__ import annotations

import bisect
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from lightrag_pchunk.parse.table_shape import shape_table
from lightrag_pchunk.parse.tables import GridCell, TableGrid
from lightrag_pchunk.pdf.grids import (
    TOLERANCE,
    Grid,
    cell_segments,
    cell_text,
    find_grids,
    hides_columns,
    is_background,
)
from lightrag_pchunk.pdf.headed_tables import extend_foot_rows, extend_header_band
from lightrag_pchunk.pdf.outline import normalise
from lightrag_pchunk.pdf.segments import PageText, Segment, WordCutter
from lightrag_pchunk.pdf.sub_columns import split_spanning_cells
from lightrag_pchunk.pdf.sub_rows import split_banded_rows, split_stacked_cells
from lightrag_pchunk.pdf.table_pages import (
    GatheredTable,
    column_widths,
    drop_repeated_header,
    goes_on,
    join_cut_row,
    lines_above,
    printed_again,
    printed_title,
    title_again,
    titled_above,
)
from lightrag_pchunk.pdf.table_parts import (
    PagePart,
    RenderedTable,
    prints_cut_row,
    row_pages,
    tag_parts,
)
from lightrag_pchunk.pdf.text_table_grid import TextTable
from lightrag_pchunk.pdf.text_tables import find_text_tables

#: The share of the page's height at its top and bottom where furniture may sit between a
#: table and the page edge (a running footer below a table that goes on).
EDGE_BAND = 0.12


@dataclass
class TableFinder:
    """The tables of one document, page by page (see the module doc)."""

    doc_hash: str
    records: dict[str, dict] = field(default_factory=dict)
    rendered: dict[str, RenderedTable] = field(default_factory=dict)
    _tables: list[GatheredTable] = field(default_factory=list)
    _open: GatheredTable | None = None  # the table that ends its page and may go on
    _boxes: list[tuple[float, float, float, float]] = field(
        default_factory=list
    )  # the page before's

    def take(
        self,
        page: PageText,
        titles: frozenset[str] = frozenset(),
        cutter: WordCutter | None = None,
        bookmarked: frozenset[str] = frozenset(),
    ) -> PageText:
        """The page with each table's segments replaced by one segment standing for it
        (ruled tables first, then tables shown by the alignment of their text). A grid
        with a cell that opens with one of ``titles`` (the page's bookmarked titles,
        normalised) over more lines is no table: the boxes a page lays its sections out
        in (a picture's frame, a code box and a sidebar meeting at their edges), whose
        section titles the bookmarks name; their text stays text. ``cutter``: cuts the
        page's segments at word spaces (a table's column titles printed one space apart,
        ``title_cuts``); ``bookmarked``: the titles the page's bookmarks name, normalised,
        which no table shown by its text's alignment holds (``find_text_tables``)."""
        open_table, self._open = self._open, None
        upright = [s for s in page.segments if not s.rotated]
        found: list[tuple[Grid, dict[int, list[Segment]]]] = []
        framed: set[int] = set()  # text in the boxes of a section: text, in no table
        aligned: set[int] = set()  # the grids of tables shown by their text's alignment
        if page.rules is not None and len(page.rules):
            for grid in find_grids(page.rules):
                owned = cell_segments(grid, upright)
                if _opens_section(grid, owned, titles) or is_background(grid, owned, page.frame):
                    framed |= {id(s) for group in owned.values() for s in group}
                elif any(owned.values()) and not hides_columns(grid, owned):
                    split = split_stacked_cells(*split_spanning_cells(grid, owned))
                    found.append(split_banded_rows(*split))
        taken = {id(s) for _, owned in found for group in owned.values() for s in group}
        free = [s for s in upright if id(s) not in taken and id(s) not in framed]
        band = EDGE_BAND * (page.frame[3] - page.frame[1])
        head, foot = page.frame[1] + band, page.frame[3] - band
        found = _with_bodies(found, free, page.frame[3], foot)
        taken = {id(s) for _, owned in found for group in owned.values() for s in group}
        free = [s for s in free if id(s) not in taken]
        header = open_table.rows[0] if open_table is not None and open_table.rows else []
        for shown in find_text_tables(free, (head, foot), page.rules, header, cutter, bookmarked):
            grid = _text_grid(shown)
            # A title cut at a word space is read as its pieces when the grid holds them all.
            pieces = {id(s): cut for s, cut in shown.cuts if all(_inside(grid, p) for p in cut)}
            cells = [p for s in free for p in pieces.get(id(s), (s,))]
            owned = cell_segments(grid, cells)
            if any(owned.values()) and not _opens_section(grid, owned, titles):
                found.append((grid, owned))
                aligned.add(id(grid))
                taken |= {id(s) for group in owned.values() for s in group}
                taken |= pieces.keys()
        found.sort(key=lambda item: item[0].box[1])
        banners = [printed_again(grid.box, self._boxes) for grid, _ in found]
        self._boxes = [grid.box for grid, _ in found]
        if not found:
            return page
        others = [s for s in upright if id(s) not in taken]
        stand_ins: list[Segment] = []
        for number, (grid, owned) in enumerate(found):
            _, top, _, bottom = grid.box
            # A ruled box printed again where the page before printed it, above the
            # table (a running header's banner), stands outside the text, as furniture.
            cells = [s for group in owned.values() for s in group]
            opens_page = (
                all(banners[:number])
                and not any(s.bottom <= top and s.top > head for s in others)
                and not titled_above(cells, others, top, head)
            )
            placed = id(grid) in aligned  # columns placed by the text, not by rules
            above = lines_above(top, others)
            if opens_page and open_table is not None and goes_on(open_table, grid, owned, placed):
                table, start = open_table, len(open_table.rows)  # it goes on from the page before
                taken |= {id(s) for s in title_again(table, above)}
            else:
                key, widths = f"table-{len(self._tables)}", column_widths(grid)
                table, start = GatheredTable(key, widths=widths, title=printed_title(above)), 0
                self._tables.append(table)
            _add_rows(table, grid, owned, page.number)
            box = _user_box(owned)
            table.boxes[page.number] = _union(table.boxes.get(page.number), box)
            if start:
                drop_repeated_header(table, start)
                if placed:
                    join_cut_row(table, start)
            else:
                stand_ins.append(_stand_in(table.key, grid, owned, box))
            ends_page = not any(s.top >= bottom and s.bottom < foot for s in others)
            if ends_page and all(banners[number + 1 :]):
                self._open = table
        rest = [s for s in page.segments if id(s) not in taken]
        return replace(page, segments=tuple(rest + stand_ins))

    def finish(self) -> None:
        """Render every table (see the module doc); data tables get their ids in order."""
        for table in self._tables:
            self.rendered[table.key] = self._render(table)

    def _render(self, table: GatheredTable) -> RenderedTable:
        grid = TableGrid([list(row) for row in table.rows], table.header_rows, cells=table.cells)
        pages = sorted(p for p in table.boxes if p in table.row_pages or prints_cut_row(table, p))
        whole = tuple(PagePart(p, 0, 0, table.boxes[p]) for p in pages)
        if grid.is_empty:
            return RenderedTable((), -1, whole)
        shape = shape_table(grid)
        lines = list(shape.lines)
        cells = tuple(cell for row in grid.rows for cell in row if cell.strip())
        line_pages = tuple(row_pages(table, row) for row in shape.line_rows)
        if shape.layout:
            return RenderedTable(tuple(lines), -1, whole, cells, line_pages)
        table_id = f"tb-{self.doc_hash}-{len(self.records) + 1:04d}"
        self.records[table_id] = grid.record(
            table_id, shape.caption, shape.header_json(), shape.keyed_json()
        )
        tag = shape.tag(table_id)
        lines.append(tag)
        parts = tag_parts(tag, table, pages)
        return RenderedTable(tuple(lines), len(lines) - 1, parts, cells, line_pages)


#: Lines under a bookmarked title that make its cell a section's frame, at least.
SECTION_LINES = 2
#: ... in a cell this share of the grid's width, at least: a column of text (a form's
#: field, a table's header cell, is narrower or holds its label alone).
SECTION_WIDTH = 1 / 3


def _opens_section(grid: Grid, owned: dict[int, list[Segment]], titles: frozenset[str]) -> bool:
    """Whether a cell's first printed line is one of ``titles`` with at least
    :data:`SECTION_LINES` lines under it, the cell :data:`SECTION_WIDTH` of the grid's
    width at least."""
    if not titles:
        return False
    for index, segments in owned.items():
        _, _, first_column, last_column = grid.cells[index]
        width = grid.xs[last_column + 1] - grid.xs[first_column]
        if not segments or width < SECTION_WIDTH * (grid.xs[-1] - grid.xs[0]):
            continue
        tops = sorted({round(s.top) for s in segments})
        first = sorted((s for s in segments if round(s.top) == tops[0]), key=lambda s: s.x0)
        if len(tops) > SECTION_LINES and normalise(" ".join(s.text for s in first)) in titles:
            return True
    return False


def _with_bodies(
    found: list[tuple[Grid, dict[int, list[Segment]]]],
    free: Sequence[Segment],
    end: float,
    foot: float,
) -> list[tuple[Grid, dict[int, list[Segment]]]]:
    """The ruled grids, each one-row band extended over the unruled body below it and each
    larger grid over the unruled rows printed right under it in its columns
    (``headed_tables``), which end above the next grid or at the page's ``end``, those
    rows above its ``foot`` band too (a running footer set in the columns of a table
    that ends the page: its page number and date)."""
    tops = sorted(grid.ys[0] for grid, _ in found)
    extended = []
    for grid, owned in found:
        after = bisect.bisect_right(tops, grid.ys[-1] - TOLERANCE)
        limit = tops[after] if after < len(tops) else end
        extended.append(
            extend_header_band(grid, owned, free, limit)
            or extend_foot_rows(grid, owned, free, min(limit, foot))
            or (grid, owned)
        )
    return extended


def _inside(grid: Grid, segment: Segment) -> bool:
    """Whether the middle of ``segment`` lies inside ``grid`` (its cells then own it)."""
    x0, top, x1, bottom = grid.box
    mx, my = (segment.x0 + segment.x1) / 2, (segment.top + segment.bottom) / 2
    return x0 < mx < x1 and top < my < bottom


def _reading_key(segment: Segment) -> tuple[float, float]:
    return (segment.top, segment.x0)


def _text_grid(shown: TextTable) -> Grid:
    """The grid of a table shown by its text's alignment: a cell at each row and column,
    a group's title one cell across the row."""
    rows, columns = len(shown.ys) - 1, len(shown.xs) - 1
    cells = [
        cell
        for r in range(rows)
        for cell in (
            [(r, r, 0, columns - 1)]
            if r in shown.titles
            else [(r, r, c, c) for c in range(columns)]
        )
    ]
    return Grid(shown.xs, shown.ys, cells)


def _add_rows(table: GatheredTable, grid: Grid, owned: dict[int, list[Segment]], page: int) -> None:
    """Append the grid's rows to the table, LightRAG's way: a merged cell's text in its
    first column, repeated in every row it spans."""
    rows, columns = len(grid.ys) - 1, len(grid.xs) - 1
    texts = [["" for _ in range(columns)] for _ in range(rows)]
    structure: list[list[GridCell]] = [[] for _ in range(rows)]
    for index, (r0, r1, c0, c1) in enumerate(grid.cells):
        text = cell_text(owned[index])
        for r in range(r0, r1 + 1):
            texts[r][c0] = text
            structure[r].append(GridCell(c0, c1 - c0 + 1, r > r0))
    width = max(columns, max((len(row) for row in table.rows), default=0))
    for row, cells in zip(texts, structure, strict=True):
        table.rows.append(row + [""] * (width - len(row)))
        table.cells.append(sorted(cells))
        table.row_pages.append(page)


def _user_box(owned: dict[int, list[Segment]]) -> tuple[float, float, float, float]:
    boxes = [s.bbox for group in owned.values() for s in group]
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _union(
    a: tuple[float, float, float, float] | None, b: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    if a is None:
        return b
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _stand_in(
    key: str, grid: Grid, owned: dict[int, list[Segment]], box: tuple[float, float, float, float]
) -> Segment:
    """The segment that stands for a table in its page's reading order (``box``: its
    segments' box in user space)."""
    segments = [s for group in owned.values() for s in group]
    first = min(segments, key=_reading_key)
    x0, top, x1, bottom = grid.box
    return Segment(
        text=key,
        x0=x0,
        top=top,
        x1=x1,
        bottom=bottom,
        bbox=box,
        first_char=first.first_char,
        middle_char=first.middle_char,
        last_char=first.last_char,
        size=statistics.median(s.size for s in segments),
        table=key,
    )
