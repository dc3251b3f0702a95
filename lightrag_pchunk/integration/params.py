"""The chunking selectors and the ``(...)`` parameter blocks of a routing rule.

LightRAG 1.5.7 parses process options and parameter blocks (``lightrag.parser.routing``,
``param_schema``); what it keeps private is taking the blocks out of a rule's
``engine-OPTIONS`` side, which :func:`strip_param_blocks` does so that a rule's engine,
options and parameters read as LightRAG reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lightrag.constants import (
    PROCESS_OPTION_CHUNK_CHARS,
    PROCESS_OPTION_CHUNK_CUSTOM,
    PROCESS_OPTION_CHUNK_FIXED,
    PROCESS_OPTION_CHUNK_PARAGRAH,
    PROCESS_OPTION_CHUNK_RECURSIVE,
)
from lightrag.parser.param_schema import parse_chunk_params, take_paren_block

FIXED_TOKEN = PROCESS_OPTION_CHUNK_FIXED
RECURSIVE_CHARACTER = PROCESS_OPTION_CHUNK_RECURSIVE
PARAGRAPH_SEMANTIC = PROCESS_OPTION_CHUNK_PARAGRAH
CUSTOM = PROCESS_OPTION_CHUNK_CUSTOM
"""LightRAG's chunking selectors, one letter each (``docx:native-P``, ``[native-R]``)."""
SELECTOR_CHARS = PROCESS_OPTION_CHUNK_CHARS
"""Chunking selectors: fixed, recursive, vector, paragraph-semantic, custom chunking_func."""

_TRUE_WORDS = frozenset({"1", "true", "yes", "on", "t", "y"})
_FALSE_WORDS = frozenset({"0", "false", "no", "off", "f", "n"})


def parse_bool(value: str) -> bool | None:
    """LightRAG's boolean words (``1 true yes on t y`` / ``0 false no off f n``), else None."""
    low = value.strip().lower()
    return True if low in _TRUE_WORDS else False if low in _FALSE_WORDS else None


@dataclass(slots=True)
class StrippedSpec:
    """A rule's ``engine-OPTIONS`` side with its ``(...)`` blocks taken out."""

    text: str
    engine_block: str | None = None
    chunk_blocks: dict[str, str] = field(default_factory=dict)


def strip_param_blocks(spec: str) -> StrippedSpec:
    """Take the parameter blocks out of a rule's ``engine-OPTIONS`` side, as LightRAG does
    before it reads the engine and the options: a block before the first '-' is the
    engine's, one right after a selector that selector's (the first of each is kept), any
    other is dropped; an unbalanced '(' ends the scan, kept as text. What is wrong with a
    block is LightRAG's start-up check's to report.
    """
    out = StrippedSpec("")
    kept: list[str] = []
    seen_dash = False
    previous: str | None = None  # last non-space character kept; None right after a block
    i = 0
    while i < len(spec):
        ch = spec[i]
        if ch != "(":
            kept.append(ch)
            seen_dash = seen_dash or ch == "-"
            previous = ch if ch != " " else previous
            i += 1
            continue
        block, after = take_paren_block(spec, i)
        if block is None:
            kept.append(spec[i:])
            break
        if seen_dash and previous is not None and previous in SELECTOR_CHARS:
            out.chunk_blocks.setdefault(previous, block)
        elif not seen_dash and previous is not None and out.engine_block is None:
            out.engine_block = block
        i, previous = after, None
    out.text = "".join(kept)
    return out


def parse_chunk_blocks(blocks: Mapping[str, str], label: str) -> dict[str, dict[str, Any]]:
    """Each selector's parameters (``{"P": "chunk_ts=500"}`` -> ``{"P": {"chunk_token_size":
    500}}``), by LightRAG's parser; a broken parameter is left out, an empty block too."""
    params: dict[str, dict[str, Any]] = {}
    for selector, text in blocks.items():
        parsed = parse_chunk_params(
            text, selector=selector, label=f"{label} chunk strategy {selector!r}"
        )[0]
        if parsed:
            params[selector] = parsed
    return params
