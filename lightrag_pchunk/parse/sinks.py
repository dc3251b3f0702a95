"""Where a walk over Word block content writes its lines: the mode of what is being read
(the body, a text box, a table cell), the sink protocol, the buffer that collects one cell's
(or one imported list item's) lines within the output budget, and what an import (an
altChunk) needs of the walk it writes into."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Protocol

from lxml import etree

from lightrag_pchunk.parse.budget import OutputBudget
from lightrag_pchunk.parse.tables import CellLine, CellParagraph, CellPart, CellTable, TableGrid

if TYPE_CHECKING:
    from lightrag_pchunk.parse.story import Story


class Mode(enum.Enum):
    """Where block content is being read: the body, a text box in it, or a table cell."""

    BODY = "body"  # headings start blocks; block equations and table tags
    BOX = "box"  # no headings; block equations and table tags
    CELL = "cell"  # no headings; inline equations; nested tables as text lines


class LineSink(Protocol):
    """Receives content lines: the body walker itself, or a :class:`LineBuffer`."""

    def add(self, text: str, start: str | None, end: str | None) -> None: ...


class LineBuffer:
    """The lines of one table cell (or HTML list item) and the paraIds they span; what they
    hold must fit the output budget (it is charged when the table or item is written).
    ``parts`` says what gave the lines (a paragraph, a nested table, another line), so a
    table read as text can give its paragraphs to the outline."""

    def __init__(self, budget: OutputBudget, what: str) -> None:
        self.texts: list[str] = []
        self.parts: list[CellPart] = []
        self.first: str | None = None
        self.last: str | None = None
        self._budget = budget
        self._what = what
        self._chars = 0

    def add(self, text: str, start: str | None, end: str | None) -> None:
        self._line(text, start, end)
        self.parts.append(CellLine(text, start, end))

    def paragraph(self, paragraph: CellParagraph) -> None:
        """A paragraph's line (the outline may read it where the table is layout)."""
        self._line(paragraph.text, paragraph.para_id, paragraph.para_id)
        self.parts.append(paragraph)

    def table(self, grid: TableGrid) -> None:
        """A nested table: its text lines, one per row."""
        first, last = grid.first_id, grid.last_id or grid.first_id
        for line in grid.text_lines():
            self._line(line, first, last)
        self.parts.append(CellTable(grid))

    def _line(self, text: str, start: str | None, end: str | None) -> None:
        self._chars += len(text)
        self._budget.require(self._chars, self._what)
        self.texts.append(text)
        self.first = self.first or start
        self.last = end or self.last


class BlockWalker(Protocol):
    """What an import writing into the walk uses of it (``parse/walk.py: BodyWalker``)."""

    budget: OutputBudget
    warnings: list[str]

    def blocks_of(
        self,
        container: etree._Element,
        story: Story,
        part: str,
        mode: Mode,
        out: LineSink,
        depth: int = 0,
    ) -> None: ...

    def heading(self, level: int, text: str, para_id: str | None) -> None: ...

    def add_table(self, grid: TableGrid, mode: Mode, out: LineSink) -> None: ...

    def warn(self, message: str) -> None: ...
