"""File-name hints ``name.[engine-OPTIONS(params)].ext``, read and validated by LightRAG.

LightRAG's own functions read a hint (best-effort: an unusable one is ignored, with its
warning when malformed) and refuse one it would not ingest, so a hint means to every entrance
of ours what it means to LightRAG's server. What this module adds is the hint as written, for
reasons and log lines. Every environment read goes through an ``env`` mapping
(``lightrag_routing.lightrag_reads``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lightrag.parser.routing import (
    FilenameParserHintError,
    ParserRoutingConfigError,
    canonicalize_parser_hinted_basename,
    filename_chunk_params,
    filename_engine_params,
    filename_parser_directives,
    resolve_parser_directives,
)

from lightrag_pchunk.integration.lightrag_routing import lightrag_reads

__all__ = [
    "FilenameHint",
    "FilenameParserHintError",
    "split_filename_hint",
    "validate_filename_hint",
]


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


def split_filename_hint(
    file_name: str | os.PathLike[str], env: Mapping[str, str] | None = None
) -> tuple[str, FilenameHint | None]:
    """(canonical basename, the usable hint or None); never raises."""
    name = os.fspath(file_name)
    basename = Path(name).name
    with lightrag_reads(env):
        canonical = canonicalize_parser_hinted_basename(name)
        if canonical == basename:
            return basename, None
        engine, options = filename_parser_directives(name)
        chunk_params = filename_chunk_params(name)
        engine_params = filename_engine_params(name)
    # LightRAG takes out the hint and keeps the extension: "a.[native-P].docx" -> "a.docx".
    extension = canonical[canonical.rindex(".") :]
    text = basename[len(canonical) - len(extension) :]
    inner = text[len(".[") : -len(extension) - len("]")]
    return canonical, FilenameHint(text, inner, engine, options, chunk_params, engine_params)


def validate_filename_hint(
    file_name: str | os.PathLike[str],
    *,
    env: Mapping[str, str] | None = None,
    require_external_endpoint: bool = True,
) -> None:
    """Raise FilenameParserHintError, with LightRAG's message, for a hint it would refuse."""
    # LightRAG validates a hint first when it resolves the file (no rules: the hint alone);
    # DOCX_SMART_HEADING, read after the hint passed, is settings.py's to check.
    with lightrag_reads(env), suppress(ParserRoutingConfigError):
        resolve_parser_directives(
            file_name, parser_rules="", require_external_endpoint=require_external_endpoint
        )
