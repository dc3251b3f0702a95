"""Numbered lines that number no section: a list's items, told from titles by their run."""

from __future__ import annotations

from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem, infer_outline

BODY = Look(size=11)
H1 = Look(bold=True, size=16)


def text(line: str, look: Look | None = BODY, **kwargs) -> OutlineItem:
    return OutlineItem(ItemKind.TEXT, line, look=look, **kwargs)


def test_a_lettered_list_whose_items_hold_numbered_items_is_a_list():
    # An appendix listing a programme's contents: lettered items, each over its own numbered
    # items (known list items), some lettered ones sentences. The lettered lines are one list
    # however their numbered items part them, not the appendix's sections.
    item = dict(is_list_item=True)
    items = [
        text("Appendix B The contents of a review programme", H1),
        text("a) Introduction"),
        text("1) Purpose", **item),
        text("2) Scope", **item),
        text("b) Organisation"),
        text("1) The project's organisation, its tasks and duties", **item),
        text("2) Qualification and training of the staff", **item),
        text("c) Review strategy and methods"),
        text("1) The scope of the review and the period of the data", **item),
        text(
            "d) The plan for submitting the programme, the reports of every safety factor "
            "and the overall report to the regulator, with the dates agreed for each of them"
        ),
        text("Appendix C The general method of a cost-benefit analysis", H1),
        text("Both the costs and the benefits of every corrective action are weighed here."),
    ]
    titles = [h.title for h in infer_outline(items, 11)]
    assert titles == [
        "Appendix B The contents of a review programme",
        "Appendix C The general method of a cost-benefit analysis",
    ]


def test_lettered_titles_over_numbered_paragraphs_stay_titles():
    # A report's lettered sub-headings, each over paragraphs numbered through the report (the
    # parser takes them for list items): the paragraphs are the sections' text, no list
    # nested in a lettered one.
    item = dict(is_list_item=True)
    items = [
        text("A. Criteria of the definition", Look(bold=True, size=11)),
        text("(a) Adequacy"),
        text(
            "35. The mandate was to arrive at a working definition, which implied a set of tests.",
            **item,
        ),
        text("(b) Generality"),
        text(
            "36. The definition should be framed broadly enough to hold the major dimensions.",
            **item,
        ),
        text("(c) Conciseness"),
        text(
            "37. Texts produced by committee sometimes grow in length as the views are added.",
            **item,
        ),
    ]
    titles = [h.title for h in infer_outline(items, 11)]
    assert titles == [
        "A. Criteria of the definition",
        "(a) Adequacy",
        "(b) Generality",
        "(c) Conciseness",
    ]
