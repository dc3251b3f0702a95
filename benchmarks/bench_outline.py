"""Can users trust the headings (breadcrumbs) of our chunks? The strip test, the breadcrumb
contract, long blocks; their scoring and targets: ``benchmarks/README.md``."""

from __future__ import annotations

import functools
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import common
from breadcrumb_check import check, prepare
from common import table, verdict
from outline_strip import MIN_HEADINGS, Score, compare, pooled, strip_file

from lightrag_pchunk.chunk.breadcrumbs import FIRST, PART, PATH, RULES
from lightrag_pchunk.chunk.long_blocks import long_blocks
from lightrag_pchunk.encodings import load_tiktoken
from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.integration.formats import format_for
from lightrag_pchunk.tokens import TokenCounter

SIZES = (500, 1200, 2000)
#: The stripped copies of a file, as the report names them: each heading in one look by
#: level, in its own look as styled, in no look at all.
COPIES = ("look kept", "own look", "no look")
#: A mean over no file: nothing missed.
_mean = functools.partial(common.mean, empty=1.0)


@dataclass(frozen=True)
class Strip:
    """One file's strip test: each copy's score against its styled headings."""

    name: str
    scores: dict[str, Score]  # by copy (COPIES)


@dataclass
class Crumbs:
    """Breadcrumb figures at one N."""

    violations: Counter[str] = field(default_factory=Counter)  # by rule, against own rows
    styled_chunks: int = 0
    styled_broken: Counter[str] = field(default_factory=Counter)  # chunks breaking a rule
    examples: list[str] = field(default_factory=list)
    long_blocks: int = 0
    long_with_headings: list[str] = field(default_factory=list)


def strip_test(files: list[Path], work: Path) -> list[Strip]:
    results = []
    for path in files:
        found = strip_file(path, work / path.stem, as_styled=True)
        if found is not None:
            outlines = dict(zip(COPIES, (found.look, found.as_styled, found.plain), strict=True))
            scores = {
                copy: compare(found.reference, outline or [], found.listed, found.parsed)
                for copy, outline in outlines.items()
            }
            results.append(Strip(path.name, scores))
    return results


def breadcrumbs(files: list[Path], work: Path, counter: TokenCounter) -> dict[int, Crumbs]:
    figures = {n: Crumbs() for n in SIZES}
    for path in files:
        try:
            parsed = common.parse(path, work / path.parent.name / path.name)
            file = prepare(path, parsed, work / "styled" / path.name)
        except DocumentParseError:
            continue
        is_markdown = format_for(path).name == "markdown"  # a list item known by its marker
        for n, crumbs in figures.items():
            checked = check(file, counter, n)
            crumbs.violations.update(v.rule for v in checked.violations)
            crumbs.examples += [f"{path.name}: {v.describe()}" for v in checked.violations]
            if checked.styled is not None:
                crumbs.styled_chunks += checked.chunks
                crumbs.styled_broken += checked.styled_broken()
                crumbs.examples += [f"{path.name} (styles): {v.describe()}" for v in checked.styled]
            found = long_blocks(file.rows, counter, n, markdown=is_markdown)
            crumbs.long_blocks += len(found)
            for block in (block for block in found if block.titles):
                titles = ", ".join(repr(title[:40]) for title in block.titles[:2])
                crumbs.long_with_headings.append(
                    f"{path.name}: {block.heading[:50]!r} ({titles} …)"
                )
    return figures


def _summary(copy: str, scores: list[Score]) -> tuple:
    total, evidenced = pooled(scores), [s for s in scores if s.evidenced]
    return (
        copy,
        f"{_mean([s.recall for s in scores]):.3f}",
        f"{_mean([s.precision for s in scores]):.3f}",
        f"{_mean([s.parsed_precision for s in scores]):.3f}",
        f"{total.parent_accuracy:.3f}",
        sum(s.recall < 0.60 for s in scores),
        f"{total.evidenced_recall:.3f} ({total.evidenced_matched}/{total.evidenced})",
        f"{_mean([s.evidenced_recall for s in evidenced]):.3f}",
        f"{sum(s.evidenced_recall < 0.60 for s in evidenced)} of {len(evidenced)}",
    )


def _cells(score: Score) -> list[str]:
    figures = (score.recall, score.precision, score.parsed_precision)
    evidenced = f"{score.evidenced_recall:.2f}" if score.evidenced else "-"
    return [*(f"{figure:.2f}" for figure in figures), evidenced]


