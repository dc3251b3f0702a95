"""The document registry: which ``.blocks.jsonl`` belongs to a text LightRAG hands us.

LightRAG 1.5.7 calls a legacy ``chunking_func`` with six positional arguments only: no file
path, no doc id, no sidecar. So when our ingest helper inserts a parsed document it first
records, under a hash of the exact text LightRAG will pass, where the blocks are and the
per-document decision (strategy, reason, P settings frozen at enqueue, as LightRAG freezes
its ``chunk_options``). ``chunking_func`` looks the text up again at chunk time.

The registry lives in the LightRAG instance's own storage (:func:`registry_for`): a table of
its PostgreSQL database when the instance uses ``PGKVStorage`` (``registry_pg.py``), so
every worker and machine sharing that database sees every registration; otherwise a JSON
Lines journal beside LightRAG's ``kv_store_*.json`` files (:class:`JsonRegistry`). Either
way one registration writes one record, never the whole registry. A registry of an older
version (one JSON file rewritten whole, ``lightrag_pchunk_registry.json``) is read once and
moved into the new store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.registry_entry import (
    LEGACY_REGISTRY_FILE,
    RegisteredDocument,
    insert_key,
    read_legacy_registry,
    stamped,
    text_key,
)
from lightrag_pchunk.integration.registry_journal import Journal
from lightrag_pchunk.integration.registry_pg import PostgresRegistry

logger = logging.getLogger("lightrag.pchunk")

NAMESPACE = "pchunk_registry"
"""The registry's namespace in LightRAG's storage (file ``kv_store_pchunk_registry.jsonl``,
table ``LIGHTRAG_PCHUNK_REGISTRY``)."""
JOURNAL_FILE = f"kv_store_{NAMESPACE}.jsonl"


class JsonRegistry:
    """The registry of one working dir, as a JSON Lines journal (``registry_journal.py``).

    Thread-safe, and safe across processes sharing the folder. Methods come in pairs:
    ``register`` / ``aregister`` and so on; the async ones run the file work in a thread.
    Blocks paths are stored relative to the working dir when inside it.
    """

    def __init__(self, working_dir: str | os.PathLike[str], folder: Path | None = None) -> None:
        self.working_dir = Path(os.path.abspath(working_dir))
        self.folder = folder if folder is not None else self.working_dir
        self.journal = Journal(self.folder / JOURNAL_FILE)
        self._migrate_legacy_file()

    def __repr__(self) -> str:
        return f"JsonRegistry({str(self.journal.path)!r})"

    def _migrate_legacy_file(self) -> None:
        legacy = self.working_dir / LEGACY_REGISTRY_FILE
        if not legacy.is_file():
            return
        entries = read_legacy_registry(legacy, self.working_dir)
        added = self.journal.put_missing({e.key: e.to_json(self.working_dir) for e in entries})
        with contextlib.suppress(OSError):
            legacy.replace(legacy.with_name(legacy.name + ".migrated"))
        logger.info(
            "paragraph_semantic registry: %d entries of %s moved to %s",
            added,
            legacy,
            self.journal.path,
        )

    def _decode(self, key: str, record: Mapping[str, Any] | None) -> RegisteredDocument | None:
        if record is None:
            return None
        try:
            return RegisteredDocument.from_json(key, record, self.working_dir)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            logger.warning("paragraph_semantic registry %s: entry %s skipped (%s)", self, key, exc)
            return None

    # --- synchronous ------------------------------------------------------------------

    def get(self, key: str) -> RegisteredDocument | None:
        """The entry stored under ``key``, if any."""
        return self._decode(key, self.journal.get(key))

    def lookup(self, content: str) -> RegisteredDocument | None:
        """The entry of a text as LightRAG passes it (already sanitized), else as inserted."""
        # A caller that hands us the unsanitized body (a direct call) still matches.
        return self.get(text_key(content)) or self.get(insert_key(content))

    def by_doc_id(self, doc_id: str) -> RegisteredDocument | None:
        """The entry registered for a LightRAG doc id, if any."""
        return next((e for e in self.entries() if e.doc_id == doc_id), None)

    def entries(self) -> list[RegisteredDocument]:
        """Every entry, in registration order."""
        decoded = (self._decode(k, r) for k, r in self.journal.records().items())
        return [entry for entry in decoded if entry is not None]

    def register(self, entry: RegisteredDocument) -> RegisteredDocument:
        """Store ``entry``, replacing any earlier entry of the same doc id (a changed file)."""
        entry = stamped(entry)
        self.journal.put(entry.key, entry.to_json(self.working_dir))
        return entry

    def forget(self, doc_id: str) -> int:
        """Remove every entry of a doc id; returns how many were removed."""
        return self.journal.forget(doc_id)

    # --- asynchronous (the interface every registry has) ------------------------------

    async def alookup(self, content: str) -> RegisteredDocument | None:
        """:meth:`lookup`, off the event loop."""
        return await asyncio.to_thread(self.lookup, content)

    async def aget(self, key: str) -> RegisteredDocument | None:
        """:meth:`get`, off the event loop."""
        return await asyncio.to_thread(self.get, key)

    async def aby_doc_id(self, doc_id: str) -> RegisteredDocument | None:
        """:meth:`by_doc_id`, off the event loop."""
        return await asyncio.to_thread(self.by_doc_id, doc_id)

    async def aentries(self) -> list[RegisteredDocument]:
        """:meth:`entries`, off the event loop."""
        return await asyncio.to_thread(self.entries)

    async def aregister(self, entry: RegisteredDocument) -> RegisteredDocument:
        """:meth:`register`, off the event loop."""
        return await asyncio.to_thread(self.register, entry)

    async def aforget(self, doc_id: str) -> int:
        """:meth:`forget`, off the event loop."""
        return await asyncio.to_thread(self.forget, doc_id)


_OPEN: dict[Any, Any] = {}
_OPEN_LOCK = threading.Lock()


def open_registry(working_dir: str | os.PathLike[str]) -> JsonRegistry:
    """The process-wide JSON registry of a working dir (created on first use).

    Every opened registry is searched by :func:`afind_registered`, so a text registered in
    any working dir this process has touched is found by ``chunking_func``.
    """
    path = Path(os.path.abspath(working_dir))
    with _OPEN_LOCK:
        registry = _OPEN.pop(path, None) or JsonRegistry(path)
        _OPEN[path] = registry  # most recently opened last: searched first
        return registry


def storage_folder(rag: Any) -> Path:
    """Where LightRAG's JSON storages of ``rag`` live: its working dir, or the workspace
    folder inside it."""
    base = Path(os.path.abspath(getattr(rag, "working_dir", ".") or "."))
    workspace = str(getattr(rag, "workspace", "") or "").strip()
    return base / workspace if workspace else base


def uses_postgres(rag: Any) -> bool:
    """Whether ``rag`` keeps its key-value data in PostgreSQL (``PGKVStorage``)."""
    return str(getattr(rag, "kv_storage", "") or "") == "PGKVStorage"


def registry_for(rag: Any) -> Any:
    """The registry in ``rag``'s own storage: PostgreSQL or a JSON journal (see module doc).

    The PostgreSQL registry uses the database connection of ``rag``'s initialised
    key-value storage; a JSON registry in a workspace lives in the workspace folder.
    ``rag`` may also be a bare working dir (a JSON registry).
    """
    if not hasattr(rag, "working_dir"):
        return open_registry(rag)
    if uses_postgres(rag):
        kv = rag.full_docs
        db = getattr(kv, "db", None)
        if db is None:
            raise RuntimeError(
                "the LightRAG instance's PostgreSQL storage is not initialised: "
                "await rag.initialize_storages() first"
            )
        key = ("pg", id(db), kv.workspace)
        with _OPEN_LOCK:
            registry = _OPEN.get(key)
            if registry is None or registry.db is not db:
                registry = PostgresRegistry(db, kv.workspace, Path(rag.working_dir))
                _OPEN[key] = registry
            return registry
    folder = storage_folder(rag)
    if folder == Path(os.path.abspath(rag.working_dir)):
        return open_registry(folder)
    path = Path(os.path.abspath(rag.working_dir))
    with _OPEN_LOCK:
        registry = _OPEN.get(folder) or JsonRegistry(path, folder)
        _OPEN[folder] = registry
        return registry


def opened_registries() -> list[Any]:
    """The registries opened in this process, most recently opened first."""
    with _OPEN_LOCK:
        return list(reversed(_OPEN.values()))


def close_registries() -> None:
    """Forget every opened registry (the stores stay); as after a restart."""
    with _OPEN_LOCK:
        _OPEN.clear()


async def afind_registered(content: str, rag: Any = None) -> RegisteredDocument | None:
    """The entry of a text: in ``rag``'s registry when given, else in every registry this
    process has opened (most recent first)."""
    has_storage = rag is not None and getattr(rag, "working_dir", None)
    registries = [registry_for(rag)] if has_storage else opened_registries()
    for registry in registries:
        entry = await registry.alookup(content)
        if entry is not None:
            return entry
    return None
