"""A title over a paragraph that a column's or a page's end cuts (a paper's paragraph goes
on in the next column, after a figure): the title still stands between paragraphs."""

from __future__ import annotations

from lightrag_pchunk.outline.infer import ItemKind, OutlineItem, infer_outline

from outline_items import BODY, BOLD, H2

SENTENCES = (
    "In the above explanation, we have assumed that we can obtain enough basic patterns "
    "from an article. However, the actual number of basic patterns that one can find from "
)
CUT = SENTENCES + "a single article is usually not"  # goes on in the next column
WHOLE = SENTENCES + "a single article is usually too small to cluster on."


def _paper(under_title: str) -> tuple[list[OutlineItem], range]:
    items = [OutlineItem(ItemKind.TEXT, "1 Background", look=H2)]
    items += [OutlineItem(ItemKind.TEXT, WHOLE, look=BODY)] * 3
    items.append(OutlineItem(ItemKind.TEXT, "2 Basic Idea", look=H2))
    start = len(items)
    items += [OutlineItem(ItemKind.TEXT, WHOLE, look=BODY)] * 4
    items.append(OutlineItem(ItemKind.TEXT, "Increasing Basic Patterns", look=BOLD))
    items.append(OutlineItem(ItemKind.TEXT, under_title, look=BODY))
    items += [OutlineItem(ItemKind.TEXT, WHOLE, look=BODY)] * 4
    gap = range(start, len(items))
    items.append(OutlineItem(ItemKind.TEXT, "3 Implementation", look=H2))
    items += [OutlineItem(ItemKind.TEXT, WHOLE, look=BODY)] * 3
    return items, gap


def _titles(under_title: str) -> list[tuple[int, str]]:
    items, gap = _paper(under_title)
    return [(h.level, h.title) for h in infer_outline(items, 11.0, long_gaps=[gap])]


def test_a_bold_title_over_a_paragraph_a_column_cuts_heads_its_part() -> None:
    expected = [(1, "1 Background"), (1, "2 Basic Idea"), (2, "Increasing Basic Patterns")]
    assert _titles(CUT)[:3] == expected
    assert _titles(WHOLE)[:3] == expected


def test_a_line_after_a_paragraph_a_column_cuts_heads_nothing() -> None:
    """The line stands between the two halves of one paragraph: a figure's or a table's
    title set there, not a title of the text."""
    items, gap = _paper(WHOLE)
    at = next(i for i, item in enumerate(items) if item.text == "Increasing Basic Patterns")
    items[at - 1] = OutlineItem(ItemKind.TEXT, CUT, look=BODY)
    titles = [h.title for h in infer_outline(items, 11.0, long_gaps=[gap])]
    assert "Increasing Basic Patterns" not in titles
