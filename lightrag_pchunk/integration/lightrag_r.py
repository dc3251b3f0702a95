"""LightRAG's recursive-character chunker (R) as LightRAG runs it: the package's one R.

LightRAG runs it two ways, and so does :func:`lightrag_r`. A document its pipeline routes to
R is cut with the pipeline's separators (``CHUNK_R_SEPARATORS``, else ``DEFAULT_R_SEPARATORS``,
which cut CJK text at its sentence ends too). A document its P chunker cannot chunk falls
back to the chunker without them, so LangChain's cascade (spec §10). The front door runs
both; ``eval``'s R contender and the benchmarks' R are the pipeline's.
"""

from __future__ import annotations

from typing import Any

from lightrag_pchunk.tokens import TokenizerLike


def lightrag_r(
    tokenizer: TokenizerLike,
    content: str,
    chunk_token_size: int,
    chunk_overlap_token_size: int,
    *,
    as_p_fallback: bool = False,
) -> list[dict[str, Any]]:
    """LightRAG's R chunks of ``content``: as its pipeline makes them, or as its P chunker
    falls back to them (``as_p_fallback``)."""
    from lightrag.chunker import chunking_by_recursive_character
    from lightrag.parser.routing import env_r_separators

    separators = None if as_p_fallback else list(env_r_separators()) or None
    return chunking_by_recursive_character(
        tokenizer,
        content or "",
        chunk_token_size,
        chunk_overlap_token_size=chunk_overlap_token_size,
        separators=separators,
    )
