"""Stage A for PDF: the reading (``reader.read_pdf``) in a process of its own, within the
document's memory and CPU limits.

PDFium is C. A hostile file can make it allocate gigabytes inside one call (a content
stream that inflates to gigabytes, forms that draw forms a billion times) or crash it, and
no Python check between pages can stop either: a server would die with it. So the reading
runs in a child process whose address space is capped at its size when it starts plus
``PdfLimits.max_memory_mb`` and whose CPU time is capped at ``PdfLimits.max_seconds``;
the parent waits for it at most :data:`WALL_FACTOR` times that (a child that sleeps). A
single-threaded caller (the CLI, a script, a worker of ``parse``) forks the child, which
costs milliseconds; a threaded one (LightRAG's server, ``asyncio.to_thread``), where a fork
may copy a lock another thread holds, starts a new interpreter, which costs the reader's
imports (about 0.3 CPU seconds).

The child sends which page it reads and then its :class:`~lightrag_pchunk.pdf.reader.
PdfReading` (or the refusal) through a pipe. A child that ends without a result is refused
in one line: ``time-limit`` (its CPU limit, or the wait), ``memory-limit`` (a
``MemoryError``) or ``reader-crash`` (a signal: PDFium aborted, most often over the memory
limit, or the file crashed it), naming the page it was reading.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
import traceback
from multiprocessing.connection import Connection
from pathlib import Path

from lightrag_pchunk.errors import PdfParseError
from lightrag_pchunk.pdf.reader import PdfReading, read_pdf
from lightrag_pchunk.pdf.source import ENV_VARS, PdfLimits

try:
    import resource
except ImportError:  # not a POSIX system: the child runs without caps
    resource = None  # type: ignore[assignment]

_MIB = 1024 * 1024
#: The parent waits this many times the CPU limit (plus :data:`WALL_GRACE` s) for a child
#: (on a busy machine CPU time lags the clock).
WALL_FACTOR = 4
WALL_GRACE = 30
_FORK = multiprocessing.get_context("fork") if hasattr(os, "fork") else None


def read_isolated(source: Path, limits: PdfLimits, doc_hash: str) -> PdfReading:
    """``read_pdf(source, limits, doc_hash)`` in a capped child process (see the module
    doc).

    Raises:
        PdfParseError: what ``read_pdf`` refuses, or ``time-limit``, ``memory-limit`` or
            ``reader-crash`` for a child that ended without a result.
    """
    receiver, child = _start(source, limits, doc_hash)
    page = 0
    deadline = time.monotonic() + WALL_FACTOR * limits.max_seconds + WALL_GRACE
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not receiver.poll(remaining):
                child.kill()
                raise _refusal(source, limits, "time-limit", page)
            try:
                kind, value = receiver.recv()
            except EOFError:
                break
            if kind == "page":
                page = value
            elif kind == "done":
                return value
            elif kind == "refused":
                raise PdfParseError(str(source), *value)
            else:
                raise _refusal(source, limits, kind, page, value)
    finally:
        receiver.close()
        exitcode = child.wait()
    return _crashed(source, limits, exitcode, page)


class _Child:
    """A started child, forked or a new interpreter: kill it, or wait for its exit code
    (negative: the signal that ended it)."""

    def __init__(self, process: multiprocessing.Process | subprocess.Popen) -> None:
        self._process = process

    def kill(self) -> None:
        self._process.kill()

    def wait(self) -> int | None:
        if isinstance(self._process, subprocess.Popen):
            return self._process.wait()
        self._process.join()
        return self._process.exitcode


def _start(source: Path, limits: PdfLimits, doc_hash: str) -> tuple[Connection, _Child]:
    """The child and the end of the pipe it writes to. A single-threaded process forks (it
    has imported the reader already); any other (a threaded server, where a fork may copy
    a lock another thread holds; a daemonic worker, which may not fork) starts a new
    interpreter on this module (a fork server or spawn would import the caller's
    ``__main__`` again, running a script's top level twice)."""
    alone = threading.active_count() == 1 and not multiprocessing.current_process().daemon
    if _FORK is not None and alone:
        receiver, sender = _FORK.Pipe(duplex=False)
        process = _FORK.Process(
            target=_child, args=(sender, source, limits, doc_hash), name="pdf-reader"
        )
        process.start()
        sender.close()
        return receiver, _Child(process)
    read_end, write_end = os.pipe()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    try:
        popen = subprocess.Popen(
            [sys.executable, "-m", __name__, str(write_end)],
            stdin=subprocess.PIPE,
            pass_fds=(write_end,),
            env=env,
        )
    finally:
        os.close(write_end)
    assert popen.stdin is not None
    with popen.stdin:
        pickle.dump((source, limits, doc_hash), popen.stdin)
    return Connection(read_end), _Child(popen)


def _crashed(source: Path, limits: PdfLimits, exitcode: int | None, page: int) -> PdfReading:
    if exitcode is not None and exitcode < 0 and -exitcode == getattr(signal, "SIGXCPU", -1):
        raise _refusal(source, limits, "time-limit", page)
    raise _refusal(source, limits, "reader-crash", page, _signal_name(exitcode))


def _refusal(
    source: Path, limits: PdfLimits, reason: str, page: int, detail: str = ""
) -> PdfParseError:
    where = f" at page {page}" if page else ""
    if reason == "time-limit":
        message = (
            f"reading took over {limits.max_seconds} CPU seconds{where} ({ENV_VARS['max_seconds']})"
        )
    elif reason == "memory-limit":
        message = (
            f"reading needs more than {limits.max_memory_mb:,} MiB of memory{where}"
            f" ({ENV_VARS['max_memory_mb']})"
        )
    elif reason == "reader-crash":
        message = (
            f"the PDF reader (PDFium) stopped with {detail}{where}: the file needs more than"
            f" {limits.max_memory_mb:,} MiB ({ENV_VARS['max_memory_mb']}) or is damaged"
        )
    else:  # an unexpected exception in the child: a bug, reported as such
        raise RuntimeError(f"{source}: reading failed{where}: {detail}")
    return PdfParseError(str(source), reason, message)


def _signal_name(exitcode: int | None) -> str:
    if exitcode is None or exitcode >= 0:
        return f"exit code {exitcode}"
    try:
        return signal.Signals(-exitcode).name
    except ValueError:
        return f"signal {-exitcode}"


def _child(sender: Connection, source: Path, limits: PdfLimits, doc_hash: str) -> None:
    """The child: cap itself, read, send the result (or why not)."""
    _cap(limits)
    try:
        # Tells the parent which page it reads (for the refusal of a crash).
        reading = read_pdf(
            source, limits, doc_hash, on_page=lambda page: sender.send(("page", page))
        )
    except PdfParseError as exc:
        sender.send(("refused", (exc.reason, exc.detail)))
    except MemoryError:
        sender.send(("memory-limit", ""))
    except BaseException:  # the parent raises it as a bug, with the child's traceback
        sender.send(("error", traceback.format_exc(limit=-8)))
    else:
        sender.send(("done", reading))
    sender.close()


def _cap(limits: PdfLimits) -> None:
    """Cap this process's address space at its size now plus the memory limit, and its CPU
    time at the time limit (SIGXCPU, then SIGKILL 5 s later), never above a cap it has."""
    if resource is None:
        return
    size = _address_space()
    if size:
        _lower(resource.RLIMIT_AS, size + limits.max_memory_mb * _MIB, 0)
    _lower(resource.RLIMIT_CPU, limits.max_seconds, 5)


def _lower(kind: int, soft: int, margin: int) -> None:
    _, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
        resource.setrlimit(kind, (soft, min(soft + margin, hard)))
    else:
        resource.setrlimit(kind, (soft, soft + margin))


def _address_space() -> int:
    """This process's virtual memory size in bytes, 0 where the system does not say."""
    try:
        with open("/proc/self/statm", "rb") as stream:
            return int(stream.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


if __name__ == "__main__":  # the child as a new interpreter: its pipe's descriptor, its job
    _child(Connection(int(sys.argv[1])), *pickle.load(sys.stdin.buffer))
