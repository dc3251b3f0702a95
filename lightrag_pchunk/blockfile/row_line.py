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
    content, level, parents = row.content, row.level, row.parent_headings
    if (
        row.extra
        or row.is_title_block
        or type(level) is not int
        or type(content) is not str
        or not all(type(parent) is str for parent in parents)
    ):
        return None
    return "".join(
        (
            '{"type": "content", "blockid": ',
            _encode(row.blockid),
            ', "format": "plain_text", "content": ',
            clean_json_string(content) if content_is_clean else _json_string(content),
            ', "heading": ',
            _encode(row.heading),
            ', "parent_headings": [',
            ", ".join(map(_json_string, parents)),
            f'], "level": {level}, "session_type": "body", "table_slice": "none", "positions": ',
            _positions_json(row.positions),
            "}",
        )
    )


def _positions_json(positions: Sequence[dict[str, Any]]) -> str:
    """The JSON of a row's positions; a heading anchor's, the usual one, without the encoder."""
    if len(positions) == 1 and tuple(position := positions[0]) == ("type", "anchor"):
        kind, anchor = position["type"], position["anchor"]
        if type(kind) is str and (anchor is None or type(anchor) is str):
            anchor_json = "null" if anchor is None else _json_string(anchor)
            return f'[{{"type": {_json_string(kind)}, "anchor": {anchor_json}}}]'
    return _encode([dict(p) for p in positions])


def clean_json_string(text: str) -> str:
    """The JSON string of ``text``, which holds no C0 control character other than tab,
    line feed and carriage return. A replace counts its character in a pass over the
    text even when it is absent; ``in`` finds it at memchr speed, so most replaces are
    skipped, and the whole costs a fraction of the general escaper's pass."""
    if "\\" in text:
        text = text.replace("\\", "\\\\")
    if '"' in text:
        text = text.replace('"', '\\"')
    if "\n" in text:
        text = text.replace("\n", "\\n")
    if "\r" in text:
        text = text.replace("\r", "\\r")
    if "\t" in text:
        text = text.replace("\t", "\\t")
    return f'"{text}"'
