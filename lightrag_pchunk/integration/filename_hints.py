"""File-name hints ``name.[engine-OPTIONS(params)].ext``: read, validate, canonical name.

Resolution reads a hint best-effort (an unusable one is ignored, with a warning when it is
malformed); ``validate_filename_hint`` refuses, in LightRAG's words, a hint LightRAG would
refuse to ingest. Every environment read goes through an ``env`` mapping.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.engines import (
    ENGINE_NAMES,
    ENGINES,
    engine_name,
    file_suffix,
    parse_engine_params,
)
from lightrag_pchunk.integration.params import (
    OPTION_CHARS,
    parse_chunk_blocks,
    strip_param_blocks,
    validate_process_options,
)

logger = logging.getLogger("lightrag.pchunk")

# Only the last bracket directly before the extension is a hint (LightRAG's ``_PARSER_HINT_RE``).
_HINT_RE = re.compile(r"\.\[([^\]]*)\](\.[^.]+)$")


class FilenameParserHintError(ValueError):
    """A file name carries a malformed ``.[hint].ext``; LightRAG refuses to ingest the file."""


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
    engine = engine_name(head)
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
    stripped = strip_param_blocks(raw_inner)
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
    chunk_params, problems = parse_chunk_blocks(stripped.chunk_blocks, label)
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
    stripped = strip_param_blocks(match.group(1))
    errors = [f"{label}: {msg}" for msg in stripped.errors]
    errors += parse_chunk_blocks(stripped.chunk_blocks, label)[1]
    text = stripped.text  # not whitespace-stripped: "[ -P]" is an engine ' ', as in LightRAG
    engine: str | None = None
    if "-" in text:
        written, _, options = text.partition("-")
        if written:
            engine = engine_name(written)
        else:  # "-OPTIONS": LightRAG validates these options stripped, an engine's as written
            options = options.strip()
        if written and engine not in ENGINES:
            errors.append(
                f"{label} uses unsupported parser engine {written.strip()!r}; "
                f"supported engines: {ENGINE_NAMES}"
            )
        elif not options.strip():
            errors.append(f"{label} has empty process options")
        else:
            errors += validate_process_options(options, label=f"{label} options")
    else:
        engine = engine_name(text)
        if engine not in ENGINES:
            message = (
                f"{label} uses unsupported parser engine {text.strip()!r}; "
                f"supported engines: {ENGINE_NAMES}"
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
        missing = spec.missing_endpoint(env) if require_external_endpoint else None
        if missing:
            errors.append(f"{label} requires {missing} to be configured")
    if errors:
        raise FilenameParserHintError(prefix + "; ".join(errors))
