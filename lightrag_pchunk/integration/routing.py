"""LIGHTRAG_PARSER rules and ``name.[engine-OPTIONS].ext`` hints -> engine, options, parameters.

Resolves a file the way LightRAG 1.5.7 does, so our P chunker runs for exactly the files
LightRAG would send to P, and records what LightRAG's resolver does not return: which setting
decided each part (the hint, rule N, the default), for reasons and log lines. The grammar is
LightRAG's own (``lightrag.parser.routing`` and ``param_schema``): rules are validated by its
start-up check, with its messages; hints are read by its functions (``filename_hints.py``);
parameter blocks, options and engines are parsed and checked by its functions. What is ours:
taking a rule apart (``params.strip_param_blocks``), the order of precedence with the source
of each part, and ``DOCX_SMART_HEADING=auto``. Every environment read goes through an ``env``
mapping (``lightrag_routing.lightrag_reads``).
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lightrag.parser.param_schema import parse_engine_params, split_top_level
from lightrag.parser.routing import (
    ParserRoutingConfigError,
    ProcessOptions,
    normalize_parser_engine,
    parse_process_options,
    parser_suffix,
    sanitize_process_options,
    validate_parser_routing_config,
    validate_parser_suffix_env_vars,
)

from lightrag_pchunk.integration.filename_hints import (
    FilenameHint,
    split_filename_hint,
    validate_filename_hint,
)
from lightrag_pchunk.integration.formats import SMART_HEADING_ENV
from lightrag_pchunk.integration.lightrag_routing import (
    LEGACY,
    NATIVE,
    engine_is_usable,
    lightrag_reads,
)
from lightrag_pchunk.integration.params import (
    PARAGRAPH_SEMANTIC,
    parse_chunk_blocks,
    strip_param_blocks,
)
from lightrag_pchunk.parse.outline_build import SmartHeading

# .textpack has no other engine, so LightRAG routes it to native without a rule.
_DEFAULT_ENGINE_BY_SUFFIX = {"textpack": NATIVE}


def validate_suffix_variables(env: Mapping[str, str] | None = None) -> None:
    """Refuse malformed ``*_ADDITIONAL_SUFFIXES`` entries (LightRAG's start-up check)."""
    with lightrag_reads(env):
        validate_parser_suffix_env_vars()


def smart_heading_default(env: Mapping[str, str] | None = None) -> bool:
    """``DOCX_SMART_HEADING`` is true: the lowest-precedence ``native(smart_heading=true)``
    for .docx, as LightRAG seeds it (``auto``, ours, seeds nothing: the parser decides).

    Raises:
        ParserRoutingConfigError: a value other than true, false or auto.
    """
    env = os.environ if env is None else env
    try:
        mode = SmartHeading.parse(env.get(SMART_HEADING_ENV), name=f"{SMART_HEADING_ENV} (env)")
    except ValueError as exc:
        raise ParserRoutingConfigError(str(exc)) from None
    return mode is SmartHeading.ON


# --- LIGHTRAG_PARSER rules -------------------------------------------------------------


@dataclass(frozen=True)
class ParserRule:
    """One ``suffix-pattern:engine(params)-OPTIONS(params)`` rule, taken apart."""

    index: int  # 1-based position in LIGHTRAG_PARSER, counted as LightRAG counts (empty items too)
    text: str  # the rule as written, stripped
    pattern: str  # lower-case fnmatch pattern over the suffix without dot
    engine: str
    options: str  # as written after the first '-', stripped; see process_options
    engine_params: dict[str, Any] = field(default_factory=dict)
    chunk_params: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """How LightRAG names the rule in messages: ``rule 1 ('docx:native-P')``."""
        return f"rule {self.index} ({self.text!r})"

    @property
    def process_options(self) -> str:
        """The options as LightRAG stores them (option characters only)."""
        return sanitize_process_options(self.options)

    def matches(self, suffix: str) -> bool:
        """Whether the pattern matches a file suffix (lower-case, no dot)."""
        return fnmatch.fnmatch(suffix, self.pattern)


def _read_rule(index: int, item: str) -> ParserRule | None:
    """A rule's parts as LightRAG reads them at run time: a broken parameter is left out
    (the start-up check reports it); None without ':'."""
    if ":" not in item:
        return None
    pattern, spec = item.split(":", 1)
    stripped = strip_param_blocks(spec.strip())
    head, _, tail = stripped.text.partition("-")
    engine = normalize_parser_engine(head)
    label = f"rule {item!r}"
    engine_params: dict[str, Any] = {}
    if stripped.engine_block is not None:
        engine_params = parse_engine_params(stripped.engine_block, engine=engine, label=label)[0]
    chunk_params = parse_chunk_blocks(stripped.chunk_blocks, label)
    return ParserRule(
        index, item, pattern.strip().lower(), engine, tail.strip(), engine_params, chunk_params
    )


def parse_parser_rules(
    text: str | None, *, env: Mapping[str, str] | None = None, strict: bool = True
) -> list[ParserRule]:
    """Parse LIGHTRAG_PARSER; strict: validate as LightRAG does at server start.

    ``strict=False`` reads it as LightRAG's resolver does at run time instead: an item
    without ':' is dropped, a broken parameter is left out, and nothing is raised (an
    unusable rule is then skipped by the resolver).

    Raises:
        ParserRoutingConfigError: (strict) every problem of every rule, in LightRAG's words.
    """
    text = (text or "").strip()
    with lightrag_reads(env):
        if strict:
            validate_parser_routing_config(text)
        items = enumerate(split_top_level(text, ";,"), start=1)
        rules = [_read_rule(index, item.strip()) for index, item in items if item.strip()]
    return [rule for rule in rules if rule is not None]


def read_parser_rules(
    env: Mapping[str, str] | None = None, *, strict: bool = True
) -> list[ParserRule]:
    """The rules of ``LIGHTRAG_PARSER`` (unset or empty: no rules, so everything is legacy)."""
    env = os.environ if env is None else env
    return parse_parser_rules(env.get("LIGHTRAG_PARSER", ""), env=env, strict=strict)


# --- resolution ------------------------------------------------------------------------


@dataclass(frozen=True)
class Directives:
    """Where one file goes: engine, options, parameters, and which setting decided each."""

    file_name: str
    canonical_name: str
    engine: str
    process_options: str
    chunk_params: dict[str, dict[str, Any]]
    engine_params: dict[str, Any]
    engine_source: str  # "hint" | "rule N" | "default"
    options_source: str  # "hint" | "rule N" | "default"
    params_source: dict[str, dict[str, str]]  # selector -> parameter -> "hint" | "rule N"
    hint: FilenameHint | None = None
    rule: ParserRule | None = None  # the first usable rule, if any
    #: Whether LIGHTRAG_PARSER gave the rules (not the package's defaults, numbered 0).
    rules_set: bool = True

    @property
    def options(self) -> ProcessOptions:
        """The decoded process options."""
        return parse_process_options(self.process_options)

    @property
    def p_params(self) -> dict[str, Any]:
        """The ``P(...)`` parameters (canonical keys), to hand to config.resolve_p_settings."""
        return dict(self.chunk_params.get(PARAGRAPH_SEMANTIC, {}))

    def source_text(self, source: str) -> str:
        """A source tag spelled out for a log line."""
        if source == "hint" and self.hint is not None:
            return f"file-name hint {self.hint.display}"
        if source.startswith("rule") and self.rule is not None:
            if self.rule.index == 0:
                return f"LIGHTRAG_PARSER unset: the default rule {self.rule.text!r}"
            return f"LIGHTRAG_PARSER {self.rule.label}"
        return "default"


def resolve_parser_directives(
    file_name: str | os.PathLike[str],
    rules: Sequence[ParserRule] | str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    require_external_endpoint: bool = True,
) -> Directives:
    """Resolve a file as LightRAG 1.5.7 does: hint, then the first usable rule, then defaults.

    ``rules`` may be parsed rules, LIGHTRAG_PARSER text, or None to read LIGHTRAG_PARSER
    from ``env``; text is read as LightRAG reads it at run time (unvalidated, broken items
    skipped): validate it once with parse_parser_rules. A hint's engine and options each
    replace the rule's (options wholesale); parameter blocks merge per selector, the hint
    winning per key.

    Raises:
        FilenameParserHintError: the file name carries a hint LightRAG refuses.
        ParserRoutingConfigError: DOCX_SMART_HEADING is not true, false or auto.
    """
    env = os.environ if env is None else env
    if rules is None:
        rules = read_parser_rules(env, strict=False)
    elif isinstance(rules, str):
        rules = parse_parser_rules(rules, env=env, strict=False)
    name = os.fspath(file_name)
    suffix = parser_suffix(name)
    validate_filename_hint(name, env=env, require_external_endpoint=require_external_endpoint)
    canonical, hint = split_filename_hint(name, env)

    def usable(engine: str | None) -> bool:
        with lightrag_reads(env):
            return engine is not None and engine_is_usable(
                engine, suffix, require_external_endpoint
            )

    rule = next((r for r in rules if r.matches(suffix) and usable(r.engine)), None)
    rule_tag = f"rule {rule.index}" if rule is not None else "default"
    hint_engine = hint.engine if hint is not None else None

    default_engine = _DEFAULT_ENGINE_BY_SUFFIX.get(suffix)
    if usable(hint_engine):
        engine, engine_source = hint_engine, "hint"
    elif rule is not None:
        engine, engine_source = rule.engine, rule_tag
    elif usable(default_engine):
        engine, engine_source = default_engine, "default"
    else:
        engine, engine_source = LEGACY, "default"

    if hint is not None and hint.options:
        options, options_source = hint.options, "hint"
    elif rule is not None and rule.options:
        options, options_source = rule.options, rule_tag
    else:
        options, options_source = "", "default"

    chunk_params: dict[str, dict[str, Any]] = {}
    params_source: dict[str, dict[str, str]] = {}
    for source, blocks in (
        (rule_tag, rule.chunk_params if rule else {}),
        ("hint", hint.chunk_params if hint else {}),
    ):
        for selector, params in blocks.items():
            chunk_params.setdefault(selector, {}).update(params)
            params_source.setdefault(selector, {}).update(dict.fromkeys(params, source))

    # Engine parameters belong to their engine: drop those of an engine that lost.
    engine_params: dict[str, Any] = {}
    if rule is not None and rule.engine == engine:
        engine_params.update(rule.engine_params)
    if hint_engine == engine and hint is not None:
        engine_params.update(hint.engine_params)
    if (
        engine == NATIVE
        and "smart_heading" not in engine_params
        and suffix == "docx"
        and smart_heading_default(env)
    ):
        engine_params["smart_heading"] = True

    return Directives(
        file_name=name,
        canonical_name=canonical,
        engine=engine,
        process_options=sanitize_process_options(options),
        chunk_params=chunk_params,
        engine_params=engine_params,
        engine_source=engine_source,
        options_source=options_source,
        params_source=params_source,
        hint=hint,
        rule=rule,
        rules_set=any(r.index > 0 for r in rules),
    )
