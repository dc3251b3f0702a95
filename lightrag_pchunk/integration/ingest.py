"""``ainsert_files``: route, parse, register and insert files into a LightRAG instance.

Each file is routed as LightRAG would route it (LIGHTRAG_PARSER, file-name hints; unset:
``docx:native-P;md:native-P``), parsed with our native parser (Word or Markdown) when the
route says ``native``,
registered (so ``chunking_func`` finds its blocks from the text alone), then inserted with
its file path, so its doc id is LightRAG's (md5 of the canonical basename). Files go one at
a time: a file that fails is reported, its partial state is deleted from LightRAG, and the
next file goes on. Inserting an unchanged file again changes nothing. Calls running at the
same time on one LightRAG share its pipeline: a call whose document another call's run
processes waits for that run, so each report says what happened to its own files. A file
chunked with P is checked against its blocks file: if the chunks LightRAG stored miss a word
of it (rows a setting drops on purpose excepted), the file fails with the count of lost words
and is removed again; it is never reported as inserted.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.integration.chunker import STRICT_ENV
from lightrag_pchunk.integration.chunking_func import chunking_func
from lightrag_pchunk.integration.doc_outcome import (
    record_field,
    record_status,
    settled_record,
    stored_shortfall,
)
from lightrag_pchunk.integration.engines import P_ENGINES
from lightrag_pchunk.integration.filename_hints import FilenameParserHintError
from lightrag_pchunk.integration.ingest_report import (
    FAILED,
    INSERTED,
    QUEUED,
    REPLACED,
    UNCHANGED,
    FileResult,
    IngestReport,
    ProgressBar,
    ProgressCallback,
)
from lightrag_pchunk.integration.llm_outline import (
    CACHE_DIR_NAME,
    BoundarySettings,
    outline_judge_for,
    resolve_boundary_settings,
)
from lightrag_pchunk.integration.parsers import PARSERS, parser_for
from lightrag_pchunk.integration.registry import (
    JsonRegistry,
    RegisteredDocument,
    insert_key,
    lightrag_sanitize,
    registry_for,
)
from lightrag_pchunk.integration.routing import ParserRule
from lightrag_pchunk.integration.strategy import (
    Decision,
    LoadedBlocks,
    Route,
    Strategy,
    blocks_of,
    check_config,
    decide,
    load_blocks,
    no_blocks,
    route_file,
)
from lightrag_pchunk.markdown.document import MARKDOWN_SUFFIXES
from lightrag_pchunk.naming import PARSED_DIR_NAME, canonical_basename, doc_id_for
from lightrag_pchunk.outline.judge import OutlineJudge

logger = logging.getLogger("lightrag.pchunk")

#: Suffixes read as UTF-8 text when the route does not parse them natively.
TEXT_SUFFIXES = frozenset(
    {
        "txt",
        "text",
        "md",
        "markdown",
        "mdx",
        "rst",
        "csv",
        "tsv",
        "json",
        "log",
        "xml",
        "yaml",
        "yml",
    }
)


class _Unsupported(Exception):
    """A file this helper cannot turn into text."""


def _extract(
    path: Path,
    route: Route,
    parsed_root: Path,
    doc_id: str,
    parse_docx: Callable[..., Any] | None,
    judge: OutlineJudge | None = None,
) -> tuple[str, LoadedBlocks, int]:
    """The document text, its blocks (none when not parsed natively), parser warnings.
    ``judge`` is the outline's optional language-model help (``CHUNK_P_LLM_BOUNDARIES``)."""
    suffix = path.suffix.lower().lstrip(".")
    engine = route.directives.engine if route.directives is not None else None
    parser = parse_docx if parse_docx is not None and suffix == "docx" else parser_for(suffix)
    # Markdown routed elsewhere than to our blocks is text as written (LightRAG's legacy).
    if parser is not None and (engine in P_ENGINES or f".{suffix}" not in MARKDOWN_SUFFIXES):
        # A docx routed to legacy or R is still read with our parser: its text is the best
        # we have (LightRAG's legacy extractor only concatenates paragraphs).
        # native(smart_heading=...) in the rule or hint wins over DOCX_SMART_HEADING, which
        # the parser reads itself when the route says nothing (LightRAG's precedence).
        params = route.directives.engine_params if route.directives is not None else {}
        extra: dict[str, Any] = {}
        if "smart_heading" in params:
            extra["smart_heading"] = params["smart_heading"]
        if judge is not None:
            extra["outline_judge"] = judge
        parsed = parser(path, parsed_root, doc_id=doc_id, **extra)
        if engine in P_ENGINES:
            blocks = blocks_of(parsed.rows, Path(parsed.blocks_path), "parser")
        else:
            blocks = no_blocks(f"the {engine} engine writes no blocks we read")
        return parsed.content, blocks, len(getattr(parsed, "warnings", ()) or ())
    why = f"lightrag-pchunk parses only {', '.join(f'.{s}' for s in PARSERS)} natively"
    if suffix in TEXT_SUFFIXES:
        try:
            return path.read_text(encoding="utf-8"), no_blocks(why), 0
        except UnicodeDecodeError as exc:
            raise _Unsupported(f"{path.name} is not UTF-8 text ({exc.reason})") from None
    raise _Unsupported(
        f"cannot ingest .{suffix or '(no suffix)'} files: lightrag-pchunk reads .docx and Markdown "
        "(natively) and UTF-8 text files; insert other formats through LightRAG's own server"
    )


