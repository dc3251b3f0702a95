"""One parsed file into LightRAG, for ``ainsert_files``: register its text (so
``chunking_func`` finds its blocks), enqueue it under its file name, let LightRAG process it,
check what it stored (``doc_outcome.py``), and record what it was parsed and chunked with
(``rechunk.store_in_doc_status``). A failure deletes whatever LightRAG kept of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.chunking_record import ChunkingRecord
from lightrag_pchunk.integration.doc_outcome import (
    PROCESSED,
    discard,
    duplicate_message,
    record_field,
    record_status,
    settled_record,
    stored_shortfall,
    unregister,
)
from lightrag_pchunk.integration.ingest_report import FAILED, INSERTED, QUEUED, FileResult
from lightrag_pchunk.integration.rechunk import Plan, store_in_doc_status
from lightrag_pchunk.integration.registration import entry_of
from lightrag_pchunk.naming import canonical_basename
from lightrag_pchunk.wording import counted


async def insert_parsed(
    rag: Any,
    path: Path,
    doc_id: str,
    content: str,
    settings: Any,
    decision: Any,
    plan: Plan,
    current: ChunkingRecord,
    registry: Any,
    track_id: str,
    warnings: tuple[str, ...],
    judge: Any,
) -> FileResult:
    """Register, enqueue and process a parsed file (``plan``: what ``rechunk.plan_for``
    decided for it, deletions done); what LightRAG stored of it, checked word by word, and
    the record of its settings written into its doc_status metadata."""

    def fail(reason: str, message: str) -> FileResult:
        """A failed file: ``reason`` in a few words (the summary's), ``message`` in full."""
        return FileResult(path, FAILED, doc_id, decision.strategy, message=message, reason=reason)

    entry = entry_of(path.name, doc_id, content, settings, decision, chunking=current)
    previous = await registry.aget(entry.key)
    await registry.aregister(entry)
    skip_kg = settings.directives is not None and settings.directives.options.skip_kg
    try:
        if plan.status != QUEUED:
            await rag.apipeline_enqueue_documents(
                content,
                file_paths=[str(path)],
                track_id=track_id,
                process_options="!" if skip_kg else None,
            )
        await rag.apipeline_process_enqueue_documents()
    except Exception as exc:
        await discard(rag, registry, doc_id, previous)
        return fail("LightRAG failed", f"LightRAG failed: {type(exc).__name__}: {exc}")

    record = await settled_record(rag, doc_id)
    if not record:
        await unregister(registry, doc_id, previous)
        why = await duplicate_message(rag, track_id, canonical_basename(path.name))
        return fail("not admitted", f"LightRAG did not admit it: {why or 'see the LightRAG log'}")
    state = record_status(record)
    if state == PROCESSED:
        chunks = int(record_field(record, "chunks_count", 0) or 0)
        shortfall = await stored_shortfall(rag, record, decision, settings)
        if shortfall:
            await discard(rag, registry, doc_id, previous)
            name = Path(canonical_basename(path.name))
            return fail(
                "lost words",
                f"its chunks lost {shortfall.describe()} of its blocks file"
                f" {decision.blocks.path}, so it was removed again; please report this file"
                f" (renamed {name.stem}.[native-R]{name.suffix} it is chunked by LightRAG's"
                " recursive splitter instead)",
            )
        await store_in_doc_status(rag, doc_id, current)
        note = f"{counted(len(warnings), 'parser warning')}, see the log" if warnings else ""
        if judge is not None and judge.budget.calls:
            calls = counted(judge.budget.calls, "call")
            spent = f"outline LLM: {calls}, ~{judge.budget.tokens} tokens"
            note = f"{note}; {spent}" if note else spent
        status = INSERTED if plan.status == QUEUED else plan.status
        return FileResult(
            path, status, doc_id, decision.strategy, chunks, note, changes=plan.changes
        )
    if state == FAILED:
        error = str(record_field(record, "error_msg", "") or "unknown error")
        await discard(rag, registry, doc_id, previous)
        return fail("LightRAG failed", f"LightRAG failed to process it (removed again): {error}")
    return FileResult(
        path,
        QUEUED,
        doc_id,
        decision.strategy,
        message=f"LightRAG's pipeline left the document {state}; its next run processes it",
    )
