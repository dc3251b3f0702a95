"""LIGHTRAG_PARSER rules and ``name.[engine-OPTIONS].ext`` hints -> engine, options, parameters.

Reads the routing grammar of LightRAG 1.5.7 (facts §3) and resolves a file the way LightRAG
does, so our P chunker runs for exactly the files LightRAG would send to P: same engine, same
process options, same parameter blocks, same canonical name and the same error texts. It
never imports lightrag; every environment read goes through an ``env`` mapping so tests and
callers control it.
"""

from __future__ import annotations

import fnmatch
import logging
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

logger = logging.getLogger("lightrag.pchunk")

SELECTOR_CHARS = "FRVPC"
"""Chunking selectors: fixed, recursive, vector, paragraph-semantic, custom chunking_func."""

OPTION_CHARS = frozenset("ite!" + SELECTOR_CHARS)
"""Every character LightRAG keeps in a process-options string."""

NATIVE, LEGACY, MINERU, DOCLING = "native", "legacy", "mineru", "docling"

_TRUE_WORDS = frozenset({"1", "true", "yes", "on", "t", "y"})
_FALSE_WORDS = frozenset({"0", "false", "no", "off", "f", "n"})
# A parameter value may never contain these (facts §3.4); ']' would end a hint anyway.
_VALUE_FORBIDDEN = frozenset(",()]")
# Only the last bracket directly before the extension is a hint (facts §3.5).
_HINT_RE = re.compile(r"\.\[([^\]]*)\](\.[^.]+)$")
_PAGE_SEGMENT_RE = re.compile(r"^\d+(?:-\d+)?$")
_SUFFIX_TOKEN_RE = re.compile(r"^[a-z0-9]+$")
# .textpack has no other engine, so LightRAG routes it to native without a rule.
_DEFAULT_ENGINE_BY_SUFFIX = {"textpack": NATIVE}


class ParserRoutingConfigError(ValueError):
    """LIGHTRAG_PARSER (or a variable it depends on) is invalid; LightRAG refuses to start."""


class FilenameParserHintError(ValueError):
    """A file name carries a malformed ``.[hint].ext``; LightRAG refuses to ingest the file."""


# --- process options -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProcessOptions:
    """A decoded process-options string (``i t e ! F R V P C``)."""

    raw: str = ""
    chunking: str = "F"
    explicit: bool = False  # False: no selector given, LightRAG calls its legacy chunking_func
    images: bool = False
    tables: bool = False
    equations: bool = False
    skip_kg: bool = False


def sanitize_process_options(text: str | None) -> str:
    """Keep only option characters, in order (LightRAG stores this string)."""
    return "".join(ch for ch in str(text or "") if ch in OPTION_CHARS)


def parse_process_options(text: str | None) -> ProcessOptions:
    """Decode an options string; the first selector present wins, F when none."""
    raw = sanitize_process_options(text)
    selectors = [ch for ch in raw if ch in SELECTOR_CHARS]
    return ProcessOptions(
        raw=raw,
        chunking=selectors[0] if selectors else "F",
        explicit=bool(selectors),
        images="i" in raw,
        tables="t" in raw,
        equations="e" in raw,
        skip_kg="!" in raw,
    )


def validate_process_options(text: str | None, *, label: str = "process options") -> list[str]:
    """LightRAG's error messages for an options string ([] when valid)."""
    errors: list[str] = []
    selectors: list[str] = []
    for ch in str(text or ""):
        if ch in " -":
            continue
        if ch not in OPTION_CHARS:
            errors.append(f"{label} contains unsupported character {ch!r}")
        elif ch in SELECTOR_CHARS and ch not in selectors:
            selectors.append(ch)
    if len(selectors) > 1:
        errors.append(
            f"{label} specifies multiple chunking modes ({'/'.join(selectors)}); "
            "pick one of F/R/V/P/C"
        )
    return errors


# --- parameters ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Param:
    """One parameter a block may set: its type, aliases, and where it is allowed."""

    name: str
    kind: str  # "int" | "bool" | "str" | "enum" | "pages"
    aliases: frozenset[str] = frozenset()
    selectors: str = SELECTOR_CHARS
    minimum: int | None = None
    choices: frozenset[str] = frozenset()