def require_pchunk_chunking_func(rag: Any) -> None:
    """Refuse a LightRAG whose ``chunking_func`` is still LightRAG's default (F).

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
    if current is not chunking_func:
        logger.warning(
            "paragraph_semantic rag.chunking_func is %r, not lightrag_pchunk.chunking_func: "
            "registered blocks are used only if it delegates to it",
            current,
        )


def _entry(
    name: str, doc_id: str, content: str, route: Route, decision: Decision
) -> RegisteredDocument:
    """The registration of a decided document (a fallback freezes R at P's size)."""
    r_params = dict(route.r_params)
    if decision.is_fallback:
        r_params = {
            "chunk_token_size": decision.r_size,
            "chunk_overlap_token_size": decision.r_overlap,
        }
    return RegisteredDocument(
        key=insert_key(content),
        source_name=name,
        doc_id=doc_id,
        strategy=decision.strategy,
        reason=decision.reason,
        blocks_path=decision.blocks_path if decision.strategy is Strategy.P else None,
        p_settings=decision.settings if decision.strategy is Strategy.P else None,
        r_params=r_params,
    )


def _decided_entry(
    rag: Any,
    file_path: str | os.PathLike[str],
    content: str,
    blocks_path: str | os.PathLike[str] | None,
    env: Mapping[str, str] | None,
) -> RegisteredDocument:
    """The registration of a document inserted by hand: routed by name, decided now."""
    env = os.environ if env is None else env
    name = Path(file_path).name
    route = route_file(name, check_config(env), env)
    lightrag = rag if hasattr(rag, "working_dir") else None
    blocks = load_blocks(blocks_path, "register_document")
    decision = decide(route, blocks, rag=lightrag, env=env, file_name=name)
    return _entry(name, doc_id_for(name), content, route, decision)


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
    freezes its snapshot at enqueue) or just a working dir. ``content`` is the text you
    insert; ``file_path`` the name you insert it under (a file-name hint routes it). A
    PostgreSQL registry needs :func:`aregister_document`.

    Raises:
        FilenameParserHintError: a malformed hint in ``file_path``.
        ValueError: a bad P setting.
        TypeError: ``rag`` keeps its registry in PostgreSQL (use the async function).
    """
    registry = registry_for(rag)
    if not isinstance(registry, JsonRegistry):
        raise TypeError(
            f"{registry} is reached asynchronously: use await aregister_document(...) instead"
        )
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
    return await registry_for(rag).aregister(entry)


async def _delete(rag: Any, doc_id: str) -> str:
    """Delete a document from LightRAG; "" when done, else why not."""
    result = await rag.adelete_by_doc_id(doc_id)
    state = getattr(result, "status", "success")
    if state in ("success", "not_found"):
        return ""
    return f"LightRAG refused to delete {doc_id} ({state}): {getattr(result, 'message', '')}"


async def _unregister(registry: Any, doc_id: str, previous: RegisteredDocument | None) -> None:
    """Drop a document's entry, giving its text back to the document that had it before.

    Identical text under two names shares one key: the second file's registration replaced
    the first file's entry, which must come back when the second is refused.
    """
    await registry.aforget(doc_id)
    if previous is not None and previous.doc_id != doc_id:
        await registry.aregister(previous)


async def _discard(
    rag: Any, registry: Any, doc_id: str, previous: RegisteredDocument | None
) -> None:
    """Delete whatever LightRAG kept of a failed document, and its registry entry."""
    try:
        await rag.adelete_by_doc_id(doc_id)
    except Exception as exc:  # the original failure is what the user needs to see
        logger.error("paragraph_semantic could not delete failed document %s: %s", doc_id, exc)
    await _unregister(registry, doc_id, previous)


async def _duplicate_message(rag: Any, track_id: str, name: str) -> str:
    """LightRAG's reason for not admitting a document (a duplicate record), if any."""
    try:
        records = await rag.aget_docs_by_track_id(track_id)
    except Exception:  # pragma: no cover - older LightRAG
        records = {}
    for record in (records or {}).values():
        if record_field(record, "file_path") == name and record_status(record) == FAILED:
            return str(record_field(record, "error_msg", "") or "")
    return ""


