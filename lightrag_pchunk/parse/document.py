"""Stage A entry: ``.docx`` -> ``<stem>.blocks.jsonl`` and its sidecars, as LightRAG 1.5.7 lays
them out (upstream facts §2.3-§2.4, §5).

Input: a Word package path. Output: :class:`ParsedDocument`, after writing
``<output_dir>/<name>.parsed/`` (default ``<source dir>/__parsed__/<name>.parsed/``). Everything
is built in a staging folder inside the output folder and moved into place only when the parse
succeeded, so a refused file leaves a previous result untouched and never leaves half a result;
nothing is ever written outside the output folder.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from lightrag_pchunk.blockfile.jsonl import BLOCKS_SUFFIX, merged_text, write_blocks
from lightrag_pchunk.blockfile.sidecars import write_sidecar
from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.model import PREFACE_HEADING, TOC_SESSION, BlockRow
from lightrag_pchunk.naming import artefact_stem, canonical_basename, doc_id_for, parsed_dir_for
from lightrag_pchunk.parse.altchunk import AltChunkImporter, PackageRouter
from lightrag_pchunk.parse.drawings import DrawingExtractor
from lightrag_pchunk.parse.notes import NoteBook
from lightrag_pchunk.parse.outline_build import OutlineReport, RawBlock, SmartHeading
from lightrag_pchunk.parse.package import DocxPackage
from lightrag_pchunk.parse.story import Story
from lightrag_pchunk.parse.walk import BodyWalker
from lightrag_pchunk.parse.xml import qn
from lightrag_pchunk.parse.zip_guard import PackageLimits

logger = logging.getLogger("lightrag.pchunk")

#: ``parse_engine`` in the meta row: LightRAG treats our output exactly like its own.
PARSE_ENGINE = "native"
_DOC_ID = re.compile(r"[A-Za-z0-9_.-]{1,128}")
# LightRAG strips these (C0 controls and separators, surrogates, U+FFFE/U+FFFF) from content.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
_SIDECAR_KINDS = ("tables", "equations", "drawings")


@functools.cache
def parser_version() -> str:
    """``lightrag-pchunk <version>``, recorded in the meta row's ``parser`` key."""
    try:
        return f"lightrag-pchunk {metadata.version('lightrag-pchunk')}"
    except metadata.PackageNotFoundError:  # pragma: no cover (running from a source tree)
        return "lightrag-pchunk unknown"


