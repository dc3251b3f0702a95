"""What ``ainsert_files`` reports: one ``FileResult`` per file, the ``IngestReport``, progress.

A ``FileResult`` is one line for a person (``report.docx: inserted (P, 12 chunks)``,
``report.docx: stale (size 2000 -> 1200; P, 12 chunks)``, with ``dry_run`` ``report.docx: would
be re-chunked (size 2000 -> 1200; P, 12 chunks now)``); the progress bar draws those lines as
files finish, in place on a terminal; the report's :meth:`IngestReport.summary` counts the
outcomes, and the failures by why they failed.

A document without text is ``empty``: nothing to insert, nothing lost, so it is no failure
(a blank template in a folder must not fail every run), as in every command.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from lightrag_pchunk.wording import counted

INSERTED, UNCHANGED, REPLACED, QUEUED, EMPTY, FAILED = (
    "inserted",
    "unchanged",
    "replaced",
    "queued",
    "empty",
    "failed",
)
#: In LightRAG, but parsed or chunked with other settings than the ones resolved now.
STALE = "stale"
#: Deleted from LightRAG and inserted again with the settings resolved now.
RECHUNKED = "re-chunked"
#: The outcomes that put a document into LightRAG (a dry run only plans them).
INSERTING = frozenset({INSERTED, REPLACED, RECHUNKED})
#: The order the summary counts outcomes in.
STATUSES = (INSERTED, RECHUNKED, REPLACED, UNCHANGED, STALE, QUEUED, EMPTY, FAILED)


@dataclass(frozen=True, slots=True)
class FileResult:
    """What happened to one file."""

    path: Path
    status: str  # inserted | unchanged | stale | re-chunked | replaced | queued | empty | failed
    doc_id: str | None = None
    strategy: str | None = None  # "P" | "R" (as planned at registration)
    chunks: int = 0
    message: str = ""
    reason: str = ""  # why a file failed, in a few words ("cannot parse"): the summary's
    #: The settings that changed since the document was inserted (``size 2000 -> 1200``).
    changes: tuple[str, ...] = ()
    #: A dry run: an inserting status is what would be done, and nothing was.
    planned: bool = False

    @property
    def ok(self) -> bool:
        """False only for a file that failed."""
        return self.status != FAILED

    def describe(self) -> str:
        """One line for a person: ``report.docx: inserted (P, 12 chunks)``."""
        if self.status == FAILED:
            return f"{self.path.name}: FAILED: {self.message}"
        if self.status == EMPTY:
            extra = f"; {self.message}" if self.message else ""
            return f"{self.path.name}: empty (the document has no text): nothing to insert{extra}"
        would = self.planned and self.status in INSERTING
        status = f"would be {self.status}" if would else self.status
        count = "" if would and not self.chunks else counted(self.chunks, "chunk")
        count = f"{count} now" if would and count else count
        chunks = ", ".join(part for part in (self.strategy, count) if part)
        detail = "; ".join(part for part in (*self.changes, chunks) if part)
        extra = f"; {self.message}" if self.message else ""
        return f"{self.path.name}: {status}{f' ({detail})' if detail else ''}{extra}"


@dataclass(slots=True)
class IngestReport:
    """The results of one :func:`ainsert_files` call, in input order."""

    results: list[FileResult] = field(default_factory=list)

    @property
    def failed(self) -> list[FileResult]:
        """The files that failed."""
        return [r for r in self.results if not r.ok]

    @property
    def stale(self) -> list[FileResult]:
        """The files in LightRAG with other settings than the current ones, left as they
        are (``rechunk=True`` re-chunks them)."""
        return [r for r in self.results if r.status == STALE]

    @property
    def ok(self) -> bool:
        """True when no file failed."""
        return not self.failed

    def summary(self) -> str:
        """``4 files: 2 inserted, 1 empty (no text), 1 failed (cannot parse: 1)``: every
        outcome counted, and the failures by why they failed."""
        by_status = Counter(result.status for result in self.results)
        planned = Counter(r.status for r in self.results if r.planned and r.status in INSERTING)
        parts = []
        for status in STATUSES:
            if not by_status[status]:
                continue
            # A dry run did nothing: what it would do is counted as such.
            done = by_status[status] - planned[status]
            part = ", ".join(
                f"{n} {label}"
                for n, label in ((done, status), (planned[status], f"would be {status}"))
                if n
            )
            if status == EMPTY:
                part += " (no text)"
            elif status == FAILED:
                reasons = Counter(r.reason or "other" for r in self.failed)
                part += " (" + ", ".join(f"{why}: {n}" for why, n in reasons.most_common()) + ")"
            parts.append(part)
        return f"{counted(len(self.results), 'file')}: {', '.join(parts) or 'none'}"


ProgressCallback = Callable[[int, int, FileResult], None]


class ProgressBar:
    """A text progress bar on a stream (redrawn in place on a terminal, else one line per file)."""

    def __init__(self, total: int, stream: TextIO | None = None, width: int = 24) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, done: int, total: int, result: FileResult) -> None:
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        line = f"[{bar}] {done}/{total} {result.describe()}"
        if self._tty:
            self.stream.write("\r\033[K" + line + ("\n" if done >= total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
