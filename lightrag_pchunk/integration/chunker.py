"""The LightRAG-facing P chunker: LightRAG 1.5.x's file-chunker contract around the pure
pipeline, and :func:`run_decision`, which carries out a ``strategy.Decision``.

A missing or unreadable blocks file, or one without content rows, is decided R by
``strategy.decide`` (spec §10); an unexpected failure inside the P stages is caught here
(the only place besides the CLI that catches exceptions) and falls back to R on the
document text, with one log line that says why, so a document is never lost.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any

from lightrag_pchunk.chunk.context import Context, validate_sizes
from lightrag_pchunk.chunk.coverage import WordShortfall, lost_words
from lightrag_pchunk.chunk.pages import PageFinder, has_pages
from lightrag_pchunk.chunk.pipeline import chunk_rows, over_cap
from lightrag_pchunk.chunk.references import drop_reference_rows, drop_toc_rows
from lightrag_pchunk.integration.config import (
    DROP,
    DROP_TOC,
    FILL,
    OVERLAP,
    SIZE,
    TABLE_TEXT,
    PSettings,
    fill_setting,
    reference_settings,
    table_text_setting,
)
from lightrag_pchunk.integration.rows import block_sidecar, chunks_to_rows
from lightrag_pchunk.integration.strategy import (
    Decision,
    Route,
    Strategy,
    decide,
    load_blocks,
)
from lightrag_pchunk.model import BlockRow, Chunk
from lightrag_pchunk.tokens import TokenCounter, TokenizerLike

logger = logging.getLogger("lightrag.pchunk")

#: Set to 1 to re-raise unexpected errors of the P stages instead of falling back to R
#: (used by the test suite so a bug cannot hide behind the fallback).
STRICT_ENV = "LIGHTRAG_PCHUNK_STRICT"


def rows_to_chunk(
    rows: Sequence[BlockRow],
    settings: PSettings,
    *,
    references_tail_n: int | None = None,
    references_headings: Sequence[str] | None = None,
    doc_id: str = "unknown",
) -> list[BlockRow]:
    """The content rows P chunks: all of them, less what a setting removes on purpose
    (``drop_toc``: tables of contents; ``drop_references``: reference sections)."""
    rows = list(rows)
    if settings.drop_toc:
        rows = drop_toc_rows(rows, doc_id=doc_id)
    if settings.drop_references:
        tail_n, headings = reference_settings(references_tail_n, references_headings)
        rows = drop_reference_rows(rows, tail_n=tail_n, prefixes=headings, doc_id=doc_id)
    return rows


def decision_shortfall(decision: Decision, chunk_contents: Sequence[str]) -> WordShortfall | None:
    """Words of the rows a P decision chunks (:func:`rows_to_chunk`, the references window
    and headings read as the chunker reads them) that ``chunk_contents`` do not hold; None
    for a decision that is not P (no blocks to account for)."""
    if decision.strategy is not Strategy.P or decision.settings is None:
        return None
    rows = rows_to_chunk(
        decision.blocks.rows, decision.settings, doc_id=decision.doc_id or "unknown"
    )
    return lost_words((row.content for row in rows), chunk_contents)


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
    tokenizer: TokenizerLike,
    content: str,
    chunk_token_size: int,
    chunk_overlap_token_size: int,
    *,
    separators: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """LightRAG's own R strategy on the document text (``separators``: LangChain's cascade
    when None)."""
    from lightrag.chunker import chunking_by_recursive_character

    return chunking_by_recursive_character(
        tokenizer,
        content or "",
        chunk_token_size,
        chunk_overlap_token_size=chunk_overlap_token_size,
        separators=list(separators) if separators is not None else None,
    )


def with_source_pages(
    r_rows: list[dict[str, Any]], source_rows: Sequence[BlockRow], content: str
) -> list[dict[str, Any]]:
    """R chunks of a document whose rows know their pages (a PDF), each with a ``sidecar``
    naming its rows and pages (found through its ``_source_span``, the characters of the
    document text it holds); other R chunks as they are."""
    if not source_rows or not has_pages(source_rows):
        return r_rows
    if "\n\n".join(row.content for row in source_rows) != (content or "").strip():
        return r_rows  # the text is not the rows' (edited since): spans would not match
    finder = PageFinder(source_rows)
    for row in r_rows:
        span = row.get("_source_span")
        if not isinstance(span, dict) or "sidecar" in row:
            continue
        start, end = span.get("start"), span.get("end")
        if not (isinstance(start, int) and isinstance(end, int) and end > start):
            continue
        block_ids = finder.block_ids(start, end)
        if block_ids:
            row["sidecar"] = block_sidecar(block_ids, finder.span_pages(start, end))
    return r_rows


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
    fill: str | None = None,
    references_tail_n: int | None = None,
    references_headings: Sequence[str] | None = None,
    doc_id: str | None = None,
    **_ignored: Any,
) -> list[dict[str, Any]]:
    """Paragraph Semantic chunking with LightRAG 1.5.x's file-chunker signature.

    A drop-in for ``lightrag.chunker.chunking_by_paragraph_semantic``: synchronous and
    thread-safe. Reads the document's ``.blocks.jsonl`` (and ``.tables.json`` headers),
    runs stages A-E and returns LightRAG chunk rows (``tokens``, ``content``,
    ``chunk_order_index``, the nested ``heading``, ``sidecar``). Without usable blocks it
    returns LightRAG's R chunks of ``content`` at this size (the decision says why).
    ``drop_toc`` leaves out tables of contents (rows whose ``session_type`` is ``"toc"``).
    ``table_text`` (``grid`` or ``keyed``) is how tables read in chunks; None reads
    ``CHUNK_P_TABLE_TEXT`` on every call (default ``grid``). ``fill`` (``sections``,
    ``chapter`` or ``pack``) is how far small sections fill a chunk; None reads ``CHUNK_P_FILL``
    (default ``pack``).
    ``references_tail_n`` / ``references_headings`` default to
    ``CHUNK_P_REFERENCES_TAIL_N`` / ``CHUNK_P_REFERENCES_HEADINGS``, read on every call.

    Raises:
        ValueError: ``chunk_token_size`` < 1 or not an integer, a negative overlap, an
            overlap >= ``chunk_token_size`` (LightRAG clamps these silently; we refuse), or
            a ``table_text`` other than ``grid`` / ``keyed``, a ``fill`` other than
            ``sections`` / ``chapter`` / ``pack``.
    """
    size, overlap = validate_sizes(chunk_token_size, chunk_overlap_token_size)
    given = "LightRAG's chunk options"
    text_form = table_text_setting() if table_text is None else table_text
    fill_form = fill_setting() if fill is None else fill
    sources = dict.fromkeys((SIZE, OVERLAP, DROP, DROP_TOC, TABLE_TEXT, FILL), given)
    settings = PSettings(size, overlap, drop_references, sources, drop_toc, text_form, fill_form)
    route = Route(Strategy.P, "P called through LightRAG's file-chunker contract")
    decision = decide(route, load_blocks(blocks_path), settings=settings, doc_id=doc_id)
    return run_decision(
        tokenizer,
        content,
        decision,
        references_tail_n=references_tail_n,
        references_headings=references_headings,
    )


def run_decision(
    tokenizer: TokenizerLike,
    content: str,
    decision: Decision,
    *,
    references_tail_n: int | None = None,
    references_headings: Sequence[str] | None = None,
    r_separators: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """Chunk ``content`` as decided, after the decision's log line (synchronous).

    P runs stages A-E over the decision's blocks; an unexpected error inside them falls
    back to R at P's size with an ERROR line (``LIGHTRAG_PCHUNK_STRICT=1`` re-raises).
    R runs LightRAG's recursive-character chunker with ``r_separators`` (a fallback keeps
    LangChain's default cascade, as LightRAG's own P fallback does).
    """
    decision.log()
    label = decision.doc_id or "unknown"
    if decision.strategy is Strategy.R:
        r_rows = recursive_character_rows(
            tokenizer,
            content,
            decision.r_size,
            decision.r_overlap,
            separators=None if decision.is_fallback else r_separators,
        )
        return with_source_pages(r_rows, decision.blocks.rows, content)
    settings = decision.settings
    assert settings is not None  # P always carries its settings
    size, overlap = validate_sizes(settings.chunk_token_size, settings.chunk_overlap_token_size)
    rows = rows_to_chunk(
        decision.blocks.rows,
        settings,
        references_tail_n=references_tail_n,
        references_headings=references_headings,
        doc_id=label,
    )
    ctx = Context.create(
        TokenCounter(tokenizer),
        size,
        overlap,
        table_headers=decision.blocks.table_headers,
        doc_id=label,
        table_text=settings.table_text,
        keyed_rows=decision.blocks.keyed_rows,
        fill=settings.fill,
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
        r_rows = recursive_character_rows(tokenizer, content, size, overlap)
        return with_source_pages(r_rows, decision.blocks.rows, content)
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
