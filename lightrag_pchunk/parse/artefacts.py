"""The artefacts of one parsed document, as LightRAG 1.5.7 lays them out (upstream facts
§2.3-§2.4, §5): content rows with LightRAG's blockids, the meta row, the sidecars, written
atomically into ``<name>.parsed/``. Shared by the .docx and the Markdown parsers.

A format parser hands over :class:`ParsedParts` (heading-scoped blocks of content lines, the
sidecar records their tags name, warnings, a title); :func:`parse_to_folder` builds
everything in a staging folder inside the output folder and moves it into place only when
the parse succeeded, so a refused file leaves a previous result untouched and never leaves
half a result; nothing is ever written outside the output folder.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lightrag_pchunk.blockfile.jsonl import BLOCKS_SUFFIX, merged_text, write_blocks
from lightrag_pchunk.blockfile.sidecars import write_sidecar
from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.model import PREFACE_HEADING, BlockRow
from lightrag_pchunk.naming import artefact_stem, canonical_basename, doc_id_for, parsed_dir_for

if TYPE_CHECKING:
    from lightrag_pchunk.parse.outline_build import OutlineReport

logger = logging.getLogger("lightrag.pchunk")

#: ``parse_engine`` in the meta row: LightRAG treats our output exactly like its own.
PARSE_ENGINE = "native"
_DOC_ID = re.compile(r"[A-Za-z0-9_.-]{1,128}")
# LightRAG strips these (C0 controls and separators, surrogates, U+FFFE/U+FFFF) from content.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
_SIDECAR_KINDS = ("tables", "equations", "drawings")
#: The longest name LightRAG's layout makes of a source's stem (``<stem>.equations.json``).
_LONGEST_ARTEFACT = max(
    len(suffix)
    for suffix in (BLOCKS_SUFFIX, ".blocks.assets", *(f".{kind}.json" for kind in _SIDECAR_KINDS))
)
_PARSED_SUFFIX = ".parsed"
_FILE_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


@functools.cache
def parser_version() -> str:
    """``lightrag-pchunk <version>``, recorded in the meta row's ``parser`` key."""
    try:
        return f"lightrag-pchunk {metadata.version('lightrag-pchunk')}"
    except metadata.PackageNotFoundError:  # pragma: no cover (running from a source tree)
        return "lightrag-pchunk unknown"


@dataclass(frozen=True)
class ParsedDocument:
    """The result of a parse: where the artefacts are and what they hold.

    ``content`` is the content rows joined with ``"\\n\\n"`` (what LightRAG stores as the
    document body); ``rows`` are those content rows; ``warnings`` are user-facing messages
    about what was partly read.
    """

    source: Path
    doc_id: str
    parsed_dir: Path
    blocks_path: Path
    content: str
    rows: tuple[BlockRow, ...]
    meta: dict[str, Any]
    warnings: tuple[str, ...]
    tables: int
    equations: int
    drawings: int
    outline: OutlineReport | None = None

    @property
    def inferred_headings(self) -> int:
        """Headings the smart outline found (0 when it did not run)."""
        return self.outline.inferred_headings if self.outline is not None else 0

    @property
    def blocks(self) -> int:
        """Number of content rows in the blocks file."""
        return len(self.rows)

    @property
    def headings(self) -> dict[int, int]:
        """Heading rows by level (the Preface block is not a heading)."""
        counts: dict[int, int] = {}
        for row in self.rows:
            if row.heading != PREFACE_HEADING:
                counts[row.level] = counts.get(row.level, 0) + 1
        return dict(sorted(counts.items()))


@dataclass(slots=True)
class SourceBlock:
    """A heading-scoped block before rendering: its heading, its content lines (a line may
    hold several text lines), LightRAG's ``positions`` for it and keys of our own for its
    row (``session_type`` of a table of contents, ``heading_source``, ``topic_breaks``)."""

    heading: str
    level: int
    parents: tuple[str, ...]
    lines: list[str]
    positions: tuple[dict[str, Any], ...]
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class ParsedParts:
    """What a format parser hands to :func:`parse_to_folder`.

    The sidecar records are keyed by the ids their tags carry in the lines; ``blockid``,
    ``heading`` and ``parent_headings`` are filled in here, and a record no content row
    names is not written. ``meta`` adds keys to the meta row (after LightRAG's); ``outline``
    is the smart outline's report (Word only).
    """

    blocks: list[SourceBlock]
    tables: dict[str, dict] = field(default_factory=dict)
    equations: dict[str, dict] = field(default_factory=dict)
    drawings: dict[str, dict] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    doc_title: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    outline: OutlineReport | None = None


