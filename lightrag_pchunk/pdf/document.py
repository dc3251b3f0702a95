"""Stage A entry for PDF: ``.pdf`` -> ``<stem>.blocks.jsonl`` and its sidecars, in the layout
and formats of the .docx and Markdown parsers, written through the same writer
(:func:`~lightrag_pchunk.parse.artefacts.parse_to_folder`).

The stages, each a module of this package: the reading (``reader``: everything that needs
PDFium, from opening the file within its limits to the outline's events, run in a capped
process of its own by ``isolation``), then the outline in order of trust (the tagged
structure tree, bookmarks, then the shared heading classifier through
:func:`~lightrag_pchunk.parse.outline_build.build_blocks`, with the language model's help
when asked), the document's title back to the preface where it heads nothing
(``parse/document_title``), a printed contents' leaders written as a tab
(``contents_text``), and the blocks with their pages (``pages``).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from lightrag_pchunk.errors import PdfParseError
from lightrag_pchunk.outline.judge import OutlineJudge
from lightrag_pchunk.parse.artefacts import ParsedDocument, ParsedParts, parse_to_folder
from lightrag_pchunk.parse.document_title import settle_title
from lightrag_pchunk.parse.outline_build import SmartHeading, build_blocks
from lightrag_pchunk.pdf.contents_text import contents_without_leaders
from lightrag_pchunk.pdf.isolation import read_isolated
from lightrag_pchunk.pdf.pages import BBOX_ATTRIBUTES, source_blocks
from lightrag_pchunk.pdf.source import PdfLimits


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
    reading = read_isolated(source, limits, doc_id.removeprefix("doc-"))
    events = reading.events
    stated = sum(1 for event in events if event.level) >= 2
    # A structure tree is trusted, but producers leave parts of it untagged (annexes
    # after the last chapter set as text): the classifier reads the long stretches
    # without a heading, as in a styled Word document. Bookmarks are trusted for the
    # headings they name, but producers leave some out (LibreOffice, headings in styles
    # of their own: deeper levels, appendices): the classifier adds the numbered ones.
    # A printed table of contents lists the headings down to the depth its author chose
    # (chapters and sections, not the sub-sections under them): the classifier reads the
    # whole document around the headings it names, its numbering continuing theirs.
    tagged = stated and reading.outline_source == "tagged"
    bookmarked = stated and reading.outline_source == "bookmarks"
    listed = reading.outline_source == "toc"
    raw_blocks, report = build_blocks(
        events, smart, judge, stated=tagged, partial=bookmarked, listed=listed
    )
    raw_blocks, report, title = settle_title(raw_blocks, report)
    raw_blocks, units = contents_without_leaders(raw_blocks, reading.units)
    blocks = source_blocks(raw_blocks, units)
    return ParsedParts(
        blocks=blocks,
        tables=reading.table_records,
        warnings=reading.warnings,
        doc_title=title,
        meta={
            "bbox_attributes": dict(BBOX_ATTRIBUTES),
            "pages": reading.pages,
            "outline": {**report.as_meta(), "source": reading.outline_source},
        },
        outline=report,
    )
