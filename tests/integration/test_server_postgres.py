"""LightRAG's server on PostgreSQL, for real: ``lightrag-pchunk serve`` (LightRAG's
``lightrag-server`` main, uvicorn, its upload and delete routes, its pipeline) with LightRAG's
PostgreSQL storages for key-value data and document status on a throwaway cluster, the
stand-in models, a workspace, and its ``--input-dir`` outside the folder it runs in.

The storage combination is the one that needs no PostgreSQL extension (docs/server.md):
``PGKVStorage`` + ``PGDocStatusStorage``, vectors in ``NanoVectorDBStorage`` and the graph in
``NetworkXStorage`` (files of the working dir). One session: ``lightrag-pchunk ingest`` a
Markdown file with the same variables before the server starts (it must land where the server
reads); then upload a Word file routed to our ``pchunk`` engine and one hinted ``[native-P]``
(LightRAG's parser, our P through ``install()``), read the heading fields back from the
database's own tables, delete one document through the server, upload it again.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lightrag_pchunk.encodings import load_tiktoken
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.rows import heading_path
from lightrag_pchunk.naming import doc_id_for

from model_stand_in import stand_in_models
from sample_docs import write_mixed_document
from server_process import Server, server_env

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        any(importlib.util.find_spec(m) is None for m in ("fastapi", "uvicorn", "httpx")),
        reason='LightRAG\'s server is not installed: pip install "lightrag-hku[api]"',
    ),
]

#: LightRAG's storages: PostgreSQL where it needs no extension (pgvector, Apache AGE).
STORAGE = {
    "LIGHTRAG_KV_STORAGE": "PGKVStorage",
    "LIGHTRAG_DOC_STATUS_STORAGE": "PGDocStatusStorage",
    "LIGHTRAG_VECTOR_STORAGE": "NanoVectorDBStorage",
    "LIGHTRAG_GRAPH_STORAGE": "NetworkXStorage",
}
WORKSPACE = "team_a"
MANUAL, GUIDE, NOTES = "manual.docx", "guide.docx", "notes.md"
NOTES_TEXT = """# Field notes

## Pumps

The booster pump on line four hums at night; the operator logs its pressure hourly.

## Valves

