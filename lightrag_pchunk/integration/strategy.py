"""P or R for one document, which parser reads it, and why: :func:`decide`, in one place.

Every entrance asks here (``chunking_func``, LightRAG's P call, the ``pchunk`` engine,
``ainsert_files``, ``register_document``, the commands, ``eval``), through the front door
(``front_door.py``). :func:`decide` reads, in order:

1. **The route**: where the document is sent before anyone looks at its blocks. A
   registered text keeps the route of its registration; LightRAG's own P call is P; a file
   name is routed as LightRAG routes it (LIGHTRAG_PARSER, file-name hints, our
   :data:`settings.DEFAULT_RULES` when unset: every format we parse to ``pchunk-P``): P
   when the engine writes blocks we read (``native``, ``pchunk``) and LightRAG would hand
   the document to P or to the custom ``chunking_func`` (selector ``P``, ``C`` or none);
   LightRAG's ``ChunkingContext`` says which engine parsed it; blocks given without a name
   get P; nothing at all gets R.
2. **The parser**, when the entrance brings a file to parse: ours for its format
   (``formats.py``) when the route's engine is ours or LightRAG's native one; for another
   engine, ours for its text only, or a text format as written (LightRAG's ``legacy``).
3. **The blocks** (:func:`with_blocks`, once a parse or a file gives them): P needs a
   readable blocks file with content rows, within the work budget, else the document gets
   LightRAG's recursive-character chunker at P's size (docs/strategy.md §10), with the reason.
4. **The text** (:func:`with_text`): a document without text is empty, whatever the rest
   says: no chunks.
"""

from __future__ import annotations

import urllib.parse
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

from lightrag.parser.routing import normalize_parser_engine, parse_process_options

from lightrag_pchunk.integration.decision import (
    NO_TEXT,
    Decision,
    LoadedBlocks,
    Strategy,
    has_text,
    load_blocks,
    no_blocks,
)
from lightrag_pchunk.integration.formats import (
    PLAIN_TEXT,
    TEXT_SUFFIXES,
    Format,
    describe_formats,
    format_for,
)
from lightrag_pchunk.integration.lightrag_routing import P_ENGINES
from lightrag_pchunk.integration.params import (
    CUSTOM,
    FIXED_TOKEN,
    PARAGRAPH_SEMANTIC,
)
from lightrag_pchunk.integration.request import EVAL, LIGHTRAG_P, PCHUNK_ENGINE, Request
from lightrag_pchunk.integration.routing import Directives
from lightrag_pchunk.integration.settings import Settings
from lightrag_pchunk.naming import UNKNOWN_SOURCE
from lightrag_pchunk.work_budget import WorkBudget, text_lines

#: Engines that write a ``.blocks.jsonl`` sidecar P can read (LightRAG's context routing).
SIDECAR_ENGINES = P_ENGINES | {"mineru", "docling"}
#: Selectors under which LightRAG hands a document to ``chunking_func`` (none, or C) or P.
_P_SELECTORS = (None, CUSTOM, PARAGRAPH_SEMANTIC)
#: Entrances that ask for P themselves (LightRAG routed the document already, or ``eval``
#: measures ours), and the reason they give.
_ASKING_FOR_P = {
    LIGHTRAG_P: "P called through LightRAG's file-chunker contract",
    PCHUNK_ENGINE: "LightRAG's pipeline parses it with the pchunk engine",
    EVAL: "the evaluation's contender P (ours)",
}


class UnsupportedFormatError(ValueError):
    """A file no parser of ours reads and that is not text."""


def decide(request: Request, settings: Settings) -> Decision:
    """P or R for ``request``'s document, which parser reads it, and why (module doc).

    The decision of a file still to parse names its parser and has no blocks yet: the
    parse completes it (:func:`with_blocks`), and the document's text (:func:`with_text`).

    Raises:
        UnsupportedFormatError: a file to parse that no parser of ours reads and is not text.
    """
    strategy, reason = _route(request, settings)
    p = settings.p
    if strategy is Strategy.P:
        assert p is not None  # only a text registered for R has no P settings
        r_size, r_overlap = p.chunk_token_size, p.chunk_overlap_token_size
    else:
        r_size, r_overlap = settings.r_size, settings.r_overlap
    directives = settings.directives
    plan = Decision(
        strategy=strategy,
        reason=reason,
        blocks=None,
        settings=p,
        r_size=r_size,
        r_overlap=r_overlap,
        file_name=_name(request),
        doc_id=_doc_id(request),
    )
    if request.source is not None:
        parser, blocks_why = _parser(request.source, directives)
        plan = replace(plan, parser=parser)
        return plan if blocks_why is None else with_blocks(plan, no_blocks(blocks_why))
    blocks = _blocks(request)
    if plan.doc_id is None and blocks.meta:
        plan = replace(plan, doc_id=blocks.meta.get("doc_id"))
    return with_blocks(plan, blocks, settings.work_budget)


