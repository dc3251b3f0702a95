"""One writer at a time on a working dir whose LightRAG storages are files.

LightRAG's file storages (``JsonKVStorage``, ``JsonDocStatusStorage``,
``NanoVectorDBStorage``, ``NetworkXStorage``, ``FaissVectorDBStorage``) load their files
once, when the instance initialises, keep the data in memory and write it back whole: two
processes on one working dir each write their own view, and the last one wins (three
``ingest`` processes of three files each left three documents). LightRAG shares that memory
only between the workers of one server. Database storages (PostgreSQL, and the registry
there) take several writers.

So every entrance that writes through an instance on file storages holds an exclusive
advisory lock on ``<storage folder>/pchunk_storage.lock`` (the working dir, or its
workspace folder), which names its holder:

- ``lightrag-pchunk ingest`` takes it *before* its instance loads the files and waits for
  a holder that will finish (another ``ingest``): once it holds the lock, the files are the
  other's finished work. A server holds it for its lifetime: waiting for it would never end,
  so it refuses at once.
- ``lightrag-pchunk serve`` takes it before the server loads, and refuses to start beside a
  holder.
- ``ainsert_files`` receives an instance that loaded its files already, so waiting cannot
  help: it refuses when another process holds the lock, and when another process wrote the
  doc status since this instance loaded it (its documents would be overwritten).

The lock is re-entrant within a process (``ingest`` holds it and calls ``ainsert_files``).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.doc_outcome import record_status
from lightrag_pchunk.integration.registry import storage_folder

try:  # POSIX advisory locks
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
try:  # Windows byte-range locks
    import msvcrt
except ImportError:  # POSIX
    msvcrt = None  # type: ignore[assignment]

#: LightRAG's storages that keep their data in files of the working dir.
FILE_STORAGES = frozenset(
    {
        "JsonKVStorage",
        "JsonDocStatusStorage",
        "NanoVectorDBStorage",
        "NetworkXStorage",
        "FaissVectorDBStorage",
    }
)
LOCK_NAME = "pchunk_storage.lock"
#: LightRAG's doc status file in the storage folder (``JsonDocStatusStorage``).
DOC_STATUS_FILE = "kv_store_doc_status.json"
#: Holders that keep the lock for their whole life: a waiter would wait forever.
LIFETIME_HOLDERS = ("lightrag-pchunk serve",)
_POLL_SECONDS = 0.2


class StorageBusyError(RuntimeError):
    """Another process writes the working dir's file storages, or wrote them after this
    LightRAG instance loaded them."""


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a lock: what the lock file says."""

    pid: int
    command: str
    since: str
    host: str

    def describe(self) -> str:
        """``process 4242 (lightrag-pchunk ingest, since 15:02:11)``."""
        since = self.since[11:19] if len(self.since) >= 19 else self.since
        where = f" on {self.host}" if self.host and self.host != socket.gethostname() else ""
        return f"process {self.pid}{where} ({self.command}, since {since})"

    @property
    def holds_for_life(self) -> bool:
        return self.command.startswith(LIFETIME_HOLDERS)


def file_storages(rag: Any) -> list[str]:
    """The storages of ``rag`` that keep their data in files of its working dir."""
    names = (
        getattr(rag, attribute, "")
        for attribute in ("kv_storage", "doc_status_storage", "vector_storage", "graph_storage")
    )
    return [str(name) for name in names if str(name) in FILE_STORAGES]


@dataclass
class _Held:
    handle: Any
    count: int


_HELD: dict[Path, _Held] = {}
_HELD_LOCK = threading.Lock()
#: Each folder's doc status file (mtime, size) as this process last found it current.
_CHECKED: dict[Path, tuple[int, int] | None] = {}


