"""Stage A entry for Word: ``.docx`` -> ``<stem>.blocks.jsonl`` and its sidecars, as LightRAG
1.5.7 lays them out (upstream facts §2.3-§2.4, §5).

Input: a Word package path. Output: :class:`ParsedDocument`, after writing
``<output_dir>/<name>.parsed/`` (default ``<source dir>/__parsed__/<name>.parsed/``) through
:func:`~lightrag_pchunk.parse.artefacts.parse_to_folder` (atomic, never outside the output
folder).
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.outline.judge import OutlineJudge
from lightrag_pchunk.parse.altchunk import AltChunkImporter, PackageRouter
from lightrag_pchunk.parse.artefacts import (
    PARSE_ENGINE,
    ParsedDocument,
    ParsedParts,
    parse_to_folder,
    parser_version,
)
from lightrag_pchunk.parse.budget import OutputBudget
from lightrag_pchunk.parse.content_rows import SourceBlock
from lightrag_pchunk.parse.drawings import DrawingExtractor
from lightrag_pchunk.parse.limits import PackageLimits
from lightrag_pchunk.parse.notes import NoteBook
from lightrag_pchunk.parse.outline_build import OutlineReport, RawBlock, SmartHeading
from lightrag_pchunk.parse.package import DocxPackage
from lightrag_pchunk.parse.story import Story
from lightrag_pchunk.parse.walk import BodyWalker
from lightrag_pchunk.parse.xml import qn
from lightrag_pchunk.work_budget import WorkBudget

__all__ = ["PARSE_ENGINE", "ParsedDocument", "parse_docx", "parser_version"]


def parse_docx(
    path: str | Path,
    output_dir: str | Path | None = None,
    *,
    doc_id: str | None = None,
    limits: PackageLimits | None = None,
    smart_heading: bool | str | SmartHeading | None = None,
    outline_judge: OutlineJudge | None = None,
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
        outline_judge: optional language-model help for the outline
            (``CHUNK_P_LLM_BOUNDARIES``: ambiguous heading candidates, topic breaks of long
            sections), bounded by its budget; None asks nothing.

    Raises:
        DocxParseError: the file is refused (not a Word package, over a limit, hostile XML),
            or the output folder cannot be used (``reason="output"``).
        FileNotFoundError: ``path`` does not exist.
        ValueError: ``doc_id`` has characters outside ``[A-Za-z0-9_.-]``, or a bad
            ``smart_heading`` / ``DOCX_SMART_HEADING`` value.
    """
    smart = resolve_smart_heading(smart_heading)
    parse = partial(_docx_parts, limits=limits, smart=smart, judge=outline_judge)
    return parse_to_folder(path, output_dir, doc_id, parse, DocxParseError)


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


def _docx_parts(
    source: Path,
    folder: Path,
    stem: str,
    doc_id: str,
    *,
    limits: PackageLimits | None,
    smart: SmartHeading,
    judge: OutlineJudge | None,
) -> ParsedParts:
    """Parse ``source``, writing its pictures into ``folder`` (the staging folder)."""
    doc_hash = doc_id.removeprefix("doc-")
    warnings: list[str] = []
    with DocxPackage.open(source, limits, name=str(source)) as package:
        router = PackageRouter(package)
        budget = OutputBudget(
            package.limits, str(source), lambda: package.decompressed_bytes, WorkBudget.from_env()
        )
        try:
            root = package.read_xml(package.main_part)
            body = root.find(qn("w:body")) if root is not None else None
            drawings = DrawingExtractor(
                router,  # type: ignore[arg-type] (duck-typed: the parts it reads)
                assets_dir=folder / f"{stem}.blocks.assets",
                assets_prefix=f"{stem}.blocks.assets",
                doc_hash=doc_hash,
                budget=budget,
            )
            walker = BodyWalker(doc_hash, warnings, smart, judge, budget)
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
    outline: OutlineReport | None = walker.outline
    return ParsedParts(
        blocks=[_source_block(block) for block in raw_blocks],
        tables=walker.tables,
        equations=walker.equations,
        drawings=drawings.records,
        warnings=warnings,
        # LightRAG's IR builder: the first heading, else the file's stem; a first heading
        # the classifier inferred that heads no section is the title all the same.
        doc_title=walker.doc_title,
        meta={"outline": outline.as_meta() if outline is not None else None},
        outline=outline,
    )


def _source_block(block: RawBlock) -> SourceBlock:
    """A walked block with LightRAG's docx positions (the first and last paraId) and our
    row keys: a table of contents, an inferred heading, topic breaks."""
    lines = block.lines
    positions = ({"type": "paraid", "range": [lines[0].start, lines[-1].end]},) if lines else ()
    texts = [line.text for line in lines]
    return SourceBlock(
        block.heading, block.level, block.parents, texts, positions, block.row_keys()
    )