# --- 1. the route -------------------------------------------------------------------------


def _route(request: Request, settings: Settings) -> tuple[Strategy, str]:
    entry = request.entry
    if request.follows_registration:
        assert entry is not None
        return entry.strategy, entry.reason
    if request.entrance in _ASKING_FOR_P:
        return Strategy.P, _ASKING_FOR_P[request.entrance]
    if settings.directives is not None:
        return route_by_name(settings.directives)
    if request.context is not None:
        return _route_by_context(request.context)
    if request.blocks is not None:
        return Strategy.P, f"blocks given as {request.blocks_source}"
    return Strategy.R, "no file name and no blocks for this text"


def route_by_name(directives: Directives) -> tuple[Strategy, str]:
    """P or R for a file LightRAG routes as ``directives`` say, and why: P when the engine
    writes blocks we read (``native``, ``pchunk``) and LightRAG hands the document to P
    (selector ``P``) or to ``chunking_func`` (selector ``C`` or none).

    ``report.[-!].docx`` under ``docx:native-P`` still gets P: the hint's options replace
    the rule's wholesale, leaving no selector, and LightRAG then calls ``chunking_func``. An
    explicit ``F``, ``R`` or ``V`` (``x.[native-R].docx``), or another engine, gets R.
    """
    options = directives.options
    selector = options.chunking if options.chunking_explicit else None
    name, engine = directives.file_name, directives.engine
    engine_by = directives.source_text(directives.engine_source)
    by = directives.source_text(directives.options_source)
    if engine not in P_ENGINES:
        route = f"{engine}/{options.chunking if options.chunking_explicit else FIXED_TOKEN}"
        if directives.engine_source == "hint":
            return Strategy.R, f"{engine_by} routes {name} to {route}"
        if directives.rule is not None and directives.engine_source != "default":
            return Strategy.R, f"LIGHTRAG_PARSER routes {name} to {route} ({directives.rule.label})"
        if not directives.rules_set:
            return Strategy.R, (
                f"LIGHTRAG_PARSER unset and no default rule for {name}: "
                f"LightRAG's default route {route}"
            )
        return Strategy.R, f"no usable LIGHTRAG_PARSER rule for {name}: default route {route}"
    if selector == PARAGRAPH_SEMANTIC:
        if engine_by == by:
            return Strategy.P, f"{name} goes to {engine}/P ({engine_by})"
        return Strategy.P, f"{name} goes to {engine}/P (engine: {engine_by}; P: {by})"
    if selector == CUSTOM:
        return Strategy.P, f"{by} selects C (this package's chunker) for {name}"
    if selector is None:
        return Strategy.P, (
            f"{name} goes to {engine} ({engine_by}) with no chunking selector, so "
            "LightRAG calls chunking_func: P"
        )
    return Strategy.R, f"{by} selects {selector} for {name}"


def _route_by_context(context: Any) -> tuple[Strategy, str]:
    """Trust LightRAG's own routing, recorded in its ``ChunkingContext``."""
    name = getattr(context, "file_path", None) or UNKNOWN_SOURCE
    engine = normalize_parser_engine(getattr(context, "parse_engine", None))
    options = str(getattr(context, "process_options", None) or "")
    decoded = parse_process_options(options)
    selector = decoded.chunking if decoded.chunking_explicit else None
    if selector not in _P_SELECTORS:
        return Strategy.R, f"process_options {options!r} select {selector} for {name}"
    if engine not in SIDECAR_ENGINES:
        return Strategy.R, f"LightRAG parsed {name} with the {engine or 'legacy'} engine: no blocks"
    return Strategy.P, f"LightRAG parsed {name} with {engine} (process_options {options!r})"


