"""Stage A for Markdown: tables -> one-line ``<table>`` tags and their ``tables.json`` records.

A GFM pipe table becomes a JSON table like a Word data table (:class:`TableShape`): every
row as written, the header row first, recorded as ``table_header`` so stage B repeats it on
every slice (LightRAG's own Markdown parser leaves the header out of the tag, so a table
that is not sliced loses it), and its body rows keyed by header (``keyed_rows``). An HTML
``<table>`` becomes a ``format="html"`` tag whose body is the table's inner HTML on one line,
its ``<thead>`` recorded as ``table_header``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import lxml.html
from lxml import etree

from lightrag_pchunk.blockfile.table_keys import header_key, unique_keys
from lightrag_pchunk.parse.equations import escape_attr
from lightrag_pchunk.parse.table_shape import TableShape
from lightrag_pchunk.parse.tables import TableGrid

_TABLE_TAGS = re.compile(r"<(/?)table(?=[\s>/])[^>]*>", re.IGNORECASE)
_THEAD = re.compile(r"<thead(?=[\s>/])[^>]*>.*?</thead\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
#: Tags and white space from the start: where a match stops short of the end, text is.
_TAGS_AND_SPACE = re.compile(r"(?:<[^>]*>|\s)*")
_MAX_SPAN = 1000


def pipe_table(rows: list[list[str]], table_id: str) -> tuple[str, dict] | None:
    """The tag and ``tables.json`` record of a pipe table (rows as written, the header row
    first, padded to the widest row); None when every cell is blank (LightRAG skips such
    tables)."""
    width = max((len(row) for row in rows), default=0)
    grid = TableGrid([row + [""] * (width - len(row)) for row in rows], header_rows=1)
    if grid.is_empty:
        return None
    keys = unique_keys([header_key([label], i) for i, label in enumerate(grid.rows[0])])
    keyed = tuple({k: v for k, v in zip(keys, row, strict=True) if v} for row in grid.rows[1:])
    shape = TableShape((), tuple(map(tuple, grid.rows)), header_rows=1, keyed=keyed)
    record = grid.record(table_id, header=shape.header_json(), keyed_rows=shape.keyed_json())
    # The tag's body is the record's content: the same rows, encoded once.
    return shape.tag(table_id, body=record["content"]), record


@dataclass(frozen=True, slots=True)
class HtmlPiece:
    """A piece of an HTML block: text as written, or (``is_table``) one whole ``<table>``."""

    text: str
    is_table: bool = False


def split_html_tables(html: str) -> list[HtmlPiece]:
    """``html`` cut into text and whole top-level ``<table>…</table>`` elements, in order.

    A table without its closing tag stays text (it is not a table LightRAG could slice).
    """
    if "<table" not in html.lower():
        return [HtmlPiece(html)]
    pieces: list[HtmlPiece] = []
    depth, start, done = 0, 0, 0
    for match in _TABLE_TAGS.finditer(html):
        if not match.group(1):
            if depth == 0:
                start = match.start()
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                if html[done:start].strip():
                    pieces.append(HtmlPiece(html[done:start]))
                pieces.append(HtmlPiece(html[start : match.end()], is_table=True))
                done = match.end()
    if html[done:].strip():
        pieces.append(HtmlPiece(html[done:]))
    return pieces


def html_table(table_html: str, table_id: str) -> tuple[str, dict] | None:
    """The ``format="html"`` tag and record of one ``<table>…</table>``; None when it holds
    no text (LightRAG skips blank tables)."""
    if _TAGS_AND_SPACE.match(table_html).end() == len(table_html):
        return None  # tags and white space only (not a copy of the text without its tags)
    inner = table_html[table_html.index(">") + 1 : table_html.lower().rindex("</table")]
    body = " ".join(inner.split()).replace("</table", "<\\/table")
    rows, cols = _dimension(table_html)
    record = {
        "id": table_id, "blockid": "", "heading": "", "parent_headings": [],
        "dimension": [rows, cols], "format": "html", "content": body, "caption": "",
        "footnotes": [],
    }  # fmt: skip
    header = _THEAD.search(body)
    if header and _TAG.sub("", header.group(0)).strip():
        record["table_header"] = header.group(0)
    return f'<table id="{escape_attr(table_id)}" format="html">{body}</table>', record


def _dimension(table_html: str) -> tuple[int, int]:
    """Rows of the table itself (not of tables nested in its cells) and its widest row,
    counting ``colspan``."""
    try:
        table = lxml.html.fragment_fromstring(table_html)
    except (etree.ParserError, ValueError):
        return 0, 0
    rows = table.xpath("tr|thead/tr|tbody/tr|tfoot/tr")
    has_spans = "colspan" in table_html.lower()
    widths = [len(row) + (_extra_span(row) if has_spans else 0) for row in rows]
    return len(rows), max(widths, default=0)


def _extra_span(row: etree._Element) -> int:
    """Columns a row's ``colspan`` attributes add beyond one per cell."""
    extra = 0
    for value in row.xpath("td/@colspan|th/@colspan"):
        try:
            extra += min(max(int(value), 1), _MAX_SPAN) - 1
        except ValueError:
            continue
    return extra
