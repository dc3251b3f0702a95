"""P or R for one document, decided in one place: :func:`decide` returns a typed
:class:`Decision` (the strategy, the reason, the blocks, the settings).

Two inputs make the decision. The **route**: where LightRAG would send the file
(``routing.py``: LIGHTRAG_PARSER rules, file-name hints; unset here means
:data:`DEFAULT_RULES`), or what LightRAG already decided (its ``ChunkingContext``, or its own P
dispatch). P applies when the engine writes blocks we read (``native``, ``pchunk``) and
LightRAG would hand the document to P or to the custom ``chunking_func`` (selector ``P``,
``C`` or none). The **blocks**: a P route without a readable blocks file with content rows
gets LightRAG's recursive-character chunker at P's size instead (spec §10), with the reason.

``chunking_func``, ``ainsert_files``, the LightRAG-facing P chunker, ``inspect`` and the log
line all read the same :class:`Decision`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

from lightrag_pchunk.blockfile.jsonl import find_blocks_file, read_blocks
from lightrag_pchunk.blockfile.sidecars import read_table_items
from lightrag_pchunk.errors import BlockFileError
from lightrag_pchunk.integration.config import (
    DEFAULT_OVERLAP,
    DEFAULT_P_SIZE,
    PSettings,
    resolve_p_settings,
)
from lightrag_pchunk.integration.engines import P_ENGINES
from lightrag_pchunk.integration.filename_hints import FilenameParserHintError
from lightrag_pchunk.integration.params import (
    CUSTOM,
    PARAGRAPH_SEMANTIC,
    RECURSIVE_CHARACTER,
    SELECTOR_CHARS,
)
from lightrag_pchunk.integration.routing import (
    Directives,
    ParserRoutingConfigError,
    ParserRule,
    p_applies,
    parse_parser_rules,
    resolve_parser_directives,
)
from lightrag_pchunk.model import BlockRow
from lightrag_pchunk.naming import UNKNOWN_SOURCE, split_hint

logger = logging.getLogger("lightrag.pchunk")

DEFAULT_RULES = "docx:native-P;md:native-P"
"""The routing used when LIGHTRAG_PARSER is unset or empty (LightRAG's own default sends
every file to ``legacy``, which a user of this package does not want): ``.docx`` and ``.md``
get P, every other file R (LightRAG's native engine does not read ``.markdown``)."""

#: Engines that write a ``.blocks.jsonl`` sidecar P can read (LightRAG's context routing).
SIDECAR_ENGINES = P_ENGINES | {"mineru", "docling"}
#: Selectors under which LightRAG hands a document to ``chunking_func`` (none, or C) or P.
_P_SELECTORS = (None, CUSTOM, PARAGRAPH_SEMANTIC)


class Strategy(str, Enum):
    """The chunker a document gets; the values are LightRAG's selector letters."""

    P = PARAGRAPH_SEMANTIC
    """Paragraph Semantic: this package's chunker over the document's blocks."""
    R = RECURSIVE_CHARACTER
    """LightRAG's recursive-character chunker over the document's text."""

    def __str__(self) -> str:
        return self.value

    __format__ = str.__format__


# --- configuration -----------------------------------------------------------------------


def effective_rules(
    env: Mapping[str, str] | None = None, *, strict: bool = True
) -> list[ParserRule]:
    """LIGHTRAG_PARSER's rules, or :data:`DEFAULT_RULES` when it is unset or empty.

    Raises:
        ParserRoutingConfigError: (strict) a rule is invalid; the message names it.
    """
    env = os.environ if env is None else env
    text = (env.get("LIGHTRAG_PARSER") or "").strip()
    rules = parse_parser_rules(text, env=env, strict=strict) if text else []
    if rules:
        return rules
    # Numbered 0: not a rule of LIGHTRAG_PARSER, and reasons say so.
    return [replace(r, index=0) for r in parse_parser_rules(DEFAULT_RULES, env=env, strict=False)]


def check_config(env: Mapping[str, str] | None = None) -> list[ParserRule]:
    """Validate LIGHTRAG_PARSER and the CHUNK_P_* variables now (call it at start-up).

    Returns the effective routing rules.

    Raises:
        ParserRoutingConfigError: an invalid rule, named with its position and text.
        ValueError: a bad CHUNK_P_SIZE / CHUNK_P_OVERLAP_SIZE / CHUNK_OVERLAP_SIZE /
            CHUNK_P_DROP_REFERENCES value, naming the variable.
    """
    env = os.environ if env is None else env
    rules = effective_rules(env, strict=True)
    resolve_p_settings(env=env)
    return rules


def runtime_rules(env: Mapping[str, str]) -> list[ParserRule]:
    """Rules read at chunk time: never fail a document for a config error (as LightRAG)."""
    try:
        return effective_rules(env, strict=True)
    except ParserRoutingConfigError as exc:
        logger.warning(
            "paragraph_semantic %s; routing it best-effort (call lightrag_pchunk.check_config() "
            "at start-up to refuse it instead)",
            exc,
        )
        return effective_rules(env, strict=False)


# --- routes ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Route:
    """Where routing sends a document: P or R and why, before its blocks are looked at."""

    strategy: Strategy
    reason: str
    directives: Directives | None = None
    r_params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def engine_params(self) -> Mapping[str, Any]:
        """The route's ``engine(...)`` parameters (e.g. ``smart_heading``) for the parser."""
        return self.directives.engine_params if self.directives is not None else {}


def route_file(
    file_name: str | os.PathLike[str],
    rules: list[ParserRule] | None = None,
    env: Mapping[str, str] | None = None,
) -> Route:
    """Route a file as LightRAG would, then say P or R for this package.

    P applies when the route's engine writes blocks we read (``native``, ``pchunk``) and
    LightRAG would run P or the custom ``chunking_func`` for it: selector ``P``, ``C``, or
    none. So ``report.[-!].docx`` under ``docx:native-P`` still gets P (the hint's options
    replace the rule's wholesale, leaving no selector, and LightRAG then calls
    ``chunking_func``). An explicit ``F``, ``R`` or ``V`` (``x.[native-R].docx``), or
    another engine, gets R.

    Raises:
        FilenameParserHintError: the name carries a hint LightRAG would refuse.
    """
    env = os.environ if env is None else env
    rules = effective_rules(env, strict=False) if rules is None else rules
    directives = resolve_parser_directives(file_name, rules, env=env)
    opts = directives.options
    selector = opts.chunking if opts.explicit else None
    name = directives.file_name
    if directives.engine not in P_ENGINES:
        return Route(Strategy.R, p_applies(directives)[1], directives)
    if selector == PARAGRAPH_SEMANTIC:
        return Route(Strategy.P, p_applies(directives)[1], directives)
    by = directives.source_text(directives.options_source)
    if selector == CUSTOM:
        return Route(Strategy.P, f"{by} selects C (this package's chunker) for {name}", directives)
    if selector is None:
        engine_by = directives.source_text(directives.engine_source)
        return Route(
            Strategy.P,
            f"{name} goes to {directives.engine} ({engine_by}) with no chunking selector, so "
            "LightRAG calls chunking_func: P",
            directives,
        )
    return Route(
        Strategy.R,
        f"{by} selects {selector} for {name}",
        directives,
        directives.chunk_params.get(selector, {}),
    )


def route_from_context(context: Any) -> Route:
    """Trust LightRAG's own routing, recorded in its ``ChunkingContext``."""
    name = getattr(context, "file_path", None) or UNKNOWN_SOURCE
    engine = str(getattr(context, "parse_engine", None) or "").split("(")[0].strip().lower()
    options = str(getattr(context, "process_options", None) or "")
    selectors = [ch for ch in options if ch in SELECTOR_CHARS]
    selector = selectors[0] if selectors else None
    if selector not in _P_SELECTORS:
        return Route(Strategy.R, f"process_options {options!r} select {selector} for {name}")
    if engine not in SIDECAR_ENGINES:
        return Route(
            Strategy.R, f"LightRAG parsed {name} with the {engine or 'legacy'} engine: no blocks"
        )
    return Route(Strategy.P, f"LightRAG parsed {name} with {engine} (process_options {options!r})")


def route_by_name(name: str, rules: list[ParserRule], env: Mapping[str, str]) -> Route:
    """:func:`route_file`, ignoring (with a warning) a hint LightRAG would refuse."""
    try:
        return route_file(name, rules, env)
    except FilenameParserHintError as exc:
        # LightRAG's best-effort classifiers ignore a bad hint with a warning; so do we.
        logger.warning("paragraph_semantic ignoring file-name hint: %s", exc)
        return route_file(split_hint(Path(name).name)[0], rules, env)


# --- blocks ------------------------------------------------------------------------------


@dataclass(slots=True)
class LoadedBlocks:
    """The content rows of a blocks file, or the reason P cannot use them."""

    rows: list[BlockRow] = field(default_factory=list)
    table_headers: dict[str, str] = field(default_factory=dict)
    path: Path | None = None
    source: str = ""  # where the path came from: "registry", "context.sidecar_location", ...
    problem: str | None = None
    keyed_rows: dict[str, str] = field(default_factory=dict)  # table id -> keyed rows JSON

    @property
    def usable(self) -> bool:
        """True when P can chunk these rows."""
        return self.problem is None


def load_blocks(
    blocks_path: str | os.PathLike[str] | None, source: str = "blocks_path"
) -> LoadedBlocks:
    """Find and read a document's blocks (a ``.blocks.jsonl`` or its ``.parsed/`` folder)."""
    if blocks_path is None or not str(blocks_path).strip():
        return LoadedBlocks(source=source, problem=f"no {source} given")
    found = find_blocks_file(str(blocks_path).strip())
    if found is None:
        return LoadedBlocks(source=source, problem=f"blocks file not found at {blocks_path}")
    try:
        blocks = read_blocks(found)  # positions: the pages of a PDF's chunks
    except BlockFileError as exc:
        return LoadedBlocks(path=found, source=source, problem=str(exc))
    return blocks_of(blocks.rows, found, source, read_table_items)


def blocks_of(
    rows: Sequence[BlockRow],
    path: Path,
    source: str,
    read_sidecar_tables: Callable[[Path], tuple[dict[str, str], dict[str, str]]] | None = None,
) -> LoadedBlocks:
    """The content rows of ``rows`` (a parse just made, or a file just read) as P's input;
    ``read_sidecar_tables`` reads the table headers and keyed rows only when there is
    something to chunk."""
    content = [row for row in rows if row.content.strip()]
    if not content:
        return LoadedBlocks(path=path, source=source, problem=f"{path} has no content rows")
    headers, keyed = read_sidecar_tables(path) if read_sidecar_tables is not None else ({}, {})
    return LoadedBlocks(content, headers, path, source, keyed_rows=keyed)


def no_blocks(why: str) -> LoadedBlocks:
    """No blocks for a document, and why (``decide`` turns a P route into R with it)."""
    return LoadedBlocks(source="none", problem=why)


# --- the decision ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    """What a document gets, and why: the one answer every caller reads.

    ``strategy`` is P only with usable ``blocks`` and ``settings``. R carries the sizes it
    runs at: the route's ``R(...)`` block or LightRAG's, or P's own size when a P route
    had no usable blocks (``is_fallback``).
    """

    strategy: Strategy
    reason: str
    blocks: LoadedBlocks
    settings: PSettings | None
    r_size: int
    r_overlap: int
    is_fallback: bool = False
    engine_params: Mapping[str, Any] = field(default_factory=dict)
    file_name: str | None = None
    doc_id: str | None = None

    @property
    def blocks_path(self) -> Path | None:
        """The blocks file P reads (None when there is none)."""
        return self.blocks.path

    def describe(self) -> str:
        """The decision in words, as the log line and ``inspect`` print it."""
        if self.strategy is Strategy.P:
            assert self.settings is not None
            return (
                f"P ({self.reason}); blocks {self.blocks.path} (from {self.blocks.source}); "
                f"{self.settings.describe()}"
            )
        sizes = f"chunk_token_size={self.r_size} overlap={self.r_overlap}"
        if self.is_fallback:
            return f"fallback to recursive_character: {self.reason}; {sizes}"
        return f"recursive_character, P does not apply: {self.reason}; {sizes}"

    def log(self) -> None:
        """The one log line of this decision (WARNING for a fallback, else INFO)."""
        log = logger.warning if self.is_fallback else logger.info
        log(
            "paragraph_semantic doc=%s file=%s: %s",
            self.doc_id or "unknown",
            self.file_name,
            self.describe(),
        )


def decide(
    route: Route,
    blocks: LoadedBlocks,
    *,
    settings: PSettings | None = None,
    r_sizes: tuple[int, int] = (DEFAULT_P_SIZE, DEFAULT_OVERLAP),
    addon_params: Mapping[str, Any] | None = None,
    rag: Any = None,
    env: Mapping[str, str] | None = None,
    file_name: str | None = None,
    doc_id: str | None = None,
) -> Decision:
    """P or R for one document (see the module docstring).

    ``settings`` are P settings frozen earlier (a registration, LightRAG's own snapshot);
    without them a P route's settings are resolved now from its ``P(...)`` block,
    ``addon_params`` (else ``rag.addon_params``), the environment and ``rag``'s overlap.
    ``r_sizes`` are the R size and overlap when the route selects R without its own
    ``R(...)`` block (LightRAG's positional sizes).

    Raises:
        ValueError: a bad P setting (naming it and where it came from).
    """
    common = {"engine_params": route.engine_params, "file_name": file_name, "doc_id": doc_id}
    if route.strategy is Strategy.R:
        size = int(route.r_params.get("chunk_token_size", r_sizes[0]))
        overlap = int(route.r_params.get("chunk_overlap_token_size", r_sizes[1]))
        size = max(size, 1)
        overlap = min(max(overlap, 0), size - 1)
        return Decision(Strategy.R, route.reason, blocks, None, size, overlap, **common)
    if settings is None:
        settings = resolve_document_settings(route, addon_params=addon_params, rag=rag, env=env)
    p_size, p_overlap = settings.chunk_token_size, settings.chunk_overlap_token_size
    if not blocks.usable:
        reason = f"{blocks.problem} (P was selected: {route.reason})"
        return Decision(
            Strategy.R, reason, blocks, settings, p_size, p_overlap, is_fallback=True, **common
        )
    return Decision(Strategy.P, route.reason, blocks, settings, p_size, p_overlap, **common)


def resolve_document_settings(
    route: Route,
    *,
    addon_params: Mapping[str, Any] | None,
    rag: Any = None,
    env: Mapping[str, str] | None = None,
) -> PSettings:
    """P settings for one document with LightRAG's precedence (config.resolve_p_settings)."""
    if addon_params is None and rag is not None:
        addon_params = getattr(rag, "addon_params", None)
    overlap = getattr(rag, "chunk_overlap_token_size", None) if rag is not None else None
    return resolve_p_settings(
        addon_params=addon_params,
        env=env,
        constructor_overlap=overlap if isinstance(overlap, int) else None,
        rule_params=route.directives,
    )
