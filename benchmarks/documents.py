"""The benchmark documents: written by ``docgen.py``, parsed by LightRAG's native parser,
cached under ``benchmarks/.work/docs-<hash>/``. Shared by ``bench_chunk.py`` and
``bench_instructions.py``; imports nothing heavy, so a valgrind child can load a document
cheaply.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import logging
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import docgen

CACHE_DIR = Path(__file__).resolve().parent / ".work"


@dataclass(frozen=True)
class Doc:
    """A parsed benchmark document: its blocks file and merged text."""

    name: str
    blocks_path: Path
    content: str
    rows: int

    def growth(self, previous: Doc) -> float:
        """How many times ``previous``'s text this document's text is (a series step)."""
        return len(self.content) / max(len(previous.content), 1)


def cache_key() -> str:
    """Cache folder name: changes when docgen or LightRAG's parser version changes."""
    digest = hashlib.sha256(Path(docgen.__file__).read_bytes())
    digest.update(metadata.version("lightrag-hku").encode())
    return "docs-" + digest.hexdigest()[:10]


def cache_dir() -> Path:
    """This version's cache folder of parsed documents."""
    return CACHE_DIR / cache_key()


def log(message: str) -> None:
    """Progress on stderr, one write per line (bench_instructions logs from threads)."""
    # One write per line: bench_instructions logs from several threads.
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def _parse_native(docx: Path, outdir: Path) -> Path:
    """Parse ``docx`` with LightRAG's native engine in-process; return its blocks file."""
    from lightrag.parser.cli import main as parser_main

    with contextlib.redirect_stdout(io.StringIO()), quiet_logging():
        code = parser_main([str(docx), "--engine", "native", "-o", str(outdir)])
    found = sorted(outdir.rglob(f"{docx.stem}.blocks.jsonl"))
    if code not in (0, None) or not found:
        raise RuntimeError(f"LightRAG's native parser failed on {docx} (exit {code})")
    return found[0]


def build_doc(name: str, writer: Callable[[Path], Path], cache: Path) -> Doc:
    """Write ``name``.docx with ``writer`` and parse it, unless the cache already has both."""
    cache.mkdir(parents=True, exist_ok=True)
    docx = cache / f"{name}.docx"
    if not docx.exists():
        log(f"building {docx.name} ...")
        started = time.perf_counter()
        partial = docx.with_suffix(".partial.docx")
        writer(partial)
        partial.replace(docx)
        log(f"  written in {time.perf_counter() - started:.1f} s")
    outdir = cache / "parsed" / name
    found = sorted(outdir.rglob(f"{name}.blocks.jsonl")) if outdir.exists() else []
    return read_doc(name, found[0] if found else _parse_native(docx, outdir))


def series_docs(series: str, counts: Sequence[int], cache: Path) -> list[Doc]:
    """The documents of a doubling series: ``sections`` (``counts`` H3 leaves, the scaling
    series) or ``siblings`` (``counts`` same-parent H2 siblings, the stress series)."""
    writers: dict[str, Callable[[Path, int], Path]] = {
        "sections": lambda path, count: docgen.small_sections(path, h3_sections=count),
        "siblings": lambda path, count: docgen.siblings(path, count=count),
    }
    write = writers[series]
    return [
        build_doc(f"{series}_{count}", functools.partial(write, count=count), cache)
        for count in counts
    ]


def read_doc(name: str, blocks_path: Path) -> Doc:
    """The :class:`Doc` of a parsed blocks file: its content rows joined as LightRAG does."""
    rows = []
    with blocks_path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                record = json.loads(line)
                if record.get("type") == "content":
                    rows.append(record["content"])
    # LightRAG's full_docs body for a native-parsed document (facts §1.2).
    return Doc(name=name, blocks_path=blocks_path, content="\n\n".join(rows), rows=len(rows))


@contextlib.contextmanager
def quiet_logging() -> Iterator[None]:
    """Silence WARNING and below (LightRAG warns per oversized block); errors still show."""
    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        yield
    finally:
        logging.disable(previous)
