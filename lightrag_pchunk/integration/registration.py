"""Registering a document so that ``chunking_func`` finds its blocks from its text alone.

:func:`register_document` / :func:`aregister_document` are for inserting by hand what
``ainsert_files`` inserts for you; both go through the front door (``resolve`` and
``decide``) and record the decision in the instance's registry, frozen as LightRAG freezes
its per-document snapshot at enqueue. :func:`entry_of` is the one place that turns a
decision into a registration.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.chunking_func import bind, is_ours
from lightrag_pchunk.integration.chunking_record import ChunkingRecord
from lightrag_pchunk.integration.decision import Decision, Strategy
from lightrag_pchunk.integration.registry import JsonRegistry, registry_for
from lightrag_pchunk.integration.registry_entry import RegisteredDocument, insert_key
from lightrag_pchunk.integration.request import REGISTER, Request
from lightrag_pchunk.integration.settings import Settings, resolve
from lightrag_pchunk.integration.strategy import decide
from lightrag_pchunk.naming import doc_id_for

logger = logging.getLogger("lightrag.pchunk")


def entry_of(
    name: str,
    doc_id: str,
    content: str,
    settings: Settings,
    decision: Decision,
    chunking: ChunkingRecord | None = None,
) -> RegisteredDocument:
    """The registration of a decided document, with the record of what it is parsed and
    chunked with when ``ainsert_files`` made one. A document decided R freezes what R cuts
    it with, as LightRAG's snapshot does: R's size, overlap and separators (a fallback's are
    P's sizes and LangChain's cascade, None), so that ``CHUNK_R_*`` or
    ``addon_params['chunker']['recursive_character']`` changed later leave it as registered
    (``rechunk`` reports the change)."""
    r_params = dict(settings.r_params)
    if decision.strategy is Strategy.R:
        separators = None if decision.is_fallback else settings.r_separators
        r_params = {
            "chunk_token_size": decision.r_size,
            "chunk_overlap_token_size": decision.r_overlap,
            "separators": list(separators) if separators is not None else None,
        }
    is_p = decision.strategy is Strategy.P
    return RegisteredDocument(
        key=insert_key(content),
        source_name=name,
        doc_id=doc_id,
        strategy=decision.strategy,
        reason=decision.reason,
        blocks_path=decision.blocks_path if is_p else None,
        p_settings=decision.settings if is_p else None,
        r_params=r_params,
        chunking=chunking,
    )


def require_pchunk_chunking_func(rag: Any) -> None:
    """Refuse a LightRAG whose ``chunking_func`` is still LightRAG's default (F); bind ours
    to ``rag`` (``chunking_func.bind``).

    Raises:
        ValueError: saying how to construct the instance.
    """
    from lightrag.chunker import chunking_by_token_size

    current = getattr(rag, "chunking_func", None)
    if current is chunking_by_token_size:
        raise ValueError(
            "this LightRAG instance still uses its default chunking_func (fixed-token F), so "
            "our blocks would never be read: create it with "
            "LightRAG(..., chunking_func=lightrag_pchunk.chunking_func)"
        )
    if not is_ours(current):
        logger.warning(
            "paragraph_semantic rag.chunking_func is %r, not lightrag_pchunk.chunking_func: "
            "registered blocks are used only if it delegates to it",
            current,
        )
    bind(rag)


def _decided_entry(
    rag: Any,
    file_path: str | os.PathLike[str],
    content: str,
    blocks_path: str | os.PathLike[str] | None,
    env: Mapping[str, str] | None,
) -> RegisteredDocument:
    """The registration of a document inserted by hand: routed by name, decided now."""
    name = Path(file_path).name
    request = Request(
        REGISTER,
        content=content,
        file_name=name,
        blocks=blocks_path,
        blocks_source="register_document",
        rag=rag if hasattr(rag, "working_dir") else None,
        strict=True,
        env=env,
    )
    settings = resolve(request)
    decision = decide(request, settings)
    return entry_of(name, doc_id_for(name), content, settings, decision)


def register_document(
    rag: Any,
    file_path: str | os.PathLike[str],
    content: str,
    blocks_path: str | os.PathLike[str] | None = None,
    *,
    env: Mapping[str, str] | None = None,
) -> RegisteredDocument:
    """Register a parsed document so ``chunking_func`` finds its blocks from its text alone.

    For inserting by hand (``await rag.ainsert(content, file_paths=[file_path])``) what
    :func:`ainsert_files` inserts for you. ``rag`` is the LightRAG instance (its storage
    holds the registry; its ``addon_params`` feed the P settings, frozen now as LightRAG
    freezes its snapshot at enqueue; its ``chunking_func`` is bound to it) or just a working
    dir. ``content`` is the text you insert; ``file_path`` the name you insert it under (a
    file-name hint routes it). A PostgreSQL registry needs :func:`aregister_document`.

    Raises:
        FilenameParserHintError: a malformed hint in ``file_path``.
        ParserRoutingConfigError: an invalid LIGHTRAG_PARSER rule.
        ValueError: a bad P setting.
        TypeError: ``rag`` keeps its registry in PostgreSQL (use the async function).
    """
    registry = registry_for(rag)
    if not isinstance(registry, JsonRegistry):
        raise TypeError(
            f"{registry} is reached asynchronously: use await aregister_document(...) instead"
        )
    bind(rag)
    return registry.register(_decided_entry(rag, file_path, content, blocks_path, env))


async def aregister_document(
    rag: Any,
    file_path: str | os.PathLike[str],
    content: str,
    blocks_path: str | os.PathLike[str] | None = None,
    *,
    env: Mapping[str, str] | None = None,
) -> RegisteredDocument:
    """:func:`register_document` for any registry, PostgreSQL included (async)."""
    entry = await asyncio.to_thread(_decided_entry, rag, file_path, content, blocks_path, env)
    bind(rag)
    return await registry_for(rag).aregister(entry)
