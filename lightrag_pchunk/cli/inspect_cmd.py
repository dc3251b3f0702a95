"""``lightrag-pchunk inspect FILE [--size N] [--overlap N] [--html OUT.html]``: the checks of
docs/strategy.md §12 for one document, and an HTML report.

Prints one OK / WARN / INFO line per check with its reason (sidecar, headings, stages,
sizes, tails, oversize, tables, parts), the details under it, and writes an HTML report
that draws the document as its chunks, its outline and a search (default:
``<stem>.inspect.html`` in the current folder; a long document's chunk texts go to
``<stem>.inspect_parts/`` beside it: ``report.py``). The first line says whether the SDK
would chunk the file with P or R, and why (``strategy.decide``: its routing by name, its
blocks); the checks show what P makes of it, also for a file routed to R that has blocks,
and R's chunks where P cannot run (no blocks, a fallback); a document without text is empty
(nothing to check, exit code 0). Exit code 0 when the checks ran (1 with ``--strict`` when
any says WARN), 1 when the input cannot be read or parsed, 2 on a usage or configuration
error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from lightrag_pchunk.cli.document_input import (
    EXIT_FAILED,
    EXIT_OK,
    InputError,
    add_document_arguments,
    opened_document,
)
from lightrag_pchunk.cli.inspection import Inspection, inspect_document
from lightrag_pchunk.cli.report import default_report_path, write_report
from lightrag_pchunk.integration.request import Request
from lightrag_pchunk.tokens import TokenCounter
from lightrag_pchunk.wording import counted


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``inspect`` sub-command."""
    parser = subparsers.add_parser(
        "inspect",
        help="check a document's P chunking and write an HTML report",
        description=(
            "Run the Paragraph Semantic (P) stages on one document and print the validation "
            "checks of docs/strategy.md §12: sidecar present, heading/level table, what each stage "
            "did, chunk sizes against [target_ideal, target_max], tails, oversize chunks, "
            "table slices and roles, [part n] suffixes, long blocks that hold heading-like "
            "lines. Writes an HTML report that shows the "
            "document as its chunks, with its outline beside them, a search and a size "
            "histogram (a long document's chunk texts in <name>_parts/ beside the page)."
        ),
    )
    add_document_arguments(parser)
    report = parser.add_mutually_exclusive_group()
    report.add_argument(
        "--html",
        type=Path,
        metavar="OUT.html",
        help="where to write the report (default: <stem>.inspect.html in the current folder)",
    )
    report.add_argument("--no-html", action="store_true", help="do not write a report")
    parser.add_argument(
        "--strict", action="store_true", help="exit with 1 when any check says WARN"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Inspect the document; returns the exit code."""
    try:
        with opened_document(args, "inspect") as (request, settings, tokenizer, folder):
            decision, inspection = inspect_document(
                request, TokenCounter(tokenizer), settings=settings, parsed_dir=folder
            )
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    title = args.file.name
    print(f"{title}: {decision.describe()}")
    print(f"settings: {settings.describe()}")
    print_inspection(inspection, title, sys.stdout)
    if not args.no_html:
        target = args.html or Path(default_report_path(args.file).name)
        try:
            report = write_report(
                inspection,
                target,
                title=title,
                source=_source_line(args, request, inspection),
                decision=f"{decision.strategy}: {decision.reason}",
            )
        except OSError as exc:
            print(f"error: cannot write the report {target}: {exc}", file=sys.stderr)
            return EXIT_FAILED
        parts = report.parts_folder
        print(f"HTML report: {target}" + (f" (chunk texts in {parts}/)" if parts else ""))
    if args.strict and inspection.warnings:
        return EXIT_FAILED
    return EXIT_OK


def _source_line(args: argparse.Namespace, request: Request, inspection: Inspection) -> str:
    """Where the blocks came from, naming only files the user keeps: a parse into a
    temporary folder names the document alone."""
    if request.source is None:
        return f"Blocks file: {inspection.blocks_path}"
    if args.output is None:
        return f"Parsed from {args.file.name}"
    return f"Parsed from {args.file.name} into {inspection.blocks_path}"


def print_inspection(inspection: Inspection, title: str, out: TextIO) -> None:
    """The checks as text: a header, one status line per check, its details indented."""
    t = inspection.thresholds
    out.write(f"{title}: {inspection.chunker()}\n")
    out.write(
        f"thresholds: target_max {t.target_max}, target_ideal {t.target_ideal}, table_max "
        f"{t.table_max}, table_ideal {t.table_ideal}, table_min_last {t.table_min_last}, "
        f"small_tail_threshold {t.small_tail_threshold}\n\n"
    )
    for check in inspection.checks:
        out.write(f"{check.status:<5} {check.name:<9} {check.spec:<6} {check.summary}\n")
        for line in check.details:
            out.write(f"{'':<22}{line}\n")
    verdict = "no warnings" if not inspection.warnings else counted(inspection.warnings, "warning")
    out.write(f"\n{counted(len(inspection.chunks), 'chunk')}, {verdict}.\n")
