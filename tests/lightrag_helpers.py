"""A real LightRAG for the end-to-end tests: file-based storage in a temp folder, a
deterministic local embedding and an LLM that extracts nothing (no network)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from lightrag_pchunk.cli.offline_models import build_offline_rag
from lightrag_pchunk.eval.documents import ParseFailure, lightrag_blocks_file


def forget_process_state() -> None:
    """What a new process finds: no registry open, and LightRAG's process-wide storage state
    (kept per workspace, even across working dirs) gone."""
    from lightrag.kg.shared_storage import finalize_share_data

    from lightrag_pchunk.integration.registry import close_registries

    close_registries()
    finalize_share_data()


@asynccontextmanager
async def offline_lightrag(work: Path, **kwargs: Any) -> AsyncIterator[Any]:
    """An initialised offline LightRAG in ``work``, its storages finalised on exit."""
    rag = build_offline_rag(work, **kwargs)
    await rag.initialize_storages()
    try:
        yield rag
    finally:
        await rag.finalize_storages()


async def enqueue_routed(rag: Any, paths: list[Path], engine: str = "pchunk") -> None:
    """Enqueue ``paths`` as LightRAG's server does (its routing picks the parse engine,
    asserted to be ``engine``) and process the queue."""
    from lightrag.parser.routing import encode_parse_engine, resolve_parser_directives

    for path in paths:
        directives = resolve_parser_directives(path)
        assert directives.engine == engine, f"{path.name} routed to {directives.engine}"
        await rag.apipeline_enqueue_documents(
            "",
            file_paths=str(path),
            docs_format="pending_parse",
            parse_engine=encode_parse_engine(directives.engine, directives.engine_params),
            process_options=directives.process_options,
        )
    await rag.apipeline_process_enqueue_documents()


async def upload(rag: Any, path: Path) -> None:
    """What LightRAG's server does for POST /documents/upload (pipeline_enqueue_file)."""
    from lightrag.parser.routing import encode_parse_engine, resolve_parser_directives

    directives = resolve_parser_directives(path)
    await rag.apipeline_enqueue_documents(
        "",
        file_paths=str(path),
        docs_format="pending_parse",
        parse_engine=encode_parse_engine(directives.engine, directives.engine_params),
        process_options=directives.process_options or "F",
    )
    await rag.apipeline_process_enqueue_documents()


def lightrag_native_blocks(sources: list[Path], out: Path) -> dict[str, Path]:
    """Blocks files LightRAG's native parser writes for ``sources`` (name -> path); a file
    it cannot parse (or crashes on) is absent."""
    parsed: dict[str, Path] = {}
    for source in sources:
        with contextlib.suppress(ParseFailure):  # LightRAG's parser crashes on some corpus files
            parsed[source.name] = lightrag_blocks_file(source, out)
    return parsed
