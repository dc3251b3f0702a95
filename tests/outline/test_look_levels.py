"""The levels the looks of inferred headings give them."""

from __future__ import annotations

from lightrag_pchunk.model import MAX_HEADING_LEVEL
from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem, infer_outline

BODY = Look(size=9.5)
TEXT = "The template sets every part of the manuscript in the styles of the journal."


def text(line: str, look: Look | None = BODY) -> OutlineItem:
    return OutlineItem(ItemKind.TEXT, line, look=look)


def test_small_capitals_rank_over_a_bold_title_at_the_texts_size():
    # A paper's sections in bold small capitals measure 8.8 pt, under text at 9.5 pt; a
    # bold title at the text's size inside one of them is its sub-section, not their parent.
    small_caps = Look(bold=True, size=8.8, caps=True)
    items = [
        text("INTRODUCTION", small_caps),
        text(TEXT),
        text("Bibliography", Look(bold=True, size=9.5)),
        text(TEXT),
        text("ACKNOWLEDGMENTS", small_caps),
        text(TEXT),
    ]
    levels = {h.title: h.level for h in infer_outline(items, 9.5)}
    assert levels["INTRODUCTION"] == levels["ACKNOWLEDGMENTS"] < levels["Bibliography"]


def test_a_heading_set_below_the_unit_open_above_it_nests_inside_it():
    # A filing's "ITEM 3." in bold capitals at the text's size sits under a part and an
    # unnumbered notice set larger, which push it deeper than its look's rank; the bold
    # sub-heads a long stretch holds under it are its parts, not its siblings.
    part, item, bold = (
        Look(bold=True, size=s, caps=c) for s, c in ((14, True), (11, True), (11, False))
    )
    prose = "We are exposed to market risks in the ordinary course of our business each year."
    items = [
        text("SPECIAL NOTE ON FORWARD-LOOKING STATEMENTS", part),
        text(prose),
        text("PART I - FINANCIAL INFORMATION", part),
        text("ITEM 3. QUANTITATIVE AND QUALITATIVE DISCLOSURES", item),
        text(prose),
        text("Interest Rate Risk", bold),
        text(prose),
        text("Foreign Currency Risk", bold),
        text(prose),
        text("PART II - OTHER INFORMATION", part),
        text(prose),
    ]
    levels = {h.title: h.level for h in infer_outline(items, 11, long_gaps=[range(4, 9)])}
    unit = levels["ITEM 3. QUANTITATIVE AND QUALITATIVE DISCLOSURES"]
    assert levels["Interest Rate Risk"] == levels["Foreign Currency Risk"] == unit + 1
    assert levels["PART II - OTHER INFORMATION"] < unit


def test_a_leaflets_many_title_sizes_stop_at_the_deepest_level():
    # Twelve titles, each a step smaller than the one before, each over text: twelve tiers
    # of looks, but a heading's level stops at MAX_HEADING_LEVEL (Word's nine), the
    # deepest tiers sharing it; the larger ones keep their order.
    sizes = [30 - 1.5 * step for step in range(12)]
    items = []
    for size in sizes:
        items += [text(f"Offer at {size} points", Look(bold=True, size=size)), text(TEXT)]
    levels = [h.level for h in infer_outline(items, 9.5)]
    assert levels == [*range(1, MAX_HEADING_LEVEL), *[MAX_HEADING_LEVEL] * 4]
