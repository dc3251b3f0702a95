"""Stage B: oversized tables sliced at row boundaries, with roles and gluing (spec §6).

Arithmetic with the 1-char tokenizer: ``<table id="t" format="json">`` + ``</table>`` is
36 tokens, ``[]`` 2, the ``", "`` between rows 2, a header row ``["H1", "H2"]`` 12 and a
data row ``["000", "xxxxxxxxxx"]`` 21.
"""

from __future__ import annotations

import json
import logging

import pytest

from lightrag_pchunk.chunk.blocks import make_paragraph
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.html_rows import html_rows
from lightrag_pchunk.chunk.table_slices import slice_table, table_slices
from lightrag_pchunk.chunk.table_tags import dump_json_row, parse_table
from lightrag_pchunk.model import TableRole
from lightrag_pchunk.tokens import TokenCounter

from helpers import CharTokenizer, char_context, make_block

HEADER = ["H1", "H2"]
DATA = [[f"{i:03d}", "x" * 10] for i in range(24)]


def json_table(rows, table_id: str = "t") -> str:
    return f'<table id="{table_id}" format="json">{json.dumps(rows, ensure_ascii=False)}</table>'


def rows_of(text: str) -> list:
    tag = parse_table(text)
    assert tag is not None and tag.format == "json", text[:80]
    return json.loads(tag.body)


def data_rows(pieces, header_count: int) -> list:
    """The rows of table pieces in order, with the repeated header rows removed."""
    out: list = []
    for index, piece in enumerate(pieces):
        rows = rows_of(piece.text)
        out.extend(rows if index == 0 else rows[header_count:])
    return out


@pytest.fixture
def ctx400() -> Context:
    return char_context(400)  # target_max 400, table_max 250, table_min_last 80


def slice_at(text: str, ctx: Context, cap: int, **kw) -> list:
    return slice_table(make_paragraph(text, ctx.counter), ctx, cap=cap, **kw).pieces


def slice_tokens(k: int) -> int:
    """A slice of the header and ``k`` data rows: 36 + 2 + 12 + 21 k + 2 k."""
    return 50 + 23 * k


