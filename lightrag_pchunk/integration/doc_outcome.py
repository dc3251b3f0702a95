"""What LightRAG did with one inserted document, told truthfully to ``ainsert_files``.

:func:`settled_record` waits until LightRAG is done with the document (several calls on one
LightRAG share its pipeline: the run that holds it processes the others' documents too),
:func:`stored_shortfall` checks the chunks LightRAG stored against the document's blocks file,
word by word (``chunk/coverage.py``), and :func:`discard` deletes what LightRAG kept of a
document that failed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from lightrag_pchunk.chunk.coverage import WordShortfall
from lightrag_pchunk.integration.decision import Decision, Strategy
from lightrag_pchunk.integration.front_door import decision_shortfall
from lightrag_pchunk.integration.ingest_report import FAILED
from lightrag_pchunk.integration.registry_entry import RegisteredDocument
from lightrag_pchunk.integration.settings import Settings

logger = logging.getLogger("lightrag.pchunk")

#: LightRAG's doc_status value of a document it finished (``FAILED`` is the other end).
PROCESSED = "processed"
# Seconds between looks at a document another call's pipeline run is processing.
_POLL_FIRST, _POLL_MAX = 0.05, 1.0


def record_field(doc: Any, name: str, default: Any = None) -> Any:
    """A field of a doc_status record (a dict or a DocProcessingStatus)."""
    if isinstance(doc, Mapping):
        return doc.get(name, default)
    return getattr(doc, name, default)


def record_status(doc: Any) -> str:
    """The status of a doc_status record as a plain string (``"processed"``)."""
    value = record_field(doc, "status", "")
    return str(getattr(value, "value", value) or "")


async def pipeline_busy(rag: Any) -> bool:
    """Whether LightRAG's pipeline is processing (in this process or one sharing its storage)."""
    try:
        from lightrag.kg.shared_storage import get_namespace_data

        status = await get_namespace_data("pipeline_status", workspace=rag.workspace)
    except Exception:  # pragma: no cover - another LightRAG version: assume idle
        return False
    return bool(status.get("busy"))


async def settled_record(rag: Any, doc_id: str) -> Any:
    """The document's status record once LightRAG is done with it (processed or failed).

    When another call holds LightRAG's pipeline, ours returned at once and that run
    processes our document: wait for it, polling. When the pipeline is idle and the
    document still waits (it was enqueued after that run's last look), process the queue
    ourselves; a document still unsettled after that is returned as it is (``queued``).
    """
    delay = _POLL_FIRST
    while True:
        record = await rag.doc_status.get_by_id(doc_id)
        if not record or record_status(record) in (PROCESSED, FAILED):
            return record
        if not await pipeline_busy(rag):
            await rag.apipeline_process_enqueue_documents()
            record = await rag.doc_status.get_by_id(doc_id)
            if not record or record_status(record) in (PROCESSED, FAILED):
                return record
            if not await pipeline_busy(rag):
                return record  # idle and still not done: LightRAG will not take it now
        await asyncio.sleep(delay)
        delay = min(delay * 2, _POLL_MAX)


async def stored_shortfall(
    rag: Any, record: Any, decision: Decision, settings: Settings
) -> WordShortfall | None:
    """Words of the rows a P decision chunked that the chunks LightRAG stored for the
    document do not hold (rows ``settings`` drop on purpose excepted); None when the
    document was not chunked with P, or its storage keeps no chunk list."""
    if decision.strategy is not Strategy.P:
        return None
    ids = [str(i) for i in (record_field(record, "chunks_list") or [])]
    if not ids and int(record_field(record, "chunks_count", 0) or 0):
        return None  # a storage that keeps no chunk list
    stored = await rag.text_chunks.get_by_ids(ids) if ids else []
    contents = [str(record_field(chunk, "content", "") or "") for chunk in stored if chunk]
    return await asyncio.to_thread(decision_shortfall, decision, settings, contents)


async def delete_document(rag: Any, doc_id: str) -> str:
    """Delete a document from LightRAG; "" when done, else why not."""
    result = await rag.adelete_by_doc_id(doc_id)
    state = getattr(result, "status", "success")
    if state in ("success", "not_found"):
        return ""
    return f"LightRAG refused to delete {doc_id} ({state}): {getattr(result, 'message', '')}"


async def unregister(registry: Any, doc_id: str, previous: RegisteredDocument | None) -> None:
    """Drop a document's entry, giving its text back to the document that had it before.

    Identical text under two names shares one key: the second file's registration replaced
    the first file's entry, which must come back when the second is refused.
    """
    await registry.aforget(doc_id)
    if previous is not None and previous.doc_id != doc_id:
        await registry.aregister(previous)


async def discard(
    rag: Any, registry: Any, doc_id: str, previous: RegisteredDocument | None
) -> None:
    """Delete whatever LightRAG kept of a failed document, and its registry entry."""
    try:
        await rag.adelete_by_doc_id(doc_id)
    except Exception as exc:  # the original failure is what the user needs to see
        logger.error("paragraph_semantic could not delete failed document %s: %s", doc_id, exc)
    await unregister(registry, doc_id, previous)


async def duplicate_message(rag: Any, track_id: str, name: str) -> str:
    """LightRAG's reason for not admitting a document (a duplicate record), if any."""
    try:
        records = await rag.aget_docs_by_track_id(track_id)
    except Exception:  # pragma: no cover - older LightRAG
        records = {}
    for record in (records or {}).values():
        if record_field(record, "file_path") == name and record_status(record) == FAILED:
            return str(record_field(record, "error_msg", "") or "")
    return ""
