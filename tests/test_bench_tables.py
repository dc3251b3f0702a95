"""benchmarks/bench_tables.py's checks, so the targets they judge can be missed: a
continuation slice counts as "with header" only with the table's full header rows or one of
its documented compact headers followed by its rows; every chunk under 12 letters outside
markup counts, and those that are mostly a piece of a stretch of the document without a
letter longer than N are counted apart, as no chunker could avoid them (the target is on
the others)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from bench_tables import (
    Tally,
    check_tables,
    in_letterless_stretch,
    letterless_stretches,
    table_headers,
)

HEAD = [["No", "Price", "Total"], ["", "net", "gross"]]
BODY = [["1", "10", "12", "22"], ["2", "20", "24", "44"], ["3", "30", "36", "66"]]
KEYS = ["No", "Price / net", "Price / gross", "Total"]


def tag(rows, table_id: str = "t1") -> str:
    return f'<table id="{table_id}" format="json">{json.dumps(rows)}</table>'


@pytest.fixture
def headers():
    items = {
        "t1": {
            "table_header": json.dumps(HEAD),
            "keyed_rows": json.dumps([dict(zip(KEYS, row, strict=True)) for row in BODY]),
        },
        "t2": {"table_header": "[]"},
    }
    return table_headers("intro\n\n" + tag(HEAD + BODY), items)


def tally_of(chunks, headers) -> Tally:
    tally = Tally()
    check_tables(chunks, headers, tally, lambda text: list(text))
    return tally


def test_compact_forms_come_from_the_keyed_labels(headers) -> None:
    assert headers["t1"].rows == HEAD
    assert headers["t1"].compact == [KEYS]  # one word a part already: no shorter form
    assert headers["t2"].rows == [] and headers["t2"].compact == []


@pytest.mark.parametrize(
    ("continuation", "counted", "compact"),
    [
        (HEAD + BODY[1:], 1, 0),  # the full header
        ([KEYS, *BODY[1:]], 1, 1),  # the compact header
        (BODY[1:], 0, 0),  # no header
        (HEAD[:1] + BODY[1:], 0, 0),  # part of the header
        ([["No", "Price / net", "Total / gross"], *BODY[1:]], 0, 0),  # labels not its own
        ([KEYS, HEAD[1], *BODY[1:]], 0, 0),  # labels, then a header row
        ([KEYS], 0, 0),  # labels and nothing else
    ],
)
def test_a_continuation_counts_only_with_a_documented_header(
    headers, continuation, counted, compact
) -> None:
    tally = tally_of([tag(HEAD + BODY[:1]), "text\n" + tag(continuation)], headers)
    assert tally.continuations == 1
    assert (tally.with_header, tally.compact_header) == (counted, compact)


def test_keyed_rows_and_headerless_tables_need_no_repeat(headers) -> None:
    keyed = [dict(zip(KEYS, row, strict=True)) for row in BODY]
    tally = tally_of(
        [tag(keyed[:1]), tag(keyed[1:]), tag(BODY[:1], "t2"), tag(BODY, "t2")], headers
    )
    assert (tally.continuations, tally.with_header) == (1, 1)


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