@dataclass(frozen=True)
class ParsedDocument:
    """The result of :func:`parse_docx`: where the artefacts are and what they hold.

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


def parse_docx(
    path: str | Path,
    output_dir: str | Path | None = None,
    *,
    doc_id: str | None = None,
    limits: PackageLimits | None = None,
    smart_heading: bool | str | SmartHeading | None = None,
) -> ParsedDocument:
    """Parse a .docx/.docm/.dotx/.dotm file and write its blocks file and sidecars.

    Args:
        path: the Word file.
        output_dir: the folder that receives ``<name>.parsed/``; default
            ``<source dir>/__parsed__`` (LightRAG's layout).
        doc_id: the document id; default LightRAG's for a known file path: ``doc-`` + md5 of
            the canonical basename (file-name hint removed). Letters, digits, ``._-`` only.
        limits: package limits; default :meth:`PackageLimits.from_env`.
        smart_heading: infer headings from numbering and look where styles are missing:
            True/"on", False/"off" or "auto" (on for a document with too few styled
            headings for its length); default ``DOCX_SMART_HEADING``, else "auto".

    Raises:
        DocxParseError: the file is refused (not a Word package, over a limit, hostile XML),
            or the output folder cannot be used (``reason="output"``).
        FileNotFoundError: ``path`` does not exist.
        ValueError: ``doc_id`` has characters outside ``[A-Za-z0-9_.-]``, or a bad
            ``smart_heading`` / ``DOCX_SMART_HEADING`` value.
    """
    smart = resolve_smart_heading(smart_heading)
    source = Path(path)
    if not source.is_file():
        raise FileNotFoundError(f"{source}: no such file")
    doc_id = doc_id if doc_id is not None else doc_id_for(source)
    if not _DOC_ID.fullmatch(doc_id):
        raise ValueError(f"doc_id must match [A-Za-z0-9_.-]{{1,128}}, got {doc_id!r}")
    parsed_dir = parsed_dir_for(source, output_dir)
    base = parsed_dir.parent
    _check_output(source, parsed_dir)
    base.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{parsed_dir.name}.", suffix=".tmp", dir=base))
    try:
        result = _parse_into(source, staging, doc_id, limits, smart)
        _install(staging, parsed_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    blocks_path = parsed_dir / result["blocks_name"]
    outline: OutlineReport = result["outline"]
    logger.info(
        "parse doc=%s file=%s blocks=%d tables=%d equations=%d drawings=%d warnings=%d "
        "smart_heading=%s inferred_headings=%d toc_blocks=%d",
        doc_id,
        source.name,
        len(result["rows"]),
        result["tables"],
        result["equations"],
        result["drawings"],
        len(result["warnings"]),
        outline.mode.value + ("" if outline.applied else " (not applied)"),
        outline.inferred_headings,
        outline.toc_blocks,
    )
    return ParsedDocument(
        source=source,
        doc_id=doc_id,
        parsed_dir=parsed_dir,
        blocks_path=blocks_path,
        content=result["content"],
        rows=tuple(result["rows"]),
        meta=result["meta"],
        warnings=tuple(result["warnings"]),
        tables=result["tables"],
        equations=result["equations"],
        drawings=result["drawings"],
        outline=outline,
    )


#: Environment variable of the smart outline (LightRAG's name): true, false or auto.
SMART_HEADING_ENV = "DOCX_SMART_HEADING"


def resolve_smart_heading(value: bool | str | SmartHeading | None) -> SmartHeading:
    """``value``, else ``DOCX_SMART_HEADING``, else auto.

    Raises:
        ValueError: a value that is not true/false/auto, naming where it came from.
    """
    if value is not None:
        return SmartHeading.parse(value)
    return SmartHeading.parse(os.environ.get(SMART_HEADING_ENV), name=SMART_HEADING_ENV)


def _parse_into(
    source: Path, folder: Path, doc_id: str, limits: PackageLimits | None, smart: SmartHeading
) -> dict[str, Any]:
    """Parse ``source`` and write every artefact into ``folder`` (the staging folder)."""
    stem = artefact_stem(source)
    name = canonical_basename(source.name)
    doc_hash = doc_id.removeprefix("doc-")
    blocks_path = folder / f"{stem}{BLOCKS_SUFFIX}"
    assets = folder / f"{stem}.blocks.assets"
    warnings: list[str] = []
    with DocxPackage.open(source, limits, name=str(source)) as package:
        router = PackageRouter(package)
        try:
            root = package.read_xml(package.main_part)
            body = root.find(qn("w:body")) if root is not None else None
            drawings = DrawingExtractor(
                router,  # type: ignore[arg-type] (duck-typed: the parts it reads)
                assets_dir=assets,
                assets_prefix=f"{stem}.blocks.assets",
                doc_hash=doc_hash,
            )
            walker = BodyWalker(doc_hash, warnings, smart)
            walker.alt_chunks = AltChunkImporter(router, drawings)
            if body is None:
                warnings.append("the main document has no w:body: it holds no text")
            else:
                story = Story.create(package, drawings, NoteBook(package, body), body=body)
                walker.walk(body, story, package.main_part)
            raw_blocks = walker.finish()
        finally:
            router.close()
        warnings[:0] = package.warnings
        warnings.extend(drawings.warnings)
    rows, records = _render(raw_blocks, doc_id, walker, drawings)
    if not rows:
        warnings.append("the document has no text: the blocks file holds no content rows")
    content = merged_text(rows)
    for kind in _SIDECAR_KINDS:
        write_sidecar(blocks_path, kind, records[kind])  # type: ignore[arg-type]
    has_assets = assets.is_dir() and any(assets.iterdir())
    if assets.is_dir() and not has_assets:
        assets.rmdir()
    meta = {
        "format": "lightrag",
        "version": "1.0",
        "document_name": name,
        "document_format": Path(name).suffix.lower().lstrip("."),
        "document_hash": "sha256:" + hashlib.sha256(content.encode("utf-8")).hexdigest(),
        "table_file": bool(records["tables"]),
        "equation_file": bool(records["equations"]),
        "drawing_file": bool(records["drawings"]),
        "asset_dir": has_assets,
        "blocks": len(rows),
        "doc_id": doc_id,
        "parse_engine": PARSE_ENGINE,
        "parse_time": datetime.now(timezone.utc).isoformat(),
        # LightRAG's IR builder: the first heading, else the file's stem.
        "doc_title": walker.first_heading or Path(name).stem or name,
        "parser": parser_version(),
        "outline": walker.outline.as_meta() if walker.outline is not None else None,
    }
    write_blocks(blocks_path, meta, rows)
    return {
        "blocks_name": blocks_path.name,
        "rows": rows,
        "content": content,
        "meta": {"type": "meta", **meta},
        "warnings": warnings,
        "tables": len(records["tables"]),
        "equations": len(records["equations"]),
        "drawings": len(records["drawings"]),
        "outline": walker.outline,
    }


def _render(
    raw_blocks: list[RawBlock], doc_id: str, walker: BodyWalker, drawings: DrawingExtractor
) -> tuple[list[BlockRow], dict[str, dict[str, dict]]]:
    """Content rows with LightRAG's blockids, and the sidecar items their content names."""
    pool = {**walker.tables, **walker.equations, **drawings.records}
    id_pattern = re.compile(rf"(?:tb|eq|im)-{re.escape(doc_id.removeprefix('doc-'))}-\d{{4,}}")
    used: set[str] = set()
    rows: list[BlockRow] = []
    for index, block in enumerate(raw_blocks):
        content = _CONTROL.sub("", "\n".join(line.text for line in block.lines)).strip()
        if not content:
            continue  # dropped, but later blocks keep their index (stable blockids)
        blockid = hashlib.md5(
            f"{doc_id}:{index}:{block.heading}:{content}".encode("utf-8", errors="replace")
        ).hexdigest()
        for item_id in id_pattern.findall(content):
            item = pool.get(item_id)
            if item is not None and item_id not in used:
                used.add(item_id)
                item.update(
                    blockid=blockid, heading=block.heading, parent_headings=list(block.parents)
                )
        positions = ({"type": "paraid", "range": [block.lines[0].start, block.lines[-1].end]},)
        extra: dict[str, Any] = {}
        if block.is_toc:
            extra["session_type"] = TOC_SESSION
        if block.source == "inferred":
            extra["heading_source"] = "inferred"
        rows.append(
            BlockRow(
                content=content,
                heading=block.heading,
                parent_headings=block.parents,
                level=block.level,
                blockid=blockid,
                positions=positions,
                extra=extra,
            )
        )
    records = {
        "tables": {k: v for k, v in walker.tables.items() if k in used},
        "equations": {k: v for k, v in walker.equations.items() if k in used},
        "drawings": {k: v for k, v in drawings.records.items() if k in used},
    }
    return rows, records


def _check_output(source: Path, parsed_dir: Path) -> None:
    """Refuse an output location that is a file, or a symbolic link (it could point anywhere)."""
    problem = None
    if parsed_dir.is_symlink():
        problem = f"{parsed_dir} is a symbolic link"
    elif parsed_dir.exists() and not parsed_dir.is_dir():
        problem = f"{parsed_dir} exists and is not a folder"
    elif parsed_dir.parent.exists() and not parsed_dir.parent.is_dir():
        problem = f"{parsed_dir.parent} exists and is not a folder"
    if problem:
        raise DocxParseError(
            str(source), "output", f"{problem}; remove it or choose another output folder"
        )


def _install(staging: Path, parsed_dir: Path) -> None:
    """Move the staged artefacts into ``parsed_dir``, replacing a previous parse's."""
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
