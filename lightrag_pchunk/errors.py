"""Exceptions a user may see, each naming what was wrong and where."""

from __future__ import annotations


class DocumentParseError(Exception):
    """A document we refuse to parse: the base of :class:`DocxParseError`,
    :class:`MarkdownParseError` and :class:`PdfParseError`, for callers that take any format.

    ``reason`` is a short stable code for tests and CLI exit codes (each subclass lists its
    own); ``part`` names the part of a package that was refused, when there is one.
    """

    def __init__(self, path: str, reason: str, message: str, *, part: str | None = None):
        self.path = str(path)
        self.reason = reason
        self.part = part
        self.detail = message
        where = f"{self.path}" + (f" (part {part})" if part else "")
        super().__init__(f"{where}: {message} [{reason}]")


class DocxParseError(DocumentParseError):
    """A .docx we refuse to parse.

    ``reason`` is a short stable code for tests and CLI exit codes, one of:
    ``"not-a-zip"`` (not a zip, empty or truncated), ``"encrypted"`` (a password-protected
    OLE container), ``"legacy-doc"`` (a Word 97-2003 .doc), ``"zip-budget"`` (over a
    ``PackageLimits`` limit), ``"ambiguous"`` (two zip entries name the same part),
    ``"output-budget"`` (the document would produce more text than the output budget
    allows, or more blocks or lines than the work budget), ``"corrupt"`` (a member that
    cannot be decompressed),
    ``"unsupported"`` (another OOXML package type), ``"missing-part"`` (no main document
    part), ``"dtd"`` (a DOCTYPE or entity declaration), ``"xml"`` (a part that is not
    well-formed), ``"xml-limit"`` (past libxml2's depth or text-size limits) and
    ``"output"`` (the output folder is a file, or the ``.parsed`` folder a
    symbolic link); for every format also ``"not-a-file"`` (a folder, a FIFO, a socket or
    a device) and ``"name-too-long"`` (the names of its parsed files would pass the file
    system's limit).
    """


class MarkdownParseError(DocumentParseError):
    """A Markdown file we refuse to parse.

    ``reason`` is one of: ``"too-large"`` (over ``MarkdownLimits``: bytes or lines),
    ``"binary"`` (not text: NUL bytes or other binary control characters), ``"encoding"``
    (not UTF-8 nor UTF-16 with a BOM, and no legacy code page clearly the one: see
    ``markdown/source.py``), ``"output-budget"`` (more blocks or lines than the work
    budget, ``work_budget.py``, allows) and ``"output"``, ``"not-a-file"``,
    ``"name-too-long"`` (as for :class:`DocxParseError`).
    """


class PdfParseError(DocumentParseError):
    """A PDF we refuse to parse.

    ``reason`` is one of: ``"not-a-pdf"`` (no ``%PDF`` header near the start of the file),
    ``"password"`` (it needs a user password to open), ``"encryption"`` (a security handler
    PDFium does not support), ``"broken"`` (PDFium cannot read it: truncated, damaged, or a
    filter it does not know), ``"image-only"`` (no text layer on any page: OCR it first),
    ``"undecodable"`` (no page's text maps to Unicode: its fonts lack a usable map; OCR it),
    ``"too-large"`` (over ``PdfLimits.max_bytes``), ``"too-many-pages"``, ``"page-objects"``
    (a page with more objects than ``PdfLimits.max_page_objects``), ``"output-budget"``
    (more text than ``PdfLimits.max_text_chars``), ``"time-limit"``, ``"memory-limit"``,
    ``"reader-crash"`` (the process reading it ended by a signal: PDFium aborted, most
    often over the memory limit) and ``"output"``, ``"not-a-file"``, ``"name-too-long"``
    (as for :class:`DocxParseError`).
    """


class BlockFileError(Exception):
    """A ``.blocks.jsonl`` file that cannot be read at all (missing, unreadable, not UTF-8)."""

    def __init__(self, path: str, message: str):
        self.path = str(path)
        super().__init__(f"{self.path}: {message}")
