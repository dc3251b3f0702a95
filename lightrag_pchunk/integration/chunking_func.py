"""``chunking_func``: LightRAG's legacy six-argument chunker contract, async, running P.

``LightRAG(chunking_func=chunking_func)`` makes every insert that names no chunking selector
(``ainsert``, and ``C`` in 1.5.7+) come here. For each text the front door decides, per
file, whether P applies and where the document's ``.blocks.jsonl`` is, then runs P (stages
A-E) or LightRAG's recursive-character chunker (R), with one log line that says which and
why. The CPU work runs in a worker thread: LightRAG calls a custom ``chunking_func`` on its
event loop.

Where the blocks come from, first found wins: ``lightrag_document_path`` (a blocks file or
its ``.parsed/`` folder), ``context.sidecar_location`` (LightRAG's ``ChunkingContext``,
newer than 1.5.7), then the registry (keyed by the hash of the text LightRAG passes).

**Which LightRAG instance.** LightRAG 1.5.7's legacy call passes no instance, yet the
instance holds what a text needs after a restart: its registry (in its working dir or its
PostgreSQL database), its ``addon_params`` and constructor overlap. So a chunking function
can be bound to its instance, :func:`chunking_func_for` (``rag.chunking_func =
chunking_func_for(rag)``); ``ainsert_files``, ``register_document`` and ``aregister_document``
bind the instance they are given (:func:`bind`), and the command line binds the instance it
builds. The unbound :func:`chunking_func` searches the registries this process opened
(every ``register_document`` or ``ainsert_files`` call opens its instance's), so it finds
texts registered in this process; a text registered by another process, chunked here after
a restart, needs the bound function. Unbound, it reads no instance's ``addon_params``
either (P's and R's settings come from the environment), and its log line says so.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping
from typing import Any

from lightrag_pchunk.integration.front_door import run
from lightrag_pchunk.integration.registry import afind_registered
from lightrag_pchunk.integration.request import CHUNKING_FUNC, Request
from lightrag_pchunk.tokens import TokenizerLike

logger = logging.getLogger("lightrag.pchunk")


async def _chunk(
    rag: Any,
    tokenizer: TokenizerLike,
    content: str,
    split_by_character: str | None = None,
    split_by_character_only: bool = False,
    chunk_overlap_token_size: int = 100,
    chunk_token_size: int = 1200,
    *,
    context: Any = None,
    lightrag_document_path: str | os.PathLike[str] | None = None,
    file_path: str | os.PathLike[str] | None = None,
    addon_params: Mapping[str, Any] | None = None,
    **_ignored: Any,
) -> list[dict[str, Any]]:
    """:func:`chunking_func` for ``rag`` (None: no instance known)."""
    # The registry is read on the event loop: a PostgreSQL registry uses LightRAG's pool.
    entry = await afind_registered(content, rag)
    request = Request(
        CHUNKING_FUNC,
        content=content,
        file_name=str(file_path) if file_path else None,
        blocks=lightrag_document_path,
        blocks_source="lightrag_document_path",
        context=context,
        entry=entry,
        rag=rag,
        addon_params=addon_params,
        lightrag_sizes=(chunk_token_size, chunk_overlap_token_size),
    )
    return (await asyncio.to_thread(run, request, tokenizer)).rows


async def chunking_func(
    tokenizer: TokenizerLike,
    content: str,
    split_by_character: str | None = None,
    split_by_character_only: bool = False,
    chunk_overlap_token_size: int = 100,
    chunk_token_size: int = 1200,
    *,
    context: Any = None,
    lightrag_document_path: str | os.PathLike[str] | None = None,
    file_path: str | os.PathLike[str] | None = None,
    addon_params: Mapping[str, Any] | None = None,
    **_ignored: Any,
) -> list[dict[str, Any]]:
    """P chunking behind LightRAG's legacy ``chunking_func`` contract (async).

    The six positional arguments are LightRAG's; the size and overlap they carry are the
    fixed-token ones (``Chunking F(legacy)`` in LightRAG's log), which neither P nor R uses:
    P's size never inherits CHUNK_SIZE, and R runs at R's own size, overlap and separators
    (``CHUNK_R_*``, ``addon_params['chunker']['recursive_character']``), as LightRAG's
    pipeline runs its R; unbound, R reads the constructor's sizes from them where no
    ``CHUNK_F_*`` replaced those. ``split_by_character`` / ``split_by_character_only`` are
    not used.
    ``context`` is LightRAG's ``ChunkingContext`` (read duck-typed). Returns LightRAG
    chunk rows: P rows carry the nested ``heading`` (``heading``, ``parent_headings``,
    ``level``) and ``sidecar``. Not bound to an instance: see the module docstring.

    Raises:
        ValueError: a bad P setting (CHUNK_P_*, addon_params, P(...) block), naming it.
    """
    return await _chunk(
        None,
        tokenizer,
        content,
        split_by_character,
        split_by_character_only,
        chunk_overlap_token_size,
        chunk_token_size,
        context=context,
        lightrag_document_path=lightrag_document_path,
        file_path=file_path,
        addon_params=addon_params,
    )


# Newer LightRAG (ChunkingContext, #4010) passes ``context=`` only to callbacks that opt in.
chunking_func.accepts_chunking_context = True  # type: ignore[attr-defined]


class InstanceChunkingFunc:
    """:func:`chunking_func` bound to one LightRAG instance: its registry, its
    ``addon_params`` and its constructor overlap (module docstring)."""

    accepts_chunking_context = True

    def __init__(self, rag: Any) -> None:
        self.rag = rag

    def __repr__(self) -> str:
        return f"lightrag_pchunk.chunking_func_for({getattr(self.rag, 'working_dir', '?')!r})"

    def __deepcopy__(self, memo: dict[int, Any]) -> InstanceChunkingFunc:
        # LightRAG deep-copies its fields into every operation's config: copying the
        # binding would copy the whole instance.
        return self

    async def __call__(self, *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        """:func:`chunking_func` (the same arguments), for texts of this instance."""
        return await _chunk(self.rag, *args, **kwargs)


def chunking_func_for(rag: Any) -> InstanceChunkingFunc:
    """``chunking_func`` bound to ``rag``: ``rag.chunking_func = chunking_func_for(rag)``."""
    return InstanceChunkingFunc(rag)


def is_ours(function: Any) -> bool:
    """Whether ``function`` is :func:`chunking_func`, bound or not."""
    return function is chunking_func or isinstance(function, InstanceChunkingFunc)


def bind(rag: Any) -> None:
    """Bind ``rag``'s chunking function to ``rag`` when it is the unbound
    :func:`chunking_func` (any other function is left as it is)."""
    if getattr(rag, "chunking_func", None) is chunking_func:
        rag.chunking_func = chunking_func_for(rag)