_CHUNK_PARAMS = (
    _Param("chunk_token_size", "int", frozenset({"chunk_ts"}), minimum=1),
    # V (semantic vector) has no overlap; drop_references is a P feature.
    _Param("chunk_overlap_token_size", "int", frozenset({"chunk_ol"}), "FRPC", minimum=0),
    _Param("drop_references", "bool", frozenset({"drop_rf"}), "P"),
)
_ENGINE_PARAMS: dict[str, tuple[_Param, ...]] = {
    MINERU: (
        _Param("page_range", "pages", frozenset({"pr"})),
        _Param("language", "str"),
        _Param(
            "local_parse_method",
            "enum",
            frozenset({"local_pm"}),
            choices=frozenset({"auto", "txt", "ocr"}),
        ),
    ),
    DOCLING: (_Param("force_ocr", "bool", frozenset({"ocr"})),),
    NATIVE: (_Param("smart_heading", "bool"),),
}


def _by_name(params: Sequence[_Param]) -> dict[str, _Param]:
    return {name: p for p in params for name in (p.name, *p.aliases)}


_CHUNK_BY_NAME = _by_name(_CHUNK_PARAMS)
_CHUNK_NAMES = ", ".join(sorted(p.name for p in _CHUNK_PARAMS))


def parse_bool(value: str) -> bool | None:
    """LightRAG's boolean words (``1 true yes on t y`` / ``0 false no off f n``), else None."""
    low = value.strip().lower()
    return True if low in _TRUE_WORDS else False if low in _FALSE_WORDS else None


def _split_outside_parens(text: str, separators: str) -> list[str]:
    """Split on any separator at parenthesis depth 0 (a stray ')' does not go negative)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(depth - 1, 0)
        elif depth == 0 and ch in separators:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _read_paren_block(text: str, i: int) -> tuple[str | None, int]:
    """The inside of the balanced block opening at ``text[i]`` and the index after it."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
    return None, i


def _segments(text: str, label: str, errors: list[str]) -> Iterator[tuple[str, str, bool]]:
    """Yield ``(key, value, is_bare_flag)`` per comma-separated parameter of a block."""
    for raw in _split_outside_parens(text, ","):
        segment = raw.strip()
        if not segment:
            errors.append(f"{label}: empty parameter")
        elif "=" in segment:
            key, _, value = segment.partition("=")
            yield key.strip(), value.strip(), False
        else:
            yield segment, "", True


def _bare_or_forbidden(param: _Param, value: str, bare: bool, label: str) -> str | None:
    """The error for a bare non-boolean flag or a forbidden character, else None."""
    if bare and param.kind != "bool":
        return (
            f"{label}: parameter {param.name!r} must be written as 'key=value'; "
            "only boolean flags may be written bare"
        )
    if any(ch in _VALUE_FORBIDDEN for ch in value):
        return f"{label}: value for {param.name!r} may not contain any of ',' '(' ')' ']'"
    return None


def parse_chunk_params(text: str, *, selector: str, label: str) -> tuple[dict[str, Any], list[str]]:
    """Parse the inside of ``P(...)`` into canonical keys; also return every error found."""
    result: dict[str, Any] = {}
    errors: list[str] = []
    seen: set[str] = set()
    for key, value, bare in _segments(text, label, errors):
        param = _CHUNK_BY_NAME.get(key)
        if param is None:
            errors.append(
                f"{label}: unknown parameter {key!r}; supported parameters: {_CHUNK_NAMES}"
            )
            continue
        if selector not in param.selectors:
            errors.append(
                f"{label}: parameter {param.name!r} is not supported for chunk strategy "
                f"{selector!r}"
            )
            continue
        problem = _bare_or_forbidden(param, value, bare, label)
        if problem is not None:
            errors.append(problem)
            continue
        if param.name in seen:
            errors.append(f"{label}: parameter {param.name!r} may not be repeated")
            continue
        seen.add(param.name)
        if param.kind == "bool":
            flag = True if bare else parse_bool(value)
            if flag is None:
                errors.append(
                    f"{label}: value for {param.name!r} must be a boolean (true/false), "
                    f"got {value!r}"
                )
            else:
                result[param.name] = flag
            continue
        try:
            number = int(value, 10)
        except ValueError:
            errors.append(f"{label}: value for {param.name!r} must be an integer, got {value!r}")
            continue
        if param.minimum is not None and number < param.minimum:
            errors.append(
                f"{label}: value for {param.name!r} must be >= {param.minimum}, got {number}"
            )
            continue
        result[param.name] = number
    size, overlap = result.get("chunk_token_size"), result.get("chunk_overlap_token_size")
    # Only a block that sets both can be checked here; the effective pair is checked by config.
    if size is not None and overlap is not None and overlap >= size:
        errors.append(
            f"{label}: chunk_overlap_token_size ({overlap}) must be < chunk_token_size ({size})"
        )
    return result, errors


