"""Stage A for PDF: the reading (``reader.read_pdf``) in a process of its own, within the
document's memory and CPU limits.

PDFium is C. A hostile file can make it allocate gigabytes inside one call (a content
stream that inflates to gigabytes, forms that draw forms a billion times) or crash it, and
no Python check between pages can stop either: a server would die with it. So the reading
runs in a child process. For each document the child caps its address space at its size
then plus ``PdfLimits.max_memory_mb`` and its CPU time at its time so far plus
``PdfLimits.max_seconds``; the parent waits for it at most :data:`WALL_FACTOR` times that
(a child that sleeps). A single-threaded caller (the CLI, a script, a worker of ``parse``)
forks the child, which costs milliseconds; a threaded one (LightRAG's server,
``asyncio.to_thread``), where a fork may copy a lock another thread holds, starts a new
interpreter, which costs the reader's imports (about 0.3 CPU seconds).

A child that read a document within its limits (it parsed it, or refused it as not a PDF,
broken, image-only …) is kept for the next document, up to :data:`READS_PER_CHILD`: a new
process costs its start and the memory it must fault in again (a fifth of the reading of a
corpus of short PDFs); one that went over a limit or crashed is ended.

The child sends which page it reads and then its :class:`~lightrag_pchunk.pdf.reader.
PdfReading` (or the refusal) through a pipe. A child that ends without a result is refused
in one line: ``time-limit`` (its CPU limit, or the wait), ``memory-limit`` (a
``MemoryError``) or ``reader-crash`` (a signal: PDFium aborted, most often over the memory
limit, or the file crashed it), naming the page it was reading.
"""

from __future__ import annotations

import atexit
import gc
import math
import multiprocessing
import os
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
    job = (source, limits, doc_hash)
    child = _take_child()
    try:
        child.connection.send(job)
    except OSError:  # an idle child ended since it last read (killed from outside)
        child.close()
        child = _start()
        child.connection.send(job)
    page = 0
    deadline = time.monotonic() + WALL_FACTOR * limits.max_seconds + WALL_GRACE
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not child.connection.poll(remaining):
                child.kill()
                child.close()
                raise _refusal(source, limits, "time-limit", page)
            kind, value = child.connection.recv()
            if kind == "page":
                page = value
            elif kind == "done":
                _keep(child)
                return value
            elif kind == "refused":
                if value[0] in OVER_A_LIMIT:
                    child.close()
                else:
                    _keep(child)
                raise PdfParseError(str(source), *value)
            else:
                child.close()
                raise _refusal(source, limits, kind, page, value)
    except (EOFError, OSError):  # the child ended without a result: its exit code says why
        pass
    return _crashed(source, limits, child.close(), page)


#: The refusals of a document over a limit: the child that read it is not kept.
OVER_A_LIMIT = frozenset({"page-objects", "output-budget", "time-limit", "memory-limit"})
#: Documents one child reads at most before it is replaced (what PDFium or the
#: allocator keeps from one document is not carried on for ever).
READS_PER_CHILD = 100


class _Child:
    """A reading child, forked or a new interpreter, and the parent's end of its pipe: it
    reads the documents sent to it one at a time and is kept for the next while it
    reports results; one that hit a limit or crashed is closed."""

    def __init__(
        self, process: multiprocessing.Process | subprocess.Popen, connection: Connection
    ) -> None:
        self.process = process
        self.connection = connection
        self.reads = 0

    def alive(self) -> bool:
        if isinstance(self.process, subprocess.Popen):
            return self.process.poll() is None
        return self.process.is_alive()

    def kill(self) -> None:
        self.process.kill()

    def close(self) -> int | None:
        """Close the pipe (an idle child then ends) and wait for the exit code (negative:
        the signal that ended it)."""
        self.connection.close()
        if isinstance(self.process, subprocess.Popen):
            return self.process.wait()
        self.process.join()
        return self.process.exitcode


