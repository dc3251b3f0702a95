"""``chunking_func``: LightRAG's legacy six-argument chunker contract, async, running P.

``LightRAG(chunking_func=chunking_func)`` makes every insert that names no chunking selector
(``ainsert``, and ``C`` in 1.5.7+) come here. For each text it decides, per file, whether P
applies and where the document's ``.blocks.jsonl`` is, then runs P (stages A-E) or
LightRAG's recursive-character chunker (R), with one log line that says which and why. The
CPU work runs in a worker thread: LightRAG calls a custom ``chunking_func`` on its event loop.

Where the blocks come from, first found wins: ``lightrag_document_path`` (a blocks file or
its ``.parsed/`` folder), ``context.sidecar_location`` (LightRAG's ``ChunkingContext``,
newer than 1.5.7), then the registry our ingest helper fills (keyed by the hash of the text
LightRAG passes: its ``sanitize_text_for_encoding`` of the inserted body).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import urllib.parse
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.chunker import run_decision
from lightrag_pchunk.integration.config import PSettings
from lightrag_pchunk.integration.registry import RegisteredDocument, afind_registered
from lightrag_pchunk.integration.strategy import (
    Decision,
    LoadedBlocks,
    Route,
    Strategy,
    decide,
    load_blocks,
    no_blocks,
    route_by_name,
    route_from_context,
    runtime_rules,
)
from lightrag_pchunk.naming import UNKNOWN_SOURCE
from lightrag_pchunk.tokens import TokenizerLike

logger = logging.getLogger("lightrag.pchunk")

# --- locating the blocks -----------------------------------------------------------------


def sidecar_directory(location: str | None) -> Path | None:
    """The folder of a ``sidecar_location`` (``file://`` URI, percent-encoded), or None."""
    text = (location or "").strip()
    if not text or text == UNKNOWN_SOURCE:
        return None
    parsed = urllib.parse.urlparse(text)
    if parsed.scheme == "file":
        return Path(urllib.request.url2pathname(parsed.path))
    if parsed.scheme and len(parsed.scheme) > 1:  # not a Windows drive letter
        return None
    return Path(text)


def _locate_blocks(
    lightrag_document_path: str | os.PathLike[str] | None,
    context: Any,
    entry: RegisteredDocument | None,
) -> LoadedBlocks:
    """The document's blocks, read, from the first place that names them (module doc)."""
    if lightrag_document_path is not None and str(lightrag_document_path).strip():
        return load_blocks(str(lightrag_document_path).strip(), "lightrag_document_path")
    location = getattr(context, "sidecar_location", None) if context is not None else None
    folder = sidecar_directory(location)
    if folder is not None:
        loaded = load_blocks(folder, "context.sidecar_location")
        if loaded.path is None:
            loaded.problem = f"no *.blocks.jsonl in {location}"
        return loaded
    if entry is not None:
        if entry.blocks_path is None:
            return no_blocks(f"{entry.source_name} was registered without blocks")
        return load_blocks(entry.blocks_path, "registry")
    return no_blocks(
        "no blocks for this text: no lightrag_document_path, no LightRAG sidecar, and the "
        "text is not registered (insert .docx and Markdown files with "
        "lightrag_pchunk.ainsert_files)"
    )


def decide_for_text(
    content: str,
    chunk_token_size: int,
    chunk_overlap_token_size: int,
    *,
    entry: RegisteredDocument | None = None,
    context: Any = None,
    lightrag_document_path: str | os.PathLike[str] | None = None,
    file_path: str | os.PathLike[str] | None = None,
    addon_params: Mapping[str, Any] | None = None,
    rag: Any = None,
    env: Mapping[str, str] | None = None,
) -> Decision:
    """The decision for one text LightRAG hands ``chunking_func`` (see the module docstring).

    ``entry`` is the text's registration, if any: a registered document follows the
    decision frozen at registration (like LightRAG's per-document snapshot) unless
    ``file_path`` or ``addon_params`` is given explicitly.

    Raises:
        ValueError: a bad P setting (naming it and where it came from).
    """
    env = os.environ if env is None else env
    blocks = _locate_blocks(lightrag_document_path, context, entry)
    doc_id = getattr(context, "doc_id", None) or (entry.doc_id if entry else None)
    settings: PSettings | None = None
    if entry is not None and file_path is None and addon_params is None:
        route = entry.route
        name: str | None = entry.source_name
        settings = entry.p_settings
    else:
        name = str(file_path) if file_path else (entry.source_name if entry else None)
        if name:
            route = route_by_name(name, runtime_rules(env), env)
        elif context is not None:
            # LightRAG already routed it (its file_path has the hint stripped): trust that.
            name = getattr(context, "file_path", None)
            route = route_from_context(context)
        elif blocks.source == "lightrag_document_path":
            route = Route(Strategy.P, "blocks given as lightrag_document_path")
        else:
            route = Route(Strategy.R, "no file name and no blocks for this text")
    return decide(
        route,
        blocks,
        settings=settings,
        r_sizes=(chunk_token_size, chunk_overlap_token_size),
        addon_params=addon_params,
        rag=rag,
        env=env,
        file_name=name,
        doc_id=doc_id,
    )


def _lightrag_r_separators() -> list[str] | None:
    """LightRAG's pipeline default for R (CHUNK_R_SEPARATORS or its CJK-aware cascade)."""
    try:
        from lightrag.parser.routing import env_r_separators

        return list(env_r_separators()) or None
    except Exception:  # older/newer LightRAG without it, or a bad CHUNK_R_SEPARATORS
        return None


def find_calling_lightrag(max_depth: int = 16) -> Any | None:
    """The ``LightRAG`` instance whose pipeline called us, found on the call stack, or None.

    LightRAG's legacy call passes no instance; its working dir (for the registry after a
    restart), ``addon_params`` and constructor overlap are read from it when found.
    """
    try:
        from lightrag import LightRAG
    except ImportError:  # pragma: no cover - lightrag is a dependency
        return None
    frame = inspect.currentframe()
    try:
        frame = frame.f_back if frame is not None else None
        for _ in range(max_depth):
            if frame is None:
                break
            candidate = frame.f_locals.get("self")
            if isinstance(candidate, LightRAG):
                return candidate
            frame = frame.f_back
    finally:
        del frame  # break the frame reference cycle promptly
    return None


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
    fixed-token ones and feed only R when P does not apply (P's size never inherits
    CHUNK_SIZE). ``split_by_character`` / ``split_by_character_only`` are not used.
    ``context`` is LightRAG's ``ChunkingContext`` (read duck-typed). Returns LightRAG
    chunk rows: P rows carry the nested ``heading`` (``heading``, ``parent_headings``,
    ``level``) and ``sidecar``.

    Raises:
        ValueError: a bad P setting (CHUNK_P_*, addon_params, P(...) block), naming it.
    """
    rag = find_calling_lightrag()  # before the first await: the stack is still LightRAG's
    # The registry is read on the event loop: a PostgreSQL registry uses LightRAG's pool.
    entry = await afind_registered(content, rag)
    return await asyncio.to_thread(
        chunk_text,
        tokenizer,
        content,
        chunk_token_size,
        chunk_overlap_token_size,
        entry=entry,
        context=context,
        lightrag_document_path=lightrag_document_path,
        file_path=file_path,
        addon_params=addon_params,
        rag=rag,
    )


# Newer LightRAG (ChunkingContext, #4010) passes ``context=`` only to callbacks that opt in.
chunking_func.accepts_chunking_context = True  # type: ignore[attr-defined]


def chunk_text(
    tokenizer: TokenizerLike,
    content: str,
    chunk_token_size: int = 1200,
    chunk_overlap_token_size: int = 100,
    **options: Any,
) -> list[dict[str, Any]]:
    """The synchronous body of :func:`chunking_func`: decide, then chunk as decided
    (keyword options as :func:`decide_for_text`)."""
    decision = decide_for_text(content, chunk_token_size, chunk_overlap_token_size, **options)
    return run_decision(tokenizer, content, decision, r_separators=_lightrag_r_separators())
