"""The compact header's column labels and their shortened forms (chunk/compact_headers.py)."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.chunk.compact_headers import (
    html_header_grid,
    html_label_row,
    json_column_labels,
    keyed_labels,
    label_ladder,
    positional_labels,
    shortened,
)
from lightrag_pchunk.chunk.html_rows import html_rows
from lightrag_pchunk.chunk.table_rows import table_rows
from lightrag_pchunk.chunk.table_tags import dump_json_row, parse_table

# A grid "No | Price (net, gross) | Total" as our parser writes it: "Price" spans two
# columns and is written once, "No" and "Total" span both header rows (written once).
COMPACT_HEAD = [["No", "Price", "Total"], ["", "net", "gross"]]
BODY = [["1", "10", "12", "22"], ["2", "", "5", "5"]]
KEYED = [
    {"No": "1", "Price / net": "10", "Price / gross": "12", "Total": "22"},
    {"No": "2", "Price / gross": "5", "Total": "5"},
]


class TestLabels:
    def test_positional_labels_join_each_column_top_down(self) -> None:
        head = [["Item", "Price", "", ""], ["", "net", "gross", ""], ["Item", "EUR", "", ""]]
        # A vertical repeat ("Item") once, empty cells skipped, the empty last column dropped.
        assert positional_labels(head) == ["Item", "Price / net / EUR", "gross"]

    def test_keyed_rows_put_each_key_over_its_cell(self) -> None:
        texts = [dump_json_row(row) for row in BODY]
        labels = ["No", "Price / net", "Price / gross", "Total"]
        assert keyed_labels(texts, json.dumps(KEYED)) == labels
        # By position the compact rows pair "Total" with "gross": wrong, hence the keys.
        assert positional_labels(COMPACT_HEAD) == ["No", "Price / net", "Total / gross"]
        assert json_column_labels(COMPACT_HEAD, texts, json.dumps(KEYED)) == labels
        assert json_column_labels(COMPACT_HEAD, texts, None) == positional_labels(COMPACT_HEAD)

    def test_an_empty_cell_of_the_widest_row_gets_an_empty_label(self) -> None:
        texts = [dump_json_row(["1", "", "12", "22"])]
        keyed = [{"No": "1", "Price / gross": "12", "Total": "22"}]
        assert keyed_labels(texts, json.dumps(keyed)) == ["No", "", "Price / gross", "Total"]

    @pytest.mark.parametrize(
        "keyed",
        [
            [KEYED[0]],  # one keyed row for two body rows
            [{"No": "9", "Price / net": "10"}, {"No": "2"}],  # values that are not the cells
            "not json",
        ],
    )
    def test_keyed_rows_that_do_not_match_the_cells_are_not_used(self, keyed) -> None:
        texts = [dump_json_row(row) for row in BODY]
        raw = keyed if isinstance(keyed, str) else json.dumps(keyed)
        assert keyed_labels(texts, raw) is None
        assert json_column_labels(COMPACT_HEAD, texts, raw) == positional_labels(COMPACT_HEAD)

    def test_html_spans_are_spread_over_the_grid(self) -> None:
        head = html_rows(
            '<thead><tr><th rowspan="2">Item</th><th colspan="2">Price &amp; tax</th>'
            "<th>Note</th></tr><tr><td>net</td><td><b>gross</b></td><td>-</td></tr></thead>"
        )
        grid = html_header_grid([row.text for row in head.rows])
        assert grid == [
            ["Item", "Price & tax", "Price & tax", "Note"],
            ["Item", "net", "gross", "-"],
        ]
        assert positional_labels(grid) == [
            "Item",
            "Price & tax / net",
            "Price & tax / gross",
            "Note / -",
        ]
        row = html_label_row(positional_labels(grid))
        assert row.startswith("<tr><th>Item</th><th>Price &amp; tax / net</th>")
        assert [r.text for r in html_rows(row).rows] == [row]

    def test_table_rows_give_the_labels_of_their_format(self, chars) -> None:
        json_tag = parse_table(f'<table id="t">{json.dumps([*COMPACT_HEAD, *BODY])}</table>')
        rows = table_rows(json_tag, chars, json.dumps(COMPACT_HEAD))
        assert rows.header_count == 2
        assert rows.column_labels(json.dumps(KEYED))[2] == "Price / gross"
        header = rows.label_header(["No", "Price"])
        assert header.compact and header.rows == ('["No", "Price"]',)
        assert header.tokens == len('["No", "Price"]') + 2  # its row and one ", "


class TestShortening:
    def test_every_part_keeps_its_first_words(self) -> None:
        label = "Price per unit, in euros / before any tax"
        assert shortened(label, 9) == label
        assert shortened(label, 3) == "Price per unit… / before any tax"
        assert shortened(label, 2) == "Price per… / before any…"
        assert shortened(label, 1) == "Price… / before…"  # the comma before a cut goes

    def test_the_ladder_runs_from_the_labels_to_one_word_without_repeats(self) -> None:
        labels = ["No", "Unit price in euros", "Amount due"]
        ladder = label_ladder(labels)
        assert ladder == [
            labels,
            ["No", "Unit price in…", "Amount due"],
            ["No", "Unit price…", "Amount due"],
            ["No", "Unit…", "Amount…"],
        ]
        assert label_ladder(["A", "B"]) == [["A", "B"]]
