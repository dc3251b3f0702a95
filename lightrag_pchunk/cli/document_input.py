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
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePath

from lightrag_pchunk.blockfile.jsonl import (
    BLOCKS_SUFFIX,
    blocks_stem,
    find_blocks_file,
    merged_text,
    read_blocks,
)
from lightrag_pchunk.errors import BlockFileError, DocumentParseError
from lightrag_pchunk.integration.config import (
    DEFAULT_FILL,
    DEFAULT_TABLE_TEXT,
    DROP,
    DROP_TOC,
    FILL,
    OVERLAP,
    SIZE,
    TABLE_TEXT,
    PSettings,
    resolve_p_settings,
)
from lightrag_pchunk.integration.parsers import PARSERS, parser_for
from lightrag_pchunk.integration.strategy import (
    Decision,
    Route,
    Strategy,
    decide,
    load_blocks,
    route_by_name,
    runtime_rules,
)
from lightrag_pchunk.naming import PARSED_DIR_NAME
from lightrag_pchunk.parse.outline_build import SmartHeading
from lightrag_pchunk.tokens import DEFAULT_ENCODING, TiktokenAdapter, load_tiktoken

#: Suffixes read as Word files (parsed with our native parser first).
WORD_SUFFIXES = frozenset({".docx", ".docm", ".dotx", ".dotm"})
#: Every suffix our parsers read (Word and Markdown: ``integration.parsers.PARSERS``).
NATIVE_SUFFIXES = frozenset(f".{suffix}" for suffix in PARSERS)
#: LightRAG's own R size and overlap when CHUNK_SIZE / CHUNK_OVERLAP_SIZE are unset.
LIGHTRAG_R_SIZES = (1200, 100)

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
    """P's settings for a command (size and overlap with where each came from), resolved
    once from ``--size``/``--overlap`` over the environment."""

    size: int
    overlap: int
    drop_references: bool
    size_source: str
    overlap_source: str
    drop_toc: bool = False
    table_text: str = DEFAULT_TABLE_TEXT
    fill: str = DEFAULT_FILL

    def describe(self) -> str:
        """``size 2000 (default), overlap 100 (CHUNK_OVERLAP_SIZE (env))``."""
        return (
            f"size {self.size} ({self.size_source}), overlap {self.overlap} ({self.overlap_source})"
        )


def add_glob_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """``--glob PATTERN``: which files of a folder argument are taken."""
    parser.add_argument(
        "--glob",
        metavar="PATTERN",
        help=(
            f"in folders, take the files whose path below the folder matches PATTERN "
            f"(e.g. '*.docx', 'contracts/*'); default: all {what}"
        ),
    )


def collect_files(
    paths: Iterable[str | os.PathLike[str]],
    suffixes: Collection[str],
    glob: str | None = None,
) -> tuple[list[Path], list[str]]:
    """Files named, or found recursively in folders, in order and without duplicates; and
    the arguments that do not exist.

    In a folder, a file is taken when its path below the folder matches ``glob``, else when
    its suffix (``.docx``) is in ``suffixes``; Word's lock files (``~$…``) and
    ``__parsed__`` folders are skipped. A file named explicitly is always taken.
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
                and not p.name.startswith("~$")
                and PARSED_DIR_NAME not in p.relative_to(path).parts
            )
        elif path.is_file():
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
    return relative.suffix.lower() in suffixes


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
        help="keep the parse of a Word file in DIR/<name>.parsed/ (default: a temporary folder)",
    )
    add_smart_heading_argument(parser)


def add_smart_heading_argument(parser: argparse.ArgumentParser) -> None:
    """``--smart-heading [auto|on|off]`` (bare: on), LightRAG's ``native(smart_heading=...)``."""
    parser.add_argument(
        "--smart-heading",
        nargs="?",
        const="on",
        default=None,
        choices=[mode.value for mode in SmartHeading],
        metavar="auto|on|off",
        help=(
            "infer headings from numbering and look where heading styles are missing (bare:"
            " on; default: DOCX_SMART_HEADING, else auto: on for documents with too few"
            " styled headings)"
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
    return Sizes(
        size_value,
        overlap_value,
        settings.drop_references,
        size_source,
        overlap_source,
        settings.drop_toc,
        settings.table_text,
        settings.fill,
    )


def decide_document(
    document: DocumentInput, sizes: Sizes, env: Mapping[str, str] | None = None
) -> Decision:
    """P or R for a document on the command line, as the SDK would decide it: a Word file
    is routed by its name (LIGHTRAG_PARSER, ``[native-R]`` hints), a blocks file gets P;
    either way P needs content rows. ``sizes`` are P's (``--size`` over the environment).

    Raises:
        ValueError: CHUNK_SIZE / CHUNK_OVERLAP_SIZE is not an integer (R by route only).
    """
    env = os.environ if env is None else env
    if document.parsed:
        route = route_by_name(document.source.name, runtime_rules(env), env)
    else:
        route = Route(Strategy.P, f"{document.blocks_path.name} is a blocks file")
    sources = {
        SIZE: sizes.size_source,
        OVERLAP: sizes.overlap_source,
        DROP: "environment",
        DROP_TOC: "environment",
        TABLE_TEXT: "environment",
        FILL: "environment",
    }
    settings = PSettings(
        sizes.size,
        sizes.overlap,
        sizes.drop_references,
        sources,
        sizes.drop_toc,
        sizes.table_text,
        sizes.fill,
    )
    r_sizes = (
        int(env.get("CHUNK_SIZE") or LIGHTRAG_R_SIZES[0]),
        int(env.get("CHUNK_OVERLAP_SIZE") or LIGHTRAG_R_SIZES[1]),
    )
    return decide(
        route,
        load_blocks(document.blocks_path, "the command line"),
        settings=settings,
        r_sizes=r_sizes,
        file_name=document.name,
        doc_id=document.doc_id,
    )


def load_tokenizer(encoding: str | None) -> TiktokenAdapter:
    """The tiktoken encoding (raises ``EncodingUnavailableError`` with what to install)."""
    return load_tiktoken(encoding)


@contextmanager
def document_input(
    path: Path, output: Path | None = None, smart_heading: str | None = None
) -> Iterator[DocumentInput]:
    """The document behind ``path``; a Word or Markdown file is parsed, into a temporary
    folder that is removed afterwards unless ``output`` names one.

    Raises:
        InputError: no such file, an unsupported kind of file, a file the parser refuses
            (exit code 1), or an unreadable blocks file.
    """
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    if path.is_file() and path.suffix.lower() in NATIVE_SUFFIXES:
        with _parsed_file(path, output, smart_heading) as document:
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
def _parsed_file(
    path: Path, output: Path | None, smart_heading: str | None = None
) -> Iterator[DocumentInput]:
    parse = parser_for(path.suffix)
    assert parse is not None  # the caller checked the suffix
    folder = Path(tempfile.mkdtemp(prefix="lightrag-pchunk-")) if output is None else output
    try:
        try:
            parsed = parse(path, folder, smart_heading=smart_heading)
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
