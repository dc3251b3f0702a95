"""benchmarks/bench_tables.py's header check: a continuation slice counts as "with header"
only with the table's full header rows or one of its documented compact headers followed
by its rows, so the target it judges can be missed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from bench_tables import Tally, check_tables, table_headers

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
