"""``lightrag-pchunk demo``: the main job, end to end and offline, on the bundled example.

1. parse ``examples/cold-store-safety-standard.docx`` with our parser (blocks file + sidecars);
2. chunk it with P and print the chunks with their heading paths;
3. insert it into a real LightRAG (file storage in a temporary working dir; an LLM that
   extracts nothing and a hashing embedding, so no network and no keys) and check that
   LightRAG stored exactly those chunks;
4. retrieve the chunks for a question whose answer is in one section (LightRAG's naive
   vector search, ``aquery_data``: no LLM) and check that the best one is that section's.

The demo is self-contained: it ignores LIGHTRAG_PARSER and the CHUNK_* variables (it uses
``--size``/``--overlap``, default 2000/100). Exit code 0 when both checks pass, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from lightrag_pchunk.chunk.chunk_headings import SPAN_DASH
from lightrag_pchunk.cli.chunk_cmd import heading_path, print_chunk_table
from lightrag_pchunk.cli.rag_instance import lightrag_logging
from lightrag_pchunk.integration.rows import heading_path as stored_heading_path
from lightrag_pchunk.wording import counted

EXAMPLE_NAME = "cold-store-safety-standard.docx"
QUESTION = "Within how many hours must an ammonia leak be reported to the Harbour Safety Authority?"
#: The retrieved chunk must carry this section in its heading path and hold the answer.
EXPECTED_SECTION = "6 Incident reporting 事故报告"
EXPECTED_ANSWER = "within 4 hours"
DEFAULT_SIZE, DEFAULT_OVERLAP = 2000, 100

#: Settings the demo does not take from the environment (it shows the defaults).
_IGNORED_ENV = (
    "LIGHTRAG_PARSER",
    "CHUNK_P_SIZE",
    "CHUNK_P_OVERLAP_SIZE",
    "CHUNK_OVERLAP_SIZE",
    "CHUNK_SIZE",
    "CHUNK_P_DROP_REFERENCES",
)


@dataclass
class DemoResult:
    """What the demo found; ``ok`` when LightRAG stored our chunks and retrieval was right."""

    chunks: list[dict[str, Any]] = field(default_factory=list)
    stored_match: bool = False
    retrieved: dict[str, Any] | None = None
    retrieval_ok: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Both checks passed."""
        return self.stored_match and self.retrieval_ok and not self.problems


def example_path() -> Path:
    """The bundled example .docx (shipped in the package's ``examples/`` folder)."""
    return Path(str(resources.files("lightrag_pchunk") / "examples" / EXAMPLE_NAME))


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``demo`` sub-command."""
    parser = subparsers.add_parser(
        "demo",
        help="parse, chunk, insert into LightRAG and query the bundled example, offline",
        description=(
            "Run the whole job on the bundled example document, offline: parse it, "
            "chunk it with P, insert it into a LightRAG instance in a temporary folder (an LLM "
            "that extracts nothing and a hashing embedding stand in for real models), and "
            "retrieve the chunk that answers a question, with its heading path. Exit code 0 "
            "when LightRAG stored our chunks and the right chunk came back."
        ),
    )
    parser.add_argument(
        "--size",
        type=int,
        default=DEFAULT_SIZE,
        metavar="N",
        help=f"P chunk size (default {DEFAULT_SIZE})",
    )
    parser.add_argument(
        "--overlap",
        type=int,
        default=DEFAULT_OVERLAP,
        metavar="N",
        help=f"P overlap (default {DEFAULT_OVERLAP})",
    )
    parser.add_argument(
        "--working-dir",
        type=Path,
        metavar="DIR",
        help="keep LightRAG's storage in DIR (default: a temporary folder, removed afterwards)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the demo; 0 when both checks passed."""
    verbose = getattr(args, "verbose", 0)
    out = sys.stdout
    if args.size < 1 or not 0 <= args.overlap < args.size:
        print("error: --size must be >= 1 and 0 <= --overlap < --size", file=sys.stderr)
        return 2
    ignored = [name for name in _IGNORED_ENV if os.environ.get(name, "").strip()]
    if ignored:
        out.write(f"note: the demo ignores {', '.join(ignored)} (it shows the defaults)\n")
    start = time.perf_counter()
    with lightrag_logging(verbose > 0), _working_dir(args.working_dir) as working_dir:
        try:
            result = asyncio.run(run_demo(working_dir, out, size=args.size, overlap=args.overlap))
        except Exception as exc:  # the CLI reports any failure with a clear line
            if verbose:
                raise
            print(
                f"demo failed: {type(exc).__name__}: {exc} (run with -v for details)",
                file=sys.stderr,
            )
            return 1
    seconds = time.perf_counter() - start
    if result.ok:
        out.write(f"\nDemo passed in {seconds:.1f} s. ")
        out.write("Next: `lightrag-pchunk inspect YOUR_DOCUMENT` and the README's SDK example.\n")
        if args.working_dir:
            out.write(f"LightRAG's storage is in {args.working_dir}\n")
        return 0
    for problem in result.problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    return 1


@contextmanager
def _working_dir(requested: Path | None):
    if requested is not None:
        requested.mkdir(parents=True, exist_ok=True)
        yield requested
        return
    folder = Path(tempfile.mkdtemp(prefix="lightrag-pchunk-demo-"))
    try:
        yield folder
    finally:
        from lightrag_pchunk.integration.registry import close_registries

        close_registries()  # the registry of this working dir goes with it
        shutil.rmtree(folder, ignore_errors=True)


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in _IGNORED_ENV}


