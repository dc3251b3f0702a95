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
import hashlib
import json
import logging
import os
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.config import DEFAULT_FILL, DEFAULT_TABLE_TEXT, PSettings
from lightrag_pchunk.integration.registry_journal import Journal
from lightrag_pchunk.integration.strategy import Route, Strategy
from lightrag_pchunk.naming import sanitize_text

logger = logging.getLogger("lightrag.pchunk")

NAMESPACE = "pchunk_registry"
"""The registry's namespace in LightRAG's storage (file ``kv_store_pchunk_registry.jsonl``,
table ``LIGHTRAG_PCHUNK_REGISTRY``)."""
JOURNAL_FILE = f"kv_store_{NAMESPACE}.jsonl"
LEGACY_REGISTRY_FILE = "lightrag_pchunk_registry.json"
"""The registry file of lightrag-pchunk 0.1 (one JSON document, rewritten per registration)."""


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

    ``blocks_path`` is absolute (the JSON store keeps it relative to the working dir when
    inside it, so a moved working dir keeps working). ``p_settings`` is the frozen P
    snapshot; ``r_params`` the R parameters of a document decided R.
    """

    key: str
    source_name: str
    doc_id: str
    strategy: Strategy
    reason: str
    blocks_path: Path | None = None
    p_settings: PSettings | None = None
    r_params: Mapping[str, Any] = field(default_factory=dict)
    registered_at: str = ""

    @property
    def route(self) -> Route:
        """The route frozen at registration, for ``strategy.decide`` at chunk time."""
        return Route(self.strategy, self.reason, r_params=self.r_params)

    def to_json(self, base: Path | None = None) -> dict[str, Any]:
        """The stored form (``blocks_path`` relative to ``base`` when inside it)."""
        settings = self.p_settings
        return {
            "source_name": self.source_name,
            "doc_id": self.doc_id,
            "strategy": self.strategy.value,
            "reason": self.reason,
            "blocks_path": _relative(self.blocks_path, base),
            "p_settings": None
            if settings is None
            else {
                "chunk_token_size": settings.chunk_token_size,
                "chunk_overlap_token_size": settings.chunk_overlap_token_size,
                "drop_references": settings.drop_references,
                "drop_toc": settings.drop_toc,
                "table_text": settings.table_text,
                "fill": settings.fill,
                "sources": dict(settings.sources),
            },
            "r_params": dict(self.r_params),
            "registered_at": self.registered_at,
        }

    @classmethod
    def from_json(
        cls, key: str, data: Mapping[str, Any], base: Path | None = None
    ) -> RegisteredDocument:
        """Read a stored entry (raises KeyError/TypeError/ValueError when malformed)."""
        blocks = data.get("blocks_path")
        p = data.get("p_settings")
        settings = None
        if isinstance(p, Mapping):
            settings = PSettings(
                int(p["chunk_token_size"]),
                int(p["chunk_overlap_token_size"]),
                bool(p.get("drop_references", False)),
                dict(p.get("sources") or {}),
                bool(p.get("drop_toc", False)),
                str(p.get("table_text") or DEFAULT_TABLE_TEXT),
                str(p.get("fill") or DEFAULT_FILL),
            )
        path = None
        if isinstance(blocks, str) and blocks:
            path = Path(blocks) if base is None else base / blocks
        return cls(
            key=key,
            source_name=str(data["source_name"]),
            doc_id=str(data["doc_id"]),
            strategy=Strategy(str(data["strategy"])),
            reason=str(data.get("reason", "")),
            blocks_path=path,
            p_settings=settings,
            r_params=dict(data.get("r_params") or {}),
            registered_at=str(data.get("registered_at", "")),
        )


def _relative(path: Path | None, base: Path | None) -> str | None:
    if path is None:
        return None
    absolute = Path(os.path.abspath(path))
    if base is None:
        return str(absolute)
    try:
        return absolute.relative_to(base).as_posix()
    except ValueError:
        return str(absolute)


def stamped(entry: RegisteredDocument) -> RegisteredDocument:
    """The entry with its registration time set (kept when already set)."""
    if entry.registered_at:
        return entry
    return replace(entry, registered_at=time.strftime("%Y-%m-%dT%H:%M:%S%z"))


def read_legacy_registry(path: Path, base: Path) -> list[RegisteredDocument]:
    """The entries of a version-1 registry file (unreadable entries skipped with a warning)."""
    try:
        documents = json.loads(path.read_text(encoding="utf-8"))["documents"]
        if not isinstance(documents, dict):
            raise TypeError("'documents' is not a mapping")
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        logger.warning(
            "paragraph_semantic registry: %s is unreadable (%s); not migrated", path, exc
        )
        return []
    entries = []
    for key, data in documents.items():
        try:
            entries.append(RegisteredDocument.from_json(key, data, base))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            logger.warning("paragraph_semantic registry %s: entry %s skipped (%s)", path, key, exc)
    return entries


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

    Every opened registry is searched by :func:`find_registered`, so a text registered in
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
        from lightrag_pchunk.integration.registry_pg import PostgresRegistry

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
