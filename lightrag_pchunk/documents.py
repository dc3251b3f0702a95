"""The native parsers by file suffix: Word (``parse/``) and Markdown (``markdown/``).

Both write the same blocks file and sidecars (``parse/artefacts.py``) and raise a
:class:`~lightrag_pchunk.errors.DocumentParseError` for a file they refuse, so callers (the
integration, the command line) take either through :func:`parse_document`.
"""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.markdown.document import MARKDOWN_SUFFIXES, parse_markdown
from lightrag_pchunk.parse.artefacts import ParsedDocument
from lightrag_pchunk.parse.document import parse_docx

#: Suffixes read as Word files.
WORD_SUFFIXES = frozenset({".docx", ".docm", ".dotx", ".dotm"})
#: Every suffix a native parser reads (lower case, with the dot).
NATIVE_SUFFIXES = WORD_SUFFIXES | MARKDOWN_SUFFIXES

__all__ = [
    "MARKDOWN_SUFFIXES",
    "NATIVE_SUFFIXES",
    "WORD_SUFFIXES",
    "is_native",
    "parse_document",
]


def is_native(path: str | Path) -> bool:
    """Whether a native parser reads ``path`` (by its suffix, case-insensitive)."""
    return Path(path).suffix.lower() in NATIVE_SUFFIXES


def parse_document(
    path: str | Path, output_dir: str | Path | None = None, *, doc_id: str | None = None
) -> ParsedDocument:
    """Parse a Word or Markdown file with its native parser (see :func:`parse_docx` and
    :func:`parse_markdown` for the arguments).

    Raises:
        ValueError: no native parser reads this suffix.
        DocumentParseError: the parser refuses the file.
    """
    suffix = Path(path).suffix.lower()
    if suffix in MARKDOWN_SUFFIXES:
        return parse_markdown(path, output_dir, doc_id=doc_id)
    if suffix in WORD_SUFFIXES:
        return parse_docx(path, output_dir, doc_id=doc_id)
    raise ValueError(
        f"{Path(path).name}: no native parser for {suffix or 'files without a suffix'}; "
        "lightrag-pchunk parses Word (.docx) and Markdown (.md, .markdown) files"
    )
