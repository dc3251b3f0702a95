"""The front door: every way into lightrag-pchunk takes one document through the same steps.

    Request  ->  settings.resolve()  ->  strategy.decide()  ->  read()  ->  run()
    (what the    (every setting, with    (P or R, which         (the       (the chunks, and
    entrance     where it came from)     parser, why)           parse)     a trace)
    knows)

Each entrance is an adapter that fills in a :class:`request.Request`:

====================================  ===================================================
entrance                              adapter
====================================  ===================================================
``LightRAG(chunking_func=...)``       ``chunking_func.py``
LightRAG's P dispatch, ``install()``  ``plugin.py``
the ``pchunk`` parser engine          ``lightrag_parser.py`` (``read`` only)
``ainsert_files``, ``ingest``         ``ingest.py`` (``read`` only)
``register_document``                 ``registration.py`` (``decide`` only)
``parse``, ``chunk``, ``inspect``     ``cli/*_cmd.py``
``eval``                              ``eval/documents.py`` (``read``), ``contenders.py``
====================================  ===================================================

P runs stages A-E (``chunk/pipeline.py``); an unexpected error inside them falls back to R
on the document text with one log line (``LIGHTRAG_PCHUNK_STRICT`` re-raises), so a
document is never lost. This and the commands are the only places that catch an exception
raised inside a stage (the stages catch none).
Every P run checks that its chunks hold every word of the rows it chunked
(``chunk/coverage.py``): a shortfall is logged at ERROR with its count whatever the entrance
(LightRAG's pipeline stores the chunks it is given), and ``Run.lost`` carries it to the
entrances that can fail the document (``ainsert_files``, ``chunk``).
"""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from lightrag_pchunk.blockfile.jsonl import merged_text
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.coverage import WordShortfall, lost_words
from lightrag_pchunk.chunk.pages import PageFinder, has_pages
from lightrag_pchunk.chunk.pipeline import chunk_rows, over_cap
from lightrag_pchunk.chunk.references import drop_reference_rows, drop_toc_rows
from lightrag_pchunk.integration.config import PSettings
from lightrag_pchunk.integration.decision import Decision, LoadedBlocks, Strategy, load_blocks
from lightrag_pchunk.integration.formats import PLAIN_TEXT, ParseFunction
from lightrag_pchunk.integration.lightrag_r import lightrag_r
from lightrag_pchunk.integration.request import Request
from lightrag_pchunk.integration.rows import block_sidecar, chunks_to_rows
from lightrag_pchunk.integration.settings import Settings, resolve
from lightrag_pchunk.integration.strategy import decide, with_blocks, with_text
from lightrag_pchunk.model import Block, BlockRow, Chunk, Thresholds
from lightrag_pchunk.parse.source_checks import unreadable_source
from lightrag_pchunk.tokens import TokenCounter, TokenizerLike
from lightrag_pchunk.wording import counted

logger = logging.getLogger("lightrag.pchunk")

#: The file a parse is reading: every warning logged meanwhile names it (the parsers log
#: what they find without knowing which file their caller gave them).
_PARSING: ContextVar[str | None] = ContextVar("lightrag_pchunk_parsing", default=None)


class _NamesTheFile(logging.Filter):
    """Prefixes a warning logged during :func:`read` with the name of the file parsed (the
    parsers' own warnings are logged by :func:`read`, named; this names any other)."""

    def filter(self, record: logging.LogRecord) -> bool:
        name = _PARSING.get()
        if name is not None and record.levelno >= logging.WARNING:
            prefix = name.replace("%", "%%") if record.args else name
            record.msg = f"{prefix}: {record.msg}"
        return True


logger.addFilter(_NamesTheFile())


class ChunkOverCapError(RuntimeError):
    """A P chunk is over chunk_token_size: the stages failed to keep the cap (a bug)."""


@dataclass(frozen=True, slots=True)
class Source:
    """A source file as its parser read it: its text, the parser's warnings and the
    parser's ``ParsedDocument`` (None for text read as written)."""

    content: str
    warnings: tuple[str, ...] = ()
    parsed: Any = None


