"""The LightRAG-facing P chunker: LightRAG 1.5.x's file-chunker contract around the pure
pipeline, with the spec §10 fallback to LightRAG's recursive-character (R) chunker.

This is the only place (besides the CLI) that catches exceptions: a missing or unreadable
blocks file, a file without content rows, or an unexpected failure inside the P stages
falls back to R on the document text, with one log line that says why, so a document is
never lost.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lightrag_pchunk.blockfile.jsonl import find_blocks_file, read_blocks
from lightrag_pchunk.blockfile.sidecars import read_sidecar, read_table_headers
from lightrag_pchunk.chunk.context import Context, validate_sizes
from lightrag_pchunk.chunk.pipeline import chunk_rows, over_cap
from lightrag_pchunk.chunk.references import drop_reference_rows, drop_toc_rows
from lightrag_pchunk.errors import BlockFileError
from lightrag_pchunk.integration.config import reference_settings, table_text_setting
from lightrag_pchunk.integration.rows import chunks_to_rows
from lightrag_pchunk.model import BlockRow, Chunk
from lightrag_pchunk.tokens import TokenCounter, TokenizerLike

logger = logging.getLogger("lightrag.pchunk")

#: Set to 1 to re-raise unexpected errors of the P stages instead of falling back to R
#: (used by the test suite so a bug cannot hide behind the fallback).
STRICT_ENV = "LIGHTRAG_PCHUNK_STRICT"


@dataclass(slots=True)
class LoadedBlocks:
    """The content rows of a blocks file, or the reason P cannot use it."""

    rows: list[BlockRow] = field(default_factory=list)
    table_headers: dict[str, str] = field(default_factory=dict)
    keyed_rows: dict[str, str] = field(default_factory=dict)
    path: Path | None = None
    fallback_reason: str | None = None


def load_blocks(blocks_path: str | os.PathLike[str] | None) -> LoadedBlocks:
    """Find and read a document's blocks (a ``.blocks.jsonl`` or its ``.parsed/`` folder)."""
    if blocks_path is None or not str(blocks_path).strip():
        return LoadedBlocks(fallback_reason="no blocks_path given")
    found = find_blocks_file(str(blocks_path).strip())
    if found is None:
        return LoadedBlocks(fallback_reason=f"blocks file not found at {blocks_path}")
    try:
        blocks = read_blocks(found, keep_positions=False)
    except BlockFileError as exc:
        return LoadedBlocks(path=found, fallback_reason=str(exc))
    rows = [row for row in blocks.rows if row.content.strip()]
    if not rows:
        return LoadedBlocks(path=found, fallback_reason=f"{found} has no content rows")
    keyed = {
        table_id: item["keyed_rows"]
        for table_id, item in read_sidecar(found, "tables").items()
        if isinstance(item.get("keyed_rows"), str)
    }
    return LoadedBlocks(
        rows=rows, table_headers=read_table_headers(found), keyed_rows=keyed, path=found
    )


class ChunkOverCapError(RuntimeError):
    """A P chunk is over chunk_token_size: the stages failed to keep the cap (a bug)."""


def _is_strict() -> bool:
    return os.environ.get(STRICT_ENV, "").strip().lower() not in ("", "0", "false")


def _check_cap(chunks: Sequence[Chunk], size: int, label: str) -> None:
    """Stages B-D keep every chunk within the cap and stage E cuts nothing: a chunk over it
    is an error in strict mode, else logged and kept (LightRAG truncates it before
    embedding, which beats dropping the document's P chunks)."""
    oversized = over_cap(chunks, size)
    if not oversized:
        return
    message = (
        f"paragraph_semantic doc={label}: {len(oversized)} chunk(s) over {size} tokens "
        f"(largest {max(c.tokens for c in oversized)}, heading {oversized[0].heading!r})"
    )
    if _is_strict():
        raise ChunkOverCapError(message)
    logger.error(message)


