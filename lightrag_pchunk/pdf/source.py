"""Stage A for PDF, first: open the file within its limits, or refuse it in one line.

Input: a path and :class:`PdfLimits`. Output: an open ``pypdfium2.PdfDocument`` and a
:class:`ParseGuard` that the page loop asks before and after each page. A file we refuse
raises :class:`~lightrag_pchunk.errors.PdfParseError` with a stable ``reason``: not a PDF,
a user password, an encryption PDFium does not support, a file PDFium cannot read, or over
a limit (bytes, pages, objects on a page, text, time, memory). A file encrypted with an
owner password only (printing or copying restricted) opens: its text is readable.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

from lightrag_pchunk.errors import PdfParseError
from lightrag_pchunk.work_budget import positive_ints_from_env, require_positive_fields

_MIB = 1024 * 1024
#: PDF readers look for the header this far into the file (bytes before it are tolerated:
#: print-job tickets, a UTF-8 byte order mark).
HEADER_WINDOW = 1024
#: PDFium's FPDF_GetLastError codes.
_ERR_PASSWORD = 4
_ERR_SECURITY = 5

#: The memory a reading holds is read (a file of /proc) on its first page and every this
#: many pages after: memory that grows page by page is refused a few pages later at most,
#: and a page that takes it at once meets the reading child's address-space cap
#: (``isolation``).
MEMORY_CHECK_PAGES = 8
#: What to do with a PDF without a text layer (a scan).
IMAGE_ONLY_HINT = "OCR it first, e.g. with ocrmypdf, or use LightRAG's mineru/docling engine"


@dataclass(frozen=True)
class PdfLimits:
    """What parsing one PDF may cost; a value below 1 is refused.

    Attributes:
        max_bytes: the file's size (``LIGHTRAG_PCHUNK_PDF_MAX_BYTES``).
        max_pages: pages of the document (``LIGHTRAG_PCHUNK_PDF_MAX_PAGES``).
        max_page_objects: objects (text, paths, images) on one page, counted before its
            text is read (``LIGHTRAG_PCHUNK_PDF_MAX_PAGE_OBJECTS``): a hostile page can hold
            millions.
        max_text_chars: characters of text the whole document may produce
            (``LIGHTRAG_PCHUNK_MAX_TEXT_CHARS``, as for Word).
        max_seconds: CPU seconds reading the pages may take
            (``LIGHTRAG_PCHUNK_PDF_MAX_SECONDS``): the reading process's CPU limit, and
            checked after every page.
        max_memory_mb: memory reading the pages may take, in MiB
            (``LIGHTRAG_PCHUNK_PDF_MAX_MEMORY_MB``): the reading process's address space
            over its size at start (``isolation``), and the growth of its resident memory,
            checked after every page where the system reports it (Linux).
    """

    max_bytes: int = 512 * _MIB
    max_pages: int = 10_000
    max_page_objects: int = 500_000
    max_text_chars: int = 32 * _MIB
    max_seconds: int = 60
    max_memory_mb: int = 2048

    def __post_init__(self) -> None:
        require_positive_fields(self)

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> PdfLimits:
        """Limits from environment variables; unset or empty ones keep their default.

        Raises:
            ValueError: a value is not an integer >= 1; the message names the variable.
        """
        return cls(**positive_ints_from_env(env, ENV_VARS))


#: The environment variable of each limit.
ENV_VARS = {
    "max_bytes": "LIGHTRAG_PCHUNK_PDF_MAX_BYTES",
    "max_pages": "LIGHTRAG_PCHUNK_PDF_MAX_PAGES",
    "max_page_objects": "LIGHTRAG_PCHUNK_PDF_MAX_PAGE_OBJECTS",
    "max_text_chars": "LIGHTRAG_PCHUNK_MAX_TEXT_CHARS",
    "max_seconds": "LIGHTRAG_PCHUNK_PDF_MAX_SECONDS",
    "max_memory_mb": "LIGHTRAG_PCHUNK_PDF_MAX_MEMORY_MB",
}


def open_pdf(path: Path, limits: PdfLimits) -> pdfium.PdfDocument:
    """The document at ``path``, opened by PDFium without a password.

    Raises:
        PdfParseError: ``too-large``, ``not-a-pdf``, ``password``, ``encryption``,
            ``broken`` or ``too-many-pages``.
    """
    name = str(path)
    size = path.stat().st_size
    if size > limits.max_bytes:
        raise PdfParseError(
            name,
            "too-large",
            f"the file has {size:,} bytes, over the limit of {limits.max_bytes:,}"
            f" ({ENV_VARS['max_bytes']})",
        )
    with path.open("rb") as stream:
        head = stream.read(HEADER_WINDOW)
    if b"%PDF" not in head:
        raise PdfParseError(name, "not-a-pdf", "not a PDF: no %PDF header at its start")
    try:
        document = pdfium.PdfDocument(name)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == _ERR_PASSWORD:
            raise PdfParseError(
                name, "password", "it needs a password to open; remove it and parse again"
            ) from None
        if code == _ERR_SECURITY:
            raise PdfParseError(
                name, "encryption", "its encryption is not supported by PDFium"
            ) from None
        raise PdfParseError(
            name,
            "broken",
            "PDFium cannot read it (a truncated or damaged file, or a compression filter"
            " it does not support)",
        ) from None
    pages = len(document)
    if pages > limits.max_pages:
        document.close()
        raise PdfParseError(
            name,
            "too-many-pages",
            f"it has {pages:,} pages, over the limit of {limits.max_pages:,}"
            f" ({ENV_VARS['max_pages']})",
        )
    return document


class ParseGuard:
    """The limits that grow as pages are read: objects per page, text, time and memory."""

    __slots__ = ("_chars", "_limits", "_name", "_rss_start", "_start")

    def __init__(self, limits: PdfLimits, name: str) -> None:
        self._limits = limits
        self._name = name
        self._chars = 0
        self._start = time.process_time()
        self._rss_start = resident_bytes()

    def check_objects(self, count: int, page_number: int) -> None:
        """Refuse a page with more objects than the limit, before its text is read.

        Raises:
            PdfParseError: ``page-objects``.
        """
        if count > self._limits.max_page_objects:
            raise PdfParseError(
                self._name,
                "page-objects",
                f"page {page_number} has {count:,} objects, over the limit of"
                f" {self._limits.max_page_objects:,} ({ENV_VARS['max_page_objects']})",
            )

    def after_page(self, chars: int, page_number: int) -> None:
        """Count a page's characters and check the text and time limits, and the memory
        limit on the first page and every :data:`MEMORY_CHECK_PAGES` pages after.

        Raises:
            PdfParseError: ``output-budget``, ``time-limit`` or ``memory-limit``.
        """
        limits = self._limits
        self._chars += chars
        if self._chars > limits.max_text_chars:
            raise PdfParseError(
                self._name,
                "output-budget",
                f"the text reaches {self._chars:,} characters at page {page_number}, over the"
                f" limit of {limits.max_text_chars:,} ({ENV_VARS['max_text_chars']})",
            )
        elapsed = time.process_time() - self._start
        if elapsed > limits.max_seconds:
            raise PdfParseError(
                self._name,
                "time-limit",
                f"reading took over {limits.max_seconds} CPU seconds (at page {page_number})"
                f" ({ENV_VARS['max_seconds']})",
            )
        if (page_number - 1) % MEMORY_CHECK_PAGES:
            return
        rss = resident_bytes()
        if rss and self._rss_start and rss - self._rss_start > limits.max_memory_mb * _MIB:
            raise PdfParseError(
                self._name,
                "memory-limit",
                f"memory grew by {(rss - self._rss_start) // _MIB:,} MiB at page {page_number},"
                f" over the limit of {limits.max_memory_mb:,} MiB ({ENV_VARS['max_memory_mb']})",
            )


def resident_bytes() -> int:
    """The process's resident memory in bytes, 0 where the system does not report it."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        with open("/proc/self/statm", "rb") as stream:
            resident_pages = int(stream.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return resident_pages * os.sysconf("SC_PAGE_SIZE")
