"""Is our parser faster than LightRAG 1.5.7's native parser, and does it recover all of its
text? Method and targets: ``benchmarks/README.md``."""

from __future__ import annotations

import contextlib
import html
import itertools
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import common
from common import DOC_ID, median, table, verdict

from lightrag_pchunk.blockfile.jsonl import read_blocks
from lightrag_pchunk.chunk.shown_text import shown_text
from lightrag_pchunk.eval.documents import lightrag_blocks_file
from lightrag_pchunk.model import BlockRow

TARGETS = {"Word": 2.0, "Markdown": 2.5}
#: Refusals of hostile input: reported, not counted as lost text.
DELIBERATE = {"dtd": "a DOCTYPE with an external entity, refused for safety as Open XML SDK does"}
_DRAWING = re.compile(r"<drawing\b([^>]*)/>")
_EQUATION = re.compile(r"<equation\b[^>]*>.*?</equation>", re.S)
#: Attributes of a picture's tag that hold displayed text.
_SHOWN = re.compile(r'\b(?:caption|alt|descr|title)="([^"]*)"')
_MARKUP = re.compile(r"</?(?:sup|sub)>")
_LETTERS = re.compile(r"[^\W\d_]+")


@dataclass
class Side:
    """One parser's runs on one file."""

    seconds: list[float] = field(default_factory=list)
    rows: list[BlockRow] = field(default_factory=list)
    error: str = ""


def plain_text(rows: list[BlockRow]) -> str:
    """The rows' displayed text (:func:`shown_text`: table cells read, captions kept), with
    the alt texts of pictures kept and equations left out."""

    def alt_text(match: re.Match) -> str:
        return " " + " ".join(html.unescape(value) for value in _SHOWN.findall(match[1])) + " "

    text = shown_text("\n\n".join(row.content for row in rows))
    text = _DRAWING.sub(alt_text, _EQUATION.sub(" ", text))
    return _MARKUP.sub("", text).casefold()


def lost_words(ours: list[BlockRow], theirs: list[BlockRow]) -> list[str]:
    """Words (letters only) of LightRAG's text that ours lacks, even inside a longer run of
    letters (LightRAG glues two words where it drops a symbol between them)."""
    mine = _LETTERS.findall(plain_text(ours))
    stream, known = "".join(mine), set(mine)
    theirs_words = set(_LETTERS.findall(plain_text(theirs)))
    return sorted(w for w in theirs_words - known if len(w) > 1 and w not in stream)


def run(files: list[Path], runs: int, work: Path) -> dict[Path, tuple[Side, Side]]:
    parsers = (
        ("ours", lambda source, out: common.parse(source, out, doc_id=DOC_ID).blocks_path),
        ("lightrag", lambda source, out: lightrag_blocks_file(source, out, doc_id=DOC_ID)),
    )
    # Imports and first calls are not timed: each parser reads one file of each format first.
    firsts = {source.suffix: source for source in reversed(files)}.values()
    for (label, parse), source in itertools.product(parsers, firsts):
        with contextlib.suppress(Exception):
            parse(source, work / f"warm-{label}")
    results = {}
    for index, source in enumerate(files):
        sides = {label: Side() for label, _ in parsers}
        for repetition in range(runs):
            order = parsers if (index + repetition) % 2 == 0 else parsers[::-1]
            for label, parse in order:
                out, side = work / label / str(repetition), sides[label]
                # Timed: the parse, its blocks file written; its rows are read after.
                blocks, seconds = common.timed(parse, source, out)
                if isinstance(blocks, Exception):
                    reason = getattr(blocks, "reason", None)  # a refusal's one line
                    side.error = reason or f"{type(blocks).__name__}: {blocks}"[:100]
                else:
                    side.rows = read_blocks(blocks).rows
                side.seconds.append(seconds)
                shutil.rmtree(out, ignore_errors=True)
        results[source] = (sides["ours"], sides["lightrag"])
        common.log(f"[{index + 1}/{len(files)}] {source.name}")
    return results


def report(results: dict[Path, tuple[Side, Side]], runs: int) -> list[str]:
    lines = common.header(
        "Parse benchmark: ours against LightRAG 1.5.7's native parser",
        [f"median CPU time of {runs} interleaved run(s) per file, both in one process"],
    )
    targets: list[str] = []
    for title, files in common.by_format(results).items():
        rows, ours_total, lr_total = [], 0.0, 0.0
        for source, (ours, theirs) in files.items():
            mine, lr = median(ours.seconds) or 0.0, median(theirs.seconds) or 0.0
            ours_total, lr_total = ours_total + mine, lr_total + lr
            compared = title == "Word" and not (ours.error or theirs.error)
            lost = lost_words(ours.rows, theirs.rows) if compared else []
            if ours.error in DELIBERATE and not theirs.error:
                targets.append(f"- accepted: {source.name} refused ({DELIBERATE[ours.error]})")
            elif ours.error and not theirs.error:
                targets.append(verdict(False, f"{source.name}: LightRAG parses it, we refuse it"))
            elif lost:
                targets.append(
                    verdict(False, f"{source.name}: words only LightRAG has: {lost[:8]}")
                )
            shown = [ours.error or str(len(ours.rows)), theirs.error or str(len(theirs.rows))]
            faster = f"{lr / mine if mine else 0:.2f}x"
            rows.append(
                (source.name, " / ".join(shown), f"{mine:.3f} / {lr:.3f}", faster, len(lost))
            )
        columns = ("file", "rows ours / LR", "CPU s ours / LR", "faster", "words only LR has")
        ratio = lr_total / ours_total if ours_total else 0.0
        lines += [f"## {title} ({len(files)} files)", "", *table(columns, rows), ""]
        total = f"ours {ours_total:.2f} s, LightRAG {lr_total:.2f} s: **{ratio:.2f}x** faster"
        lines += [f"Total CPU: {total}.", ""]
        target = TARGETS[title]
        targets.append(verdict(ratio >= target, f"{title}: {ratio:.2f}x >= {target}x"))
    if not any("words only" in line or "we refuse" in line for line in targets):
        targets.append(verdict(True, "no word of LightRAG's text missing from ours"))
    return [*lines, "## Targets", "", *targets]


def main() -> None:
    parser = common.arguments(__doc__)
    parser.add_argument("--runs", type=int, default=3, help="timed runs per file (median)")
    args = parser.parse_args()
    runs, files = max(args.runs, 1), common.word_and_markdown()
    with tempfile.TemporaryDirectory(prefix="bench-parse-") as work, common.quiet():
        results = run(files, runs, Path(work))
    common.write_results(report(results, runs), args.out, "parse")


if __name__ == "__main__":
    main()