class TestRowSlicing:
    def test_slices_fill_the_cap_and_partition_the_rows(self, ctx400) -> None:
        text = json_table([HEADER, *DATA])
        assert len(text) == 602
        pieces = slice_at(text, ctx400, 250)
        # 50 + 23 k <= 250: eight rows a slice, the header repeated in each.
        assert [p.tokens for p in pieces] == [slice_tokens(8)] * 3
        assert all(p.is_table and p.tokens == len(p.text) for p in pieces)
        for piece in pieces:
            assert rows_of(piece.text)[0] == HEADER
        assert data_rows(pieces, 1) == [HEADER, *DATA]

    def test_the_first_slice_takes_the_room_it_is_offered(self, ctx400) -> None:
        text = json_table([HEADER, *DATA])
        pieces = slice_at(text, ctx400, 250, first_cap=100, last_min=80)
        assert [p.tokens for p in pieces] == [slice_tokens(k) for k in (2, 8, 8, 6)]
        assert data_rows(pieces, 1) == [HEADER, *DATA]

    def test_no_room_for_the_header_and_a_row_starts_the_table_afresh(self, ctx400) -> None:
        paragraph = make_paragraph(json_table([HEADER, *DATA]), ctx400.counter)
        cut = slice_table(paragraph, ctx400, cap=250, first_cap=slice_tokens(1) - 1)
        assert cut.fresh_start
        assert [p.tokens for p in cut.pieces] == [slice_tokens(8)] * 3

    def test_a_table_within_the_first_cap_is_kept_whole(self, ctx400) -> None:
        paragraph = make_paragraph(json_table([HEADER, *DATA[:5]]), ctx400.counter)
        assert slice_table(paragraph, ctx400, cap=250).pieces == [paragraph]

    @pytest.mark.parametrize("cap", [80, 120, 250, 400, 601])
    def test_any_cap_gives_parseable_slices_within_it(self, ctx400, cap) -> None:
        pieces = slice_at(json_table([HEADER, *DATA]), ctx400, cap, last_min=cap // 3)
        assert len(pieces) > 1
        assert all(p.is_table and len(p.text) == p.tokens <= cap for p in pieces)
        assert data_rows(pieces, 1) == [HEADER, *DATA]

    def test_a_short_last_slice_without_text_after_it_shares_rows(self, ctx400) -> None:
        text = json_table([HEADER, *DATA[:17]])
        # Greedy: 8, 8, 1 rows; the last (73 < 80) cannot be merged back (9 rows: 257).
        pieces = slice_at(text, ctx400, 250, last_min=80)
        assert [p.tokens for p in pieces] == [slice_tokens(k) for k in (8, 4, 5)]
        assert data_rows(pieces, 1) == [HEADER, *DATA[:17]]
        # With text after the table, the short slice stays: that text joins it.
        pieces = slice_at(text, ctx400, 250, last_min=80, has_tail=True)
        assert [p.tokens for p in pieces] == [slice_tokens(k) for k in (8, 8, 1)]

    def test_a_short_last_slice_is_merged_back_or_shares_rows(self, ctx400) -> None:
        text = json_table([HEADER, *DATA[:9]])
        # 8 + 1 rows: 234 and 73; together 50 + 9 * 23 = 257 > 250, at cap 260 one slice.
        assert [p.tokens for p in slice_at(text, ctx400, 250, last_min=80)] == [
            slice_tokens(4),
            slice_tokens(5),
        ]
        paragraph = make_paragraph(text, ctx400.counter)
        assert slice_table(paragraph, ctx400, cap=260).pieces == [paragraph]
        assert len(slice_at(text, ctx400, 256, first_cap=200, last_min=80)) == 2

    def test_wrapper_is_pre_deducted_at_tiny_caps(self, ctx400) -> None:
        text = json_table([HEADER, *DATA])
        # Room 80 - 36 = 44 leaves one header (14) and one row (23): 73 tokens a slice.
        pieces = slice_at(text, ctx400, 80)
        assert [p.tokens for p in pieces] == [73] * 24
        assert data_rows(pieces, 1) == [HEADER, *DATA]
        # Room 24: the 14-token header is over half of it, so it is not repeated; the
        # header row and each data row (36 + 2 + 21 = 59) become slices of their own.
        pieces = slice_at(text, ctx400, 60)
        assert [p.tokens for p in pieces] == [50] + [59] * 24
        assert [rows_of(p.text) for p in pieces] == [[r] for r in [HEADER, *DATA]]

    def test_no_room_for_any_row_falls_back_to_a_character_split(self, ctx400) -> None:
        text = json_table([HEADER, *DATA])
        pieces = slice_at(text, ctx400, 40)
        assert pieces and not any(p.is_table for p in pieces)
        assert all(p.tokens == len(p.text) <= 40 for p in pieces)
        assert "".join(p.text for p in pieces).replace(" ", "") == text.replace(" ", "")

    def test_slices_the_estimate_undercounts_give_back_rows(self) -> None:
        class SeamTokenizer(CharTokenizer):
            """30 extra tokens per row seam: invisible in single rows, so the row sums
            undercount every multi-row slice."""

            def encode(self, content: str) -> list[int]:
                return super().encode(content) + [0] * (30 * content.count("], ["))

        counter = TokenCounter(SeamTokenizer())
        ctx = Context.create(counter, 400)
        text = json_table([HEADER, *DATA])
        # A density of 1 token per character (the seams unseen) plans slices that undercount.
        paragraph = make_paragraph(text, counter, tokens=len(text))
        pieces = slice_table(paragraph, ctx, cap=250).pieces
        # Header + k rows measure 50 + 23 k + 30 k: four rows (262) do not fit, three do.
        assert all(counter.count(p.text) == p.tokens <= 250 for p in pieces)
        assert max(p.tokens for p in pieces) == 50 + 53 * 3
        assert data_rows(pieces, 1) == [HEADER, *DATA]

    def test_a_row_too_big_for_its_header_is_a_slice_alone(self, ctx400) -> None:
        big = ["005", "y" * 200]  # 211 tokens: alone 36 + 2 + 211 = 249, with the header 263
        rows = [HEADER, *DATA[:5], big, *DATA[6:]]
        pieces = slice_at(json_table(rows), ctx400, 250, has_tail=True)
        assert all(p.is_table and p.tokens <= 250 for p in pieces)
        assert [big] in [rows_of(p.text) for p in pieces]
        assert data_rows(pieces, 1)[:6] == [HEADER, *DATA[:5]]

    def test_single_row_over_the_cap_alone_is_character_split(self, ctx400) -> None:
        big = ["005", "y" * 600]
        rows = [HEADER, *DATA[:5], big, *DATA[6:]]
        pieces = slice_at(json_table(rows), ctx400, 250)
        kinds = [p.is_table for p in pieces]
        first_text = kinds.index(False)
        last_text = len(kinds) - 1 - kinds[::-1].index(False)
        text_pieces = pieces[first_text : last_text + 1]
        assert not any(p.is_table for p in text_pieces)
        joined = "".join(p.text for p in text_pieces)
        assert joined.replace(" ", "") == dump_json_row(big).replace(" ", "")
        assert all(p.tokens == len(p.text) <= 250 for p in pieces)
        before, after = pieces[:first_text], pieces[last_text + 1 :]
        assert before and after and all(p.is_table for p in before + after)
        assert data_rows(before, 1) == [HEADER, *DATA[:5]]
        assert rows_of(after[0].text)[0] == HEADER  # the header comes back after the row
        assert data_rows(after, 1)[1:] == DATA[6:]

    def test_the_caption_stays_with_the_first_slice(self, ctx400) -> None:
        rows = json.dumps([HEADER, *DATA])
        text = f'<table id="t" format="json" caption="Price list">{rows}</table>'
        pieces = slice_at(text, ctx400, 250)
        attrs = [parse_table(p.text).attrs for p in pieces]
        assert attrs[0] == 'id="t" format="json" caption="Price list"'
        assert len(attrs) > 2 and set(attrs[1:]) == {'id="t" format="json"'}


class TestHeaders:
    def test_declared_header_repeats_in_every_slice_and_counts(self) -> None:
        ctx = char_context(400, table_headers={"t": '[["H1", "H2"], ["h1", "h2"]]'})
        rows = [HEADER, ["h1", "h2"], *DATA]
        pieces = slice_at(json_table(rows), ctx, 250)
        # Two header rows: 36 + 2 + 26 + 23 k <= 250 gives eight rows a slice.
        per_slice = [len(rows_of(p.text)) - 2 for p in pieces]
        assert per_slice == [8, 8, 8]
        assert [p.tokens for p in pieces] == [64 + 23 * n for n in per_slice]
        assert all(rows_of(p.text)[:2] == rows[:2] for p in pieces)
        assert data_rows(pieces, 2) == rows

    def test_an_empty_declared_header_repeats_nothing(self) -> None:
        ctx = char_context(400, table_headers={"t": "[]"})
        pieces = slice_at(json_table(DATA), ctx, 250)
        assert data_rows(pieces, 0) == DATA
        assert sum(rows_of(p.text).count(DATA[0]) for p in pieces) == 1

    def test_rows_keyed_by_header_repeat_nothing(self, ctx400) -> None:
        keyed = [{"H1": a, "H2": b} for a, b in DATA]
        pieces = slice_at(json_table(keyed), ctx400, 250)
        assert len(pieces) > 1
        assert [row for p in pieces for row in rows_of(p.text)] == keyed

    def test_first_row_is_the_header_when_none_is_declared(self, ctx400) -> None:
        rows = [HEADER, ["h1", "h2"], *DATA]
        pieces = slice_at(json_table(rows), ctx400, 250)
        assert all(rows_of(p.text)[0] == HEADER for p in pieces)
        assert sum(rows_of(p.text).count(["h1", "h2"]) for p in pieces) == 1
        assert data_rows(pieces, 1) == rows

    def test_header_too_big_to_repeat_degrades_without_loss(self, ctx400, pchunk_logs) -> None:
        header = ["H" * 190, "I"]  # 201 tokens: with a 23-token row over the 214-token room
        rows = [header, *DATA]
        with pchunk_logs.at_level(logging.DEBUG, logger="lightrag.pchunk"):
            pieces = slice_at(json_table(rows), ctx400, 250)
        assert "too big to repeat" in pchunk_logs.text
        assert all(p.is_table and p.tokens <= 250 for p in pieces)
        assert rows_of(pieces[0].text)[0] == header
        assert all(header not in rows_of(p.text) for p in pieces[1:])
        assert data_rows(pieces, 0) == rows

    def test_mismatched_header_is_ignored(self, pchunk_logs) -> None:
        ctx = char_context(400, table_headers={"t": "<thead><tr><th>H1</th></tr></thead>"})
        with pchunk_logs.at_level(logging.WARNING, logger="lightrag.pchunk"):
            pieces = slice_at(json_table([HEADER, *DATA]), ctx, 250)
        assert "header ignored" in pchunk_logs.text
        assert [p.tokens for p in pieces] == [slice_tokens(8)] * 3  # the first row instead


class TestFallbacks:
    @pytest.mark.parametrize(
        "text",
        [
            '<table id="u1" format="csv">' + ";".join(f"r{i},v{i}" for i in range(80)) + "</table>",
            '<table id="u2" format="json">[' + ", ".join(f'["{i}"' for i in range(60)) + "</table>",
            '<table id="u3" format="json">{"rows": "' + "z" * 300 + '"}</table>',
            '<table id="u4" format="html"><tr><td>' + "w " * 150 + "</td></tr></table>",
        ],
    )
    def test_unrecognised_table_is_character_split(self, ctx400, pchunk_logs, text) -> None:
        with pchunk_logs.at_level(logging.DEBUG, logger="lightrag.pchunk"):
            pieces = slice_at(text, ctx400, 250)
        assert len(pieces) > 1 and not any(p.is_table for p in pieces)
        assert all(p.tokens == len(p.text) <= 250 for p in pieces)
        assert "".join(p.text for p in pieces).replace(" ", "") == text.replace(" ", "")
        assert parse_table(text).table_id in pchunk_logs.text

    def test_unrecognised_table_stays_ordinary_text_in_its_block(self, ctx400) -> None:
        table = '<table id="u" format="csv">' + ";".join(f"r{i}" for i in range(120)) + "</table>"
        block = make_block(f"# H\nlead\n{table}\ntrail", ctx400.counter, heading="H")
        assert block.tokens > 400
        (out,) = table_slices([block], ctx400)
        assert out.role is TableRole.NONE
        texts = [p.text for p in out.paragraphs]
        assert texts[:2] == ["# H", "lead"] and texts[-1] == "trail"
        # The split may fall on a space, which is dropped at the cut.
        assert "".join(texts[2:-1]).replace(" ", "") == table.replace(" ", "")
        assert not any(p.is_table for p in out.paragraphs)


HTML_HEAD = "<thead><tr><th>Name</th><th>Value</th></tr></thead>"
NESTED = "<tr><td>r07<table><tr><td>in</td></tr><tr><td>ner</td></tr></table></td><td>v</td></tr>"


def html_table() -> tuple[str, list[str]]:
    body_rows = [f"<tr><td>r{i:02d}</td><td>{'v' * 20}</td></tr>" for i in range(20)]
    body_rows[7] = NESTED
    foot = "<tr><td>total</td><td>20</td></tr>"
    body = f"{HTML_HEAD}<tbody>{''.join(body_rows)}</tbody><tfoot>{foot}</tfoot>"
    return f'<table id="h" format="html">{body}</table>', [*body_rows, foot]


class TestHtml:
    def test_html_slices_keep_wrappers_rows_and_nested_tables(self, ctx400) -> None:
        text, rows = html_table()
        pieces = slice_at(text, ctx400, 250)
        assert len(pieces) > 2
        seen: list[str] = []
        for piece in pieces:
            assert piece.is_table and piece.tokens == len(piece.text) <= 250
            tag = parse_table(piece.text)
            assert tag.attrs == 'id="h" format="html"' and tag.format == "html"
            assert tag.body.startswith(HTML_HEAD)  # header repeated, in its <thead>
            for name in ("thead", "tbody", "tfoot"):
                assert tag.body.count(f"<{name}>") == tag.body.count(f"</{name}>") <= 1
            table = html_rows(tag.body)
            assert table.groups[table.rows[0].group].name == "thead"
            seen.extend(r.text for r in table.rows[1:])
        assert seen == rows
        assert "<tfoot>" in pieces[-1].text and "<tfoot>" not in pieces[0].text


class TestStageB:
    def test_roles_and_gluing(self, ctx400, pchunk_logs) -> None:
        table = json_table([HEADER, *DATA, *DATA])
        block = make_block(
            f"# Section\nlead text\n{table}\ntrailing text",
            ctx400.counter,
            heading="Section",
            parents=("Doc",),
            level=2,
            source_row=3,
            block_ids=("b3",),
        )
        with pchunk_logs.at_level(logging.DEBUG, logger="lightrag.pchunk"):
            out = table_slices([block], ctx400)
        roles = [b.role for b in out]
        assert roles == [TableRole.FIRST, TableRole.MIDDLE, TableRole.MIDDLE, TableRole.LAST]
        # The first slice fills the room after "# Section\nlead text" (20 + 2 tokens).
        assert [p.text for p in out[0].paragraphs[:2]] == ["# Section", "lead text"]
        assert out[0].paragraphs[2].tokens == slice_tokens(14) and out[0].tokens == 392
        assert [b.tokens for b in out[1:3]] == [slice_tokens(15)] * 2
        assert all(len(b.paragraphs) == 1 and b.paragraphs[0].is_table for b in out[1:3])
        assert [p.text for p in out[-1].paragraphs][1:] == ["trailing text"]
        for b in out:
            assert (b.heading, b.parent_headings, b.level) == ("Section", ("Doc",), 2)
            assert (b.source_row, b.block_ids) == (3, ("b3",))
            assert b.content == "\n".join(p.text for p in b.paragraphs)
        assert "table_chunk_role" in pchunk_logs.text and "slices=4" in pchunk_logs.text

    def test_text_without_room_for_the_first_slice_is_a_block_of_its_own(self, ctx400) -> None:
        table = json_table([HEADER, *DATA])
        lead = "l" * 350
        block = make_block(f"{lead}\n{table}", ctx400.counter, heading="S")
        out = table_slices([block], ctx400)
        assert out[0].content == lead and out[0].role is TableRole.NONE
        assert out[1].role is TableRole.FIRST and out[1].paragraphs[0].is_table

    def test_two_oversized_tables_give_a_last_first_transition(self, ctx400) -> None:
        one, two = json_table([HEADER, *DATA], "t1"), json_table([HEADER, *DATA], "t2")
        block = make_block(f"{one}\nbridge text\n{two}\nafter", ctx400.counter)
        out = table_slices([block], ctx400)
        roles = [b.role for b in out]
        first, last = TableRole.FIRST, TableRole.LAST
        assert roles == [first, last, first, last]
        boundary = out[1]
        assert boundary.paragraphs[0].is_table and "t1" in boundary.paragraphs[0].text
        assert [p.text for p in boundary.paragraphs[1:]] == ["bridge text"]
        assert len(out[2].paragraphs) == 1 and "t2" in out[2].paragraphs[0].text

    def test_blocks_that_fit_or_have_no_oversized_table_pass_through(self, ctx400) -> None:
        small = make_block(f"# A\n{json_table([HEADER, *DATA[:3]])}\ntext", ctx400.counter)
        plain = make_block("# B\njust text", ctx400.counter, source_row=1)
        fits = make_block(f"# C\n{json_table([HEADER, *DATA[:14]])}", ctx400.counter)
        assert 250 < fits.tokens <= 400
        out = table_slices([small, plain, fits], ctx400)
        assert out[0] is small and out[1] is plain and out[2] is fits


def test_3000_row_table_costs_linear_encoding(cl100k) -> None:
    header = ["ID", "Name", "Description", "Value"]
    rows = [header] + [
        [str(i), f"Item {i}", f"Description of item {i} with some words.", f"{i * 3.5}"]
        for i in range(1, 3001)
    ]
    ctx = Context.create(cl100k, 2000, table_headers={"tb-x": json.dumps([header])})
    text = json_table(rows, "tb-x")
    block = make_block(f"Intro.\n{text}\nAfter.", cl100k)
    before = (cl100k.stats.encode_calls, cl100k.stats.encoded_chars)
    out = table_slices([block], ctx)
    calls = cl100k.stats.encode_calls - before[0]
    chars = cl100k.stats.encoded_chars - before[1]
    assert chars < 4 * len(text)
    assert calls < 3001 + 3 * len(out) + 10
    slices = [p for b in out for p in b.paragraphs if p.is_table]
    fresh = TokenCounter(cl100k.tokenizer)
    assert all(p.tokens == fresh.count(p.text) <= 2000 for p in slices)
    assert all(rows_of(p.text)[0] == header for p in slices)
    assert data_rows(slices, 1) == rows
    assert out[0].role is TableRole.FIRST and out[-1].role is TableRole.LAST
