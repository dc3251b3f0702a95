"""A paper's title block (a journal's masthead over its title) in the smart outline: it sets
no tier of larger headings, and its masthead heads nothing (documents given as items)."""

from __future__ import annotations

from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem, infer_outline

BODY = Look(size=9.5)
MASTHEAD = Look(bold=True, size=11)
JOURNAL = Look(bold=True, size=12.8, caps=True)
TITLE = Look(size=16, centered=True)
SECTION = Look(bold=True, size=8.8, caps=True)
PARAGRAPH = (
    "This template formats the text of a manuscript with the styles the journal uses for"
    " its papers, so that authors need not set sizes and alignment by hand."
)


def text(line: str, look: Look) -> OutlineItem:
    return OutlineItem(ItemKind.TEXT, line, look=look)


def paper(*, section: Look = SECTION) -> list[OutlineItem]:
    return [
        text("Journal of Integrated", MASTHEAD),
        text("SCIENCE & TECHNOLOGY", JOURNAL),
        text("Reading Title Blocks", TITLE),
        text("INTRODUCTION", section),
        text(PARAGRAPH, BODY),
        text(PARAGRAPH, BODY),
        text("ACKNOWLEDGMENTS", section),
        text(PARAGRAPH, BODY),
        text("REFERENCES AND NOTES", section),
        text(PARAGRAPH, BODY),
    ]


def titles(items: list[OutlineItem]) -> list[str]:
    return [h.title for h in infer_outline(items, 9.5)]


def test_sections_in_small_bold_capitals_under_a_title_block_are_headings():
    # The masthead and title are the only larger lines, all before the first paragraph:
    # they tell no tier that would make the small bold sections run-in labels.
    found = titles(paper())
    assert [title for title in found if title.isupper() and "&" not in title] == [
        "INTRODUCTION",
        "ACKNOWLEDGMENTS",
        "REFERENCES AND NOTES",
    ]


def test_a_masthead_over_the_title_heads_nothing():
    found = titles(paper())
    assert "Journal of Integrated" not in found
    assert "SCIENCE & TECHNOLOGY" not in found


def test_a_larger_heading_after_the_first_paragraph_still_sets_the_tier():
    # A larger bold heading among the sections: the larger lines are headings, and bold
    # lines set smaller than the text, in one section only, are its emphasis.
    items = paper()
    items.insert(5, text("Methods", Look(bold=True, size=14)))
    items.insert(6, text(PARAGRAPH, BODY))
    found = titles(items)
    assert "Methods" in found
    assert "REFERENCES AND NOTES" not in found


def test_a_line_over_a_larger_heading_after_the_opening_stays_a_heading():
    # Past the first paragraph a line over a larger one is a section of its own (a
    # chapter's last sub-heading, empty, before the next chapter's larger title).
    items = paper()
    items[6:7] = [
        text("Results", Look(bold=True, size=14)),
        text("Part Two", Look(bold=True, size=18)),
    ]
    items.insert(8, text(PARAGRAPH, BODY))
    assert {"Results", "Part Two"} <= set(titles(items))
