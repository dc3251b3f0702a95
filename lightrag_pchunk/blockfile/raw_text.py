"""A blocks file read as text, not as JSON rows: its ``"content"`` strings wherever they
are (the no-loss check compares the chunks with them, whatever the reader made of the
file's lines), and one string field of a line that is not valid JSON (salvage)."""

from __future__ import annotations

import json
import re
from json.decoder import scanstring  # type: ignore[attr-defined]

_JSON_STRING_FIELD = r'"{name}"\s*:\s*"((?:[^"\\]|\\.)*)("?)'
_CONTENT_KEY = '"content"'
_AFTER_KEY = re.compile(r'\s*:\s*"')
#: How far a broken ``"content"`` string is read on (a truncated row of a huge file).
_MAX_BROKEN = 1 << 20


def content_strings(text: str) -> tuple[str, ...]:
    """Every ``"content": "..."`` string of a blocks file's text, decoded, in order, found
    without reading its lines or rows (a truncated one up to where it breaks)."""
    found: list[str] = []
    position = text.find(_CONTENT_KEY)
    while position >= 0:
        start = position + len(_CONTENT_KEY)
        colon = _AFTER_KEY.match(text, start)
        if colon is not None:
            try:
                value, end = scanstring(text, colon.end(), False)
            except ValueError:  # truncated or a bad escape: what is left of it
                value = string_field(text[position : position + _MAX_BROKEN], "content") or ""
                end = colon.end()
            found.append(value)
            start = end
        position = text.find(_CONTENT_KEY, start)
    return tuple(found)


def string_field(line: str, name: str) -> str | None:
    """The JSON string of field ``name`` in ``line``, decoded as far as it reads (a
    truncated one up to where it breaks); None when the line has no such field."""
    match = re.search(_JSON_STRING_FIELD.format(name=re.escape(name)), line)
    if match is None:
        return None
    body = match.group(1)
    # A truncated line may end inside an escape sequence: drop the dangling part.
    body = re.sub(r"\\(u[0-9a-fA-F]{0,3})?$", "", body)
    try:
        return json.loads(f'"{body}"', strict=False)
    except ValueError:
        return body
