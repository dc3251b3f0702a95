"""Stage D with ``CHUNK_P_FILL=pack`` (chunk/merge_pack.py): the fewest chunks the structure
allows, sections cut between paragraphs only where that saves a chunk. Hand-computed with
1 char = 1 token: N=200 gives target_max 200 and small_tail_threshold 25; a line break
costs 1 token, the "\\n\\n" between joined blocks 2.
"""

from __future__ import annotations

from dataclasses import replace

from lightrag_pchunk.chunk.merge import merge
from lightrag_pchunk.chunk.pipeline import to_chunks
from lightrag_pchunk.model import TableRole
from lightrag_pchunk.tokens import TokenCounter

from helpers import CharTokenizer, char_context, make_block


def blk(ctx, text, *, heading="", parents=(), level=1, row=0, role=TableRole.NONE, title=False):
    block = make_block(text, ctx.counter, heading=heading, parents=parents, level=level,
                       source_row=row)  # fmt: skip
    return replace(block, role=role, is_title=title)


def lines(*sizes: int, start: str = "a") -> list[str]:
    """Sentence-like lines of the given lengths (no line is a heading candidate)."""
    return [f"{chr(ord(start) + i) * (size - 1)}." for i, size in enumerate(sizes)]


def section(ctx, name: str, body: list[str], *, row: int, parents=("Doc",), level=2):
    return blk(ctx, "\n".join([f"## {name}", *body]), heading=name, parents=parents,
               level=level, row=row)  # fmt: skip


def _pack(size: int):
    return char_context(size), char_context(size, fill="pack")


def test_pack_fill_finds_fewer_chunks_where_the_phases_strand_an_introduction() -> None:
    # N=200 (ideal 150, small_tail 25). "A" has 40 tokens of introduction and three
    # children of 80: the phases join A.1 + A.2 (162), which A cannot absorb (204 > 200),
    # leaving three chunks; packing makes two, cut before a child.
    spec, pack = _pack(200)
    a = blk(spec, "a" * 40, heading="A", level=1, row=0)
    kids = [
        blk(spec, c * 80, heading=f"A.{i}", parents=("A",), level=2, row=i)
        for i, c in enumerate("xyz", start=1)
    ]
    assert [b.tokens for b in merge([a, *kids], spec)] == [40, 162, 80]
    first, second = merge([a, *kids], pack)
    assert (first.heading, first.block_ids) == ("A", ("b0", "b1"))
    assert (second.heading, second.parent_headings, second.block_ids) == ("A", (), ("b2", "b3"))
    assert first.content + "\n\n" + second.content == "\n\n".join(b.content for b in [a, *kids])


def test_pack_fill_cuts_before_the_shallowest_heading_among_equally_few_chunks() -> None:
    # Four blocks of 60 (N=200): any three fit, so two chunks; of the three ways to cut,
    # the one before chapter "Y" (level 1) wins over cuts before "X.2" or "Y.1" (level 2).
    _, pack = _pack(200)
    x1 = blk(pack, "a" * 60, heading="X.1", parents=("X",), level=2, row=0)
    x2 = blk(pack, "b" * 60, heading="X.2", parents=("X",), level=2, row=1)
    y = blk(pack, "c" * 60, heading="Y", level=1, row=2)
    y1 = blk(pack, "d" * 60, heading="Y.1", parents=("Y",), level=2, row=3)
    left, right = merge([x1, x2, y, y1], pack)
    assert (left.block_ids, left.heading) == (("b0", "b1"), "X")
    assert (right.block_ids, right.heading) == (("b2", "b3"), "Y")


