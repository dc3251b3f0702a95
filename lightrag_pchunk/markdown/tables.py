"""Stage A for Markdown: tables -> one-line ``<table>`` tags and their ``tables.json`` records.

A GFM pipe table becomes a JSON table like a Word data table (:class:`TableShape`): every
row as written, the header row first, recorded as ``table_header`` so stage B repeats it on
every slice (LightRAG's own Markdown parser leaves the header out of the tag, so a table
that is not sliced loses it), and its body rows keyed by header (``keyed_rows``). An HTML
``<table>`` becomes a ``format="html"`` tag whose body is the table's inner HTML on one line,
its ``<thead>`` recorded as ``table_header``, without what only styles it (:func:`_unstyled`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import chain, compress
from operator import add

import lxml.html
from lxml import etree

from lightrag_pchunk.blockfile.table_keys import header_key, unique_keys
from lightrag_pchunk.parse.equations import escape_attr
from lightrag_pchunk.parse.table_shape import json_table_tag
from lightrag_pchunk.parse.tables import TableGrid

_TABLE_TAGS = re.compile(r"<(/?)table(?=[\s>/])[^>]*>", re.IGNORECASE)
_THEAD = re.compile(r"<thead(?=[\s>/])[^>]*>.*?</thead\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
#: Tags and white space from the start: where a match stops short of the end, text is.
_TAGS_AND_SPACE = re.compile(r"(?:<[^>]*>|\s)*")
_MAX_SPAN = 1000
#: A table's own tags (``<col>`` and ``<colgroup>`` only size its columns) and the attributes
#: of its cells that shape the grid; in cells, the attributes that only style the text.
_PART_TAGS = re.compile(r"<(/?)(t[dhr]|thead|tbody|tfoot|caption|colgroup|col)\b([^>]*)>", re.I)
_SPANS = re.compile(r"""\s(?:row|col)span\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)""", re.I)
_STYLING = re.compile(
    r"""\s(?:style|class|lang|width|height|align|valign|bgcolor|border|cellpadding|cellspacing"""
    r"""|nowrap|x:[\w-]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?(?=[\s/>])""",
    re.I,
)
#: The ASCII characters ``str.split()`` cuts at, the space aside.
_ASCII_SPLIT_CONTROLS = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"
_json_string = json.encoder.encode_basestring


def pipe_table(rows: list[list[str]], table_id: str) -> tuple[str, dict] | None:
    """The tag and ``tables.json`` record of a pipe table (rows as written, the header row
    first, padded to the widest row); None when every cell is blank (LightRAG skips such
    tables).

    The JSON texts are json's (``ensure_ascii=False``), assembled from each cell's JSON
    string made once: the tag's rows, the header and the keyed rows all reuse it.
    """
    width = max((len(row) for row in rows), default=0)
    padded = [row if len(row) == width else row + [""] * (width - len(row)) for row in rows]
    if not any(map(str.strip, chain.from_iterable(padded))):
        return None
    encoded = [list(map(_json_string, row)) for row in padded]
    body = _json_rows(encoded).replace("</table", "<\\/table")
    keys = unique_keys([header_key([label], i) for i, label in enumerate(padded[0])])
    key_prefixes = [f"{_json_string(key)}: " for key in keys]
    keyed = None
    if len(padded) > 1:  # each body row as {header: cell}, its empty cells left out
        # compress() keeps the "key: cell" pairs of the row's non-empty cells, in C.
        objects = [
            "{" + ", ".join(compress(map(add, key_prefixes, strings), row)) + "}"
            for strings, row in zip(encoded[1:], padded[1:], strict=True)
        ]
        keyed = "[" + ", ".join(objects) + "]"
    grid = TableGrid(padded, header_rows=1)
    record = grid.record(table_id, header=_json_rows(encoded[:1]), keyed_rows=keyed, body=body)
    return json_table_tag(table_id, body), record


def _json_rows(rows: list[list[str]]) -> str:
    """``json.dumps`` of rows of cells, given each cell's JSON string."""
    return "[" + ", ".join(["[" + ", ".join(row) + "]" for row in rows]) + "]"


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
    lowered = table_html.lower()
    inner = table_html[table_html.index(">") + 1 : lowered.rindex("</table")]
    body = _one_line(_unstyled(inner)).replace("</table", "<\\/table")
    rows, cols = _dimension(table_html, has_spans="colspan" in lowered)
    record = {
        "id": table_id, "blockid": "", "heading": "", "parent_headings": [],
        "dimension": [rows, cols], "format": "html", "content": body, "caption": "",
        "footnotes": [],
    }  # fmt: skip
    # A <thead> in the body is one in the table (the body only has its spaces squeezed).
    header = _THEAD.search(body) if "<thead" in lowered else None
    if header and _TAG.sub("", header.group(0)).strip():
        record["table_header"] = header.group(0)
    return f'<table id="{escape_attr(table_id)}" format="html">{body}</table>', record


def _unstyled(inner: str) -> str:
    """A table's inner HTML without what only styles it: ``<col>`` / ``<colgroup>``, its
    parts' attributes but ``rowspan`` / ``colspan``, and the cells' styling attributes
    (``style``, ``class``, ``width`` … in a tag, never in the text): a table pasted from a
    spreadsheet carries more of them than text (``<td height=23 class=xl63 width=177>``)."""
    if "=" not in inner and "<col" not in inner.lower():
        return inner

    def part(match: re.Match[str]) -> str:
        closing, name, attributes = match.groups()
        if name.lower().startswith("col"):
            return ""
        return f"<{closing}{name}{''.join(_SPANS.findall(attributes))}>"

    return _TAG.sub(lambda tag: _STYLING.sub("", tag.group(0)), _PART_TAGS.sub(part, inner))


def _one_line(text: str) -> str:
    """``" ".join(text.split())``. Text without the characters ``split()`` cuts at but the
    space, and with no double, leading or trailing space, is already one line, and a large
    table's body is not cut into a list of every word to say so. In ASCII text those are
    a few controls, each looked for at memchr speed; other text has them when it is not
    printable (a check of every character)."""
    if (
        text[:1] != " "
        and text[-1:] != " "
        and "  " not in text
        and (
            not any(control in text for control in _ASCII_SPLIT_CONTROLS)
            if text.isascii()
            else text.isprintable()
        )
    ):
        return text
    return " ".join(text.split())


def _dimension(table_html: str, *, has_spans: bool) -> tuple[int, int]:
    """Rows of the table itself (not of tables nested in its cells) and its widest row,
    counting ``colspan`` (``has_spans``: the table has the word at all)."""
    try:
        table = lxml.html.fragment_fromstring(table_html)
    except (etree.ParserError, ValueError):
        return 0, 0
    rows = table.xpath("tr|thead/tr|tbody/tr|tfoot/tr")
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
