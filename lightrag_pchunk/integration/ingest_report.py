"""What ``ainsert_files`` reports: one ``FileResult`` per file, the ``IngestReport``, progress.

A ``FileResult`` is one line for a person (``report.docx: inserted (P, 12 chunks)``); the
progress bar draws those lines as files finish, in place on a terminal; the report's
:meth:`IngestReport.summary` counts the outcomes, and the failures by why they failed.

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
#: The order the summary counts outcomes in.
STATUSES = (INSERTED, REPLACED, UNCHANGED, QUEUED, EMPTY, FAILED)


@dataclass(frozen=True, slots=True)
class FileResult:
    """What happened to one file."""

    path: Path
    status: str  # inserted | unchanged | replaced | queued | empty | failed
    doc_id: str | None = None
    strategy: str | None = None  # "P" | "R" (as planned at registration)
    chunks: int = 0
    message: str = ""
    reason: str = ""  # why a file failed, in a few words ("cannot parse"): the summary's

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
        chunks = counted(self.chunks, "chunk")
        detail = f"{self.strategy}, {chunks}" if self.strategy else chunks
        extra = f"; {self.message}" if self.message else ""
        return f"{self.path.name}: {self.status} ({detail}){extra}"


@dataclass(slots=True)
class IngestReport:
    """The results of one :func:`ainsert_files` call, in input order."""

    results: list[FileResult] = field(default_factory=list)

    @property
    def failed(self) -> list[FileResult]:
        """The files that failed."""
        return [r for r in self.results if not r.ok]

    @property
    def ok(self) -> bool:
        """True when no file failed."""
        return not self.failed

    def summary(self) -> str:
        """``4 files: 2 inserted, 1 empty (no text), 1 failed (cannot parse: 1)``: every
        outcome counted, and the failures by why they failed."""
        by_status = Counter(result.status for result in self.results)
        parts = []
        for status in STATUSES:
            if not by_status[status]:
                continue
            part = f"{by_status[status]} {status}"
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
