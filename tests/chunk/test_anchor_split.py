"""Stage C: anchor-driven re-splitting of blocks over target_max (spec §8).

With the 1-char tokenizer a block's count is its length, a ``"\\n"`` joiner costs 1, so
every boundary below is computed by hand.
"""

from __future__ import annotations

import itertools

import pytest

from lightrag_pchunk.chunk import anchor_split as anchor_split_module
from lightrag_pchunk.chunk.anchor_split import (
    anchor_heading,
    anchor_split,
    choose_anchors,
    is_anchor_candidate,
    split_without_anchors,
)
from lightrag_pchunk.chunk.blocks import build_block, make_paragraph
from lightrag_pchunk.model import TableRole

from helpers import anchor_texts, char_context, make_block


@pytest.mark.parametrize(
    "text",
    [
        "Background",
        "2.1 Scope",
        "2.1.3 Test procedure",
        "一、总体要求",
        "第三章 安全要求",
        "## Mid section",
        "Annex A (informative) Examples",
        "第一条 本规定适用于核电厂。",
        "1. Scope",
    ],
)
def test_heading_like_short_lines_are_anchors(text: str) -> None:
    assert is_anchor_candidate(text, 100)


@pytest.mark.parametrize(
    "text",
    [
        "• Keep the valve closed",
        "\uf0b7 A bullet item from the Symbol font",
        "- dash item",
        "* star item",
        "o Courier New bullet item",
        "1. Apply the patch.",
        "(a) the operator shall keep records;",
        "a) the operator",
        "Figure 3: Architecture overview",
        "Fig. 2 Layout",
        "Table 2 – Values per class",
        "图1 系统结构",
        "表 2 参数",
        "12",
        "- 4 -",
        "(3)",
        "3.5 %",
        "This sentence ends like prose.",
        "a clause that continues,",
        "Notes:",
        "The secondary aims are:",
        "AC-11 Device Lock (M)(H)\t52",
        "1.2 Scope ........ 4",
        '<table id="t" format="json">[["a"]]</table>',
        '<equation format="latex">x</equation>',
        '<drawing id="im-1" format="png" path="a.png" src="" />',
        "x" * 101,
        "   ",
        # A note printed with a "#" sign is no Markdown heading: it still reads as text.
        "# 請參閱《香港特別行政區基本法附件一行政長官的產生辦法修正案》(2010年8月28日批准)",
        "# Note that the values below are in thousands.",
    ],
)
def test_list_items_captions_numbers_sentences_and_tags_are_not_anchors(text: str) -> None:
    assert not is_anchor_candidate(text, 100)


def test_the_length_limit_is_the_configured_one() -> None:
    assert is_anchor_candidate("A" * 100, 100)
    assert not is_anchor_candidate("A" * 101, 100)
    assert not is_anchor_candidate("A" * 11, 10)


def test_anchor_heading_drops_markdown_marks() -> None:
    assert anchor_heading("### 2.4 Scope ") == "2.4 Scope"
    assert anchor_heading("Scope") == "Scope"
    assert anchor_heading("第一条 本规定适用于核电厂。") == "第一条"
    assert anchor_heading("1.目的：规范外发加工程序。") == "1.目的"


def test_a_mid_anchor_starts_a_sub_block_with_the_heading_pushed_into_parents() -> None:
    ctx = char_context(1000)
    text = "## H\n" + "x" * 800 + "\nMid anchor\n" + "y" * 800
    block = make_block(text, ctx.counter, heading="H", parents=("Doc",), level=2)
    out = anchor_split([block], ctx)
    assert [b.content for b in out] == ["## H\n" + "x" * 800, "Mid anchor\n" + "y" * 800]
    assert [b.tokens for b in out] == [805, 811]
    assert [b.heading for b in out] == ["H", "Mid anchor"]
    assert [b.parent_headings for b in out] == [("Doc",), ("Doc", "H")]
    assert {b.level for b in out} == {2}
    assert all(b.block_ids == ("b0",) for b in out)


def test_a_block_within_target_max_is_returned_as_is() -> None:
    ctx = char_context(1000)
    block = make_block("## H\n" + "x" * 900, ctx.counter, heading="H")
    assert anchor_split([block], ctx) == [block]


def test_the_first_paragraph_is_never_an_anchor() -> None:
    ctx = char_context(100)
    block = make_block("Short title\n" + "x" * 150, ctx.counter, heading="H")
    assert choose_anchors(block, ctx) == []


