"""Several writers on one working dir whose LightRAG storages are files: nothing reported
inserted is lost. ``ingest`` waits for another ``ingest``, refuses beside a server,
``ainsert_files`` refuses an instance whose files another process wrote after it loaded
them, and the same file in concurrent calls is enqueued once."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from lightrag_helpers import offline_lightrag as lightrag

from lightrag_pchunk.integration.ingest import ainsert_files
from lightrag_pchunk.integration.server import hold_storage_of
from lightrag_pchunk.integration.storage_lock import LOCK_NAME, StorageBusyError
from lightrag_pchunk.naming import doc_id_for

INGEST = [sys.executable, "-m", "lightrag_pchunk.cli.main", "ingest", "--no-llm"]


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, fresh_lightrag_state):
    for name in ("LIGHTRAG_PARSER", "CHUNK_P_SIZE", "CHUNK_P_OVERLAP_SIZE"):
        monkeypatch.delenv(name, raising=False)


def notes(folder: Path, *names: str) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in names:
        path = folder / f"{name}.md"
        path.write_text(f"# {name}\n\nThe notes of {name}, one paragraph.\n", encoding="utf-8")
        paths.append(path)
    return paths


def stored(work: Path) -> dict[str, str]:
    """The doc status file: file name -> status."""
    records = json.loads((work / "kv_store_doc_status.json").read_text(encoding="utf-8"))
    return {r["file_path"]: r["status"] for r in records.values()}


@contextmanager
def held_by_other(work: Path, command: str) -> Iterator[None]:
    """The storage lock held as another process holds it (its own open file)."""
    work.mkdir(parents=True, exist_ok=True)
    with (work / LOCK_NAME).open("a+", encoding="utf-8") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        holder = {"pid": 4242, "command": command, "since": "2030-01-01T15:02:11", "host": ""}
        handle.truncate(0)
        handle.write(" " + json.dumps(holder))
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def ingest(work: Path, files: list[Path]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen(
        [*INGEST, "--working-dir", str(work), *map(str, files)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_three_ingest_processes_on_one_working_dir_store_all_nine_files(tmp_path) -> None:
    work = tmp_path / "rag"
    batches = [notes(tmp_path / f"in{n}", *(f"doc{n}{i}" for i in range(3))) for n in range(3)]
    # All three start while another ingest holds the lock, so they meet at it whatever the
    # machine's speed (left to chance, a quiet machine let them run one after another).
    with held_by_other(work, "lightrag-pchunk ingest"):
        processes = [ingest(work, batch) for batch in batches]
        for process in processes:
            assert process.stderr is not None
            assert "waiting for process 4242" in process.stderr.readline()
    outputs = [process.communicate(timeout=300) for process in processes]
    for process, (out, err) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, err
        assert out.strip().endswith(f"3 files: 3 inserted; working dir {work}")
    assert stored(work) == {f"doc{n}{i}.md": "processed" for n in range(3) for i in range(3)}


def test_ingest_waits_for_another_ingest_and_loads_its_work(tmp_path) -> None:
    work = tmp_path / "rag"
    with held_by_other(work, "lightrag-pchunk ingest"):
        process = ingest(work, notes(tmp_path / "in", "alpha", "beta"))
        deadline = time.monotonic() + 120
        assert process.stderr is not None
        line = process.stderr.readline()  # the process says why it waits, then waits
        assert time.monotonic() < deadline
        assert "waiting for process 4242 (lightrag-pchunk ingest, since 15:02:11)" in line
        time.sleep(0.5)
        assert process.poll() is None
        assert not (work / "kv_store_doc_status.json").exists()  # nothing loaded yet
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert out.strip().endswith(f"2 files: 2 inserted; working dir {work}")
    assert stored(work) == {"alpha.md": "processed", "beta.md": "processed"}


def test_ingest_refuses_a_working_dir_a_server_holds(tmp_path) -> None:
    work = tmp_path / "rag"
    with held_by_other(work, "lightrag-pchunk serve"):
        process = ingest(work, notes(tmp_path / "in", "alpha"))
        _out, err = process.communicate(timeout=300)
    assert process.returncode == 1
    assert "is in use by process 4242 (lightrag-pchunk serve, since 15:02:11)" in err
    assert "one process at a time" in err and "waiting" not in err
    assert not (work / "kv_store_doc_status.json").exists()


async def test_ainsert_files_refuses_while_another_process_writes(tmp_path) -> None:
    work = tmp_path / "rag"
    async with lightrag(work) as rag:
        busy = pytest.raises(StorageBusyError, match="in use by process 4242")
        with held_by_other(work, "lightrag-pchunk ingest"), busy:
            await ainsert_files(rag, notes(tmp_path / "in", "alpha"), progress=False)
        assert await rag.doc_status.get_by_id(doc_id_for("alpha.md")) is None


async def test_an_instance_loaded_before_another_process_wrote_is_refused(tmp_path) -> None:
    work = tmp_path / "rag"
    async with lightrag(work) as rag:  # loads the empty working dir
        first = ingest(work, notes(tmp_path / "in1", "alpha", "beta"))
        _out, err = first.communicate(timeout=300)
        assert first.returncode == 0, err
        with pytest.raises(StorageBusyError, match=r"2 document\(s\) it does not know"):
            await ainsert_files(rag, notes(tmp_path / "in2", "gamma"), progress=False)
    # The instance wrote nothing over the other process's documents.
    assert stored(work) == {"alpha.md": "processed", "beta.md": "processed"}


async def test_an_instance_inserting_again_after_its_own_writes_is_not_refused(tmp_path) -> None:
    work = tmp_path / "rag"
    async with lightrag(work) as rag:
        first, second = notes(tmp_path / "in", "alpha", "beta")
        assert (await ainsert_files(rag, [first], progress=False)).ok
        assert (await ainsert_files(rag, [second], progress=False)).ok
    assert stored(work) == {"alpha.md": "processed", "beta.md": "processed"}


async def test_a_document_the_stored_doc_status_lost_is_reported_failed(
    tmp_path, monkeypatch
) -> None:
    """The read-back after the insert: a writer outside the lock (a plain lightrag-server)
    overwrote the doc status file each time this instance wrote it."""
    work = tmp_path / "rag"
    async with lightrag(work) as rag:
        flush = rag.doc_status.index_done_callback

        async def flush_then_overwritten() -> None:
            await flush()
            (work / "kv_store_doc_status.json").write_text("{}", encoding="utf-8")

        monkeypatch.setattr(rag.doc_status, "index_done_callback", flush_then_overwritten)
        report = await ainsert_files(rag, notes(tmp_path / "in", "alpha"), progress=False)
    (result,) = report.results
    assert result.status == "failed"
    assert "its stored doc status holds no record" in result.message


async def test_the_same_file_in_three_concurrent_calls_is_enqueued_once(tmp_path) -> None:
    (source,) = notes(tmp_path / "in", "same")
    async with lightrag(tmp_path / "rag") as rag:
        reports = await asyncio.gather(
            *(ainsert_files(rag, [source], progress=False) for _ in range(3))
        )
        statuses = sorted(r.results[0].status for r in reports)
        assert statuses == ["inserted", "unchanged", "unchanged"]
        from lightrag.base import DocStatus

        records = await rag.doc_status.get_docs_by_statuses(list(DocStatus))
        assert [(record.file_path, record.status) for record in records.values()] == [
            ("same.md", DocStatus.PROCESSED)
        ]  # no failed duplicate record


def test_a_server_holds_the_lock_of_its_working_dir_while_it_runs(tmp_path) -> None:
    class Settings:
        working_dir = str(tmp_path / "rag")
        workspace = "team"
        kv_storage, doc_status_storage = "JsonKVStorage", "JsonDocStatusStorage"
        vector_storage, graph_storage = "NanoVectorDBStorage", "NetworkXStorage"

    with hold_storage_of(Settings(), "lightrag-pchunk serve"):
        holder = json.loads((tmp_path / "rag" / "team" / LOCK_NAME).read_text())
        assert holder["command"] == "lightrag-pchunk serve" and holder["pid"] == os.getpid()
    Settings.kv_storage = Settings.doc_status_storage = "PG"
    Settings.vector_storage = Settings.graph_storage = "PG"
    with hold_storage_of(Settings(), "lightrag-pchunk serve") as took:
        assert took is False  # database storages: no lock


def test_a_command_on_a_new_working_dir_never_races_lightrag_creating_it(
    tmp_path, monkeypatch
) -> None:
    # LightRAG checks that the working dir is missing, then creates it without exist_ok: a
    # second command that created it in between made the first die on FileExistsError.
    import lightrag.lightrag as lightrag_module

    from lightrag_pchunk.cli.rag_instance import command_rag

    makedirs = os.makedirs

    def lost_the_race(path, mode=0o777, exist_ok=False):
        if not exist_ok:  # LightRAG's call; its storages pass exist_ok=True
            raise FileExistsError(path)
        makedirs(path, mode, exist_ok)

    monkeypatch.setattr(lightrag_module.os, "makedirs", lost_the_race)
    working_dir = tmp_path / "new" / "rag"
    rag = asyncio.run(command_rag(working_dir, no_llm=True, rag_factory=None))
    assert working_dir.is_dir() and rag.working_dir == str(working_dir)
