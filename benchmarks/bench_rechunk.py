"""What does re-chunking after a settings change cost in model calls, against ``--replace``?
Method and figures: ``benchmarks/README.md``."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import common
from common import table
from lightrag_helpers import forget_process_state

from lightrag_pchunk.cli.offline_models import build_offline_rag, hash_embedding
from lightrag_pchunk.integration.ingest import ainsert_files
from lightrag_pchunk.integration.rows import heading_path

from model_stand_in import CountingModel

CORPUS = common.CORPUS / "docx"
#: Corpus files a full run inserts (a run with another number is partial: no results file).
FILES = 24
#: The setting changes measured: (label, variable, value).
CHANGES = (
    ("CHUNK_P_TABLE_TEXT grid -> keyed", "CHUNK_P_TABLE_TEXT", "keyed"),
    ("CHUNK_P_DROP_TOC false -> true", "CHUNK_P_DROP_TOC", "true"),
    ("CHUNK_P_SIZE 2000 -> 1200", "CHUNK_P_SIZE", "1200"),
)
#: The ways to apply a change, each from a copy of the baseline: (label, options).
WAYS = (
    ("rechunk", {"rechunk": True}),
    ("replace", {"replace": True}),
    ("replace, no cache", {"replace": True, "cache": False}),
)


@dataclass
class Run:
    """One ``ainsert_files`` run: outcomes and costs per file, pooled."""

    label: str
    statuses: dict[str, str] = field(default_factory=dict)
    calls: dict[str, Counter] = field(default_factory=dict)  # by kind, and texts embedded
    new_chunks: dict[str, int] = field(default_factory=dict)
    chunks: dict[str, int] = field(default_factory=dict)

    def total(self, kind: str) -> int:
        return sum(counts[kind] for counts in self.calls.values())

    def summary(self) -> str:
        """The run pooled over its files: documents by outcome, chunks, calls, embeddings."""
        outcomes = sorted(Counter(self.statuses.values()).items())
        documents = ", ".join(f"{count} {status}" for status, count in outcomes)
        return (
            f"{documents}, {sum(self.chunks.values())} chunks ({sum(self.new_chunks.values())}"
            f" new), {self.total('extract')} extractions + {self.total('glean')} follow-ups,"
            f" {self.total('summary')} summaries, {self.total('embedded')} texts embedded"
        )


async def chunk_identities(rag: Any, doc_id: str) -> set[tuple]:
    status = await rag.doc_status.get_by_id(doc_id)
    ids = list(status["chunks_list"]) if status else []
    rows = [r for r in await rag.text_chunks.get_by_ids(ids) if r] if ids else []
    return {(r["content"], heading_path(r)) for r in rows}


async def run(work: Path, files: list[Path], label: str, cache: bool = True, **options) -> Run:
    """One ``ainsert_files`` over ``files`` in ``work``, measured per file."""
    from lightrag.utils import EmbeddingFunc

    from lightrag_pchunk.naming import doc_id_for

    model = CountingModel()

    async def embed(texts: list[str], **kwargs: Any) -> Any:
        """The offline hashing embedding, counting the texts it embeds beside the calls."""
        model.calls["embedded"] += len(texts)
        return await hash_embedding(texts, **kwargs)

    rag = build_offline_rag(
        work,
        llm_model_func=model,
        embedding_func=EmbeddingFunc(embedding_dim=256, func=embed, model_name="hash-256"),
        enable_llm_cache_for_entity_extract=cache,
    )
    await rag.initialize_storages()
    result = Run(label)
    before = {path.name: await chunk_identities(rag, doc_id_for(path)) for path in files}
    mark = Counter(model.calls)

    def measured(done: int, total: int, outcome: Any) -> None:
        nonlocal mark
        result.statuses[outcome.path.name] = outcome.status
        result.calls[outcome.path.name] = Counter(model.calls) - mark
        mark = Counter(model.calls)

    try:
        await ainsert_files(rag, files, progress=measured, **options)
        for path in files:
            now = await chunk_identities(rag, doc_id_for(path))
            result.chunks[path.name] = len(now)
            result.new_chunks[path.name] = len(now - before[path.name])
    finally:
        await rag.finalize_storages()
        forget_process_state()
    return result


def report_table(runs: list[Run], files: list[Path]) -> list[str]:
    """Per file: status, chunks (new), model calls by kind, texts embedded."""
    rows = []
    for name in (path.name for path in files):
        cells = []
        for run_ in runs:
            made = run_.calls.get(name, Counter())
            cells.append(
                f"{run_.statuses.get(name, '-')}, {run_.chunks.get(name, 0)}"
                f" ({run_.new_chunks.get(name, 0)}), {made['extract'] + made['glean']}"
                f" / {made['summary']}, {made['embedded']}"
            )
        rows.append((name[:48], *cells))
    columns = [f"{r.label}: status, chunks (new), extract+glean / summary, embedded" for r in runs]
    return table(("file", *columns), rows)


async def main_async(wanted: int) -> list[str]:
    every = sorted(CORPUS.glob("*.docx"))
    count = min(wanted, len(every))
    files = [every[i * len(every) // count] for i in range(count)]  # spread over the corpus
    out = common.header(
        f"Re-chunk against replace: {len(files)} of the corpus's {len(every)} Word documents "
        "(evenly spread by name)",
        [
            "each row: status, chunks stored (those whose text and heading path are new), model"
            " calls (extraction + follow-up / description summaries), texts embedded"
        ],
    )
    with tempfile.TemporaryDirectory(prefix="bench-rechunk-") as folder:
        scratch = Path(folder)
        (scratch / "in").mkdir()
        copies = [Path(shutil.copy2(path, scratch / "in" / path.name)) for path in files]
        base = await run(scratch / "base", copies, "insert")
        out += [f"Baseline insert at the defaults: {base.summary()}.", ""]
        for label, variable, value in CHANGES:
            runs = []
            for name, options in WAYS:
                work = scratch / f"{variable}-{name.replace(', ', '-').replace(' ', '-')}"
                shutil.copytree(scratch / "base", work)
                with mock.patch.dict(os.environ, {variable: value}):
                    runs.append(await run(work, copies, name, **options))
                shutil.rmtree(work, ignore_errors=True)
            out += [f"## {label}", "", *[f"{r.label}: {r.summary()}" for r in runs]]
            out += ["", *report_table(runs, copies), ""]
    return out


def main() -> None:
    parser = common.arguments(__doc__)
    parser.add_argument("--files", type=int, default=FILES, help="corpus files, spread evenly")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        common.log(f"no corpus at {CORPUS}: nothing to measure")
        return
    os.environ.setdefault("LIGHTRAG_PCHUNK_STRICT", "1")
    for name in ("CHUNK_P_SIZE", "CHUNK_P_TABLE_TEXT", "CHUNK_P_DROP_TOC", "LIGHTRAG_PARSER"):
        os.environ.pop(name, None)
    with common.quiet():
        lines = asyncio.run(main_async(args.files))
    common.write_results(lines, args.out, "rechunk" if args.files == FILES else None)


if __name__ == "__main__":
    main()