def test_a_block_without_a_title_line_reads_no_label(monkeypatch: pytest.MonkeyPatch) -> None:
    # Most blocks over the cap hold only prose: whether a line sits in a law's unit, or is
    # numbered beside a heading of the path, matters only for a line that reads as a title.
    ctx = char_context(100)
    read: list[str] = []
    monkeypatch.setattr(anchor_split_module, "series_number", lambda text: read.append(text))
    monkeypatch.setattr(anchor_split_module, "_inside_units_of_law", lambda block: read.append(""))
    prose = make_block("Article 5\n" + "Some prose. " * 20, ctx.counter, heading="Article 5")
    assert choose_anchors(prose, ctx) == []
    assert read == []


def test_anchors_are_chosen_nearest_to_evenly_spaced_ideal_positions() -> None:
    # N=100: sub-blocks aim at 0.85 * 100. Paragraphs: "T" then 9 x (40 prose + a
    # two-letter anchor "Sa" … "Si"); total tokens = 1 + 9 * 42 = 379 -> k = ceil(379 / 85)
    # = 5, step 75.8.
    ctx = char_context(100)
    lines = ["T"]
    for i in range(9):
        lines += ["p" * 39 + ".", f"S{'abcdefghi'[i]}"]
    block = make_block("\n".join(lines), ctx.counter, heading="T")
    # The i-th anchor sits after 1 + 40 + 42 * i tokens: 41, 83, 125, 167, 209, 251, 293,
    # 335, 377. Targets 75.8, 151.6, 227.4, 303.2 -> nearest: 83 (Sb); 167 (15.4 from it,
    # Sd); 209 (18.4, Se); 293 (10.2, Sg).
    picks = choose_anchors(block, ctx)
    assert [block.paragraphs[i].text for i in picks] == ["Sb", "Sd", "Se", "Sg"]


def test_sub_blocks_still_too_big_are_split_again_with_nested_parents() -> None:
    ctx = char_context(100)
    text = "\n".join(["T", "a" * 60, "Alpha", "b" * 60, "Beta", "c" * 60])
    block = make_block(text, ctx.counter, heading="T", parents=("Doc",))
    out = anchor_split([block], ctx)
    assert all(b.tokens <= 100 for b in out)
    assert "\n".join(b.content for b in out) == text
    headings = [(b.heading, b.parent_headings) for b in out]
    assert headings[0] == ("T", ("Doc",))
    assert ("Alpha", ("Doc", "T")) in headings or ("Beta", ("Doc", "T")) in headings


def test_without_anchors_paragraphs_are_packed_greedily_counting_the_joiner() -> None:
    ctx = char_context(100)
    # Sentences, so none is an anchor. 49 + 1 + 50 = 100 fits exactly; the third starts anew.
    text = "\n".join(["a" * 48 + ".", "b" * 49 + ".", "c" * 29 + ".", "d" * 68 + ".", "e."])
    block = make_block(text, ctx.counter, heading="H", parents=("P",))
    out = anchor_split([block], ctx)
    # Greedy would end on "e." alone, a piece with one letter: it takes "d…" from the piece
    # before (69 + 1 + 2 = 72), as many pieces and none without text.
    assert [b.content for b in out] == [
        "a" * 48 + ".\n" + "b" * 49 + ".",
        "c" * 29 + ".",
        "d" * 68 + ".\ne.",
    ]
    assert all(b.heading == "H" and b.parent_headings == ("P",) for b in out)


def test_a_single_over_long_paragraph_falls_back_to_r_with_the_overlap() -> None:
    ctx = char_context(100, overlap=20)
    words = [f"w{i:03d}" for i in range(80)]  # 399 characters with spaces to cut at
    block = make_block("## H\n" + " ".join(words), ctx.counter, heading="H")
    out = anchor_split([block], ctx)
    assert all(b.tokens <= 100 for b in out)
    assert all(b.heading == "H" and b.parent_headings == () for b in out)
    assert out[0].paragraphs[0].text == "## H"
    pieces = [[w for w in b.content.split() if w.startswith("w")] for b in out]
    pieces = [p for p in pieces if p]
    assert len(pieces) >= 5
    # Consecutive R pieces share words (the overlap); without the copies, every word once in order.
    for left, right in itertools.pairwise(pieces):
        assert left[-1] in right
    seen: list[str] = []
    for piece in pieces:
        seen += [w for w in piece if not seen or w > seen[-1]]
    assert seen == words


