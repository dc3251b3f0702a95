"""Stage B.1: the bridge text between two sliced tables of one row (spec §7)."""

from __future__ import annotations

import json
import logging
from dataclasses import replace

import pytest

from lightrag_pchunk.chunk.blocks import build_block, make_paragraph
from lightrag_pchunk.chunk.bridge import bridge
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.table_slices import table_slices
from lightrag_pchunk.model import Block, TableRole
from lightrag_pchunk.tokens import TokenCounter

from helpers import char_context, make_block


def table_text(length: int, table_id: str = "t") -> str:
    """A JSON table tag of exactly ``length`` characters."""
    head, tail = f'<table id="{table_id}" format="json">[["', '"]]</table>'
    return head + "x" * (length - len(head) - len(tail)) + tail


def pair(
    ctx: Context,
    bridge_lines: list[str],
    *,
    last: str | None = None,
    first: str | None = None,
    rows: tuple[int, int] = (0, 0),
) -> tuple[Block, Block]:
    """X = a LAST slice followed by the bridge lines, Y = the next table's FIRST slice."""
    counter = ctx.counter
    base = make_block("placeholder", counter, heading="Sec", parents=("Doc",), level=2)
    last_p = make_paragraph(last or table_text(150, "t1"), counter)
    first_p = make_paragraph(first or table_text(150, "t2"), counter)
    bridge_ps = [make_paragraph(line, counter) for line in bridge_lines]
    x = build_block([last_p, *bridge_ps], counter, like=base, role=TableRole.LAST)
    y = build_block([first_p], counter, like=base, role=TableRole.FIRST)
    return replace(x, source_row=rows[0]), replace(y, source_row=rows[1])


def texts(block: Block) -> list[str]:
    return [p.text for p in block.paragraphs]


def test_short_bridge_is_shared_by_both_tables(pchunk_logs) -> None:
    ctx = char_context(400, 60)  # budgets min(60, 400 - 150 - 1, 200) = 60
    x, y = pair(ctx, ["Bridge text.", "Second line."])
    with pchunk_logs.at_level(logging.DEBUG, logger="lightrag.pchunk"):
        out = bridge([x, y], ctx)
    assert len(out) == 2 and out[0] is x
    assert texts(out[1]) == ["Bridge text.", "Second line.", table_text(150, "t2")]
    assert out[1].role is TableRole.FIRST
    assert out[1].content == "Bridge text.\nSecond line.\n" + table_text(150, "t2")
    assert "bridge" in pchunk_logs.text and "prefix=25 middle=0 suffix=25" in pchunk_logs.text


@pytest.mark.parametrize("separator", [" ", ""])
def test_long_bridge_gets_prefix_middle_and_suffix(pchunk_logs, separator) -> None:
    ctx = char_context(400, 45)  # budgets 45 each side
    text = separator.join(["A" * 45, "B" * 50, "C" * 45])
    x, y = pair(ctx, [text])
    with pchunk_logs.at_level(logging.DEBUG, logger="lightrag.pchunk"):
        out = bridge([x, y], ctx)
    assert [b.role for b in out] == [TableRole.LAST, TableRole.NONE, TableRole.FIRST]
    assert texts(out[0]) == [table_text(150, "t1"), "A" * 45]
    assert texts(out[1]) == ["B" * 50]
    assert texts(out[2]) == ["C" * 45, table_text(150, "t2")]
    assert "<table" not in out[1].content
    assert (out[1].source_row, out[1].heading, out[1].block_ids) == (0, "Sec", x.block_ids)
    assert separator.join([out[0].paragraphs[1].text, out[1].content, "C" * 45]) == text
    assert "prefix=45 middle=50 suffix=45" in pchunk_logs.text


def test_cuts_prefer_word_boundaries_inside_the_budget() -> None:
    ctx = char_context(400, 12)
    text = "one two three four five six seven eight nine ten"
    x, y = pair(ctx, [text])
    out = bridge([x, y], ctx)
    # 12 characters end inside "three" and start inside "eight": both move to a space.
    assert texts(out[0])[1:] == ["one two"]
    assert texts(out[1]) == ["three four five six seven eight"]
    assert texts(out[2])[0] == "nine ten"


def test_budgets_are_capped_at_half_of_target_max() -> None:
    ctx = char_context(100, 99)  # min(99, 100 - 40 - 1, 100 // 2) = 50
    text = "A" * 50 + "B" * 100 + "C" * 50
    x, y = pair(ctx, [text], last=table_text(40, "t1"), first=table_text(40, "t2"))
    out = bridge([x, y], ctx)
    assert texts(out[0])[1:] == ["A" * 50]
    assert texts(out[1]) == ["B" * 100]
    assert texts(out[2])[:-1] == ["C" * 50]


