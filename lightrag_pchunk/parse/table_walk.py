"""How the body walk writes a Word table (``parse/walk.py: BodyWalker`` reads the rest):
a data table as a ``<table>`` tag line and its ``tables.json`` item, a table nested in a
cell as text lines, a layout table as the body paragraphs it holds (``layout_reading.py``),
tables nested past :data:`MAX_TABLE_DEPTH` as plain words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from lxml import etree

from lightrag_pchunk.parse.layout_reading import layout_reading, title_bar
from lightrag_pchunk.parse.sinks import BlockWalker, LineBuffer, LineSink, Mode
from lightrag_pchunk.parse.table_shape import shape_table
from lightrag_pchunk.parse.tables import (
    CellContent,
    CellParagraph,
    CellTable,
    TableGrid,
    read_table,
    sole_table,
)
from lightrag_pchunk.parse.xml import qn

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from lightrag_pchunk.outline.infer import Look
    from lightrag_pchunk.parse.outline_events import Event, TextLook
    from lightrag_pchunk.parse.story import Story

#: Tables nested deeper than this inside cells are kept as plain text.
MAX_TABLE_DEPTH = 32

_T = qn("w:t")


class TableHost(BlockWalker, Protocol):
    """What the table half of the walk uses of the walk (``parse/walk.py: BodyWalker``)
    besides what an import uses: what it writes into and how it adds lines."""

    doc_hash: str
    events: list[Event]
    tables: dict[str, dict]
    _deep_table_warned: bool
    _layout_tables: int

    def add(self, text: str, start: str | None, end: str | None) -> None: ...

    def heading(
        self,
        level: int,
        text: str,
        para_id: str | None,
        list_look: Callable[[], Look] | None = None,
    ) -> None: ...

    def body_paragraph(
        self,
        text: str,
        para_id: str | None,
        p: etree._Element,
        look: Callable[[], Look],
        *,
        is_list_item: bool,
        toc_level: int | None = None,
    ) -> None: ...


class TableWalk:
    """The table half of the body walk; :class:`~lightrag_pchunk.parse.walk.BodyWalker`
    gives what it writes into (its events, tables, budget) and reads cells with."""

    def table(
        self: TableHost,
        tbl: etree._Element,
        story: Story,
        part: str,
        mode: Mode,
        out: LineSink,
        depth: int = 0,
    ) -> None:
        """A table: a ``<table>`` tag line, or text lines when nested in a cell."""
        if depth >= MAX_TABLE_DEPTH:
            if not self._deep_table_warned:
                self._deep_table_warned = True
                self.warn(
                    f"tables nest deeper than {MAX_TABLE_DEPTH} levels; the deeper ones are"
                    " kept as plain text"
                )
            words = " ".join(" ".join(t.text.split()) for t in tbl.iter(_T) if t.text)
            if words.strip():
                out.add(words.strip(), None, None)
            return

        inner = sole_table(tbl)
        while inner is not None:  # a one-cell frame around a table: the inner one is the data
            tbl, inner = inner, sole_table(inner)

        def read_cell(tc: etree._Element) -> CellContent:
            lines = LineBuffer(self.budget, "a table cell")
            self.blocks_of(tc, story, part, Mode.CELL, lines, depth + 1)
            return CellContent("\n".join(lines.texts), lines.first, lines.last, tuple(lines.parts))

        repeated = 0

        def on_repeat(text: str) -> None:
            # Must fit before the table is built; charged with the table's tag or lines.
            nonlocal repeated
            repeated += len(text)
            self.budget.require(repeated, "a merged table cell repeated in every row it spans")

        grid = read_table(tbl, read_cell, on_repeat)
        self.add_table(grid, mode, out)

    def add_table(self: TableHost, grid: TableGrid, mode: Mode, out: LineSink) -> None:
        """Write a read table: skipped when blank, text lines in a cell, paragraphs for a
        layout table, else its preamble lines and a compact tag line (``table_shape``)."""
        if grid.is_empty:
            return
        if isinstance(out, LineBuffer):  # in a cell (its buffer): a line per row
            out.table(grid)
            return
        first, last = grid.first_id, grid.last_id or grid.first_id
        shape = shape_table(grid)
        bar = title_bar(grid) if shape.layout and mode is Mode.BODY else None
        if bar is not None:  # a title bar: its heading-styled paragraphs head sections
            for title in bar.titles:
                assert title.level is not None  # its titles are heading-styled
                list_look = title.look if title.is_list_item else None
                self.heading(title.level + 1, title.text, title.para_id, list_look)
            for picture in bar.pictures:  # they follow it, as a heading's own pictures do
                self.add(picture.text, picture.start, picture.end)
            return
        reading = layout_reading(grid) if shape.layout and mode is Mode.BODY else None
        if reading is not None:  # read as text: its paragraphs are the body's
            self._layout_tables += 1
            for item in reading:
                if isinstance(item, CellParagraph):
                    self.body_paragraph(
                        item.text, item.para_id, item.element, item.look,
                        is_list_item=item.is_list_item,
                    )  # fmt: skip
                    self.events[-1].layout_table = self._layout_tables
                else:
                    self.add(item.text, item.start, item.end)
            return
        for line in shape.lines:
            out.add(line, first, last)
        if shape.layout:
            return
        table_id = f"tb-{self.doc_hash}-{len(self.tables) + 1:04d}"
        self.tables[table_id] = grid.record(
            table_id, shape.caption, shape.header_json(), shape.keyed_json()
        )
        out.add(shape.tag(table_id), first, last)
        if out is self:
            self.events[-1].cells = tuple(cell_paragraphs(grid))


def cell_paragraphs(grid: TableGrid) -> Iterator[TextLook]:
    """The text and look of each paragraph in ``grid``'s cells, those of the tables nested
    in them too (none when the reader does not say what gave the cells' lines)."""
    for row in grid.parts or ():
        for parts in row:
            for part in parts:
                if isinstance(part, CellParagraph):
                    yield part.text, part.look
                elif isinstance(part, CellTable):
                    yield from cell_paragraphs(part.grid)
