"""LightRAG's recursive-character chunker (R) as LightRAG runs it: the package's one R.

LightRAG runs it two ways, and so does :func:`lightrag_r`. A document its pipeline routes to
R is cut with the pipeline's separators (:func:`pipeline_separators`: ``CHUNK_R_SEPARATORS``,
else ``DEFAULT_R_SEPARATORS``, which cut CJK text at its sentence ends too). A document its
P chunker cannot chunk falls back to the chunker without them, so LangChain's cascade (spec
§10). The front door runs both, with the separators its settings resolved once
(``Settings.r_separators``); ``eval``'s R contender and the benchmarks' R are the pipeline's.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from lightrag_pchunk.tokens import TokenizerLike


def pipeline_separators(env: Mapping[str, str] | None = None) -> tuple[str, ...] | None:
    """The separators LightRAG's pipeline gives R: ``CHUNK_R_SEPARATORS`` of ``env`` read as
    LightRAG reads it (a malformed value is its default cascade, a too long one bounded with
    its warning), else ``DEFAULT_R_SEPARATORS``; None for an empty list (LangChain's)."""
    from lightrag.parser.routing import env_r_separators_for

    env = os.environ if env is None else env
    return tuple(env_r_separators_for(env.get("CHUNK_R_SEPARATORS"))) or None


def lightrag_r(
    tokenizer: TokenizerLike,
    content: str,
    chunk_token_size: int,
    chunk_overlap_token_size: int,
    *,
    separators: Sequence[str] | None,
) -> list[dict[str, Any]]:
    """LightRAG's R chunks of ``content``, cut with ``separators``: the pipeline's
    (:func:`pipeline_separators`), or None as its P chunker falls back to R."""
    from lightrag.chunker import chunking_by_recursive_character

    return chunking_by_recursive_character(
        tokenizer,
        content or "",
        chunk_token_size,
        chunk_overlap_token_size=chunk_overlap_token_size,
        separators=list(separators) if separators is not None else None,
    )
