"""Stage A for PDF, the reading: a PDF's pages -> the outline's events, everything that
needs PDFium, in one function that ``isolation`` runs in a process of its own.

Input: the file and its :class:`~lightrag_pchunk.pdf.source.PdfLimits`. Output: a
:class:`PdfReading`, plain data that crosses a process boundary: the events the shared
outline builder takes, each event line's source (its pages and boxes), the tables'
records, the user's warnings and the page count. On the way: open within limits
(``source``), glyphs -> segments (``glyphs``), tables (``tables``), segments -> lines in
reading order (``layout``), running headers and footers out (``furniture``), lines ->
paragraphs (``paragraphs``), the outline it states (``outline``) and the events (``pages``).

A page PDFium cannot load (a page tree that loops, a damaged page object) is passed over
and named in a warning; a file none of whose pages load is refused as ``broken``. Pages
with pictures and no text layer are named in a warning; when no page has text, the file is
refused as ``image-only``. So are pages whose text does not decode (``undecodable``): their
undecodable text is not read, and a file with nothing else to read is refused as
``undecodable``. Pages whose CJK text is set in a font with a broken map to Unicode
(``mismapped``) are read as they are and named in a warning.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from lightrag_pchunk.errors import PdfParseError
from lightrag_pchunk.parse.outline_build import Event
from lightrag_pchunk.pdf.artifact_titles import (
    bookmark_levels,
    larger_artifacts,
    naming_titles,
    restore_titles,
)
from lightrag_pchunk.pdf.framed_titles import framed_titles
from lightrag_pchunk.pdf.furniture import drop_furniture
from lightrag_pchunk.pdf.glyphs import read_glyphs
from lightrag_pchunk.pdf.layout import Line, page_lines, read_segments
from lightrag_pchunk.pdf.mismapped import count_strays
from lightrag_pchunk.pdf.outline import (
    document_outline,
    normalise,
    read_bookmarks,
    titles_by_page,
)
from lightrag_pchunk.pdf.pages import Unit, events_of
from lightrag_pchunk.pdf.paragraphs import paragraphs
from lightrag_pchunk.pdf.printed_toc import listed_titles
from lightrag_pchunk.pdf.rules import page_rules
from lightrag_pchunk.pdf.segments import WordCutter
from lightrag_pchunk.pdf.source import IMAGE_ONLY_HINT, ParseGuard, PdfLimits, open_pdf
from lightrag_pchunk.pdf.structure_tree import OutlineMarks
from lightrag_pchunk.pdf.tables import TableFinder
from lightrag_pchunk.pdf.toc_entries import join_wrapped_entries
from lightrag_pchunk.pdf.undecodable import without_replacement_lines, without_undecodable
from lightrag_pchunk.pdf.watermarks import drop_watermarks
from lightrag_pchunk.wording import number_ranges

#: A page with fewer characters than this has no text layer to speak of (a document whose
#: pages all have pictures and no text is refused as image-only; one without pictures
#: either is empty, and parses to no rows, as an empty Word document does).
MIN_PAGE_CHARS = 20
#: FPDF_PAGEOBJ_IMAGE and FPDF_PAGEOBJ_FORM (a scan is often a picture inside a form).
_PICTURE_OBJECTS = frozenset({3, 5})
#: What to do with pages whose text layer a broken map garbles: OCR them over it.
MISMAPPED_HINT = "OCR it, e.g. ocrmypdf --force-ocr, or use LightRAG's mineru/docling engine"
#: Page numbers a warning lists at most.
_SHOWN_PAGES = 30


@dataclass(frozen=True)
class PdfReading:
    """What reading a PDF gave: the outline's ``events`` and each event line's source by
    its id (``units``), the tables' ``.tables.json`` records, ``warnings`` for the user,
    the number of ``pages`` and where the outline came from (``outline_source``)."""

    events: list[Event]
    units: dict[str, Unit]
    table_records: dict[str, dict]
    warnings: list[str]
    pages: int
    outline_source: str


def read_pdf(
    source: Path,
    limits: PdfLimits,
    doc_hash: str,
    on_page: Callable[[int], None] | None = None,
) -> PdfReading:
    """Read the PDF at ``source`` (see the module doc); ``doc_hash`` names its tables;
    ``on_page`` is told each page's number before the page is read.

    Raises:
        PdfParseError: refused by ``source.open_pdf`` or the :class:`ParseGuard`, or
            ``broken`` (no page loads) or ``image-only``.
    """
    name = str(source)
    document = open_pdf(source, limits)
    try:
        guard = ParseGuard(limits, name)
        marks = OutlineMarks.read(document)
        tables = TableFinder(doc_hash)
        bookmarks = read_bookmarks(document)
        titles = titles_by_page(bookmarks)
        pointed_at: dict[int, list[int]] = {}  # page -> its bookmarks' indexes
        for number, bookmark in enumerate(bookmarks):
            if bookmark.page is not None:
                pointed_at.setdefault(bookmark.page, []).append(number)
        in_frames: set[int] = set()  # bookmarks naming the title of a frame of one cell
        listed: frozenset[str] = frozenset()  # by the printed tables of contents read so far
        restored: set[str] = set()  # named titles marked as furniture, read as text
        by_size: list[tuple[int, str]] = []  # titles named by size only, restored: page, text
        sized: Counter[str] = Counter()  # pages setting each such title as furniture
        levels = bookmark_levels(bookmarks)
        pages: list[list[Line]] = []
        frames = []
        blank: list[int] = []
        unreadable: list[int] = []
        undecoded: list[int] = []
        mismapped: dict[int, int] = {}  # page -> its strays of a broken map
        for index in range(len(document)):
            if on_page is not None:
                on_page(index + 1)
            try:
                page = document[index]
            except pdfium.PdfiumError:
                unreadable.append(index + 1)
                continue
            try:
                guard.check_objects(pdfium_c.FPDFPage_CountObjects(page.raw), index + 1)
                textpage = page.get_textpage()
                try:
                    rules = page_rules(page)
                    glyphs = read_glyphs(page, textpage, index + 1, rules)
                    bookmarked = titles.get(index + 1, frozenset())
                    named = bookmarked | listed
                    text, is_undecodable = without_undecodable(glyphs, read_segments(glyphs))
                    if is_undecodable:
                        undecoded.append(index + 1)
                    elif strays := count_strays(glyphs):
                        mismapped[index + 1] = strays
                    text = tables.take(text, named, WordCutter(glyphs), bookmarked)
                    roles = marks.page_roles(page, textpage)
                    larger = larger_artifacts(text.segments, roles) - named  # by size only
                    sized.update(larger)
                    roles = naming_titles(roles, named | larger)
                    before = set(restored)
                    lines = page_lines(text, roles)
                    lines = restore_titles(lines, named | larger, restored, levels)
                    by_size += [(len(pages), t) for t in (restored - before) & larger]
                    lines = without_replacement_lines(lines)
                    listed |= listed_titles([line.text for line in lines])
                    if pointed := pointed_at.get(index + 1):
                        in_frames |= {
                            pointed[k]
                            for k in framed_titles(
                                [bookmarks[b] for b in pointed], rules, lines, page.get_height()
                            )
                        }
                finally:
                    textpage.close()
                if text.chars < MIN_PAGE_CHARS and _has_images(page):
                    blank.append(index + 1)
            finally:
                page.close()
            guard.after_page(text.chars, index + 1)
            pages.append(lines)
            frames.append(text.frame)
        # A title set large in the headers of several pages is their running head.
        for at, title in by_size:
            if sized[title] > 1:
                pages[at] = [line for line in pages[at] if normalise(line.text) != title]
        # A frame's title heads nothing (a table's cell, ``framed_titles``).
        outline = document_outline(
            marks, [b for number, b in enumerate(bookmarks) if number not in in_frames]
        )
        outline.framed = len(in_frames)
        tables.finish()
        count = len(document)
    finally:
        document.close()
    if unreadable and len(unreadable) == count:
        raise PdfParseError(name, "broken", "PDFium cannot load any of its pages")
    if not any(pages) and undecoded:
        raise PdfParseError(
            name,
            "undecodable",
            f"undecodable: no page's text maps to Unicode (fonts without a usable map);"
            f" {IMAGE_ONLY_HINT}",
        )
    if not any(pages) and blank:
        raise PdfParseError(
            name, "image-only", f"image-only: no text layer on any page; {IMAGE_ONLY_HINT}"
        )
    warnings: list[str] = []
    if undecoded:
        warnings.append(
            f"undecodable pages: {len(undecoded)} page(s) set their text in fonts without a"
            f" usable map to Unicode; that text was not read ({_pages(undecoded)});"
            f" {IMAGE_ONLY_HINT}"
        )
    if mismapped:
        warnings.append(
            f"mismapped characters: {len(mismapped)} page(s) set CJK text in a font whose map"
            f" to Unicode is broken ({sum(mismapped.values())} characters of unrelated scripts"
            f" among its ideographs); the text was read as the file maps it"
            f" and searches miss the words they are in ({_pages(list(mismapped))});"
            f" {MISMAPPED_HINT}"
        )
    if blank:
        warnings.append(
            f"image-only pages: {len(blank)} page(s) have no text layer and were not read"
            f" ({_pages(blank)}); {IMAGE_ONLY_HINT}"
        )
    if unreadable:
        warnings.append(
            f"unreadable pages: PDFium cannot load {len(unreadable)} page(s)"
            f" ({_pages(unreadable)}); they were not read"
        )
    laid_out = {
        key: " ".join(table.lines) for key, table in tables.rendered.items() if table.tag_index < 0
    }
    kept = drop_furniture(drop_watermarks(pages), frames, outline.bookmarks, laid_out)
    found = join_wrapped_entries(paragraphs(kept))
    events, units = events_of(found, tables.rendered, outline)
    return PdfReading(
        events, units, tables.records, warnings + outline.warnings, count, outline.source
    )


def _pages(numbers: list[int]) -> str:
    """``pages 2-22, 25``: runs of pages as ranges (the first :data:`_SHOWN_PAGES`, then
    ``…``)."""
    runs = number_ranges(numbers).split(", ")
    return f"pages {', '.join(runs[:_SHOWN_PAGES])}" + (" …" if len(runs) > _SHOWN_PAGES else "")


def _has_images(page: pdfium.PdfPage) -> bool:
    """Whether a page holds a picture (a scan, where text without a layer may be)."""
    raw = page.raw
    count = pdfium_c.FPDFPage_CountObjects(raw)
    return any(
        pdfium_c.FPDFPageObj_GetType(pdfium_c.FPDFPage_GetObject(raw, i)) in _PICTURE_OBJECTS
        for i in range(count)
    )
