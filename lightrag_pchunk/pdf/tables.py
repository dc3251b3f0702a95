"""Stage A for PDF: tables, found on a page and written as LightRAG's table tags.

Input: a page and its lines in reading order. Output: the lines with each table's lines
replaced by one line holding its tag (``Line.role == "Table"``), and the ``.tables.json``
records of the document.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pypdfium2 as pdfium

from lightrag_pchunk.pdf.layout import Line


@dataclass(frozen=True, slots=True)
class PagePart:
    """Where part of a unit of text is printed: its 1-based ``page``, the characters
    ``start``..``end`` of its text there, and the box around them in user space."""

    page: int
    start: int
    end: int
    bbox: tuple[float, float, float, float]


@dataclass
class TableFinder:
    """The tables of one document, page by page."""

    doc_hash: str
    records: dict[str, dict] = field(default_factory=dict)
    parts: dict[str, tuple[PagePart, ...]] = field(default_factory=dict)

    def take(self, page: pdfium.PdfPage, lines: list[Line]) -> list[Line]:
        return lines
