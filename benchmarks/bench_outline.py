"""Does the smart outline find a document's real outline where its heading styles are gone,
and what does it cost? (issue 14)

Over ``../shared/corpus/docx``:

1. **Strip test.** Every file with at least 6 styled headings is copied with its heading
   paragraphs stripped (``outline_strip.py``): once keeping their look (bold, 16/14/13/12 pt by
   level), once keeping none. The copy is parsed with the smart outline on and compared with
   the styled file's outline: heading recall, precision, parent accuracy (targets 0.90, 0.90,
   0.85, summed over all files), and, without look, the recall of numbered headings (target:
   all). "Before" is the same copy parsed with the smart outline off (the parser until now).
2. **Table-of-contents headings.** No chunk heading of any file (default parse, P at N=2000 and
   N=1200) may hold a tab or end with a page number after leaders or a tab.
3. **Cost.** Parse time of every file with the smart outline off and on, interleaved in this
   process (CPU time, median of runs): the smart outline must add at most 30%.

Run: ``python benchmarks/bench_outline.py [--runs 3] [--out results/<date>-outline.md]``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from outline_strip import MIN_HEADINGS, Score, compare, strip_file

from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.pipeline import chunk_rows
from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.document import parse_docx
from lightrag_pchunk.tokens import TokenCounter, load_tiktoken

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "docx"
_PAGE_REFERENCE = re.compile(r"(?:\t|\.{2,}|…+|·{2,})\s*\d+\s*(?:\[part \d+\])?$")


@dataclass
class FileResult:
    name: str
    headings: int
    look: Score
    plain: Score
    before: Score


def _sum(scores: list[Score]) -> Score:
    return Score(*(sum(getattr(s, f) for s in scores) for f in Score.__dataclass_fields__))


def strip_test(files: list[Path], work: Path) -> list[FileResult]:
    results = []
    for path in files:
        found = strip_file(path, work / path.stem)
        if found is None:
            continue
        look, plain = compare(found.reference, found.look), compare(found.reference, found.plain)
        before = compare(found.reference, found.before)
        results.append(FileResult(path.name, len(found.reference), look, plain, before))
        print(f"  {path.name}: look R={look.recall:.2f} P={look.precision:.2f}"
              f" parent={look.parent_accuracy:.2f}; plain numbered R="
              f"{plain.numbered_recall:.2f}", file=sys.stderr)  # fmt: skip
    return results


def toc_headings(files: list[Path], work: Path) -> tuple[int, int, list[str]]:
    """Chunk headings checked, and those that keep a TOC page reference (with examples)."""
    counter = TokenCounter(load_tiktoken())
    checked, bad, examples = 0, 0, []
    for path in files:
        try:
            parsed = parse_docx(path, work / "toc" / path.stem)
        except DocxParseError:
            continue
        for size in (2000, 1200):
            for chunk in chunk_rows(list(parsed.rows), Context.create(counter, size, 100)):
                checked += 1
                if "\t" in chunk.heading or _PAGE_REFERENCE.search(chunk.heading):
                    bad += 1
                    examples.append(f"{path.name}: {chunk.heading!r}")
    return checked, bad, examples


def parse_cost(files: list[Path], work: Path, runs: int) -> tuple[float, float]:
    """Total of per-file median CPU seconds with the smart outline off and on."""
    off_total = on_total = 0.0
    for path in files:
        times: dict[bool, list[float]] = {False: [], True: []}
        try:
            for _ in range(runs):
                for smart in (False, True):
                    start = time.process_time()
                    parse_docx(path, work / "cost" / path.stem, smart_heading=smart)
                    times[smart].append(time.process_time() - start)
        except DocxParseError:
            continue
        off_total += statistics.median(times[False])
        on_total += statistics.median(times[True])
    return off_total, on_total


def report(results: list[FileResult], toc: tuple, cost: tuple[float, float]) -> str:
    look, plain, before = (_sum([getattr(r, k) for r in results]) for k in ("look", "plain",
                                                                           "before"))  # fmt: skip
    checked, bad, examples = toc
    off, on = cost
    lines = [
        f"# Smart outline on ../shared/corpus/docx ({date.today()})",
        "",
        f"Strip test: {len(results)} files with >= {MIN_HEADINGS} styled headings, "
        f"{look.reference} headings.",
        "",
        "| copy | parsed with | recall | precision | parent accuracy | numbered recall |",
        "|---|---|---|---|---|---|",
        _row("look kept", "smart off (before)", before),
        _row("look kept", "smart on", look),
        _row("no look", "smart on", plain),
        "",
        "Targets: recall and precision >= 0.90, parent accuracy >= 0.85 (look kept); numbered"
        " recall 1.00 (no look).",
        "",
        f"Chunk headings with a TOC page reference: {bad} of {checked} (target 0)."
        + "".join(f"\n- {e}" for e in examples[:10]),
        "",
        f"Parse CPU time over the corpus: smart off {off:.2f} s, smart on {on:.2f} s "
        f"({on / off - 1:+.0%}; target <= +30%).",
        "",
        "| file | headings | recall | precision | parents | numbered recall (no look) |",
        "|---|---|---|---|---|---|",
    ]
    for r in sorted(results, key=lambda r: r.look.recall + r.look.precision):
        lines.append(
            f"| {r.name} | {r.headings} | {r.look.recall:.2f} | {r.look.precision:.2f} | "
            f"{r.look.parent_accuracy:.2f} | {r.plain.numbered_recall:.2f} "
            f"({r.plain.numbered_matched}/{r.plain.numbered}) |"
        )
    return "\n".join(lines) + "\n"


def _row(copy: str, how: str, s: Score) -> str:
    return (
        f"| {copy} | {how} | {s.recall:.3f} | {s.precision:.3f} | {s.parent_accuracy:.3f} | "
        f"{s.numbered_recall:.3f} ({s.numbered_matched}/{s.numbered}) |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--runs", type=int, default=3, help="parse runs per file for the cost")
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    parser.add_argument("--only", help="only the files whose name contains this text")
    parser.add_argument("--strip-only", action="store_true", help="only the strip test")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"{args.corpus} is absent: nothing to measure", file=sys.stderr)
        return 2
    files = sorted(p for p in args.corpus.iterdir() if p.suffix.lower().startswith(".do"))
    files = [p for p in files if args.only is None or args.only in p.name]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        results = strip_test(files, work)
        toc = (0, 0, []) if args.strip_only else toc_headings(files, work)
        cost = (1.0, 1.0) if args.strip_only else parse_cost(files, work, args.runs)
    text = report(results, toc, cost)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
