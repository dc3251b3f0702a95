"""The documents of an evaluation: which files, and how each is read.

Every contender chunks the same text. ``ours`` (P) and LightRAG's R and F chunk the parse
made by our own parser when our package reads the format (``integration/formats.py``, read
through the front door); for any other format LightRAG's native parser stands in, and plain
text is read as it is. ``lightrag-P`` always gets LightRAG's own parse of the format (its
engine named in the format registry), as a LightRAG user would: for a PDF its ``legacy``
engine's text, which has no blocks, so LightRAG's P falls back to R on it.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from lightrag.parser.registry import suffix_capabilities

from lightrag_pchunk.blockfile.jsonl import merged_text, read_blocks
from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.integration.formats import SUFFIXES, format_for
from lightrag_pchunk.integration.formats import collect_files as files_in
from lightrag_pchunk.integration.front_door import read
from lightrag_pchunk.integration.lightrag_routing import LEGACY, NATIVE
from lightrag_pchunk.integration.request import EVAL, Request
from lightrag_pchunk.integration.settings import resolve
from lightrag_pchunk.integration.strategy import decide
from lightrag_pchunk.model import BlockRow

#: What a folder given on the command line is searched for: every format we parse, and
#: plain text.
EVAL_SUFFIXES = SUFFIXES | {"txt"}

OURS = "lightrag-pchunk"
LIGHTRAG_NATIVE = "lightrag-native"
LIGHTRAG_LEGACY = "lightrag-legacy"
PLAIN_TEXT = "plain text"


@dataclass(frozen=True, slots=True)
class ParsedText:
    """A document as one parser read it: the text LightRAG stores and its content rows.

    ``blocks_path`` is the ``.blocks.jsonl`` a P chunker reads (None for plain text);
    ``parser`` names who made it (:data:`OURS`, :data:`LIGHTRAG_NATIVE`, :data:`PLAIN_TEXT`).
    """

    content: str
    rows: tuple[BlockRow, ...]
    blocks_path: Path | None
    parser: str


class ParseFailure(Exception):
    """A parser could not read a document; the message says why."""


def _parse_ours(path: Path, out_dir: Path) -> ParsedText:
    """``path`` read through the front door, by the parser of its format."""
    request = Request(EVAL, source=path)
    settings = resolve(request)
    try:
        parsed = read(request, settings, decide(request, settings), out_dir)[1].parsed
    except DocumentParseError as exc:
        raise ParseFailure(f"our parser refuses it: {exc}") from exc
    return ParsedText(parsed.content, parsed.rows, Path(parsed.blocks_path), OURS)


def lightrag_native_parse(path: Path, out_dir: Path) -> ParsedText:
    """Parse ``path`` with LightRAG's own parser of its format (``lightrag.parser.cli``;
    the format registry names the engine, LightRAG's ``native`` for other files; the
    ``legacy`` engine's text is read in this process: it writes no blocks).

    Raises:
        ParseFailure: LightRAG does not read the format, refuses the file or crashes on it.
    """
    fmt = format_for(path)
    engine = fmt.lightrag_engine if fmt is not None else NATIVE
    if engine is None or path.suffix.lower().lstrip(".") not in suffix_capabilities(engine):
        raise ParseFailure(f"LightRAG's native parser does not read {path.suffix or 'it'}")
    if engine == LEGACY:
        return _legacy_text(path)
    blocks_path = lightrag_blocks_file(path, out_dir, engine)
    rows = tuple(row for row in read_blocks(blocks_path).rows if row.content.strip())
    return ParsedText(merged_text(rows), rows, blocks_path, LIGHTRAG_NATIVE)


def lightrag_blocks_file(
    path: Path, out_dir: Path, engine: str = NATIVE, doc_id: str | None = None
) -> Path:
    """The blocks file LightRAG's parser ``engine`` writes for ``path`` under ``out_dir``,
    run through its own debug CLI (``lightrag.parser.cli``) with its output and logs
    silenced. ``doc_id`` names the document (LightRAG hashes the path without it).

    Raises:
        ParseFailure: the parser refuses the file, crashes on it or writes no blocks.
    """
    from lightrag.parser.cli import main

    argv = [str(path), "--engine", engine, "-o", str(out_dir), "--preview", "0"]
    if doc_id is not None:
        argv += ["--doc-id", doc_id]
    sink = io.StringIO()
    lightrag_logger = logging.getLogger("lightrag")
    previous = lightrag_logger.level
    lightrag_logger.setLevel(logging.CRITICAL)
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            code = main(argv)
    except Exception as exc:  # LightRAG's parser crashes on some real files
        raise ParseFailure(f"LightRAG's native parser fails: {type(exc).__name__}: {exc}") from exc
    finally:
        lightrag_logger.setLevel(previous)
    found = sorted((out_dir / f"{path.name}.parsed").glob("*.blocks.jsonl"))
    if code != 0 or not found:
        last = sink.getvalue().strip().splitlines()[-1:] or ["no blocks file written"]
        raise ParseFailure(f"LightRAG's native parser fails: {last[0][:200]}")
    return found[0]


def _legacy_text(path: Path) -> ParsedText:
    """``path`` as LightRAG's ``legacy`` engine reads it (a PDF: pypdf's text, no blocks;
    LightRAG's P then falls back to R on it, as for a LightRAG user today)."""
    from lightrag.parser.legacy.extractors import extract_text

    try:
        content = extract_text(path.read_bytes(), path.suffix, file_path=str(path))
    except Exception as exc:  # pypdf refuses or crashes on some real files
        raise ParseFailure(f"LightRAG's legacy parser fails: {type(exc).__name__}: {exc}") from exc
    rows = (BlockRow(content=content),) if content.strip() else ()
    return ParsedText(content, rows, None, LIGHTRAG_LEGACY)


