"""Stage A entry for PDF: ``.pdf`` -> ``<stem>.blocks.jsonl`` and its sidecars, in the layout
and formats of the .docx and Markdown parsers, written through the same writer
(:func:`~lightrag_pchunk.parse.artefacts.parse_to_folder`).

The stages, each a module of this package: open within limits (``source``), glyphs ->
segments (``glyphs``), segments -> lines in reading order (``layout``), tables (``tables``),
running headers and footers out (``furniture``), lines -> paragraphs (``paragraphs``), the
outline in order of trust (``outline``: the tagged structure tree, bookmarks, then the
shared heading classifier through :func:`~lightrag_pchunk.parse.outline_build.build_blocks`),
and the blocks with their pages (``pages``).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pypdfium2.raw as pdfium_c

from lightrag_pchunk.errors import PdfParseError
from lightrag_pchunk.model import PREFACE_HEADING
from lightrag_pchunk.outline.judge import OutlineJudge
from lightrag_pchunk.parse.artefacts import ParsedDocument, ParsedParts, parse_to_folder
from lightrag_pchunk.parse.outline_build import SmartHeading, build_blocks
from lightrag_pchunk.pdf.furniture import drop_furniture
from lightrag_pchunk.pdf.glyphs import read_glyphs
from lightrag_pchunk.pdf.layout import Line, page_lines, read_segments
from lightrag_pchunk.pdf.outline import OutlineMarks, document_outline
from lightrag_pchunk.pdf.pages import BBOX_ATTRIBUTES, events_of, source_blocks
from lightrag_pchunk.pdf.paragraphs import paragraphs
from lightrag_pchunk.pdf.rules import page_rules
from lightrag_pchunk.pdf.source import IMAGE_ONLY_HINT, ParseGuard, PdfLimits, open_pdf
from lightrag_pchunk.pdf.tables import TableFinder

#: File suffixes read as PDF.
PDF_SUFFIXES = frozenset({".pdf"})
#: A page with fewer characters than this has no text layer to speak of (a document whose
#: pages all have pictures and no text is refused as image-only; one without pictures
#: either is empty, and parses to no rows, as an empty Word document does).
MIN_PAGE_CHARS = 20
#: FPDF_PAGEOBJ_IMAGE and FPDF_PAGEOBJ_FORM (a scan is often a picture inside a form).
_PICTURE_OBJECTS = frozenset({3, 5})


def parse_pdf(
    path: str | Path,
    output_dir: str | Path | None = None,
    *,
    doc_id: str | None = None,
    limits: PdfLimits | None = None,
    smart_heading: bool | str | SmartHeading | None = None,
    outline_judge: OutlineJudge | None = None,
) -> ParsedDocument:
    """Parse a PDF and write its blocks file and sidecars.

    Args:
        path: the PDF file.
        output_dir: the folder that receives ``<name>.parsed/``; default
            ``<source dir>/__parsed__`` (LightRAG's layout).
        doc_id: the document id; default LightRAG's for a known file path: ``doc-`` + md5 of
            the canonical basename (file-name hint removed). Letters, digits, ``._-`` only.
        limits: what the parse may cost; default :meth:`PdfLimits.from_env`.
        smart_heading: infer headings from size, weight and numbering where the structure
            tree and bookmarks give too few: True/"on", False/"off" or "auto" (the default).
        outline_judge: optional language-model help for ambiguous heading candidates and
            topic breaks (``CHUNK_P_LLM_BOUNDARIES``); None asks nothing.

    Raises:
        PdfParseError: the file is refused (not a PDF, a password, unreadable, no text
            layer, over a limit), or the output folder cannot be used (``reason="output"``).
        FileNotFoundError: ``path`` does not exist.
        ValueError: ``doc_id`` has characters outside ``[A-Za-z0-9_.-]``, or a bad
            ``smart_heading``.
    """
    limits = limits if limits is not None else PdfLimits.from_env()
    smart = SmartHeading.parse(smart_heading)
    parse = partial(_pdf_parts, limits=limits, smart=smart, judge=outline_judge)
    return parse_to_folder(path, output_dir, doc_id, parse, PdfParseError)


def _pdf_parts(
    source: Path,
    folder: Path,
    stem: str,
    doc_id: str,
    *,
    limits: PdfLimits,
    smart: SmartHeading,
    judge: OutlineJudge | None,
) -> ParsedParts:
    """Parse ``source`` (``folder``, the staging folder, receives no assets: pictures in a
    PDF are not extracted)."""
    del folder, stem
    name = str(source)
    document = open_pdf(source, limits)
    try:
        guard = ParseGuard(limits, name)
        marks = OutlineMarks.read(document)
        tables = TableFinder(doc_id.removeprefix("doc-"))
        pages: list[list[Line]] = []
        frames = []
        blank: list[int] = []
        for index in range(len(document)):
            page = document[index]
            try:
                guard.check_objects(pdfium_c.FPDFPage_CountObjects(page.raw), index + 1)
                textpage = page.get_textpage()
                try:
                    glyphs = read_glyphs(page, textpage, index + 1, page_rules(page))
                    text = tables.take(read_segments(glyphs))
                    lines = marks.tag_lines(page, textpage, page_lines(text))
                finally:
                    textpage.close()
                if text.chars < MIN_PAGE_CHARS and _has_images(page):
                    blank.append(index + 1)
            finally:
                page.close()
            guard.after_page(text.chars, index + 1)
            pages.append(lines)
            frames.append(text.frame)
        outline = document_outline(document, marks)
        tables.finish()
    finally:
        document.close()
    warnings: list[str] = []
    if not any(pages) and blank:
        raise PdfParseError(
            name, "image-only", f"image-only: no text layer on any page; {IMAGE_ONLY_HINT}"
        )
    if blank:
        shown = ", ".join(map(str, blank[:30])) + (" …" if len(blank) > 30 else "")
        warnings.append(
            f"image-only pages: {len(blank)} page(s) have no text layer and were not read"
            f" (pages {shown}); {IMAGE_ONLY_HINT}"
        )
    found = paragraphs(drop_furniture(pages, frames))
    events, units = events_of(found, tables.rendered, outline)
    stated = sum(1 for event in events if event.level) >= 2
    if smart is SmartHeading.AUTO and stated and outline.source == "bookmarks":
        # Bookmarks state the outline: trusted whole. A printed table of contents often
        # lists the top levels only: the classifier may add deeper headings to it.
        smart = SmartHeading.OFF
    # A structure tree is trusted too, but producers leave parts of it untagged (annexes
    # after the last chapter set as text): the classifier reads the long stretches
    # without a heading, as in a styled Word document.
    tagged = stated and outline.source == "tagged"
    raw_blocks, report = build_blocks(events, smart, judge, stated=tagged)
    blocks = source_blocks(raw_blocks, units)
    title = next(
        (b.heading for b in raw_blocks if not b.is_toc and b.heading != PREFACE_HEADING), ""
    )
    return ParsedParts(
        blocks=blocks,
        tables=tables.records,
        warnings=warnings + outline.warnings,
        doc_title=title,
        meta={
            "bbox_attributes": dict(BBOX_ATTRIBUTES),
            "pages": len(pages),
            "outline": {**report.as_meta(), "source": outline.source},
        },
        outline=report,
    )


def _has_images(page: object) -> bool:
    """Whether a page holds a picture (a scan, where text without a layer may be)."""
    raw = page.raw  # type: ignore[attr-defined]
    count = pdfium_c.FPDFPage_CountObjects(raw)
    return any(
        pdfium_c.FPDFPageObj_GetType(pdfium_c.FPDFPage_GetObject(raw, i)) in _PICTURE_OBJECTS
        for i in range(count)
    )
