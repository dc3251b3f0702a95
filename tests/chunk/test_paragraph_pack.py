"""Stage C's packing (chunk/paragraph_pack.py): as few pieces as greedy packing by
paragraph, the first R piece of an over-long paragraph in the room left after the text
before it, and no piece without text where the piece before it can lend some.

With the 1-char tokenizer a paragraph's count is its length and a ``"\\n"`` joiner costs 1,
so every boundary below is computed by hand.
"""

from __future__ import annotations

import re

from lightrag_pchunk.chunk.anchor_split import split_without_anchors
from lightrag_pchunk.chunk.paragraph_pack import MIN_LETTERS, PackPiece, lend_text, letters
from lightrag_pchunk.model import Paragraph

from helpers import char_context, make_block

TITLE = "## Project background"  # 21 characters, 17 letters
PICTURE = '<drawing id="im-0001"/>'  # 23 characters, no letter outside the tag


def words(texts) -> list[str]:
    return [w for text in texts for w in re.findall(r"\w+", text)]


def test_letters_are_counted_outside_tags_up_to_what_is_asked() -> None:
    assert letters(PICTURE) == 0
    assert letters('<a href="x">Link text</a> 3.5 -> 3.1') == 8
    assert letters("a" * 100) == MIN_LETTERS
    assert letters("a" * 100, 50) == 50


def test_a_tail_of_pictures_takes_the_paragraph_before_it() -> None:
    ctx = char_context(120)
    first, second = "a" * 29 + ".", "b" * 29 + "."
    lines = [TITLE, first, second, PICTURE, PICTURE, PICTURE]
    block = make_block("\n".join(lines), ctx.counter, heading="H")
    # Greedy: 21+1+30+1+30+1+23 = 107, a second picture would make 131 > 120, so the last
    # two pictures (47 tokens) end the section without a letter. Taking the pictures before
    # them and the paragraph "b…" (30+1+23+1+47 = 102) gives that piece text, and the title
    # and "a…" keep theirs.
    out = split_without_anchors(block, ctx)
    assert [b.content for b in out] == [
        "\n".join([TITLE, first]),
        "\n".join([second, PICTURE, PICTURE, PICTURE]),
    ]
    assert [b.tokens for b in out] == [52, 102]
    assert all(b.heading == "H" for b in out)


def test_a_tail_of_pictures_stays_when_text_and_pictures_pass_the_cap() -> None:
    ctx = char_context(100)
    prose = "a" * 39 + "."
    block = make_block("\n".join([TITLE, prose, PICTURE, PICTURE, PICTURE]), ctx.counter)
    # Greedy: 21+1+40+1+23 = 86, then the last two pictures (47). With the prose they would
    # make 40+1+23+1+47 = 112 > 100: no chunker keeping the paragraph whole can do better.
    out = split_without_anchors(block, ctx)
    assert [b.content for b in out] == [
        "\n".join([TITLE, prose, PICTURE]),
        "\n".join([PICTURE, PICTURE]),
    ]


def test_a_tail_of_pictures_takes_the_last_sentence_of_a_paragraph_too_long_to_move() -> None:
    ctx = char_context(100)
    prose = "Cables run in trays. Each tray is earthed."  # 42 characters, two sentences
    block = make_block("\n".join([TITLE, prose, PICTURE, PICTURE, PICTURE]), ctx.counter)
    # Greedy: 21+1+42+1+23 = 88, then two pictures (47) without a letter. The paragraph
    # whole would make 42+1+23+1+47 = 114 > 100; its last sentence fits (21+1+71 = 93).
    out = split_without_anchors(block, ctx)
    assert [b.content for b in out] == [
        "\n".join([TITLE, "Cables run in trays."]),
        "\n".join(["Each tray is earthed.", PICTURE, PICTURE, PICTURE]),
    ]
    assert [b.tokens for b in out] == [42, 93]
    assert words(b.content for b in out) == words([block.content])


def test_a_sentence_is_lent_only_if_the_paragraph_keeps_text() -> None:
    ctx = char_context(100)
    prose = "Ok. Each tray is earthed, bonded and tested."  # 44: its head "Ok." has 2 letters
    block = make_block("\n".join([PICTURE, prose, PICTURE, PICTURE, PICTURE]), ctx.counter)
    out = split_without_anchors(block, ctx)
    # Greedy: 23+1+44+1+23 = 92, then two pictures. Lending "Each tray…" would leave the
    # first piece a picture and "Ok.": greedy boundaries stay.
    assert [b.content for b in out] == [
        "\n".join([PICTURE, prose, PICTURE]),
        "\n".join([PICTURE, PICTURE]),
    ]


