"""``ainsert_files``: route, parse, register and insert files into a LightRAG instance.

Each file goes through the front door (``front_door.py``): routed as LightRAG would route
it (LIGHTRAG_PARSER, file-name hints; unset: ``docx:native-P;md:native-P;pdf:pchunk-P``),
parsed by the parser of its format (``formats.py``), registered (so ``chunking_func`` finds
its blocks from the text alone, ``registration.py``), then inserted with
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
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager, nullcontext
from pathlib import Path
from typing import Any

from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.integration.decision import Strategy
from lightrag_pchunk.integration.doc_outcome import (
    PROCESSED,
    delete_document,
    discard,
    duplicate_message,
    record_field,
    record_status,
    settled_record,
    stored_shortfall,
    unregister,
)
from lightrag_pchunk.integration.filename_hints import FilenameParserHintError
from lightrag_pchunk.integration.front_door import read
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
from lightrag_pchunk.integration.registration import entry_of, require_pchunk_chunking_func
from lightrag_pchunk.integration.registry import registry_for, storage_folder
from lightrag_pchunk.integration.registry_entry import lightrag_sanitize
from lightrag_pchunk.integration.request import INGEST, Request
from lightrag_pchunk.integration.settings import check_config, resolve
from lightrag_pchunk.integration.storage_lock import (
    StorageBusyError,
    command_name,
    file_storages,
    hold_storage,
    stored_statuses,
    written_since_loaded,
)
from lightrag_pchunk.integration.strategy import decide
from lightrag_pchunk.naming import PARSED_DIR_NAME, canonical_basename, doc_id_for
from lightrag_pchunk.parse.artefacts import unreadable_source

logger = logging.getLogger("lightrag.pchunk")

#: The insert in progress of each document of this process (storage folder, doc id): a
#: call given the same file waits for it, then finds the document in place.
_TURNS: dict[tuple[Path, str], tuple[asyncio.Lock, int]] = {}


@asynccontextmanager
async def _turn(rag: Any, doc_id: str) -> AsyncIterator[None]:
    """One insert of a document at a time in this process (LightRAG enqueues a second as a
    failed duplicate record)."""
    key = (storage_folder(rag), doc_id)
    lock, users = _TURNS.get(key, (None, 0))
    lock = lock or asyncio.Lock()
    _TURNS[key] = (lock, users + 1)
    try:
        async with lock:
            yield
    finally:
        lock, users = _TURNS[key]
        if users == 1:
            del _TURNS[key]
        else:
            _TURNS[key] = (lock, users - 1)


async def _insert_one(rag: Any, path: Path, **options: Any) -> FileResult:
    problem = unreadable_source(path)
    if problem is not None:
        return FileResult(path, FAILED, message=problem[1])
    doc_id = doc_id_for(path)
    async with _turn(rag, doc_id):
        return await _insert_file(rag, path, doc_id, **options)


async def _insert_file(
    rag: Any,
    path: Path,
    doc_id: str,
    *,
    env: Mapping[str, str],
    registry: Any,
    parsed_root: Path,
    parse_docx: Callable[..., Any] | None,
    replace: bool,
    track_id: str,
    boundaries: BoundarySettings,
) -> FileResult:
    request = Request(
        INGEST, file_name=path.name, source=path, rag=rag, doc_id=doc_id, strict=True, env=env
    )
    try:
        settings = resolve(request)
        decision = decide(request, settings)
    except FilenameParserHintError as exc:
        return FileResult(path, FAILED, message=str(exc))
    except ValueError as exc:  # a bad setting of this file, a format we cannot read
        return FileResult(path, FAILED, doc_id, message=str(exc))

    def fail(message: str) -> FileResult:
        return FileResult(path, FAILED, doc_id, decision.strategy, message=message)

    judge = None
    try:
        options: dict[str, Any] = {}
        if decision.strategy is Strategy.P:
            cache = parsed_root / CACHE_DIR_NAME
            judge = outline_judge_for(rag, boundaries, asyncio.get_running_loop(), cache)
            if judge is not None:
                options["outline_judge"] = judge
        override = parse_docx if path.suffix.lower() == ".docx" else None
        decision, source = await asyncio.to_thread(
            read, request, settings, decision, parsed_root, parse=override, **options
        )
    except DocumentParseError as exc:
        return fail(f"cannot parse: {exc}")
    except ValueError as exc:
        return fail(str(exc))
    except Exception as exc:  # one file's surprise must not cost the others their insert
        if settings.strict:
            raise
        logger.error("paragraph_semantic ingest %s: unexpected error", path, exc_info=True)
        return fail(f"unexpected error while reading it: {type(exc).__name__}: {exc}")
    content = source.content
    sanitized = lightrag_sanitize(content)
    if not sanitized:
        return fail("the document has no text to insert")

    status, enqueue = INSERTED, True
    existing = await rag.doc_status.get_by_id(doc_id)
    if existing:
        state = record_status(existing)
        if state == PROCESSED:
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
            problem = await delete_document(rag, doc_id)
            if problem:
                return fail(f"cannot replace it: {problem}")
            status = REPLACED
        elif state == FAILED:
            problem = await delete_document(rag, doc_id)  # a clean retry: nothing of it is kept
            if problem:
                return fail(f"cannot retry it: {problem}")
        else:  # pending or in progress (an interrupted run): processing below picks it up
            enqueue = False

    entry = entry_of(path.name, doc_id, content, settings, decision)
    previous = await registry.aget(entry.key)
    await registry.aregister(entry)
    skip_kg = settings.directives is not None and settings.directives.options.skip_kg
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
        await discard(rag, registry, doc_id, previous)
        return fail(f"LightRAG failed: {type(exc).__name__}: {exc}")

    record = await settled_record(rag, doc_id)
    if not record:
        await unregister(registry, doc_id, previous)
        why = await duplicate_message(rag, track_id, canonical_basename(path.name))
        return fail(f"LightRAG did not admit it: {why or 'see the LightRAG log'}")
    state = record_status(record)
    if state == PROCESSED:
        chunks = int(record_field(record, "chunks_count", 0) or 0)
        shortfall = await stored_shortfall(rag, record, decision)
        if shortfall:
            await discard(rag, registry, doc_id, previous)
            name = Path(canonical_basename(path.name))
            return fail(
                f"its chunks lost {shortfall.describe()} of its blocks file"
                f" {decision.blocks.path}, so it was removed again; please report this file"
                f" (renamed {name.stem}.[native-R]{name.suffix} it is chunked by LightRAG's"
                " recursive splitter instead)"
            )
        warnings = len(source.warnings)
        note = f"{warnings} parser warning(s), see the log" if warnings else ""
        if judge is not None and judge.budget.calls:
            spent = f"outline LLM: {judge.budget.calls} call(s), ~{judge.budget.tokens} tokens"
            note = f"{note}; {spent}" if note else spent
        return FileResult(path, status, doc_id, decision.strategy, chunks, note)
    if state == FAILED:
        error = str(record_field(record, "error_msg", "") or "unknown error")
        await discard(rag, registry, doc_id, previous)
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

    On LightRAG's file storages (JSON, NanoVectorDB, NetworkX: one process per working dir)
    the call holds the working dir's storage lock (``storage_lock.py``) and, at the end,
    reads each inserted document back from the doc status file.

    Raises:
        ParserRoutingConfigError: LIGHTRAG_PARSER is invalid (before any file is touched).
        ValueError: a bad CHUNK_P_* value, or ``rag`` still uses LightRAG's default chunker.
        StorageBusyError: another process writes ``rag``'s file storages, or wrote them
            after ``rag`` loaded them (before any file is touched).
    """
    env = os.environ if env is None else env
    check_config(env)
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
    options = {
        "env": env,
        "registry": registry,
        "parsed_root": parsed_root,
        "parse_docx": parse_docx,
        "replace": replace,
        "track_id": track_id,
        "boundaries": boundaries,
    }
    on_files = file_storages(rag)
    lock = hold_storage(storage_folder(rag), command_name()) if on_files else nullcontext(False)
    with lock as took:
        if took:  # loaded before this process held the lock: was it written since?
            stale = await written_since_loaded(rag)
            if stale:
                raise StorageBusyError(stale)
        for done, path in enumerate(files, start=1):
            result = await _insert_one(rag, path, **options)
            report.results.append(result)
            log = logger.error if not result.ok else logger.info
            log("paragraph_semantic ingest %s", result.describe())
            if callback is not None:
                callback(done, len(files), result)
        await _confirm_stored(rag, report)
    return report


async def _confirm_stored(rag: Any, report: IngestReport) -> None:
    """Turn a file reported in LightRAG into a failure when LightRAG's storage does not hold
    its document as processed (read back from its doc status, on disk for file storage)."""
    inserted = [r for r in report.results if r.status in (INSERTED, REPLACED) and r.doc_id]
    statuses = await stored_statuses(rag, [str(r.doc_id) for r in inserted])
    for index, result in enumerate(report.results):
        if result not in inserted or statuses.get(str(result.doc_id)) == PROCESSED:
            continue
        found = statuses.get(str(result.doc_id)) or "no record"
        report.results[index] = FileResult(
            result.path,
            FAILED,
            result.doc_id,
            result.strategy,
            message=(
                f"LightRAG processed it, but its stored doc status holds {found} for "
                f"{result.doc_id} (another process wrote {storage_folder(rag)}?); insert it "
                "again"
            ),
        )
        logger.error("paragraph_semantic ingest %s", report.results[index].describe())
