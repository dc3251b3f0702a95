"""LightRAG's routing functions (``lightrag.parser.routing``), called as its server calls them.

LightRAG reads a file's routing (its hint grammar, the engines and the suffixes each reads, the
MinerU/Docling endpoints) from its parser registry and ``os.environ``. Two things make our
calls see what a server sees: :func:`register_pchunk_engine` adds our ``pchunk`` engine to the
registry (a server does it from the ``lightrag.parsers`` entry point; a command does not load
entry points), and :func:`lightrag_reads` lends a caller's own ``env`` mapping to
``os.environ`` for the call, so that a test or the demo routes by its mapping as every other
setting of ours is read.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from lightrag.constants import PARSER_ENGINE_LEGACY, PARSER_ENGINE_NATIVE
from lightrag.parser.registry import ParserSpec, register_parser, supported_parser_engines
from lightrag.parser.routing import (
    parser_engine_endpoint_configured,
    parser_engine_supports_suffix,
)

from lightrag_pchunk.integration.formats import SUFFIXES

NATIVE, LEGACY = PARSER_ENGINE_NATIVE, PARSER_ENGINE_LEGACY
PCHUNK = "pchunk"
"""This package's parser engine, registered with LightRAG by the ``lightrag.parsers`` entry
point: ``LIGHTRAG_PARSER=docx:pchunk-P`` parses with our parser and chunks with our P."""
P_ENGINES = frozenset({NATIVE, PCHUNK})
"""Engines whose blocks our P reads when LightRAG hands a document to P or chunking_func."""


def register_pchunk_engine() -> None:
    """Add ``pchunk`` (our parser, the suffixes of ``formats.FORMATS``) to LightRAG's registry."""
    if PCHUNK not in supported_parser_engines():
        register_parser(
            ParserSpec(
                engine_name=PCHUNK,
                impl="lightrag_pchunk.integration.lightrag_parser:PchunkParser",
                suffixes=SUFFIXES,
            )
        )


@contextmanager
def lightrag_reads(env: Mapping[str, str] | None) -> Iterator[None]:
    """While inside, LightRAG's routing reads ``env`` (None or ``os.environ``: nothing lent).

    ``os.environ`` is the process's: a lent mapping is seen by every thread until the block
    ends, so only short, synchronous routing calls belong inside.
    """
    register_pchunk_engine()
    if env is None or env is os.environ:
        yield
        return
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def engine_is_usable(engine: str, suffix: str, require_external_endpoint: bool) -> bool:
    """LightRAG's test of an engine for a file: selectable, reads ``suffix`` (its own and the
    ``*_ADDITIONAL_SUFFIXES``), and, when required, has its MinerU/Docling endpoint set."""
    if engine not in supported_parser_engines():
        return False
    if not parser_engine_supports_suffix(engine, suffix):
        return False
    return not require_external_endpoint or parser_engine_endpoint_configured(engine)
