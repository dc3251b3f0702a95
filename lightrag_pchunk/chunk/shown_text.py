"""What a chunk's text shows a reader, for counting its words: JSON table bodies as their cell
strings, JSON string escapes decoded.

A table tag shows its caption (an attribute's value: the attribute names and ids are markup)
and its body. A ``format="json"`` body is decoded and its strings listed one per line (a grid
row's cells, a keyed row's keys and values), so JSON escaping (``\\"``, ``\\n``,
``\\u4e2d``, ``<\\/table``) never makes or breaks a word and a slice re-serialised by the
chunker shows the same. Outside tags, escapes are decoded too: the pieces of a table row R cut
between characters are raw JSON. So is other text read (LaTeX's ``\\biguplus`` shows a
backspace and ``iguplus``), the same in the rows and the chunks but where R cut an escape
between two chunks: :func:`escapes_cut` reads the second with the escape whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from itertools import pairwise

from lightrag_pchunk.chunk.table_tags import table_caption

_TABLE = re.compile(r"<table\b(?P<attrs>[^>]*)>(?P<body>.*?)</table>", re.DOTALL | re.IGNORECASE)
_ESCAPE = re.compile(r'\\(["\\/bfnrt]|u[0-9a-fA-F]{4})')
#: What of a ``\\uXXXX`` escape may close a text cut inside it: the ``u`` and 0 to 3 digits.
_UNICODE_ESCAPE_START = re.compile(r"u[0-9a-fA-F]{0,3}\Z")
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


def escapes_cut(texts: Sequence[str]) -> list[str]:
    """Each of the consecutive chunks ``texts`` that follows one ending inside an escape (an
    unpaired backslash, with what follows it of a ``\\uXXXX``), shown with that start of the
    escape before it. R may have cut the escape there (``\\`` | ``biguplus``, ``\\u4e`` |
    ``2d``): the row holding both shows ``iguplus`` where the chunk shows ``biguplus``. Or
    it cut at white space it stripped (``\\`` | ``\\nabla``, from ``\\ \\nabla``): the
    chunk then shows what the row shows, and this reading is the wrong one."""
    readings = []
    for before, text in pairwise(texts):
        start = _open_escape(before)
        if start:
            readings.append(shown_text(start + text))
    return readings


def _open_escape(text: str) -> str:
    """The escape ``text`` ends inside: an unpaired backslash, with what follows it of a
    ``\\uXXXX``; "" if none."""
    digits = _UNICODE_ESCAPE_START.search(text, max(0, len(text) - 4))
    end = digits.start() if digits else len(text)
    backslashes = end - len(text[:end].rstrip("\\"))
    return text[end - 1 :] if backslashes % 2 else ""


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