def recursive_character_rows(
    tokenizer: TokenizerLike, content: str, chunk_token_size: int, chunk_overlap_token_size: int
) -> list[dict[str, Any]]:
    """LightRAG's own R strategy on the document text (spec §10 fallback)."""
    from lightrag.chunker import chunking_by_recursive_character

    return chunking_by_recursive_character(
        tokenizer,
        content or "",
        chunk_token_size,
        chunk_overlap_token_size=chunk_overlap_token_size,
    )


def chunking_by_paragraph_semantic(
    tokenizer: TokenizerLike,
    content: str,
    chunk_token_size: int = 2000,
    *,
    blocks_path: str | os.PathLike[str] | None = None,
    chunk_overlap_token_size: int = 100,
    drop_references: bool = False,
    drop_toc: bool = False,
    table_text: str | None = None,
    references_tail_n: int | None = None,
    references_headings: Sequence[str] | None = None,
    doc_id: str | None = None,
    **_ignored: Any,
) -> list[dict[str, Any]]:
    """Paragraph Semantic chunking with LightRAG 1.5.x's file-chunker signature.

    A drop-in for ``lightrag.chunker.chunking_by_paragraph_semantic``: synchronous and
    thread-safe. Reads the document's ``.blocks.jsonl`` (and ``.tables.json`` headers),
    runs stages A-E and returns LightRAG chunk rows (``tokens``, ``content``,
    ``chunk_order_index``, ``heading``, ``parent_headings``, ``level``, ``sidecar``).
    Without usable blocks it returns LightRAG's R chunks of ``content``.
    ``drop_toc`` leaves out tables of contents (rows whose ``session_type`` is ``"toc"``).
    ``table_text`` (``grid`` or ``keyed``) is how tables read in chunks; None reads
    ``CHUNK_P_TABLE_TEXT`` on every call (default ``grid``).
    ``references_tail_n`` / ``references_headings`` default to
    ``CHUNK_P_REFERENCES_TAIL_N`` / ``CHUNK_P_REFERENCES_HEADINGS``, read on every call.

    Raises:
        ValueError: ``chunk_token_size`` < 1 or not an integer, a negative overlap, an
            overlap >= ``chunk_token_size`` (LightRAG clamps these silently; we refuse), or
            a ``table_text`` other than ``grid`` / ``keyed``.
    """
    size, overlap = validate_sizes(chunk_token_size, chunk_overlap_token_size)
    text_form = table_text_setting() if table_text is None else table_text
    label = doc_id or "unknown"
    loaded = load_blocks(blocks_path)
    if loaded.fallback_reason is not None:
        logger.warning(
            "paragraph_semantic doc=%s: fallback to recursive_character: %s",
            label,
            loaded.fallback_reason,
        )
        return recursive_character_rows(tokenizer, content, size, overlap)
    rows = loaded.rows
    if drop_toc:
        rows = drop_toc_rows(rows, doc_id=label)
    if drop_references:
        tail_n, headings = reference_settings(references_tail_n, references_headings)
        rows = drop_reference_rows(rows, tail_n=tail_n, prefixes=headings, doc_id=label)
    ctx = Context.create(
        TokenCounter(tokenizer),
        size,
        overlap,
        table_headers=loaded.table_headers,
        doc_id=label,
        table_text=text_form,
        keyed_rows=loaded.keyed_rows,
    )
    try:
        chunks = chunk_rows(rows, ctx)
    except Exception as exc:
        if _is_strict():
            raise
        logger.error(
            "paragraph_semantic doc=%s: fallback to recursive_character: internal error %s: %s",
            label,
            type(exc).__name__,
            exc,
            exc_info=True,
        )
        return recursive_character_rows(tokenizer, content, size, overlap)
    _check_cap(chunks, size, label)
    logger.info(
        "paragraph_semantic doc=%s blocks=%d chunks=%d size=%d overlap=%d encoded_chars=%d",
        label,
        len(rows),
        len(chunks),
        size,
        overlap,
        ctx.counter.stats.encoded_chars,
    )
    return chunks_to_rows(chunks)
