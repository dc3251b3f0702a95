"""What the benchmarks share: the corpus and results folders, CPU time of one call, the
run's header (versions, machine, command) and writing the results file."""

from __future__ import annotations

import contextlib
import gc
import logging
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import date
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).resolve().parent / "results"
CORPUS = ROOT.parent / "shared" / "corpus"
#: The doc id both parsers get, so their outputs name the same document.
DOC_ID = "doc-0123456789abcdef0123456789abcdef"
WORD_SUFFIXES = frozenset({".docx", ".docm", ".dotx", ".dotm"})


def cpu_seconds(task: Callable[[], Any]) -> tuple[float, Any]:
    """CPU time of this process for one call of ``task`` (garbage collected first), and its
    result. On shared cores wall time mostly measures the neighbours."""
    gc.collect()
    start = time.process_time()
    result = task()
    return time.process_time() - start, result


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """No log lines below ERROR while measuring (LightRAG warns per oversized block)."""
    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        yield
    finally:
        logging.disable(previous)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def header(title: str, notes: list[str]) -> list[str]:
    """The results file's title and the facts a reader needs to trust or redo its figures."""
    versions = ", ".join(
        f"{name} {_version(name)}"
        for name in ("lightrag-hku", "tiktoken", "python-docx", "pyromark", "lightrag-pchunk")
    )
    return [
        f"# {title}, {date.today().isoformat()}",
        "",
        f"- python {platform.python_version()}, {versions} (git {_git_head()})",
        f"- machine: {platform.platform()}, 2 shared CPUs: times are CPU seconds of this"
        " process; ratios are taken within one run",
        f"- command: `python {' '.join(sys.argv)}`",
        *[f"- {note}" for note in notes],
        "",
    ]


def verdict(met: bool, text: str) -> str:
    return f"- {'target met' if met else 'TARGET MISSED'}: {text}"


def write_results(text: str, out: Path | None, default_name: str) -> None:
    """Print the report and write it to ``out`` (default ``results/<default_name>``)."""
    print(text)
    path = out or RESULTS / default_name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    log(f"results written to {path}")


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "?"


def _git_head() -> str:
    with contextlib.suppress(OSError):
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
        return done.stdout.strip() or "?"
    return "?"
