"""What a chunk's text shows a reader, for counting its words: JSON table bodies as their cell
strings, JSON string escapes decoded.

A table tag shows its caption (an attribute's value: the attribute names and ids are markup)
and its body. A ``format="json"`` body is decoded and its strings listed one per line (a grid
row's cells, a keyed row's keys and values), so JSON escaping (``\\"``, ``\\n``,
``\\u4e2d``, ``<\\/table``) never makes or breaks a word and a slice re-serialised by the
chunker shows the same. Outside tags, escapes are decoded too: the pieces of a table row R cut
between characters are raw JSON.
"""

from __future__ import annotations

import json
import re

from lightrag_pchunk.chunk.table_tags import table_caption

_TABLE = re.compile(r"<table\b(?P<attrs>[^>]*)>(?P<body>.*?)</table>", re.DOTALL | re.IGNORECASE)
_ESCAPE = re.compile(r'\\(["\\/bfnrt]|u[0-9a-fA-F]{4})')
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def shown_text(text: str) -> str:
    """``text`` as a reader sees it: each JSON table body replaced by its cell strings, one per
    line, and JSON string escapes decoded everywhere else (the pieces of a table row R cut
    between characters are raw JSON)."""
    if "<table" not in text and "<TABLE" not in text:
        return _unescape(text)
    out: list[str] = []
    position = 0
    for match in _TABLE.finditer(text):
        out.append(_unescape(text[position : match.start()]))
        out.append(_decoded_table(match))
        position = match.end()
    out.append(_unescape(text[position:]))
    return "".join(out)


def _decoded_table(match: re.Match[str]) -> str:
    attrs, body = match.group("attrs"), match.group("body")
    caption = table_caption(attrs)
    if "html" in attrs.lower() or body.lstrip()[:1] != "[":
        return f"\n{caption}\n{_unescape(body)}\n"
    try:
        rows = json.loads(body)
    except ValueError:  # not a whole JSON array: read as raw JSON text
        return f"\n{caption}\n{_unescape(body)}\n"
    cells: list[str] = []
    _cells(rows, cells)
    return f"\n{caption}\n" + "\n".join(cells) + "\n"


def _unescape(text: str) -> str:
    return _ESCAPE.sub(_unescaped, text) if "\\" in text else text


def _unescaped(match: re.Match[str]) -> str:
    code = match.group(1)
    if code[0] == "u":
        return chr(int(code[1:], 16))
    return _ESCAPES[code]


def _cells(value: object, out: list[str]) -> None:
    """The strings of a decoded table body: a grid row's cells, and a keyed row's keys (its
    column headers) and values; read through ``str()``, an object would show its line
    breaks as ``\\n`` and glue the ``n`` onto the next word."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, list):
        for item in value:
            _cells(item, out)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.append(key)
            _cells(item, out)
    elif value is not None:
        out.append(str(value))