async def run_demo(
    working_dir: Path, out: TextIO, *, size: int = DEFAULT_SIZE, overlap: int = DEFAULT_OVERLAP
) -> DemoResult:
    """The four steps; prints as it goes and returns what it found."""
    from lightrag import QueryParam

    from lightrag_pchunk.cli.offline_models import build_offline_rag
    from lightrag_pchunk.encodings import load_tiktoken
    from lightrag_pchunk.integration.ingest import ainsert_files
    from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
    from lightrag_pchunk.integration.rechunk import same_chunks, stored_chunks
    from lightrag_pchunk.parse.document import parse_docx

    result = DemoResult()
    source = example_path()
    env = _clean_env()
    parsed_root = working_dir / "__parsed__"

    out.write(f"1. Parse {source.name} with the native parser\n")
    parsed = parse_docx(source, parsed_root)
    levels = ", ".join(f"level {level}: {n}" for level, n in parsed.headings.items())
    out.write(
        f"   {counted(parsed.blocks, 'block')} ({levels}), {counted(parsed.tables, 'table')}, "
        f"{counted(parsed.equations, 'equation')} -> {parsed.blocks_path.name}\n"
    )

    out.write(f"\n2. Chunk with P (size {size}, overlap {overlap})\n")
    tokenizer = load_tiktoken()
    result.chunks = chunking_by_paragraph_semantic(
        tokenizer,
        parsed.content,
        size,
        blocks_path=parsed.blocks_path,
        chunk_overlap_token_size=overlap,
        doc_id=parsed.doc_id,
    )
    print_chunk_table(result.chunks, out, preview=0)
    spans = [
        f"#{row['chunk_order_index']}"
        for row in result.chunks
        if SPAN_DASH in str(row.get("heading", {}).get("heading", ""))
    ]
    out.write(
        "   [part n]: the chunks of one section, here cut at table-row boundaries, each "
        "repeating the table's header row;\n   small neighbouring sections are merged up to "
        "the size, and the chunk names the span of sections it holds"
        + (f" ({' and '.join(spans)}).\n" if spans else ".\n")
    )

    out.write("\n3. Insert into LightRAG (offline: no entity extraction, hashing embedding)\n")
    addon = {
        "chunker": {
            "paragraph_semantic": {"chunk_token_size": size, "chunk_overlap_token_size": overlap}
        }
    }
    # The hashing embedding is lexical: its cosines are lower than a semantic model's, so the
    # demo ranks chunks without LightRAG's default cut-off (0.2).
    rag = build_offline_rag(
        working_dir,
        addon_params=addon,
        vector_db_storage_cls_kwargs={"cosine_better_than_threshold": 0.0},
    )
    await rag.initialize_storages()
    try:
        # replace=True: a kept --working-dir from an earlier run is chunked afresh.
        report = await ainsert_files(
            rag, [source], parsed_dir=parsed_root, replace=True, progress=False, env=env
        )
        for item in report.results:
            out.write(f"   {item.describe()}\n")
        stored = await stored_chunks(rag, parsed.doc_id) or []
        result.stored_match = bool(result.chunks) and same_chunks(result.chunks, stored)
        if result.stored_match:
            out.write(
                f"   LightRAG's text_chunks hold the same {len(stored)} chunks, each with "
                "heading, parent_headings and level\n"
            )
        else:
            result.problems.append(
                f"LightRAG stored {len(stored)} chunks that differ from the {len(result.chunks)} "
                "P chunks printed above"
            )

        out.write(f'\n4. Ask (naive vector search, no LLM): "{QUESTION}"\n')
        answer = await rag.aquery_data(
            QUESTION, QueryParam(mode="naive", chunk_top_k=3, enable_rerank=False)
        )
        found = (answer.get("data") or {}).get("chunks") or []
        if found:
            record = await rag.text_chunks.get_by_id(found[0]["chunk_id"])
            result.retrieved = dict(record or {})
    finally:
        await rag.finalize_storages()
    _judge_retrieval(result, out)
    return result


def _judge_retrieval(result: DemoResult, out: TextIO) -> None:
    record = result.retrieved
    if record is None:
        result.problems.append("the query returned no chunk")
        return
    path = heading_path(record)
    content = str(record.get("content", ""))
    out.write(
        f"   best chunk #{record.get('chunk_order_index')}: {path} "
        f"({record.get('tokens')} tokens)\n"
    )
    for line in _answer_lines(content):
        out.write(f"   > {line}\n")
    # The path names the section itself, or a span of sections that starts with it.
    in_section = any(
        part == EXPECTED_SECTION or part.startswith(f"{EXPECTED_SECTION} ")
        for part in stored_heading_path(record).path
    )
    has_answer = EXPECTED_ANSWER in content
    result.retrieval_ok = in_section and has_answer
    if result.retrieval_ok:
        out.write(
            f'   OK: the answer ("{EXPECTED_ANSWER}") comes from "{EXPECTED_SECTION}", '
            "and the chunk says so in its heading path\n"
        )
    else:
        result.problems.append(
            f"the best chunk for the question is {path!r}, expected one under "
            f"{EXPECTED_SECTION!r} containing {EXPECTED_ANSWER!r}"
        )


def _answer_lines(content: str) -> list[str]:
    """The line holding the answer, after the heading line of its clause."""
    lines = content.split("\n")
    for index, line in enumerate(lines):
        if EXPECTED_ANSWER in line:
            heading = next((h for h in reversed(lines[:index]) if h.startswith("#")), None)
            return [h for h in (heading, line) if h]
    return []
