"""``ainsert_files`` tells the truth: under concurrent calls on one LightRAG each report says
what happened to its file, and a file whose chunks miss words of its blocks is a failure."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from docx import Document
from lightrag_helpers import offline_lightrag as lightrag

from lightrag_pchunk.integration.ingest import ainsert_files
from lightrag_pchunk.integration.registry import close_registries
from lightrag_pchunk.naming import doc_id_for


@pytest.fixture(autouse=True)
def _isolated(monkeypatch):
    for name in ("LIGHTRAG_PARSER", "CHUNK_P_SIZE", "CHUNK_P_OVERLAP_SIZE"):
        monkeypatch.delenv(name, raising=False)
    close_registries()
    yield
    close_registries()
    from lightrag.kg.shared_storage import finalize_share_data

    finalize_share_data()


def write_docx(path: Path, title: str, sections: int = 3) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    document = Document()
    document.add_heading(title, level=1)
    for n in range(1, sections + 1):
        document.add_heading(f"{n} Section {n} of {title}", level=2)
        document.add_paragraph(f"Body text {n} of {title}, long enough to be a paragraph. " * 8)
    document.save(str(path))
    return path


async def test_concurrent_calls_on_one_instance_each_report_their_own_file(tmp_path) -> None:
    files = [
        write_docx(tmp_path / "in" / f"doc{i}.docx", f"Document {i}", 2 + i % 3) for i in range(10)
    ]
    async with lightrag(tmp_path / "rag") as rag:
        reports = await asyncio.gather(
            *(ainsert_files(rag, [path], progress=False) for path in files)
        )
        for path, report in zip(files, reports, strict=True):
            (result,) = report.results
            record = await rag.doc_status.get_by_id(doc_id_for(path))
            assert record["status"] == "processed"
            assert (result.status, result.chunks) == ("inserted", record["chunks_count"]), (
                result.describe()
            )
            assert result.chunks > 0 and result.strategy == "P"


def write_docx_text(path: Path, *paragraphs: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    document = Document()
    document.add_heading("Handbook", level=1)
    for text in paragraphs:
        document.add_paragraph(text)
    document.save(str(path))
    return path


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85"], ids=lambda c: f"U+{ord(c):04X}")
def test_a_line_breaker_in_the_text_goes_through_parse_chunk_and_lightrag_rows(
    char, tmp_path, cl100k_tokenizer
) -> None:
    from lightrag_pchunk.blockfile.jsonl import read_blocks
    from lightrag_pchunk.chunk.coverage import lost_words
    from lightrag_pchunk.integration.chunker import chunking_by_paragraph_semantic
    from lightrag_pchunk.parse.document import parse_docx

    source = write_docx_text(
        tmp_path / "in" / "doc.docx",
        f"Words before the break{char}and the words after it.",
        f"A second paragraph{char}{char}ending here.",
    )
    parsed = parse_docx(source, tmp_path / "out")
    assert char in parsed.blocks_path.read_text(encoding="utf-8")  # written raw
    assert read_blocks(parsed.blocks_path).problems == []
    rows = chunking_by_paragraph_semantic(
        cl100k_tokenizer, parsed.content, 2000, blocks_path=parsed.blocks_path
    )
    contents = [r["content"] for r in rows]
    assert lost_words([r.content for r in parsed.rows], contents).total == 0
    assert "after it" in contents[0] and "ending here" in contents[0]


async def test_ingest_of_a_document_holding_u2028_keeps_every_word(tmp_path) -> None:
    source = write_docx_text(
        tmp_path / "in" / "u2028.docx",
        *(f"Clause {n} text before\u2028clause {n} text after the separator." for n in range(40)),
    )
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, [source], progress=False)
        (result,) = report.results
        assert result.status == "inserted", result.describe()
        record = await rag.doc_status.get_by_id(doc_id_for(source))
        stored = await rag.text_chunks.get_by_ids(record["chunks_list"])
    text = "\n".join(chunk["content"] for chunk in stored)
    assert all(f"clause {n} text after" in text for n in range(40))


@pytest.fixture
def lossy_chunker(monkeypatch):
    """A P chunker with a bug: it drops the last chunk of every document."""
    from lightrag_pchunk.integration import chunker

    real = chunker.chunk_rows
    monkeypatch.setattr(chunker, "chunk_rows", lambda rows, ctx: real(rows, ctx)[:-1])


async def test_a_shortfall_is_a_failure_with_the_count_never_inserted(
    tmp_path, lossy_chunker
) -> None:
    source = write_docx(tmp_path / "in" / "lossy.docx", "Lossy", sections=3)
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, [source], progress=False)
        (result,) = report.results
        assert result.status == "failed" and not report.ok
        assert re.search(r"^its chunks lost \d+ words \(e\.g\. 'Lossy'", result.message)
        assert "lossy.[native-R].docx" in result.message
        assert await rag.doc_status.get_by_id(doc_id_for(source)) is None  # removed again


async def test_words_a_setting_drops_on_purpose_are_no_shortfall(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CHUNK_P_DROP_REFERENCES", "true")
    path = tmp_path / "in" / "paper.docx"
    path.parent.mkdir(parents=True)
    document = Document()
    document.add_heading("Paper", level=1)
    document.add_paragraph("The finding is stated here. " * 5)
    document.add_heading("References", level=1)
    document.add_paragraph("[1] Someone, Some Title, 1999.")
    document.save(str(path))
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, [path], progress=False)
        (result,) = report.results
        assert result.status == "inserted", result.describe()
        record = await rag.doc_status.get_by_id(doc_id_for(path))
        stored = await rag.text_chunks.get_by_ids(record["chunks_list"])
    assert "Someone" not in "\n".join(chunk["content"] for chunk in stored)
