"""Stage D: hierarchy-aware merging (spec §9), hand-computed with 1 char = 1 token.

N=100: target_max 100, target_ideal 75, small_tail_threshold 12; N=200: 200, 150, 25.
Merges join with "\\n\\n" (2 tokens).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from lightrag_pchunk.chunk.merge import merge
from lightrag_pchunk.chunk.pipeline import to_chunks
from lightrag_pchunk.chunk.runs import is_descendant
from lightrag_pchunk.model import PREFACE_HEADING, TableRole

from helpers import char_context, make_block


def blk(ctx, text, *, heading="", parents=(), level=1, row=0, role=TableRole.NONE, title=False):
    block = make_block(text, ctx.counter, heading=heading, parents=parents, level=level,
                       source_row=row)  # fmt: skip
    return replace(block, role=role, is_title=title)


def test_siblings_merge_then_the_parent_absorbs_them_but_not_a_foreign_branch() -> None:
    # LightRAG's own vector (facts §6.1): Doc absorbs S1+S2, T1 (parent Other) stays apart.
    ctx = char_context(200)
    blocks = [
        blk(ctx, "# Doc\nintro", heading="Doc", level=1, row=0),
        blk(ctx, "## S1\n" + "a" * 30, heading="S1", parents=("Doc",), level=2, row=1),
        blk(ctx, "## S2\n" + "b" * 30, heading="S2", parents=("Doc",), level=2, row=2),
        blk(ctx, "## T1\n" + "c" * 30, heading="T1", parents=("Other",), level=2, row=3),
    ]
    out = merge(blocks, ctx)
    assert [(b.heading, b.tokens, b.block_ids) for b in out] == [
        ("Doc", 87, ("b0", "b1", "b2")),
        ("T1", 36, ("b3",)),
    ]
    assert out[0].content == "# Doc\nintro\n\n## S1\n" + "a" * 30 + "\n\n## S2\n" + "b" * 30
    assert out[0].level == 1


def test_small_peers_merge_greedily_until_the_cap_would_be_exceeded() -> None:
    ctx = char_context(100)
    blocks = [blk(ctx, c * 30 + ".", parents=("P",), level=2, row=i) for i, c in enumerate("abcd")]
    out = merge(blocks, ctx)
    # 31 + 2 + 31 = 64 < 75 -> still small; + 2 + 31 = 97 <= 100; + 33 would be 130.
    assert [b.tokens for b in out] == [97, 31]
    assert [b.block_ids for b in out] == [("b0", "b1", "b2"), ("b3",)]


def test_peers_with_different_parents_never_merge() -> None:
    ctx = char_context(100)
    a = blk(ctx, "a" * 20, heading="A", parents=("X", "1"), level=3, row=0)
    b = blk(ctx, "b" * 20, heading="B", parents=("X", "2"), level=3, row=1)
    assert merge([a, b], ctx) == [a, b]


def test_tail_absorption_measures_the_joined_text_against_the_cap() -> None:
    ctx = char_context(100)
    big = blk(ctx, "x" * 99, parents=("P",), level=2, row=0)
    tail = blk(ctx, "y", parents=("P",), level=2, row=1)
    assert merge([big, tail], ctx) == [big, tail]  # 99 + 2 + 1 = 102 > 100
    big = blk(ctx, "x" * 80, parents=("P",), level=2, row=0)
    [merged] = merge([big, tail], ctx)
    assert merged.content == "x" * 80 + "\n\ny"
    assert merged.tokens == 83
    assert merged.block_ids == ("b0", "b1")  # LightRAG loses these here; we keep them


def test_a_tail_run_worth_the_threshold_stands_on_its_own() -> None:
    ctx = char_context(100)
    big = blk(ctx, "x" * 80, parents=("P",), level=2, row=0)
    tails = [blk(ctx, c * 6, parents=("P",), level=2, row=i + 1) for i, c in enumerate("yz")]
    out = merge([big, *tails], ctx)  # 6 + 2 + 6 = 14 >= 12: not absorbed; the two merge
    assert [b.content for b in out] == ["x" * 80, "y" * 6 + "\n\n" + "z" * 6]


def test_a_middle_slice_stops_the_tail_run_and_never_merges() -> None:
    ctx = char_context(100)
    big = blk(ctx, "x" * 80, parents=("P",), level=2, row=0)
    middle = blk(ctx, "m" * 5, parents=("P",), level=2, row=1, role=TableRole.MIDDLE)
    small = blk(ctx, "s" * 5, parents=("P",), level=2, row=2)
    assert merge([big, middle, small], ctx) == [big, middle, small]


def test_table_roles_gate_merges_by_direction() -> None:
    ctx = char_context(100)
    p = ("P",)
    first = blk(ctx, "f" * 10, parents=p, level=2, row=1, role=TableRole.FIRST)
    last = blk(ctx, "l" * 20, parents=p, level=2, row=1, role=TableRole.LAST)
    plain = blk(ctx, "n" * 10, parents=p, level=2, row=0)
    after = blk(ctx, "a" * 20, parents=p, level=2, row=2)  # not under small_tail: no Phase C
    # A first slice is never absorbed by the block before it.
    assert merge([plain, first], ctx) == [plain, first]
    # A last slice absorbs nothing forward in Phase A, but may be absorbed.
    assert merge([last, after], ctx) == [last, after]
    [merged] = merge([plain, last], ctx)
    assert merged.role is TableRole.LAST
    # first + last of one small table join into a locked block: nothing joins it after.
    out = merge([first, last, after], ctx)
    assert [b.content for b in out] == ["f" * 10 + "\n\n" + "l" * 20, "a" * 20]
    assert out[0].role is TableRole.MIDDLE


def test_shallow_absorbs_its_deeper_descendants_and_never_the_reverse() -> None:
    ctx = char_context(100)
    a = blk(ctx, "# A\nintro.", heading="A", level=1, row=0)
    a1 = blk(ctx, "## A.1\ntext.", heading="A.1", parents=("A",), level=2, row=1)
    a11 = blk(ctx, "### A.1.1\nmore.", heading="A.1.1", parents=("A", "A.1"), level=3, row=2)
    [merged] = merge([a, a1, a11], ctx)
    assert (merged.heading, merged.level, merged.parent_headings) == ("A", 1, ())
    assert merged.block_ids == ("b0", "b1", "b2")
    # A deep block followed by a shallower one: the deep one never absorbs it.
    deep = blk(ctx, "### X.1.1\ntext.", heading="X.1.1", parents=("X", "X.1"), level=3, row=0)
    shallow = blk(ctx, "## X.2\ntext.", heading="X.2", parents=("X",), level=2, row=1)
    assert merge([deep, shallow], ctx) == [deep, shallow]


def test_is_descendant_ignores_part_suffixes_of_the_shallow_heading() -> None:
    ctx = char_context(100)
    shallow = blk(ctx, "x", heading="A [part 2]", parents=("Doc",), level=1)
    deep = blk(ctx, "y", heading="B", parents=("Doc", "A"), level=2)
    other = blk(ctx, "z", heading="C", parents=("Doc", "Ab"), level=2)
    assert is_descendant(shallow, deep)
    assert not is_descendant(shallow, other)


def test_the_preamble_hands_its_identity_to_the_section_it_merges_with() -> None:
    ctx = char_context(100)
    preamble = blk(ctx, "Title page text.", heading=PREFACE_HEADING, level=1, row=0)
    doc = blk(ctx, "# Doc\nintro.", heading="Doc", level=1, row=1)
    [merged] = merge([preamble, doc], ctx)
    assert merged.heading == "Doc"
    assert merged.content.startswith("Title page text.\n\n# Doc")
    assert merged.block_ids == ("b0", "b1")


def test_a_pinned_title_absorbs_level_one_descendants_but_nothing_absorbs_it() -> None:
    ctx = char_context(100)
    preface = blk(ctx, "preface", level=1, row=0)
    title = blk(ctx, "TITLE", heading="TITLE", level=0, row=1, title=True)
    child = blk(ctx, "# A\nbody", heading="A", parents=("TITLE",), level=1, row=2)
    out = merge([preface, title, child], ctx)
    assert [(b.heading, b.level, b.is_title, b.block_ids) for b in out] == [
        ("", 1, False, ("b0",)),
        ("TITLE", 0, True, ("b1", "b2")),
    ]
    assert out[1].content == "TITLE\n\n# A\nbody"


def test_blocks_at_or_above_ideal_do_not_peer_merge_with_each_other() -> None:
    ctx = char_context(100)
    a = blk(ctx, "a" * 76, parents=("P",), level=2, row=0)
    b = blk(ctx, "b" * 20, parents=("P",), level=2, row=1)
    c = blk(ctx, "c" * 76, parents=("P",), level=2, row=2)
    # b (20 >= small_tail 12) is not a tail; b + c = 98 fits, and b is small, so b absorbs c.
    out = merge([a, b, c], ctx)
    assert [b_.tokens for b_ in out] == [76, 98]


def test_merged_siblings_take_their_common_parent_as_heading() -> None:
    ctx = char_context(200)
    blocks = [
        blk(ctx, "## 2.1 A\n" + "a" * 30, heading="2.1 A", parents=("2 Ch",), level=2, row=0),
        blk(ctx, "## 2.2 B\n" + "b" * 30, heading="2.2 B", parents=("2 Ch",), level=2, row=1),
    ]
    [merged] = merge(blocks, ctx)
    assert (merged.heading, merged.parent_headings, merged.level) == ("2 Ch", (), 1)
    # Its chunk names the span of sections it holds.
    [chunk] = to_chunks([merged], ctx)
    assert (chunk.heading, chunk.parent_headings, chunk.level) == ("2 Ch (2.1–2.2)", (), 1)
    # The members' own headings stay as lines of the content.
    assert merged.content.split("\n\n") == [b.content for b in blocks]


def test_fragments_of_one_section_keep_its_heading() -> None:
    ctx = char_context(200)
    one = blk(ctx, "a" * 30, heading="S", parents=("D",), level=2, row=0)
    two = blk(ctx, "b" * 30, heading="S", parents=("D",), level=2, row=0)
    [merged] = merge([one, two], ctx)
    assert (merged.heading, merged.parent_headings) == ("S", ("D",))
    [chunk] = to_chunks([merged], ctx)
    assert (chunk.heading, chunk.parent_headings) == ("S", ("D",))


def test_small_blocks_join_cousins_in_phase_c_but_not_beyond_the_grandparent() -> None:
    # N=200: small_tail 25. Under grandparent "Doc": 1.1 (parent "1") and 2.1 (parent "2").
    ctx = char_context(200)
    a = blk(ctx, "a" * 10, heading="1.1", parents=("Doc", "1"), level=3, row=0)
    b = blk(ctx, "b" * 10, heading="2.1", parents=("Doc", "2"), level=3, row=1)
    [merged] = merge([a, b], ctx)
    assert merged.heading == "Doc" and merged.block_ids == ("b0", "b1")
    # Three levels below their common parent: not cousins, not merged.
    c = blk(ctx, "c" * 10, heading="1.1.1", parents=("Doc", "1", "1.1"), level=4, row=0)
    assert merge([c, b], ctx) == [c, b]
    # A small block joins a bigger cousin; two cousins at or over small_tail stay apart.
    big = blk(ctx, "b" * 25, heading="2.1", parents=("Doc", "2"), level=3, row=1)
    assert len(merge([a, big], ctx)) == 1
    other = blk(ctx, "a" * 25, heading="1.1", parents=("Doc", "1"), level=3, row=0)
    assert merge([other, big], ctx) == [other, big]


def test_a_small_table_joins_the_text_next_to_it() -> None:
    # N=300: target_ideal 225, table_min_last 0.32 * 187 = 59, small_tail 37.
    ctx = char_context(300)
    small = '<table id="t" format="json">[["a"]]</table>'  # 43 tokens
    wide = '<table id="t" format="json">[["a", "bbbbbbbbbbbbbbbbbbbb"]]</table>'  # 66
    text = blk(ctx, "x" * 60, heading="1", parents=("Doc",), level=2, row=0)
    tab = blk(ctx, small, heading="2", parents=("Doc",), level=2, row=1)
    [merged] = merge([text, tab], ctx)
    assert merged.block_ids == ("b0", "b1")
    # The table first: it takes the text after it.
    [merged] = merge([tab, replace(text, source_row=2)], ctx)
    assert merged.content.startswith("<table")
    # Beside text at the ideal size (Phase A is done with it), only a table under
    # table_min_last still joins; both pairs would fit the cap.
    full = blk(ctx, "x" * 225, heading="1", parents=("Doc",), level=2, row=0)
    big = blk(ctx, wide, heading="2", parents=("Doc",), level=2, row=1)
    assert merge([full, big], ctx) == [full, big]
    assert len(merge([full, tab], ctx)) == 1


def test_a_small_preface_joins_the_first_section_whatever_its_level() -> None:
    ctx = char_context(200)
    cover = blk(ctx, "Cover page: Safety Manual, rev. 3", heading=PREFACE_HEADING, row=0)
    first = blk(ctx, "### 1.1.1 Scope\n" + "s" * 80, heading="1.1.1 Scope",
                parents=("1", "1.1"), level=3, row=1)  # fmt: skip
    [merged] = merge([cover, first], ctx)
    assert merged.heading == "1.1.1 Scope" and merged.content.startswith("Cover page")


def test_chapter_fill_fills_inside_a_chapter_and_never_across_chapters() -> None:
    # N=200: small_tail 25, target_ideal 150. Cousins of 40 under "Doc" (1.1 under "1",
    # 2.1 under "2"): over small_tail, so the spec's fill keeps them apart.
    spec, chapter = char_context(200), char_context(200, fill="chapter")
    a = blk(spec, "a" * 40, heading="1.1", parents=("Doc", "1"), level=3, row=0)
    b = blk(spec, "b" * 40, heading="2.1", parents=("Doc", "2"), level=3, row=1)
    assert merge([a, b], spec) == [a, b]
    [merged] = merge([a, b], chapter)
    assert merged.block_ids == ("b0", "b1") and merged.tokens == 82
    # A shallower block after a deeper one of its chapter ("X.2" after "X.1.1") joins it.
    deep = blk(spec, "d" * 40, heading="X.1.1", parents=("X", "X.1"), level=3, row=0)
    shallow = blk(spec, "s" * 40, heading="X.2", parents=("X",), level=2, row=1)
    assert merge([deep, shallow], spec) == [deep, shallow]
    assert len(merge([deep, shallow], chapter)) == 1
    # A new chapter never ends the previous one's clause, whatever the fill.
    other = blk(spec, "o" * 40, heading="Y", level=1, row=1)
    assert merge([deep, other], chapter) == [deep, other]
    # Full blocks stay apart: the fill only tops up what is under target_ideal.
    big_a = blk(spec, "a" * 150, heading="1.1", parents=("Doc", "1"), level=3, row=0)
    big_b = blk(spec, "b" * 150, heading="2.1", parents=("Doc", "2"), level=3, row=1)
    assert merge([big_a, big_b], chapter) == [big_a, big_b]


def test_an_unknown_fill_is_refused() -> None:
    with pytest.raises(ValueError, match="fill must be one of sections, chapter, pack, got 'all'"):
        char_context(200, fill="all")


def test_a_few_lines_of_a_shallower_section_with_nothing_under_them_join_the_section_before() -> (
    None
):
    # N=200: small_tail 25. "6.4" (a leaf of 20 tokens) after "6.3.3", before chapter "7":
    # neither Phase A nor B can place it, and it would be an LLM call of its own.
    ctx = char_context(200)
    deep = blk(ctx, "d" * 60, heading="6.3.3", parents=("6", "6.3"), level=3, row=0)
    leaf = blk(ctx, "## 6.4\n" + "s" * 13, heading="6.4", parents=("6",), level=2, row=1)
    chapter = blk(ctx, "c" * 160, heading="7", level=1, row=2)
    joined, after = merge([deep, leaf, chapter], ctx)
    assert joined.block_ids == ("b0", "b1") and joined.heading == "6"
    assert joined.content.endswith("## 6.4\n" + "s" * 13) and after == chapter
    # With a subsection after it (too big to absorb), "6.4" starts its own topic: it stays.
    child = blk(ctx, "c" * 190, heading="6.4.1", parents=("6", "6.4"), level=3, row=2)
    assert merge([deep, leaf, child], ctx) == [deep, leaf, child]
    # At small_tail or more it is a section, not a few lines: it stays.
    section = blk(ctx, "## 6.4\n" + "s" * 18, heading="6.4", parents=("6",), level=2, row=1)
    assert merge([deep, section, chapter], ctx) == [deep, section, chapter]