def _mineru_is_local(env: Mapping[str, str]) -> bool:
    return (env.get("MINERU_API_MODE", "") or "").strip().lower() != "official"


def _page_range_errors(segments: list[str], env: Mapping[str, str]) -> list[str]:
    errors: list[str] = []
    for seg in segments:
        if not _PAGE_SEGMENT_RE.match(seg):
            errors.append(f"page_range segment {seg!r} must be a page 'N' or range 'N-M'")
        elif "-" in seg:
            head, _, tail = seg.partition("-")
            start, end = int(head), int(tail)
            if start < 1 or end < 1:
                errors.append(f"page_range segment {seg!r} must use positive pages")
            elif end < start:
                errors.append(f"page_range segment {seg!r} must have end >= start")
        elif int(seg) < 1:
            errors.append(f"page_range segment {seg!r} must be a positive page")
    if not errors and len(segments) > 1 and _mineru_is_local(env):
        errors.append(
            "page_range with MINERU_API_MODE=local supports only a single page or range such "
            "as '1-10'; use MINERU_API_MODE=official for a multi-segment list"
        )
    return errors


def _engine_value(
    param: _Param, value: str, label: str, env: Mapping[str, str]
) -> tuple[Any, str | None]:
    """Coerce one engine-parameter value; ``(value, None)`` or ``(None, error)``."""
    if param.name == "local_parse_method" and not _mineru_is_local(env):
        # The official MinerU API ignores it: accepting it would persist a no-op directive.
        return None, (
            f"{label}: 'local_parse_method' only applies to MINERU_API_MODE=local "
            "(the default); the official API ignores it"
        )
    if param.kind == "bool":
        flag = parse_bool(value)
        if flag is None:
            return None, (
                f"{label}: value for {param.name!r} must be a boolean (true/false), got {value!r}"
            )
        return flag, None
    if param.kind == "enum":
        if value not in param.choices:
            allowed = ", ".join(sorted(param.choices))
            return (
                None,
                f"{label}: value for {param.name!r} must be one of {allowed}, got {value!r}",
            )
        return value, None
    if not value:
        return None, f"{label}: value for {param.name!r} must be non-empty"
    if param.kind == "pages":
        segments = [seg.strip() for seg in value.split(",")]
        problems = _page_range_errors(segments, env)
        if problems:
            return None, f"{label}: " + "; ".join(problems)
        return ",".join(segments), None
    return value, None


