"""Re-chunk what changed: what ``ainsert_files`` does with a file whose document LightRAG
holds already, decided before the file is parsed where it can be.

Each inserted document carries a :class:`~chunking_record.ChunkingRecord` (its settings and
its source file's md5) in its doc_status metadata and its registry entry. For a file whose
document LightRAG holds as processed, :func:`plan_for` compares that record with the
settings resolved now:

==========================================  ==============================================
the file and its record                     the plan
==========================================  ==============================================
same md5, same settings                     ``unchanged``, without parsing the file
same md5, other settings                    ``stale`` (``size 2000 -> 1200``), without
                                            parsing; with ``rechunk``: re-chunk it
no record, or another md5                   parse it aside and compare the text
                                            (:data:`COMPARE`): the same text is the same
                                            source, another text is a changed file
``replace``                                 insert it again, whatever it holds
==========================================  ==============================================

A stale document is parsed and chunked again first: when LightRAG holds exactly the chunks
it gets now (:func:`holds_these_chunks`: a setting that changes nothing in it, such as
keyed tables in a document without tables), only its record is brought up to date.
Re-chunking and replacing go through LightRAG's own deletion (``adelete_by_doc_id``: the
document's chunks, and the entities and relations only its chunks held, go; those other
documents share are rebuilt from their cached extraction) and a new insert under the same
doc id and file name. LightRAG keeps its LLM cache on deletion, so a chunk whose text and
heading path are unchanged is extracted from the cache, without a model call. A file parsed
for a document LightRAG holds is parsed into a folder aside (:func:`aside`) and moved into
place only once the old document is gone, so its blocks file keeps matching its chunks.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.chunking_record import (
    METADATA_KEY,
    ChunkingRecord,
    file_md5,
    separators_text,
)
from lightrag_pchunk.integration.decision import Decision, Strategy, load_blocks
from lightrag_pchunk.integration.doc_outcome import PROCESSED, record_field, record_status
from lightrag_pchunk.integration.formats import PLAIN_TEXT
from lightrag_pchunk.integration.front_door import Run, run
from lightrag_pchunk.integration.ingest_report import (
    FAILED,
    INSERTED,
    QUEUED,
    RECHUNKED,
    REPLACED,
    STALE,
    UNCHANGED,
)
from lightrag_pchunk.integration.registry_entry import RegisteredDocument
from lightrag_pchunk.integration.request import CHUNKING_FUNC, Request
from lightrag_pchunk.integration.rows import heading_path
from lightrag_pchunk.integration.settings import Settings
from lightrag_pchunk.integration.strategy import with_blocks
from lightrag_pchunk.parse.artefacts import install_parse, parser_version

#: The plan of a document LightRAG holds as processed whose text must be compared first.
COMPARE = "compare"
#: Said of a document no record describes (inserted otherwise, or by an older version).
NOT_RECORDED = "settings not recorded"


@dataclass(frozen=True, slots=True)
class Plan:
    """What to do with a file, before it is parsed.

    ``status``: ``inserted`` (not in LightRAG yet, or failed there: retried), ``queued``
    (LightRAG holds it pending or in progress: process it), ``unchanged``, ``stale``,
    ``re-chunked``, ``replaced``, or :data:`COMPARE`. ``recorded`` is the stored record,
    ``changes`` what differs from the settings now, ``chunks`` and ``strategy`` what LightRAG
    holds now.
    """

    status: str
    changes: tuple[str, ...] = ()
    recorded: ChunkingRecord | None = None
    chunks: int = 0
    strategy: str | None = None
    existing: Any = None

    @property
    def inserts(self) -> bool:
        """The file is parsed and inserted (new, retried, re-chunked or replaced)."""
        return self.status in (INSERTED, RECHUNKED, REPLACED)

    @property
    def deletes_first(self) -> bool:
        """LightRAG's document is deleted before the file goes in again."""
        return self.status in (RECHUNKED, REPLACED) or (
            self.status == INSERTED and record_status(self.existing) == FAILED
        )

    def with_status(self, status: str) -> Plan:
        """The same plan, ending otherwise (``unchanged``: the chunks are the same)."""
        return replace(self, status=status)

    def after_comparing(self, same_text: bool, current: ChunkingRecord, rechunk: bool) -> Plan:
        """The plan of a :data:`COMPARE` once the texts are compared; ``FAILED``: the file's
        text is not the one LightRAG holds."""
        if not same_text:
            return Plan(FAILED, recorded=self.recorded, existing=self.existing)
        changes = self.recorded.changes(current) if self.recorded else [NOT_RECORDED]
        status = UNCHANGED if not changes else RECHUNKED if rechunk else STALE
        return replace(self, status=status, changes=tuple(changes))


