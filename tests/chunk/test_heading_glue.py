"""Heading glue: a heading-only block joins the deeper section after it (LightRAG HeadingGlue)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from lightrag_pchunk.chunk.heading_glue import heading_glue, is_heading_only
from lightrag_pchunk.chunk.pipeline import to_chunks
from lightrag_pchunk.model import TableRole

from helpers import char_context, make_block


@pytest.fixture
def ctx():
    return char_context(100)


def test_heading_only_detection(ctx) -> None:
    counter = ctx.counter
    assert is_heading_only(make_block("## 2.4", counter, heading="2.4"))
    assert is_heading_only(make_block("# 2\n## 2.4", counter, heading="2"))
    assert not is_heading_only(make_block("## 2.4\nbody", counter, heading="2.4"))
    assert not is_heading_only(make_block("## 2.4", counter, heading=""))
    assert not is_heading_only(make_block("#hashtag", counter, heading="x"))


def test_a_heading_glues_forward_into_its_deeper_child_keeping_its_identity(ctx) -> None:
    counter = ctx.counter
    head = make_block("## 2.4", counter, heading="2.4", level=2, source_row=1)
    child = make_block(
        "### 2.4.1\n" + "b" * 40, counter, heading="2.4.1", parents=("2.4",), level=3, source_row=2
    )
    [glued] = heading_glue([head, child], ctx)
    assert glued.content == "## 2.4\n\n### 2.4.1\n" + "b" * 40
    assert glued.tokens == len(glued.content) == 58
    assert (glued.heading, glued.parent_headings, glued.level) == ("2.4", (), 2)
    assert glued.block_ids == ("b1", "b2")


def test_a_chain_of_headings_collapses_into_the_shallowest(ctx) -> None:
    counter = ctx.counter
    blocks = [
        make_block("# 2", counter, heading="2", level=1, source_row=0),
        make_block("## 2.4", counter, heading="2.4", parents=("2",), level=2, source_row=1),
        make_block(
            "### 2.4.1\nbody.",
            counter,
            heading="2.4.1",
            parents=("2", "2.4"),
            level=3,
            source_row=2,
        ),
    ]
    [glued] = heading_glue(blocks, ctx)
    assert glued.content == "# 2\n\n## 2.4\n\n### 2.4.1\nbody."
    assert (glued.heading, glued.level) == ("2", 1)
    assert glued.block_ids == ("b0", "b1", "b2")


@pytest.mark.parametrize(
    ("next_level", "role", "pinned"),
    [
        (2, TableRole.NONE, False),  # a sibling: never glued
        (1, TableRole.NONE, False),  # shallower: never glued
        (3, TableRole.MIDDLE, False),  # a protected table slice
        (3, TableRole.LAST, False),
        (3, TableRole.NONE, True),  # a pinned title block
    ],
)
def test_no_glue_unless_the_next_block_is_deeper_and_free(ctx, next_level, role, pinned) -> None:
    counter = ctx.counter
    head = make_block("## Head", counter, heading="Head", level=2, source_row=0)
    nxt = make_block("body text.", counter, heading="N", level=next_level, source_row=1)
    nxt = replace(nxt, role=role, is_title=pinned)
    assert heading_glue([head, nxt], ctx) == [head, nxt]


def test_a_heading_is_never_glued_backwards(ctx) -> None:
    counter = ctx.counter
    body = make_block("## A\nbody.", counter, heading="A", level=2, source_row=0)
    head = make_block("### A.1", counter, heading="A.1", parents=("A",), level=3, source_row=1)
    assert heading_glue([body, head], ctx) == [body, head]


def test_near_the_cap_the_child_is_cut_so_the_heading_is_not_orphaned(ctx) -> None:
    counter = ctx.counter
    head = make_block("# Chapter", counter, heading="Chapter", level=1, source_row=0)
    child_text = "## Sec\n" + "x" * 39 + ".\n" + "y" * 47 + "."  # 6 + 1 + 40 + 1 + 48 = 96
    child = make_block(
        child_text, counter, heading="Sec", parents=("Chapter",), level=2, source_row=1
    )
    out = heading_glue([head, child], ctx)
    # 9 + 2 + 96 > 100: room for 100 - 9 - 2 = 89 tokens of the child beside the heading.
    assert [b.content for b in out] == ["# Chapter\n\n## Sec\n" + "x" * 39 + ".", "y" * 47 + "."]
    assert [b.heading for b in out] == ["Chapter", "Sec"]
    chunks = to_chunks(out, ctx)  # Sec's rest is the only chunk that declares Sec: no number
    assert [c.heading for c in chunks] == ["Chapter", "Sec"]
    assert all(b.tokens <= 100 for b in out)


def test_a_long_first_paragraph_is_split_to_make_room_for_the_heading(ctx) -> None:
    counter = ctx.counter
    head = make_block("# Chapter", counter, heading="Chapter", level=1, source_row=0)
    words = " ".join(f"w{i:02d}" for i in range(24))  # 95 characters, no anchor
    child = make_block(words, counter, heading="Sec", parents=("Chapter",), level=2, source_row=1)
    out = heading_glue([head, child], ctx)
    assert out[0].content.startswith("# Chapter\n\nw00")
    assert out[0].heading == "Chapter"
    assert all(b.tokens <= 100 for b in out)
    tail_words = out[-1].content.split()
    assert tail_words[-1] == "w23"


def test_a_child_heading_line_stays_with_the_start_of_its_text(ctx) -> None:
    counter = ctx.counter
    head = make_block("# Chapter", counter, heading="Chapter", level=1, source_row=0)
    items = "\n".join(f"- item {i} " + "z" * 12 for i in range(5))  # 5 lines of 21
    child = make_block(
        "## Sec\n\n" + items, counter, heading="Sec", parents=("Chapter",), level=2, source_row=1
    )
    out = heading_glue([head, child], ctx)
    # The list does not fit beside both headings; its first lines do, under "## Sec".
    assert not is_heading_only(out[0])
    assert out[0].content.startswith("# Chapter\n\n## Sec\n- item 0 ")
    assert [b.heading for b in out] == ["Chapter", "Sec"]
    assert not out[1].content.startswith("#")
    assert all(b.tokens <= 100 for b in out)
    assert "\n".join(b.content for b in out).count("- item") == 5
