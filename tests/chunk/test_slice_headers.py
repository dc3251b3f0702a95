"""Stage B: the header a continuation slice repeats when the table's own header rows leave
no room for its rows: one row of column labels, shortened to fit (issue 15).

Arithmetic with the 1-char tokenizer: ``<table id="t" format="json">`` + ``[]`` +
``</table>`` is 38 tokens (36 without the ``", "`` the row weights carry), a data row
``["000", "xxxxxxxxxx"]`` 21 and its separator 2.
"""

from __future__ import annotations

import json
import logging

from lightrag_pchunk.chunk.blocks import make_paragraph
from lightrag_pchunk.chunk.html_rows import html_rows
from lightrag_pchunk.chunk.slice_headers import COMPACT_SHARE
from lightrag_pchunk.chunk.table_slices import slice_table
from lightrag_pchunk.chunk.table_tags import parse_table

from helpers import char_context

DATA = [[f"{i:03d}", "x" * 10] for i in range(24)]
# Two header rows padded with empty cells, as a Word table with merged cells is written:
# 239 tokens with their separators, though their labels hold 112.
PADDED = [
    ["Article number as listed in the supplier catalogue", "Price per unit in euros"] + [""] * 15,
    ["", "before any discount or tax"] + [""] * 15,
]


def json_table(rows) -> str:
    return f'<table id="t" format="json">{json.dumps(rows, ensure_ascii=False)}</table>'


def rows_of(text: str) -> list:
    tag = parse_table(text)
    assert tag is not None and tag.format == "json", text[:80]
    return json.loads(tag.body)


def cut(text: str, cap: int, **kw):
    ctx = kw.pop("ctx", None) or char_context(400)
    return slice_table(make_paragraph(text, ctx.counter), ctx, cap=cap, **kw).pieces


def continuation_data(pieces, first_header: int) -> list:
    """The data rows of all slices in order: the first slice's after its header rows,
    every other slice's after its one repeated row (full or compact)."""
    out = rows_of(pieces[0].text)[first_header:]
    for piece in pieces[1:]:
        out.extend(rows_of(piece.text)[1:])
    return out