@dataclass(frozen=True, slots=True)
class Trace:
    """What :func:`run` did with P, for ``inspect``: the rows it chunked (after the settings'
    drops) and every stage's output, ``(name, blocks)`` from stage A to merge."""

    rows: tuple[BlockRow, ...]
    dropped_rows: int
    thresholds: Thresholds
    stages: tuple[tuple[str, tuple[Block, ...]], ...]
    chunks: tuple[Chunk, ...]


@dataclass(frozen=True, slots=True)
class Run:
    """One document through the front door: LightRAG's chunk rows, the decision they came
    from, the parse (when the run parsed the source), the trace."""

    rows: list[dict[str, Any]]
    decision: Decision
    source: Source | None = None
    trace: Trace | None = None
    lost: WordShortfall | None = None  # what P's chunks miss of its rows (None: R, unchecked)


def read(
    request: Request,
    settings: Settings,
    decision: Decision,
    parsed_dir: str | os.PathLike[str] | None,
    *,
    parse: ParseFunction | None = None,
    **options: Any,
) -> tuple[Decision, Source]:
    """Parse the request's source with the decided parser (``parse`` replaces it; extra
    ``options`` go to it), into ``parsed_dir`` (None: ``__parsed__`` beside the source);
    the decision completed with the blocks.

    Raises:
        DocumentParseError: the parser refuses the file.
        ValueError: a text file that is not UTF-8, or not a regular file.
    """
    path, fmt = request.source, decision.parser
    assert path is not None and fmt is not None  # decide() names a parser for a source
    if fmt is PLAIN_TEXT:
        problem = unreadable_source(path)  # (a parser checks its own): a FIFO blocks a read
        if problem is not None:
            raise ValueError(f"{path.name}: {problem[1]}")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"{path.name} is not UTF-8 text ({exc.reason})") from None
        return with_text(decision, text), Source(text)
    function = parse or fmt.parse_function()
    if settings.smart_heading_source != "default":  # else the parser's own default: auto
        options["smart_heading"] = settings.smart_heading
    naming = _PARSING.set(path.name)
    try:
        parsed = function(path, parsed_dir, doc_id=decision.doc_id, **options)
    finally:
        _PARSING.reset(naming)
    warnings = tuple(getattr(parsed, "warnings", ()))
    for warning in warnings:  # the parsers keep their warnings; each is logged here, once
        logger.warning("%s: %s", path.name, warning)
    if decision.blocks is None:
        blocks = load_blocks(parsed.blocks_path, f"{fmt.display} parser")
        decision = with_blocks(decision, blocks, settings.work_budget)
    return with_text(decision, parsed.content), Source(parsed.content, warnings, parsed)


def run(
    request: Request,
    tokenizer: TokenizerLike,
    *,
    settings: Settings | None = None,
    parsed_dir: str | os.PathLike[str] | None = None,
    trace: bool = False,
) -> Run:
    """The chunks of ``request``'s document: resolve (unless ``settings`` are given, resolved
    already), decide, read (a source file, into ``parsed_dir``; None: ``__parsed__`` beside
    it), then P over the blocks or R over the text (module doc); ``trace`` records what P
    did.

    Raises:
        ValueError: a bad setting (named with its source).
        DocumentParseError: the parser refuses the source file.
        ChunkOverCapError: (strict mode) a P chunk over the cap.
    """
    settings = resolve(request) if settings is None else settings
    decision = decide(request, settings)
    source = None
    if decision.parser is not None:
        decision, source = read(request, settings, decision, parsed_dir)
    content = request.content or (source.content if source is not None else "")
    blocks = decision.blocks
    if not content and blocks is not None:
        content = merged_text(blocks.rows)
    if content or blocks is None or blocks.usable or blocks.has_no_content:
        decision = with_text(decision, content)  # else the text is unknown: blocks unread
    decision.log(_lightrag_call_note(request, decision))
    if decision.strategy is Strategy.R:
        rows = lightrag_r(
            tokenizer,
            content,
            decision.r_size,
            decision.r_overlap,
            separators=None if decision.is_fallback else settings.r_separators,
        )
        rows = with_source_pages(rows, decision.blocks.rows if decision.blocks else (), content)
        return Run(rows, decision, source)
    rows, chunk_trace, lost = _run_p(tokenizer, content, decision, settings, trace)
    return Run(rows, decision, source, chunk_trace, lost)


