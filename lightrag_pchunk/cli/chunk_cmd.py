"""``lightrag-pchunk chunk FILE [--size N] [--overlap N] [--json]``: print a document's P chunks.

The chunks are the exact rows LightRAG stores in ``text_chunks`` (they come from
``chunking_by_paragraph_semantic``, the function LightRAG calls), so ``--json`` prints what
an insert would store, one JSON object per line. Without ``--json``: one line per chunk
(index, tokens, level, heading path) and a preview of its text. When the blocks cannot be
used the SDK falls back to recursive-character chunking (R), and so does this command, with
the SDK's warning; a document routed to R gets it too, at ``--size`` / ``--overlap`` when
given (the run's sizes, whichever chunker), else at R's own; a document without text is
empty (no chunks, exit code 0), as everywhere.
Exit code 0, 1 when the input could not be read or parsed or when the chunks miss a word of
the blocks file (never silently: the count of lost words is printed), 2 on a usage or
configuration error.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from lightrag_pchunk.cli.checks import pages_label
from lightrag_pchunk.cli.document_input import (
    EXIT_FAILED,
    EXIT_OK,
    InputError,
    add_document_arguments,
    opened_document,
    sizes_text,
)
from lightrag_pchunk.integration.formats import describe_formats
from lightrag_pchunk.wording import counted

_SPACES = re.compile(r"\s+")
HEADING_SEPARATOR = " > "


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``chunk`` sub-command."""
    parser = subparsers.add_parser(
        "chunk",
        help=f"print the P chunks of a {describe_formats()} file or a .blocks.jsonl",
        description=(
            "Chunk one document with the Paragraph Semantic (P) strategy and print the chunks: "
            "index, tokens, heading path and a preview, or with --json the exact rows LightRAG "
            "stores (one JSON object per line). A document is parsed first (a .blocks.jsonl"
            " is read as it is). Sizes: --size / "
            "--overlap, else CHUNK_P_SIZE / CHUNK_P_OVERLAP_SIZE / CHUNK_OVERLAP_SIZE, else "
            "2000 / 100, as in the SDK; a document decided R is cut at --size / --overlap too,"
            " else at R's own sizes."
        ),
    )
    add_document_arguments(parser)
    parser.add_argument(
        "--json", action="store_true", help="print LightRAG's chunk rows, one JSON per line"
    )
    parser.add_argument(
        "--preview",
        type=int,
        default=100,
        metavar="CHARS",
        help="characters of each chunk shown (default 100; 0: none)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Chunk the document and print the chunks; returns the exit code."""
    from lightrag_pchunk.integration.decision import Strategy
    from lightrag_pchunk.integration.front_door import run as run_front_door

    try:
        with opened_document(args, "chunk") as (request, settings, tokenizer, folder):
            done = run_front_door(request, tokenizer, settings=settings, parsed_dir=folder)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    name = args.file.name
    rows, decision = done.rows, done.decision
    if args.json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
    elif decision.is_empty:
        print(f"{name}: {decision.describe()}")
    elif decision.strategy is Strategy.P:
        assert decision.settings is not None
        print(f"{name}: {counted(len(rows), 'chunk')}, P, {sizes_text(decision.settings)}")
        print_chunk_table(rows, sys.stdout, preview=max(args.preview, 0))
    else:
        print(f"{name}: {counted(len(rows), 'chunk')}, R ({decision.describe()})")
        print_chunk_table(rows, sys.stdout, preview=max(args.preview, 0))
    shortfall = done.lost
    if shortfall:
        print(
            f"error: {name}: the chunks lost {shortfall.describe()} of the blocks file"
            f" {decision.blocks_path}; please report this file",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return EXIT_OK


def heading_path(row: dict[str, Any]) -> str:
    """``parent > parent > heading`` of a LightRAG chunk row ("" for an R chunk)."""
    from lightrag_pchunk.integration.rows import heading_path as stored_heading_path

    return HEADING_SEPARATOR.join(stored_heading_path(row).path)


def preview_text(content: str, limit: int) -> str:
    """The first ``limit`` characters of ``content`` on one line (whitespace collapsed)."""
    text = _SPACES.sub(" ", content).strip()
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def print_chunk_table(rows: Sequence[dict[str, Any]], out: TextIO, *, preview: int = 100) -> None:
    """One line per chunk (``#``, tokens, level, pages of a PDF, heading path) and an
    indented preview."""
    from lightrag_pchunk.integration.rows import chunk_pages

    with_pages = any(chunk_pages(row) for row in rows)
    pages_column = f" {'pages':<10}" if with_pages else ""
    out.write(f"{'#':>4} {'tokens':>6} {'level':>5}{pages_column}  heading path\n")
    for index, row in enumerate(rows):
        level = row["heading"].get("level") if isinstance(row.get("heading"), dict) else None
        pages = f" {pages_label(chunk_pages(row)):<10}" if with_pages else ""
        out.write(
            f"{row.get('chunk_order_index', index):>4} {row.get('tokens', 0):>6} "
            f"{'' if level is None else level:>5}{pages}  {heading_path(row) or '(no heading)'}\n"
        )
        if preview:
            out.write(f"{'':>18}| {preview_text(str(row.get('content', '')), preview)}\n")
