"""Which strategy a file gets, and with which P settings: the routing decision of this package.

A file is routed exactly as LightRAG 1.5.7 routes it (``routing.py``: LIGHTRAG_PARSER rules,
file-name hints); this module turns the route into P or R. P applies when the engine is
``native`` and LightRAG would hand the document to P or to the custom ``chunking_func``
(selector ``P``, ``C`` or none). LIGHTRAG_PARSER unset or empty means :data:`DEFAULT_RULES` here.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.config import PSettings, resolve_p_settings
from lightrag_pchunk.integration.engines import NATIVE
from lightrag_pchunk.integration.filename_hints import FilenameParserHintError
from lightrag_pchunk.integration.routing import (
    Directives,
    ParserRoutingConfigError,
    ParserRule,
    p_applies,
    parse_parser_rules,
    resolve_parser_directives,
)
from lightrag_pchunk.naming import UNKNOWN_SOURCE, split_hint

logger = logging.getLogger("lightrag.pchunk")

DEFAULT_RULES = "docx:native-P;md:native-P"
"""The routing used when LIGHTRAG_PARSER is unset or empty (LightRAG's own default sends
every file to ``legacy``, which a user of this package does not want): ``.docx`` and ``.md``
get P, every other file R (LightRAG's native engine does not read ``.markdown``)."""

#: Engines that write a ``.blocks.jsonl`` sidecar P can read.
SIDECAR_ENGINES = frozenset({"native", "mineru", "docling"})
#: Selectors under which LightRAG hands a document to ``chunking_func`` (none, or C).
_CHUNKING_FUNC_SELECTORS = (None, "C", "P")


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
    return rules or parse_parser_rules(DEFAULT_RULES, env=env, strict=False)


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


# --- routing -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Route:
    """What a document gets: P or R, the reason, and R's parameters when R was selected."""

    strategy: str  # "P" | "R"
    reason: str
    directives: Directives | None = None
    r_params: Mapping[str, Any] = field(default_factory=dict)


def route_file(
    file_name: str | os.PathLike[str],
    rules: list[ParserRule] | None = None,
    env: Mapping[str, str] | None = None,
) -> Route:
    """Route a file as LightRAG would, then decide P or R for this package.

    P applies when the route's engine is ``native`` and LightRAG would run P or the custom
    ``chunking_func`` for it: selector ``P``, ``C``, or none. So ``report.[-!].docx`` under
    ``docx:native-P`` still gets P (the hint's options replace the rule's wholesale, leaving
    no selector, and LightRAG then calls ``chunking_func``). An explicit ``F``, ``R`` or
    ``V`` (``x.[native-R].docx``), or another engine, gets R.

    Raises:
        FilenameParserHintError: the name carries a hint LightRAG would refuse.
    """
    env = os.environ if env is None else env
    rules = effective_rules(env, strict=False) if rules is None else rules
    directives = resolve_parser_directives(file_name, rules, env=env)
    opts = directives.options
    selector = opts.chunking if opts.explicit else None
    name = directives.file_name
    if directives.engine != NATIVE:
        return Route("R", p_applies(directives)[1], directives)
    if selector == "P":
        return Route("P", p_applies(directives)[1], directives)
    by = directives.source_text(directives.options_source)
    if selector == "C":
        return Route("P", f"{by} selects C (this package's chunker) for {name}", directives)
    if selector is None:
        engine_by = directives.source_text(directives.engine_source)
        return Route(
            "P",
            f"{name} goes to native ({engine_by}) with no chunking selector, so LightRAG "
            "calls chunking_func: P",
            directives,
        )
    return Route(
        "R",
        f"{by} selects {selector} for {name}",
        directives,
        directives.chunk_params.get(selector, {}),
    )


def route_from_context(context: Any) -> Route:
    """Trust LightRAG's own routing, recorded in its ``ChunkingContext``."""
    name = getattr(context, "file_path", None) or UNKNOWN_SOURCE
    engine = str(getattr(context, "parse_engine", None) or "").split("(")[0].strip().lower()
    options = str(getattr(context, "process_options", None) or "")
    selectors = [ch for ch in options if ch in "FRVPC"]
    selector = selectors[0] if selectors else None
    if selector not in _CHUNKING_FUNC_SELECTORS:
        return Route("R", f"process_options {options!r} select {selector} for {name}")
    if engine not in SIDECAR_ENGINES:
        return Route("R", f"LightRAG parsed {name} with the {engine or 'legacy'} engine: no blocks")
    return Route("P", f"LightRAG parsed {name} with {engine} (process_options {options!r})")


def route_by_name(name: str, rules: list[ParserRule], env: Mapping[str, str]) -> Route:
    """:func:`route_file`, ignoring (with a warning) a hint LightRAG would refuse."""
    try:
        return route_file(name, rules, env)
    except FilenameParserHintError as exc:
        # LightRAG's best-effort classifiers ignore a bad hint with a warning; so do we.
        logger.warning("paragraph_semantic ignoring file-name hint: %s", exc)
        return route_file(split_hint(Path(name).name)[0], rules, env)


# --- P settings --------------------------------------------------------------------------


def settings_to_json(settings: PSettings) -> dict[str, Any]:
    """A PSettings as the registry stores it."""
    return {
        "chunk_token_size": settings.chunk_token_size,
        "chunk_overlap_token_size": settings.chunk_overlap_token_size,
        "drop_references": settings.drop_references,
        "sources": dict(settings.sources),
    }


def settings_from_json(data: Mapping[str, Any]) -> PSettings:
    """The PSettings stored by :func:`settings_to_json`."""
    return PSettings(
        int(data["chunk_token_size"]),
        int(data["chunk_overlap_token_size"]),
        bool(data.get("drop_references", False)),
        dict(data.get("sources") or {}),
    )


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
