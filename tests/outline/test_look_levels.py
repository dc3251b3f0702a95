"""The levels the looks of inferred headings give them."""

from __future__ import annotations

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
