"""One content row of a blocks file as its JSON line, built from escaped parts: the same
text as ``json`` writes (``ensure_ascii=False``, LightRAG's separators and key order), made
without a dict per row and, for clean text, without json's character-by-character escaper.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from lightrag_pchunk.model import BlockRow

_encode = json.JSONEncoder(ensure_ascii=False).encode
#: The JSON string of a str, exactly as the encoder writes it.
_json_string = json.encoder.encode_basestring


def usual_row_line(row: BlockRow, *, content_is_clean: bool = False) -> str | None:
    """``dump_line(row_to_mapping(row))`` of the usual row (no extra keys, not a title),
    assembled from its escaped parts: most of a row's cost was the encoder's walk over a
    new dict per row. None for any other row.

    ``content_is_clean``: the content holds no C0 control character other than tab and
    line ends, so it is escaped by :func:`clean_json_string`.
    """
    around = usual_row_parts(row)
    if around is None:
        return None
    content = row.content
    return "".join(
        (
            around[0],
            clean_json_string(content) if content_is_clean else _json_string(content),
            around[1],
        )
    )


def usual_row_parts(row: BlockRow) -> tuple[str, str] | None:
    """The line of the usual row (see :func:`usual_row_line`) before and after its content's
    JSON string; None for any other row."""
    level, blockid, heading = row.level, row.blockid, row.heading
    if row.extra or row.is_title_block or type(level) is not int or type(row.content) is not str:
        return None
    try:  # the escaper takes text only: a row with another parent is json's to write
        parents = ", ".join(map(_json_string, row.parent_headings))
    except TypeError:
        return None
    return (
        '{"type": "content", "blockid": '
        f"{_json_string(blockid) if type(blockid) is str else _encode(blockid)}"
        ', "format": "plain_text", "content": ',
        f', "heading": {_json_string(heading) if type(heading) is str else _encode(heading)}'
        f', "parent_headings": [{parents}], "level": {level}'
        ', "session_type": "body", "table_slice": "none", "positions": '
        f"{_positions_json(row.positions)}}}",
    )


def _positions_json(positions: Sequence[dict[str, Any]]) -> str:
    """The JSON of a row's positions; a heading anchor's, the usual one, without the encoder."""
    if len(positions) == 1 and len(position := positions[0]) == 2:
        keys = iter(position)
        if next(keys) == "type" and next(keys) == "anchor":
            kind, anchor = position["type"], position["anchor"]
            if kind == "heading" and type(kind) is str:
                if anchor is None:
                    return '[{"type": "heading", "anchor": null}]'
                if type(anchor) is str:
                    return f'[{{"type": "heading", "anchor": {_json_string(anchor)}}}]'
            elif type(kind) is str and (anchor is None or type(anchor) is str):
                anchor_json = "null" if anchor is None else _json_string(anchor)
                return f'[{{"type": {_json_string(kind)}, "anchor": {anchor_json}}}]'
    return _encode([dict(p) for p in positions])


#: What JSON escapes in text without other C0 controls; in UTF-8 each is one byte that no
#: other character's bytes contain, so the same replaces serve the text and its encoding.
_CLEAN_ESCAPES = (("\\", "\\\\"), ('"', '\\"'), ("\n", "\\n"), ("\r", "\\r"), ("\t", "\\t"))
_CLEAN_ESCAPES_UTF8 = tuple((a.encode(), b.encode()) for a, b in _CLEAN_ESCAPES)


def clean_json_string(text: str) -> str:
    """The JSON string of ``text``, which holds no C0 control character other than tab,
    line feed and carriage return. A replace counts its character in a pass over the
    text even when it is absent; ``in`` finds it at memchr speed, so most replaces are
    skipped, and the whole costs a fraction of the general escaper's pass."""
    for plain, escaped in _CLEAN_ESCAPES:
        if plain in text:
            text = text.replace(plain, escaped)
    return f'"{text}"'


def clean_json_bytes(utf8: bytes) -> bytes:
    """:func:`clean_json_string` of UTF-8 text, in UTF-8 (without the quotes)."""
    for plain, escaped in _CLEAN_ESCAPES_UTF8:
        if plain in utf8:
            utf8 = utf8.replace(plain, escaped)
    return utf8
