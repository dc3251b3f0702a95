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


def test_a_list_item_numbering_on_from_typed_titles_is_their_next_title():
    # The author typed "(d)" and "(f)" before their titles and let Word number "(e)": the
    # list item takes the place its number gives it among the typed titles before it, over
    # its paragraph as they stand over theirs. A list after a title that numbers from
    # "(a)" again is a list.
    item = dict(is_list_item=True)
    body = "48. This term refers to broadly framed standards the parties adopt in light of them."
    items = [
        text("B. Assessing the terms of the definition", Look(bold=True, size=11)),
        text("(c) Principles"),
        text(body),
        text("(d) Norms"),
        text(body),
        text("(e) Rules", **item),
        text(body),
        text("(f) Decision making procedures"),
        text("Such procedures hold the following steps, each set down in the mandate:"),
        text("(a) Consultation of every party", **item),
        text("(b) Drafting of the text", **item),
        text(body),
    ]
    titles = [h.title for h in infer_outline(items, 11)]
    assert titles == [
        "B. Assessing the terms of the definition",
        "(c) Principles",
        "(d) Norms",
        "(e) Rules",
        "(f) Decision making procedures",
    ]


def test_a_lists_third_item_after_a_second_title_is_its_lists():
    # "3." numbers on from the title "2 Overview" too, but its own list's "1." and "2."
    # stand between them: the list's third item, not chapter 3.
    item = dict(is_list_item=True)
    body = "Each phase has its own tools, and the specification covers all of them in turn."
    items = [
        text("1 Introduction", Look(bold=True, size=11)),
        text(body),
        text("2 Overview", Look(bold=True, size=11)),
        text(body),
        text("1. Day 0, service design", **item),
        text(body),
        text("2. Day 1, service deployment", **item),
        text(body),
        text("3. Day 2, service management", **item),
        text(body),
    ]
    titles = [h.title for h in infer_outline(items, 11)]
    assert titles == ["1 Introduction", "2 Overview"]
    # Its earlier items sentences too long for any title: still the list's.
    sentence = "covers the tools of its phase, and the specification sets out each of them."
    items[4] = text(f"1. Day 0 {sentence}", **item)
    items[6] = text(f"2. Day 1 {sentence}", **item)
    titles = [h.title for h in infer_outline(items, 11)]
    assert titles == ["1 Introduction", "2 Overview"]


def test_a_list_item_leading_in_with_a_colon_after_its_title_is_a_clause():
    # "5.1." numbers on from the title "5. Warranty" with nothing between, but runs on
    # into its value after a colon, and "6.1." leads in with one to the value under it:
    # clauses of their sections, as the list numbers them.
    item = dict(is_list_item=True)
    body = "The contractor warrants the works and the equipment as set out below here."
    items = [
        text("5. Warranty", Look(bold=True, size=11)),
        text(body),
        text("5.1. Warranty period: 24 months from the day both parties sign the record", **item),
        text(body),
        text("6. Acceptance", Look(bold=True, size=11)),
        text(body),
        text("6.1. Acceptance of the works:", **item),
        text("by the record both parties sign once the works are complete on the site."),
    ]
    titles = [h.title for h in infer_outline(items, 11)]
    assert titles == ["5. Warranty", "6. Acceptance"]