#: ``parse(source, staging folder, stem, doc_id)`` of one format: writes its assets (if
#: any) into ``<staging>/<stem>.blocks.assets`` and returns its parts.
FormatParser = Callable[[Path, Path, str, str], ParsedParts]


def check_doc_id(doc_id: str) -> None:
    """Raises ValueError when ``doc_id`` has characters outside ``[A-Za-z0-9_.-]``."""
    if not _DOC_ID.fullmatch(doc_id):
        raise ValueError(f"doc_id must match [A-Za-z0-9_.-]{{1,128}}, got {doc_id!r}")


def unreadable_source(source: Path) -> tuple[str, str] | None:
    """Why ``source`` is no file to read, as ``(reason, message)``: ``missing``, or
    ``not-a-file`` (a folder; a FIFO, socket or device, which a read could wait on
    forever); None for a regular file."""
    try:
        mode = source.stat().st_mode
    except FileNotFoundError:
        return "missing", "no such file"
    except OSError as exc:
        return "missing", f"cannot be read: {exc.strerror or exc}"
    if stat.S_ISDIR(mode):
        return "not-a-file", "a folder, not a file"
    if not stat.S_ISREG(mode):
        kind = next((what for test, what in _FILE_KINDS if test(mode)), "not a file")
        return "not-a-file", f"{kind}, not a regular file"
    return None


def name_too_long(source: Path) -> str | None:
    """Why the names LightRAG's layout gives ``source``'s artefacts would pass the file
    system's limit on one name (``<stem>.equations.json``, ``<name>.parsed``); None when
    they fit."""
    limit = _name_limit(source.parent)
    stem = len(artefact_stem(source).encode("utf-8", "surrogateescape"))
    name = len(canonical_basename(source.name).encode("utf-8", "surrogateescape"))
    longest = max(stem + _LONGEST_ARTEFACT, name + len(_PARSED_SUFFIX))
    if longest <= limit:
        return None
    keep = min(limit - _LONGEST_ARTEFACT, limit - len(_PARSED_SUFFIX) - (name - stem))
    return (
        f"its name is too long for LightRAG's layout of parsed files: they would be named"
        f" with up to {longest} bytes, over the file system's limit of {limit} bytes per"
        f" name; rename it to at most {keep} bytes before the extension"
    )


