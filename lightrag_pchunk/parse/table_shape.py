"""Stage A: how a read table is written: paragraphs for a layout table, else a compact
``<table>`` tag with its real header and caption.

Input: a :class:`TableGrid` (the full grid, LightRAG's conventions; ``tables.json`` keeps it
whole). Output: a :class:`TableShape`.

- **Layout tables** (one column, one row, mostly empty cells, a signature grid of fill-in
  blanks, a form whose rows hold one text each, a page laid out in cells) are not data:
  their cell texts become lines in reading order.
- **Data tables.** The header is the leading ``w:tblHeader`` rows, else the first row with
  two or more label-like cells, with the rows that continue its vertical merges or label
  the columns of its merged cells; never an all-empty row. Single-text rows above the
  header (a title spanning the table) become the caption; other rows above it (a form's
  preamble) become lines before the tag.
- **No token on padding.** A tag row is its displayed cells: a horizontally merged cell is
  written once, cells in columns that hold no text anywhere are left out, trailing empty
  cells and all-empty rows are dropped. A vertical merge repeats its text in the body (the
  row keeps its key, as LightRAG writes it) and is written once in the header.
- **Keyed rows.** Each body row also as an object ``{column header path: value}`` built
  on the grid's columns (so a merged cell still meets its own header), for the chunker's
  ``keyed`` table text; ``tables.json`` carries them as ``keyed_rows``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from lightrag_pchunk.blockfile.table_keys import header_key, unique_keys
from lightrag_pchunk.parse.equations import escape_attr
from lightrag_pchunk.parse.tables import GridCell, TableGrid

#: A cell longer than this (characters) is text, not a column label.
MAX_LABEL_CHARS = 80
#: A mostly-digit cell this short (a year, a column number) may still sit in a header row.
MAX_YEAR_CHARS = 4
#: The header is looked for among this many leading rows.
HEADER_SEARCH_ROWS = 10
#: At most this many rows continue a header through its vertical merges.
MAX_HEADER_ROWS = 6
#: Below this share of non-empty cells a table is mostly empty: layout, not data.
MIN_FILLED_SHARE = 0.3
#: A table of at most this many rows whose cells are fill-in blanks is a signature grid.
MAX_SIGNATURE_ROWS = 8
#: A cell longer than this (characters) makes its table a text frame (a page laid out in
#: cells), not data.
MAX_DATA_CELL_CHARS = 2000

_BLANK = re.compile(r"(?:_{3,}|\.{5,}|…{2,})")
#: How the cells of a row of one-line cells are joined into one line.
CELL_SEPARATOR = " | "


@dataclass(frozen=True, slots=True)
class TableShape:
    """How one table is written into its block.

    ``layout`` names why a table is written as text (empty for a data table); then
    ``lines`` are all its text. For a data table ``lines`` are the preamble written before
    the tag, ``rows`` the compact rows of the tag (``header_rows`` of them first),
    ``caption`` its title and ``keyed`` its body rows keyed by header (empty without one).
    ``line_rows``: the grid row each of ``lines`` is read from (a PDF's row knows its page).
    """

    lines: tuple[str, ...]
    line_rows: tuple[int, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    header_rows: int = 0
    caption: str = ""
    layout: str = ""
    keyed: tuple[dict[str, str], ...] = ()

    def body(self) -> str:
        """The tag's JSON body; ``</table`` in a cell is written ``<\\/table`` (same JSON)."""
        return json.dumps([list(row) for row in self.rows], ensure_ascii=False).replace(
            "</table", "<\\/table"
        )

    def tag(self, table_id: str) -> str:
        """``<table id="tb-…" format="json"[ caption="…"]>[[…]]</table>`` on one line."""
        return json_table_tag(table_id, self.body(), self.caption)

    def header_json(self) -> str:
        """``table_header``: the header rows as they open the tag's body, ``"[]"`` for none
        (LightRAG then repeats nothing; a chunker must not take the first row for one)."""
        head = [list(row) for row in self.rows[: self.header_rows]]
        return json.dumps(head, ensure_ascii=False)

    def keyed_json(self) -> str | None:
        """``keyed_rows``: the body rows as objects keyed by their column's header path
        (empty cells left out), one per body row of the tag; None without a header."""
        return json.dumps(list(self.keyed), ensure_ascii=False) if self.keyed else None


def json_table_tag(table_id: str, body: str, caption: str = "") -> str:
    """The one-line tag of a JSON table whose body (:meth:`TableShape.body`) is ``body``."""
    caption = f' caption="{escape_attr(caption)}"' if caption else ""
    return f'<table id="{escape_attr(table_id)}" format="json"{caption}>{body}</table>'


def shape_table(grid: TableGrid) -> TableShape:
    """Decide how ``grid`` is written (see the module docstring)."""
    rows = _cells_of(grid)
    filled = [r for r, row in enumerate(rows) if any(text for text, _ in row)]
    columns = {cell.col for row in rows for text, cell in row if text}
    layout = _layout_reason(rows, filled, columns)
    if layout:
        return _as_text(rows, filled, layout)
    header_at, header_count = _find_header(grid, rows, len(columns))
    above = [r for r in filled if r < header_at]
    spans_known = grid.cells is not None
    width = grid.dimension[1]
    caption_rows = _leading_titles(rows, above, width, spans_known)
    preamble = [r for r in above if r not in caption_rows]
    body = [r for r in filled if r >= header_at + header_count]
    if header_count == 0:  # no header: single-text rows at the top are still the title
        caption_rows = _leading_titles(rows, filled, width, spans_known)
        body = [r for r in filled if r not in caption_rows]
    if len(body) + header_count < 2 or (header_count and not body):
        return _as_text(rows, filled, "one row")
    if 3 * sum(len(_texts(rows[r])) <= 1 for r in body) >= 2 * len(body):
        # Most rows hold one text: a form of labels to fill in, not a grid of values.
        return _as_text(rows, filled, "form")
    head = range(header_at, header_at + header_count)
    columns = {cell.col for r in [*head, *body] for text, cell in rows[r] if text}
    # A header row that only repeats the one above (all vertical merges) adds nothing.
    written = [w for r in head if (w := _written(rows[r], columns, is_header=r > header_at))]
    header_count = len(written)
    written += [_written(rows[r], columns, is_header=False) for r in body]
    keyed: tuple[dict[str, str], ...] = ()
    if header_count:
        keys = _column_keys(rows, head, sorted(columns))
        keyed = tuple({keys[cell.col]: text for text, cell in rows[r] if text} for r in body)
    # A title merged down over two rows is its first row's text: the next row repeats it.
    caption = " ".join(_flat(text) for r in caption_rows for text in _texts(rows[r]))
    lines, line_rows = _reading_lines(rows, preamble)
    return TableShape(
        lines=lines,
        line_rows=line_rows,
        rows=tuple(written),
        header_rows=header_count,
        caption=caption,
        keyed=keyed,
    )


Row = list[tuple[str, GridCell]]


def _cells_of(grid: TableGrid) -> list[Row]:
    """Each row's displayed cells with their (stripped) texts; without the reader's
    structure every grid column is a cell."""
    if grid.cells is not None:
        return [
            [(row[cell.col].strip(), cell) for cell in cells]
            for row, cells in zip(grid.rows, grid.cells, strict=True)
        ]
    return [[(text.strip(), GridCell(c)) for c, text in enumerate(row)] for row in grid.rows]


def _texts(row: Row) -> list[str]:
    """The row's non-empty texts in order, a vertical merge's repeat left out."""
    return [text for text, cell in row if text and not cell.is_continued]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _layout_reason(rows: list[Row], filled: list[int], columns: set[int]) -> str:
    """Why the table is layout rather than data ("" when it is data)."""
    if len(columns) <= 1:
        return "one column"
    if len(filled) <= 1:
        return "one row"
    cells = [text for row in rows for text, _ in row]
    texts = [text for text in cells if text]
    if len(texts) < MIN_FILLED_SHARE * len(cells):
        return "mostly empty"
    if any(len(text) > MAX_DATA_CELL_CHARS for text in texts):
        return "text frame"
    blanks = sum(bool(_BLANK.search(text)) for text in texts)
    if len(filled) <= MAX_SIGNATURE_ROWS and blanks * 4 >= len(texts):
        return "signature grid"
    return ""


def _as_text(rows: list[Row], which: Sequence[int], layout: str) -> TableShape:
    """A layout table: the text of rows ``which`` (:func:`_reading_lines`), ``layout`` why."""
    lines, line_rows = _reading_lines(rows, which)
    return TableShape(lines=lines, line_rows=line_rows, layout=layout)


def _reading_lines(
    rows: list[Row], which: Sequence[int]
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The text of rows ``which`` as paragraphs in reading order, and the row each comes
    from: a row of one-line cells is one line (cells ``" | "``-joined), otherwise each cell
    gives its own lines."""
    lines: list[str] = []
    line_rows: list[int] = []
    for r in which:
        texts = _texts(rows[r])
        if len(texts) > 1 and all("\n" not in text for text in texts):
            read = [CELL_SEPARATOR.join(_flat(text) for text in texts)]
        else:
            read = [line.strip() for text in texts for line in text.split("\n") if line.strip()]
        lines += read
        line_rows += [r] * len(read)
    return tuple(lines), tuple(line_rows)


def _is_label(text: str) -> bool:
    """A column label: short, with letters, not mostly digits, not a fill-in blank."""
    flat = _flat(text)
    if not flat or len(flat) > MAX_LABEL_CHARS or _BLANK.search(flat):
        return False
    letters = sum(ch.isalpha() for ch in flat)
    return letters >= 1 and letters >= sum(ch.isdigit() for ch in flat)


def _is_value(text: str) -> bool:
    """A data value rather than a label: more digits than letters, longer than a year."""
    flat = _flat(text)
    digits = sum(ch.isdigit() for ch in flat)
    return len(flat) > MAX_YEAR_CHARS and digits > sum(ch.isalpha() for ch in flat)


def _numbers_columns(texts: list[str]) -> bool:
    """``1 | 2 | 3 …``: a row numbering the columns, as forms print under their header."""
    return len(texts) >= 2 and texts == [str(i) for i in range(1, len(texts) + 1)]


def _is_header_row(texts: list[str]) -> bool:
    """Two or more label-like cells, at least half of them, and no data value."""
    labels = sum(_is_label(text) for text in texts)
    return labels >= 2 and 2 * labels >= len(texts) and not any(map(_is_value, texts))


def _find_header(grid: TableGrid, rows: list[Row], width: int) -> tuple[int, int]:
    """``(first header row, header row count)``; ``(0, 0)`` for a table without one.

    The ``w:tblHeader`` rows win (less the titles and empty rows at their top). Otherwise
    the first row with two or more label-like cells, or any row above a ``1 | 2 | 3 …``
    row, looked for only across rows above it that are sparse (a title, a form's
    preamble), never through dense data rows."""
    declared = grid.header_rows
    start = 0
    while start < declared and len(_texts(rows[start])) <= 1:
        start += 1  # a title or an empty row opening the w:tblHeader rows
    if start < declared:
        return start, declared - start
    filled = [(r, texts) for r, row in enumerate(rows) if (texts := [t for t, _ in row if t])]
    for index, (r, texts) in enumerate(filled[:HEADER_SEARCH_ROWS]):
        numbered = index + 1 < len(filled) and _numbers_columns(filled[index + 1][1])
        if len(texts) >= 2 and numbered:
            return r, _continued_rows(rows, r)
        if _is_header_row(texts):
            if width == 2 and _all_labels(rows, r + 1):
                break  # label | label on every row: a key/value list, no header row
            return r, _continued_rows(rows, r)
        if len(texts) > max(1, width // 2):
            break
    return 0, 0


def _all_labels(rows: list[Row], start: int, sample: int = 5) -> bool:
    """Whether the (up to ``sample``) filled rows from ``start`` all look like headers too."""
    following = [texts for row in rows[start:] if (texts := [t for t, _ in row if t])]
    return bool(following) and all(_is_header_row(texts) for texts in following[:sample])


def _continued_rows(rows: list[Row], first: int) -> int:
    """1 + the rows after ``first`` that continue its vertical merges or label the columns
    of its merged cells (a multi-row header: each such row repeats a header cell above it,
    or names the columns a group above spans, and adds only labels)."""
    count = 1
    while first + count < len(rows) and count < MAX_HEADER_ROWS:
        row = rows[first + count]
        continues = any(cell.is_continued and text for text, cell in row)
        if not continues and not (
            _labels_groups(rows[first + count - 1], row)
            and any(text for later in rows[first + count + 1 :] for text, _ in later)
        ):
            break  # a header labels rows under it: the last row of a chart of groups is its body
        own = [text for text, cell in row if text and not cell.is_continued]
        if any(map(_is_value, own)):
            break
        count += 1
    return count


def _labels_groups(above: Row, row: Row) -> bool:
    """Whether ``row`` is a header's next level under ``above``: labels only, two or more,
    each under a cell of ``above`` merged across more columns than its own (a group, "Role"
    over "Operator | Inspector …"), the columns under the other header cells left empty."""
    groups = [(cell.col, cell.col + cell.span) for text, cell in above if text and cell.span > 1]
    own = [(text, cell) for text, cell in row if text and not cell.is_continued]
    return len(own) >= 2 and all(
        _is_label(text)
        and any(start <= cell.col < end and cell.span < end - start for start, end in groups)
        for text, cell in own
    )


def _written(row: Row, columns: set[int], *, is_header: bool) -> tuple[str, ...]:
    """A row as the tag writes it: its displayed cells (a merged cell once) in the columns
    that hold text, without its trailing empty cells; in a header row after the first, a
    vertical merge's repeat is blank (its label is written above)."""
    texts = [
        "" if is_header and cell.is_continued else text for text, cell in row if cell.col in columns
    ]
    while texts and not texts[-1]:
        texts.pop()
    return tuple(texts)


def _column_keys(rows: list[Row], head: range, columns: list[int]) -> dict[int, str]:
    """Each text column's key for keyed rows: the labels of the header cells covering it
    (``blockfile.table_keys``), unique per table."""
    keys = [
        header_key(
            (
                next((t for t, cell in rows[r] if cell.col <= col < cell.col + cell.span), "")
                for r in head
            ),
            index,
        )
        for index, col in enumerate(columns)
    ]
    return dict(zip(columns, unique_keys(keys), strict=True))


def _leading_titles(
    rows: list[Row], candidates: list[int], width: int, spans_known: bool
) -> list[int]:
    """The rows at the top of ``candidates`` that hold a single text spanning at least half
    the table (any single text when the cells' spans are unknown): its title."""
    titles: list[int] = []
    for r in candidates:
        texts = [(text, cell) for text, cell in rows[r] if text]
        if len(texts) != 1 or len(texts[0][0]) > 2 * MAX_LABEL_CHARS:
            break
        cell = texts[0][1]
        if spans_known and len(rows[r]) > 1 and cell.span * 2 < width:
            break
        titles.append(r)
    return titles