def record_of(
    settings: Settings,
    decision: Decision,
    source: Path,
    parse_override: Callable[..., Any] | None = None,
) -> ChunkingRecord:
    """The record of a document decided now, before it is parsed (what it *will* be parsed
    and chunked with). ``parse_override``: a parse function given instead of ours."""
    fmt = decision.parser
    parser = fmt.name if fmt is not None else None
    if parse_override is not None and parser is not None:
        parser = f"{parser} via {parse_override.__module__}.{parse_override.__qualname__}"
    parses = fmt is not None and fmt is not PLAIN_TEXT
    common = {
        "parser": parser,
        "smart_heading": settings.smart_heading.value if parses else None,
        "version": parser_version(),
        "source_md5": file_md5(source),
    }
    p = decision.settings
    if decision.strategy is not Strategy.P or p is None:
        separators = None if decision.is_fallback else settings.r_separators
        return ChunkingRecord(
            str(Strategy.R),
            decision.r_size,
            decision.r_overlap,
            separators=separators_text(separators),
            **common,
        )
    references = None
    if p.drop_references:
        tail = settings.references_tail_n or "all"
        references = f"last {tail} blocks, headings {'|'.join(settings.references_headings)}"
    return ChunkingRecord(
        str(Strategy.P),
        p.chunk_token_size,
        p.chunk_overlap_token_size,
        table_text=p.table_text,
        fill=p.fill,
        drop_references=p.drop_references,
        references=references,
        drop_toc=p.drop_toc,
        llm_boundaries=settings.llm_boundaries.modes_text if parses else None,
        **common,
    )


async def recorded_chunking(rag: Any, registry: Any, doc_id: str) -> ChunkingRecord | None:
    """The record of a document: in its doc_status metadata, else in its registry entry;
    None when neither holds one (inserted otherwise, or by an older version)."""
    status = await rag.doc_status.get_by_id(doc_id)
    metadata = record_field(status, "metadata") if status else None
    stored = metadata.get(METADATA_KEY) if isinstance(metadata, Mapping) else None
    if isinstance(stored, Mapping):
        try:
            return ChunkingRecord.from_json(stored)
        except (KeyError, TypeError, ValueError):
            pass  # unreadable: the registry's copy, if any
    entry = await registry.aby_doc_id(doc_id)
    return entry.chunking if entry is not None else None


async def store_in_doc_status(rag: Any, doc_id: str, record: ChunkingRecord) -> bool:
    """Write ``record`` into the doc_status metadata of a processed document, its other
    fields as they are; False when LightRAG does not hold it as processed."""
    status = await rag.doc_status.get_by_id(doc_id)
    if not status or record_status(status) != PROCESSED:
        return False
    data = dict(status) if isinstance(status, Mapping) else asdict(status)
    metadata = record_field(status, "metadata")
    data["metadata"] = {**(metadata if isinstance(metadata, Mapping) else {})}
    data["metadata"][METADATA_KEY] = record.to_json()
    await rag.doc_status.upsert({doc_id: data})
    return True