class TestCompactHeader:
    def test_a_header_too_big_for_any_row_repeats_its_shortened_labels(self, pchunk_logs) -> None:
        ctx = char_context(400, table_headers={"t": json.dumps(PADDED)})
        with pchunk_logs.at_level(logging.DEBUG, logger="lightrag.pchunk"):
            pieces = cut(json_table(PADDED + DATA), 286, ctx=ctx)
        # Room 286 - 36 = 250: the 239-token header leaves no room for a 23-token row.
        # It is the first slice on its own; the labels, cut to two words a part (49
        # tokens), are the richest form within a quarter of the room (62.5; the next,
        # three words a part, is 66), so each continuation holds 8 rows: 36 + 49 + 8 * 23.
        assert [p.tokens for p in pieces] == [275, 269, 269, 269]
        assert rows_of(pieces[0].text) == PADDED
        compact = ["Article number…", "Price per… / before any…"]
        assert all(rows_of(p.text)[0] == compact for p in pieces[1:])
        assert len(json.dumps(compact, ensure_ascii=False)) + 2 <= COMPACT_SHARE * 250 < 66
        assert continuation_data(pieces, 2) == DATA  # no row lost or repeated
        assert all(p.is_table and p.tokens == len(p.text) <= 286 for p in pieces)
        assert "too big to repeat" in pchunk_logs.text and "column labels" in pchunk_logs.text

    def test_a_row_too_big_for_the_full_header_takes_a_shorter_one(self) -> None:
        head = ["Article number in the catalogue", "Price in euros before any tax"]
        big = ["005", "y" * 150]  # 163 tokens: with the 70-token header over the cap
        rows = [head, *DATA[:5], big, *DATA[6:]]
        pieces = cut(json_table(rows), 250, has_tail=True)
        assert [p.tokens for p in pieces] == [221, 242, 244, 244, 244]
        assert [rows_of(p.text)[0] for p in pieces[1:]] == [
            ["Article number in…", "Price in euros…"],  # the richest form beside the row
            head,
            head,
            head,
        ]
        assert rows_of(pieces[1].text)[1:] == [big]
        assert continuation_data(pieces, 1) == rows[1:]

    def test_a_row_with_no_room_for_any_header_is_alone(self) -> None:
        head = ["Article number in the catalogue", "Price in euros before any tax"]
        big = ["005", "y" * 198]  # alone 249 tokens of a 250 cap: no label fits
        rows = [head, *DATA[:5], big, *DATA[6:]]
        pieces = cut(json_table(rows), 250, has_tail=True)
        assert [big] in [rows_of(p.text) for p in pieces]
        assert all(p.tokens <= 250 for p in pieces)

    def test_a_header_too_big_for_a_slice_alone_is_not_repeated(self) -> None:
        ctx = char_context(400, table_headers={"t": json.dumps(PADDED)})
        pieces = cut(json_table(PADDED + DATA), 250, ctx=ctx)
        # Room 214 < 239: the first slice cannot keep the full header, so nothing repeats
        # and the header rows are sliced like any rows.
        assert [row for p in pieces for row in rows_of(p.text)] == PADDED + DATA
        assert all(p.tokens <= 250 for p in pieces)

    def test_keyed_rows_label_the_columns_of_a_merged_header(self) -> None:
        # "Price" spans "net" and "gross" and is written once, so by position "gross"
        # would fall under "Total"; the parser's keys put every label over its cell.
        pad = [""] * 8
        head = [["No", "Price of the delivered goods", "Total", *pad], ["", "net", "gross", *pad]]
        body = [[str(i % 10), "10", "12", "22"] for i in range(30)]
        price = "Price of the delivered goods"
        keys = ["No", f"{price} / net", f"{price} / gross", "Total"]
        keyed = [dict(zip(keys, row, strict=True)) for row in body]
        ctx = char_context(
            400, table_headers={"t": json.dumps(head)}, keyed_rows={"t": json.dumps(keyed)}
        )
        pieces = cut(json_table(head + body), 186, ctx=ctx)
        # Room 150: the 135-token header leaves no room for a 25-token row; no form of
        # the labels is within a quarter of the room, so the smallest (51 tokens) is
        # repeated: 36 + 51 + 3 * 25 = 162 a slice.
        labels = ["No", "Price… / net", "Price… / gross", "Total"]
        assert rows_of(pieces[0].text) == head
        assert all(rows_of(p.text)[0] == labels for p in pieces[1:])
        assert [p.tokens for p in pieces] == [171] + [162] * 10
        assert continuation_data(pieces, 2) == body


class TestHtmlCompactHeader:
    HEAD = (
        '<thead><tr><th rowspan="2">Article number in the catalogue</th>'
        '<th colspan="2">Price in euros</th></tr>'
        "<tr><th>before any tax or discount</th><th>after tax, with every discount</th></tr>"
        "</thead>"
    )

    def test_continuations_repeat_one_label_row_in_the_thead(self) -> None:
        body = "".join(f"<tr><td>r{i:02d}</td><td>{i}</td><td>{i + 1}</td></tr>" for i in range(20))
        text = f'<table id="h" format="html">{self.HEAD}<tbody>{body}</tbody></table>'
        pieces = cut(text, 260)
        first = parse_table(pieces[0].text).body
        assert first == self.HEAD  # the first slice: the full header rows
        labels = (
            "<thead><tr><th>Article…</th><th>Price… / before…</th><th>Price… / after…</th>"
            "</tr></thead>"
        )
        seen: list[str] = []
        for piece in pieces[1:]:
            assert piece.is_table and piece.tokens == len(piece.text) <= 260
            body_text = parse_table(piece.text).body
            assert body_text.startswith(labels + "<tbody>")
            table = html_rows(body_text)
            assert [table.groups[r.group].name for r in table.rows[1:]] == ["tbody"] * (
                len(table.rows) - 1
            )
            seen.extend(r.text for r in table.rows[1:])
        assert "".join(seen) == body
