"""LIGHTRAG_PARSER rules and ``name.[engine-OPTIONS].ext`` hints -> engine, options, parameters.

Reads the routing grammar of LightRAG 1.5.7 (``lightrag/parser/routing.py``) and resolves a
file the way LightRAG does, so our P chunker runs for exactly the files LightRAG would send
to P: same engine, same process options, same parameter blocks, same canonical name and the
same error texts. It never imports lightrag; every environment read goes through an ``env``
mapping so tests and callers control it. The grammar it reads lives beside it: ``params.py``
(process options, ``(...)`` blocks), ``engines.py`` and ``filename_hints.py``. This module
holds the rules, the resolution of one file and every ParserRoutingConfigError.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lightrag_pchunk.integration.engines import (
    ENGINE_NAMES,
    ENGINES,
    LEGACY,
    NATIVE,
    engine_name,
    file_suffix,
    parse_engine_params,
    suffix_list,
)
from lightrag_pchunk.integration.filename_hints import (
    FilenameHint,
    split_filename_hint,
    validate_filename_hint,
)
from lightrag_pchunk.integration.formats import SMART_HEADING_ENV
from lightrag_pchunk.integration.params import (
    PARAGRAPH_SEMANTIC,
    ProcessOptions,
    parse_chunk_blocks,
    parse_process_options,
    sanitize_process_options,
    split_outside_parens,
    strip_param_blocks,
    validate_process_options,
)
from lightrag_pchunk.parse.outline_build import SmartHeading

# .textpack has no other engine, so LightRAG routes it to native without a rule.
_DEFAULT_ENGINE_BY_SUFFIX = {"textpack": NATIVE}


class ParserRoutingConfigError(ValueError):
    """LIGHTRAG_PARSER (or a variable it depends on) is invalid; LightRAG refuses to start."""


# --- variables LIGHTRAG_PARSER depends on ----------------------------------------------


def validate_suffix_variables(env: Mapping[str, str] | None = None) -> None:
    """Refuse malformed ``*_ADDITIONAL_SUFFIXES`` entries (LightRAG's start-up check)."""
    env = os.environ if env is None else env
    errors = []
    for variable in sorted(e.extra_suffixes_env for e in ENGINES.values() if e.extra_suffixes_env):
        malformed = suffix_list(env, variable)[1]
        if malformed:
            errors.append(
                f"{variable} has malformed entries: {', '.join(repr(t) for t in malformed)}; "
                "use bare lowercase suffixes separated by ',' (e.g. 'doc,ppt,xls')"
            )
    if errors:
        raise ParserRoutingConfigError("; ".join(errors))


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
    """One validated ``suffix-pattern:engine(params)-OPTIONS(params)`` rule."""

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
        return fnmatch.fnmatchcase(suffix, self.pattern)


def _rule_items(text: str) -> list[tuple[int, str]]:
    """Rules split on ';' or ',' outside parentheses, numbered before empty items are dropped."""
    items = enumerate(split_outside_parens(text, ";,"), start=1)
    return [(index, item.strip()) for index, item in items if item.strip()]


def _parse_rule(
    index: int, item: str, env: Mapping[str, str], require_endpoint: bool
) -> tuple[ParserRule | None, list[str]]:
    """The rule read best-effort (None without ':') and its start-up validation errors."""
    label = f"rule {index} ({item!r})"
    if ":" not in item:
        return None, [f"{label} must use '<suffix-pattern>:<engine>'"]
    pattern, spec_text = item.split(":", 1)
    pattern, spec_text = pattern.strip().lower(), spec_text.strip()
    stripped = strip_param_blocks(spec_text)
    head, _, tail = stripped.text.partition("-")
    engine, options = engine_name(head), tail.strip()
    engine_params: dict[str, Any] = {}
    engine_errors: list[str] = []
    if stripped.engine_block is not None:
        engine_params, engine_errors = parse_engine_params(
            stripped.engine_block, engine=engine, label=label, env=env
        )
    chunk_params, chunk_errors = parse_chunk_blocks(stripped.chunk_blocks, label)
    rule = ParserRule(index, item, pattern, engine, options, engine_params, chunk_params)

    # The first four problems hide the rest, as in LightRAG.
    if not pattern:
        return rule, [f"{label} has an empty suffix pattern"]
    if "." in pattern:
        return rule, [f"{label} matches suffixes without dots; use 'pdf', not '*.pdf'"]
    if not spec_text:
        return rule, [f"{label} has an empty parser engine"]
    spec = ENGINES.get(engine)
    if spec is None:
        return rule, [
            f"{label} uses unsupported parser engine {spec_text!r}; "
            f"supported engines: {ENGINE_NAMES}"
        ]
    errors: list[str] = []
    supported = spec.supported_suffixes(env)
    if not any(fnmatch.fnmatchcase(suffix, pattern) for suffix in supported):
        errors.append(
            f"{label} does not match any suffix supported by {engine}; "
            f"supported suffixes: {', '.join(sorted(supported))}"
        )
    missing = spec.missing_endpoint(env) if require_endpoint else None
    if missing:
        errors.append(f"{label} requires {missing} to be configured")
    errors += [f"{label}: {msg}" for msg in stripped.errors]
    errors += engine_errors
    if options:
        errors += [f"{label}: {msg}" for msg in validate_process_options(options)]
    return rule, errors + chunk_errors


def parse_parser_rules(
    text: str | None,
    *,
    env: Mapping[str, str] | None = None,
    require_external_endpoint: bool = True,
    strict: bool = True,
) -> list[ParserRule]:
    """Parse LIGHTRAG_PARSER; strict: validate as LightRAG does at server start.

    ``strict=False`` reads it as LightRAG's resolver does at run time instead: an item
    without ':' is dropped, a broken parameter is left out, and nothing is raised (an
    unusable rule is then skipped by the resolver). ``require_external_endpoint=False``
    skips only the MinerU/Docling endpoint checks (LightRAG always makes them at start-up).

    Raises:
        ParserRoutingConfigError: (strict) every problem of every rule, in LightRAG's words.
    """
    env = os.environ if env is None else env
    if strict:
        validate_suffix_variables(env)
    rules: list[ParserRule] = []
    errors: list[str] = []
    for index, item in _rule_items((text or "").strip()):
        rule, problems = _parse_rule(index, item, env, require_external_endpoint)
        errors += problems
        if rule is not None:
            rules.append(rule)
    if strict and errors:
        raise ParserRoutingConfigError(
            "Invalid LIGHTRAG_PARSER configuration: " + "; ".join(errors)
        )
    return rules


def read_parser_rules(
    env: Mapping[str, str] | None = None, *, strict: bool = True
) -> list[ParserRule]:
    """The rules of ``LIGHTRAG_PARSER`` (unset or empty: no rules, so everything is legacy)."""
    env = os.environ if env is None else env
    return parse_parser_rules(env.get("LIGHTRAG_PARSER", ""), env=env, strict=strict)


# --- resolution ------------------------------------------------------------------------


def _usable(engine: str | None, suffix: str, env: Mapping[str, str], require: bool) -> bool:
    spec = ENGINES.get(engine or "")
    return spec is not None and spec.is_usable(suffix, env, require)


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
    suffix = file_suffix(name)
    validate_filename_hint(name, env=env, require_external_endpoint=require_external_endpoint)
    canonical, hint = split_filename_hint(name, env)
    require = require_external_endpoint
    rule = next(
        (r for r in rules if r.matches(suffix) and _usable(r.engine, suffix, env, require)), None
    )
    rule_tag = f"rule {rule.index}" if rule is not None else "default"
    hint_engine = hint.engine if hint is not None else None

    default_engine = _DEFAULT_ENGINE_BY_SUFFIX.get(suffix)
    if hint_engine is not None and _usable(hint_engine, suffix, env, require):
        engine, engine_source = hint_engine, "hint"
    elif rule is not None:
        engine, engine_source = rule.engine, rule_tag
    elif default_engine is not None and _usable(default_engine, suffix, env, require):
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