def _name_limit(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (AttributeError, OSError, ValueError):  # no pathconf (Windows): NTFS and most
        return 255


def parse_to_folder(
    path: str | Path,
    output_dir: str | Path | None,
    doc_id: str | None,
    parse: FormatParser,
    error: type[DocumentParseError],
) -> ParsedDocument:
    """Run ``parse`` in a staging folder and install its artefacts in ``<name>.parsed/``.

    Args:
        path: the source file.
        output_dir: the folder that receives ``<name>.parsed/``; default
            ``<source dir>/__parsed__`` (LightRAG's layout).
        doc_id: the document id; default LightRAG's for a known file path: ``doc-`` + md5 of
            the canonical basename (file-name hint removed).
        parse: the format's parser.
        error: the format's error class, raised with ``reason="output"`` when the output
            folder cannot be used.

    Raises:
        FileNotFoundError: ``path`` does not exist.
        DocumentParseError: (``error``) ``not-a-file`` (:func:`unreadable_source`) or
            ``name-too-long`` (:func:`name_too_long`).
        ValueError: ``doc_id`` has characters outside ``[A-Za-z0-9_.-]``.
    """
    source = Path(path)
    problem = unreadable_source(source)
    if problem is not None:
        reason, message = problem
        if reason == "missing":
            raise FileNotFoundError(f"{source}: {message}")
        raise error(str(source), reason, message)
    too_long = name_too_long(source)
    if too_long is not None:
        raise error(str(source), "name-too-long", too_long)
    doc_id = doc_id if doc_id is not None else doc_id_for(source)
    check_doc_id(doc_id)
    parsed_dir = parsed_dir_for(source, output_dir)
    base = parsed_dir.parent
    if not _check_output(source, parsed_dir, error):
        base.mkdir(parents=True, exist_ok=True)
    # A short name: the staging folder of a long file name must fit the limit too.
    staging = Path(tempfile.mkdtemp(prefix=".pchunk-", suffix=".parsing", dir=base))
    try:
        stem = artefact_stem(source)
        parts = parse(source, staging, stem, doc_id)
        result = _write(source, staging, stem, doc_id, parts, parsed_dir)
        install_parse(staging, parsed_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    outline = result.outline
    logger.info(
        "parse doc=%s file=%s blocks=%d tables=%d equations=%d drawings=%d warnings=%d%s",
        doc_id,
        source.name,
        len(result.rows),
        result.tables,
        result.equations,
        result.drawings,
        len(result.warnings),
        ""
        if outline is None
        else f" smart_heading={outline.mode.value}{'' if outline.applied else ' (not applied)'}"
        f" inferred_headings={outline.inferred_headings} toc_blocks={outline.toc_blocks}",
    )
    return result


def _write(
    source: Path, folder: Path, stem: str, doc_id: str, parts: ParsedParts, parsed_dir: Path
) -> ParsedDocument:
    """Write the blocks file and sidecars of ``parts`` into ``folder`` (the staging folder);
    the result names the paths they get once installed in ``parsed_dir``."""
    name = canonical_basename(source.name)
    blocks_name = f"{stem}{BLOCKS_SUFFIX}"
    blocks_path = folder / blocks_name
    assets = folder / f"{stem}.blocks.assets"
    warnings = list(parts.warnings)
    pools = {"tables": parts.tables, "equations": parts.equations, "drawings": parts.drawings}
    rows, records, document_hash = render_rows(parts.blocks, doc_id, pools)
    content = merged_text(rows)
    for kind in _SIDECAR_KINDS:
        write_sidecar(blocks_path, kind, records[kind])  # type: ignore[arg-type]
    has_assets = False
    if assets.is_dir():  # made by the parser for a first asset
        has_assets = any(assets.iterdir())
        if not has_assets:
            assets.rmdir()
    meta = {
        "format": "lightrag",
        "version": "1.0",
        "document_name": name,
        "document_format": Path(name).suffix.lower().lstrip("."),
        "document_hash": document_hash,
        "table_file": bool(records["tables"]),
        "equation_file": bool(records["equations"]),
        "drawing_file": bool(records["drawings"]),
        "asset_dir": has_assets,
        "blocks": len(rows),
        "doc_id": doc_id,
        "parse_engine": PARSE_ENGINE,
        "parse_time": datetime.now(timezone.utc).isoformat(),
        "doc_title": parts.doc_title or Path(name).stem or name,
        "parser": parser_version(),
        **parts.meta,
    }
    write_blocks(blocks_path, meta, rows)
    return ParsedDocument(
        source=source,
        doc_id=doc_id,
        parsed_dir=parsed_dir,
        blocks_path=parsed_dir / blocks_name,
        content=content,
        rows=tuple(rows),
        meta={"type": "meta", **meta},
        warnings=tuple(warnings),
        tables=len(records["tables"]),
        equations=len(records["equations"]),
        drawings=len(records["drawings"]),
        outline=parts.outline,
    )


def render_rows(
    blocks: list[SourceBlock], doc_id: str, pools: Mapping[str, Mapping[str, dict]]
) -> tuple[list[BlockRow], dict[str, dict[str, dict]], str]:
    """Content rows with LightRAG's blockids (their text without the characters LightRAG
    strips), the sidecar items their content names, and the meta row's ``document_hash``
    (``sha256:`` of the rows' merged text)."""
    pool = {item_id: item for records in pools.values() for item_id, item in records.items()}
    marker = f"-{doc_id.removeprefix('doc-')}-"  # in every id
    used: set[str] = set()
    rows: list[BlockRow] = []
    # The merged text (rows joined by a blank line) is hashed as the rows go: each row's
    # text is encoded once, for its blockid and for the document's hash. It holds no
    # surrogate (stripped), so "replace" changes nothing in it.
    document = hashlib.sha256()
    for index, block in enumerate(blocks):
        content = "\n".join(block.lines)
        content = strip_controls(content).strip()
        if not content:
            continue  # dropped, but later blocks keep their index (stable blockids)
        encoded = content.encode("utf-8", errors="replace")
        blockid_hash = hashlib.md5(f"{doc_id}:{index}:{block.heading}:".encode("utf-8", "replace"))
        blockid_hash.update(encoded)
        blockid = blockid_hash.hexdigest()
        if rows:
            document.update(b"\n\n")
        document.update(encoded)
        if marker in content:
            for item_id in _item_ids(content, marker):
                item = pool.get(item_id)
                if item is not None and item_id not in used:
                    used.add(item_id)
                    item.update(
                        blockid=blockid, heading=block.heading, parent_headings=list(block.parents)
                    )
        rows.append(
            BlockRow(
                content=content,
                heading=block.heading,
                parent_headings=block.parents,
                level=block.level,
                blockid=blockid,
                positions=block.positions,
                extra=block.extra,
            )
        )
    records = {
        kind: {k: v for k, v in pools.get(kind, {}).items() if k in used} for kind in _SIDECAR_KINDS
    }
    return rows, records, "sha256:" + document.hexdigest()


def strip_controls(text: str) -> str:
    """``text`` without the characters LightRAG strips from content (C0 controls but tab
    and line ends, DEL, surrogates, U+FFFE and U+FFFF)."""
    return _CONTROL.sub("", text)


def _item_ids(content: str, marker: str) -> list[str]:
    """The sidecar ids (``tb|eq|im-<doc hash>-NNNN``) named in ``content``, in order.

    Found with plain searches for ``-<doc hash>-``: a regular expression would try every
    position of every row."""
    ids: list[str] = []
    position = content.find(marker)
    while position >= 0:
        end = digits = position + len(marker)
        while end < len(content) and content[end].isdigit():
            end += 1
        if end - digits >= 4 and content[position - 2 : position] in ("tb", "eq", "im"):
            ids.append(content[position - 2 : end])
        position = content.find(marker, end)
    return ids


def _check_output(source: Path, parsed_dir: Path, error: type[DocumentParseError]) -> bool:
    """Refuse an output location that is a file, or a symbolic link (it could point anywhere);
    True when the folder that receives it is there already (it needs no mkdir)."""
    base = parsed_dir.parent
    if parsed_dir.is_symlink():
        problem = f"{parsed_dir} is a symbolic link"
    elif parsed_dir.is_dir():
        return True  # a previous parse's folder: its parent is a folder
    elif parsed_dir.exists():
        problem = f"{parsed_dir} exists and is not a folder"
    elif base.is_dir() or not base.exists():
        return base.is_dir()
    else:
        problem = f"{base} exists and is not a folder"
    raise error(str(source), "output", f"{problem}; remove it or choose another output folder")


def install_parse(staging: Path, parsed_dir: Path) -> None:
    """Move the artefacts of a parse made in ``staging`` into ``parsed_dir``, replacing a
    previous parse's."""
    if not parsed_dir.exists():
        staging.replace(parsed_dir)
        return
    new_names = {entry.name for entry in staging.iterdir()}
    stem = next(n[: -len(BLOCKS_SUFFIX)] for n in new_names if n.endswith(BLOCKS_SUFFIX))
    stale = [f"{stem}{BLOCKS_SUFFIX}", f"{stem}.blocks.assets"]
    stale += [f"{stem}.{kind}.json" for kind in _SIDECAR_KINDS]
    for name in stale:
        old = parsed_dir / name
        if old.is_symlink() or old.is_file():
            old.unlink()
        elif old.is_dir():
            shutil.rmtree(old)
    for entry in staging.iterdir():
        entry.replace(parsed_dir / entry.name)
    staging.rmdir()
