"""The JSON registry's file: an append-only JSON Lines journal of key -> record writes.

Each registration appends one line (``{"put": key, "record": {...}}``), each removal one
line (``{"forget": doc_id}``): nothing is rewritten per registration. A record replaces
every earlier record of its ``doc_id`` (a changed file keeps one entry). Readers follow the
file as it grows, reading only the new complete lines. When dead lines outnumber live
records the journal is compacted into a new file, atomically; a reader notices the new
file and reads it from the start.

Safe across threads (a lock) and processes sharing the folder (an advisory ``flock`` on a
``.lock`` file beside the journal, around every write and compaction, where the platform
has one). A damaged line is reported with its line number and skipped: the others count.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

try:  # POSIX advisory locks guard against other processes; threads use a threading.Lock.
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

logger = logging.getLogger("lightrag.pchunk")

#: Compact when the journal holds more than this many lines per live record (plus a floor).
COMPACT_RATIO, COMPACT_FLOOR = 4, 64


class Journal:
    """The records of one journal file, kept current with what every writer appended."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.RLock()
        self._records: dict[str, dict[str, Any]] = {}
        self._inode: int | None = None
        self._offset = 0  # bytes of the file already applied
        self._lines = 0  # lines applied, live or dead: decides compaction

    # --- reading ----------------------------------------------------------------------

    def get(self, key: str) -> dict[str, Any] | None:
        """The live record of ``key``, if any."""
        with self._lock:
            self._refresh()
            return self._records.get(key)

    def records(self) -> dict[str, dict[str, Any]]:
        """Every live record by key, in the order written (a copy)."""
        with self._lock:
            self._refresh()
            return dict(self._records)

    def _refresh(self) -> None:
        try:
            handle = open(self.path, "rb")  # noqa: SIM115 - closed below, stat first
        except FileNotFoundError:
            self._reset(None)
            return
        with handle:
            stat = os.fstat(handle.fileno())
            if stat.st_ino != self._inode or stat.st_size < self._offset:
                self._reset(stat.st_ino)  # a new (compacted) or truncated file
            if stat.st_size == self._offset:
                return
            handle.seek(self._offset)
            data = handle.read(stat.st_size - self._offset)
        complete = data[: data.rfind(b"\n") + 1]  # a line being appended waits its turn
        for raw in complete.splitlines():
            self._lines += 1
            self._apply_line(raw)
        self._offset += len(complete)

    def _reset(self, inode: int | None) -> None:
        self._records, self._inode, self._offset, self._lines = {}, inode, 0, 0

    def _apply_line(self, raw: bytes) -> None:
        if not raw.strip():
            return
        try:
            item = json.loads(raw)
            if "put" in item:
                key, record = str(item["put"]), item["record"]
                if not isinstance(record, Mapping) or "doc_id" not in record:
                    raise ValueError("the record has no doc_id")
                self._apply_put(key, dict(record))
            elif "forget" in item:
                self._apply_forget(str(item["forget"]))
            else:
                raise ValueError("neither 'put' nor 'forget'")
        except (ValueError, TypeError, KeyError) as exc:
            logger.warning(
                "paragraph_semantic registry %s: line %d skipped (%s)", self.path, self._lines, exc
            )

    def _apply_put(self, key: str, record: dict[str, Any]) -> None:
        self._apply_forget(str(record["doc_id"]))
        self._records.pop(key, None)
        self._records[key] = record

    def _apply_forget(self, doc_id: str) -> int:
        gone = [k for k, r in self._records.items() if str(r.get("doc_id")) == doc_id]
        for key in gone:
            del self._records[key]
        return len(gone)

    # --- writing ----------------------------------------------------------------------

    def put(self, key: str, record: Mapping[str, Any]) -> None:
        """Append one record (replacing the records of its ``doc_id``)."""
        with self._lock, self._file_lock():
            self._refresh()
            self._write_lines([{"put": key, "record": dict(record)}])

    def forget(self, doc_id: str) -> int:
        """Append the removal of every record of ``doc_id``; how many were live."""
        with self._lock, self._file_lock():
            self._refresh()
            removed = sum(1 for r in self._records.values() if str(r.get("doc_id")) == doc_id)
            if removed:
                self._write_lines([{"forget": doc_id}])
            return removed

    def put_missing(self, records: Mapping[str, Mapping[str, Any]]) -> int:
        """Append the records whose key is not in the journal yet; how many were added."""
        with self._lock, self._file_lock():
            self._refresh()
            new = [
                {"put": key, "record": dict(record)}
                for key, record in records.items()
                if key not in self._records
            ]
            if new:
                self._write_lines(new)
            return len(new)

    def _write_lines(self, items: list[dict[str, Any]]) -> None:
        """Append under the locks, apply, and compact when the dead lines pile up."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        payload = b"".join(
            json.dumps(item, ensure_ascii=False).encode("utf-8") + b"\n" for item in items
        )
        with open(self.path, "ab") as out:
            out.write(payload)  # one write: other readers see whole lines or nothing
        self._refresh()
        if self._lines > COMPACT_RATIO * len(self._records) + COMPACT_FLOOR:
            self._compact()

    def _compact(self) -> None:
        handle, tmp = tempfile.mkstemp(prefix=".pchunk-registry-", dir=self.path.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                for key, record in self._records.items():
                    line = json.dumps({"put": key, "record": record}, ensure_ascii=False)
                    out.write(line.encode("utf-8") + b"\n")
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        self._reset(None)
        self._refresh()

    @contextlib.contextmanager
    def _file_lock(self) -> Iterator[None]:
        if fcntl is None:  # pragma: no cover - Windows: in-process lock only
            yield
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(self.path.name + ".lock"), "a+b") as lock_file:
            fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock_file.fileno(), fcntl.LOCK_UN)
