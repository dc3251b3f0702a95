"""Every entrance that stores P chunks checks them for lost words (front_door.run): the
chunking function LightRAG calls (register_document + rag.ainsert), LightRAG's own P
dispatch (the ``pchunk`` engine of LightRAG's server after ``install()``) and the file
chunker all log the shortfall at ERROR with its count, since LightRAG stores what they
return; ``ainsert_files`` fails the document (tests/cli/test_no_silent_loss.py)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from lightrag_helpers import offline_lightrag as lightrag
from lightrag_helpers import upload

from lightrag_pchunk.integration import front_door, plugin
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.registration import register_document
from lightrag_pchunk.naming import doc_id_for
from lightrag_pchunk.parse.document import parse_docx

from sample_docs import write_mixed_document

ENV = ("LIGHTRAG_PARSER", "CHUNK_P_SIZE", "CHUNK_P_OVERLAP_SIZE", "CHUNK_OVERLAP_SIZE")


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, tmp_path, fresh_lightrag_state):
    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("INPUT_DIR", str(tmp_path / "inputs"))
    yield
    plugin.uninstall()


@pytest.fixture
def lossy_chunker(monkeypatch):
    """A P chunker with a bug: it drops the last chunk of every document."""
    real = front_door.chunk_rows
    monkeypatch.setattr(
        front_door, "chunk_rows", lambda rows, ctx, **kw: real(rows, ctx, **kw)[:-1]
    )


def lost_lines(logs) -> list[str]:
    return [
        r.getMessage()
        for r in logs.records
        if r.levelno == logging.ERROR and "the chunks lost" in r.getMessage()
    ]


def document(tmp_path: Path) -> Path:
    path = tmp_path / "inputs" / "report.docx"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_mixed_document(path, seed=3)
    return path


def test_the_file_chunker_logs_lost_words_with_their_count(
    tmp_path, cl100k_tokenizer, pchunk_logs, lossy_chunker
) -> None:
    parsed = parse_docx(document(tmp_path), tmp_path / "parsed")
    rows = chunking_by_paragraph_semantic(cl100k_tokenizer, "", 300, blocks_path=parsed.blocks_path)
    assert rows  # the chunks are returned: LightRAG stores them
    [line] = lost_lines(pchunk_logs)
    assert f"doc={parsed.doc_id}: the chunks lost " in line and " words (e.g. " in line
    assert str(parsed.blocks_path) in line


def test_nothing_is_logged_when_nothing_is_lost(tmp_path, cl100k_tokenizer, pchunk_logs) -> None:
    parsed = parse_docx(document(tmp_path), tmp_path / "parsed")
    chunking_by_paragraph_semantic(cl100k_tokenizer, "", 300, blocks_path=parsed.blocks_path)
    assert not lost_lines(pchunk_logs)


@pytest.mark.e2e
async def test_register_document_and_ainsert_log_lost_words(
    tmp_path, pchunk_logs, lossy_chunker
) -> None:
    docx = document(tmp_path)
    parsed = parse_docx(docx, tmp_path / "parsed")
    async with lightrag(tmp_path / "rag") as rag:
        register_document(rag, docx, parsed.content, parsed.blocks_path)
        await rag.ainsert(parsed.content, file_paths=[str(docx)])
        status = await rag.doc_status.get_by_id(doc_id_for(docx))
    assert status["status"] == "processed"
    [line] = lost_lines(pchunk_logs)
    assert f"doc={parsed.doc_id}: the chunks lost " in line


@pytest.mark.e2e
async def test_the_pchunk_engine_under_lightrags_pipeline_logs_lost_words(
    tmp_path, pchunk_logs, lossy_chunker, monkeypatch
) -> None:
    from lightrag.chunker import chunking_by_token_size
    from lightrag.parser import registry

    from lightrag_pchunk.integration import server
    from lightrag_pchunk.integration.lightrag_parser import PCHUNK, register

    monkeypatch.setenv("LIGHTRAG_PARSER", "docx:pchunk-P")
    # The server's --input-dir is where the upload is (not a server an earlier test read).
    monkeypatch.setattr(server, "server_input_dir", lambda: tmp_path / "inputs")
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))  # undone after
    monkeypatch.setattr(registry, "_INSTANCE_CACHE", {})
    register()  # what LightRAG's server does at start-up (our lightrag.parsers entry point)
    assert PCHUNK in registry._REGISTRY
    docx = document(tmp_path)
    assert plugin.install() is True
    async with lightrag(tmp_path / "rag", chunking_func=chunking_by_token_size) as rag:
        await upload(rag, docx)  # what the server's upload does
        status = await rag.doc_status.get_by_id(doc_id_for(docx))
    assert status["status"] == "processed", status
    assert status["metadata"]["chunk_method"] == "paragraph_semantic"
    [line] = lost_lines(pchunk_logs)
    assert " words (e.g. " in line
