"""Numbered lines that number no section: a list's items, told from titles by their run."""

from __future__ import annotations

from lightrag_pchunk.outline.items import Look

from outline_items import BOLD, H1, listed, text, titles

#: Larger than the text, not bold: a chapter's look.
LARGER = Look(size=14)


def test_a_lettered_list_whose_items_hold_numbered_items_is_a_list():
    # An appendix listing a programme's contents: lettered items, each over its own numbered
    # items (known list items), some lettered ones sentences. The lettered lines are one list
    # however their numbered items part them, not the appendix's sections.
    items = [
        text("Appendix B The contents of a review programme", H1),
        text("a) Introduction"),
        listed("1) Purpose"),
        listed("2) Scope"),
        text("b) Organisation"),
        listed("1) The project's organisation, its tasks and duties"),
        listed("2) Qualification and training of the staff"),
        text("c) Review strategy and methods"),
        listed("1) The scope of the review and the period of the data"),
        text(
            "d) The plan for submitting the programme, the reports of every safety factor "
            "and the overall report to the regulator, with the dates agreed for each of them"
        ),
        text("Appendix C The general method of a cost-benefit analysis", H1),
        text("Both the costs and the benefits of every corrective action are weighed here."),
    ]
    assert titles(items) == [
        "Appendix B The contents of a review programme",
        "Appendix C The general method of a cost-benefit analysis",
    ]


def test_lettered_titles_over_numbered_paragraphs_stay_titles():
    # A report's lettered sub-headings, each over paragraphs numbered through the report (the
    # parser takes them for list items): the paragraphs are the sections' text, no list
    # nested in a lettered one.
    items = [
        text("A. Criteria of the definition", BOLD),
        text("(a) Adequacy"),
        listed(
            "35. The mandate was to arrive at a working definition, which implied a set of tests."
        ),
        text("(b) Generality"),
        listed("36. The definition should be framed broadly enough to hold the major dimensions."),
        text("(c) Conciseness"),
        listed("37. Texts produced by committee sometimes grow in length as the views are added."),
    ]
    assert titles(items) == [
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
    body = "48. This term refers to broadly framed standards the parties adopt in light of them."
    items = [
        text("B. Assessing the terms of the definition", BOLD),
        text("(c) Principles"),
        text(body),
        text("(d) Norms"),
        text(body),
        listed("(e) Rules"),
        text(body),
        text("(f) Decision making procedures"),
        text("Such procedures hold the following steps, each set down in the mandate:"),
        listed("(a) Consultation of every party"),
        listed("(b) Drafting of the text"),
        text(body),
    ]
    assert titles(items) == [
        "B. Assessing the terms of the definition",
        "(c) Principles",
        "(d) Norms",
        "(e) Rules",
        "(f) Decision making procedures",
    ]


def test_a_lists_third_item_after_a_second_title_is_its_lists():
    # "3." numbers on from the title "2 Overview" too, but its own list's "1." and "2."
    # stand between them: the list's third item, not chapter 3.
    body = "Each phase has its own tools, and the specification covers all of them in turn."
    items = [
        text("1 Introduction", BOLD),
        text(body),
        text("2 Overview", BOLD),
        text(body),
        listed("1. Day 0, service design"),
        text(body),
        listed("2. Day 1, service deployment"),
        text(body),
        listed("3. Day 2, service management"),
        text(body),
    ]
    assert titles(items) == ["1 Introduction", "2 Overview"]
    # Its earlier items sentences too long for any title: still the list's.
    sentence = "covers the tools of its phase, and the specification sets out each of them."
    items[4] = listed(f"1. Day 0 {sentence}")
    items[6] = listed(f"2. Day 1 {sentence}")
    assert titles(items) == ["1 Introduction", "2 Overview"]


def test_a_list_item_leading_in_with_a_colon_after_its_title_is_a_clause():
    # "5.1." numbers on from the title "5. Warranty" with nothing between, but runs on
    # into its value after a colon, and "6.1." leads in with one to the value under it:
    # clauses of their sections, as the list numbers them.
    body = "The contractor warrants the works and the equipment as set out below here."
    items = [
        text("5. Warranty", BOLD),
        text(body),
        listed("5.1. Warranty period: 24 months from the day both parties sign the record"),
        text(body),
        text("6. Acceptance", BOLD),
        text(body),
        listed("6.1. Acceptance of the works:"),
        text("by the record both parties sign once the works are complete on the site."),
    ]
    assert titles(items) == ["5. Warranty", "6. Acceptance"]


def test_a_list_item_opening_the_first_part_of_a_unit_taken_last_is_its_section():
    # One Word list numbers the chapters (set larger) and their sections (at the text's
    # size): "1.1" right under "第一章" is the chapter's first section, and the list's next
    # items number on from it. A "1.1" under "第二章" opens no part of it: a list's item.
    body = "本说明书用于说明系统的接口设计，供开发人员和项目管理人员在开发过程中查阅和使用。"
    items = [
        listed("第一章 引言", LARGER),
        listed("1.1 设计目标"),
        text(body),
        listed("1.2 适用范围"),
        text(body),
        listed("第二章 分析设计", LARGER),
        text(body),
        listed("1.1 用户管理模块"),
        text(body),
    ]
    assert titles(items, body_size=11) == [
        "第一章 引言",
        "1.1 设计目标",
        "1.2 适用范围",
        "第二章 分析设计",
    ]