async def _insert_one(
    rag: Any,
    path: Path,
    *,
    rules: list[ParserRule],
    env: Mapping[str, str],
    registry: Any,
    parsed_root: Path,
    parse_docx: Callable[..., Any] | None,
    replace: bool,
    track_id: str,
    boundaries: BoundarySettings,
) -> FileResult:
    if not path.is_file():
        return FileResult(path, FAILED, message="no such file")
    try:
        route = route_file(path.name, rules, env)
    except FilenameParserHintError as exc:
        return FileResult(path, FAILED, message=str(exc))
    doc_id = doc_id_for(path)

    def fail(message: str) -> FileResult:
        return FileResult(path, FAILED, doc_id, route.strategy, message=message)

    try:
        judge = None
        if route.strategy is Strategy.P and parser_for(path.suffix) is parser_for("docx"):
            judge = outline_judge_for(
                rag, boundaries, asyncio.get_running_loop(), parsed_root / CACHE_DIR_NAME
            )
        content, blocks, warnings = await asyncio.to_thread(
            _extract, path, route, parsed_root, doc_id, parse_docx, judge
        )
        decision = decide(route, blocks, rag=rag, env=env, file_name=path.name, doc_id=doc_id)
    except DocumentParseError as exc:
        return fail(f"cannot parse: {exc}")
    except (_Unsupported, ValueError) as exc:
        return fail(str(exc))
    except Exception as exc:  # one file's surprise must not cost the others their insert
        if os.environ.get(STRICT_ENV, "").strip() not in ("", "0", "false"):
            raise
        logger.error("paragraph_semantic ingest %s: unexpected error", path, exc_info=True)
        return fail(f"unexpected error while reading it: {type(exc).__name__}: {exc}")
    sanitized = lightrag_sanitize(content)
    if not sanitized:
        return fail("the document has no text to insert")

    status, enqueue = INSERTED, True
    existing = await rag.doc_status.get_by_id(doc_id)
    if existing:
        state = record_status(existing)
        if state == "processed":
            stored = await rag.full_docs.get_by_id(doc_id)
            same = bool(stored) and record_field(stored, "content") == sanitized
            if same and not replace:
                chunks = int(record_field(existing, "chunks_count", 0) or 0)
                return FileResult(path, UNCHANGED, doc_id, decision.strategy, chunks)
            if not replace:
                return fail(
                    f"already in LightRAG as {doc_id} with different content; delete it first "
                    "or insert with replace=True (--replace)"
                )
            problem = await _delete(rag, doc_id)
            if problem:
                return fail(f"cannot replace it: {problem}")
            status = REPLACED
        elif state == FAILED:
            problem = await _delete(rag, doc_id)  # a clean retry: nothing of it is kept
            if problem:
                return fail(f"cannot retry it: {problem}")
        else:  # pending or in progress (an interrupted run): processing below picks it up
            enqueue = False

    entry = _entry(path.name, doc_id, content, route, decision)
    previous = await registry.aget(entry.key)
    await registry.aregister(entry)
    skip_kg = route.directives is not None and route.directives.options.skip_kg
    try:
        if enqueue:
            await rag.apipeline_enqueue_documents(
                content,
                file_paths=[str(path)],
                track_id=track_id,
                process_options="!" if skip_kg else None,
            )
        await rag.apipeline_process_enqueue_documents()
    except Exception as exc:
        await _discard(rag, registry, doc_id, previous)
        return fail(f"LightRAG failed: {type(exc).__name__}: {exc}")

    record = await settled_record(rag, doc_id)
    if not record:
        await _unregister(registry, doc_id, previous)
        why = await _duplicate_message(rag, track_id, canonical_basename(path.name))
        return fail(f"LightRAG did not admit it: {why or 'see the LightRAG log'}")
    state = record_status(record)
    if state == "processed":
        chunks = int(record_field(record, "chunks_count", 0) or 0)
        shortfall = await stored_shortfall(rag, record, decision)
        if shortfall:
            await _discard(rag, registry, doc_id, previous)
            name = Path(canonical_basename(path.name))
            return fail(
                f"its chunks lost {shortfall.describe()} of its blocks file"
                f" {decision.blocks.path}, so it was removed again; please report this file"
                f" (renamed {name.stem}.[native-R]{name.suffix} it is chunked by LightRAG's"
                " recursive splitter instead)"
            )
        note = f"{warnings} parser warning(s), see the log" if warnings else ""
        if judge is not None and judge.budget.calls:
            spent = f"outline LLM: {judge.budget.calls} call(s), ~{judge.budget.tokens} tokens"
            note = f"{note}; {spent}" if note else spent
        return FileResult(path, status, doc_id, decision.strategy, chunks, note)
    if state == FAILED:
        error = str(record_field(record, "error_msg", "") or "unknown error")
        await _discard(rag, registry, doc_id, previous)
        return fail(f"LightRAG failed to process it (removed again): {error}")
    return FileResult(
        path,
        QUEUED,
        doc_id,
        decision.strategy,
        message=f"LightRAG's pipeline left the document {state}; its next run processes it",
    )


