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
    return char_context(400)  # table_max 250, table_ideal 150, table_min_last 80


def slice_at(text: str, ctx: Context, cap: int, ideal: int, last_min: int, **kw):
    return slice_table(
        make_paragraph(text, ctx.counter), ctx, cap=cap, ideal=ideal, last_min=last_min, **kw
    )


class TestRowSlicing:
    def test_balanced_slices_partition_the_rows(self, ctx400) -> None:
        text = json_table([HEADER, *DATA])
        assert len(text) == 602
        pieces = slice_at(text, ctx400, 250, 150, 80)
        # body_max = 250 - 36 - 14 = 200, body_ideal = 150 - 50 = 100: k = ceil(552/100) = 6
        # slices of 4 rows, each 36 + 2 + 12 + 4 * 21 + 4 * 2 = 142 tokens.
        assert [p.tokens for p in pieces] == [142] * 6
        assert all(p.is_table and p.tokens == len(p.text) for p in pieces)
        for piece in pieces:
            assert rows_of(piece.text)[0] == HEADER
        assert data_rows(pieces, 1) == [HEADER, *DATA]

    def test_a_table_within_the_cap_is_kept_whole(self, ctx400) -> None:
        text = json_table([HEADER, *DATA[:5]])
        paragraph = make_paragraph(text, ctx400.counter)
        assert slice_table(paragraph, ctx400, cap=250, ideal=150, last_min=80) == [paragraph]

    @pytest.mark.parametrize("cap", [80, 120, 250, 400, 601])
    def test_any_cap_gives_parseable_slices_within_it(self, ctx400, cap) -> None:
        pieces = slice_at(json_table([HEADER, *DATA]), ctx400, cap, int(cap * 0.6), cap // 3)
        assert len(pieces) > 1
        assert all(p.is_table and len(p.text) == p.tokens <= cap for p in pieces)
        assert data_rows(pieces, 1) == [HEADER, *DATA]

    def test_wrapper_is_pre_deducted_at_tiny_caps(self, ctx400) -> None:
        text = json_table([HEADER, *DATA])
        # Room 80 - 36 = 44 leaves one header (14) and one row (23): 73 tokens a slice.
        pieces = slice_at(text, ctx400, 80, 60, 10)
        assert [p.tokens for p in pieces] == [73] * 24
        assert data_rows(pieces, 1) == [HEADER, *DATA]
        # Room 24: the 14-token header is over half of it, so it is not repeated; the
        # header row and each data row (36 + 2 + 21 = 59) become slices of their own.
        pieces = slice_at(text, ctx400, 60, 40, 10)
        assert [p.tokens for p in pieces] == [50] + [59] * 24
        assert [rows_of(p.text) for p in pieces] == [[r] for r in [HEADER, *DATA]]

    def test_no_room_for_any_row_falls_back_to_a_character_split(self, ctx400) -> None:
        text = json_table([HEADER, *DATA])
        pieces = slice_at(text, ctx400, 40, 30, 10)
        assert pieces and not any(p.is_table for p in pieces)
        assert all(p.tokens == len(p.text) <= 40 for p in pieces)
        assert "".join(p.text for p in pieces).replace(" ", "") == text.replace(" ", "")

    def test_dense_subset_is_re_sliced_recursively(self) -> None:
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
        pieces = slice_table(paragraph, ctx, cap=250, ideal=150, last_min=80)
        # Each planned 4-row slice measures 142 + 4 * 30 = 262 > 250 and is halved:
        # 36 + 2 + 12 + 2 * 21 + 2 * 2 = 96, plus 2 seams = 156.
        assert [p.tokens for p in pieces] == [156] * 12
        assert all(counter.count(p.text) == p.tokens for p in pieces)
        assert data_rows(pieces, 1) == [HEADER, *DATA]

    def test_single_oversized_row_alone_is_character_split(self, ctx400) -> None:
        big = ["005", "y" * 600]
        rows = [HEADER, *DATA[:5], big, *DATA[6:]]
        pieces = slice_at(json_table(rows), ctx400, 250, 150, 80)
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

    def test_last_slice_swallow_back_on_and_off_the_edge(self, ctx400) -> None:
        # Rows of 48, 48 and 10 tokens (weights 50, 50, 12): three slices of 86, 86 and 48;
        # merging the last two gives 38 + 48 + 2 + 10 = 98.
        text = json_table([["a" * 44], ["b" * 44], ["c" * 6]])
        assert len(text) == 148

        def sizes(cap: int, last_min: int) -> list[int]:
            pieces = slice_at(text, ctx400, cap, cap - 24, last_min, repeat_header=False)
            assert data_rows(pieces, 0) == [["a" * 44], ["b" * 44], ["c" * 6]]
            return [p.tokens for p in pieces]

        assert sizes(98, 60) == [86, 98]  # merge fits exactly
        assert sizes(97, 60) == [86, 86, 48]  # one token over: kept apart
        assert sizes(98, 49) == [86, 98]  # 48 < 49: swallowed
        assert sizes(98, 48) == [86, 86, 48]  # not below table_min_last


class TestHeaders:
    def test_declared_header_repeats_in_every_slice_and_counts(self) -> None:
        ctx = char_context(400, table_headers={"t": '[["H1", "H2"], ["h1", "h2"]]'})
        rows = [HEADER, ["h1", "h2"], *DATA]
        pieces = slice_at(json_table(rows), ctx, 250, 150, 80)
        # Header 2 * 14 = 28: body_max 186, body_ideal 86, k = ceil(552/86) = 7 slices
        # of n = 3 or 4 rows: 38 + 24 + n * 21 + (n + 1) * 2 = 64 + 23 * n tokens.
        per_slice = [len(rows_of(p.text)) - 2 for p in pieces]
        assert per_slice == [3, 4, 3, 4, 3, 4, 3]
        assert [p.tokens for p in pieces] == [64 + 23 * n for n in per_slice]
        assert all(rows_of(p.text)[:2] == rows[:2] for p in pieces)
        assert data_rows(pieces, 2) == rows

    def test_first_row_is_the_header_when_none_is_declared(self, ctx400) -> None:
        rows = [HEADER, ["h1", "h2"], *DATA]
        pieces = slice_at(json_table(rows), ctx400, 250, 150, 80)
        assert all(rows_of(p.text)[0] == HEADER for p in pieces)
        assert sum(rows_of(p.text).count(["h1", "h2"]) for p in pieces) == 1
        assert data_rows(pieces, 1) == rows

    def test_header_too_big_to_repeat_degrades_without_loss(self, ctx400, pchunk_logs) -> None:
        header = ["H" * 120, "I"]  # 130 tokens > half of the 214-token room
        rows = [header, *DATA]
        with pchunk_logs.at_level(logging.DEBUG, logger="lightrag.pchunk"):
            pieces = slice_at(json_table(rows), ctx400, 250, 150, 80)
        assert "too big to repeat" in pchunk_logs.text
        assert all(p.is_table and p.tokens <= 250 for p in pieces)
        assert rows_of(pieces[0].text)[0] == header
        assert all(header not in rows_of(p.text) for p in pieces[1:])
        assert data_rows(pieces, 0) == rows

    def test_mismatched_header_is_ignored(self, pchunk_logs) -> None:
        ctx = char_context(400, table_headers={"t": "<thead><tr><th>H1</th></tr></thead>"})
        with pchunk_logs.at_level(logging.WARNING, logger="lightrag.pchunk"):
            pieces = slice_at(json_table([HEADER, *DATA]), ctx, 250, 150, 80)
        assert "header ignored" in pchunk_logs.text
        assert [p.tokens for p in pieces] == [142] * 6  # the first row is repeated instead


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
            pieces = slice_at(text, ctx400, 250, 150, 80)
        assert len(pieces) > 1 and not any(p.is_table for p in pieces)
        assert all(p.tokens == len(p.text) <= 250 for p in pieces)
        assert "".join(p.text for p in pieces).replace(" ", "") == text.replace(" ", "")
        assert parse_table(text).table_id in pchunk_logs.text

    def test_unrecognised_table_stays_ordinary_text_in_its_block(self, ctx400) -> None:
        table = '<table id="u" format="csv">' + ";".join(f"r{i}" for i in range(90)) + "</table>"
        block = make_block(f"# H\nlead\n{table}\ntrail", ctx400.counter, heading="H")
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
        pieces = slice_at(text, ctx400, 250, 150, 80)
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
        table = json_table([HEADER, *DATA])
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
        assert roles == [TableRole.FIRST] + [TableRole.MIDDLE] * 4 + [TableRole.LAST]
        assert [p.text for p in out[0].paragraphs[:2]] == ["# Section", "lead text"]
        assert out[0].paragraphs[2].is_table
        assert all(len(b.paragraphs) == 1 and b.paragraphs[0].is_table for b in out[1:5])
        assert [p.text for p in out[-1].paragraphs][1:] == ["trailing text"]
        for b in out:
            assert (b.heading, b.parent_headings, b.level) == ("Section", ("Doc",), 2)
            assert (b.source_row, b.block_ids, b.part) == (3, ("b3",), 0)
            assert b.content == "\n".join(p.text for p in b.paragraphs)
        assert "table_chunk_role" in pchunk_logs.text and "slices=6" in pchunk_logs.text

    def test_two_oversized_tables_give_a_last_first_transition(self, ctx400) -> None:
        one, two = json_table([HEADER, *DATA], "t1"), json_table([HEADER, *DATA], "t2")
        block = make_block(f"{one}\nbridge text\n{two}\nafter", ctx400.counter)
        out = table_slices([block], ctx400)
        roles = [b.role for b in out]
        middles = [TableRole.MIDDLE] * 4
        first, last = TableRole.FIRST, TableRole.LAST
        assert roles == [first, *middles, last, first, *middles, last]
        boundary = out[5]
        assert boundary.paragraphs[0].is_table and "t1" in boundary.paragraphs[0].text
        assert [p.text for p in boundary.paragraphs[1:]] == ["bridge text"]
        assert len(out[6].paragraphs) == 1 and "t2" in out[6].paragraphs[0].text

    def test_blocks_without_an_oversized_table_pass_through(self, ctx400) -> None:
        small = make_block(f"# A\n{json_table([HEADER, *DATA[:3]])}\ntext", ctx400.counter)
        plain = make_block("# B\njust text", ctx400.counter, source_row=1)
        out = table_slices([small, plain], ctx400)
        assert out[0] is small and out[1] is plain


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
    assert all(p.tokens == fresh.count(p.text) <= 1250 for p in slices)
    assert all(rows_of(p.text)[0] == header for p in slices)
    assert data_rows(slices, 1) == rows
    assert out[0].role is TableRole.FIRST and out[-1].role is TableRole.LAST
