"""One registration: the record of a text that says where its blocks are and how it is chunked.

Shared by both stores (``registry.py``'s JSON journal, ``registry_pg.py``'s PostgreSQL table):
the key of a text (the md5 of what LightRAG passes ``chunking_func``), the record, and the
reader of a version-1 registry file, which both stores move into themselves once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.chunking_record import ChunkingRecord
from lightrag_pchunk.integration.config import PSettings
from lightrag_pchunk.integration.decision import Strategy
from lightrag_pchunk.integration.stored_text import lightrag_sanitize

logger = logging.getLogger("lightrag.pchunk")

LEGACY_REGISTRY_FILE = "lightrag_pchunk_registry.json"
"""The registry file of lightrag-pchunk 0.1 (one JSON document, rewritten per registration)."""


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
    snapshot; ``r_params`` the R parameters of a document decided R; ``chunking`` what an
    ``ainsert_files`` recorded it was parsed and chunked with (``chunking_record.py``).
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
    chunking: ChunkingRecord | None = None

    def to_json(self, base: Path | None = None) -> dict[str, Any]:
        """The stored form (``blocks_path`` relative to ``base`` when inside it)."""
        return {
            "source_name": self.source_name,
            "doc_id": self.doc_id,
            "strategy": self.strategy.value,
            "reason": self.reason,
            "blocks_path": _relative(self.blocks_path, base),
            "p_settings": None if self.p_settings is None else self.p_settings.to_json(),
            "r_params": dict(self.r_params),
            "registered_at": self.registered_at,
            "chunking": None if self.chunking is None else self.chunking.to_json(),
        }

    @classmethod
    def from_json(
        cls, key: str, data: Mapping[str, Any], base: Path | None = None
    ) -> RegisteredDocument:
        """Read a stored entry (raises KeyError/TypeError/ValueError when malformed)."""
        blocks = data.get("blocks_path")
        p = data.get("p_settings")
        settings = PSettings.from_json(p) if isinstance(p, Mapping) else None
        recorded = data.get("chunking")
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
            chunking=ChunkingRecord.from_json(recorded) if isinstance(recorded, Mapping) else None,
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
