"""``ainsert_files`` tells the truth: under concurrent calls on one LightRAG each report says
what happened to its file, and a file whose chunks miss words of its blocks is a failure."""

from __future__ import annotations

import asyncio
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
    files = [write_docx(tmp_path / "in" / f"doc{i}.docx", f"Document {i}", 2 + i % 3) for i in range(10)]
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
