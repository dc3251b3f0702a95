"""A chunk's text as the pieces the ``inspect`` report draws: headings, paragraphs, tables
as rows of cells, and, inside a line, pictures and equations as placeholders.

The pieces are plain data (lists of strings and numbers, JSON-able); the report's script
builds the page's elements from them with ``textContent`` only, so whatever a document
holds (``<script>`` included) is shown as text. One piece per line of the chunk:

* ``["h", level, runs]``: a heading line (``## 4.2 Scope``);
* ``["p", runs]``: a line of text;
* ``["t", rows]``: a ``<table>`` tag LightRAG writes as JSON rows or as HTML, as rows of
  cells (the first row is the header where the table has one), a cell its text or, when
  it holds a picture or an equation, its runs;
* ``["x", text]``: a ``<table>`` tag of a format we do not read, as it is written.

``runs`` mixes text with ``["d", format, file name, caption]`` for a ``<drawing … />`` tag
(a picture: its file stays with the parse, the report names it) and ``["e", latex]`` for
an ``<equation>``.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from lightrag_pchunk.chunk.compact_headers import html_header_grid
from lightrag_pchunk.chunk.html_rows import html_rows
from lightrag_pchunk.chunk.table_tags import json_rows, parse_table

Piece = list[Any]

_HEADING = re.compile(r"(#{1,6})[ \t]+(.*)")
_INLINE = re.compile(
    r"<drawing\b(?P<drawing>[^>]*?)/?>|<equation\b(?P<eq_attrs>[^>]*)>(?P<latex>.*?)</equation>",
    re.S,
)
_ATTRIBUTE = re.compile(r'([\w:-]+)\s*=\s*"([^"]*)"')


def content_pieces(content: str) -> list[Piece]:
    """The pieces of one chunk's text, a line each (blank lines left out)."""
    pieces: list[Piece] = []
    for line in content.split("\n"):
        if not line.strip():
            continue
        table = _table_piece(line)
        if table is not None:
            pieces.append(table)
            continue
        heading = _HEADING.fullmatch(line.strip())
        if heading is not None:
            pieces.append(["h", len(heading.group(1)), inline_runs(heading.group(2))])
        else:
            pieces.append(["p", inline_runs(line)])
    return pieces


def inline_runs(text: str) -> list[Any]:
    """``text`` as runs: strings, and placeholders for its pictures and equations."""
    runs: list[Any] = []
    position = 0
    for match in _INLINE.finditer(text):
        if match.start() > position:
            runs.append(text[position : match.start()])
        if match.group("latex") is not None:
            runs.append(["e", html.unescape(match.group("latex").strip())])
        else:
            attrs = dict(_ATTRIBUTE.findall(match.group("drawing") or ""))
            path = html.unescape(attrs.get("path", ""))
            runs.append(
                [
                    "d",
                    html.unescape(attrs.get("format", "")),
                    path.replace("\\", "/").rsplit("/", 1)[-1],
                    html.unescape(attrs.get("caption", "")),
                ]
            )
        position = match.end()
    if position < len(text):
        runs.append(text[position:])
    return runs


def _table_piece(line: str) -> Piece | None:
    tag = parse_table(line)
    if tag is None:
        return None
    grid: list[list[str]] | None = None
    if tag.format == "json":
        rows = json_rows(tag.body)
        grid = None if rows is None else [_json_cells(row) for row in rows]
    elif tag.format == "html":
        grid = html_header_grid([row.text for row in html_rows(tag.body).rows])
    if not grid:
        return ["x", line.strip()]
    return ["t", [[_cell_piece(cell) for cell in cells] for cells in grid]]


def _cell_piece(text: str) -> Any:
    """A cell as its text, or as runs when it holds a picture or an equation."""
    runs = inline_runs(text)
    return text if all(isinstance(run, str) for run in runs) else runs


def _json_cells(row: Any) -> list[str]:
    """One JSON row as cell texts: a list cell by cell, an object as ``key: value``."""
    if isinstance(row, dict):
        return [f"{key}: {_cell(value)}" for key, value in row.items()]
    if isinstance(row, list):
        return [_cell(value) for value in row]
    return [_cell(row)]


def _cell(value: Any) -> str:
    if isinstance(value, str):
        return value
    return "" if value is None else json.dumps(value, ensure_ascii=False)


def plain_text(pieces: list[Piece]) -> str:
    """The text of some pieces (what the report's search reads), for tests."""
    out: list[str] = []
    for piece in pieces:
        kind = piece[0]
        if kind == "t":
            out.extend(" ".join(_run_text(cell) for cell in cells) for cells in piece[1])
        elif kind == "x":
            out.append(piece[1])
        else:
            out.append(_run_text(piece[2] if kind == "h" else piece[1]))
    return "\n".join(out)


def _run_text(runs: Any) -> str:
    if isinstance(runs, str):
        return runs
    return "".join(r if isinstance(r, str) else " ".join(r[1:]) for r in runs)