def test_pieces_of_one_r_split_are_never_packed_together() -> None:
    ctx = char_context(100, overlap=30)
    words = " ".join(f"w{i:03d}" for i in range(30))  # 149 chars -> 2 overlapping pieces
    block = make_block("## H\n" + words, ctx.counter, heading="H")
    out = split_without_anchors(block, ctx)
    contents = [b.content for b in out]
    assert len(contents) == len(set(contents))
    for content in contents:
        tokens = content.replace("\n", " ").split()
        assert len(tokens) == len(set(tokens)), "an overlap copy inside one chunk"


def test_a_split_first_block_keeps_its_role_on_the_piece_holding_the_slice() -> None:
    ctx = char_context(100)
    counter = ctx.counter
    slice_text = '<table id="t" format="json">[["x"]]</table>'
    lines = ("a" * 39 + ".", "b" * 39 + ".", slice_text)  # 40 + 1 + 40 + 1 + 43 = 125
    paragraphs = [make_paragraph(t, counter) for t in lines]
    base = make_block("placeholder", counter, heading="H")
    block = build_block(paragraphs, counter, like=base, role=TableRole.FIRST)
    out = anchor_split([block], ctx)
    assert [b.role for b in out] == [TableRole.NONE, TableRole.FIRST]
    assert out[-1].paragraphs[-1].text == slice_text


def test_thirty_thousand_short_lines_split_without_recursion_and_lose_nothing() -> None:
    ctx = char_context(1200)
    lines = [f"Line {i} of the register" for i in range(30_000)]
    block = make_block("\n".join(lines), ctx.counter, heading="Register")
    out = anchor_split([block], ctx)
    assert all(b.tokens <= 1200 for b in out)
    assert [p.text for b in out for p in b.paragraphs] == lines


def test_topic_breaks_cut_a_long_block_first_and_keep_its_heading() -> None:
    from lightrag_pchunk.chunk.pipeline import chunk_rows

    from helpers import make_row

    lines = ["# Rules", *(f"rule {i} " + "x" * 40 for i in range(1, 9))]
    row = make_row("\n".join(lines), "Rules")
    row.extra["topic_breaks"] = [5, 99, -1, "3"]  # only valid indexes count
    chunks = chunk_rows([row], char_context(300))
    assert [c.content.split("\n")[0] for c in chunks] == ["# Rules", "rule 5 " + "x" * 40]
    assert [c.heading for c in chunks] == ["Rules [part 1]", "Rules [part 2]"]
    plain = make_row("\n".join(lines), "Rules")
    assert [c.content.split("\n")[0] for c in chunk_rows([plain], char_context(300))][1] != (
        "rule 5 " + "x" * 40
    )


# --- Paragraphs of several lines (a Markdown list, code block or quote) ------------------

CODE = "```\n" + "\n".join(f"step {n}" for n in range(8)) + "\n```"  # 66 characters


def test_a_paragraph_of_several_lines_is_never_cut_while_it_fits_a_chunk() -> None:
    # N=100: the row (about 170 characters) must be cut, but never inside the code block.
    from lightrag_pchunk.chunk.pipeline import chunk_rows

    from helpers import make_row

    row = make_row(f"## Install\n\n{'a' * 60} done.\n\n{CODE}\n\n{'b' * 30} end.", "Install")
    chunks = chunk_rows([row], char_context(100))
    holding = [chunk.content for chunk in chunks if "step 0" in chunk.content]
    assert len(holding) == 1 and CODE in holding[0]
    assert all(chunk.tokens <= 100 for chunk in chunks)
    assert "".join(c.content for c in chunks).count("step") == 8  # nothing copied or lost


def test_a_paragraph_of_several_lines_alone_over_the_cap_is_cut_at_its_lines() -> None:
    ctx = char_context(30, overlap=12)  # R would repeat up to two lines in the next piece
    block = make_block(f"intro\n\n{CODE}", ctx.counter, heading="H")
    pieces = split_without_anchors(block, ctx)
    texts = [p.content for p in pieces]
    # Packed line by line (no recursive-character split, so no overlap copies).
    assert "\n".join(texts).split("\n") == ["intro", *CODE.split("\n")]
    assert all(p.tokens <= 30 for p in pieces)


def test_a_paragraph_of_several_lines_is_not_an_anchor() -> None:
    assert is_anchor_candidate("Setup", 100)
    assert not is_anchor_candidate("Setup\nmore", 100)


