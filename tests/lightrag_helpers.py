"""A real LightRAG for the end-to-end tests: file-based storage in a temp folder, a
deterministic local embedding and an LLM that extracts nothing (no network)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from lightrag_pchunk.cli.ingest_cmd import build_offline_rag


@asynccontextmanager
async def offline_lightrag(work: Path, **kwargs: Any) -> AsyncIterator[Any]:
    """An initialised offline LightRAG in ``work``, its storages finalised on exit."""
    rag = build_offline_rag(work, **kwargs)
    await rag.initialize_storages()
    try:
        yield rag
    finally:
        await rag.finalize_storages()