def test_pack_fill_keeps_the_structure_rules() -> None:
    _, pack = _pack(200)  # small_tail 25
    # Three levels below the common parent: not in one chunk.
    deep = blk(pack, "d" * 30, heading="1.1.1", parents=("Doc", "1", "1.1"), level=4, row=0)
    cousin = blk(pack, "c" * 30, heading="2.1", parents=("Doc", "2"), level=3, row=1)
    assert merge([deep, cousin], pack) == [deep, cousin]
    # A leaf of a few lines is held to no distance; one with a subsection after it is.
    leaf = blk(pack, "d" * 10, heading="1.1.1", parents=("Doc", "1", "1.1"), level=4, row=0)
    assert len(merge([leaf, cousin], pack)) == 1
    refs = blk(pack, "r" * 10, heading="References", level=1, row=1)  # ... inside a chapter
    assert merge([deep, refs], pack) == [deep, refs]
    head = blk(pack, "h" * 10, heading="1.1", parents=("Doc", "1"), level=3, row=0)
    under = blk(pack, "u" * 30, heading="1.1.1", parents=("Doc", "1", "1.1"), level=4, row=1)
    other = blk(pack, "o" * 30, heading="Annex", level=1, row=2)
    assert [b.block_ids for b in merge([head, under, other], pack)] == [("b0", "b1"), ("b2",)]
    # ... but the whole subtree of the first section is one topic (Phase B).
    top = blk(pack, "t" * 10, heading="1", parents=("Doc",), level=2, row=0)
    [whole] = merge([top, replace(deep, source_row=1)], pack)
    assert whole.heading == "1"
    # So are sibling sections from the start of the first, each with its subtree.
    three = blk(pack, "3" * 30, heading="3", level=1, row=0)
    four = blk(pack, "4" * 30, heading="4", level=1, row=1)
    five = blk(pack, "5" * 30, heading="5.2.2", parents=("5", "5.2"), level=3, row=2)
    assert len(merge([three, four, five], pack)) == 1
    tail = blk(pack, "t" * 30, heading="2.9", parents=("2",), level=2, row=0)
    assert len(merge([tail, four, five], pack)) == 2  # starts inside chapter 2
    # A run that starts inside chapter 5 never takes chapter 6, however well it would fit:
    # a new chapter does not end the previous one's clause.
    clause = blk(pack, "c" * 30, heading="5.1", parents=("5",), level=2, row=0)
    six = blk(pack, "6" * 30, heading="6", level=1, row=1)
    assert merge([clause, six], pack) == [clause, six]
    # Table roles: a middle slice stands alone, a first slice starts its chunk.
    text = blk(pack, "x" * 10, heading="1", level=1, row=0)
    middle = blk(pack, "m" * 10, heading="1", level=1, row=1, role=TableRole.MIDDLE)
    first = blk(pack, "f" * 10, heading="1", level=1, row=2, role=TableRole.FIRST)
    last = blk(pack, "l" * 10, heading="1", level=1, row=3, role=TableRole.LAST)
    out = merge([text, middle, first, last], pack)
    assert [b.block_ids for b in out] == [("b0",), ("b1",), ("b2", "b3")]
    # A long table of contents never shares its chunk with the section after it, but
    # the cover page before it does.
    toc = replace(blk(pack, "c" * 60, heading="Contents", level=1, row=1), is_toc=True)
    section = blk(pack, "s" * 60, heading="1 Scope", level=1, row=2)
    assert merge([toc, section], pack) == [toc, section]
    cover = blk(pack, "Safety Manual " * 4, heading="Notice", level=1, row=0)
    assert [b.block_ids for b in merge([cover, toc, section], pack)] == [("b0", "b1"), ("b2",)]
    # A pinned title takes its descendants only.
    title = blk(pack, "T" * 10, heading="Doc", level=1, row=0, title=True)
    child = blk(pack, "k" * 10, heading="1", parents=("Doc",), level=2, row=1)
    stranger = blk(pack, "s" * 10, heading="Annex", level=1, row=2)
    out = merge([title, child, stranger], pack)
    assert [b.block_ids for b in out] == [("b0", "b1"), ("b2",)]


def test_pack_fill_never_exceeds_the_cap_and_keeps_every_block_in_order() -> None:
    _, pack = _pack(100)
    sizes = [30, 70, 10, 95, 5, 5, 40, 60, 99, 1, 48, 49]
    blocks = [
        blk(pack, chr(97 + i) * n, heading=f"S{i % 3}", parents=("Doc",), level=2, row=i)
        for i, n in enumerate(sizes)
    ]
    out = merge(blocks, pack)
    assert all(b.tokens <= 100 for b in out)
    assert "\n\n".join(b.content for b in out) == "\n\n".join(b.content for b in blocks)
    # As few as sequential packing allows (joints of 2): 30 | 70+10 | 95 | 5+5+40 | 60 | 99 |
    # 1+48 | 49.
    assert len(out) == 8