def _lightrag_call_note(request: Request, decision: Decision) -> str:
    """What a user of LightRAG's legacy call may misread: LightRAG names the path that calls
    a custom ``chunking_func`` ``Chunking F(legacy)`` and logs the fixed-token sizes it
    passes, which P and R do not use (they read their own, as LightRAG's pipeline gives its
    P and R); and the call names no instance, so an unbound function reads no
    ``addon_params`` of one."""
    if request.lightrag_sizes is None or decision.is_empty:
        return ""
    note = ""
    if request.rag is None and request.addon_params is None and not request.follows_registration:
        note = (
            "this chunking_func is bound to no instance, so the addon_params given to"
            " LightRAG(...) are not read (the environment's settings apply): bind it,"
            " rag.chunking_func = lightrag_pchunk.chunking_func_for(rag); "
        )
    size, overlap = request.lightrag_sizes
    return note + (
        f"LightRAG's line 'Chunking F(legacy): size={size}, ..., overlap={overlap}' names the"
        f" fixed-token sizes it passes to every chunking_func: {decision.strategy} does not"
        " use them"
    )


def _run_p(
    tokenizer: TokenizerLike, content: str, decision: Decision, settings: Settings, trace: bool
) -> tuple[list[dict[str, Any]], Trace | None, WordShortfall | None]:
    p, blocks = decision.settings, decision.blocks
    assert p is not None and blocks is not None  # P always carries both
    label = decision.doc_id or "unknown"
    references = settings.references_tail_n, settings.references_headings
    rows = rows_to_chunk(blocks.rows, p, *references, label)
    ctx = Context.create(
        TokenCounter(tokenizer, ceiling=p.chunk_token_size),
        p.chunk_token_size,
        p.chunk_overlap_token_size,
        table_headers=blocks.table_headers,
        doc_id=label,
        table_text=p.table_text,
        keyed_rows=blocks.keyed_rows,
        fill=p.fill,
    )
    stages: list[tuple[str, tuple[Block, ...]]] = []

    def record(name: str, output: Sequence[Block]) -> None:
        stages.append((name, tuple(output)))

    try:
        chunks = chunk_rows(rows, ctx, observe=record if trace else None)
    except Exception as exc:
        if settings.strict:
            raise
        logger.error(
            "paragraph_semantic doc=%s: fallback to recursive_character: internal error %s: %s",
            label,
            type(exc).__name__,
            exc,
            exc_info=True,
        )
        size, overlap = p.chunk_token_size, p.chunk_overlap_token_size
        r_rows = lightrag_r(tokenizer, content, size, overlap, separators=None)
        return with_source_pages(r_rows, blocks.rows, content), None, None
    _check_cap(chunks, p.chunk_token_size, label, settings.strict)
    lost = _shortfall(blocks, rows, [chunk.content for chunk in chunks])
    if lost:
        logger.error(
            "paragraph_semantic doc=%s: the chunks lost %s of the blocks file %s",
            label,
            lost.describe(),
            blocks.path,
        )
    logger.info(
        "paragraph_semantic doc=%s blocks=%d chunks=%d size=%d overlap=%d encoded_chars=%d",
        label,
        len(rows),
        len(chunks),
        p.chunk_token_size,
        p.chunk_overlap_token_size,
        ctx.counter.stats.encoded_chars,
    )
    chunk_trace = None
    if trace:
        dropped = len(blocks.rows) - len(rows)
        chunk_trace = Trace(tuple(rows), dropped, ctx.thresholds, tuple(stages), tuple(chunks))
    return chunks_to_rows(chunks), chunk_trace, lost


