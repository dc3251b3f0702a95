"""The document formats lightrag-pchunk parses, registered once.

Every entrance reads :data:`FORMATS`: the ``pchunk`` parser engine (the suffixes it registers
with LightRAG), ``ainsert_files`` and ``register_document``, the commands (``parse``,
``chunk``, ``inspect``, ``ingest``, ``eval``: which files a folder gives, which parser reads a
file) and the evaluation (whose parse the contenders chunk).

A parse function takes ``(path, output_dir, *, doc_id=None, smart_heading=None,
outline_judge=None)`` (it may ignore the last two), writes ``<output_dir>/<name>.parsed/``
(the ``.blocks.jsonl`` and its sidecars, LightRAG's layout) and returns a ``ParsedDocument``
(``content``, ``rows``, ``parsed_dir``, ``blocks_path``, ``warnings``); a file it refuses
raises a ``DocumentParseError``. Adding a format is its parser plus one line here, e.g.::

    Format("pdf", "PDF", ("pdf",), "lightrag_pchunk.pdf.document:parse_pdf"),

Functions are imported on first use, so reading this table imports no parser.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from lightrag_pchunk.naming import PARSED_DIR_NAME

ParseFunction = Callable[..., Any]

SMART_HEADING_ENV = "DOCX_SMART_HEADING"
"""The Word parser's smart outline when nothing more specific sets it: ``true``, ``false`` or
``auto`` (LightRAG's variable; LightRAG itself takes only true or false)."""


@dataclass(frozen=True, slots=True)
class Format:
    """One format we parse: its suffixes, its parse function, how LightRAG reads it.

    ``lightrag_engine`` is LightRAG's own engine that parses the format into blocks (the
    ``lightrag-P`` contender of ``eval`` runs it); None when LightRAG has none. ``is_text``:
    the file is readable text, so a route to an engine whose blocks we do not read stores it
    as written (LightRAG's ``legacy``). ``smart_heading_env`` is the variable that sets the
    parser's smart outline when nothing more specific does. ``requires`` is a module the
    parser needs; without it the format is not offered.
    """

    name: str
    display: str
    suffixes: tuple[str, ...]
    parser: str
    lightrag_engine: str | None = None
    is_text: bool = False
    smart_heading_env: str | None = None
    requires: str | None = None

    def parse_function(self) -> ParseFunction:
        """The parse function (its module imported now)."""
        module, _, name = self.parser.partition(":")
        return getattr(importlib.import_module(module), name)

    def describe(self) -> str:
        """``Word (.docx, .docm, .dotx, .dotm)``."""
        return f"{self.display} ({', '.join(f'.{s}' for s in self.suffixes)})"


def _offered(fmt: Format) -> bool:
    return fmt.requires is None or importlib.util.find_spec(fmt.requires) is not None


FORMATS: tuple[Format, ...] = tuple(
    fmt
    for fmt in (
        # Word's macro documents and templates are the same package as a .docx.
        Format(
            "word",
            "Word",
            ("docx", "docm", "dotx", "dotm"),
            "lightrag_pchunk.parse.document:parse_docx",
            lightrag_engine="native",
            smart_heading_env=SMART_HEADING_ENV,
        ),
        # pyromark (pulldown-cmark) needs Python 3.11+: docs/markdown.md.
        Format(
            "markdown",
            "Markdown",
            ("md", "markdown"),
            "lightrag_pchunk.markdown.document:parse_markdown",
            lightrag_engine="native",
            is_text=True,
            requires="pyromark",
        ),
        # LightRAG reads a PDF with its legacy engine only (pypdf's text, no blocks).
        Format(
            "pdf",
            "PDF",
            ("pdf",),
            "lightrag_pchunk.pdf.document:parse_pdf",
            lightrag_engine="legacy",
            requires="pypdfium2",
        ),
    )
    if _offered(fmt)
)
"""The formats, in the order help texts list them."""

_BY_SUFFIX = {suffix: fmt for fmt in FORMATS for suffix in fmt.suffixes}

SUFFIXES: frozenset[str] = frozenset(_BY_SUFFIX)
"""Every suffix we parse (lower case, no dot)."""

TEXT_SUFFIXES = frozenset("txt text md markdown mdx rst csv tsv json log xml yaml yml".split())
"""Suffixes read as UTF-8 text, as written, when no parser of ours reads them."""

PLAIN_TEXT = Format("text", "UTF-8 text", tuple(sorted(TEXT_SUFFIXES)), parser="", is_text=True)
"""Not a parser: a text file read as written (no blocks), as LightRAG's ``legacy`` engine
stores it."""


def format_for(path: str | os.PathLike[str]) -> Format | None:
    """The format registered for a file's suffix (``Report.DOCX``: Word), or None."""
    return format_of_suffix(PurePath(path).suffix)


def format_of_suffix(suffix: str) -> Format | None:
    """The format registered for a suffix (``".DOCX"``, or ``"md"`` as a blocks file's meta
    row names its document's format), or None."""
    return _BY_SUFFIX.get(suffix.lower().lstrip("."))


def describe_formats(conjunction: str = "or") -> str:
    """``Word (.docx, .docm, .dotx, .dotm) or Markdown (.md, .markdown)``, for messages."""
    return _listed([fmt.describe() for fmt in FORMATS], conjunction)


def format_names(conjunction: str = "and") -> str:
    """``Word and Markdown``: the formats by name only, for a sentence."""
    return _listed([fmt.display for fmt in FORMATS], conjunction)


def _listed(names: list[str], conjunction: str) -> str:
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {conjunction} {names[-1]}"


def collect_files(
    paths: Iterable[str | os.PathLike[str]],
    glob: str | None = None,
    suffixes: Collection[str] = SUFFIXES,
) -> tuple[list[Path], list[str]]:
    """Files named, or found recursively in folders, in order and without duplicates; and
    the arguments that do not exist.

    In a folder, a file is taken when its path below the folder matches ``glob``, else when
    its suffix (``docx``, no dot) is in ``suffixes`` (default: every registered format);
    Word's lock files (``~$…``), hidden files and ``__parsed__`` folders are skipped. A file
    named explicitly is always taken.
    """
    files: list[Path] = []
    missing: list[str] = []
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and _wanted(p.relative_to(path), suffixes, glob)
                and not p.name.startswith(("~$", "."))
                and PARSED_DIR_NAME not in p.relative_to(path).parts
            )
        elif path.exists():  # a FIFO or a device too: its reader says why it is refused
            found = [path]
        else:
            missing.append(str(raw))
            continue
        for item in found:
            key = item.resolve()
            if key not in seen:
                seen.add(key)
                files.append(item)
    return files, missing


def _wanted(relative: PurePath, suffixes: Collection[str], glob: str | None) -> bool:
    if glob:
        return relative.match(glob)
    return relative.suffix.lower().lstrip(".") in suffixes
