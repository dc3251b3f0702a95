"""Every setting of one document, resolved once: :func:`resolve` (the front door's first step).

Sources, with LightRAG's precedence (docs/configuration.md): a command's flags
and the options LightRAG passes its P chunker (arguments), the ``P(...)`` block of the
file's LIGHTRAG_PARSER rule or file-name hint, ``addon_params`` (given, else the instance's),
the ``CHUNK_P_*`` variables, the instance's constructor overlap, ``CHUNK_OVERLAP_SIZE``, the
defaults; the outline's model settings (``CHUNK_P_LLM_*``, ``llm_settings.py``) the same way,
from ``addon_params`` and the variables. A registered text keeps the settings frozen at
registration, as LightRAG freezes its per-document snapshot at enqueue. :func:`check_config`
resolves every variable once at start-up so that a typo stops a command or a server before
any document is touched.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.config import (
    DROP,
    DROP_TOC,
    FILL,
    OVERLAP,
    SIZE,
    TABLE_TEXT,
    PSettings,
    is_strict,
    reference_settings,
    resolve_p_settings,
)
from lightrag_pchunk.integration.filename_hints import FilenameParserHintError
from lightrag_pchunk.integration.formats import FORMATS, SMART_HEADING_ENV, format_for
from lightrag_pchunk.integration.lightrag_r import pipeline_separators, pipeline_sizes
from lightrag_pchunk.integration.lightrag_routing import PCHUNK
from lightrag_pchunk.integration.llm_settings import BoundarySettings, boundary_settings
from lightrag_pchunk.integration.params import PARAGRAPH_SEMANTIC
from lightrag_pchunk.integration.request import Request
from lightrag_pchunk.integration.routing import (
    Directives,
    ParserRoutingConfigError,
    ParserRule,
    parse_parser_rules,
    resolve_parser_directives,
    validate_suffix_variables,
)
from lightrag_pchunk.naming import split_hint
from lightrag_pchunk.parse.outline_build import SmartHeading
from lightrag_pchunk.work_budget import WorkBudget

logger = logging.getLogger("lightrag.pchunk")

DEFAULT_RULES = ";".join(f"{suffix}:{PCHUNK}-P" for fmt in FORMATS for suffix in fmt.suffixes)
"""The routing of every entrance when LIGHTRAG_PARSER is unset or empty (``serve`` sets it so
for LightRAG's server): every suffix we parse (``docx:pchunk-P;docm:pchunk-P;...``) to our
parser and P, every other file LightRAG's default (``legacy``, R). LightRAG's own default
sends every file to ``legacy``, which a user of this package does not want. ``pchunk``, not
``native``: in LightRAG's server ``native`` is LightRAG's own parser, which reads only
``.docx`` and ``.md``, while ``pchunk`` is ours on every entrance."""


@dataclass(frozen=True, slots=True)
class Settings:
    """One document's settings and where each came from.

    ``p`` is None only for a text registered to get R. ``r_params`` is the route's
    ``R(...)`` block (or a registration's frozen R sizes and separators); ``r_size`` /
    ``r_overlap`` are what R runs at when P does not apply, ``r_separators`` what it cuts at
    then (LightRAG's pipeline's, ``lightrag_r.pipeline_separators``, unless frozen).
    ``directives`` is where LIGHTRAG_PARSER and the file-name hint send the file (None
    without a file name). ``llm_boundaries``: what the instance's model is asked while the
    file is parsed for P (``ainsert_files``).
    """

    p: PSettings | None
    r_size: int
    r_overlap: int
    r_params: Mapping[str, Any] = field(default_factory=dict)
    r_separators: tuple[str, ...] | None = None
    directives: Directives | None = None
    smart_heading: SmartHeading = SmartHeading.AUTO
    smart_heading_source: str = "default"
    references_tail_n: int = 0
    references_headings: tuple[str, ...] = ()
    strict: bool = False
    work_budget: WorkBudget = field(default_factory=WorkBudget)
    llm_boundaries: BoundarySettings = field(default_factory=BoundarySettings)

    def describe(self) -> str:
        """Every setting with its source, for ``inspect`` and a trace."""
        p = self.p.describe() if self.p is not None else "P: none (registered for R)"
        return (
            f"{p} r_size={self.r_size} r_overlap={self.r_overlap} smart_heading="
            f"{self.smart_heading.value} ({self.smart_heading_source}) "
            f"{self.llm_boundaries.describe()}"
        )


def effective_rules(
    env: Mapping[str, str] | None = None, *, strict: bool = True
) -> list[ParserRule]:
    """LIGHTRAG_PARSER's rules, or :data:`DEFAULT_RULES` when it is unset, empty or exactly
    them (``serve`` sets it so for LightRAG's server when the user left it unset).

    Raises:
        ParserRoutingConfigError: (strict) a rule is invalid; the message names it.
    """
    env = os.environ if env is None else env
    text = (env.get("LIGHTRAG_PARSER") or "").strip()
    given = text and text != DEFAULT_RULES
    rules = parse_parser_rules(text, env=env, strict=strict) if given else []
    if rules:
        return rules
    # Numbered 0: not a rule of LIGHTRAG_PARSER, and reasons say so.
    return [replace(r, index=0) for r in parse_parser_rules(DEFAULT_RULES, env=env, strict=False)]


def check_config(env: Mapping[str, str] | None = None) -> list[ParserRule]:
    """Validate every setting read from the environment now (call it at start-up):
    LIGHTRAG_PARSER and the suffix variables it depends on, the ``CHUNK_P_*`` variables
    (``CHUNK_P_LLM_*`` included), R's sizes (``CHUNK_R_SIZE``, ``CHUNK_SIZE`` and their
    overlaps, the overlap smaller than the size), DOCX_SMART_HEADING, the work budget
    (``LIGHTRAG_PCHUNK_MAX_BLOCKS``, ``_MAX_LINES``).
    Returns the effective routing rules.

    Raises:
        ParserRoutingConfigError: an invalid rule, named with its position and text.
        ValueError: a bad ``CHUNK_P_*``, R size, DOCX_SMART_HEADING or work budget value,
            naming the variable.
    """
    env = os.environ if env is None else env
    validate_suffix_variables(env)
    rules = effective_rules(env, strict=True)
    resolve_p_settings(env=env)
    r_size, r_overlap = pipeline_sizes(env)
    if r_overlap >= r_size:
        # LightRAG's R refuses every document so; a document's own settings clamp it.
        raise ValueError(
            f"R's overlap {r_overlap} must be smaller than its size {r_size} "
            "(CHUNK_R_OVERLAP_SIZE or CHUNK_OVERLAP_SIZE; CHUNK_R_SIZE or CHUNK_SIZE)"
        )
    boundary_settings(env=env)
    SmartHeading.parse(env.get(SMART_HEADING_ENV), name=f"{SMART_HEADING_ENV} (env)")
    WorkBudget.from_env(env)
    return rules


def _runtime_rules(env: Mapping[str, str]) -> list[ParserRule]:
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


def _directives(name: str, request: Request, env: Mapping[str, str]) -> Directives:
    """Where LightRAG routes ``name``: strictly (a bad rule or hint raises) or as LightRAG
    does at run time (a bad rule is skipped, a bad hint ignored, each with a warning)."""
    if request.strict:
        return resolve_parser_directives(name, effective_rules(env, strict=True), env=env)
    rules = _runtime_rules(env)
    try:
        return resolve_parser_directives(name, rules, env=env)
    except FilenameParserHintError as exc:
        logger.warning("paragraph_semantic ignoring file-name hint: %s", exc)
        return resolve_parser_directives(split_hint(Path(name).name)[0], rules, env=env)


def _explicit(request: Request) -> dict[str, tuple[Any, str]]:
    """P values passed as arguments (LightRAG's P call, a command's flags, ``evaluate()``'s
    arguments), with their source."""
    given: dict[str, tuple[Any, str]] = {}
    for key in (SIZE, OVERLAP, DROP, DROP_TOC, TABLE_TEXT, FILL):
        value = request.lightrag_options.get(key)
        if value is not None:
            given[key] = (value, f"{key} (LightRAG's chunk options)")
    flags = request.flags
    for key, value, name in ((SIZE, flags.size, "size"), (OVERLAP, flags.overlap, "overlap")):
        if value is not None:
            given[key] = (value, flags.named.format(name))
    return given


def _addon_params(request: Request) -> Any:
    """``addon_params`` given explicitly, else the instance's."""
    if request.addon_params is None and request.rag is not None:
        return getattr(request.rag, "addon_params", None)
    return request.addon_params


def _p_settings(
    request: Request, directives: Directives | None, env: Mapping[str, str]
) -> PSettings | None:
    if request.follows_registration:
        assert request.entry is not None
        return request.entry.p_settings
    rag = request.rag
    overlap = getattr(rag, "chunk_overlap_token_size", None) if rag is not None else None
    return resolve_p_settings(
        addon_params=_addon_params(request),
        env=env,
        constructor_overlap=overlap if isinstance(overlap, int) else None,
        rule_params=directives,
        explicit=_explicit(request),
    )


def _r_params(request: Request, directives: Directives | None) -> Mapping[str, Any]:
    """The R sizes the route fixes: a registration's, or the ``R(...)`` (or F/V) block of
    the selector the rule or hint picks."""
    if request.follows_registration:
        assert request.entry is not None
        return request.entry.r_params
    if directives is None or not directives.options.chunking_explicit:
        return {}
    selector = directives.options.chunking
    if selector == PARAGRAPH_SEMANTIC:
        return {}
    return directives.chunk_params.get(selector, {})


def _r_sizes(
    request: Request, r_params: Mapping[str, Any], env: Mapping[str, str]
) -> tuple[int, int]:
    """R's size and overlap: a command's ``--size`` / ``--overlap``, else the route's
    ``R(...)`` block (or a registration's frozen sizes), else LightRAG's pipeline's. LightRAG
    runs its R at R's own sizes (its ``recursive_character`` options), never at the
    fixed-token ones its legacy ``chunking_func`` call carries, and so does ours; without
    the instance's options, the call's sizes tell its constructor's (:func:`pipeline_sizes`)."""
    size, overlap = pipeline_sizes(env, _addon_params(request), request.lightrag_sizes)
    size = int(r_params.get("chunk_token_size", size))
    overlap = int(r_params.get("chunk_overlap_token_size", overlap))
    flags = request.flags
    size = max(flags.size if flags.size is not None else size, 1)
    overlap = flags.overlap if flags.overlap is not None else overlap
    return size, min(max(overlap, 0), size - 1)


def _r_separators(
    request: Request, r_params: Mapping[str, Any], env: Mapping[str, str]
) -> tuple[str, ...] | None:
    """What R cuts at: a registration's frozen separators (None: LangChain's cascade), else
    LightRAG's pipeline's; a registration made before separators were frozen has none."""
    if request.follows_registration and "separators" in r_params:
        frozen = r_params["separators"]
        return tuple(frozen) if frozen is not None else None
    return pipeline_separators(env, _addon_params(request))


def _smart_heading(
    request: Request, directives: Directives | None, env: Mapping[str, str]
) -> tuple[SmartHeading, str]:
    """The parser's smart outline: ``--smart-heading``, else the rule's or hint's
    ``native(smart_heading=...)``, else the format's variable (DOCX_SMART_HEADING), else
    auto."""
    flag = request.flags.smart_heading
    if flag is not None:
        return SmartHeading.parse(flag, name="--smart-heading"), "--smart-heading"
    if directives is not None:
        hint, rule = directives.hint, directives.rule
        given: list[tuple[str, Mapping[str, Any]]] = []
        if hint is not None and hint.engine == directives.engine:
            given.append(("hint", hint.engine_params))
        if rule is not None and rule.engine == directives.engine:
            given.append((f"rule {rule.index}", rule.engine_params))
        for tag, params in given:
            if "smart_heading" in params:
                source = directives.source_text(tag)
                return SmartHeading.parse(params["smart_heading"], name=source), source
    source_file = request.source or request.file_name
    fmt = format_for(source_file) if source_file is not None else None
    variable = fmt.smart_heading_env if fmt is not None else None
    if variable is not None and (env.get(variable) or "").strip():
        source = f"{variable} (env)"
        return SmartHeading.parse(env[variable], name=source), source
    return SmartHeading.AUTO, "default"


def resolve(request: Request) -> Settings:
    """Every setting of ``request``'s document, with LightRAG's precedence (module doc).

    Raises:
        ValueError: a bad value of any setting, naming it and where it came from.
        ParserRoutingConfigError, FilenameParserHintError: (``request.strict``) a bad
            LIGHTRAG_PARSER rule or file-name hint.
    """
    env = request.environment
    entry = request.entry
    name = request.file_name or (entry.source_name if entry is not None else None)
    directives = None
    if name and not request.follows_registration:
        directives = _directives(name, request, env)
    r_params = _r_params(request, directives)
    r_size, r_overlap = _r_sizes(request, r_params, env)
    smart, smart_source = _smart_heading(request, directives, env)
    options = request.lightrag_options
    tail_n, headings = reference_settings(
        options.get("references_tail_n"), options.get("references_headings"), env
    )
    return Settings(
        p=_p_settings(request, directives, env),
        r_size=r_size,
        r_overlap=r_overlap,
        r_params=r_params,
        r_separators=_r_separators(request, r_params, env),
        directives=directives,
        smart_heading=smart,
        smart_heading_source=smart_source,
        references_tail_n=tail_n,
        references_headings=headings,
        strict=is_strict(env),
        work_budget=WorkBudget.from_env(env),
        llm_boundaries=boundary_settings(_addon_params(request), env),
    )
