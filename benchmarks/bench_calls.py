"""How many chunks, and so LLM extraction calls, does P cost against LightRAG's R (and its P)?

Every corpus file parsed once by ours, its blocks chunked at N=1200 and 500 (overlap 100)
by ours, LightRAG's P and R (on the text LightRAG stores). Method and targets:
``benchmarks/README.md``. Always exits 0; a target missed prints ``TARGET MISSED``.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import common
from common import DOC_ID, median, share, table, verdict

from helpers import corpus_files

SIZES = (1200, 500)
FILES_AT_MOST_R = 0.9


@dataclass(frozen=True)
class Counts:
    """One file's chunks at one N by each chunker, and the median fill of ours."""

    ours: int
    lightrag_p: int
    r: int
    fill: float


def chunk_counts(source: Path, work: Path, tokenizer) -> dict[int, Counts]:
    """Per N: chunks of ours, LightRAG's P and R, and the median fill of ours."""
    from lightrag.chunker import chunking_by_recursive_character
    from lightrag.chunker.paragraph_semantic import chunking_by_paragraph_semantic as lr_p

    from lightrag_pchunk import chunking_by_paragraph_semantic

    parsed = common.parse(source, work, doc_id=DOC_ID)
    blocks = str(parsed.blocks_path)
    counts = {}
    for size in SIZES:
        ours = chunking_by_paragraph_semantic(
            tokenizer, parsed.content, size, blocks_path=blocks, chunk_overlap_token_size=100
        )
        theirs = lr_p(tokenizer, parsed.content, size, blocks_path=blocks, doc_id=DOC_ID)
        r = chunking_by_recursive_character(
            tokenizer, parsed.content, size, chunk_overlap_token_size=100
        )
        fill = median([row["tokens"] / size for row in ours]) or 0.0
        counts[size] = Counts(len(ours), len(theirs), len(r), fill)
    return counts


def report(results: dict[Path, dict]) -> str:
    lines = common.header(
        "LLM calls: chunks of ours (P) against LightRAG 1.5.7's P and R",
        ["the same parse (ours) for every chunker; R on the text LightRAG stores"],
    )
    targets = []
    for kind, title in (("docx", "Word"), ("md", "Markdown")):
        files = {src: counts for src, counts in results.items() if src.parent.name == kind}
        for size in SIZES:
            counts = [by_size[size] for by_size in files.values()]
            rows = [
                (source.name, c.ours, c.lightrag_p, c.r, _ratio(c.ours, c.r), f"{c.fill:.2f}")
                for source, c in zip(files, counts, strict=True)
            ]
            ours, r = sum(c.ours for c in counts), sum(c.r for c in counts)
            theirs = sum(c.lightrag_p for c in counts)
            at_most_r = sum(c.ours <= c.r for c in counts)
            lines += [f"## {title}, N={size}", ""]
            lines += table(
                ("file", "ours", "LightRAG P", "R", "ours / R", "ours' median fill"), rows
            )
            lines += [
                "",
                f"All {len(files)} files: ours **{ours:,}** chunks, LightRAG's P"
                f" {theirs:,}, R {r:,} (ours / R {_ratio(ours, r)}); ours <= R on {at_most_r}"
                f" files.",
                "",
            ]
            files_share = at_most_r / len(files)
            targets.append(verdict(ours <= r, f"{title} N={size}: {ours:,} <= R's {r:,} chunks"))
            targets.append(
                verdict(
                    files_share >= FILES_AT_MOST_R,
                    f"{title} N={size}: ours <= R on {files_share:.0%} of the files (>= 90%)",
                )
            )
    return "\n".join([*lines, "## Targets", "", *targets]) + "\n"


def _ratio(ours: int, r: int) -> str:
    ratio = share(ours, r)
    return "–" if ratio is None else f"{ratio:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="results file")
    args = parser.parse_args()
    tokenizer, results = common.cl100k(), {}
    work = Path(tempfile.mkdtemp(prefix="bench-calls-"))
    try:
        with common.quiet():
            for index, source in enumerate([*corpus_files("docx"), *corpus_files("md")]):
                try:
                    results[source] = chunk_counts(source, work / str(index), tokenizer)
                except Exception as exc:  # a refused file has no chunks to count
                    common.log(f"{source.name}: {type(exc).__name__}: {exc}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    common.write_results(report(results), args.out, f"{date.today()}-calls.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
