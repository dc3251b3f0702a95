"""``ainsert_files``: route, parse, register and insert files into a LightRAG instance.

Each file goes through the front door (``front_door.py``): routed as LightRAG would route
it (LIGHTRAG_PARSER, file-name hints; unset: every format we parse to ``pchunk-P``),
parsed by the parser of its format (``formats.py``), registered (so ``chunking_func`` finds
its blocks from the text alone, ``registration.py``), then inserted with
its file path, so its doc id is LightRAG's (md5 of the canonical basename). Files go one at
a time: a file that fails is reported, its partial state is deleted from LightRAG, and the
next file goes on. A file LightRAG holds already is compared with the record of what it was
parsed and chunked with (``rechunk.py``): unchanged, it is left as it is; inserted with other
settings, it is reported stale and ``rechunk`` inserts it again. Calls running at the
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
    record_status,
)
from lightrag_pchunk.integration.filename_hints import FilenameParserHintError
from lightrag_pchunk.integration.front_door import read
from lightrag_pchunk.integration.ingest_report import (
    EMPTY,
    FAILED,
    INSERTING,
    QUEUED,
    RECHUNKED,
    REPLACED,
    STALE,
    UNCHANGED,
    FileResult,
    IngestReport,
    ProgressBar,
    ProgressCallback,
)
from lightrag_pchunk.integration.insert_document import insert_parsed
from lightrag_pchunk.integration.llm_outline import CACHE_DIR_NAME, outline_judge_for
from lightrag_pchunk.integration.rechunk import (
    COMPARE,
    Plan,
    aside,
    chunks_now,
    compare_text,
    holds_these_chunks,
    move_into_place,
    plan_for,
    record_of,
    store_in_doc_status,
)
from lightrag_pchunk.integration.registration import entry_of, require_pchunk_chunking_func
from lightrag_pchunk.integration.registry import registry_for, storage_folder
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
from lightrag_pchunk.integration.stored_text import lightrag_sanitize
from lightrag_pchunk.integration.strategy import UnsupportedFormatError, decide
from lightrag_pchunk.naming import PARSED_DIR_NAME, doc_id_for
from lightrag_pchunk.parse.source_checks import unreadable_source

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
        reason, message = problem
        return FileResult(path, FAILED, message=message, reason=reason.replace("-", " "))
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
    rechunk: bool,
    dry_run: bool,
    track_id: str,
) -> FileResult:
    request = Request(
        INGEST, file_name=path.name, source=path, rag=rag, doc_id=doc_id, strict=True, env=env
    )
    try:
        settings = resolve(request)
        decision = decide(request, settings)
    except FilenameParserHintError as exc:
        return FileResult(path, FAILED, message=str(exc), reason="bad file-name hint")
    except UnsupportedFormatError as exc:
        return FileResult(path, FAILED, doc_id, message=str(exc), reason="unsupported format")
    except ValueError as exc:  # a bad setting of this file
        return FileResult(path, FAILED, doc_id, message=str(exc), reason="bad setting")

    def fail(reason: str, message: str) -> FileResult:
        """A failed file: ``reason`` in a few words (the summary's), ``message`` in full."""
        return FileResult(path, FAILED, doc_id, decision.strategy, message=message, reason=reason)

    is_word = decision.parser is not None and decision.parser.name == "word"
    override = parse_docx if is_word else None
    current = await asyncio.to_thread(record_of, settings, decision, path, override)
    plan = await plan_for(rag, registry, doc_id, current, replace=replace, rechunk=rechunk)
    if plan.status in (UNCHANGED, STALE) or (dry_run and plan.status not in (COMPARE, RECHUNKED)):
        return _unparsed(path, doc_id, plan, decision, dry_run)
    # A document LightRAG holds keeps its blocks file until it is deleted: parse aside.
    with aside(parsed_root) if plan.existing else nullcontext(parsed_root) as target:
        judge = None
        try:
            options: dict[str, Any] = {}
            if decision.strategy is Strategy.P:
                cache = parsed_root / CACHE_DIR_NAME
                loop = asyncio.get_running_loop()
                judge = outline_judge_for(rag, settings.llm_boundaries, loop, cache)
                if judge is not None:
                    options["outline_judge"] = judge
            decision, source = await asyncio.to_thread(
                read, request, settings, decision, target, parse=override, **options
            )
        except DocumentParseError as exc:
            return fail("cannot parse", f"cannot parse: {exc}")
        except ValueError as exc:
            return fail("cannot read", str(exc))
        except Exception as exc:  # one file's surprise must not cost the others their insert
            if settings.strict:
                raise
            logger.error("paragraph_semantic ingest %s: unexpected error", path, exc_info=True)
            return fail(
                "unexpected error",
                f"unexpected error while reading it: {type(exc).__name__}: {exc}",
            )
        content = source.content
        sanitized = lightrag_sanitize(content)
        if decision.is_empty:
            kept = f"LightRAG keeps its earlier text as {doc_id}" if plan.existing else ""
            return FileResult(path, EMPTY, doc_id, message=kept)
        if plan.status == COMPARE:
            plan = plan.after_comparing(
                await compare_text(rag, doc_id, sanitized), current, rechunk
            )
            if plan.status == FAILED:
                return fail(
                    "changed",
                    f"already in LightRAG as {doc_id} with different content; delete it first "
                    "or insert with replace=True (--replace)",
                )
        if plan.status in (RECHUNKED, REPLACED):  # LightRAG's document is still there
            entry = entry_of(path.name, doc_id, content, settings, decision, chunking=current)
            now = await chunks_now(rag, doc_id, sanitized, entry)
            if now.lost:  # checked by the front door's P run, before anything is deleted
                return fail(
                    "lost words",
                    f"with these settings its chunks would lose {now.lost.describe()} of its "
                    "blocks file, so LightRAG keeps it as it was; please report this file",
                )
            if plan.status == RECHUNKED and await holds_these_chunks(
                rag, doc_id, sanitized, now.rows
            ):
                if not dry_run:  # the record, and the blocks file the chunks come from
                    decision = move_into_place(source.parsed, parsed_root, decision)
                    entry = entry_of(path.name, doc_id, content, settings, decision, current)
                    await registry.aregister(entry)
                    await store_in_doc_status(rag, doc_id, current)
                return _unparsed(path, doc_id, plan.with_status(UNCHANGED), decision, dry_run)
        if not plan.inserts or dry_run:
            return _unparsed(path, doc_id, plan, decision, dry_run)
        if plan.deletes_first:
            problem = await delete_document(rag, doc_id)
            if problem:
                return fail("cannot delete", f"cannot insert it again: {problem}")
        if target != parsed_root:
            decision = move_into_place(source.parsed, parsed_root, decision)
    return await insert_parsed(
        rag, path, doc_id, content, settings, decision, plan, current, registry, track_id,
        source.warnings, judge,
    )  # fmt: skip


def _unparsed(path: Path, doc_id: str, plan: Plan, decision: Any, dry_run: bool) -> FileResult:
    """The result of a file that is not inserted: unchanged, stale, or a dry run's plan."""
    strategy = plan.strategy or decision.strategy
    message = ""
    if plan.status == STALE:
        message = "re-chunk it with --rechunk (rechunk=True)"
    elif plan.status == UNCHANGED and plan.changes:
        done = "would be" if dry_run else "was"
        message = f"the same chunks with these settings: only its record {done} updated"
    elif plan.status == QUEUED:
        message = f"LightRAG holds it {record_status(plan.existing)}; a run processes it"
    return FileResult(
        path,
        plan.status,
        doc_id,
        strategy,
        plan.chunks,
        message,
        changes=plan.changes,
        planned=dry_run,
    )


async def ainsert_files(
    rag: Any,
    paths: Iterable[str | os.PathLike[str]],
    *,
    parse_docx: Callable[..., Any] | None = None,
    parsed_dir: str | os.PathLike[str] | None = None,
    replace: bool = False,
    rechunk: bool = False,
    dry_run: bool = False,
    progress: bool | ProgressCallback = True,
    env: Mapping[str, str] | None = None,
) -> IngestReport:
    """Insert files into ``rag`` with P chunking; one result per file, failures included.

    ``rag`` must be an initialized LightRAG created with
    ``chunking_func=lightrag_pchunk.chunking_func``. Parsed artefacts go to ``parsed_dir``
    (default ``<working_dir>/__parsed__/<name>.parsed/``). A file already in LightRAG is
    compared with what it was inserted with (``rechunk.py``): ``unchanged``, or ``stale``
    when a setting changed since (``size 2000 -> 1200``, without parsing it); ``rechunk``
    deletes each stale document and inserts it again under the same doc id and file name
    (``re-chunked``); ``replace`` does so for every file given (to pick up changed content);
    without it a file whose content changed fails (LightRAG keys documents by file name).
    ``dry_run`` changes nothing and reports what would be done (``would be re-chunked``).
    ``progress``: True draws a bar on stderr, a callable gets ``(done, total, FileResult)``.
    ``parse_docx`` replaces our Word parser, for every Word suffix (same interface).

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
        "rechunk": rechunk,
        "dry_run": dry_run,
        "track_id": track_id,
    }
    writes = bool(file_storages(rag)) and not dry_run
    lock = hold_storage(storage_folder(rag), command_name()) if writes else nullcontext(False)
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
        if not dry_run:
            await _confirm_stored(rag, report)
    return report


async def _confirm_stored(rag: Any, report: IngestReport) -> None:
    """Turn a file reported in LightRAG into a failure when LightRAG's storage does not hold
    its document as processed (read back from its doc status, on disk for file storage)."""
    inserted = [r for r in report.results if r.status in INSERTING and r.doc_id]
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
            reason="not stored",
            message=(
                f"LightRAG processed it, but its stored doc status holds {found} for "
                f"{result.doc_id} (another process wrote {storage_folder(rag)}?); insert it "
                "again"
            ),
        )
        logger.error("paragraph_semantic ingest %s", report.results[index].describe())
