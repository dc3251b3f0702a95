"""The artefacts of one parsed document, as LightRAG 1.5.7 lays them out (upstream facts
§2.3-§2.4, §5): the content rows (:mod:`~lightrag_pchunk.parse.content_rows`), the meta row,
the sidecars, written atomically into ``<name>.parsed/``. Shared by the Word, Markdown and
PDF parsers.

A format parser hands over :class:`ParsedParts` (heading-scoped blocks of content lines, the
sidecar records their tags name, warnings, a title); :func:`parse_to_folder` checks the
source (:mod:`~lightrag_pchunk.parse.source_checks`), builds everything in a staging folder
inside the output folder and moves it into place only when the parse succeeded, so a
refused file leaves a previous result untouched and never leaves half a result; nothing is
ever written outside the output folder.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lightrag_pchunk.blockfile.jsonl import BLOCKS_SUFFIX, merged_text, write_blocks
from lightrag_pchunk.blockfile.sidecars import SIDECAR_KINDS, write_sidecar
from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.model import PREFACE_HEADING, BlockRow
from lightrag_pchunk.naming import artefact_stem, canonical_basename, doc_id_for, parsed_dir_for
from lightrag_pchunk.parse.content_rows import SourceBlock, render_rows
from lightrag_pchunk.parse.source_checks import check_doc_id, name_too_long, unreadable_source
from lightrag_pchunk.version import DISTRIBUTION, package_version

if TYPE_CHECKING:
    from lightrag_pchunk.parse.outline_build import OutlineReport

logger = logging.getLogger("lightrag.pchunk")

#: ``parse_engine`` in the meta row: LightRAG treats our output exactly like its own.
PARSE_ENGINE = "native"


def parser_version() -> str:
    """``lightrag-pchunk <version>``, recorded in the meta row's ``parser`` key."""
    return f"{DISTRIBUTION} {package_version()}"


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
    for kind in SIDECAR_KINDS:
        write_sidecar(blocks_path, kind, records[kind])
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


def _check_output(source: Path, parsed_dir: Path, error: type[DocumentParseError]) -> bool:
    """Refuse an output location that is a file, or a symbolic link (it could point anywhere);
    True when the folder that receives it is there already (it needs no mkdir)."""
    base = parsed_dir.parent
    # "exists and is not a folder", in that order: a parse running beside this one may make
    # the folder between two look-ups, and a folder made meanwhile is no obstacle.
    if parsed_dir.is_symlink():
        problem = f"{parsed_dir} is a symbolic link"
    elif parsed_dir.exists() and not parsed_dir.is_dir():
        problem = f"{parsed_dir} exists and is not a folder"
    elif base.exists() and not base.is_dir():
        problem = f"{base} exists and is not a folder"
    else:
        return base.is_dir()
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
    stale += [f"{stem}.{kind}.json" for kind in SIDECAR_KINDS]
    for name in stale:
        old = parsed_dir / name
        if old.is_symlink() or old.is_file():
            old.unlink()
        elif old.is_dir():
            shutil.rmtree(old)
    for entry in staging.iterdir():
        entry.replace(parsed_dir / entry.name)
    staging.rmdir()