def test_the_piece_before_lends_only_if_it_keeps_text_of_its_own() -> None:
    ctx = char_context(80)
    prose = "a" * 14 + "."  # the only text of its piece
    block = make_block("\n".join([PICTURE, prose, PICTURE, PICTURE]), ctx.counter)
    out = split_without_anchors(block, ctx)
    # Greedy: 23+1+15+1+23 = 63, the last picture alone. Lending "a…" and the picture after
    # it (15+1+23+1+23 = 63, within the cap) would leave the first piece a picture alone:
    # greedy boundaries stay.
    assert [b.content for b in out] == [
        "\n".join([PICTURE, prose, PICTURE]),
        PICTURE,
    ]


def test_lend_text_keeps_the_number_of_groups_and_the_cut_inside_an_r_split() -> None:
    def piece(text: str, r_group: int = -1) -> PackPiece:
        return PackPiece(Paragraph(text, len(text)), r_group=r_group)

    # Two pieces of one R split: the second has no letter but cannot take the first's end.
    split = [piece("Words and words " + "1.2 " * 10, 0), piece("3.4 " * 20, 0)]
    assert lend_text(split, [0, 1], 1, 100) == [0, 1]
    # Paragraphs: the numbers take "Text…" from the group before, the title keeps its own.
    loose = [piece(TITLE), piece("Text of a clause."), piece("3.4 " * 10), piece("5.6 " * 10)]
    assert lend_text(loose, [0, 2], 1, 100) == [0, 1]
    assert lend_text(loose, [0, 3], 1, 100) == [0, 1]
    # Within the cap only: the clause and both runs of numbers make 17+1+40+1+40 = 99.
    assert lend_text(loose, [0, 3], 1, 98) == [0, 3]


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


def test_a_label_in_strong_emphasis_goes_with_the_text_it_introduces() -> None:
    ctx = char_context(100)
    prose, fixes = "a" * 49 + ".", "b" * 59 + "."
    block = make_block("\n".join(["## Notes", prose, "**Fixes**", fixes]), ctx.counter)
    # Greedy: 8+1+50+1+9 = 69, the fixes (60) would make 130 > 100: the label would end the
    # first piece. With the text it heads it makes 9+1+60 = 70.
    out = split_without_anchors(block, ctx)
    assert [b.content for b in out] == ["## Notes\n" + prose, "**Fixes**\n" + fixes]


def test_a_short_line_ending_with_a_colon_goes_with_what_it_introduces() -> None:
    ctx = char_context(100)
    prose, items = "a" * 49 + ".", "b" * 54 + "."
    block = make_block("\n".join(["## Notes", prose, "The options are:", items]), ctx.counter)
    out = split_without_anchors(block, ctx)
    assert [b.content for b in out] == ["## Notes\n" + prose, "The options are:\n" + items]
    # A sentence of a paragraph's length ending with a colon stays where it is.
    long_lead = "c" * 80 + " are:"
    block = make_block("\n".join(["## Notes", long_lead, "d" * 9 + "."]), ctx.counter)
    assert split_without_anchors(block, ctx)[0].content == "## Notes\n" + long_lead
    # Nor does a definition's text, which belongs to the term above it.
    term, definition = "`-t` " + "e" * 39, ":   Specify the format. It can be:"
    block = make_block("\n".join(["## Notes", term, definition, items]), ctx.counter)
    assert split_without_anchors(block, ctx)[0].content.endswith(definition)


def test_a_long_line_ending_with_a_colon_goes_with_the_list_it_opens() -> None:
    ctx = char_context(160)
    prose, lead, item = "a" * 49 + ".", "c" * 80 + " are:", "1. " + "d" * 56 + "."
    block = make_block("\n".join(["## Notes", prose, lead, item]), ctx.counter)
    # Greedy: 8+1+50+1+85 = 145, the item (60) would make 206 > 160: the lead-in, over the
    # short lead-ins' length, would end the first piece; a list's first item follows it.
    out = split_without_anchors(block, ctx)
    assert [b.content for b in out] == ["## Notes\n" + prose, lead + "\n" + item]
