"""How many chunks, and so LLM extraction calls, does P cost against LightRAG's R (and its P)?

Every corpus file parsed once by ours, its blocks chunked at N=1200 and 500 (overlap 100)
by ours, LightRAG's P and R (on the text LightRAG stores). Method and targets:
``benchmarks/README.md``. Always exits 0; a target missed prints ``TARGET MISSED``.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from datetime import date
from pathlib import Path

import common
from common import DOC_ID, median, verdict

SIZES = (1200, 500)
FILES_AT_MOST_R = 0.9


def chunk_counts(source: Path, work: Path, tokenizer) -> dict[int, tuple[int, int, int, float]]:
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
        counts[size] = (len(ours), len(theirs), len(r), fill)
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
            lines += [f"## {title}, N={size}", ""]
            lines += common.table_head(
                "file", "ours", "LightRAG P", "R", "ours / R", "ours' median fill"
            )
            totals = [0, 0, 0]
            at_most_r = 0
            for source, counts in files.items():
                ours, theirs, r, fill = counts[size]
                totals = [totals[0] + ours, totals[1] + theirs, totals[2] + r]
                at_most_r += ours <= r
                lines.append(
                    f"| {source.name} | {ours} | {theirs} | {r} | {_share(ours, r)} | {fill:.2f} |"
                )
            ours, theirs, r = totals
            lines += [
                "",
                f"All {len(files)} files: ours **{ours:,}** chunks, LightRAG's P"
                f" {theirs:,}, R {r:,} (ours / R {_share(ours, r)}); ours <= R on {at_most_r}"
                f" files.",
                "",
            ]
            share = at_most_r / len(files)
            targets.append(verdict(ours <= r, f"{title} N={size}: {ours:,} <= R's {r:,} chunks"))
            targets.append(
                verdict(
                    share >= FILES_AT_MOST_R,
                    f"{title} N={size}: ours <= R on {share:.0%} of the files (>= 90%)",
                )
            )
    return "\n".join([*lines, "## Targets", "", *targets]) + "\n"


def _share(ours: int, r: int) -> str:
    return f"{ours / r:.2f}" if r else "–"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=common.CORPUS, help="holds docx/, md/")
    parser.add_argument("--out", type=Path, default=None, help="results file")
    args = parser.parse_args()
    tokenizer, results = common.cl100k(), {}
    work = Path(tempfile.mkdtemp(prefix="bench-calls-"))
    try:
        with common.quiet():
            for index, source in enumerate(common.corpus_files(args.corpus)):
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
