"""Stage C's packing (chunk/packing.py): as few pieces as greedy packing by paragraph, the first
R piece of an over-long paragraph in the room left after the text before it.

With the 1-char tokenizer a paragraph's count is its length and a ``"\\n"`` joiner costs 1,
so every boundary below is computed by hand.
"""

from __future__ import annotations

import re

from lightrag_pchunk.chunk.anchor_split import split_without_anchors

from helpers import char_context, make_block


def words(texts) -> list[str]:
    return [w for text in texts for w in re.findall(r"\w+", text)]


# --- The first piece of an R split -------------------------------------------------------

NUMBERS = " ".join(f"w{i:03d}" for i in range(50))  # 249 characters, spaces to cut at


def test_the_first_r_piece_fills_the_room_left_after_the_text_before_it() -> None:
    ctx = char_context(100, overlap=10)
    lead = "Lead-in of the mappings."  # 24 characters
    block = make_block("\n".join(["## H", lead, NUMBERS[:150]]), ctx.counter, heading="H")
    out = split_without_anchors(block, ctx)
    # Room after "## H" and the lead-in: 100 - (4+1+24) - 1 = 70 tokens for the paragraph's
    # start, the rest (with up to 10 tokens of overlap) in one more piece. Without the room
    # filled: the lead-in, then two R pieces (three chunks, the first of 29 tokens).
    assert len(out) == 2
    assert out[0].content.startswith(f"## H\n{lead}\nw000 ")
    assert all(b.tokens <= 100 for b in out)
    first, second = words([out[0].content]), words([out[1].content])
    assert second[0] in first and second[0] != first[3]  # an overlap, not the whole piece
    assert list(dict.fromkeys(first + second)) == words(["## H", lead, NUMBERS[:150]])


def test_the_text_before_keeps_its_own_piece_when_filling_the_room_saves_none() -> None:
    ctx = char_context(100, overlap=10)
    lead = "L" * 60 + "."
    block = make_block("\n".join(["## H", lead, NUMBERS]), ctx.counter, heading="H")
    out = split_without_anchors(block, ctx)
    # Room 100 - 67 - 1 = 32: filled, the 249-character paragraph would still need three
    # more pieces (32, then 90 new tokens a piece): four either way, so the lead-in keeps
    # its chunk (stage D may still join it to what precedes) and R pieces stay full.
    assert out[0].content == f"## H\n{lead}"
    assert len(out) == 4
    assert out[1].content.startswith("w000 ") and out[1].tokens > 90


def test_a_room_within_the_overlap_is_not_filled() -> None:
    ctx = char_context(100, overlap=30)
    lead = "L" * 68 + "."  # room 100 - (4+1+69) - 1 = 25, within the overlap
    paragraph = " ".join(f"w{i:03d}" for i in range(35))
    block = make_block("\n".join(["## H", lead, paragraph]), ctx.counter, heading="H")
    out = split_without_anchors(block, ctx)
    # Filled, "w000 … w004" would join the lead-in and the next piece repeat four of its
    # five words (three pieces in all); the lead-in keeps its piece and R its full pieces.
    assert out[0].content == f"## H\n{lead}"
    assert [b.content.split()[0] for b in out[1:]] == ["w000", "w014", "w028"]