#: Children that read a document within its limits, waiting for the next one.
_IDLE: list[_Child] = []
_IDLE_LOCK = threading.Lock()


def _take_child() -> _Child:
    """An idle child still running, else a new one."""
    with _IDLE_LOCK:
        while _IDLE:
            child = _IDLE.pop()
            if child.alive():
                return child
            child.close()
    return _start()


def _keep(child: _Child) -> None:
    child.reads += 1
    if child.reads >= READS_PER_CHILD:
        child.close()
        return
    with _IDLE_LOCK:
        _IDLE.append(child)


def close_children() -> None:
    """End the idle reading children (at exit; a test that needs new ones)."""
    with _IDLE_LOCK:
        idle = list(_IDLE)
        _IDLE.clear()
    for child in idle:
        child.close()


atexit.register(close_children)
# A process forked from this one (a worker pool, a reading child) does not share this
# one's children: their pipes belong to this process.
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_IDLE.clear)


def _start() -> _Child:
    """A new child. A single-threaded process forks (it has imported the reader already);
    any other (a threaded server, where a fork may copy a lock another thread holds; a
    daemonic worker, which may not fork) starts a new interpreter on this module (a fork
    server or spawn would import the caller's ``__main__`` again, running a script's top
    level twice)."""
    alone = threading.active_count() == 1 and not multiprocessing.current_process().daemon
    if _FORK is not None and alone:
        ours, theirs = _FORK.Pipe()
        process = _FORK.Process(target=_serve, args=(theirs, ours), name="pdf-reader", daemon=True)
        process.start()
        theirs.close()
        return _Child(process, ours)
    ours, theirs = multiprocessing.Pipe()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    try:
        popen = subprocess.Popen(
            [sys.executable, "-m", __name__, str(theirs.fileno())],
            stdin=subprocess.DEVNULL,
            pass_fds=(theirs.fileno(),),
            env=env,
        )
    finally:
        theirs.close()
    return _Child(popen, ours)


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


def _serve(connection: Connection, parents_end: Connection | None = None) -> None:
    """The child: read each document the parent sends, within its limits, until the
    parent closes the pipe. A forked child closes its copy of the ``parents_end`` (else
    it would never see the pipe close)."""
    if parents_end is not None:
        parents_end.close()
    # What the child holds before its first document (the parent's objects, or its own
    # imports) lives as long as it does: frozen, it is not walked again by the
    # collections each reading's objects set off (a third of the collector's time in
    # reading the real corpus), nor are a forked parent's pages written to by them.
    gc.freeze()
    while True:
        try:
            source, limits, doc_hash = connection.recv()
        except EOFError:
            return
        _cap(limits)
        _read(connection, source, limits, doc_hash)


def _read(sender: Connection, source: Path, limits: PdfLimits, doc_hash: str) -> None:
    """Read one document, sending which page it reads and then the result (or why not)."""
    try:
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


def _cap(limits: PdfLimits) -> None:
    """Cap this process, for the document it reads next, at its address space now plus
    the memory limit and its CPU time so far plus the time limit (SIGXCPU, whose default
    action ends the process). Only the soft limits move, never above the hard ones: a
    child reads several documents, and a hard limit, once lowered, cannot rise again."""
    if resource is None:
        return
    size = _address_space()
    if size:
        _set_soft(resource.RLIMIT_AS, size + limits.max_memory_mb * _MIB)
    used = resource.getrusage(resource.RUSAGE_SELF)
    _set_soft(resource.RLIMIT_CPU, math.ceil(used.ru_utime + used.ru_stime) + limits.max_seconds)


def _set_soft(kind: int, soft: int) -> None:
    _, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(kind, (soft, hard))


def _address_space() -> int:
    """This process's virtual memory size in bytes, 0 where the system does not say."""
    try:
        with open("/proc/self/statm", "rb") as stream:
            return int(stream.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


if __name__ == "__main__":  # the child as a new interpreter: its pipe's descriptor
    _serve(Connection(int(sys.argv[1])))