def read_holder(folder: Path) -> Holder | None:
    """The holder the lock file of ``folder`` names (None: unreadable or never held)."""
    try:
        data = json.loads((folder / LOCK_NAME).read_text(encoding="utf-8").strip() or "{}")
        return Holder(int(data["pid"]), str(data["command"]), str(data["since"]), data["host"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def busy_message(folder: Path, holder: Holder | None) -> str:
    """One line: who writes ``folder`` and what to do instead."""
    who = holder.describe() if holder is not None else "another process"
    return (
        f"{folder} is in use by {who}: LightRAG's file storages (JSON, NanoVectorDB, "
        "NetworkX, Faiss) take one process at a time; wait for it, insert all files in one "
        "run (or upload them to the server), or use PostgreSQL storages, which take several"
    )


def _try_lock(handle: Any) -> bool:
    try:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        elif msvcrt is not None:  # pragma: no cover - Windows
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def _unlock(handle: Any) -> None:
    try:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        elif msvcrt is not None:  # pragma: no cover - Windows
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
    finally:
        handle.close()


def _write_holder(handle: Any, command: str) -> None:
    holder = {
        "pid": os.getpid(),
        "command": command,
        "since": datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds"),
        "host": socket.gethostname(),
    }
    # Windows locks byte 0: the holder is written after it (a space), on POSIX too.
    handle.seek(0)
    handle.truncate()
    handle.write(" " + json.dumps(holder) + "\n")
    handle.flush()


@contextmanager
def hold_storage(
    folder: str | os.PathLike[str],
    command: str,
    *,
    wait: bool = False,
    on_wait: Callable[[str], None] | None = None,
) -> Iterator[bool]:
    """Hold the storage lock of ``folder`` (re-entrant within this process); yields
    whether this call took it (False: this process held it already).

    ``wait``: wait for a holder that will finish, telling ``on_wait`` once why.

    Raises:
        StorageBusyError: another process holds it (without ``wait``, or one that holds it
            for its lifetime).
    """
    path = Path(os.path.abspath(folder))
    with _HELD_LOCK:
        held = _HELD.get(path)
        if held is not None:
            held.count += 1
    if held is not None:
        try:
            yield False
        finally:
            _release(path)
        return
    path.mkdir(parents=True, exist_ok=True)
    handle = (path / LOCK_NAME).open("a+", encoding="utf-8")
    told = False
    try:
        while not _try_lock(handle):
            holder = read_holder(path)
            if not wait or (holder is not None and holder.holds_for_life):
                raise StorageBusyError(busy_message(path, holder))
            if not told and on_wait is not None:
                who = holder.describe() if holder is not None else "another process"
                on_wait(
                    f"waiting for {who} to finish with {path} (LightRAG's file storages "
                    "take one process at a time)"
                )
                told = True
            time.sleep(_POLL_SECONDS)
        _write_holder(handle, command)
    except BaseException:
        handle.close()
        raise
    with _HELD_LOCK:
        _HELD[path] = _Held(handle, 1)
    try:
        yield True
    finally:
        _release(path)


def _release(path: Path) -> None:
    with _HELD_LOCK:
        held = _HELD[path]
        held.count -= 1
        if held.count:
            return
        del _HELD[path]
    _unlock(held.handle)


def command_name() -> str:
    """What this process is, for the lock file: ``lightrag-pchunk ingest``, else its argv."""
    argv = [Path(sys.argv[0]).name, *sys.argv[1:2]] if sys.argv and sys.argv[0] else ["python"]
    return " ".join(argv)


def _doc_status_file(rag: Any) -> Path | None:
    if str(getattr(rag, "doc_status_storage", "")) != "JsonDocStatusStorage":
        return None
    return storage_folder(rag) / DOC_STATUS_FILE


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def _read_doc_status(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise StorageBusyError(f"cannot read LightRAG's doc status {path}: {exc}") from exc
    return data if isinstance(data, dict) else {}


async def written_since_loaded(rag: Any) -> str:
    """Why ``rag``'s loaded doc status is older than its file ("" when it is not): a
    document the file holds that the instance does not know, or knows in an older state,
    was written by another process after the instance loaded the file."""
    path = _doc_status_file(rag)
    if path is None:
        return ""
    folder = storage_folder(rag)
    stamp = _stamp(path)
    with _HELD_LOCK:
        if stamp is not None and _CHECKED.get(folder) == stamp:
            return ""  # the file as this process last found it current
    on_disk = _read_doc_status(path)
    unknown = await rag.doc_status.filter_keys(set(on_disk))
    newer = 0
    known = [doc_id for doc_id in on_disk if doc_id not in unknown]
    for doc_id, record in zip(known, await rag.doc_status.get_by_ids(known), strict=True):
        disk_time = str((on_disk[doc_id] or {}).get("updated_at") or "")
        memory_time = str((record or {}).get("updated_at") or "")
        if disk_time > memory_time:
            newer += 1
    if unknown or newer:
        return (
            f"{folder} was written by another process after this LightRAG instance loaded it "
            f"({len(unknown)} document(s) it does not know, {newer} changed since): inserting "
            "now would overwrite them; finalize this instance and create a new one "
            "(initialize_storages loads them), or use PostgreSQL storages, which take "
            "several writers"
        )
    remember_doc_status(rag)
    return ""


def remember_doc_status(rag: Any) -> None:
    """Record the doc status file as it is now, checked (the next check skips reading it
    while it stays so)."""
    path = _doc_status_file(rag)
    if path is None:
        return
    stamp = _stamp(path)
    with _HELD_LOCK:
        _CHECKED[storage_folder(rag)] = stamp


async def stored_statuses(rag: Any, doc_ids: list[str]) -> dict[str, str]:
    """The status of each of ``doc_ids`` as LightRAG's storage holds it now: read back
    from the doc status file for file storage (after writing what the instance holds), from
    the database otherwise; a document it does not hold is absent."""
    if not doc_ids:
        return {}
    path = _doc_status_file(rag)
    if path is None:
        records = await rag.doc_status.get_by_ids(doc_ids)
        return {
            doc_id: record_status(record)
            for doc_id, record in zip(doc_ids, records, strict=True)
            if record
        }
    await rag.doc_status.index_done_callback()  # what the instance holds, on disk
    on_disk = _read_doc_status(path)
    remember_doc_status(rag)
    return {doc_id: record_status(on_disk[doc_id]) for doc_id in doc_ids if on_disk.get(doc_id)}
