"""Stage A for PDF: bookmarks that name a cell of a table's row printed without rules, which
heads nothing.

A table's cell is no section: the Word parser keeps a table whole, and a heading style in
one of its cells heads nothing. A table drawn without rules (a contract's signature block:
"ГОСУДАРСТВЕННЫЙ ЗАКАЗЧИК" over the customer's details beside "ПОДРЯДЧИК" over the
contractor's, "М.П." under each signature) is printed as columns of text side by side, which
the layout reads as the page's columns, while the file's bookmarks may still name the
paragraphs of its cells that the author styled with an outline level (a producer writes one
for every such paragraph, in a cell too). Its cells of one row stand at one height and are
set alike, each opening its paragraph; where the author styled one and not the other, a
bookmark names a line that has beside it, across the gutter, a paragraph of its own look
opening at its height that no bookmark names. A heading of a page's columns stands beside
the other column's text, which is set apart from it (bold, larger, in another face) or runs
on past it (a heading set in the text's look beside a paragraph's later line, a wrapped
heading's second line), or is a heading too (two columns opening with their titles at one
height).

Input: the paragraphs and the heading levels bookmarks give them. Output: the paragraphs
that are such cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lightrag_pchunk.pdf.glyphs import SAME_LINE_OVERLAP
from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line
from lightrag_pchunk.pdf.printed_paragraph import PrintedParagraph


def row_cells(found: Sequence[PrintedParagraph], levels: Mapping[int, int]) -> set[int]:
    """The indexes of the paragraphs in ``levels`` (bookmarked) that are one cell of a row
    printed without rules (see the module doc)."""
    named = {id(paragraph.lines[0]) for i, paragraph in enumerate(found) if i in levels}
    # A cell's paragraph opens beside the cell of its row: the first lines only.
    by_page: dict[int, list[Line]] = {}
    for paragraph in found:
        if paragraph.role != TABLE_ROLE:
            opening = paragraph.lines[0]
            by_page.setdefault(opening.page, []).append(opening)
    cells: set[int] = set()
    for index in levels:
        first = found[index].lines[0]
        beside = (
            line
            for line in by_page.get(first.page, ())
            if line.column != first.column and _at_one_height(first, line)
        )
        if any(_same_look(first, line) and id(line) not in named for line in beside):
            cells.add(index)
    return cells


def _at_one_height(a: Line, b: Line) -> bool:
    """Whether ``a`` and ``b`` stand at one height, as glyphs share a baseline."""
    overlap = min(a.bottom, b.bottom) - max(a.top, b.top)
    return overlap >= SAME_LINE_OVERLAP * min(a.height, b.height)


def _same_look(a: Line, b: Line) -> bool:
    """Set alike: bold or not alike, in one size (to the half point), in one font (its name
    and weight, read from the segment holding most of each line's text: a heading in the
    text's size and weight set in another face, its italic, is not set as the text)."""
    return a.bold == b.bold and round(a.size * 2) == round(b.size * 2) and _font(a) == _font(b)


def _font(line: Line) -> str:
    return max(line.segments, key=lambda segment: len(segment.text)).font