def parse_engine_params(
    text: str, *, engine: str, label: str, env: Mapping[str, str] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Parse the inside of ``mineru(...)`` / ``docling(...)`` / ``native(...)``."""
    env = os.environ if env is None else env
    params = _ENGINE_PARAMS.get(engine)
    if params is None:
        if text.strip():
            return {}, [f"{label}: parser engine {engine!r} does not accept parameters"]
        return {}, []
    by_name = _by_name(params)
    result: dict[str, Any] = {}
    lists: dict[str, list[str]] = {}
    errors: list[str] = []
    seen: set[str] = set()
    for key, value, bare in _segments(text, label, errors):
        param = by_name.get(key)
        if param is None:
            if bare and _PAGE_SEGMENT_RE.match(key) and "page_range" in by_name:
                errors.append(
                    f"{label}: page lists must repeat the key, e.g. 'page_range=1-3,page_range=5' "
                    "(a comma only separates parameters)"
                )
            else:
                names = ", ".join(sorted(p.name for p in params))
                errors.append(
                    f"{label}: unknown parameter {key!r} for engine {engine!r}; "
                    f"supported parameters: {names}"
                )
            continue
        problem = _bare_or_forbidden(param, value, bare, label)
        if problem is not None:
            errors.append(problem)
            continue
        if param.kind == "pages":
            lists.setdefault(param.name, []).append(value)
            continue
        if param.name in seen:
            errors.append(f"{label}: parameter {param.name!r} may not be repeated")
            continue
        seen.add(param.name)
        coerced, problem = _engine_value(param, "true" if bare else value, label, env)
        if problem is None:
            result[param.name] = coerced
        else:
            errors.append(problem)
    for name, values in lists.items():
        coerced, problem = _engine_value(by_name[name], ",".join(values), label, env)
        if problem is None:
            result[name] = coerced
        else:
            errors.append(problem)
    return result, errors


@dataclass(slots=True)
class _Stripped:
    """An engine spec or hint with its ``(...)`` blocks taken out."""

    text: str
    engine_block: str | None = None
    chunk_blocks: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def _strip_param_blocks(inner: str) -> _Stripped:
    """Take parameter blocks out so engine and options parse as in pre-1.5.4 LightRAG.

    A block before the first '-' belongs to the engine, one right after a selector belongs
    to that selector; anything else is a structural error.
    """
    out = _Stripped("")
    kept: list[str] = []
    seen_dash = False
    previous: str | None = None  # last non-space character kept; None right after a block
    i = 0
    while i < len(inner):
        ch = inner[i]
        if ch != "(":
            kept.append(ch)
            seen_dash = seen_dash or ch == "-"
            previous = ch if ch != " " else previous
            i += 1
            continue
        block, after = _read_paren_block(inner, i)
        if block is None:
            out.errors.append(f"unbalanced '(' in {inner!r}")
            kept.append(inner[i:])
            break
        if seen_dash and previous is not None and previous in SELECTOR_CHARS:
            if previous in out.chunk_blocks:
                out.errors.append(f"chunk strategy {previous!r} has more than one parameter block")
            else:
                out.chunk_blocks[previous] = block
        elif not seen_dash and previous is not None:
            if out.engine_block is not None:
                out.errors.append("parser engine has more than one parameter block")
            else:
                out.engine_block = block
        else:
            out.errors.append(f"parameters '({block})' must follow a chunk strategy (F/R/V/P/C)")
        i, previous = after, None
    out.text = "".join(kept)
    return out


def _parse_chunk_blocks(
    blocks: Mapping[str, str], label: str
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    params: dict[str, dict[str, Any]] = {}
    errors: list[str] = []
    for selector, text in blocks.items():
        parsed, problems = parse_chunk_params(
            text, selector=selector, label=f"{label} chunk strategy {selector!r}"
        )
        errors.extend(problems)
        if parsed:
            params[selector] = parsed
    return params, errors


# --- engines ---------------------------------------------------------------------------


def _suffix_list(env: Mapping[str, str], name: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """A ``*_ADDITIONAL_SUFFIXES`` list: (valid suffixes, malformed entries as written)."""
    valid: set[str] = set()
    malformed: list[str] = []
    for raw in (env.get(name) or "").split(","):
        token = raw.strip().lower().lstrip(".")
        if token and _SUFFIX_TOKEN_RE.match(token):
            valid.add(token)
        elif token:
            malformed.append(raw.strip())
    return frozenset(valid), tuple(malformed)


@dataclass(frozen=True, slots=True)
class Engine:
    """A user-selectable parser engine: the suffixes it reads and what must be configured."""

    name: str
    suffixes: frozenset[str]
    extra_suffixes_env: str | None = None

    def supported_suffixes(self, env: Mapping[str, str]) -> frozenset[str]:
        """Built-in suffixes plus the well-formed entries of ``extra_suffixes_env``."""
        if self.extra_suffixes_env is None:
            return self.suffixes
        return self.suffixes | _suffix_list(env, self.extra_suffixes_env)[0]

    def endpoint_requirement(self, env: Mapping[str, str]) -> str | None:
        """The variable that must be set for this engine to run (None: nothing needed)."""
        if self.name == MINERU:
            mode = env.get("MINERU_API_MODE", "local").strip().lower()
            if mode in ("official", "local"):
                return "MINERU_API_TOKEN" if mode == "official" else "MINERU_LOCAL_ENDPOINT"
            return "valid MINERU_API_MODE (local, official)"
        return "DOCLING_ENDPOINT" if self.name == DOCLING else None

    def endpoint_configured(self, env: Mapping[str, str]) -> bool:
        """Whether the endpoint this engine calls is configured in ``env``."""
        if self.name == MINERU:
            mode = env.get("MINERU_API_MODE", "local").strip().lower()
            if mode not in ("official", "local"):
                return False
            variable = "MINERU_API_TOKEN" if mode == "official" else "MINERU_LOCAL_ENDPOINT"
            return bool(env.get(variable, "").strip())
        if self.name == DOCLING:
            return bool(env.get("DOCLING_ENDPOINT", "").strip())
        return True

    def is_usable(self, suffix: str, env: Mapping[str, str], require_endpoint: bool) -> bool:
        """Reads ``suffix`` and (when required) has its endpoint configured."""
        if suffix not in self.supported_suffixes(env):
            return False
        return not require_endpoint or self.endpoint_configured(env)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_LEGACY_SUFFIXES = _words(
    "txt md mdx pdf docx pptx xlsx rtf odt tex epub html htm csv json xml yaml yml log conf ini "
    "properties sql bat sh c h cpp hpp py java js ts swift go rb php css scss less"
)
ENGINES: dict[str, Engine] = {
    NATIVE: Engine(NATIVE, frozenset({"docx", "md", "textpack"})),
    LEGACY: Engine(LEGACY, _LEGACY_SUFFIXES),
    MINERU: Engine(
        MINERU,
        _words("pdf docx pptx xlsx png jpg jpeg jp2 webp gif bmp"),
        "MINERU_ADDITIONAL_SUFFIXES",
    ),
    DOCLING: Engine(
        DOCLING,
        _words("pdf docx pptx xlsx md html xhtml png jpg jpeg tiff webp bmp"),
        "DOCLING_ADDITIONAL_SUFFIXES",
    ),
}
_ENGINE_NAMES = ", ".join(sorted(ENGINES))


def _usable(engine: str | None, suffix: str, env: Mapping[str, str], require: bool) -> bool:
    spec = ENGINES.get(engine or "")
    return spec is not None and spec.is_usable(suffix, env, require)


def _engine_name(text: str) -> str:
    """``' Native(x=1)-P'`` -> ``'native'``: cut at '(' and '-', strip, lower-case."""
    return str(text or "").strip().split("(", 1)[0].split("-", 1)[0].strip().lower()


def file_suffix(file_name: str | os.PathLike[str]) -> str:
    """The suffix rules match against: lower-case, without the dot (``A.DOCX`` -> ``docx``)."""
    return Path(file_name).suffix.lower().lstrip(".")


def validate_suffix_variables(env: Mapping[str, str] | None = None) -> None:
    """Refuse malformed ``*_ADDITIONAL_SUFFIXES`` entries (LightRAG's start-up check)."""
    env = os.environ if env is None else env
    errors = []
    for variable in sorted(e.extra_suffixes_env for e in ENGINES.values() if e.extra_suffixes_env):
        malformed = _suffix_list(env, variable)[1]
        if malformed:
            errors.append(
                f"{variable} has malformed entries: {', '.join(repr(t) for t in malformed)}; "
                "use bare lowercase suffixes separated by ',' (e.g. 'doc,ppt,xls')"
            )
    if errors:
        raise ParserRoutingConfigError("; ".join(errors))


def smart_heading_default(env: Mapping[str, str] | None = None) -> bool:
    """``DOCX_SMART_HEADING``: the lowest-precedence ``native(smart_heading=..)`` for .docx."""
    env = os.environ if env is None else env
    raw = env.get("DOCX_SMART_HEADING", "").strip()
    if not raw:
        return False
    flag = parse_bool(raw)
    if flag is None:
        raise ParserRoutingConfigError(
            f"Invalid DOCX_SMART_HEADING value {raw!r}; expected a boolean (true/false)"
        )
    return flag


# --- file-name hints -------------------------------------------------------------------


@dataclass(frozen=True)
class FilenameHint:
    """A usable ``.[engine-OPTIONS(params)].ext`` hint read from a file name."""

    text: str  # the matched ".[native-P].docx", as LightRAG quotes it in messages
    inner: str  # "native-P"
    engine: str | None  # None for an options-only hint "[-P]"
    options: str
    chunk_params: dict[str, dict[str, Any]] = field(default_factory=dict)
    engine_params: dict[str, Any] = field(default_factory=dict)

    @property
    def display(self) -> str:
        """The hint as a user wrote it, for log lines: ``[native-P]``."""
        return f"[{self.inner}]"


def _split_hint(inner: str) -> tuple[str | None, str]:
    """``engine-OPTIONS`` / ``engine`` / ``-OPTIONS`` -> (engine or None, options)."""
    inner = inner.strip()
    if inner.startswith("-"):
        return None, inner[1:].strip()
    head, dash, tail = inner.partition("-")
    engine = _engine_name(head)
    if engine not in ENGINES:
        return None, ""
    return engine, tail.strip() if dash else ""


def _ignore_hint(label: str, basename: str, errors: Sequence[str]) -> None:
    logger.warning("[parser_routing] ignoring %s in %r: %s", label, basename, "; ".join(errors))


def _read_hint(
    name: str, env: Mapping[str, str]
) -> tuple[re.Match[str] | None, FilenameHint | None]:
    """Best-effort hint reader: an unusable hint is ignored (warned about when malformed)."""
    basename = Path(name).name
    match = _HINT_RE.search(basename)
    if match is None:
        return None, None
    raw_inner = match.group(1).strip()
    if raw_inner.startswith("-") and not raw_inner[1:].strip():
        return match, None
    label = f"filename hint {match.group(0)!r}"
    stripped = _strip_param_blocks(raw_inner)
    if stripped.errors:
        _ignore_hint(label, basename, stripped.errors)
        return match, None
    inner = stripped.text.strip()
    if "-" in inner and not inner.startswith("-") and not inner.partition("-")[2].strip():
        return match, None
    engine, options = _split_hint(inner)
    problems = validate_process_options(options) if options else []
    if problems:
        _ignore_hint(label, basename, problems)
        return match, None
    chunk_params, problems = _parse_chunk_blocks(stripped.chunk_blocks, label)
    engine_params: dict[str, Any] = {}
    if stripped.engine_block is not None:
        engine_params, more = parse_engine_params(
            stripped.engine_block, engine=engine or "", label=label, env=env
        )
        problems += more
    if problems:
        _ignore_hint(label, basename, problems)
        return match, None
    if engine is None and not (options or chunk_params):
        return match, None
    hint = FilenameHint(
        match.group(0), match.group(1), engine, options, chunk_params, engine_params
    )
    return match, hint


def split_filename_hint(
    file_name: str | os.PathLike[str], env: Mapping[str, str] | None = None
) -> tuple[str, FilenameHint | None]:
    """(canonical basename, the usable hint or None); never raises."""
    name = os.fspath(file_name)
    match, hint = _read_hint(name, os.environ if env is None else env)
    basename = Path(name).name
    if match is None or hint is None:
        return basename, None
    return basename[: match.start()] + match.group(2), hint


def canonical_name(file_name: str | os.PathLike[str], env: Mapping[str, str] | None = None) -> str:
    """The basename without its usable hint (``a.[native-P].docx`` -> ``a.docx``); never raises."""
    return split_filename_hint(file_name, env)[0]


def validate_filename_hint(
    file_name: str | os.PathLike[str],
    *,
    env: Mapping[str, str] | None = None,
    require_external_endpoint: bool = True,
) -> None:
    """Raise FilenameParserHintError, with LightRAG's message, for a hint it would refuse."""
    env = os.environ if env is None else env
    name = os.fspath(file_name)
    basename = Path(name).name
    match = _HINT_RE.search(basename)
    if match is None:
        return
    label = f"filename hint {match.group(0)!r}"
    prefix = f"Invalid filename parser hint in {basename!r}: "
    if not match.group(1).strip():
        raise FilenameParserHintError(f"{prefix}{label} is empty")
    stripped = _strip_param_blocks(match.group(1))
    errors = [f"{label}: {msg}" for msg in stripped.errors]
    errors += _parse_chunk_blocks(stripped.chunk_blocks, label)[1]
    text = stripped.text  # not whitespace-stripped: "[ -P]" is an engine ' ', as in LightRAG
    engine: str | None = None
    if "-" in text:
        written, _, options = text.partition("-")
        if written:
            engine = _engine_name(written)
        else:  # "-OPTIONS": LightRAG validates these options stripped, an engine's as written
            options = options.strip()
        if written and engine not in ENGINES:
            errors.append(
                f"{label} uses unsupported parser engine {written.strip()!r}; "
                f"supported engines: {_ENGINE_NAMES}"
            )
        elif not options.strip():
            errors.append(f"{label} has empty process options")
        else:
            errors += validate_process_options(options, label=f"{label} options")
    else:
        engine = _engine_name(text)
        if engine not in ENGINES:
            message = (
                f"{label} uses unsupported parser engine {text.strip()!r}; "
                f"supported engines: {_ENGINE_NAMES}"
            )
            if all(ch in OPTION_CHARS or ch == " " for ch in text):
                message += (
                    "; options-only filename hints must start with '-' "
                    f"(use '[-{text.strip()}]' instead)"
                )
            errors.append(message)
    if stripped.engine_block is not None:
        errors += parse_engine_params(
            stripped.engine_block, engine=engine or "", label=label, env=env
        )[1]
    spec = ENGINES.get(engine or "")
    if spec is not None:
        suffix = file_suffix(name)
        supported = spec.supported_suffixes(env)
        if suffix not in supported:
            errors.append(
                f"{label} uses parser engine {spec.name!r} for unsupported suffix {suffix!r}; "
                f"supported suffixes: {', '.join(sorted(supported))}"
            )
        requirement = spec.endpoint_requirement(env)
        if require_external_endpoint and requirement and not spec.endpoint_configured(env):
            errors.append(f"{label} requires {requirement} to be configured")
    if errors:
        raise FilenameParserHintError(prefix + "; ".join(errors))


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
    items = enumerate(_split_outside_parens(text, ";,"), start=1)
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
    stripped = _strip_param_blocks(spec_text)
    head, _, tail = stripped.text.partition("-")
    engine, options = _engine_name(head), tail.strip()
    engine_params: dict[str, Any] = {}
    engine_errors: list[str] = []
    if stripped.engine_block is not None:
        engine_params, engine_errors = parse_engine_params(
            stripped.engine_block, engine=engine, label=label, env=env
        )
    chunk_params, chunk_errors = _parse_chunk_blocks(stripped.chunk_blocks, label)
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
            f"supported engines: {_ENGINE_NAMES}"
        ]
    errors: list[str] = []
    supported = spec.supported_suffixes(env)
    if not any(fnmatch.fnmatchcase(suffix, pattern) for suffix in supported):
        errors.append(
            f"{label} does not match any suffix supported by {engine}; "
            f"supported suffixes: {', '.join(sorted(supported))}"
        )
    requirement = spec.endpoint_requirement(env)
    if require_endpoint and requirement and not spec.endpoint_configured(env):
        errors.append(f"{label} requires {requirement} to be configured")
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

    @property
    def options(self) -> ProcessOptions:
        """The decoded process options."""
        return parse_process_options(self.process_options)

    @property
    def p_params(self) -> dict[str, Any]:
        """The ``P(...)`` parameters (canonical keys), to hand to config.resolve_p_settings."""
        return dict(self.chunk_params.get("P", {}))

    def source_text(self, source: str) -> str:
        """A source tag spelled out for a log line."""
        if source == "hint" and self.hint is not None:
            return f"file-name hint {self.hint.display}"
        if source.startswith("rule") and self.rule is not None:
            return f"LIGHTRAG_PARSER {self.rule.label}"
        return "default"


Route = Directives  # alias: a resolved route is the same thing


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
        ParserRoutingConfigError: DOCX_SMART_HEADING is not a boolean.
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
    )


def p_applies(directives: Directives) -> tuple[bool, str]:
    """Whether LightRAG would run P on this file (native engine, selector P), and why."""
    opts = directives.options
    selector = opts.chunking if opts.explicit else "F"
    name = directives.file_name
    engine_by = directives.source_text(directives.engine_source)
    selector_by = directives.source_text(directives.options_source)
    if directives.engine == NATIVE and opts.chunking == "P":
        if engine_by == selector_by:
            return True, f"{name} goes to native/P ({engine_by})"
        return True, f"{name} goes to native/P (engine: {engine_by}; P: {selector_by})"
    if directives.engine != NATIVE:
        route = f"{directives.engine}/{selector}"
        if directives.engine_source == "hint":
            return False, f"{engine_by} routes {name} to {route}"
        if directives.rule is not None and directives.engine_source != "default":
            return False, f"LIGHTRAG_PARSER routes {name} to {route} ({directives.rule.label})"
        return False, f"no usable LIGHTRAG_PARSER rule for {name}: default route {route}"
    if directives.options_source == "default":
        return False, f"{name} goes to native without a chunking selector (F: chunking_func)"
    return False, f"{selector_by} selects {selector} for {name}"
