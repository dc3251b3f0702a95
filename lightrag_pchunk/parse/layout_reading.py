"""Stage A: a layout table read as text, paragraph by paragraph.

Input: a :class:`TableGrid` that ``table_shape`` finds is layout (a page laid out in cells, a
one-column frame, a form), read with what gave each cell's lines (``TableGrid.parts``).
Output: its lines in ``table_shape``'s reading order (a row of one-line cells is one line,
cells ``" | "``-joined; otherwise each cell gives its lines, a vertical merge read once),
where a cell's paragraph that more of its cell follows stays a :class:`CellParagraph`, so
the outline reads it as it reads a body paragraph (a page laid out in cells has its headings
there; a cell's last line heads nothing in it: a title over other cells, a form's label),
and a table nested in such a cell that is layout too is read the same way. A nested data
table gives its rows as text lines, as in any cell; a joined row is one line, no heading.
A layout table whose only text is a cell of heading-styled paragraphs is a title bar (a
banner a template draws around each chapter's title): its paragraphs head their sections,
as in the body (:func:`title_bar`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TypeGuard

from lightrag_pchunk.parse.table_shape import CELL_SEPARATOR, MAX_DATA_CELL_CHARS, shape_table
from lightrag_pchunk.parse.tables import CellLine, CellParagraph, CellPart, CellTable, TableGrid

#: One line of a layout table read as text.
LayoutLine = CellLine | CellParagraph

#: Text made of picture tags alone (a cell's icon), or of nothing.
_PICTURES = re.compile(r"\s*(?:<drawing\b[^>]*/>\s*)*")


def layout_reading(grid: TableGrid) -> list[LayoutLine] | None:
    """The lines of the layout table ``grid`` in reading order, its paragraphs kept; None
    when the reader did not say what gave the cells' lines (an imported HTML table)."""
    if grid.cells is None or grid.parts is None:
        return None
    first, last = grid.first_id, grid.last_id or grid.first_id
    lines: list[LayoutLine] = []
    for row, cells, parts in zip(grid.rows, grid.cells, grid.parts, strict=True):
        shown = [
            (text, own)
            for cell, own in zip(cells, parts, strict=True)
            if (text := row[cell.col].strip()) and not cell.is_continued
        ]
        if len(shown) > 1 and all("\n" not in text for text, _ in shown):
            joined = CELL_SEPARATOR.join(" ".join(text.split()) for text, _ in shown)
            lines.append(CellLine(joined, first, last))
            continue
        for text, own in shown:
            lines.extend(_cell_reading(text, own, first, last))
    return lines


def _cell_reading(
    text: str, parts: tuple[CellPart, ...], first: str | None, last: str | None
) -> list[LayoutLine]:
    """One cell's lines: its paragraphs, its other lines, its nested tables read."""
    if not parts:
        return [CellLine(line.strip(), first, last) for line in text.split("\n") if line.strip()]
    # Only a cell holding a page of text has its own sections; in a smaller one a bold line
    # is a label or a box's title.
    is_page = len(text) > MAX_DATA_CELL_CHARS
    lines: list[LayoutLine] = []
    for index, part in enumerate(parts):
        if isinstance(part, CellTable):
            nested = shape_table(part.grid).layout and layout_reading(part.grid)
            if nested:
                lines.extend(nested)
                continue
            grid = part.grid
            texts, start, end = grid.text_lines(), grid.first_id, grid.last_id or grid.first_id
        elif isinstance(part, CellParagraph):
            # Its lines as a cell shows them: indentation typed at a soft break is layout.
            texts = [line.strip() for line in part.text.split("\n") if line.strip()]
            if is_page and index < len(parts) - 1:
                shown = "\n".join(texts)
                lines.append(part if shown == part.text else replace(part, text=shown))
                continue
            # Nor does the last line of its cell head anything there: the cell's one text, a
            # title over the cells that follow, a form's label.
            start = end = part.para_id
        else:
            texts, start, end = part.text.split("\n"), part.start, part.end
        lines.extend(CellLine(line.strip(), start, end) for line in texts if line.strip())
    return lines


@dataclass(frozen=True, slots=True)
class TitleBar:
    """What a title bar shows: its heading-styled paragraphs (each with a ``level``), whose
    style says what it says in the body, then the pictures alone beside them (an icon)."""

    titles: list[CellParagraph]
    pictures: list[CellLine]


def title_bar(grid: TableGrid) -> TitleBar | None:
    """What ``grid``, a layout table, shows when it is a title bar, the frame of a title
    alone (a colour stripe, an empty cell beside it): the heading-styled paragraphs of one
    cell and the pictures beside them. None when anything else shows in it: a box's title
    over its text, a form's label beside its field, two titles side by side."""
    if grid.parts is None:
        return None
    shown = [parts for row in grid.parts for parts in row if any(_shows(part) for part in parts)]
    texts = [parts for parts in shown if not all(_is_pictures(part) for part in parts)]
    if len(texts) != 1 or not all(_is_title(part) or _is_pictures(part) for part in texts[0]):
        return None
    pictures = [
        part if isinstance(part, CellLine) else CellLine(part.text, part.para_id, part.para_id)
        for parts in shown
        for part in parts
        if not _is_title(part) and isinstance(part, CellLine | CellParagraph) and _shows(part)
    ]
    return TitleBar([part for part in texts[0] if _is_title(part)], pictures)


def _is_title(part: CellPart) -> TypeGuard[CellParagraph]:
    """Whether a cell's part is a heading-styled paragraph showing text alone."""
    return isinstance(part, CellParagraph) and part.level is not None


def _is_pictures(part: CellPart) -> bool:
    """Whether a cell's part shows pictures only (their tags), or nothing."""
    return not isinstance(part, CellTable) and _PICTURES.fullmatch(part.text) is not None


def _shows(part: CellPart) -> bool:
    """Whether a cell's part shows text (a nested table's is its lines)."""
    if isinstance(part, CellTable):
        return not part.grid.is_empty
    return bool(part.text.strip())