def report(strips: list[Strip], figures: dict[int, Crumbs]) -> list[str]:
    lines = common.header("Outline and breadcrumbs on ../shared/corpus", [])
    lines += [
        f"## Strip test: {len(strips)} Word files with >= {MIN_HEADINGS} styled headings, per file",
        "",
        "R, P: against the styled headings; P parsed: a found heading that the parse of the",
        "styled file itself gives (the author's unstyled headings it finds there), or that the",
        "document's own table of contents lists, counts as right; evidenced: the styled headings",
        "numbered or listed. Look kept: bold at 16/14/13/12 pt by level; own look: each",
        "heading's look as styled.",
        "",
    ]
    copies = {copy: [s.scores[copy] for s in strips] for copy in COPIES}
    lines += table(
        ("copy", "mean R", "mean P", "mean P parsed", "pooled parent accuracy", "files R < 0.60",
         "evidenced: pooled R", "mean R", "files R < 0.60"),
        [_summary(copy, scores) for copy, scores in copies.items()],
    )  # fmt: skip
    columns = [f"{copy}: {name}" for copy in COPIES for name in ("R", "P", "P parsed", "R evid.")]
    ranked = sorted(strips, key=lambda s: s.scores["look kept"].recall + s.scores["no look"].recall)
    rows = [
        (s.name, s.scores["no look"].reference, s.scores["no look"].evidenced,
         *[cell for copy in COPIES for cell in _cells(s.scores[copy])])
        for s in ranked
    ]  # fmt: skip
    lines += ["", *table(("file", "headings", "evidenced", *columns), rows)]
    targets = []
    for copy in ("look kept", "own look"):  # both looks; without any, headings are guesses
        scores = copies[copy]
        recall = _mean([s.recall for s in scores])
        parsed = _mean([s.parsed_precision for s in scores])
        targets += [
            verdict(min(recall, parsed) >= 0.90, f"{copy}: mean R and mean P parsed >= 0.90"),
            verdict(all(s.recall >= 0.60 for s in scores), f"{copy}: no file under 0.60 recall"),
        ]
    look = copies["look kept"]
    targets.append(verdict(_mean([s.precision for s in look]) >= 0.85, "look kept: mean P >= 0.85"))
    if figures:
        lines += ["", "## Breadcrumb contract, long blocks", ""]
        rows = []
        for n, c in figures.items():
            total = max(c.styled_chunks, 1)
            path, first = 1 - c.styled_broken[PATH] / total, 1 - c.styled_broken[FIRST] / total
            own = ", ".join(f"{rule} {c.violations[rule]}" for rule in RULES) or "0"
            rows.append((
                n, own, c.styled_chunks, f"{path:.4f}", f"{first:.4f}", c.styled_broken[PART],
                c.long_blocks, len(c.long_with_headings),
            ))  # fmt: skip
            targets += [
                verdict(not c.violations.total(), f"N={n}: no violation against own rows"),
                verdict(path >= 0.99 and first >= 0.95 and not c.styled_broken[PART],
                        f"N={n}, styles alone: real paths >= 99%, first >= 95%, no part gap"),
                verdict(not c.long_with_headings, f"N={n}: no long block with headings"),
            ]  # fmt: skip
        lines += table(
            ("N", "violations, own rows", "styled files: chunks", "real path", "first in section",
             "part gaps", "blocks > 4N", "with headings (text alone)"),
            rows,
        )  # fmt: skip
        for n, c in figures.items():
            lines += [f"- N={n}: {example}" for example in c.examples[:10] + c.long_with_headings]
    return [*lines, "", "## Targets", "", *targets]


def main() -> None:
    parser = common.arguments(__doc__)
    parser.add_argument("--only", help="only the files whose name contains this text")
    parser.add_argument("--strip-only", action="store_true", help="only the strip test")
    args = parser.parse_args()
    keep = [p for p in common.word_and_markdown() if args.only is None or args.only in p.name]
    counter = TokenCounter(load_tiktoken())
    with tempfile.TemporaryDirectory() as tmp, common.quiet():
        work = Path(tmp)
        strips = strip_test([p for p in keep if p.parent.name == "docx"], work / "strip")
        figures = {} if args.strip_only else breadcrumbs(keep, work, counter)
    partial = args.only or args.strip_only
    common.write_results(report(strips, figures), args.out, None if partial else "outline")


if __name__ == "__main__":
    main()
