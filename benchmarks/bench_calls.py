"""How many chunks, and so LLM extraction calls, does P cost against LightRAG's R (and its P)?
Method and targets: ``benchmarks/README.md``."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

import common
from common import DOC_ID, median, share, table, verdict

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
    from lightrag.chunker.paragraph_semantic import chunking_by_paragraph_semantic as lr_p

    from lightrag_pchunk import chunking_by_paragraph_semantic
    from lightrag_pchunk.integration.lightrag_r import lightrag_r, pipeline_separators

    separators = pipeline_separators()
    parsed = common.parse(source, work, doc_id=DOC_ID)
    blocks = str(parsed.blocks_path)
    counts = {}
    for size in SIZES:
        ours = chunking_by_paragraph_semantic(
            tokenizer, parsed.content, size, blocks_path=blocks, chunk_overlap_token_size=100
        )
        theirs = lr_p(tokenizer, parsed.content, size, blocks_path=blocks, doc_id=DOC_ID)
        r = lightrag_r(tokenizer, parsed.content, size, 100, separators=separators)
        fill = median([row["tokens"] / size for row in ours]) or 0.0
        counts[size] = Counts(len(ours), len(theirs), len(r), fill)
    return counts


def report(results: dict[Path, dict]) -> list[str]:
    lines = common.header(
        "LLM calls: chunks of ours (P) against LightRAG 1.5.7's P and R",
        [
            "the same parse (ours) for every chunker; R on the text LightRAG stores, with its"
            " pipeline's separators (``integration/lightrag_r.py``)"
        ],
    )
    targets = []
    for title, files in common.by_format(results).items():
        for size in SIZES:
            counts = {source: by_size[size] for source, by_size in files.items()}
            rows = [
                (source.name, c.ours, c.lightrag_p, c.r, share(c.ours, c.r, empty="–"),
                 f"{c.fill:.2f}")
                for source, c in counts.items()
            ]  # fmt: skip
            ours, r = sum(c.ours for c in counts.values()), sum(c.r for c in counts.values())
            theirs = sum(c.lightrag_p for c in counts.values())
            at_most_r = sum(c.ours <= c.r for c in counts.values())
            lines += [f"## {title}, N={size}", ""]
            lines += table(
                ("file", "ours", "LightRAG P", "R", "ours / R", "ours' median fill"), rows
            )
            lines += [
                "",
                f"All {len(files)} files: ours **{ours:,}** chunks, LightRAG's P {theirs:,}, R"
                f" {r:,} (ours / R {share(ours, r, empty='–')}); ours <= R on {at_most_r} files.",
                "",
            ]
            files_share = at_most_r / len(files)
            targets += [
                verdict(ours <= r, f"{title} N={size}: {ours:,} <= R's {r:,} chunks"),
                verdict(
                    files_share >= FILES_AT_MOST_R,
                    f"{title} N={size}: ours <= R on {files_share:.0%} of the files (>= 90%)",
                ),
            ]
    return [*lines, "## Targets", "", *targets]


def main() -> None:
    args = common.arguments(__doc__).parse_args()
    tokenizer, results = common.cl100k(), {}
    with tempfile.TemporaryDirectory(prefix="bench-calls-") as work, common.quiet():
        for index, source in enumerate(common.word_and_markdown()):
            try:
                results[source] = chunk_counts(source, Path(work) / str(index), tokenizer)
            except Exception as exc:  # a refused file has no chunks to count
                common.log(f"{source.name}: {type(exc).__name__}: {exc}")
    common.write_results(report(results), args.out, "calls")


if __name__ == "__main__":
    main()
