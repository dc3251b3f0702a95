"""LightRAG's recursive-character chunker (R) as LightRAG runs it: the package's one R.

LightRAG runs it two ways, and so does :func:`lightrag_r`. A document its pipeline routes to
R is cut with the pipeline's separators and sizes (:func:`pipeline_separators`,
:func:`pipeline_sizes`: ``addon_params['chunker']['recursive_character']`` where the instance
or the caller gives it, else ``CHUNK_R_SEPARATORS`` / ``CHUNK_R_SIZE`` and the variables under
them, else ``DEFAULT_R_SEPARATORS``, which cut CJK text at its sentence ends too). A document
its P chunker cannot chunk falls back to the chunker without separators, so LangChain's
cascade (docs/strategy.md §10). The front door runs both, with what its settings resolved once
(``Settings.r_separators``, ``r_size``, ``r_overlap``); ``eval``'s R contender and the
benchmarks' R are the pipeline's.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from lightrag_pchunk.integration.config import env_int, is_unset
from lightrag_pchunk.tokens import TokenizerLike

#: R's size and overlap when nothing sets them (LightRAG's defaults).
DEFAULT_R_SIZES = (1200, 100)


def pipeline_separators(
    env: Mapping[str, str] | None = None, addon_params: Any = None
) -> tuple[str, ...] | None:
    """The separators LightRAG's pipeline gives R; None is LangChain's own cascade.

    With ``addon_params['chunker']`` (every LightRAG instance has one): its
    ``recursive_character`` ``separators``, bounded as the pipeline bounds them; absent, None
    or not a list (the pipeline drops those) is None. Without it: ``CHUNK_R_SEPARATORS`` of
    ``env`` read as LightRAG reads it (malformed is its default cascade, too long is bounded
    with its warning), else ``DEFAULT_R_SEPARATORS``.
    """
    chunker = _chunker_config(addon_params)
    if chunker is None:
        from lightrag.parser.routing import env_r_separators_for

        env = os.environ if env is None else env
        return tuple(env_r_separators_for(env.get("CHUNK_R_SEPARATORS"))) or None
    given = _recursive_config(chunker).get("separators")
    if not isinstance(given, (list, tuple)):
        return None
    from lightrag.chunker.recursive_character import normalize_r_separators

    return tuple(normalize_r_separators(list(given)) or ()) or None


def pipeline_sizes(
    env: Mapping[str, str], addon_params: Any = None, call_sizes: tuple[int, int] | None = None
) -> tuple[int, int]:
    """R's chunk size and overlap in LightRAG's pipeline, with its precedence: the
    ``recursive_character`` block of ``addon_params['chunker']``, ``CHUNK_R_SIZE`` /
    ``CHUNK_R_OVERLAP_SIZE``, the chunker's ``chunk_token_size`` (an instance fills it from
    its constructor or ``CHUNK_SIZE``), ``CHUNK_SIZE`` / ``CHUNK_OVERLAP_SIZE``, 1200 / 100.

    ``call_sizes``: the size and overlap of a legacy ``chunking_func`` call, read where no
    ``addon_params`` tell the instance's. LightRAG passes there the size and overlap under
    R's own (its constructor's, else ``CHUNK_SIZE`` / ``CHUNK_OVERLAP_SIZE``) unless
    ``CHUNK_F_SIZE`` / ``CHUNK_F_OVERLAP_SIZE`` put fixed-token ones in their place: only
    the call tells a constructor's sizes.

    Raises:
        ValueError: a variable that is not a positive (size) or non-negative (overlap) integer.
    """
    given = _chunker_config(addon_params)
    call_size = call_overlap = None
    if given is None and call_sizes is not None:
        if is_unset(env.get("CHUNK_F_SIZE")):
            call_size = call_sizes[0]
        if is_unset(env.get("CHUNK_F_OVERLAP_SIZE")):
            call_overlap = call_sizes[1]
    chunker = given or {}
    recursive = _recursive_config(chunker)
    size_default, overlap_default = DEFAULT_R_SIZES
    sizes = (
        recursive.get("chunk_token_size"),
        _env_value(env, "CHUNK_R_SIZE", 1),
        chunker.get("chunk_token_size"),
        call_size,
        _env_value(env, "CHUNK_SIZE", 1),
        size_default,
    )
    overlaps = (
        recursive.get("chunk_overlap_token_size"),
        _env_value(env, "CHUNK_R_OVERLAP_SIZE", 0),
        call_overlap,
        _env_value(env, "CHUNK_OVERLAP_SIZE", 0),
        overlap_default,
    )
    size = next(value for value in sizes if value is not None)
    overlap = next(value for value in overlaps if value is not None)
    return int(size), int(overlap)


def _env_value(env: Mapping[str, str], name: str, minimum: int) -> int | None:
    found = env_int(env, name, minimum)
    return found[0] if found is not None else None


def _chunker_config(addon_params: Any) -> Mapping[str, Any] | None:
    chunker = addon_params.get("chunker") if isinstance(addon_params, Mapping) else None
    return chunker if isinstance(chunker, Mapping) else None


def _recursive_config(chunker: Mapping[str, Any]) -> Mapping[str, Any]:
    recursive = chunker.get("recursive_character")
    return recursive if isinstance(recursive, Mapping) else {}


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