async def plan_for(
    rag: Any,
    registry: Any,
    doc_id: str,
    current: ChunkingRecord,
    *,
    replace: bool,
    rechunk: bool,
) -> Plan:
    """What to do with the file of ``doc_id`` (module doc), before parsing it."""
    existing = await rag.doc_status.get_by_id(doc_id)
    if not existing:
        return Plan(INSERTED)
    state = record_status(existing)
    if state == FAILED:
        return Plan(INSERTED, existing=existing)
    if state != PROCESSED:  # pending or in progress (an interrupted run): process it
        return Plan(QUEUED, existing=existing)
    recorded = await recorded_chunking(rag, registry, doc_id)
    entry = await registry.aby_doc_id(doc_id)
    chunks = int(record_field(existing, "chunks_count", 0) or 0)
    strategy = str(entry.strategy) if entry is not None else None
    base = {"recorded": recorded, "chunks": chunks, "strategy": strategy, "existing": existing}
    if replace:
        return Plan(REPLACED, **base)
    if recorded is None or recorded.source_md5 != current.source_md5:
        return Plan(COMPARE, **base)
    changes = tuple(recorded.changes(current))
    if not changes:
        return Plan(UNCHANGED, **base)
    return Plan(RECHUNKED if rechunk else STALE, changes, **base)


@contextmanager
def aside(parsed_root: Path) -> Iterator[Path]:
    """A folder beside the parsed artefacts to parse a file into, removed afterwards."""
    parsed_root.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=".pchunk-aside-", dir=parsed_root))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def move_into_place(parsed: Any, parsed_root: Path, decision: Decision) -> Decision:
    """Move a parse made :func:`aside` into ``parsed_root`` (replacing the old one); the
    decision with its blocks read from there. A text file read as written has no parse."""
    if parsed is None:
        return decision
    target = parsed_root / parsed.parsed_dir.name
    install_parse(parsed.parsed_dir, target)
    if decision.blocks is None or decision.blocks.path is None:
        return decision
    moved = target / decision.blocks.path.name
    return with_blocks(decision, load_blocks(moved, decision.blocks.source))


async def compare_text(rag: Any, doc_id: str, sanitized: str) -> bool:
    """Whether LightRAG holds exactly this (sanitized) text for the document."""
    stored = await rag.full_docs.get_by_id(doc_id)
    return bool(stored) and record_field(stored, "content") == sanitized


async def chunks_now(rag: Any, doc_id: str, sanitized: str, entry: RegisteredDocument) -> Run:
    """The document through the front door now: its registration ``entry`` and the text
    LightRAG would pass ``chunking_func``, chunked as LightRAG's call would chunk them; the
    run's ``rows`` are its chunk rows, ``lost`` what P's chunks miss of the blocks file."""
    request = Request(CHUNKING_FUNC, content=sanitized, entry=entry, rag=rag, doc_id=doc_id)
    return await asyncio.to_thread(run, request, rag.tokenizer)


async def holds_these_chunks(
    rag: Any, doc_id: str, sanitized: str, rows: list[dict[str, Any]]
) -> bool:
    """Whether LightRAG holds exactly this text and these chunk ``rows`` (in order, each
    with its heading path) for the document. A stale document that does needs no
    re-chunking: deleting and inserting it again would have the model rebuild and merge the
    descriptions of the entities its chunks share."""
    if not await compare_text(rag, doc_id, sanitized):
        return False
    stored = await stored_chunks(rag, doc_id)
    return stored is not None and same_chunks(rows, stored)


async def stored_chunks(rag: Any, doc_id: str) -> list[Any] | None:
    """The chunk rows LightRAG's ``text_chunks`` hold for the document, in chunk order;
    None when one its doc status lists is missing."""
    status = await rag.doc_status.get_by_id(doc_id)
    ids = [str(i) for i in (record_field(status, "chunks_list") or [])]
    stored = [row for row in await rag.text_chunks.get_by_ids(ids) if row] if ids else []
    if len(stored) != len(ids):
        return None
    return sorted(stored, key=lambda row: int(record_field(row, "chunk_order_index", 0) or 0))


def same_chunks(rows: Sequence[Any], stored: Sequence[Any]) -> bool:
    """Whether two lists of chunk rows hold the same texts under the same heading paths, in
    the same order."""

    def view(found: Sequence[Any]) -> list[tuple[str, Any]]:
        return [(str(record_field(r, "content", "")).strip(), heading_path(r)) for r in found]

    return view(rows) == view(stored)
