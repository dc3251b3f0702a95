"""How benchmarks/bench_tables.py counts chunks without text (issue 15): every chunk under 12
letters outside markup counts, and those that are mostly a piece of a stretch of the
document without a letter longer than N are counted apart, as no chunker could avoid them;
the target is on the others."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from bench_tables import Tally, check_tables, in_letterless_stretch, letterless_stretches


def characters(text: str) -> list[str]:
    """One token per character."""
    return list(text)


MAPPINGS = "• " + "; ".join(f"3.{i} -> 4.{i}" for i in range(60))  # 820 characters, no letter
PICTURE = '<drawing id="im-0001" caption="A chart" />'
TEXT = "Revision history of the specification"


def test_only_letterless_stretches_over_n_tokens_are_kept() -> None:
    document = "\n".join([TEXT, MAPPINGS, TEXT, PICTURE, PICTURE, TEXT])
    assert letterless_stretches(document, 500, characters) == [MAPPINGS]
    assert letterless_stretches(document, 900, characters) == []  # the mappings fit a chunk
    # Tags hold no letter: two pictures and the line breaks around them are one stretch.
    assert letterless_stretches(document, 80, characters) == [MAPPINGS, f"{PICTURE} {PICTURE}"]


def test_a_chunk_mostly_inside_such_a_stretch_is_forced() -> None:
    stretches = letterless_stretches("\n".join([TEXT, MAPPINGS, TEXT]), 500, characters)
    middle = MAPPINGS[300:700]
    assert in_letterless_stretch(middle, stretches)
    assert in_letterless_stretch(middle + "\n\nWD02, Rev01", stretches)  # a few letters after
    assert not in_letterless_stretch("WD02, Rev01 " * 30 + middle[:100], stretches)  # mostly not


def test_a_tail_of_pictures_under_n_tokens_is_avoidable() -> None:
    document = "\n".join([TEXT, PICTURE, PICTURE, PICTURE])
    stretches = letterless_stretches(document, 500, characters)
    assert not in_letterless_stretch("\n".join([PICTURE, PICTURE]), stretches)


def test_check_tables_counts_every_chunk_without_text_and_the_forced_ones_apart() -> None:
    document = "\n".join([TEXT, MAPPINGS, TEXT, PICTURE, PICTURE])
    stretches = letterless_stretches(document, 500, characters)
    chunks = [TEXT + "\n" + MAPPINGS[:400], MAPPINGS[300:], TEXT + "\n" + PICTURE, PICTURE]
    tally = Tally()
    check_tables(chunks, {}, tally, characters, stretches)
    assert (tally.few_letters, tally.forced_few_letters) == (2, 1)
