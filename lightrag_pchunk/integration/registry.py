"""The document registry: which ``.blocks.jsonl`` belongs to a text LightRAG hands us.

LightRAG 1.5.7 calls a legacy ``chunking_func`` with six positional arguments only: no file
path, no doc id, no sidecar. So when our ingest helper inserts a parsed document it first
records, under a hash of the exact text LightRAG will pass, where the blocks are and the
per-document plan (strategy, reason, P settings frozen at enqueue, as LightRAG freezes its
``chunk_options``). ``chunking_func`` looks the text up again at chunk time.

The registry is one JSON file in the LightRAG working dir, so a restart or a retry still
finds it. Writes are atomic (temp file + ``os.replace``) and re-read the file under a lock
first, so concurrent registrations from threads, asyncio tasks or other processes (an
advisory ``flock`` where the platform has one) never lose each other's entries.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from lightrag_pchunk.naming import sanitize_text

logger = logging.getLogger("lightrag.pchunk")

REGISTRY_FILE = "lightrag_pchunk_registry.json"
"""The registry's file name inside a LightRAG working dir."""
REGISTRY_VERSION = 1

try:  # POSIX advisory locks guard against other processes; threads use a threading.Lock.
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def lightrag_sanitize(content: str) -> str:
    """The text LightRAG stores for a raw document (``sanitize_text_for_encoding``).

    LightRAG's own function is the ground truth (the key must match the text it passes to
    ``chunking_func`` byte for byte); ours implements the same rules if it moves.
    """
    try:
        from lightrag.utils import sanitize_text_for_encoding
    except ImportError:  # pragma: no cover - lightrag is a dependency
        return sanitize_text(content)
    return sanitize_text_for_encoding(content) or ""


def text_key(text: str) -> str:
    """The registry key of a text: md5 hex of its UTF-8 bytes."""
    return hashlib.md5(text.encode("utf-8", errors="replace")).hexdigest()


def insert_key(content: str) -> str:
    """The key of a text about to be inserted: the hash of what LightRAG will pass back."""
    return text_key(lightrag_sanitize(content))


@dataclass(frozen=True, slots=True)
class RegisteredDocument:
    """One registered document: where its blocks are and how it is to be chunked.

    ``blocks_path`` is absolute (stored relative to the working dir when inside it, so a
    moved working dir keeps working). ``p_settings`` is the frozen P snapshot
    (``chunk_token_size``, ``chunk_overlap_token_size``, ``drop_references``, ``sources``);
    ``r_params`` the R parameters of a route that selects R.
    """

    key: str
    source_name: str
    doc_id: str
    strategy: str  # "P" | "R"
    reason: str
    blocks_path: Path | None = None
    p_settings: Mapping[str, Any] | None = None
    r_params: Mapping[str, Any] = field(default_factory=dict)
    registered_at: str = ""

    def to_json(self, base: Path) -> dict[str, Any]:
        """The stored form (paths relative to ``base`` when inside it)."""
        data = asdict(self)
        data.pop("key")
        data["blocks_path"] = _relative(self.blocks_path, base)
        data["p_settings"] = dict(self.p_settings) if self.p_settings is not None else None
        data["r_params"] = dict(self.r_params)
        return data

    @classmethod
    def from_json(cls, key: str, data: Mapping[str, Any], base: Path) -> RegisteredDocument:
        """Read a stored entry (raises KeyError/TypeError/ValueError when malformed)."""
        blocks = data.get("blocks_path")
        p_settings = data.get("p_settings")
        return cls(
            key=key,
            source_name=str(data["source_name"]),
            doc_id=str(data["doc_id"]),
            strategy=str(data["strategy"]),
            reason=str(data.get("reason", "")),
            blocks_path=(base / blocks) if isinstance(blocks, str) and blocks else None,
            p_settings=dict(p_settings) if isinstance(p_settings, Mapping) else None,
            r_params=dict(data.get("r_params") or {}),
            registered_at=str(data.get("registered_at", "")),
        )


def _relative(path: Path | None, base: Path) -> str | None:
    if path is None:
        return None
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(base).as_posix()
    except ValueError:
        return str(absolute)