def test_pack_fill_fills_chunks_with_hundreds_of_one_line_sections() -> None:
    # A glossary of 600 one-line sections of 8 tokens (N=200): runs of 20 (20 * 8 + 19 * 2 =
    # 198 tokens), more than any fixed number of blocks per run would allow.
    spec, pack = _pack(200)
    terms = [
        blk(spec, f"{i:08d}", heading=f"T{i}", parents=("Glossary",), level=2, row=i)
        for i in range(600)
    ]
    out = merge(terms, pack)
    assert [b.tokens for b in out] == [198] * 30
    assert len(out) <= len(merge(terms, spec))


def test_a_section_is_cut_between_paragraphs_when_that_saves_a_chunk() -> None:
    # Three sibling sections of 129 tokens: no two fit N=200 whole (260), so three chunks;
    # cutting S2 after its first two lines gives two (198 and 192 tokens).
    ctx = char_context(200, fill="pack")
    s1 = section(ctx, "S1", lines(30, 30, 30, 30), row=0)
    s2 = section(ctx, "S2", lines(30, 30, 30, 30, start="k"), row=1)
    s3 = section(ctx, "S3", lines(30, 30, 30, 30, start="u"), row=2)
    assert [b.tokens for b in (s1, s2, s3)] == [129, 129, 129]
    first, second = merge([s1, s2, s3], ctx)
    head, tail = "\n".join(s2.content.split("\n")[:3]), "\n".join(s2.content.split("\n")[3:])
    assert first.content == s1.content + "\n\n" + head
    assert second.content == tail + "\n\n" + s3.content
    assert (first.tokens, second.tokens) == (198, 192)
    # Both chunks span two sections: headed by their common parent, as any merge.
    assert (first.heading, second.heading) == ("Doc", "Doc")
    assert (first.block_ids, second.block_ids) == (("b0", "b1"), ("b1", "b2"))
    # Where keeping sections whole costs nothing, nothing is cut.
    assert merge([s1, s2], ctx) == [s1, s2]


def test_the_piece_after_a_cut_keeps_its_heading() -> None:
    # S2's second half joins its own subsection S2.1: that chunk declares S2; the chunk
    # before holds S1 and the head of S2 under the span naming S2, its part 1.
    ctx = char_context(200, fill="pack")
    s1 = section(ctx, "S1", lines(30, 30, 30, 30), row=0)
    s2 = section(ctx, "S2", lines(30, 30, 30, 30, start="k"), row=1)
    child = section(ctx, "S2.1", lines(30, 30, 30, 30, start="u"), row=2,
                    parents=("Doc", "S2"), level=3)  # fmt: skip
    merged = merge([s1, s2, child], ctx)
    first, second = to_chunks(merged, ctx)
    assert (second.heading, second.parent_headings, second.level) == ("S2 [part 2]", ("Doc",), 2)
    assert (first.heading, first.parent_headings, first.level) == ("Doc (S1 – S2 [part 1])", (), 1)
    assert merged[0].heading == "Doc"  # what later merges see: the common parent


def test_among_equal_cuts_the_one_before_a_heading_like_line_wins() -> None:
    # S1 and S3 of 110 tokens leave 88 beside S2 (121): cutting before "Notification
    # deadlines" (head 36, tail 84) or before the next line (59 / 61) both give two chunks;
    # the cut goes before the line that reads like a title.
    ctx = char_context(200, fill="pack")
    s1 = section(ctx, "S1", lines(34, 34, 34), row=0)
    s2 = section(ctx, "S2", [lines(30)[0], "Notification deadlines", *lines(30, 30, start="m")],
                 row=1)  # fmt: skip
    s3 = section(ctx, "S3", lines(34, 34, 34, start="u"), row=2)
    assert [b.tokens for b in (s1, s2, s3)] == [110, 121, 110]
    first, second = merge([s1, s2, s3], ctx)
    assert second.content.startswith("Notification deadlines\n")
    assert first.content.endswith("## S2\n" + lines(30)[0])


