"""LightRAG's routing functions (``lightrag.parser.routing``), called as its server calls them.

LightRAG reads a file's routing (its hint grammar, the engines and the suffixes each reads, the
MinerU/Docling endpoints) from its parser registry and ``os.environ``. Two things make our
calls see what a server sees: :func:`register_pchunk_engine` adds our ``pchunk`` engine to the
registry (a server does it from the ``lightrag.parsers`` entry point; a command does not load
entry points), and :func:`lightrag_reads` lends a caller's own ``env`` mapping's routing
variables to ``os.environ`` for the call, so that a caller that passes its own mapping
(``ainsert_files(env=...)``, ``check_config(env)``, the demo, tests) is routed by it as every
other setting of ours is read.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager

from lightrag.constants import PARSER_ENGINE_LEGACY, PARSER_ENGINE_NATIVE
from lightrag.parser.registry import (
    ParserSpec,
    parser_specs_snapshot,
    register_parser,
    supported_parser_engines,
)
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


#: The variables LightRAG's routing functions read when we call them: the MinerU and Docling
#: endpoints (and MinerU's mode, which also decides its engine parameters), by prefix; each
#: engine's ``*_ADDITIONAL_SUFFIXES`` is added from the registry. Nothing else is lent: we
#: hand LightRAG the rules as text and read DOCX_SMART_HEADING ourselves, and a variable lent
#: that no routing function reads (``CHUNK_*``, ``LIGHTRAG_PARSER``) would only reach another
#: thread reading it meanwhile (a chunking_func reading ``CHUNK_P_*``). An engine of another
#: package that reads an endpoint variable of another name reads this process's.
_ROUTING_PREFIXES = ("MINERU_", "DOCLING_")
_lending = threading.RLock()


def _routing_variables(names: Iterable[str]) -> set[str]:
    suffix_lists = {spec.extra_suffixes_env for spec in parser_specs_snapshot().values()}
    return {n for n in names if n.startswith(_ROUTING_PREFIXES) or n in suffix_lists}


@contextmanager
def lightrag_reads(env: Mapping[str, str] | None) -> Iterator[None]:
    """While inside, LightRAG's routing reads ``env`` (None or ``os.environ``: nothing lent).

    Only the routing variables are lent: each is set to the mapping's value, or removed when
    the mapping has none, and put back afterwards; every other variable is left alone. One
    call at a time (a lock), the process's own environment's too, so that our routing in
    another thread never reads a lent endpoint; code of others reading a routing variable
    meanwhile sees the lent value, so only short, synchronous routing calls belong inside.
    """
    register_pchunk_engine()
    with _lending:
        if env is None or env is os.environ:
            yield
            return
        names = _routing_variables([*os.environ, *env])
        saved = {name: os.environ.get(name) for name in names}
        try:
            for name in names:
                if name in env:
                    os.environ[name] = env[name]
                else:
                    os.environ.pop(name, None)
            yield
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def engine_is_usable(engine: str, suffix: str, require_external_endpoint: bool) -> bool:
    """LightRAG's test of an engine for a file: selectable, reads ``suffix`` (its own and the
    ``*_ADDITIONAL_SUFFIXES``), and, when required, has its MinerU/Docling endpoint set."""
    if engine not in supported_parser_engines():
        return False
    if not parser_engine_supports_suffix(engine, suffix):
        return False
    return not require_external_endpoint or parser_engine_endpoint_configured(engine)
