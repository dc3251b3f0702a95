"""``Chunk`` -> the row dicts LightRAG stores in ``text_chunks`` (facts §1.3).

We emit the flat heading form (``heading: str`` + ``parent_headings`` + ``level``) that
LightRAG 1.5.7's ``normalize_chunk_heading`` accepts, and a ``sidecar`` listing every
source blockid of the chunk (also for tail-absorbed chunks, where LightRAG loses them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lightrag_pchunk.model import Chunk


def chunk_to_row(chunk: Chunk, order: int) -> dict[str, Any]:
    """One LightRAG chunk row; ``order`` becomes ``chunk_order_index``."""
    row: dict[str, Any] = {
        "tokens": chunk.tokens,
        "content": chunk.content,
        "chunk_order_index": order,
        "heading": chunk.heading,
        "parent_headings": list(chunk.parent_headings),
        "level": chunk.level,
    }
    if chunk.block_ids:
        row["sidecar"] = {
            "type": "block",
            "id": chunk.block_ids[0],
            "refs": [{"type": "block", "id": block_id} for block_id in chunk.block_ids],
        }
    return row


def chunks_to_rows(chunks: Sequence[Chunk]) -> list[dict[str, Any]]:
    """Rows numbered 0..n-1 without gaps, in chunk order."""
    return [chunk_to_row(chunk, index) for index, chunk in enumerate(chunks)]