def test_budget_is_limited_by_the_room_left_beside_the_slice() -> None:
    ctx = char_context(400, 100)  # prev: min(100, 400 - 380 - 1, 200) = 19; next: 100
    x, y = pair(ctx, ["A" * 100], last=table_text(380, "t1"))
    out = bridge([x, y], ctx)
    assert len(out) == 2  # the prefix and the suffix cover the bridge: no middle
    assert texts(out[0])[1:] == ["A" * 19] and out[0].tokens == 400
    assert texts(out[1]) == ["A" * 100, table_text(150, "t2")]


def test_overlap_zero_or_empty_bridge_changes_nothing() -> None:
    ctx = char_context(400, 0)
    x, y = pair(ctx, ["bridge stays with the last slice"])
    out = bridge([x, y], ctx)
    assert out[0] is x and out[1] is y
    ctx = char_context(400, 50)
    x, y = pair(ctx, [])
    out = bridge([x, y], ctx)
    assert out[0] is x and out[1] is y


def test_only_last_first_pairs_of_one_row_with_plain_bridge_text() -> None:
    ctx = char_context(400, 50)
    x, y = pair(ctx, ["text", table_text(60, "small")])
    assert bridge([x, y], ctx) == [x, y]  # a table inside the bridge
    x, y = pair(ctx, ["text"], rows=(0, 1))
    assert bridge([x, y], ctx) == [x, y]  # different content rows (§13.2)
    x, y = pair(ctx, ["text"])
    middle = replace(y, role=TableRole.MIDDLE)
    assert bridge([x, middle], ctx) == [x, middle]


def test_cjk_bridge_is_cut_without_replacement_characters(cl100k) -> None:
    ctx = Context.create(cl100k, 2000, 7)
    text = "鬱龘齉饕餮魑魅魍魉，描述两个表格之间的关系。龘齉饕餮鬱"
    ids = cl100k.encode(text)
    # The raw token windows do split characters, so the test can fail.
    assert "\ufffd" in cl100k.decode(ids[:7]) + cl100k.decode(ids[-7:])
    x, y = pair(ctx, [text])
    out = bridge([x, y], ctx)
    assert len(out) == 3
    prefix, middle, suffix = texts(out[0])[1], out[1].content, texts(out[2])[0]
    assert not any("\ufffd" in block.content for block in out)
    assert prefix + middle + suffix == text
    fresh = TokenCounter(cl100k.tokenizer)
    assert 0 < fresh.count(prefix) <= 7 and 0 < fresh.count(suffix) <= 7


def test_after_stage_b_the_bridge_joins_both_tables() -> None:
    ctx = char_context(400, 45)
    rows = [["H1", "H2"]] + [[f"{i:03d}", "x" * 10] for i in range(24)]
    one = f'<table id="t1" format="json">{json.dumps(rows)}</table>'
    two = f'<table id="t2" format="json">{json.dumps(rows)}</table>'
    text = "A" * 45 + " " + "B" * 50 + " " + "C" * 45
    block = make_block(f"# S\n{one}\n{text}\n{two}\nafter", ctx.counter)
    out = bridge(table_slices([block], ctx), ctx)
    roles = [b.role for b in out]
    first, last = TableRole.FIRST, TableRole.LAST
    assert roles == [first, last, TableRole.NONE, first, last]
    assert texts(out[1])[1:] == ["A" * 45]
    assert out[2].content == "B" * 50
    # The second table's first slice left room for the 45-token copy in front of it.
    assert texts(out[3])[0] == "C" * 45 and '"t2"' in texts(out[3])[1]
    assert all(b.tokens <= 400 for b in out)


def test_a_copied_suffix_never_starts_inside_a_word() -> None:
    # next budget = min(60, 400 - 390 - 1, 200) = 9 characters: "mma delta" would cut
    # "gamma"; the copy snaps to the word boundary and carries "delta" only.
    ctx = char_context(400, 60)
    x, y = pair(ctx, ["alpha beta gamma delta"], first=table_text(390, "t2"))
    out = bridge([x, y], ctx)
    assert texts(out[0])[1:] == ["alpha beta gamma delta"]
    assert texts(out[-1])[0] == "delta"


def test_cjk_text_is_cut_between_characters() -> None:
    ctx = char_context(400, 60)
    x, y = pair(ctx, ["核电厂应当建立"], first=table_text(393, "t2"))  # next budget 6
    out = bridge([x, y], ctx)
    assert texts(out[-1])[0] == "电厂应当建立"