async def ainsert_files(
    rag: Any,
    paths: Iterable[str | os.PathLike[str]],
    *,
    parse_docx: Callable[..., Any] | None = None,
    parsed_dir: str | os.PathLike[str] | None = None,
    replace: bool = False,
    progress: bool | ProgressCallback = True,
    env: Mapping[str, str] | None = None,
) -> IngestReport:
    """Insert files into ``rag`` with P chunking; one result per file, failures included.

    ``rag`` must be an initialized LightRAG created with
    ``chunking_func=lightrag_pchunk.chunking_func``. Parsed artefacts go to ``parsed_dir``
    (default ``<working_dir>/__parsed__/<name>.parsed/``). ``replace`` deletes a file already in
    LightRAG and inserts it again (to pick up changed content or settings); without it an
    unchanged file is left as it is and a changed one fails (LightRAG keys documents by
    file name). ``progress``: True draws a bar on stderr, a callable gets
    ``(done, total, FileResult)``. ``parse_docx`` replaces our parser (same interface).

    Raises:
        ParserRoutingConfigError: LIGHTRAG_PARSER is invalid (before any file is touched).
        ValueError: a bad CHUNK_P_* value, or ``rag`` still uses LightRAG's default chunker.
    """
    env = os.environ if env is None else env
    rules = check_config(env)
    require_pchunk_chunking_func(rag)
    boundaries = resolve_boundary_settings(getattr(rag, "addon_params", None), env)
    files = [Path(p) for p in paths]
    working_dir = Path(getattr(rag, "working_dir", "."))
    registry = registry_for(rag)
    parsed_root = Path(parsed_dir) if parsed_dir is not None else working_dir / PARSED_DIR_NAME
    callback: ProgressCallback | None = None
    if callable(progress):
        callback = progress
    elif progress:
        callback = ProgressBar(len(files))
    track_id = f"pchunk-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:8]}"
    report = IngestReport()
    for done, path in enumerate(files, start=1):
        result = await _insert_one(
            rag,
            path,
            rules=rules,
            env=env,
            registry=registry,
            parsed_root=parsed_root,
            parse_docx=parse_docx,
            replace=replace,
            track_id=track_id,
            boundaries=boundaries,
        )
        report.results.append(result)
        log = logger.error if not result.ok else logger.info
        log("paragraph_semantic ingest %s", result.describe())
        if callback is not None:
            callback(done, len(files), result)
    return report
