"""The files our parser engine (``pchunk``) reads: one registration per suffix.

Each entry names a parse function with :func:`lightrag_pchunk.parse.document.parse_docx`'s
interface, ``(path, output_dir, *, doc_id) -> ParsedDocument``: it writes
``<output_dir>/<name>.parsed/`` (the ``.blocks.jsonl`` and its sidecars, LightRAG's layout)
and returns an object with ``content`` (the merged text), ``rows`` (the content rows),
``parsed_dir``, ``blocks_path`` and ``warnings``; a file it refuses raises. Adding a suffix
here is all it takes for LightRAG's server (``LIGHTRAG_PARSER=md:pchunk-P``), the ingest
helper and the routing mirror to parse it with ours. Functions are imported on first use, so
reading this table imports no parser.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any

_WORD = "lightrag_pchunk.parse.document:parse_docx"
_MARKDOWN = "lightrag_pchunk.markdown.document:parse_markdown"
PARSERS: dict[str, str] = {"docx": _WORD, "docm": _WORD, "dotx": _WORD, "dotm": _WORD}
"""Suffix (lower case, no dot) -> ``module:function`` of its parse function. Word's macro
documents and templates are the same package as a ``.docx`` (LightRAG's native parser reads
``.docx`` only): ``LIGHTRAG_PARSER=do[ct][xm]:pchunk-P`` routes all four to ours; Markdown
(``.md``, ``.markdown``) goes to our Markdown parser where its parser library is installed
(Python 3.11+: docs/markdown.md)."""
if importlib.util.find_spec("pyromark") is not None:
    PARSERS.update(md=_MARKDOWN, markdown=_MARKDOWN)

ParseFunction = Callable[..., Any]


def parser_for(suffix: str) -> ParseFunction | None:
    """The parse function registered for ``suffix`` (``"docx"`` or ``".DOCX"``), or None."""
    target = PARSERS.get(suffix.lower().lstrip("."))
    if target is None:
        return None
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)
