"""The hostile-input harness: documents cheap to make and costly to read, and a run of one
through ``lightrag-pchunk chunk`` in a child process under CPU-time and address-space limits
(the per-document budget: 60 CPU-s and 2 GiB), with what it cost.

Any format the command reads goes through it: Word, Markdown, PDF, or a blocks file another
parser wrote. The makers write their files in the test's folder, so no big file is kept in
the repository.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from hostile_inputs import package

#: The per-document budget the limits enforce.
CPU_SECONDS = 60
MEMORY_BYTES = 2 * 1024**3


@dataclass(frozen=True)
class LimitedRun:
    """How a child process ended and what it cost."""

    returncode: int
    stdout: str
    stderr: str
    cpu_seconds: float
    max_rss_bytes: int

    @property
    def killed(self) -> bool:
        """Ended by a signal (the CPU limit's SIGXCPU or SIGKILL, an abort)."""
        return self.returncode < 0


def word_paragraphs(path: Path, count: int) -> Path:
    """A .docx of ``count`` one-word paragraphs (1,000,000: 2.4 MB)."""
    path.write_bytes(
        package("".join(f"<w:p><w:r><w:t>w{i}</w:t></w:r></w:p>" for i in range(count)))
    )
    return path


def markdown_headings(path: Path, count: int) -> Path:
    """A Markdown file of ``count`` headings and nothing else (500,000: 4.9 MB)."""
    path.write_text("".join(f"# H{i}\n" for i in range(count)), encoding="utf-8")
    return path


def markdown_paragraphs(path: Path, count: int) -> Path:
    """A Markdown file of ``count`` one-word paragraphs."""
    path.write_text("".join(f"w{i}\n\n" for i in range(count)), encoding="utf-8")
    return path


def blocks_file(path: Path, contents: list[str]) -> Path:
    """A blocks file as another parser might write it: one content row per text."""
    rows = [{"type": "meta", "format": "lightrag"}]
    rows += [{"type": "content", "content": text, "heading": "", "level": 1} for text in contents]
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")
    return path


def chunk_within_budget(
    document: Path,
    *args: str,
    env: dict[str, str] | None = None,
    cpu_seconds: int = CPU_SECONDS,
    memory_bytes: int = MEMORY_BYTES,
) -> LimitedRun:
    """``lightrag-pchunk chunk DOCUMENT ARGS`` in a child process that the kernel stops at
    ``cpu_seconds`` of CPU time and ``memory_bytes`` of address space."""

    def limit() -> None:  # in the child, before it runs Python
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))

    child_env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), **(env or {})}
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "lightrag_pchunk.cli.main", "chunk", str(document), *args],
            stdout=out,
            stderr=err,
            text=True,
            env=child_env,
            preexec_fn=limit,
        )
        # A child stuck without using CPU (which the CPU limit cannot stop) is killed too.
        watchdog = threading.Timer(cpu_seconds * 10, process.kill)
        watchdog.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)  # its own rusage, not all children's
        finally:
            watchdog.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return LimitedRun(
            process.returncode,
            out.read(),
            err.read(),
            usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss * 1024,
        )