def test_no_cut_leaves_a_few_lines_parts_a_table_from_its_lead_in_or_a_heading_alone() -> None:
    ctx = char_context(200, fill="pack")
    s1 = section(ctx, "S1", lines(30, 30, 30, 30), row=0)
    s3 = section(ctx, "S3", lines(30, 30, 30, 30, start="u"), row=2)
    # The only cut that would save a chunk leaves 20 tokens (< small_tail_threshold 25).
    short = section(ctx, "S2", [*lines(60, 20, start="k")], row=1)
    # ... or falls right before a table (its lead-in stays with it).
    table = '<table id="t1" format="json">[["h1", "h2"], ["a", "b"]]</table>'
    lead_in = section(ctx, "S2", [*lines(30, 30, start="k"), table, *lines(30, start="p")],
                      row=1)  # fmt: skip
    for s2 in (short, lead_in):
        out = merge([s1, s2, s3], ctx)
        assert out == [s1, s2, s3], [b.content for b in out]


def test_a_cut_never_lets_a_run_leave_its_chapter() -> None:
    # 5.1 and 5.2 under chapter 5, then chapter 6: the tail of 5.2 may not start a run
    # that takes chapter 6, so the cut would not save a chunk and is not made.
    ctx = char_context(200, fill="pack")
    a = section(ctx, "5.1", lines(30, 30, 30, 30), row=0, parents=("5",))
    b = section(ctx, "5.2", lines(30, 30, 30, 30, start="k"), row=1, parents=("5",))
    six = section(ctx, "6", lines(30, 30, 30, 30, start="u"), row=2, parents=(), level=1)
    assert merge([a, b, six], ctx) == [a, b, six]


def test_table_slices_are_never_cut() -> None:
    ctx = char_context(200, fill="pack")
    s1 = section(ctx, "S1", lines(30, 30, 30, 30), row=0)
    s2 = replace(section(ctx, "S2", lines(30, 30, 30, 30, start="k"), row=1),
                 role=TableRole.FIRST)  # fmt: skip
    s3 = section(ctx, "S3", lines(30, 30, 30, 30, start="u"), row=2)
    assert len(merge([s1, s2, s3], ctx)) == 3


def test_the_parts_of_a_cut_row_are_counted_on_the_chunks() -> None:
    # Stage C had cut row 1 into two fragments; pack cuts the second once more, so its
    # second half opens the chunk of subsection S2.1, which lies in S2: the chunks are
    # S2's parts 1 and 2, with no gap where a fragment joined the first chunk.
    ctx = char_context(200, fill="pack")
    s1 = section(ctx, "S2", lines(60, 60, start="f"), row=1)
    s2 = section(ctx, "S2", lines(30, 30, 30, 30, start="k"), row=1)
    child = section(ctx, "S2.1", lines(30, 30, 30, 30, start="u"), row=2,
                    parents=("Doc", "S2"), level=3)  # fmt: skip
    first, second = to_chunks(merge([s1, s2, child], ctx), ctx)
    assert [first.heading, second.heading] == ["S2 [part 1]", "S2 [part 2]"]
    assert second.content.startswith(lines(30, 30, 30, 30, start="k")[2])


def test_a_cut_never_falls_after_a_label_in_strong_emphasis() -> None:
    # As above, but S2's best cut would fall right after its label "**Fixes**": it goes
    # before the label, with the same number of chunks.
    ctx = char_context(200, fill="pack")
    s1 = section(ctx, "S1", lines(30, 30, 30, 30), row=0)
    s2 = section(ctx, "S2", [*lines(30, 20, start="k"), "**Fixes**", *lines(30, 30, start="m")],
                 row=1)  # fmt: skip
    s3 = section(ctx, "S3", lines(30, 30, 30, start="u"), row=2)
    assert [b.tokens for b in (s1, s2, s3)] == [129, 129, 98]
    first, second = merge([s1, s2, s3], ctx)
    assert not first.content.endswith("**Fixes**")
    assert second.content.startswith("**Fixes**\n")


def test_a_cut_never_parts_a_line_ending_with_a_colon_from_the_list_it_opens() -> None:
    # S2's only cut that saves a chunk would fall after its long lead-in "… Board:"
    # (82 characters, over the short lead-ins' 80), before the items it introduces: no cut
    # is made, and the lead-in stays with its list.
    ctx = char_context(300, fill="pack")
    s1 = section(ctx, "S1", lines(30, 30, 30, 30), row=0)
    lead = "Patients that may need to be temporarily detained by the Community Services " + "Board:"
    items = ["1. " + "f" * 56 + ".", "2. " + "g" * 56 + "."]
    s2 = section(ctx, "S2", [*lines(30, start="k"), lead, *items], row=1)
    s3 = section(ctx, "S3", lines(30, 30, 30, 30, start="u"), row=2)
    assert (len(lead), [b.tokens for b in (s1, s2, s3)]) == (82, [129, 241, 129])
    merged = merge([s1, s2, s3], ctx)
    assert not any(block.content.endswith(lead) for block in merged)
    assert any(lead + "\n" + items[0] in block.content for block in merged)


