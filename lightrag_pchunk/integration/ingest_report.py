"""What ``ainsert_files`` reports: one ``FileResult`` per file, the ``IngestReport``, progress.

A ``FileResult`` is one line for a person (``report.docx: inserted (P, 12 chunks)``); the
progress bar draws those lines as files finish, in place on a terminal.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

INSERTED, UNCHANGED, REPLACED, QUEUED, FAILED = (
    "inserted",
    "unchanged",
    "replaced",
    "queued",
    "failed",
)


@dataclass(frozen=True, slots=True)
class FileResult:
    """What happened to one file."""

    path: Path
    status: str  # inserted | unchanged | replaced | queued | failed
    doc_id: str | None = None
    strategy: str | None = None  # "P" | "R" (as planned at registration)
    chunks: int = 0
    message: str = ""

    @property
    def ok(self) -> bool:
        """False only for a file that failed."""
        return self.status != FAILED

    def describe(self) -> str:
        """One line for a person: ``report.docx: inserted (P, 12 chunks)``."""
        if self.status == FAILED:
            return f"{self.path.name}: FAILED: {self.message}"
        detail = (
            f"{self.strategy}, {self.chunks} chunks" if self.strategy else f"{self.chunks} chunks"
        )
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
