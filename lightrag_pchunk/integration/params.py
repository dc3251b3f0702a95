"""Process options (``i t e ! F R V P C``) and the ``(...)`` parameter blocks of a routing spec.

Decodes and validates the options string LightRAG keeps, parses a ``P(chunk_ts=..)`` chunk
parameter block, and takes the blocks out of an ``engine-OPTIONS`` spec so that engine and
options parse as in LightRAG 1.5.7 (``lightrag/parser/param_schema.py``), with LightRAG's
error texts. The engine's own block (``mineru(...)``) is parsed in ``engines.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

FIXED_TOKEN, RECURSIVE_CHARACTER, SEMANTIC_VECTOR, PARAGRAPH_SEMANTIC, CUSTOM = "FRVPC"
"""LightRAG's chunking selectors, one letter each (``docx:native-P``, ``[native-R]``)."""
SELECTOR_CHARS = "FRVPC"
"""Chunking selectors: fixed, recursive, vector, paragraph-semantic, custom chunking_func."""

OPTION_CHARS = frozenset("ite!" + SELECTOR_CHARS)
"""Every character LightRAG keeps in a process-options string."""

_TRUE_WORDS = frozenset({"1", "true", "yes", "on", "t", "y"})
_FALSE_WORDS = frozenset({"0", "false", "no", "off", "f", "n"})
# A parameter value may never contain these (LightRAG's ``_VALUE_FORBIDDEN``); ']' would
# end a hint anyway.
_VALUE_FORBIDDEN = frozenset(",()]")


# --- process options -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProcessOptions:
    """A decoded process-options string (``i t e ! F R V P C``)."""

    raw: str = ""
    chunking: str = FIXED_TOKEN
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
        chunking=selectors[0] if selectors else FIXED_TOKEN,
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
class Param:
    """One parameter a block may set: its type, aliases, and where it is allowed."""

    name: str
    kind: str  # "int" | "bool" | "str" | "enum" | "pages"
    aliases: frozenset[str] = frozenset()
    selectors: str = SELECTOR_CHARS
    minimum: int | None = None
    choices: frozenset[str] = frozenset()


_CHUNK_PARAMS = (
    Param("chunk_token_size", "int", frozenset({"chunk_ts"}), minimum=1),
    # V (semantic vector) has no overlap; drop_references is a P feature.
    Param("chunk_overlap_token_size", "int", frozenset({"chunk_ol"}), "FRPC", minimum=0),
    Param("drop_references", "bool", frozenset({"drop_rf"}), PARAGRAPH_SEMANTIC),
)


def params_by_name(params: Sequence[Param]) -> dict[str, Param]:
    """Each parameter under its name and under every alias."""
    return {name: p for p in params for name in (p.name, *p.aliases)}


_CHUNK_BY_NAME = params_by_name(_CHUNK_PARAMS)
_CHUNK_NAMES = ", ".join(sorted(p.name for p in _CHUNK_PARAMS))


def parse_bool(value: str) -> bool | None:
    """LightRAG's boolean words (``1 true yes on t y`` / ``0 false no off f n``), else None."""
    low = value.strip().lower()
    return True if low in _TRUE_WORDS else False if low in _FALSE_WORDS else None


def split_outside_parens(text: str, separators: str) -> list[str]:
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


def param_segments(text: str, label: str, errors: list[str]) -> Iterator[tuple[str, str, bool]]:
    """Yield ``(key, value, is_bare_flag)`` per comma-separated parameter of a block."""
    for raw in split_outside_parens(text, ","):
        segment = raw.strip()
        if not segment:
            errors.append(f"{label}: empty parameter")
        elif "=" in segment:
            key, _, value = segment.partition("=")
            yield key.strip(), value.strip(), False
        else:
            yield segment, "", True


def bare_or_forbidden(param: Param, value: str, bare: bool, label: str) -> str | None:
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
    for key, value, bare in param_segments(text, label, errors):
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
        problem = bare_or_forbidden(param, value, bare, label)
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


# --- parameter blocks in a spec --------------------------------------------------------


@dataclass(slots=True)
class StrippedSpec:
    """An engine spec or hint with its ``(...)`` blocks taken out."""

    text: str
    engine_block: str | None = None
    chunk_blocks: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def strip_param_blocks(inner: str) -> StrippedSpec:
    """Take parameter blocks out so engine and options parse as in pre-1.5.4 LightRAG.

    A block before the first '-' belongs to the engine, one right after a selector belongs
    to that selector; anything else is a structural error.
    """
    out = StrippedSpec("")
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


def parse_chunk_blocks(
    blocks: Mapping[str, str], label: str
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Parse each selector's block (``{"P": "chunk_ts=500"}``); also return every error found."""
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