def rows_to_chunk(
    rows: Sequence[BlockRow],
    settings: PSettings,
    references_tail_n: int,
    references_headings: Sequence[str],
    doc_id: str = "unknown",
) -> list[BlockRow]:
    """The content rows P chunks: all of them, less what a setting removes on purpose
    (``drop_toc``: tables of contents; ``drop_references``: reference sections)."""
    rows = list(rows)
    if settings.drop_toc:
        rows = drop_toc_rows(rows, doc_id=doc_id)
    if settings.drop_references:
        rows = drop_reference_rows(
            rows, tail_n=references_tail_n, prefixes=references_headings, doc_id=doc_id
        )
    return rows


def decision_shortfall(
    decision: Decision, settings: Settings, chunk_contents: Sequence[str]
) -> WordShortfall | None:
    """Words of the blocks file a P decision chunks that ``chunk_contents`` do not hold; None
    for a decision that is not P. The file's words are those of its ``"content"`` strings
    read as text (``blockfile/raw_text.py``: what the reader made of its lines cannot hide
    a loss), less the rows a setting drops on purpose (with the references window of
    ``settings``, the one the chunker read)."""
    blocks = decision.blocks
    if decision.strategy is not Strategy.P or decision.settings is None or not blocks:
        return None
    references = settings.references_tail_n, settings.references_headings
    kept = rows_to_chunk(blocks.rows, decision.settings, *references, decision.doc_id or "unknown")
    return _shortfall(blocks, kept, chunk_contents)


def _shortfall(
    blocks: LoadedBlocks, kept: Sequence[BlockRow], chunk_contents: Sequence[str]
) -> WordShortfall:
    """Words of ``blocks``' file, less the rows a setting drops (all but ``kept``), that
    ``chunk_contents`` do not hold."""
    if blocks.file_contents is None:
        return lost_words((row.content for row in kept), chunk_contents)
    expected = Counter(text for text in blocks.file_contents if text.strip())
    expected.subtract(Counter(row.content for row in blocks.rows))
    expected.update(row.content for row in kept)  # the file less the rows dropped on purpose
    return lost_words(expected.elements(), chunk_contents)


def _check_cap(chunks: Sequence[Chunk], size: int, label: str, strict: bool) -> None:
    """Stages B-D keep every chunk within the cap and stage E cuts nothing: a chunk over it
    is an error in strict mode, else logged and kept (LightRAG truncates it before
    embedding, which beats dropping the document's P chunks)."""
    oversized = over_cap(chunks, size)
    if not oversized:
        return
    message = (
        f"paragraph_semantic doc={label}: {counted(len(oversized), 'chunk')} over {size} tokens "
        f"(largest {max(c.tokens for c in oversized)}, heading {oversized[0].heading!r})"
    )
    if strict:
        raise ChunkOverCapError(message)
    logger.error(message)


def with_source_pages(
    r_rows: list[dict[str, Any]], source_rows: Sequence[BlockRow], content: str
) -> list[dict[str, Any]]:
    """R chunks of a document whose rows know their pages (a PDF), each with a ``sidecar``
    naming its rows and pages (found through its ``_source_span``, the characters of the
    document text it holds); other R chunks as they are."""
    if not source_rows or not has_pages(source_rows):
        return r_rows
    if "\n\n".join(row.content for row in source_rows) != (content or "").strip():
        return r_rows  # the text is not the rows' (edited since): spans would not match
    finder = PageFinder(source_rows)
    for row in r_rows:
        span = row.get("_source_span")
        if not isinstance(span, dict) or "sidecar" in row:
            continue
        start, end = span.get("start"), span.get("end")
        if not (isinstance(start, int) and isinstance(end, int) and end > start):
            continue
        block_ids = finder.block_ids(start, end)
        if block_ids:
            row["sidecar"] = block_sidecar(block_ids, finder.span_pages(start, end))
    return r_rows