class DocumentRegistry:
    """The registry file of one working dir; share it through :func:`open_registry`."""

    def __init__(self, working_dir: str | os.PathLike[str]) -> None:
        self.working_dir = Path(os.path.abspath(working_dir))
        self.path = self.working_dir / REGISTRY_FILE
        self._lock = threading.RLock()
        self._entries: dict[str, RegisteredDocument] = {}
        self._stamp: tuple[int, int] | None = None  # (mtime_ns, size) of the file we read
        self._corrupt = False  # the file exists but could not be read

    def __repr__(self) -> str:
        return f"DocumentRegistry({str(self.working_dir)!r})"

    # --- reading ----------------------------------------------------------------------

    def _file_stamp(self) -> tuple[int, int] | None:
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return (stat.st_mtime_ns, stat.st_size)

    def _refresh(self) -> None:
        """Re-read the file when it changed since we last read it (another writer)."""
        stamp = self._file_stamp()
        if stamp == self._stamp:
            return
        self._corrupt = False
        self._entries = self._read_file() if stamp is not None else {}
        self._stamp = stamp

    def _read_file(self) -> dict[str, RegisteredDocument]:
        try:
            payload = json.loads(self.path.read_text(encoding="utf-8"))
            documents = payload["documents"]
            if not isinstance(documents, dict):
                raise TypeError("'documents' is not a mapping")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
            self._corrupt = True
            logger.warning(
                "paragraph_semantic registry %s is unreadable (%s); it is treated as empty "
                "and set aside as %s.corrupt on the next registration",
                self.path,
                exc,
                self.path.name,
            )
            return {}
        entries: dict[str, RegisteredDocument] = {}
        for key, data in documents.items():
            try:
                entries[key] = RegisteredDocument.from_json(key, data, self.working_dir)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                logger.warning(
                    "paragraph_semantic registry %s: entry %s skipped (%s)", self.path, key, exc
                )
        return entries

    def get(self, key: str) -> RegisteredDocument | None:
        """The entry stored under ``key``, if any."""
        with self._lock:
            self._refresh()
            return self._entries.get(key)

    def lookup(self, content: str) -> RegisteredDocument | None:
        """The entry of a text as LightRAG passes it (already sanitized), else as inserted."""
        entry = self.get(text_key(content))
        if entry is None:
            # A caller that hands us the unsanitized body (a direct call) still matches.
            entry = self.get(insert_key(content))
        return entry

    def by_doc_id(self, doc_id: str) -> RegisteredDocument | None:
        """The entry registered for a LightRAG doc id, if any."""
        with self._lock:
            self._refresh()
            return next((e for e in self._entries.values() if e.doc_id == doc_id), None)

    def entries(self) -> list[RegisteredDocument]:
        """Every entry, in registration order."""
        with self._lock:
            self._refresh()
            return list(self._entries.values())

    # --- writing ----------------------------------------------------------------------

    def register(self, entry: RegisteredDocument) -> RegisteredDocument:
        """Store ``entry``, replacing any earlier entry of the same doc id (a changed file)."""
        if not entry.registered_at:
            entry = replace(entry, registered_at=time.strftime("%Y-%m-%dT%H:%M:%S%z"))

        def mutate(entries: dict[str, RegisteredDocument]) -> None:
            for key in [k for k, e in entries.items() if e.doc_id == entry.doc_id]:
                del entries[key]
            entries[entry.key] = entry

        self._update(mutate)
        return entry

    def forget(self, doc_id: str) -> int:
        """Remove every entry of a doc id; returns how many were removed."""
        removed = 0

        def mutate(entries: dict[str, RegisteredDocument]) -> None:
            nonlocal removed
            for key in [k for k, e in entries.items() if e.doc_id == doc_id]:
                del entries[key]
                removed += 1

        self._update(mutate)
        return removed

    def _update(self, mutate: Any) -> None:
        with self._lock, self._file_lock():
            self._stamp = None  # always re-read under the lock: another process may have written
            self._refresh()
            if self._corrupt:
                self._set_aside_corrupt_file()
            entries = dict(self._entries)
            mutate(entries)
            self._write(entries)
            self._entries = entries
            self._stamp = self._file_stamp()

    def _set_aside_corrupt_file(self) -> None:
        target = self.path.with_name(self.path.name + ".corrupt")
        with contextlib.suppress(OSError):
            os.replace(self.path, target)
            logger.warning(
                "paragraph_semantic registry: unreadable %s moved to %s", self.path, target
            )

    def _write(self, entries: Mapping[str, RegisteredDocument]) -> None:
        self.working_dir.mkdir(parents=True, exist_ok=True)
        payload = {
            "version": REGISTRY_VERSION,
            "documents": {k: e.to_json(self.working_dir) for k, e in entries.items()},
        }
        handle, tmp = tempfile.mkstemp(prefix=".pchunk-registry-", dir=self.working_dir)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(payload, out, ensure_ascii=False, indent=1)
                out.write("\n")
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    @contextlib.contextmanager
    def _file_lock(self) -> Iterator[None]:
        if fcntl is None:  # pragma: no cover - Windows: in-process lock only
            yield
            return
        self.working_dir.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(self.path.name + ".lock"), "a+b") as lock_file:
            fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock_file.fileno(), fcntl.LOCK_UN)


_OPEN: dict[Path, DocumentRegistry] = {}
_OPEN_LOCK = threading.Lock()


def open_registry(working_dir: str | os.PathLike[str]) -> DocumentRegistry:
    """The process-wide registry object of a working dir (created on first use).

    Every opened registry is searched by :func:`find_registered`, so a text registered in
    any working dir this process has touched is found by ``chunking_func``.
    """
    path = Path(os.path.abspath(working_dir))
    with _OPEN_LOCK:
        registry = _OPEN.pop(path, None) or DocumentRegistry(path)
        _OPEN[path] = registry  # most recently opened last: searched first
        return registry


def opened_registries() -> list[DocumentRegistry]:
    """The registries opened in this process, most recently opened first."""
    with _OPEN_LOCK:
        return list(reversed(_OPEN.values()))


def close_registries() -> None:
    """Forget every opened registry (the files stay); as after a restart."""
    with _OPEN_LOCK:
        _OPEN.clear()


def find_registered(
    content: str,
    working_dirs: tuple[str | os.PathLike[str], ...] = (),
    *,
    search_opened: bool = True,
) -> tuple[RegisteredDocument, DocumentRegistry] | None:
    """The entry of a text in the registries of ``working_dirs``, then (``search_opened``)
    in every registry opened in this process."""
    candidates = [open_registry(d) for d in working_dirs]
    if search_opened:
        candidates += opened_registries()
    seen: set[Path] = set()
    for registry in candidates:
        if registry.working_dir in seen:
            continue
        seen.add(registry.working_dir)
        entry = registry.lookup(content)
        if entry is not None:
            return entry, registry
    return None
