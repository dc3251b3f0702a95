"""What ``chunk`` and ``inspect`` share: the input document (a Word or Markdown file, parsed
first, or a ``.blocks.jsonl``), the P sizes and the tokenizer.

Sizes come from ``--size`` / ``--overlap``, else from the environment through
``resolve_p_settings``, so the command line chunks exactly as the SDK would.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from lightrag_pchunk.blockfile.jsonl import (
    BLOCKS_SUFFIX,
    blocks_stem,
    find_blocks_file,
    merged_text,
    read_blocks,
)
from lightrag_pchunk.documents import NATIVE_SUFFIXES
from lightrag_pchunk.errors import BlockFileError, DocumentParseError
from lightrag_pchunk.integration.config import resolve_p_settings
from lightrag_pchunk.tokens import DEFAULT_ENCODING, TiktokenAdapter, load_tiktoken

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class InputError(Exception):
    """The input cannot be used; ``exit_code`` is what the command returns."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass(frozen=True, slots=True)
class DocumentInput:
    """A document ready to chunk: its blocks file and the text LightRAG would store."""

    source: Path
    blocks_path: Path
    content: str
    doc_id: str
    parse_warnings: tuple[str, ...] = ()
    parsed: bool = False

    @property
    def name(self) -> str:
        """The name the user knows the document by."""
        return self.source.name


@dataclass(frozen=True, slots=True)
class Sizes:
    """P's size and overlap for a command, and where each came from."""

    size: int
    overlap: int
    drop_references: bool
    size_source: str
    overlap_source: str

    def describe(self) -> str:
        """``size 2000 (default), overlap 100 (CHUNK_OVERLAP_SIZE (env))``."""
        return (
            f"size {self.size} ({self.size_source}), overlap {self.overlap} ({self.overlap_source})"
        )


def add_document_arguments(parser: argparse.ArgumentParser) -> None:
    """The input, sizes, tokenizer and output-folder options of ``chunk`` and ``inspect``."""
    parser.add_argument(
        "file",
        type=Path,
        metavar="FILE",
        help=(
            "a Word or Markdown file (.docx, .md: parsed first) or a .blocks.jsonl (or its"
            " .parsed/ folder)"
        ),
    )
    parser.add_argument(
        "--size",
        type=_int_at_least(1),
        metavar="N",
        help="P chunk size N in tokens (default: CHUNK_P_SIZE, else 2000)",
    )
    parser.add_argument(
        "--overlap",
        type=_int_at_least(0),
        metavar="N",
        help=(
            "P overlap in tokens (default: CHUNK_P_OVERLAP_SIZE, else CHUNK_OVERLAP_SIZE, else 100)"
        ),
    )
    parser.add_argument(
        "--encoding",
        metavar="NAME",
        help=f"tiktoken encoding (default: $LIGHTRAG_PCHUNK_ENCODING, else {DEFAULT_ENCODING})",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="DIR",
        help=(
            "keep the parse of a Word or Markdown file in DIR/<name>.parsed/ (default: a"
            " temporary folder)"
        ),
    )


def resolve_sizes(
    size: int | None, overlap: int | None, env: Mapping[str, str] | None = None
) -> Sizes:
    """``--size``/``--overlap`` over the environment's P settings (read as the SDK reads them).

    Raises:
        ValueError: a bad CHUNK_P_* variable (named), or an overlap >= the size.
    """
    env = os.environ if env is None else env
    settings = resolve_p_settings(env=env)
    sources = settings.sources
    size_value, size_source = settings.chunk_token_size, sources.get("chunk_token_size", "default")
    overlap_value = settings.chunk_overlap_token_size
    overlap_source = sources.get("chunk_overlap_token_size", "default")
    if size is not None:
        size_value, size_source = size, "--size"
    if overlap is not None:
        overlap_value, overlap_source = overlap, "--overlap"
    if overlap_value >= size_value:
        raise ValueError(
            f"the overlap ({overlap_value}, from {overlap_source}) must be smaller than the "
            f"size ({size_value}, from {size_source}): pass a smaller --overlap"
        )
    return Sizes(size_value, overlap_value, settings.drop_references, size_source, overlap_source)


def load_tokenizer(encoding: str | None) -> TiktokenAdapter:
    """The tiktoken encoding (raises ``EncodingUnavailableError`` with what to install)."""
    return load_tiktoken(encoding)


@contextmanager
def document_input(path: Path, output: Path | None = None) -> Iterator[DocumentInput]:
    """The document behind ``path``; a Word or Markdown file is parsed, into a temporary
    folder that is removed afterwards unless ``output`` names one.

    Raises:
        InputError: no such file, an unsupported kind of file, a file the parser refuses
            (exit code 1), or an unreadable blocks file.
    """
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    if path.is_file() and path.suffix.lower() in NATIVE_SUFFIXES:
        with _parsed_file(path, output) as document:
            yield document
        return
    if path.is_dir():
        blocks_path = find_blocks_file(path)
        if blocks_path is None:
            raise InputError(f"{path}: no *{BLOCKS_SUFFIX} file in this folder")
    elif path.name.lower().endswith(".jsonl"):
        blocks_path = path
    else:
        raise InputError(
            f"{path}: expected a Word (.docx) or Markdown (.md) file or a {BLOCKS_SUFFIX} file "
            "(or the .parsed/ folder that holds one)"
        )
    try:
        blocks = read_blocks(blocks_path)
    except BlockFileError as exc:
        raise InputError(str(exc), EXIT_FAILED) from exc
    doc_id = str((blocks.meta or {}).get("doc_id") or blocks_stem(blocks_path))
    yield DocumentInput(
        source=path,
        blocks_path=blocks_path,
        content=merged_text(blocks.rows),
        doc_id=doc_id,
    )


@contextmanager
def _parsed_file(path: Path, output: Path | None) -> Iterator[DocumentInput]:
    from lightrag_pchunk.documents import parse_document

    folder = Path(tempfile.mkdtemp(prefix="lightrag-pchunk-")) if output is None else output
    try:
        try:
            parsed = parse_document(path, folder)
        except DocumentParseError as exc:
            raise InputError(f"cannot parse {exc}", EXIT_FAILED) from exc
        except (PermissionError, IsADirectoryError) as exc:
            raise InputError(f"cannot read {path}: {exc}", EXIT_FAILED) from exc
        yield DocumentInput(
            source=path,
            blocks_path=Path(parsed.blocks_path),
            content=parsed.content,
            doc_id=parsed.doc_id,
            parse_warnings=tuple(parsed.warnings),
            parsed=True,
        )
    finally:
        if output is None:
            shutil.rmtree(folder, ignore_errors=True)


def _int_at_least(minimum: int):
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be an integer >= {minimum}, got {text!r}"
            ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}, got {text!r}")
        return value

    return convert
