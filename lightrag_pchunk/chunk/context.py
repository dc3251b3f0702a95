"""Everything a stage needs besides its blocks: thresholds, the counter, the overlap and
the table headers, resolved once per document before the stages run."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from lightrag_pchunk.chunk.blocks import make_paragraph
from lightrag_pchunk.chunk.table_text import GRID, TABLE_TEXTS, TableText
from lightrag_pchunk.chunk.text_split import split_counted
from lightrag_pchunk.model import MIN_CHUNK_TOKEN_SIZE, Paragraph, Thresholds
from lightrag_pchunk.tokens import TokenCounter

#: How far stage D fills a chunk (``CHUNK_P_FILL``): ``sections`` follows the spec (small
#: tails, cousins under the small-tail threshold); ``chapter`` also lets any block under
#: target_ideal join its neighbour under a shared heading path; ``pack`` chooses the fewest
#: chunks the structure allows (``chunk/merge.py``, :func:`pack_fill`).
Fill = Literal["sections", "chapter", "pack"]
SECTIONS: Fill = "sections"
CHAPTER: Fill = "chapter"
PACK: Fill = "pack"
FILLS: tuple[Fill, ...] = (SECTIONS, CHAPTER, PACK)
#: ``pack`` by default: on the corpus it makes fewer chunks (LLM calls) than R, about 5% fewer
#: than the spec's ``sections`` phases, with no measurable change in ``eval``'s retrieval
#: (docs/chunking.md "Fill").
DEFAULT_FILL: Fill = PACK

#: The R fallback for one over-long paragraph: ``(paragraph, cap, counter, overlap,
#: first_cap) -> pieces``, each counted, the first within ``first_cap`` (the room left in
#: the chunk it joins; ``cap`` when it starts one), the others within ``cap``.
LongTextSplitter = Callable[[Paragraph, int, TokenCounter, int, int], list[Paragraph]]


def _recursive_split(
    paragraph: Paragraph, cap: int, counter: TokenCounter, overlap: int, first_cap: int
) -> list[Paragraph]:
    pieces = split_counted(
        paragraph.text,
        cap,
        counter,
        overlap=overlap,
        first_cap=first_cap,
        tokens=paragraph.tokens if paragraph.tokens >= 0 else None,
        starts=paragraph.token_starts,
    )
    return [make_paragraph(text, counter, tokens) for text, tokens in pieces]


def validate_sizes(chunk_token_size: object, chunk_overlap_token_size: object) -> tuple[int, int]:
    """Check N and the overlap as given by a caller; return them as ints.

    Unlike LightRAG, bad values are rejected rather than clamped (facts §4.3).

    Raises:
        ValueError: naming the parameter and the value.
    """
    for name, value in (
        ("chunk_token_size", chunk_token_size),
        ("chunk_overlap_token_size", chunk_overlap_token_size),
    ):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} must be an integer, got {value!r}")
    assert isinstance(chunk_token_size, int) and isinstance(chunk_overlap_token_size, int)
    if chunk_token_size < MIN_CHUNK_TOKEN_SIZE:
        raise ValueError(
            f"chunk_token_size must be >= {MIN_CHUNK_TOKEN_SIZE}, got {chunk_token_size}"
        )
    if chunk_overlap_token_size < 0:
        raise ValueError(f"chunk_overlap_token_size must be >= 0, got {chunk_overlap_token_size}")
    if chunk_overlap_token_size >= chunk_token_size:
        raise ValueError(
            f"chunk_overlap_token_size ({chunk_overlap_token_size}) must be < "
            f"chunk_token_size ({chunk_token_size})"
        )
    return chunk_token_size, chunk_overlap_token_size


@dataclass(frozen=True, slots=True)
class Context:
    """Per-document settings shared by the stages (read-only).

    ``overlap`` is ``chunk_overlap_token_size``: the R overlap between pieces of one
    over-long paragraph and the per-side bridge budget (spec §7, §8.3).
    ``table_headers`` maps a ``<table id>`` to its ``table_header`` from ``.tables.json``,
    ``keyed_rows`` to its ``keyed_rows``; ``table_text`` is how tables read in chunks
    (``grid`` or ``keyed``, ``chunk/table_text.py``).
    ``fill`` is how far stage D fills a chunk: ``sections`` (the spec's rules), ``chapter``
    (also any neighbour under a shared heading path) or ``pack`` (the fewest chunks the
    structure allows); see ``chunk/merge.py``.
    ``split_long_text`` is the R fallback for a paragraph no paragraph boundary can cut
    (spec §8.3, §10); injected so a test or a caller can swap it.
    """

    thresholds: Thresholds
    counter: TokenCounter
    overlap: int = 0
    table_headers: Mapping[str, str] = field(default_factory=dict)
    doc_id: str = ""
    split_long_text: LongTextSplitter = _recursive_split
    table_text: TableText = GRID
    keyed_rows: Mapping[str, str] = field(default_factory=dict)
    fill: Fill = DEFAULT_FILL

    @classmethod
    def create(
        cls,
        counter: TokenCounter,
        chunk_token_size: int,
        chunk_overlap_token_size: int = 0,
        *,
        table_headers: Mapping[str, str] | None = None,
        doc_id: str = "",
        table_text: str = GRID,
        keyed_rows: Mapping[str, str] | None = None,
        fill: str = DEFAULT_FILL,
    ) -> Context:
        """Validate the sizes, the table text and the fill, and derive the thresholds
        (raises ``ValueError``)."""
        size, overlap = validate_sizes(chunk_token_size, chunk_overlap_token_size)
        choices: tuple[tuple[str, str, tuple[str, ...]], ...] = (
            ("table_text", table_text, TABLE_TEXTS),
            ("fill", fill, FILLS),
        )
        for name, value, allowed in choices:
            if value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
        return cls(
            thresholds=Thresholds.from_chunk_size(size),
            counter=counter,
            overlap=overlap,
            table_headers=dict(table_headers or {}),
            doc_id=doc_id,
            table_text=table_text,  # type: ignore[arg-type]
            keyed_rows=dict(keyed_rows or {}),
            fill=fill,  # type: ignore[arg-type]
        )
