"""``Chunk`` -> the row dicts LightRAG stores in ``text_chunks``, and back.

We emit LightRAG's own nested heading, ``{"level", "heading", "parent_headings"}``, the
form every LightRAG storage keeps: PostgreSQL's ``LIGHTRAG_DOC_CHUNKS`` has one JSONB
``heading`` column and no other place for a parent path or a level. A ``sidecar`` lists
every source blockid of the chunk (also for tail-absorbed chunks, where LightRAG loses
them). :func:`heading_path` reads a stored row back, in either of the shapes LightRAG
accepts.

The pages of a chunk (a PDF's) live in its ``sidecar`` too, as LightRAG's own positions
(``lightrag/sidecar/ir.py: IRPosition``, type ``bbox``, the page as ``anchor``), one per
page with the ``charspan`` of the chunk's text printed there:
``"positions": [{"type": "bbox", "anchor": "12", "charspan": [0, 804]}, …]``. The sidecar
is stored whole by every LightRAG storage (PostgreSQL's ``sidecar`` JSONB column included);
:func:`chunk_pages` reads the pages back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lightrag_pchunk.model import Chunk, PageSpan

BREADCRUMB_SEPARATOR = " → "
"""LightRAG's separator between heading levels (``HEADING_BREADCRUMB_SEP``)."""


def chunk_to_row(chunk: Chunk, order: int) -> dict[str, Any]:
    """One LightRAG chunk row; ``order`` becomes ``chunk_order_index``."""
    row: dict[str, Any] = {
        "tokens": chunk.tokens,
        "content": chunk.content,
        "chunk_order_index": order,
        "heading": {
            "level": chunk.level,
            "heading": chunk.heading,
            "parent_headings": list(chunk.parent_headings),
        },
    }
    if chunk.block_ids:
        row["sidecar"] = block_sidecar(chunk.block_ids, chunk.pages)
    return row


def block_sidecar(block_ids: Sequence[str], pages: Sequence[PageSpan] = ()) -> dict[str, Any]:
    """LightRAG's chunk ``sidecar`` for text from ``block_ids`` printed on ``pages``."""
    sidecar: dict[str, Any] = {
        "type": "block",
        "id": block_ids[0],
        "refs": [{"type": "block", "id": block_id} for block_id in block_ids],
    }
    if pages:
        sidecar["positions"] = [
            {"type": "bbox", "anchor": str(span.page), "charspan": [span.start, span.end]}
            for span in pages
        ]
    return sidecar


def chunk_pages(row: Mapping[str, Any] | None) -> tuple[int, ...]:
    """The pages (1-based, ascending) a stored chunk's text is printed on; ``()`` for a
    chunk of a document without pages (Word, Markdown) or a row without a sidecar.

    For a chunk found by a query: ``chunk_pages(await rag.text_chunks.get_by_id(chunk_id))``.
    """
    sidecar = (row or {}).get("sidecar")
    positions = sidecar.get("positions") if isinstance(sidecar, Mapping) else None
    if not isinstance(positions, list):
        return ()
    pages = set()
    for position in positions:
        anchor = position.get("anchor") if isinstance(position, Mapping) else None
        if isinstance(anchor, str) and anchor.isdigit():
            pages.add(int(anchor))
        elif isinstance(anchor, int) and not isinstance(anchor, bool):
            pages.add(anchor)
    return tuple(sorted(pages))


def chunks_to_rows(chunks: Sequence[Chunk]) -> list[dict[str, Any]]:
    """Rows numbered 0..n-1 without gaps, in chunk order."""
    return [chunk_to_row(chunk, index) for index, chunk in enumerate(chunks)]


@dataclass(frozen=True, slots=True)
class HeadingPath:
    """Where a stored chunk sits in its document: its heading, the headings above it, and
    its level (1-9; 0 when the chunk carries none, e.g. an R chunk)."""

    heading: str
    parent_headings: tuple[str, ...]
    level: int

    @property
    def path(self) -> tuple[str, ...]:
        """The headings from the top down to the chunk's own."""
        return (*self.parent_headings, self.heading) if self.heading else self.parent_headings

    def __str__(self) -> str:
        return BREADCRUMB_SEPARATOR.join(self.path)


def heading_path(row: Mapping[str, Any] | None) -> HeadingPath:
    """The heading path of a chunk row as LightRAG stores it (``text_chunks``), nested or flat.

    For a chunk found by a query: ``heading_path(await rag.text_chunks.get_by_id(chunk_id))``.
    """
    row = row or {}
    nested = row.get("heading")
    fields: Mapping[str, Any] = nested if isinstance(nested, Mapping) else row
    heading = fields.get("heading") if isinstance(nested, Mapping) else nested
    parents = fields.get("parent_headings")
    try:
        level = int(fields.get("level") or 0)
    except (TypeError, ValueError):
        level = 0
    kept = [str(p) for p in parents if str(p or "").strip()] if isinstance(parents, list) else []
    return HeadingPath(str(heading or ""), tuple(kept), level)
