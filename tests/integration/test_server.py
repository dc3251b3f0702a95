"""LightRAG's own API server, for real: ``lightrag-pchunk serve`` on 127.0.0.1 (LightRAG's
``lightrag-server`` main, uvicorn, its upload route and pipeline) with an OpenAI-compatible
stand-in model server, and ``LIGHTRAG_PARSER=docx:pchunk-P``.

One batch of three uploads: a Word file parsed by our ``pchunk`` engine and chunked by our P
(LightRAG loads the engine from our ``lightrag.parsers`` entry point itself), a
``report.[native-R].docx`` that LightRAG parses natively and splits with R, and a corrupt
``.docx`` and a ``.docx`` of 300,000 one-word paragraphs (over the work budget) that fail
with our parser's reasons while the other two are processed. The server
runs in a folder of its own with its ``--input-dir`` elsewhere (``server_process.py``).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from lightrag_pchunk.encodings import load_tiktoken
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic, written_by_us
from lightrag_pchunk.integration.rows import heading_path
from lightrag_pchunk.naming import doc_id_for
from lightrag_pchunk.parse.document import parse_docx

from hostile import word_paragraphs
from model_stand_in import stand_in_models
from sample_docs import write_mixed_document
from server_process import LAUNCHERS, Server

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        any(importlib.util.find_spec(m) is None for m in ("fastapi", "uvicorn", "httpx")),
        reason='LightRAG\'s server is not installed: pip install "lightrag-hku[api]"',
    ),
]


def stored(work: Path, namespace: str) -> dict[str, Any]:
    return json.loads((work / "rag_storage" / f"kv_store_{namespace}.json").read_text("utf-8"))


@pytest.fixture(scope="module", params=sorted(LAUNCHERS))
def served(request, tmp_path_factory):
    """The batch, uploaded and processed; the server stopped (storages flushed) afterwards."""
    import httpx

    work = tmp_path_factory.mktemp("server")
    files = work / "to-upload"
    files.mkdir()
    manual = write_mixed_document(files / "manual.docx")
    report = write_mixed_document(files / "report.[native-R].docx", seed=3)
    broken = files / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 this is not really a Word document")
    paragraphs = word_paragraphs(files / "paragraphs.docx", 300_000)
    # The question: a chunk of the manual inside a section (the hashing embedding is lexical).
    local = parse_docx(manual, work / "local")
    ours = chunking_by_paragraph_semantic(load_tiktoken(), "", 2000, blocks_path=local.blocks_path)
    target = next(
        r for r in ours if heading_path(r).parent_headings and "<table" not in r["content"]
    )
    with stand_in_models() as models, httpx.Client() as client:
        server = Server(work, models.base_url, request.param)
        try:
            server.wait_until_up(client)
            tracks = [server.upload(client, path) for path in (manual, report, broken, paragraphs)]
            records = server.wait_for_documents(client, tracks)
            context = client.post(
                f"{server.url}/query",
                json={"query": target["content"][:400], "mode": "naive",
                      "only_need_context": True, "chunk_top_k": 3},
                timeout=60,
            )  # fmt: skip
        finally:
            server.stop()
        calls = dict(models.calls)
    return {
        "launcher": request.param,
        "work": work,
        "records": records,
        "context": context,
        "query_target": target,
        "log": server.log(),
        "calls": calls,
        "chunks": stored(work, "text_chunks"),
        "status": stored(work, "doc_status"),
    }


def chunks_of(served: dict, name: str) -> list[dict]:
    ids = served["status"][doc_id_for(name)]["chunks_list"]
    return sorted((served["chunks"][i] for i in ids), key=lambda r: r["chunk_order_index"])


def test_lightrag_loads_our_parser_engine_and_calls_the_models(served) -> None:
    assert "loaded parser plugin 'pchunk'" in served["log"]
    # Only our command installs our P over LightRAG's native parse as well.
    installed = "lightrag-pchunk serve: P installed" in served["log"]
    assert installed == (served["launcher"] == "serve")
    assert served["calls"].get("embeddings", 0) > 0
    assert served["calls"].get("completions", 0) > 0  # entity extraction ran, for real


def test_a_docx_is_parsed_by_our_engine_and_chunked_by_our_p(served) -> None:
    record = served["records"]["manual.docx"]
    assert record["status"] == "processed", record
    status = served["status"][doc_id_for("manual.docx")]
    assert status["metadata"]["parse_engine"] == "pchunk"
    assert status["metadata"]["chunk_method"] == "paragraph_semantic"
    # Found in the server's --input-dir, though the server runs in another folder.
    [blocks] = (served["work"] / "uploads" / "__parsed__").glob("manual.docx.parsed/*.blocks.jsonl")
    assert written_by_us(blocks)
    expected = chunking_by_paragraph_semantic(load_tiktoken(), "", 2000, blocks_path=blocks)
    rows = chunks_of(served, "manual.docx")
    assert [(r["content"], r["tokens"], heading_path(r)) for r in rows] == [
        (r["content"], r["tokens"], heading_path(r)) for r in expected
    ]
    assert len(rows) > 5
    paths = [heading_path(r) for r in rows]
    assert all(1 <= p.level <= 9 for p in paths)
    assert any(p.parent_headings[:1] == ("Safety Manual",) for p in paths)
    inventory = [p.heading for p in paths if p.heading.startswith("3 Inventory")]
    assert inventory[:2] == ["3 Inventory [part 1]", "3 Inventory [part 2]"]


def test_a_native_r_hint_gets_lightrags_parser_and_r(served) -> None:
    record = served["records"]["report.docx"]  # LightRAG stores the name without its hint
    assert record["status"] == "processed", record
    status = served["status"][doc_id_for("report.docx")]
    assert status["metadata"]["parse_engine"] == "native"
    assert status["metadata"]["chunk_method"] == "recursive_character"
    rows = chunks_of(served, "report.docx")
    assert rows and all(heading_path(r).level == 0 for r in rows)


def test_a_corrupt_upload_fails_with_the_reason_and_the_rest_is_processed(served) -> None:
    record = served["records"]["broken.docx"]
    assert record["status"] == "failed"
    message = record.get("error_msg") or ""
    assert "broken.docx" in message and "[not-a-zip]" in message, record  # our parser's reason
    others = [
        r for name, r in served["records"].items() if name not in ("broken.docx", "paragraphs.docx")
    ]
    assert len(others) == 2 and all(r["status"] == "processed" for r in others)


def test_an_upload_over_the_work_budget_fails_in_one_line_with_the_numbers(served) -> None:
    record = served["records"]["paragraphs.docx"]
    assert record["status"] == "failed", record
    message = record.get("error_msg") or ""
    assert "the document has more than 250,000 lines, the most one document may have" in message
    assert "(raise LIGHTRAG_PCHUNK_MAX_LINES if it is genuine) [output-budget]" in message


def test_the_query_context_carries_our_heading_paths(served) -> None:
    response = served["context"]
    assert response.status_code == 200, response.text
    context = response.json()["response"]
    target = served["query_target"]
    parents = " → ".join(heading_path(target).parent_headings)
    assert parents and f'"content_headings": "{parents}"' in context
    assert target["content"].split("\n")[0] in context
