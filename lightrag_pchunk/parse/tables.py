"""Stage A: ``w:tbl`` -> a grid of cell texts, its ``<table>`` tag and ``tables.json`` item.

Input: a table element and a function that reads one cell's block content into text. Output:
:class:`TableGrid`. LightRAG's conventions (upstream facts §5.2): a vertical merge repeats the
restart cell's text in every merged row; a horizontal merge (``w:gridSpan``) puts the text in
the left-most grid column and leaves the others ``""``; the tag body is
``json.dumps(rows, ensure_ascii=False)``; a table whose cells are all blank is skipped.

Where Word and LightRAG differ we follow Word: ``w:gridBefore`` shifts a row's cells right; a
row wider than ``w:tblGrid`` widens the table instead of losing cells; a cell without
``w:vMerge`` never inherits the text above it; rows deleted as tracked changes are dropped;
rows and cells wrapped in content controls (``w:sdt``, ``w:customXml``) are read; only the
leading run of ``w:tblHeader`` rows repeats as the header (Word ignores the mark elsewhere),
and ``w:tblHeader w:val="0"`` is off.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import NamedTuple, TypeAlias

from lxml import etree

from lightrag_pchunk.outline.infer import Look
from lightrag_pchunk.parse.xml import int_val, qn

_TR = qn("w:tr")
_TC = qn("w:tc")
_P = qn("w:p")
_T = qn("w:t")
_TBL = qn("w:tbl")
_OBJECTS = (qn("w:drawing"), qn("w:pict"), qn("w:object"), qn("m:oMath"), qn("w:sym"))
_TR_PR = qn("w:trPr")
_TC_PR = qn("w:tcPr")
_TBL_GRID = qn("w:tblGrid")
_GRID_COL = qn("w:gridCol")
_GRID_SPAN = qn("w:gridSpan")
_GRID_BEFORE = qn("w:gridBefore")
_V_MERGE = qn("w:vMerge")
_TBL_HEADER = qn("w:tblHeader")
_DEL = qn("w:del")
_VAL = qn("w:val")
_PARA_ID = qn("w14:paraId")
_SDT_CONTENT = qn("w:sdtContent")
_WRAPPERS = frozenset({qn("w:sdt"), qn("w:customXml")})
_OFF = frozenset({"0", "false", "off"})
_MAX_SPAN = 63  # Word's column limit; also bounds what a forged gridSpan can allocate


@dataclass(frozen=True, slots=True)
class CellLine:
    """A line of a cell that is never a heading (a list number, a note, a picture line)."""

    text: str
    start: str | None = None
    end: str | None = None


@dataclass(frozen=True, slots=True)
class CellParagraph:
    """A paragraph of a cell, with what the outline needs of it should the table be read
    as text (a layout table): its element (for a table-of-contents mark), its look on
    demand, whether a list numbers it and the outline level (0-8) its heading style gives
    it (None: none, or it shows more than text: a picture, a note's marker)."""

    text: str
    para_id: str | None
    element: etree._Element
    look: Callable[[], Look]
    is_list_item: bool = False
    level: int | None = None


@dataclass(frozen=True, slots=True)
class CellTable:
    """A table nested in a cell (its text there is ``grid.text_lines()``)."""

    grid: TableGrid


#: What a cell holds, in order; its text is the texts of these, one line each (a nested
#: table gives its text lines).
CellPart: TypeAlias = CellLine | CellParagraph | CellTable


@dataclass(frozen=True, slots=True)
class CellContent:
    """One cell as read by the walk: its lines joined with ``\\n``, its paraId range, and
    what gave those lines (empty when the reader does not say)."""

    text: str
    first_id: str | None = None
    last_id: str | None = None
    parts: tuple[CellPart, ...] = ()


CellReader = Callable[[etree._Element], CellContent]


class GridCell(NamedTuple):
    """Where one displayed cell sits in its row: its first grid column, how many grid
    columns it spans (``w:gridSpan``), and whether it continues a vertical merge (its text
    is the merge's, repeated)."""

    col: int
    span: int = 1
    is_continued: bool = False


@dataclass(slots=True)
class TableGrid:
    """A table as rows of cell texts (every row padded to the same width).

    ``cells`` lists each row's displayed cells (:class:`GridCell`) when the reader knows
    them; None for a table read without that structure (an imported HTML table).
    """

    rows: list[list[str]]
    header_rows: int = 0
    first_id: str | None = None
    last_id: str | None = None
    cells: list[list[GridCell]] | None = None
    #: For each displayed cell of ``cells``, what its lines came from (``()`` for a
    #: continued vertical merge); None when the reader does not say.
    parts: list[list[tuple[CellPart, ...]]] | None = field(default=None, compare=False)

    @property
    def is_empty(self) -> bool:
        """True when every cell is blank (LightRAG skips such tables)."""
        return all(not cell.strip() for row in self.rows for cell in row)

    @property
    def dimension(self) -> tuple[int, int]:
        """``(rows, columns)``."""
        return len(self.rows), (len(self.rows[0]) if self.rows else 0)

    def body(self) -> str:
        """The JSON body of the tag, as LightRAG writes it; a cell text ``</table`` is written
        ``<\\/table`` (the same JSON string) so the tag cannot end early."""
        return json.dumps(self.rows, ensure_ascii=False).replace("</table", "<\\/table")

    def record(
        self,
        table_id: str,
        caption: str = "",
        header: str | None = None,
        keyed_rows: str | None = None,
        body: str | None = None,
    ) -> dict:
        """The ``tables.json`` item in LightRAG's field order, ``content`` being the full
        grid; the walk fills blockid/headings. ``header`` is the ``table_header`` string,
        ``keyed_rows`` the body rows keyed by header (a JSON string, ours only), ``body``
        :meth:`body` when the caller made it already."""
        item = {
            "id": table_id,
            "blockid": "",
            "heading": "",
            "parent_headings": [],
            "dimension": list(self.dimension),
            "format": "json",
            "content": self.body() if body is None else body,
            "caption": caption,
            "footnotes": [],
        }
        if header is not None:
            item["table_header"] = header
        if keyed_rows is not None:
            item["keyed_rows"] = keyed_rows
        return item

    def text_lines(self) -> list[str]:
        """The table as text lines, one per row, cells ``" | "``-joined (for a nested table,
        which cannot be a tag inside a cell)."""
        lines = []
        for row in self.rows:
            cells = [" ".join(cell.split()) for cell in row if cell.strip()]
            if cells:
                lines.append(" | ".join(cells))
        return lines


def read_table(
    tbl: etree._Element, read_cell: CellReader, on_repeat: Callable[[str], None] | None = None
) -> TableGrid:
    """Read ``tbl`` into a :class:`TableGrid`; ``read_cell`` gives each displayed cell's text,
    ``on_repeat`` is told each text a vertical merge repeats (the output budget counts it)."""
    grid = _child(tbl, _TBL_GRID)
    width = sum(1 for _ in grid.iterchildren(_GRID_COL)) if grid is not None else 0
    rows: list[list[str]] = []
    structure: list[list[GridCell]] = []
    parts: list[list[tuple[CellPart, ...]]] = []
    merged: dict[int, str] = {}  # grid column -> text of the open vertical merge
    header_rows = 0
    is_leading_header = True
    first_id = last_id = None
    for tr in _children(tbl, _TR):
        col, is_header, is_deleted = _row_props(_child(tr, _TR_PR))
        if is_deleted:
            continue  # a row deleted as a tracked change is not displayed
        row: list[str] = []
        row_cells: list[GridCell] = []
        row_parts: list[tuple[CellPart, ...]] = []
        for tc in _children(tr, _TC):
            span, v_merge = _cell_props(_child(tc, _TC_PR))
            if v_merge == "continue":
                # A continuation shows the restart cell's content; its own paragraphs only
                # mark where the merged area ends.
                text = merged.get(col, "")
                if text and on_repeat is not None:
                    on_repeat(text)
                own = [pid for p in tc.iter(_P) if (pid := p.get(_PARA_ID))]
                last_id = own[-1] if own else last_id
                row_parts.append(())
            else:
                cell = read_cell(tc)
                text = cell.text
                row_parts.append(cell.parts)
                first_id = first_id or cell.first_id
                last_id = cell.last_id or last_id
                if v_merge:
                    merged[col] = text
                else:
                    merged.pop(col, None)
            if len(row) < col + span:
                row.extend([""] * (col + span - len(row)))
            row[col] = text
            row_cells.append(GridCell(col, span, v_merge == "continue"))
            col += span
        if is_header and is_leading_header:
            header_rows += 1
        else:
            is_leading_header = False
        rows.append(row)
        structure.append(row_cells)
        parts.append(row_parts)
    width = max([width, *(len(row) for row in rows)])
    for row in rows:
        row.extend([""] * (width - len(row)))
    return TableGrid(rows, header_rows if rows else 0, first_id, last_id, structure, parts)


def sole_table(tbl: etree._Element) -> etree._Element | None:
    """The table a one-cell table merely frames (its cell holds that table and nothing else
    displayed), or None. Such a frame is layout, so the inner table is the data table."""
    rows = list(islice(_children(tbl, _TR), 2))  # one row or more is all that matters
    cells = list(_children(rows[0], _TC)) if len(rows) == 1 else []
    if len(cells) != 1:
        return None
    inner = None
    for el in cells[0]:
        if el.tag == _TC_PR:
            continue
        if el.tag == _TBL and inner is None:
            inner = el
        elif el.tag != _P or _shows_something(el):
            return None
    return inner


def _shows_something(p: etree._Element) -> bool:
    return any((t.text or "").strip() for t in p.iter(_T)) or (
        next(p.iter(*_OBJECTS), None) is not None
    )


def _row_props(tr_pr: etree._Element | None) -> tuple[int, bool, bool]:
    """``(gridBefore, is a header row, is deleted)`` from a ``w:trPr``."""
    before, is_header, is_deleted = 0, False, False
    if tr_pr is not None:
        for prop in tr_pr:
            tag = prop.tag
            if tag == _GRID_BEFORE:
                before = _int(prop, 0)
            elif tag == _TBL_HEADER:
                is_header = (prop.get(_VAL) or "1").strip().lower() not in _OFF
            elif tag == _DEL:
                is_deleted = True
    return before, is_header, is_deleted


def _cell_props(tc_pr: etree._Element | None) -> tuple[int, str]:
    """``(gridSpan, vMerge)``: vMerge is "" (none), "restart" or "continue"."""
    span, v_merge = 1, ""
    if tc_pr is not None:
        for prop in tc_pr:
            tag = prop.tag
            if tag == _GRID_SPAN:
                span = _int(prop, 1) or 1
            elif tag == _V_MERGE:
                v_merge = "restart" if prop.get(_VAL) == "restart" else "continue"
    return span, v_merge


def _child(parent: etree._Element, tag: str) -> etree._Element | None:
    # A plain loop: the properties element comes first, so this usually stops at once, and
    # costs less than setting up lxml's tag-filtered iterator for every row and cell.
    for child in parent:
        if child.tag == tag:
            return child
    return None


def _children(parent: etree._Element, tag: str) -> Iterator[etree._Element]:
    """``tag`` children of ``parent``, looking through row/cell-level content controls."""
    for child in parent:
        child_tag = child.tag
        if child_tag == tag:
            yield child
        elif child_tag in _WRAPPERS:
            content = child.find(_SDT_CONTENT)
            yield from _children(content if content is not None else child, tag)


def _int(el: etree._Element | None, default: int) -> int:
    value = int_val(el)
    return default if value is None else max(0, min(value, _MAX_SPAN))