def test_a_line_leading_into_a_display_equation_is_not_an_anchor() -> None:
    # LaTeX converted to Markdown breaks "…, we set" before its formula: no title.
    ctx = char_context(1000)
    formula = '<equation id="eq-1" format="latex">I(t) = a</equation>'
    text = "## H\n" + "x" * 800 + "\nUsing Eq. 4 we set\n" + formula + "\n" + "y" * 800
    block = make_block(text, ctx.counter, heading="H", parents=("Doc",), level=2)
    assert choose_anchors(block, ctx) == []
    # The same line followed by prose is a title and cuts the block.
    titled = make_block(text.replace(formula + "\n", ""), ctx.counter, heading="H", level=2)
    assert [titled.paragraphs[i].text for i in choose_anchors(titled, ctx)] == [
        "Using Eq. 4 we set"
    ]


@pytest.mark.parametrize(
    ("lead_in", "heading"),
    [
        ("Technical Committee:", "North Harbour Office"),
        ("**Contacts**", "North Harbour Office"),
        ("### Sites", "Sites"),
    ],
)
def test_a_cut_before_an_anchor_takes_the_lead_in_before_it(lead_in: str, heading: str) -> None:
    # A lead-in goes with what it introduces: the cut is made before it, and the first of
    # the lead-in and the anchor that reads as a title heads the piece.
    ctx = char_context(1000)
    text = "## H\n" + "x" * 800 + f"\n{lead_in}\nNorth Harbour Office\n" + "y" * 800
    block = make_block(text, ctx.counter, heading="H", parents=("Doc",), level=2)
    assert choose_anchors(block, ctx) == [2]
    out = anchor_split([block], ctx)
    assert [b.content for b in out] == [
        "## H\n" + "x" * 800,
        f"{lead_in}\nNorth Harbour Office\n" + "y" * 800,
    ]
    assert [(b.heading, b.parent_headings) for b in out][1] == (heading, ("Doc", "H"))


def test_a_topic_break_after_a_lead_in_moves_before_it() -> None:
    from lightrag_pchunk.chunk.pipeline import chunk_rows

    from helpers import make_row

    lines = ["# Rules", *(f"rule {i} " + "x" * 40 for i in range(1, 9))]
    lines[4] = "The next rules are:"
    row = make_row("\n".join(lines), "Rules")
    row.extra["topic_breaks"] = [5]
    chunks = chunk_rows([row], char_context(300))
    assert [c.content.split("\n")[0] for c in chunks] == ["# Rules", "The next rules are:"]


def test_a_line_numbered_as_a_sibling_of_the_blocks_section_is_not_an_anchor() -> None:
    # "6.5 Calling External Functions" printed inside section 6.4 (its heading missed by
    # the outline): as 6.4's sub-heading it would nest 6.5 below 6.4. "6.4.1" may be one.
    ctx = char_context(1000)
    text = "## 6.4 Preemption\n" + "x" * 800 + "\n{}\n" + "y" * 800

    def section_with(line: str):
        return make_block(
            text.format(line),
            ctx.counter,
            heading="6.4 Preemption",
            parents=("6 Implementation",),
            level=2,
        )

    sibling = section_with("6.5 Calling External Functions")
    assert choose_anchors(sibling, ctx) == []
    child = section_with("6.4.1 Timer interrupts")
    assert [child.paragraphs[i].text for i in choose_anchors(child, ctx)] == [
        "6.4.1 Timer interrupts"
    ]


def test_a_laws_unit_is_cut_at_no_point_or_name_of_its_own_text() -> None:
    # A section of a code of regulations holds its points, lists and substance names:
    # none is a section a reader would cite, so the long section is packed in parts
    # under its own heading. A numbered unit of a series under it is one (a contract's
    # article holding "5.1").
    ctx = char_context(1000)
    lines = ["(2) Any suppository dosage form containing:", "Some trade or other names: DOET"]
    text = "## § 1308.13 Schedule III.\n" + "x" * 700 + "\n{}\n" + "y" * 700

    def unit_with(line: str, heading: str = "§ 1308.13 Schedule III."):
        return make_block(
            text.format(line), ctx.counter, heading=heading, parents=("PART 1308",), level=2
        )

    for line in lines:
        assert choose_anchors(unit_with(line), ctx) == []
        # Under a heading that is no law's unit the same line may cut the block.
        titled = unit_with(line, heading="Schedules")
        assert [titled.paragraphs[i].text for i in choose_anchors(titled, ctx)] == [line]
    for heading in ("第十五条 安全责任", "Article 5"):
        assert choose_anchors(unit_with("（一）安全生产的目标", heading), ctx) == []
    contract = unit_with("5.1 Indemnification by the Supplier", heading="ARTICLE 5")
    assert [contract.paragraphs[i].text for i in choose_anchors(contract, ctx)] == [
        "5.1 Indemnification by the Supplier"
    ]


