"""``lightrag-pchunk chunk FILE [--size N] [--overlap N] [--json]``: print a document's P chunks.

The chunks are the exact rows LightRAG stores in ``text_chunks`` (they come from
``chunking_by_paragraph_semantic``, the function LightRAG calls), so ``--json`` prints what
an insert would store, one JSON object per line. Without ``--json``: one line per chunk
(index, tokens, level, heading path) and a preview of its text. When the blocks cannot be
used the SDK falls back to recursive-character chunking (R), and so does this command, with
the SDK's warning. Exit code 0, 1 when the input could not be read or parsed or when the
chunks miss a word of the blocks file (never silently: the count of lost words is printed),
2 on a usage or configuration error.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from lightrag_pchunk.cli.document_input import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    InputError,
    add_document_arguments,
    decide_document,
    document_input,
    load_tokenizer,
    resolve_sizes,
)

_SPACES = re.compile(r"\s+")
HEADING_SEPARATOR = " > "


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``chunk`` sub-command."""
    parser = subparsers.add_parser(
        "chunk",
        help="print the P chunks of a .docx, a Markdown file or a .blocks.jsonl",
        description=(
            "Chunk one document with the Paragraph Semantic (P) strategy and print the chunks: "
            "index, tokens, heading path and a preview, or with --json the exact rows LightRAG "
            "stores (one JSON object per line). A Word file is parsed first. Sizes: --size / "
            "--overlap, else CHUNK_P_SIZE / CHUNK_P_OVERLAP_SIZE / CHUNK_OVERLAP_SIZE, else "
            "2000 / 100, as in the SDK."
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
    from lightrag_pchunk.integration.chunker import decision_shortfall, run_decision
    from lightrag_pchunk.integration.strategy import Strategy

    try:
        sizes = resolve_sizes(args.size, args.overlap)
        tokenizer = load_tokenizer(args.encoding)
    except ValueError as exc:  # bad CHUNK_P_* value, overlap >= size, encoding unavailable
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        with document_input(args.file, args.output, args.smart_heading) as document:
            for warning in document.parse_warnings:
                print(f"{document.name}: parser warning: {warning}", file=sys.stderr)
            decision = decide_document(document, sizes)
            rows = run_decision(tokenizer, document.content, decision)
            name = document.name
            shortfall = decision_shortfall(decision, [str(row["content"]) for row in rows])
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    if args.json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
    else:
        strategy = decision.strategy.value
        if decision.strategy is not Strategy.P:
            strategy += f" ({decision.describe()})"
        print(f"{name}: {len(rows)} chunks, {strategy}, {sizes.describe()}")
        print_chunk_table(rows, sys.stdout, preview=max(args.preview, 0))
    if shortfall:
        print(
            f"error: {name}: the chunks lost {shortfall.describe()} of the blocks file"
            f" {document.blocks_path}; please report this file",
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
    """One line per chunk (``#``, tokens, level, heading path) and an indented preview."""
    out.write(f"{'#':>4} {'tokens':>6} {'level':>5}  heading path\n")
    for index, row in enumerate(rows):
        level = row["heading"].get("level") if isinstance(row.get("heading"), dict) else None
        out.write(
            f"{row.get('chunk_order_index', index):>4} {row.get('tokens', 0):>6} "
            f"{'' if level is None else level:>5}  {heading_path(row) or '(no heading)'}\n"
        )
        if preview:
            out.write(f"{'':>18}| {preview_text(str(row.get('content', '')), preview)}\n")