def _plain_text(path: Path) -> ParsedText:
    try:
        content = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ParseFailure(f"not UTF-8 text ({exc.reason})") from None
    rows = (BlockRow(content=content),) if content.strip() else ()
    return ParsedText(content, rows, None, PLAIN_TEXT)


@dataclass(frozen=True, slots=True)
class EvalDocument:
    """One document of the corpus, read by the parsers the contenders need.

    ``shared`` is the parse ``ours``, R and F chunk (None when nothing could read the file);
    ``ours_note`` says what ``ours`` chunks when it is not our own parse. ``lightrag`` is
    LightRAG's native parse for ``lightrag-P`` (None with ``lightrag_error`` when it failed
    or was not asked for).
    """

    path: Path
    name: str
    shared: ParsedText | None
    shared_error: str | None
    ours_note: str | None
    lightrag: ParsedText | None
    lightrag_error: str | None


def read_document(path: Path, name: str, work_dir: Path, *, with_lightrag: bool) -> EvalDocument:
    """Parse one file for every contender (artefacts go under ``work_dir``)."""
    lightrag: ParsedText | None = None
    lightrag_error: str | None = "not asked for"
    ours = format_for(path) is not None
    if with_lightrag or not ours:
        try:
            lightrag = lightrag_native_parse(path, work_dir / "lightrag")
            lightrag_error = None
        except ParseFailure as exc:
            lightrag_error = str(exc)
    shared: ParsedText | None = None
    shared_error: str | None = None
    note: str | None = None
    if ours:
        try:
            shared = _parse_ours(path, work_dir / "ours")
        except ParseFailure as exc:
            shared_error = str(exc)
    elif lightrag is not None:
        shared = lightrag
        note = f"our package has no {path.suffix} parser yet: P runs on LightRAG's native parse"
    else:
        try:
            shared = _plain_text(path)
            note = "read as plain text: P falls back to R"
        except ParseFailure as exc:
            shared_error = str(exc)
    return EvalDocument(
        path=path,
        name=name,
        shared=shared,
        shared_error=shared_error,
        ours_note=note,
        lightrag=lightrag if with_lightrag else None,
        lightrag_error=lightrag_error if with_lightrag else "not asked for",
    )


def collect_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files to evaluate: files as given, folders searched (sorted) for every format we
    parse and plain text (:data:`EVAL_SUFFIXES`).

    Raises:
        ValueError: a path that does not exist, or a folder with no file to evaluate.
    """
    files: list[Path] = []
    for raw in paths:
        found, missing = files_in([raw], suffixes=EVAL_SUFFIXES)
        if missing:
            raise ValueError(f"{raw}: no such file or folder")
        if not found:
            raise ValueError(f"{raw}: no file to evaluate in this folder")
        files.extend(found)
    return list(dict.fromkeys(files))


def document_names(files: Sequence[Path]) -> list[str]:
    """A unique, readable name per file: its file name, or more of its path when shared."""
    names = [f.name for f in files]
    repeated = {n for n in names if names.count(n) > 1}
    return [str(f) if f.name in repeated else f.name for f in files]