def test_the_points_of_an_article_left_as_text_in_a_chapter_are_not_anchors() -> None:
    # The articles of a chapter its outline leaves as text: an article's points are its
    # own, the next article may cut the block.
    ctx = char_context(1000)
    article = "第四十八条 香港特别行政区行政长官行使下列职权："
    point = "(五) 提名并报请中央人民政府任命下列主要官员"
    text = "\n".join(["## 第一节 行政长官", "x" * 300, article, "y" * 400, point, "z" * 700])
    block = make_block(
        text, ctx.counter, heading="第一节 行政长官", parents=("第四章 政治体制",), level=2
    )
    assert anchor_texts(block, ctx) == [article]


@pytest.mark.parametrize(
    "citing",
    [
        "Article 5 of the Convention sets out the rights of the child.",
        "Art. 12 of the Regulation lays down the rules.",
        "Artículo 5 de la Ley regula los plazos.",
    ],
)
def test_a_sentence_citing_a_laws_unit_opens_no_unit(citing: str) -> None:
    # A commentary's paragraph that opens on the article it cites is prose: the titles
    # after it in the block still cut it.
    ctx = char_context(1000)
    title = "Lawfulness of processing"
    text = "\n".join(["## Background", "x" * 300, citing, "y" * 400, title, "z" * 700])
    block = make_block(text, ctx.counter, heading="Background", parents=("Commentary",), level=2)
    assert anchor_texts(block, ctx) == [title]


def test_a_line_that_recurs_in_the_block_is_no_anchor() -> None:
    # A paper pasted as text keeps its pages' running head ("Breast Cancer Res Treat"); a
    # cut at one of its places would head a piece with it. The title between them is one.
    ctx = char_context(1000)
    prose = "p" * 390 + "."
    lines = ["Abstract"]
    for _ in range(3):
        lines += [prose, "Breast Cancer Res Treat", prose]
    lines[4:4] = ["Results"]
    block = make_block("\n".join(lines), ctx.counter, heading="Preface")
    assert anchor_texts(block, ctx) == ["Results"]
    # The pieces cut from it are read with the whole block: none is headed by the line.
    assert {piece.heading for piece in anchor_split([block], ctx)} == {"Preface", "Results"}


def test_numbered_lines_among_contents_entries_are_no_anchors() -> None:
    # A printed table of contents the parser did not mark as one: its entries carry page
    # numbers, one lost its tab ("Chapter 2 Tables 9"), and the page's running head with
    # its number ("Contents 2") reads as a title: neither heads a part. A title inside the
    # contents without a number ("Index") still does.
    ctx = char_context(200)
    entries = [f"1.{i} Section number {i:02d} . . . . . . . {i + 2}" for i in range(1, 7)]
    more = [f"2.{i} Another section {i:02d} . . . . . . . {i + 9}" for i in range(1, 7)]
    lines = ["# Contents", "Contents 1", "Chapter 1 Basics\t3", *entries[:3], "Contents 2",
             *entries[3:], "Chapter 2 Tables 9", *more, "Index", *more]  # fmt: skip
    block = make_block("\n".join(lines), ctx.counter, heading="Contents")
    out = anchor_split([block], ctx)
    assert {b.heading for b in out if b.heading != "Contents"} == {"Index"}
    assert not any(b.content.startswith(("Contents ", "Chapter 2")) for b in out)


def test_a_line_naming_a_section_of_its_own_below_the_block_is_no_anchor() -> None:
    # A news digest prints a headline in the section's text and later gives the same item
    # a section of its own under it: cut there, a chunk of the section's text would declare
    # the item's path ("News > Omsk utility rated") at the section's level, one path
    # naming two places; the other line is the anchor.
    ctx = char_context(1000)
    text = "## News\n" + "x" * 600 + "\nOmsk utility rated\n" + "y" * 100
    text += "\nRostov utility rated\n" + "z" * 500
    block = make_block(text, ctx.counter, heading="News", level=1)
    item = make_block("## Omsk utility rated\nThe agency rated it.", ctx.counter)
    item = make_block(
        item.content, ctx.counter, heading="Omsk utility rated", parents=("News",), level=2
    )
    out = anchor_split([block, item], ctx)
    assert [b.heading for b in out] == ["News", "Rostov utility rated", "Omsk utility rated"]
    assert [b.level for b in out] == [1, 1, 2]
