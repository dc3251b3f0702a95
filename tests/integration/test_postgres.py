"""LightRAG on PostgreSQL (``PGKVStorage`` + ``PGDocStatusStorage``) with a throwaway cluster:
P's heading fields survive the round trip into the database and back out of a query, and
several worker processes sharing the database share our registry.

Skipped with a clear message where the PostgreSQL binaries are absent (``pg_cluster.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from docx import Document
from lightrag_helpers import offline_lightrag

from lightrag_pchunk.integration.decision import Strategy
from lightrag_pchunk.integration.ingest import ainsert_files
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.registry import JOURNAL_FILE, close_registries, registry_for
from lightrag_pchunk.integration.registry_pg import PostgresRegistry
from lightrag_pchunk.integration.rows import heading_path
from lightrag_pchunk.naming import doc_id_for
from lightrag_pchunk.parse.document import parse_docx

from pg_cluster import why_unavailable
from sample_docs import write_mixed_document

UNAVAILABLE = why_unavailable()
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(UNAVAILABLE is not None, reason=UNAVAILABLE or "available"),
]

PG = {"kv_storage": "PGKVStorage", "doc_status_storage": "PGDocStatusStorage"}
TESTS = Path(__file__).resolve().parents[1]
WORKERS, FILES_PER_WORKER = 2, 5


@pytest.fixture
def pg_env(postgres, monkeypatch, request):
    """LightRAG pointed at the cluster, in a workspace of its own for this test."""
    workspace = "t_" + "".join(ch if ch.isalnum() else "_" for ch in request.node.name)[:40]
    env = postgres.lightrag_env(workspace)
    for name in ("LIGHTRAG_PARSER", "CHUNK_P_SIZE", "CHUNK_P_OVERLAP_SIZE", "CHUNK_OVERLAP_SIZE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    close_registries()
    yield env
    close_registries()
    from lightrag.kg.shared_storage import finalize_share_data

    finalize_share_data()


def place(row: dict) -> tuple:
    """What a user reads back about a chunk: its text and its heading path."""
    return row["content"], heading_path(row)


async def test_heading_fields_survive_postgres_and_come_back_out_of_a_query(
    pg_env, tmp_path, cl100k_tokenizer
) -> None:
    from lightrag import QueryParam

    docx = write_mixed_document(tmp_path / "manual.docx")
    async with offline_lightrag(
        tmp_path / "rag",
        vector_db_storage_cls_kwargs={"cosine_better_than_threshold": 0.0},
        **PG,
    ) as rag:
        [result] = (await ainsert_files(rag, [docx], progress=False)).results
        assert (result.status, result.strategy) == ("inserted", Strategy.P), result
        status = await rag.doc_status.get_by_id(result.doc_id)
        rows = await rag.text_chunks.get_by_ids(status["chunks_list"])
        rows = sorted(rows, key=lambda r: r["chunk_order_index"])
        registry = registry_for(rag)
        entry = await registry.aby_doc_id(result.doc_id)

        # Into the database and back: every chunk keeps heading, parent_headings and level.
        blocks = entry.blocks_path
        expected = chunking_by_paragraph_semantic(cl100k_tokenizer, "", 2000, blocks_path=blocks)
        assert [place(r) for r in rows] == [place(r) for r in expected]
        assert all(heading_path(r).level >= 1 for r in rows)
        assert {"Safety Manual"} <= {p for r in rows for p in heading_path(r).parent_headings}

        # Out of a query: aquery_data names the chunk, text_chunks holds its heading path...
        target = next(
            r
            for r in expected
            if len(heading_path(r).parent_headings) >= 1 and "<table" not in r["content"]
        )
        question = max(target["content"].split("\n"), key=len)[:400]
        param = QueryParam(mode="naive", chunk_top_k=3, enable_rerank=False)
        found = (await rag.aquery_data(question, param))["data"]["chunks"]
        best = await rag.text_chunks.get_by_id(found[0]["chunk_id"])
        assert place(best) == place(target)
        # ... and the context LightRAG hands its LLM carries the path of the chunk.
        param.only_need_context = True
        context = await rag.aquery(question, param)
        parents = " → ".join(heading_path(target).parent_headings)
        assert f'"content_headings": "{parents}"' in context

    # The registry is a table of that database, not a file of the working dir.
    assert isinstance(registry, PostgresRegistry)
    assert entry is not None and entry.strategy is Strategy.P
    assert not (tmp_path / "rag" / JOURNAL_FILE).exists()


def write_small_manual(path: Path, number: int) -> Path:
    """A short Word document with its own text: two sections under one title."""
    document = Document()
    document.add_heading(f"Procedure {number}", level=1)
    for section in (1, 2):
        document.add_heading(f"{section} Step group {number}.{section}", level=2)
        for line in range(6):
            document.add_paragraph(
                f"Worker document {number}, section {section}, line {line}: "
                + "check the valve, record the pressure, sign the log. " * 4
            )
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))
    return path


def run_workers(commands: list[list[str]], env: dict[str, str]) -> None:
    """Start the worker processes together; each must finish cleanly."""
    processes = [
        subprocess.Popen(
            [sys.executable, str(TESTS / "lightrag_worker.py"), "--postgres", *command],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for command in commands
    ]
    for process in processes:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, f"worker failed:\n{err[-4000:]}"
        json.loads(out.strip().splitlines()[-1])


async def test_workers_sharing_one_database_share_the_registry(
    pg_env, tmp_path, cl100k_tokenizer
) -> None:
    env = {**os.environ, **pg_env, "LIGHTRAG_PCHUNK_STRICT": "1"}
    batches = [
        [
            write_small_manual(tmp_path / "in" / f"w{w}-doc{i}.docx", w * 100 + i)
            for i in range(FILES_PER_WORKER)
        ]
        for w in range(WORKERS)
    ]
    # Two workers register and enqueue at the same time, each in its own working dir ...
    enqueue = [
        ["enqueue", str(tmp_path / f"worker{w}"), *map(str, batch)]
        for w, batch in enumerate(batches)
    ]
    run_workers(enqueue, env)
    # ... and a third, with a working dir of its own, processes the shared queue.
    run_workers([["process", str(tmp_path / "worker-3")]], env)

    names = [path.name for batch in batches for path in batch]
    async with offline_lightrag(tmp_path / "reader", **PG) as rag:
        registered = {entry.doc_id for entry in await registry_for(rag).aentries()}
        missing = [name for name in names if doc_id_for(name) not in registered]
        routed_to_r, wrong = [], []
        for path in (path for batch in batches for path in batch):
            status = await rag.doc_status.get_by_id(doc_id_for(path.name))
            assert status is not None and status["status"] == "processed", (path.name, status)
            rows = await rag.text_chunks.get_by_ids(status["chunks_list"])
            rows = sorted(rows, key=lambda r: r["chunk_order_index"])
            if any(heading_path(r).level == 0 for r in rows):
                routed_to_r.append(path.name)
            blocks = parse_docx(path, tmp_path / "check").blocks_path
            ours = chunking_by_paragraph_semantic(cl100k_tokenizer, "", 2000, blocks_path=blocks)
            if [place(r) for r in rows] != [place(r) for r in ours]:
                wrong.append(path.name)
    assert (missing, routed_to_r, wrong) == ([], [], [])
    assert len(registered) == WORKERS * FILES_PER_WORKER


async def test_a_registry_of_version_one_moves_into_the_database(pg_env, tmp_path) -> None:
    from lightrag_pchunk.integration.registry_entry import LEGACY_REGISTRY_FILE, insert_key

    work = tmp_path / "rag"
    work.mkdir()
    legacy = {
        "version": 1,
        "documents": {
            insert_key("old text"): {
                "source_name": "old.docx",
                "doc_id": "doc-old",
                "strategy": "P",
                "reason": "old.docx goes to native/P",
                "blocks_path": "__parsed__/old.docx.parsed/old.blocks.jsonl",
                "p_settings": {"chunk_token_size": 900, "chunk_overlap_token_size": 50},
            }
        },
    }
    (work / LEGACY_REGISTRY_FILE).write_text(json.dumps(legacy), encoding="utf-8")
    async with offline_lightrag(work, **PG) as rag:
        entry = await registry_for(rag).alookup("old text")
        assert entry is not None and entry.doc_id == "doc-old"
        assert entry.blocks_path == work / "__parsed__/old.docx.parsed/old.blocks.jsonl"
        assert entry.p_settings.chunk_token_size == 900
    assert (work / (LEGACY_REGISTRY_FILE + ".migrated")).is_file()
    close_registries()  # a restart: the entry is in the database, the file is not read again
    async with offline_lightrag(work, **PG) as rag:
        assert [e.doc_id for e in await registry_for(rag).aentries()] == ["doc-old"]


async def test_a_document_inserted_with_another_size_is_stale_and_rechunked_in_the_database(
    pg_env, tmp_path, monkeypatch, cl100k_tokenizer
) -> None:
    from lightrag.kg.shared_storage import finalize_share_data

    from lightrag_pchunk.integration.chunking_record import METADATA_KEY

    docx = write_mixed_document(tmp_path / "manual.docx")
    async with offline_lightrag(tmp_path / "first", **PG) as rag:
        [first] = (await ainsert_files(rag, [docx], progress=False)).results
        status = await rag.doc_status.get_by_id(first.doc_id)
    assert status["metadata"][METADATA_KEY]["size"] == 2000
    close_registries()
    finalize_share_data()
    monkeypatch.setenv("CHUNK_P_SIZE", "1200")
    # Another working dir: what it was chunked with is in the database, not in files.
    async with offline_lightrag(tmp_path / "second", **PG) as rag:
        [stale] = (await ainsert_files(rag, [docx], progress=False)).results
        [done] = (await ainsert_files(rag, [docx], rechunk=True, progress=False)).results
        status = await rag.doc_status.get_by_id(first.doc_id)
        rows = await rag.text_chunks.get_by_ids(status["chunks_list"])
        entry = await registry_for(rag).aby_doc_id(first.doc_id)
    assert (stale.status, stale.changes) == ("stale", ("size 2000 -> 1200",))
    assert (done.status, done.doc_id) == ("re-chunked", first.doc_id)
    assert status["metadata"][METADATA_KEY]["size"] == entry.chunking.size == 1200
    expected = chunking_by_paragraph_semantic(
        cl100k_tokenizer, "", 1200, blocks_path=entry.blocks_path
    )
    ordered = sorted(rows, key=lambda r: r["chunk_order_index"])
    assert [place(r) for r in ordered] == [place(r) for r in expected]


async def test_an_r_documents_separators_are_kept_in_the_database(
    pg_env, tmp_path, monkeypatch
) -> None:
    from lightrag.kg.shared_storage import finalize_share_data

    notes = tmp_path / "in" / "notes.txt"  # LightRAG's default route for a text file: R
    notes.parent.mkdir(parents=True)
    notes.write_text("|".join(f"Clause {n} # binds the parties" for n in range(300)), "utf-8")
    monkeypatch.setenv("CHUNK_R_SEPARATORS", '["|"]')
    async with offline_lightrag(tmp_path / "first", **PG) as rag:
        [first] = (await ainsert_files(rag, [notes], progress=False)).results
    assert (first.status, first.strategy) == ("inserted", Strategy.R)
    close_registries()
    finalize_share_data()
    monkeypatch.setenv("CHUNK_R_SEPARATORS", '["#"]')
    # Another working dir: the registration and its record are read from the database.
    async with offline_lightrag(tmp_path / "second", **PG) as rag:
        entry = await registry_for(rag).aby_doc_id(first.doc_id)
        [stale] = (await ainsert_files(rag, [notes], progress=False)).results
    assert entry.r_params["separators"] == ["|"]
    assert (stale.status, stale.changes) == ("stale", ('separators ["|"] -> ["#"]',))