# --- 2. the parser ------------------------------------------------------------------------


def _parser(source: Path, directives: Directives | None) -> tuple[Format, str | None]:
    """The format that reads ``source``, and why its parse gives P no blocks (None: it does)."""
    fmt = format_for(source)
    engine = directives.engine if directives is not None else None
    if fmt is not None and (engine is None or engine in P_ENGINES):
        return fmt, None
    why = f"the {engine} engine writes no blocks we read"
    if fmt is not None and not fmt.is_text:
        # LightRAG's legacy extractor only concatenates paragraphs: our parse's text is better.
        return fmt, why
    if fmt is not None or source.suffix.lower().lstrip(".") in TEXT_SUFFIXES:
        return PLAIN_TEXT, why
    raise UnsupportedFormatError(
        f"cannot read .{source.suffix.lower().lstrip('.') or '(no suffix)'} files: "
        f"lightrag-pchunk parses {describe_formats('and')} files and reads UTF-8 text files; "
        "insert other formats through LightRAG's own server"
    )


# --- 3. the blocks ------------------------------------------------------------------------


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


def _blocks(request: Request) -> LoadedBlocks:
    """The document's blocks, from the first place that names them: given directly,
    LightRAG's ``context.sidecar_location``, the text's registration."""
    if request.entrance in _ASKING_FOR_P or (
        request.blocks is not None and str(request.blocks).strip()
    ):
        return load_blocks(request.blocks, request.blocks_source)
    location = getattr(request.context, "sidecar_location", None)
    folder = sidecar_directory(location)
    if folder is not None:
        loaded = load_blocks(folder, "context.sidecar_location")
        if loaded.path is None:
            loaded.problem = f"no *.blocks.jsonl in {location}"
        return loaded
    entry = request.entry
    if entry is not None:
        if entry.blocks_path is None:
            return no_blocks(f"{entry.source_name} was registered without blocks")
        return load_blocks(entry.blocks_path, "registry")
    where = "" if request.rag is not None else " in a registry this process opened"
    unbound = (
        ""
        if request.rag is not None
        else "; a text registered by another process is found by the chunking function "
        "bound to its instance: rag.chunking_func = lightrag_pchunk.chunking_func_for(rag)"
    )
    return no_blocks(
        "no blocks for this text: no lightrag_document_path, no LightRAG sidecar, and the "
        f"text is not registered{where} (insert documents with lightrag_pchunk.ainsert_files"
        f"){unbound}"
    )


def with_blocks(
    decision: Decision, blocks: LoadedBlocks, budget: WorkBudget | None = None
) -> Decision:
    """``decision`` once the blocks are known: P needs usable ones within ``budget`` (what
    P may be asked to do for one document: another parser's blocks file may hold millions
    of blocks), else R at P's size with the reason (docs/strategy.md §10)."""
    if decision.strategy is Strategy.P and blocks.usable and budget is not None:
        lines = sum(text_lines(row.content) for row in blocks.rows)
        excess = budget.excess(len(blocks.rows), lines)
        if excess is not None:
            blocks = replace(blocks, problem=f"over P's work budget: {excess}")
    if decision.strategy is not Strategy.P or blocks.usable:
        return replace(decision, blocks=blocks)
    return replace(
        decision,
        strategy=Strategy.R,
        reason=f"{blocks.problem} (P was selected: {decision.reason})",
        blocks=blocks,
        is_fallback=True,
    )


# --- 4. the text --------------------------------------------------------------------------


def with_text(decision: Decision, content: str) -> Decision:
    """``decision`` once the document's text is known: a document without text is empty,
    whatever was decided (nothing to chunk: R over no text makes no chunk)."""
    if has_text(content):
        return decision
    return replace(decision, strategy=Strategy.R, reason=NO_TEXT, is_fallback=False, is_empty=True)


# --- names --------------------------------------------------------------------------------


def _name(request: Request) -> str | None:
    entry = request.entry
    if request.file_name:
        return request.file_name
    if entry is not None:
        return entry.source_name
    if request.source is not None:
        return request.source.name
    return getattr(request.context, "file_path", None)


def _doc_id(request: Request) -> str | None:
    entry = request.entry
    return (
        request.doc_id
        or getattr(request.context, "doc_id", None)
        or (entry.doc_id if entry is not None else None)
    )
