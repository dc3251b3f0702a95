"""What does a PDF give through P, against what a LightRAG 1.5.7 user has for it today (the
``legacy`` engine: pypdf's text, then R)? Section 1: the real PDFs; section 2: the renders of
the .docx corpus (``pdf_renders.py``). Method and targets: ``benchmarks/README.md``."""

from __future__ import annotations

import csv
import tempfile
from collections import Counter
from pathlib import Path

import common
from common import CORPUS, table, timed, verdict
from pdf_renders import RENDER_SETS, SIZE, our_chunks, rendered

from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.eval.documents import lightrag_native_parse
from lightrag_pchunk.integration.lightrag_r import lightrag_r, pipeline_separators
from lightrag_pchunk.pdf.document import parse_pdf
from lightrag_pchunk.tokens import TokenCounter

from helpers import pdfium_page_texts

SPEED_VS_LEGACY, FLOOR_MULTIPLE = 3.0, 4.0


def real_corpus(files: list[Path], out: Path, tokenizer, speed_only: bool = False) -> list[str]:
    """Section 1 (see the module doc); ``speed_only``: the timings, no chunks."""
    counter = TokenCounter(tokenizer)
    separators = pipeline_separators()
    rows, sums = [], Counter()
    for path in files:
        _, floor_s = timed(pdfium_page_texts, path)
        ours, ours_s = timed(parse_pdf, path, out)
        legacy, legacy_s = timed(lightrag_native_parse, path, out)  # its legacy engine
        if isinstance(ours, Exception):
            refused = isinstance(ours, DocumentParseError)
            sums["crashes"] += not refused
            outcome = f"refused: {ours.reason}" if refused else f"CRASH {type(ours).__name__}"
            rows.append((path.name, *[""] * 8, outcome))
            continue
        chunks, legacy_chunks = [], 0
        if not speed_only:
            chunks = our_chunks(ours, counter)
            if not isinstance(legacy, Exception):
                legacy_r = lightrag_r(tokenizer, legacy.content, SIZE, 100, separators=separators)
                legacy_chunks = len(legacy_r)
        pages = ours.meta.get("pages", 0)
        sums.update(
            pages=pages, floor=floor_s, ours=ours_s, legacy=legacy_s, chunks=len(chunks),
            legacy_chunks=legacy_chunks,
        )  # fmt: skip
        rows.append((
            path.name, pages, f"{floor_s:.3f}", f"{ours_s:.3f}", f"{legacy_s:.3f}",
            f"{legacy_s / max(ours_s, 1e-9):.1f}", f"{ours_s / max(floor_s, 1e-9):.1f}",
            len(chunks), legacy_chunks, "parsed",
        ))  # fmt: skip
    speed = sums["legacy"] / max(sums["ours"], 1e-9)
    floor_multiple = sums["ours"] / max(sums["floor"], 1e-9)
    columns = (
        "file", "pages", "floor CPU s", "ours CPU s", "legacy CPU s", "x legacy", "x floor",
        "ours chunks", "legacy+R chunks", "outcome",
    )  # fmt: skip
    return [
        "## Real PDFs (../shared/corpus/pdf)",
        "",
        *table(columns, rows),
        "",
        f"Pooled over {sums['pages']} pages, CPU time (ours: the reading child's too): floor"
        f" {sums['floor']:.2f} s, ours {sums['ours']:.2f} s"
        f" ({sums['pages'] / max(sums['ours'], 1e-9):.0f} pages per CPU second), legacy"
        f" {sums['legacy']:.2f} s: **{speed:.2f}x faster than legacy**,"
        f" **{floor_multiple:.2f}x the floor**; chunks ours {sums['chunks']} vs legacy+R"
        f" {sums['legacy_chunks']}; crashes {sums['crashes']}.",
        verdict(speed >= SPEED_VS_LEGACY, f"parse {speed:.2f}x legacy (>= 3x)"),
        verdict(floor_multiple <= FLOOR_MULTIPLE, f"parse {floor_multiple:.2f}x the floor (<= 4x)"),
        verdict(sums["chunks"] <= sums["legacy_chunks"], "no more chunks than legacy + R"),
    ]


def main() -> None:
    parser = common.arguments(__doc__)
    parser.add_argument("--quick", action="store_true", help="a few files of each set")
    parser.add_argument("--only", choices=["real", *RENDER_SETS], help="run this set alone")
    parser.add_argument("--speed-only", action="store_true", help="section 1's timings alone")
    args = parser.parse_args()
    tokenizer = common.cl100k()
    with (CORPUS / "pdf" / "MANIFEST.tsv").open() as stream:
        real = [CORPUS / "pdf" / r["local_name"] for r in csv.DictReader(stream, delimiter="\t")]
    renders = CORPUS / "pdf-from-docx"
    sets = {v: sorted((renders / v).glob("*.pdf")) for v in RENDER_SETS}
    if args.quick:
        real, sets = real[:6], {v: files[:8] for v, files in sets.items()}
    real = real if args.only in (None, "real") else []
    sets = {v: files for v, files in sets.items() if args.only in (None, v) and not args.speed_only}
    lines = common.header("PDF through P: ours against LightRAG 1.5.7's legacy text and R", [])
    with tempfile.TemporaryDirectory() as work, common.quiet():
        if real:
            lines += [*real_corpus(real, Path(work) / "real", tokenizer, args.speed_only), ""]
        for variant, files in sets.items():
            lines += [*rendered(variant, files, Path(work), tokenizer), ""]
    partial = args.quick or args.only or args.speed_only
    common.write_results(lines, args.out, None if partial else "pdf")


if __name__ == "__main__":
    main()