Valve seventeen sticks below freezing and is greased every Monday.
"""


async def _tables(cluster: Any) -> dict[str, Any]:
    """What the database holds for the workspace: doc_status rows, chunk rows, full_docs ids."""
    import asyncpg

    connection = await asyncpg.connect(
        host=cluster.host, port=cluster.port, user=cluster.user, database=cluster.database
    )
    try:
        status = await connection.fetch(
            "SELECT id, status, chunks_count, metadata FROM LIGHTRAG_DOC_STATUS "
            "WHERE workspace = $1",
            WORKSPACE,
        )
        chunks = await connection.fetch(
            "SELECT full_doc_id, chunk_order_index, content, tokens, heading "
            "FROM LIGHTRAG_DOC_CHUNKS WHERE workspace = $1 "
            "ORDER BY full_doc_id, chunk_order_index",
            WORKSPACE,
        )
        full = await connection.fetch(
            "SELECT id FROM LIGHTRAG_DOC_FULL WHERE workspace = $1", WORKSPACE
        )
    finally:
        await connection.close()
    by_doc: dict[str, list[dict[str, Any]]] = {}
    for row in chunks:
        heading = row["heading"]
        by_doc.setdefault(row["full_doc_id"], []).append(
            {
                "content": row["content"],
                "tokens": row["tokens"],
                "heading": json.loads(heading) if isinstance(heading, str) else heading,
            }
        )
    return {
        "status": {
            r["id"]: {**dict(r), "metadata": json.loads(r["metadata"] or "{}")} for r in status
        },
        "chunks": by_doc,
        "full_docs": {r["id"] for r in full},
    }


def tables(cluster: Any) -> dict[str, Any]:
    return asyncio.run(_tables(cluster))


@pytest.fixture(scope="module")
def session(postgres, tmp_path_factory):
    """Upload, process, delete, upload again; the database read after each step."""
    import httpx

    work = tmp_path_factory.mktemp("server-pg")
    files = work / "to-upload"
    files.mkdir()
    manual = write_mixed_document(files / MANUAL)
    guide = write_mixed_document(files / "guide.[native-P].docx", seed=3)
    notes = files / NOTES
    notes.write_text(NOTES_TEXT, encoding="utf-8")
    env = {
        **postgres.lightrag_env(),
        **STORAGE,
        "WORKSPACE": WORKSPACE,
        "LIGHTRAG_PARSER": "docx:pchunk-P;md:pchunk-P",
    }
    steps: dict[str, Any] = {"work": work}
    with stand_in_models() as models, httpx.Client() as client:
        # The command line, with the server's variables, before the server runs.
        (work / "cwd").mkdir()
        steps["ingest"] = subprocess.run(
            [sys.executable, "-m", "lightrag_pchunk.cli.main", "ingest", "--no-llm",
             "--no-progress", "--working-dir", str(work / "rag_storage"), str(notes)],
            cwd=work / "cwd", env=server_env(models.base_url, env), capture_output=True,
            text=True, timeout=300, check=False,
        )  # fmt: skip
        steps["after_ingest"] = tables(postgres)
        server = Server(work, models.base_url, "serve", env)
        try:
            server.wait_until_up(client)
            steps["listed"] = client.post(
                f"{server.url}/documents/paginated", json={"page": 1, "page_size": 50}, timeout=30
            ).json()["documents"]
            steps["notes_context"] = client.post(
                f"{server.url}/query",
                json={"query": "booster pump on line four hums at night", "mode": "naive",
                      "only_need_context": True, "chunk_top_k": 3},
                timeout=60,
            ).json()["response"]  # fmt: skip
            tracks = [server.upload(client, path) for path in (manual, guide)]
            steps["records"] = server.wait_for_documents(client, tracks)
            steps["first"] = tables(postgres)
            server.delete(client, [doc_id_for(MANUAL)])
            steps["deleted"] = tables(postgres)
            steps["uploads_after_delete"] = sorted(
                p.name for p in (server.input_dir / WORKSPACE).iterdir() if p.is_file()
            )
            steps["again"] = server.wait_for_documents(client, [server.upload(client, manual)])
            steps["second"] = tables(postgres)
        finally:
            server.stop()
        steps["log"] = server.log()
    return steps


def blocks_file(work: Path, name: str) -> Path:
    [found] = (work / "uploads" / WORKSPACE / "__parsed__").glob(f"{name}.parsed/*.blocks.jsonl")
    return found


def place(row: dict[str, Any]) -> tuple:
    return row["content"], row["tokens"], heading_path(row)


def test_uploads_are_processed_with_pchunk_and_with_native_p(session) -> None:
    records = session["records"]
    assert {name: r["status"] for name, r in records.items()} == {
        MANUAL: "processed",
        GUIDE: "processed",
    }, records
    status = session["first"]["status"]
    assert status[doc_id_for(MANUAL)]["metadata"]["parse_engine"] == "pchunk"
    assert status[doc_id_for(GUIDE)]["metadata"]["parse_engine"] == "native"
    uploaded = (status[doc_id_for(name)] for name in (MANUAL, GUIDE))
    assert {s["metadata"]["chunk_method"] for s in uploaded} == {"paragraph_semantic"}
    # The uploads were found in the server's --input-dir (workspace folder), not ./inputs.
    assert "paragraph_semantic server: INPUT_DIR=" in session["log"]


def test_the_database_holds_our_chunks_with_their_heading_fields(session) -> None:
    chunks, work = session["first"]["chunks"], session["work"]
    tokenizer = load_tiktoken()
    for name in (MANUAL, GUIDE):  # ours over our parse; ours over LightRAG's (install())
        stored = chunks[doc_id_for(name)]
        blocks = blocks_file(work, name)
        expected = chunking_by_paragraph_semantic(tokenizer, "", 2000, blocks_path=blocks)
        assert [place(r) for r in stored] == [place(r) for r in expected], name
        paths = [heading_path(r) for r in stored]
        assert len(paths) > 5 and all(1 <= p.level <= 9 for p in paths)
        assert any(p.parent_headings[:1] == ("Safety Manual",) for p in paths)


def test_a_deleted_document_leaves_nothing_in_the_database(session) -> None:
    gone, kept = doc_id_for(MANUAL), doc_id_for(GUIDE)
    after = session["deleted"]
    assert gone not in after["status"] and gone not in after["chunks"]
    assert gone not in after["full_docs"]
    assert after["chunks"][kept] == session["first"]["chunks"][kept]
    assert MANUAL not in session["uploads_after_delete"]  # delete_file: the upload went too


def test_a_document_uploaded_again_is_processed_again_the_same(session) -> None:
    assert session["again"][MANUAL]["status"] == "processed", session["again"]
    first, second = session["first"]["chunks"], session["second"]["chunks"]
    assert [place(r) for r in second[doc_id_for(MANUAL)]] == [
        place(r) for r in first[doc_id_for(MANUAL)]
    ]
    assert set(session["second"]["status"]) == {doc_id_for(n) for n in (MANUAL, GUIDE, NOTES)}


def test_ingest_writes_where_the_server_reads(session) -> None:
    ingest = session["ingest"]
    assert ingest.returncode == 0, ingest.stderr
    summary = ingest.stdout.strip().splitlines()[-1]
    assert summary.startswith("1 file: 1 inserted; working dir ")
    assert "key-value and doc status in PostgreSQL postgres@127.0.0.1:" in summary
    assert f"(workspace {WORKSPACE}); vectors and graph in files of " in summary
    # In the database's own tables, with the heading fields of our P chunks ...
    rows = session["after_ingest"]["chunks"][doc_id_for(NOTES)]
    assert [heading_path(r).heading for r in rows] == ["Field notes"]
    assert session["after_ingest"]["status"][doc_id_for(NOTES)]["status"] == "processed"
    assert not (session["work"] / "rag_storage" / WORKSPACE / "kv_store_doc_status.json").exists()
    # ... listed by the server, and found by its queries (vectors in the shared working dir).
    listed = {d["file_path"]: d["status"] for d in session["listed"]}
    assert listed == {NOTES: "processed"}
    assert "hums at night" in session["notes_context"]
