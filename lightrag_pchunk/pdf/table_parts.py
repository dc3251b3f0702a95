"""Stage A for PDF: where a table's text is printed. A table gathered over pages
(``tables``, ``table_pages``) becomes the lines of its block (:class:`RenderedTable`), each
line and each page's share of its tag with the pages that print it (:class:`PagePart`):
the tag by the rows each page prints, a line of layout text or preamble by the row it is
read from, so that a chunk cites the pages of its own text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

from lightrag_pchunk.pdf.table_pages import GatheredTable


# No slots: a PDF's reading crosses from its child process by pickle, and a frozen
# dataclass with slots pickles through state methods that look its fields up for every
# object (a quarter of the pickling time); without slots pickle copies the dict.
@dataclass(frozen=True)
class PagePart:
    """Where part of a unit of text is printed: its 1-based ``page``, the characters
    ``start``..``end`` of its text there, and the box around them in user space."""

    page: int
    start: int
    end: int
    bbox: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class RenderedTable:
    """A table as content lines: ``lines`` (preamble or layout text, then the tag when it
    is a data table), ``tag_index`` the tag's place among them (-1: none), the tag's
    parts by page; ``cells``, the texts of its non-blank cells (text the body text size
    is learnt from, ``parse/body_size.py``); ``line_pages``, the pages that print the rows
    each line before the tag is read from."""

    lines: tuple[str, ...]
    tag_index: int
    parts: tuple[PagePart, ...]
    cells: tuple[str, ...] = ()
    line_pages: tuple[frozenset[int], ...] = ()

    def text_parts(self, number: int) -> tuple[PagePart, ...]:
        """Line ``number`` (not the tag) by page: whole on each page its rows print (a
        table of layout over ten pages gives each line its own page, not the ten)."""
        length = len(self.lines[number])
        pages = self.line_pages[number] if number < len(self.line_pages) else frozenset()
        return tuple(
            replace(part, start=0, end=length)
            for part in self.parts
            if not pages or part.page in pages
        )


def tag_parts(tag: str, table: GatheredTable, pages: Sequence[int]) -> tuple[PagePart, ...]:
    """The tag's characters by page: each page's share starts where the first row printed
    on it starts in the tag, or where a row the page break cut (``table.reaches``) starts,
    whose text both pages print. Rows are found in order, each as a row opening with its
    first cell text after the one before (a row written as the caption, or without text,
    is not in the tag and is passed over)."""
    offsets: dict[int, int] = {}  # each row found: where it starts in the tag
    cursor = 0
    for index, row in enumerate(table.rows):
        cells = [c for c in row if c.strip()]
        found = tag.find("[" + _json_text(cells[0]), cursor) if cells else -1
        if found < 0:
            continue
        offsets[index] = found if offsets else 0
        cursor = found + 1
    starts: dict[int, int] = {}  # each page: where its first row found starts
    for index, offset in offsets.items():
        starts.setdefault(table.row_pages[index], offset)
    ordered = [(page, starts[page]) for page in pages if page in starts]
    spans = {}
    for index, (page, start) in enumerate(ordered):
        end = ordered[index + 1][1] if index + 1 < len(ordered) else len(tag)
        spans[page] = (start, max(end, start))
    for row, last in table.reaches.items():
        if row not in offsets:
            continue
        later = [offset for index, offset in offsets.items() if index > row]
        for page in range(table.row_pages[row] + 1, last + 1):
            if page in table.boxes:
                start, end = spans.get(page, (offsets[row], later[0] if later else len(tag)))
                spans[page] = (min(start, offsets[row]), end)
    return tuple(PagePart(p, *spans[p], table.boxes[p]) for p in sorted(spans))


def row_pages(table: GatheredTable, row: int) -> frozenset[int]:
    """The pages that print row ``row``: its own, and those a page break carried it onto."""
    first = table.row_pages[row]
    return frozenset(range(first, table.reaches.get(row, first) + 1))


def prints_cut_row(table: GatheredTable, page: int) -> bool:
    """Whether ``page`` prints the rest of a row the page break cut."""
    return any(table.row_pages[row] < page <= last for row, last in table.reaches.items())


def _json_text(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)