def test_a_cut_may_leave_a_few_lines_of_a_piece_that_the_next_piece_goes_on_with() -> None:
    # Stage C cut row 1 ("3.1", 249 tokens) into two pieces of 188 and 60. Its last line
    # (20 tokens, under small_tail_threshold 25) fits beside the second piece and "3.2";
    # the rest of the first piece fits beside "3": two chunks, not three. The line is no
    # tail of the section (its second piece follows it in the same chunk).
    ctx = char_context(200, fill="pack")
    three = blk(ctx, "t" * 20, heading="3", level=1, row=0)
    first = blk(ctx, "\n".join(lines(*[20] * 9)), heading="3.1", parents=("3",), level=2, row=1)
    second = blk(ctx, "\n".join(lines(30, 29, start="k")), heading="3.1", parents=("3",),
                 level=2, row=1)  # fmt: skip
    two = blk(ctx, "\n".join(lines(36, 36, 36, start="p")), heading="3.2", parents=("3",),
              level=2, row=2)  # fmt: skip
    assert [b.tokens for b in (three, first, second, two)] == [20, 188, 60, 110]
    head, tail = merge([three, first, second, two], ctx)
    last_line = lines(*[20] * 9)[-1]
    assert head.content == three.content + "\n\n" + first.content.removesuffix("\n" + last_line)
    assert tail.content == "\n\n".join([last_line, second.content, two.content])
    assert (head.tokens, tail.tokens) == (189, 194)
    # Pieces of different rows are sections of their own: their few lines stay whole.
    other = replace(second, source_row=3)
    assert len(merge([three, first, other, two], ctx)) == 3
    # Nor where R parted one paragraph between the pieces: the second opens with the last
    # words of the first (the overlap), which one chunk would hold twice.
    overlap = blk(ctx, "\n".join([last_line + "k" * 8, *lines(29, start="m")]),
                  heading="3.1", parents=("3",), level=2, row=1)  # fmt: skip
    assert overlap.tokens <= second.tokens
    assert len(merge([three, first, overlap, two], ctx)) == 3


class _BreakBeforeZTokenizer(CharTokenizer):
    """One token per character, but a line break and the "z" after it are one: a piece's
    lines, each counted alone, count more than their joined text."""

    def encode(self, content: str) -> list[int]:
        tokens = super().encode(content)
        return tokens[: len(tokens) - content.count("\nz")]


def test_a_plan_whose_run_proves_over_the_cap_is_made_again_by_the_pieces_own_lines() -> None:
    # The plan counts the piece after a cut as the block's count less the lines before it,
    # which count more than they join to: the piece is counted short, a planned run goes
    # over N=200 when joined and is cut in two (four chunks). Planned again with every
    # piece counted by its own lines, the cuts fall where the runs fit: three chunks.
    ctx = replace(char_context(200, fill="pack"), counter=TokenCounter(_BreakBeforeZTokenizer()))

    def text(*lines: str) -> str:  # "z30": 29 "z" and a full stop
        return "\n".join(line[0] * (int(line[1:]) - 1) + "." for line in lines)

    rows = [
        text("a20", "a40", "z30"),
        text("b40", "z10", "z40", "z20", "z10"),
        text("c30", "z30", "z40", "z10", "z20", "c40"),
        text("d10", "z10", "z20", "z20"),
    ]
    blocks = [make_block(row, ctx.counter, heading=f"S{i}", parents=("Doc",), level=2,
                         source_row=i) for i, row in enumerate(rows)]  # fmt: skip
    assert [b.tokens for b in blocks] == [91, 120, 171, 60]
    packed = merge(blocks, ctx)
    assert len(packed) == 3
    assert all(ctx.counter.count(block.content) <= 200 for block in packed)
    assert "\n\n".join(b.content for b in packed).replace("\n\n", "\n") == "\n".join(rows)
