"""The registry in LightRAG's PostgreSQL database: one row per registered text.

Used when the LightRAG instance keeps its key-value data in ``PGKVStorage``: the rows sit
in ``LIGHTRAG_PCHUNK_REGISTRY`` beside LightRAG's own tables, keyed like them by
``(workspace, id)``, and go through the instance's own connection pool. So every process
and machine that shares the database and workspace sees every registration the moment it
is written, and a registration writes one row. Blocks paths are stored absolute: a worker
reading another's registration must see the same path (a shared folder).
"""

from __future__ import annotations

import json
import logging
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

logger = logging.getLogger("lightrag.pchunk")

TABLE = "LIGHTRAG_PCHUNK_REGISTRY"
_DDL = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} ("
    "workspace VARCHAR(255) NOT NULL, id VARCHAR(64) NOT NULL, doc_id VARCHAR(255) NOT NULL, "
    "record JSONB NOT NULL, update_time TIMESTAMP(0) DEFAULT CURRENT_TIMESTAMP, "
    "CONSTRAINT LIGHTRAG_PCHUNK_REGISTRY_PK PRIMARY KEY (workspace, id))",
    f"CREATE INDEX IF NOT EXISTS idx_lightrag_pchunk_registry_doc ON {TABLE} (workspace, doc_id)",
)
# One statement, so a doc id never has two rows: drop its other keys, write this one.
_UPSERT = f"""WITH gone AS (
    DELETE FROM {TABLE} WHERE workspace = $1 AND doc_id = $3 AND id <> $2
)
INSERT INTO {TABLE} (workspace, id, doc_id, record) VALUES ($1, $2, $3, $4::jsonb)
ON CONFLICT (workspace, id) DO UPDATE
SET doc_id = EXCLUDED.doc_id, record = EXCLUDED.record, update_time = CURRENT_TIMESTAMP"""
_SELECT = f"SELECT id, record FROM {TABLE} WHERE workspace = $1"


class PostgresRegistry:
    """The registry of one LightRAG workspace in its PostgreSQL database.

    ``db`` is LightRAG's ``PostgreSQLDB`` (the instance's ``rag.full_docs.db``); the
    methods are the async half of :class:`registry.JsonRegistry`'s.
    """

    def __init__(self, db: Any, workspace: str, working_dir: Path | None = None) -> None:
        self.db = db
        self.workspace = workspace
        self.working_dir = working_dir
        self._ready = False

    def __repr__(self) -> str:
        return f"PostgresRegistry({TABLE}, workspace={self.workspace!r})"

    async def _ensure_table(self) -> None:
        if self._ready:
            return
        for statement in _DDL:
            # Two processes may race to create it: the loser's duplicate is not an error.
            await self.db.execute(statement, ignore_if_exists=True)
        self._ready = True
        await self._migrate_legacy_file()

    async def _migrate_legacy_file(self) -> None:
        """Copy a version-1 JSON registry of the working dir into the table, once."""
        if self.working_dir is None:
            return
        legacy = self.working_dir / LEGACY_REGISTRY_FILE
        if not legacy.is_file():
            return
        entries = read_legacy_registry(legacy, self.working_dir)
        for entry in entries:
            if await self.aget(entry.key) is None:
                await self.aregister(entry)
        legacy.replace(legacy.with_name(legacy.name + ".migrated"))
        logger.info(
            "paragraph_semantic registry: %d entries of %s moved to PostgreSQL %s",
            len(entries),
            legacy,
            TABLE,
        )

    @staticmethod
    def _decode(row: Any) -> RegisteredDocument | None:
        if not row:
            return None
        record = row["record"]
        if isinstance(record, str):  # asyncpg hands JSONB back as text without a codec
            record = json.loads(record)
        try:
            return RegisteredDocument.from_json(str(row["id"]), record)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            logger.warning("paragraph_semantic registry %s: entry skipped (%s)", TABLE, exc)
            return None

    async def aget(self, key: str) -> RegisteredDocument | None:
        """The entry stored under ``key``, if any."""
        await self._ensure_table()
        row = await self.db.query(f"{_SELECT} AND id = $2", [self.workspace, key])
        return self._decode(row)

    async def alookup(self, content: str) -> RegisteredDocument | None:
        """The entry of a text as LightRAG passes it (already sanitized), else as inserted."""
        return await self.aget(text_key(content)) or await self.aget(insert_key(content))

    async def aby_doc_id(self, doc_id: str) -> RegisteredDocument | None:
        """The entry registered for a LightRAG doc id, if any."""
        await self._ensure_table()
        row = await self.db.query(f"{_SELECT} AND doc_id = $2", [self.workspace, doc_id])
        return self._decode(row)

    async def aentries(self) -> list[RegisteredDocument]:
        """Every entry, oldest registration first."""
        await self._ensure_table()
        rows = await self.db.query(
            f"{_SELECT} ORDER BY update_time, id", [self.workspace], multirows=True
        )
        decoded = (self._decode(row) for row in rows or [])
        return [entry for entry in decoded if entry is not None]

    async def aregister(self, entry: RegisteredDocument) -> RegisteredDocument:
        """Store ``entry`` (one row), replacing any earlier entry of the same doc id."""
        await self._ensure_table()
        entry = stamped(entry)
        record = json.dumps(entry.to_json(), ensure_ascii=False)
        await self.db.execute(
            _UPSERT,
            {"workspace": self.workspace, "id": entry.key, "doc_id": entry.doc_id, "r": record},
        )
        return entry

    async def aforget(self, doc_id: str) -> int:
        """Remove every entry of a doc id; returns how many were removed."""
        await self._ensure_table()
        rows = await self.db.query(
            f"DELETE FROM {TABLE} WHERE workspace = $1 AND doc_id = $2 RETURNING id",
            [self.workspace, doc_id],
            multirows=True,
        )
        return len(rows or [])
