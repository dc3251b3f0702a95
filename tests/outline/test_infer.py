"""The smart outline's decisions on documents given as items (no .docx needed)."""

from __future__ import annotations

import pytest

from lightrag_pchunk.outline.infer import (
    InferredHeading,
    ItemKind,
    Look,
    OutlineItem,
    infer_outline,
    long_stretches,
)
from lightrag_pchunk.outline.run_on import names_a_topic

from outline_items import BODY, BOLD, H1, H2, PROSE


def text(line: str, look: Look | None = None, **kwargs) -> OutlineItem:
    return OutlineItem(ItemKind.TEXT, line, look=look, **kwargs)


def heading(line: str, level: int) -> OutlineItem:
    return OutlineItem(ItemKind.HEADING, line, level)


def outline(items, body_size: float = 0.0) -> list[tuple[int, str, str]]:
    return [(h.level, h.title, h.body) for h in infer_outline(items, body_size)]


def test_chinese_regulation_typed_without_styles():
    items = [
        text("安全生产管理办法"),
        text("第一章 总则"),
        text("第一条 为加强安全生产管理，制定本办法。"),
        text("第二条 本办法适用于全体员工。"),
        text("第二章 管理职责"),
        text("第三条 安全委员会负责统筹协调。"),
    ]
    assert outline(items) == [
        (1, "第一章 总则", ""),
        (2, "第一条", "为加强安全生产管理，制定本办法。"),
        (2, "第二条", "本办法适用于全体员工。"),
        (1, "第二章 管理职责", ""),
        (2, "第三条", "安全委员会负责统筹协调。"),
    ]


def test_sop_numbered_lines_with_colons():
    items = [
        text("1.目的："),
        text("规范外发加工程序，确保质量。"),
        text("2.范围：适用于本公司所有外发加工的物料和产品。"),
        text("3.职责："),
        text("3.1 物控部：负责外发加工的统筹安排。"),
        text("3.2 品管部：负责外发加工产品的质量检验。"),
    ]
    assert outline(items) == [
        (1, "1.目的", ""),
        (1, "2.范围", "适用于本公司所有外发加工的物料和产品。"),
        (1, "3.职责", ""),
        (2, "3.1 物控部", "负责外发加工的统筹安排。"),
        (2, "3.2 品管部", "负责外发加工产品的质量检验。"),
    ]


def test_a_list_of_short_items_and_a_list_of_sentences_are_not_headings():
    items = [
        text("1 Scope", H1),
        text("The plan covers three fruits:", BODY),
        text("1. Apples", BODY),
        text("2. Pears", BODY),
        text("3. Plums", BODY),
        text("Each is checked on arrival.", BODY),
        text("a) The operator opens the valve and reads the meter.", BODY),
        text("b) Notes", BODY),
        text("c) The operator closes the valve before leaving the room.", BODY),
    ]
    assert outline(items, 11) == [(1, "1 Scope", "")]


def test_look_decides_unnumbered_headings_and_levels_follow_size():
    items = [
        text("Overview", H1),
        text("This standard covers cold stores and their operation in detail.", BODY),
        text("Ammonia systems", H2),
        text("Ammonia is toxic and must be detected early by fixed sensors.", BODY),
        text("Note", BOLD),  # bold at text size where larger headings exist: a label
        text("Sensors are tested monthly by the duty engineer on site.", BODY),
        text("Signed by", BOLD),
        text("Quality manager", BOLD),  # a run of alike bold lines
    ]
    assert outline(items, 11) == [(1, "Overview", ""), (2, "Ammonia systems", "")]


def _listed_then_unlisted(second_look: Look) -> list[OutlineItem]:
    return [
        OutlineItem(ItemKind.HEADING, "Heading 1 again", 1, H1),
        text("The first part says what the product is and who it is for.", BODY),
        OutlineItem(ItemKind.HEADING, "Heading 2 again", 2, second_look),
        text("The second part says how it is built and what it is made of.", BODY),
        text("Second Heading 1", H1),
        text("This part says how the product is sold and to whom it goes.", BODY),
        text("More Info", H2),
        text("The last part says where to find more about it and its makers.", BODY),
    ]


def test_unlisted_line_set_like_listed_headings_takes_their_level():
    # The headings a printed table of contents named are known at levels 1 and 2; lines
    # it did not list, set like them, sit beside them, not below the last one.
    found = infer_outline(_listed_then_unlisted(H2), 11, listed=True)
    assert [(h.level, h.title) for h in found] == [(1, "Second Heading 1"), (2, "More Info")]


def test_look_of_known_headings_decides_only_for_a_printed_contents():
    # Headings stated otherwise (styles, tags) leave lines out for reasons of their own:
    # what the classifier adds nests below them.
    found = infer_outline(_listed_then_unlisted(H2), 11)
    assert [(h.level, h.title) for h in found] == [(3, "Second Heading 1"), (4, "More Info")]


def test_a_look_listed_at_two_levels_does_not_decide():
    found = infer_outline(_listed_then_unlisted(H1), 11, listed=True)
    assert [(h.level, h.title) for h in found] == [(3, "Second Heading 1"), (4, "More Info")]


def test_bold_at_text_size_counts_where_bold_is_the_only_emphasis():
    items = [
        text("Purpose", BOLD),
        text("This procedure defines how incoming goods are checked by staff.", BODY),
        text("Responsibilities", BOLD),
        text("The warehouse lead assigns a checker to every delivery on arrival.", BODY),
    ]
    assert outline(items, 11) == [(1, "Purpose", ""), (1, "Responsibilities", "")]


def test_headings_set_larger_without_bold_outweigh_bold_emphasis():
    # Word's own heading look: larger, not bold. Bold lines a little larger than the text
    # ("Examples" at 12 pt over 11 pt) are emphasis under such a tier, not its headings.
    plain_h1, plain_h2, emphasis = Look(size=20), Look(size=16), Look(bold=True, size=12)
    items = [
        text("Introduction", plain_h1),
        text("This specification defines a language for sharing threat intelligence.", BODY),
        text("Examples", emphasis),
        text("The example below shows a simple indicator with its pattern and time.", BODY),
        text("Overview", plain_h2),
        text("Objects are grouped into domain objects and cyber-observable objects.", BODY),
        text("Core concepts", plain_h2),
        text("Every object carries an identifier and the time it was first created.", BODY),
        text("Identifiers", plain_h2),
        text("An identifier is the type of the object followed by a UUID value.", BODY),
    ]
    assert outline(items, 11) == [
        (1, "Introduction", ""),
        (2, "Overview", ""),
        (2, "Core concepts", ""),
        (2, "Identifiers", ""),
    ]


def test_a_title_in_large_bold_sets_no_tier_for_the_headings_under_it():
    # A memo titled once in large bold heads its sections in bold at the text's size: the
    # title is set apart once, and no larger bold tier makes those sections' titles labels.
    items = [
        text("Product Design Proposal", H1),
        text("Purpose", BOLD),
        text("This proposal describes a small solid-state drive for embedded devices.", BODY),
        text("Specifications", BOLD),
        text("The drive offers an industry standard interface and a write-protect switch.", BODY),
    ]
    assert outline(items, 11) == [
        (1, "Product Design Proposal", ""),
        (2, "Purpose", ""),
        (2, "Specifications", ""),
    ]


def attestation() -> list[OutlineItem]:
    """A statement under its centred title in large bold, parted by two plain larger titles."""
    section = Look(size=13)
    return [
        text("Self-Attestation Statement", Look(bold=True, size=16, centered=True)),
        text("I am the owner of this system and attest to the statements below.", BODY),
        text("Attestation of Policies", section),
        text("The following policies exist and address the basic elements listed.", BODY),
        text("Attestation of Capabilities", section),
        text("The following capabilities exist and satisfy the associated requirement.", BODY),
    ]


def test_a_title_in_large_bold_leaves_larger_plain_headings_headings():
    assert [title for _, title, _ in outline(attestation(), 11)] == [
        "Self-Attestation Statement",
        "Attestation of Policies",
        "Attestation of Capabilities",
    ]


def test_a_documents_title_is_no_parent_of_its_sections():
    # Centred, over its cover's other lines (a date, a version) or set far larger than
    # them, the document's first line in its most prominent look names the document: its
    # sections sit beside it.
    # Numbered, in a look another heading shares, or at the margin over a section of its
    # own (the memo above), it may be a chapter and nests what follows.
    assert [level for level, _, _ in outline(attestation(), 11)] == [1, 1, 1]
    over_cover = [
        text("Site Survey Handbook", H1),
        text("Edition of 11 August 2017", BODY, titles_nothing=True),
        text("Before the visit", H2),
        text("Book the site's escort a week ahead and bring the signed permit.", BODY),
        text("On site", H2),
        text("Walk the perimeter first and note every door that does not lock.", BODY),
    ]
    assert [level for level, _, _ in outline(over_cover, 11)] == [1, 1, 1]
    numbered = [text("1 Site Survey Handbook", H1), *over_cover[1:]]
    assert [level for level, _, _ in outline(numbered, 11)] == [1, 2, 2]
    shared = [*over_cover, text("Afterwards", H1), over_cover[3]]
    assert [level for level, _, _ in outline(shared, 11)] == [1, 2, 2, 1]
    at_the_margin = [over_cover[0], *over_cover[2:]]
    assert [level for level, _, _ in outline(at_the_margin, 11)] == [1, 2, 2]
    # At the margin but set twice as large as the sections or more, it is set apart.
    set_apart = [text("Site Survey Handbook", Look(bold=True, size=2 * H2.size)), *over_cover[2:]]
    assert [level for level, _, _ in outline(set_apart, 11)] == [1, 1, 1]
    # Sizes unknown (0: a Word file whose runs and styles set none): bold capitals over
    # bold titles is no size twice as large, so the line at the margin nests as a chapter.
    unsized = [
        text("SITE SURVEY HANDBOOK", Look(bold=True, caps=True)),
        *(
            text(item.text, Look(bold=True) if item.look == H2 else Look())
            for item in over_cover[2:]
        ),
    ]
    assert [level for level, _, _ in outline(unsized)] == [1, 2, 2]


def test_a_numbered_heading_set_like_the_unnumbered_one_above_is_its_sibling():
    # A paper's sections set a half point above the text: "Abstract" and the numbered
    # sections after it share their look, so "1. Introduction" sits beside "Abstract".
    body, section = Look(size=13), Look(size=13.5)
    items = [
        text("Plasma Levels of Biphenyls and Causation", Look(size=16.5)),
        text("Review Article", section),
        text("Copyright 2012 Freeman and Kohles. This is an open access article.", body),
        text("Abstract", section),
        text("Biphenyls are synthetic hydrocarbons that polluted the environment.", body),
        text("1. Introduction", section),
        text("Biphenyls are a class of organochlorines once used in transformers.", body),
        text("2. Methods", section),
        text("2.1. Application of Hill Criteria", body),
        text("For the purposes of this study, a causal relationship is defined.", body),
        text("Acknowledgments", section),
        text("The authors thank the reviewers for their careful reading of it.", body),
    ]
    assert [(level, title) for level, title, _ in outline(items, 13)] == [
        (1, "Plasma Levels of Biphenyls and Causation"),
        (2, "Abstract"),
        (2, "1. Introduction"),
        (2, "2. Methods"),
        (3, "2.1. Application of Hill Criteria"),
        (2, "Acknowledgments"),
    ]


def test_a_title_whose_look_recurs_is_a_tier():
    # Two lines in the title's look: a tier of bold headings, under which bold at the
    # text's size is a run-in label.
    items = [
        text("Chapter One", H1),
        text("Note", BOLD),
        text("The first chapter introduces the device and its intended uses in detail.", BODY),
        text("Chapter Two", H1),
        text("The second chapter describes how the device is installed and tested.", BODY),
    ]
    assert [title for _, title, _ in outline(items, 11)] == ["Chapter One", "Chapter Two"]


def test_a_long_title_in_the_look_of_a_tier_of_headings_is_one_of_them():
    # A help page's task titles, set larger in bold: one runs to thirteen words, which
    # the tier's look vouches for; as long a line in the text's look stays text.
    long_title = "Create a hyperlink to a location in the current document or Web page"
    items = [
        text("Create a hyperlink to a blank e-mail message", H2),
        text("You can create a hyperlink that opens a new message addressed to someone.", BODY),
        text(long_title, H2),
        text("To link to a location you must first mark the location you link to.", BODY),
        text("Turn on automatic hyperlinks", H2),
        text("Word formats the addresses you type as hyperlinks when the option is on.", BODY),
    ]
    assert [title for _, title, _ in outline(items, 11)] == [
        "Create a hyperlink to a blank e-mail message",
        long_title,
        "Turn on automatic hyperlinks",
    ]
    alone = [items[0], items[1], text(long_title, BOLD), items[3]]
    assert long_title not in [title for _, title, _ in outline(alone, 11)]


def test_a_few_large_plain_lines_over_bold_headings_are_no_tier():
    # A cover's large lines (not bold) above a document whose headings are bold: the bold
    # headings are the tier, the cover's lines are not headings.
    cover = Look(size=20)
    items = [
        text("Annual Assessment Report", cover),
        text("This report is prepared by the assessor for the system owner each year.", BODY),
        text("Version 1.0", cover),
        text("The template was last revised by the program office in the spring.", BODY),
        text("Revision History", cover),
        text("The table below lists the revisions of this template and their dates.", BODY),
    ]
    for number in range(1, 5):
        items += [
            text(f"Assessment area {number}", H1),
            text("The assessor describes the scope, the method and the results found.", BODY),
        ]
    found = [title for _, title, _ in outline(items, 11)]
    assert found == [f"Assessment area {number}" for number in range(1, 5)]


def test_inferred_headings_nest_under_a_styled_title():
    items = [
        heading("Cold store safety standard", 1),
        text("第一章 总则"),
        text("第一条 为加强管理，制定本办法。"),
    ]
    assert outline(items) == [(2, "第一章 总则", ""), (3, "第一条", "为加强管理，制定本办法。")]


def test_a_styled_sibling_number_places_an_unstyled_one_beside_it():
    items = [
        heading("1 Scope", 1),
        heading("1.1 General", 2),
        text("Body text of the general clause that goes on for a while.", BODY),
        text("1.2 Terms", BODY),
        text("Terms and definitions used in this standard follow below.", BODY),
    ]
    assert outline(items) == [(2, "1.2 Terms", "")]


def test_numbers_continue_the_outline_even_without_body_between():
    items = [
        text("1. Section 1"),
        text("1.1. Section 1.1"),
        text("1.2. Section 1.2"),
        text("2. Section 2"),
        text("Closing text of the document, written as a sentence."),
    ]
    assert [(h.level, h.title) for h in infer_outline(items)] == [
        (1, "1. Section 1"),
        (2, "1.1. Section 1.1"),
        (2, "1.2. Section 1.2"),
        (1, "2. Section 2"),
    ]


def test_look_is_asked_only_for_possible_headings():
    asked = []

    def look_of(index: int) -> Look:
        asked.append(index)
        return H1

    items = [
        text("Scope"),
        text("A sentence that is body text and cannot be a heading."),
        OutlineItem(ItemKind.OTHER, "<table>[]</table>"),
    ]
    found = infer_outline(items, 11, look_of)
    assert asked == [0]
    assert found == [InferredHeading(0, 1, "Scope", "")]


def test_a_list_run_ends_where_its_numbers_stop_following_each_other():
    items = [
        text("3.8 TOSCA Entities"),
        text("When defining services we must distinguish between four kinds of entity."),
        text("1. Types define re-usable building blocks for services and components."),
        text("2. Templates define the typed components of one service."),
        text("4 TOSCA Operational Model"),  # not item 3 of that list: a section heading
        text("This section presents the functional architecture of a processor."),
    ]
    assert [h.title for h in infer_outline(items)] == [
        "3.8 TOSCA Entities",
        "4 TOSCA Operational Model",
    ]


def test_a_series_finds_its_members_the_rules_left_out():
    # Controls typed as a Word list without any look: a list item needs the look, but the
    # series AC-1, AC-2 … is evidence enough for each member that continues it.
    items = [
        heading("Access Control (AC)", 1),
        text("AC-1 Policy and Procedures", H2),
        text("The organization develops an access control policy and procedures.", BODY),
        text("AC-2 Account Management", BODY, is_list_item=True),
        text("The organization manages system accounts and their life cycle.", BODY),
        text("AC-3 Access Enforcement", BODY, is_list_item=True),
        text("The system enforces approved authorizations for logical access.", BODY),
        text("AC-3 is reviewed every year by the control owner and the assessor.", BODY),
    ]
    titles = [h.title for h in infer_outline(items, 11)]
    assert titles == [
        "AC-1 Policy and Procedures",
        "AC-2 Account Management",
        "AC-3 Access Enforcement",
    ]


def test_a_series_does_not_take_numbers_that_open_sentences_or_restart_a_list():
    items = [
        text("2.1 Sampling", H2),
        text("The samples are taken at the outlet of every cold room once a week.", BODY),
        text("2.2 million samples were taken in the first year of the programme.", BODY),
        text("1. Open the valve", BODY),
        text("2. Close the valve", BODY),
    ]
    assert [h.title for h in infer_outline(items, 11)] == ["2.1 Sampling"]


def test_a_line_the_table_of_contents_lists_is_a_heading_at_its_level():
    # No look and no number: only the document's table of contents says these are headings.
    items = [
        text("Overview", in_toc=True, toc_level=1),
        text("This guide covers installing and running the service on a server."),
        text("Requirements", in_toc=True, toc_level=2),
        text("A server with four cores and eight gigabytes of memory is enough."),
        text("Plain line that no table lists"),
        text("Some more text about the requirements of the installation here."),
    ]
    assert outline(items) == [(1, "Overview", ""), (2, "Requirements", "")]


def test_within_limits_the_headings_to_the_stretches_given():
    long_text = " ".join(["The operator checks the valve and records the pressure."] * 20)
    items = [
        heading("1 Scope", 1),
        # Set apart, but in a short stretch (a numbered "1.1 Purpose" here would be a member
        # the known headings' series needs, found wherever it stands: test_known_series.py).
        text("Purpose", H2),
        text("Short text.", BODY),
        heading("2 Method", 1),
        text("2.1 Sampling", H2),
        *[text(long_text, BODY) for _ in range(8)],
        text("2.2 Analysis", H2),
        text(long_text, BODY),
    ]
    stretches = long_stretches(items, 800)
    assert stretches == [range(4, len(items))]
    found = infer_outline(items, 11, within=stretches)
    assert [(h.level, h.title) for h in found] == [(2, "2.1 Sampling"), (2, "2.2 Analysis")]


def test_a_short_line_ending_with_a_colon_is_a_title_only_where_its_look_is_strong():
    items = [
        text("Test 1:", H1),
        text("Lists numbered by Word, one item per paragraph, nested two levels deep.", BODY),
        text("The secondary aims are:", BOLD),
        text("Open the valve and read the pressure from the gauge on the left.", BODY),
    ]
    assert [h.title for h in infer_outline(items, 11)] == ["Test 1"]


def test_a_line_set_larger_than_the_text_ending_with_a_colon_introduces_its_section():
    # Larger only (not bold), a closing colon does not make it a run-in label; at the
    # text's size, bold, it is one.
    larger = Look(size=13)
    items = [
        text("Installing the pump:", larger),
        text("Lists numbered by Word, one item per paragraph, nested two levels deep.", BODY),
        text("Checking the seals:", larger),
        text("Open the valve and read the pressure from the gauge on the left.", BODY),
        text("The secondary aims are:", BOLD),
        text("Close the valve and note the time it took the pressure to fall.", BODY),
    ]
    found = infer_outline(items, 11)
    assert [h.title for h in found] == ["Installing the pump", "Checking the seals"]


def test_bold_titles_set_a_step_smaller_than_the_text_are_minor_headings_under_larger_ones():
    # A book sets its chapters larger and bold, their sub-sections bold a step smaller
    # than the text: different titles each over their text, chapter after chapter, a tier
    # of their own. A bold line at the text's size stays a run-in label, and so does a
    # small bold "Note" printed again and again.
    small = Look(bold=True, size=9.5)
    body = "The object carries an identifier and the time it was created at."
    items = [text("The first key", H1), text(body, BODY)]
    for title in ("Meaning of the word", "Signs of reading well"):
        items += [text(title, small), text(body, BODY), text("Note", small), text(body, BODY)]
    items += [text("The second key", H1), text(body, BODY)]
    items += [text("A common mistake", small), text(body, BODY)]
    items += [text("Emphasis at the text's size", BOLD), text(body, BODY)]
    found = infer_outline(items, 11)
    assert [(h.level, h.title) for h in found] == [
        (1, "The first key"),
        (2, "Meaning of the word"),
        (2, "Signs of reading well"),
        (1, "The second key"),
        (2, "A common mistake"),
    ]


def test_a_few_small_bold_titles_inside_one_section_stay_its_emphasis():
    # The parts of one reference list, set bold a step smaller than the text under one
    # larger heading, are that section's emphasis: a tier of minor headings recurs
    # under the document's larger headings.
    small = Look(bold=True, size=9.5)
    body = "The object carries an identifier and the time it was created at."
    items = [text("The first key", H1), text(body, BODY), text("The second key", H1)]
    for title in ("Literature", "Further reading", "Journals"):
        items += [text(title, small), text(body, BODY)]
    found = infer_outline(items, 11)
    assert [h.title for h in found] == ["The first key", "The second key"]


def test_a_title_heading_several_top_sections_is_a_recurring_label():
    # A reference whose real headings went unseen: "Examples" recurs at the top of the
    # outline, so it is a run-in label and not a section; the numbered headings stay.
    body = "The object carries an identifier and the time it was created at."
    items = []
    for n, name in enumerate(("Indicator", "Malware", "Campaign"), start=1):
        items += [text(f"{n} {name}", BOLD), text(body, BODY), text("Examples", BOLD)]
        items += [text(body, BODY)]
    assert [h.title for h in infer_outline(items, 11)] == ["1 Indicator", "2 Malware", "3 Campaign"]
    # Without the numbered headings above them the labels are at the top and are dropped.
    alone = [item for item in items if not item.text[0].isdigit()]
    assert infer_outline(alone, 11) == []


def test_a_recurring_title_the_table_of_contents_lists_is_kept():
    body = "The object carries an identifier and the time it was created at."
    items = [text("Examples", BOLD, in_toc=True, toc_level=1), text(body, BODY)] * 3
    assert [h.title for h in infer_outline(items, 11)] == ["Examples"] * 3


def test_a_line_the_table_of_contents_lists_is_a_heading_though_it_reads_as_a_sentence():
    # The text channel alone takes "…: Tools Used" for a lead-in; the table names it.
    items = [
        text("Other Automated & Misc. Tool Results: Tools Used", in_toc=True, toc_level=2),
        text("The assessors ran these tools against the production servers."),
        text("Other Automated & Misc. Tool Results: Tools Used"),
        text("The same line again, where no table lists it, stays text."),
    ]
    found = infer_outline(items)
    assert [(h.index, h.title) for h in found] == [
        (0, "Other Automated & Misc. Tool Results: Tools Used")
    ]


def test_a_number_alone_the_contents_lists_is_no_heading():
    # A contents lists a heading without text by its number ("3.1 ...... 1"): the body's
    # "3.1" over the term it numbers is no title, as Word counts no heading without text.
    body = "A systematic review of the plant's safety at regular intervals."
    items = [
        text("3 Terms and definitions", BOLD, in_toc=True, toc_level=1),
        text("3.1", in_toc=True, toc_level=2),
        text("periodic safety review"),
        text(body, BODY),
    ]
    assert [h.title for h in infer_outline(items, 11)] == ["3 Terms and definitions"]


def test_an_article_title_the_contents_lists_may_run_past_any_numbered_title():
    # A journal's article: author, title and subtitle on one line of 160 characters, which
    # the journal's contents lists; past LightRAG's 200-character heading limit, no title.
    title = (
        "Eleonore ARMSTER: Media vita in morte sumus. Eine Annäherung an die Frage: "
        '"Warum können wir so unbeschwert leben, wo wir doch wissen, dass wir sterben müssen?"'
    )
    body = "Vorliegende Arbeit stammt aus dem Jahr 2009 und fragt nach der Haltung zum Tod."
    for line, found in ((title, [title]), (title + " Ein Versuch." * 4, [])):
        items = [text(line, Look(size=16), in_toc=True), text(body, BODY)]
        assert len(line) > 150
        assert [h.title for h in infer_outline(items, 12)] == found


def test_a_plain_title_between_paragraphs_is_a_heading_where_nothing_else_can_say():
    # No look, no number, no table of contents: a short title standing alone between two
    # paragraphs of body text is a heading; a recurring label, a link or a lead-in is not.
    paragraph = "The operator checks the valve every morning and records the pressure."
    items = [
        text(paragraph),
        text("Materials and methods"),
        text(paragraph),
        text("Informative comment"),
        text(paragraph),
        text("Informative comment"),
        text(paragraph),
        text("To try it, visit http://example.org/demo"),
        text(paragraph),
        text("The impact is high if—"),
        text(paragraph),
        text("Results"),
        text("Short line."),
    ]
    assert outline(items) == [(1, "Materials and methods", "")]


def test_a_title_of_a_passage_the_document_repeats_is_no_run_in_label():
    # A converter wrote a section twice: its title recurs, each time over the same text.
    # A run-in label recurs over text that differs.
    said = [
        "The operator checks the valve every morning and records the pressure.",
        "The engineer compares the pressure with the value of the day before.",
        "The manager reads the log book at the end of every week of the year.",
    ]
    passage = [text("Concentration of Credit Risk"), text(said[0]), text(said[1])]
    items = [text(said[2]), *passage, text(said[2]), *passage]
    assert outline(items) == [(1, "Concentration of Credit Risk", "")] * 2
    labels = [text(said[2]), *passage, text(said[2]), *passage[:2], text(said[2])]
    assert outline(labels) == []


def test_lettered_sections_set_in_full_width_nest_between_roman_numerals():
    # A commentary typed without styles: Ⅵ, then Ａ/Ｂ (a full-width letter before an
    # ideographic space, no dot), then i./ii.; before, the letters were body text.
    body = "正如哈巴谷所期待的，神答复了他，但却不是只为着先知的益处，也是为了别人可以得知此信息。"
    lines = ["Ⅵ\u3000耶和华的第二个答复", "Ａ\u3000异象", "i. 宣告", "ii. 生与死"]
    lines += ["Ｂ\u3000讥刺诸祸", "i. 掠夺者", "Ⅶ\u3000哈巴谷的诗篇"]
    items = [item for line in lines for item in (text(line), text(body))]
    assert [(level, title) for level, title, _ in outline(items)] == [
        (1, "Ⅵ\u3000耶和华的第二个答复"),
        (2, "Ａ\u3000异象"),
        (3, "i. 宣告"),
        (3, "ii. 生与死"),
        (2, "Ｂ\u3000讥刺诸祸"),
        (3, "i. 掠夺者"),
        (1, "Ⅶ\u3000哈巴谷的诗篇"),
    ]


def test_numbered_steps_parted_by_their_bulleted_sub_items_are_a_list():
    # "1 …" is followed by bullets (content, as body text would be) and "4 …" by a bullet
    # and its lower-case continuation: still items of the numbered list around them.
    items = [
        text("Once the letter is received, the following steps are performed.", BODY),
        text("1 Provider uploads the current versions of the package to a repository", BODY),
        text("● The secure repository for low and moderate packages", BODY),
        text("● The provider's repository for high packages", BODY),
        text("2 Provider completes and submits the initial checklist", BODY),
        text("3 Review team verifies that all package deliverables are uploaded", BODY),
        text("4 Package is placed in the review team's queue", BODY),
        text("● Package reviews typically take ten business days", BODY),
        text("that may slow down the review.", BOLD),
        text("5 Review team sends the draft review report to all stakeholders", BODY),
        text("The review report lists the findings of the review team for each deliverable.", BODY),
    ]
    assert outline(items, 11) == []


def test_a_line_known_to_head_nothing_is_no_heading_but_its_look_sets_a_tier():
    # A cover's bold version line is no heading; set larger and bold, it still shows that
    # bold at the text's size is emphasis here, not a heading ("Stakeholder Role …").
    said = "The following table outlines the roles of the stakeholders in an incident."
    items = [
        text("Version 5.0", H2, titles_nothing=True),
        text("09/12/2024", H2, titles_nothing=True),
        heading("Roles and Responsibilities", 1),
        text(said, BODY),
        text("Stakeholder Role Responsibility", BOLD),
        text(said, BODY),
    ]
    assert outline(items, 11) == []
    assert [title for _, title, _ in outline(items[2:], 11)] == ["Stakeholder Role Responsibility"]


def test_numbered_steps_of_one_name_carrying_their_text_are_a_list():
    # "1. Stufe: …", "2. Stufe: …": one name that only the numbers tell apart, each
    # carrying its text after the colon: the steps of a list. Sections carrying their
    # text so have names of their own (``test_sop_numbered_lines_with_colons``).
    said = "Kohlberg beschreibt die Entwicklung des moralischen Urteils in sechs Stufen."
    items = [
        text("Stufen der Moral", H1),
        text(said, BODY),
        text("1. Stufe: Das Individuum orientiert sich an Trägern von Macht.", BODY),
        text("2. Stufe: Jenes Handeln wird als richtig angesehen, das nützt.", BODY),
        text("3. Stufe: Die Normen der Bezugsgruppe sind Richtschnur des Handelns.", BODY),
        text("Nach Jean Ziegler gibt es Hoffnung, und neue Bewegungen entstehen.", BODY),
    ]
    assert outline(items, 11) == [(1, "Stufen der Moral", "")]
    # Typed plain, the steps stand like a plain document's sections: still a list.
    assert outline([text(item.text) for item in items]) == [(1, "Stufen der Moral", "")]


def test_a_name_under_a_quotation_is_no_lettered_heading_but_a_series_missing_its_a_is():
    # "S. Radhakrishnan" (plain, under the quotation he wrote): an initial, no letter "S."
    # after an "R." nor before a "T.". A run "B.", "C." whose "A." is no title stays one;
    # "V." may be a roman five.
    quoted = "„Die Sünde ist weniger eine Herausforderung Gottes als eine Leugnung der Seele.“"
    said = "Der modernen Psychologie geht es vordergründig nicht um die Psyche als solche."
    items = [
        heading("2. Zum Begriff der Psyche", 1),
        text(quoted),
        text("S. Radhakrishnan"),
        text(said),
        text("B. Within Existing Space"),
        text(said),
        text("C. Detached New Construction"),
        text(said),
        text("V. Marketing Plan"),
        text(said),
    ]
    found = [title for _, title, _ in outline(items)]
    assert found == [
        "B. Within Existing Space",
        "C. Detached New Construction",
        "V. Marketing Plan",
    ]


def test_a_name_whose_initial_is_a_large_roman_numeral_is_no_lettered_heading():
    # An author's line on a paper's first page ("M. Plumb", then the affiliation): M, D, C
    # and L alone would number a 1000th to a 50th part; no later "N." continues it.
    said = "Der modernen Psychologie geht es vordergründig nicht um die Psyche als solche."
    items = [
        heading("Introduction", 1),
        text(said),
        text("M. Plumb Plumbline Coaching and Consulting, Inc., 2759 Park Street, Berkeley"),
        text(said),
        text("D. Jones Department of Epidemiology, Columbia University, New York"),
        text(said),
    ]
    assert outline(items) == []


def test_a_bare_number_over_a_larger_title_heads_nothing():
    # "1. Single item" ends a list right before the next section's larger title: with no
    # look, no text under it and no series, it heads an empty section, so it is no heading.
    title = Look(size=14)
    items = [
        text("Test 7:", title),
        text("The items below are numbered by one list and keep counting.", BODY),
        text("1. Single item of a new list", BODY),
        text("Test 8:", title),
        text("Lists may also take their numbers from the paragraph styles.", BODY),
    ]
    assert outline(items, 11) == [(1, "Test 7", ""), (1, "Test 8", "")]


def test_a_note_numbered_under_a_table_is_its_footnote_unless_the_notes_run_on():
    said = [
        "The operator checks the valve every morning and records the pressure.",
        "The engineer compares the pressure with the value of the day before.",
    ]
    table = OutlineItem(ItemKind.OTHER, "Revenue 10 12 Costs 5 6")
    footnote = text("Note 1 - Amounts in thousands of dollars", BODY)
    assert outline([text(said[0], BODY), table, footnote, text(said[1], BODY)], 11) == []
    # A filing's notes: the next note under the last one's table continues the series.
    notes = [
        text("NOTE 1 - ORGANIZATION", BODY),
        text(said[0], BODY),
        table,
        text("NOTE 2 - ACCOUNTING POLICIES", BODY),
        text(said[1], BODY),
    ]
    assert [title for _, title, _ in outline(notes, 11)] == [
        "NOTE 1 - ORGANIZATION",
        "NOTE 2 - ACCOUNTING POLICIES",
    ]


CONTRACT_PROSE = " ".join(["The contractor keeps the records of every inspection."] * 20)
CONTRACT_ITEM = dict(look=BODY, is_list_item=True)


def contract_appendix_opening() -> list:
    """A contract's styled sections ending with "9. Annexes", and an appendix under it that
    numbers its own parts from "3." again as list items at the text's look (3., 3.1., 3.1.1.,
    3.1.2.)."""
    prose, item = CONTRACT_PROSE, CONTRACT_ITEM
    return [
        heading("1. Subject of the contract", 1),
        text(prose, BODY),
        heading("9. Annexes", 1),
        text("Appendix 4", H2),
        text(prose, BODY),
        text("3. Input data requirements.", **item),
        text("3.1. Programming requirements.", **item),
        text("3.1.1. The system shall send every alarm with its detector's number.", **item),
        text("3.1.2. The system shall name the zone of every alarm it sends.", **item),
    ]


def test_an_appendix_numbering_its_own_parts_again_holds_them_below_it():
    # A contract's styled sections end with "9. Annexes"; its appendix, found in the long
    # stretch under it, numbers its own parts from "3." again, as list items at the text's
    # look, some titles ending with a full stop. A title is followed by its first part (3.
    # over 3.1.), a clause by its sibling or text; the parts nest below the appendix, not
    # beside the contract's sections, and the next appendix closes them.
    prose, item = CONTRACT_PROSE, CONTRACT_ITEM
    items = [
        *contract_appendix_opening(),
        text("3.2. Documentation requirements", **item),
        text("3.2.1. A floor plan is drawn for every floor of the building.", **item),
        text(prose, BODY),
        text("3.2.2. The table of detectors shall meet these requirements:", **item),
        text("3.2.2.1. Every detector has a row of its own in the table.", **item),
        *[text(prose, BODY) for _ in range(4)],
        text("4. Interactive schemes.", **item),
        text("4.1. General provisions.", **item),
        text("4.1.1. Real partitions are made by the alarm system itself.", **item),
        *[text(prose, BODY) for _ in range(4)],
        text("Appendix 5", H2),
        text(prose, BODY),
    ]
    gaps = long_stretches(items, 800)
    found = infer_outline(items, 11.0, within=gaps, long_gaps=gaps)
    assert [(h.level, h.title) for h in found] == [
        (2, "Appendix 4"),
        (3, "3. Input data requirements."),
        (4, "3.1. Programming requirements."),
        (4, "3.2. Documentation requirements"),
        (5, "3.2.2. The table of detectors shall meet these requirements"),
        (3, "4. Interactive schemes."),
        (4, "4.1. General provisions."),
        (2, "Appendix 5"),
    ]
    # Read whole, outside a stretch the styles leave too long, list items stay a list's.
    assert [h.title for h in infer_outline(items, 11.0)] == ["Appendix 4", "Appendix 5"]


def test_a_numbered_line_whose_sentence_runs_on_into_the_next_paragraph_is_no_heading():
    # A page's layout broke each numbered paragraph after its first line: the line, in
    # the text's look, runs on into a paragraph that starts in lower case.
    items = [
        text("§ 5 Exclusion of a product; application.", BOLD),
        text("(a) Any person seeking to have any", BODY),
        text("product excluded from a schedule may apply to the Administrator in writing.", BODY),
        text("(b) An application for any exclusion", BODY),
        text("shall be submitted in triplicate and contain the following information.", BODY),
        text("(c) Exclusions granted", BODY),
        text("The Administrator publishes each exclusion granted in the register.", BODY),
    ]
    # The section's line, set whole in bold, is titled whole (``stopped_titles.py``).
    assert [title for _, title, _ in outline(items, 11)] == [
        "§ 5 Exclusion of a product; application.",
        "(c) Exclusions granted",
    ]


def test_a_numbered_title_over_code_opening_in_lower_case_heads_it():
    # A design document's interfaces: each circled number's title over the interface's
    # code, whose lines open in lower case ("public interface …") and run on in turn; code
    # is no sentence the title's goes on in, however long the title.
    items = [
        text("2.2 数据库操作模块", BODY),
        text("本模块的接口如下，每个接口都是相对独立的，各自实现自己的功能。", BODY),
    ]
    for title, name in (("①查询数据库记录接口", "FindRecord"), ("②请假接口", "Leave")):
        items += [
            text(title, BODY),
            text(f"public interface {name} {{", BODY),
            text("public ResultSet find(MysqlImpl mysql, String name) throws SQLException;", BODY),
            text("}", BODY),
        ]
    assert [title for _, title, _ in outline(items, 11)] == [
        "2.2 数据库操作模块",
        "①查询数据库记录接口",
        "②请假接口",
    ]


def test_a_numbered_title_naming_its_topic_heads_a_paragraph_opening_in_lower_case():
    # "Limits of the flow rate" names a topic (no article leads it, no verb makes it a
    # clause): a title in the text's look, though the paragraph under it opens in lower
    # case; a numbered clause or subject over such a paragraph is the paragraph's first line.
    items = [
        text("4 Pump duty", BODY),
        text("The pump duty is set by the flow and the head of the system.", BODY),
        text("4.1 Limits of the flow rate", BODY),
        text("at rated speed, the flow stays between the minimum and the maximum flow.", BODY),
        text("4.2 Operating range of the motor", BODY),
        text("The motor runs between 80 and 110 per cent of its rated voltage.", BODY),
    ]
    titles = ["4 Pump duty", "4.1 Limits of the flow rate", "4.2 Operating range of the motor"]
    assert [title for _, title, _ in outline(items, 11)] == titles
    assert names_a_topic("Limits of the flow rate")
    for clause in (
        "The pump shall be designed for",
        "Any person seeking to have any",
        "Phenobarbital Enzyme Reagent B. In one liter quantities each",
    ):
        assert not names_a_topic(clause)
    assert not names_a_topic("Пределы расхода насоса")  # read in English only


def test_a_numbered_sentence_left_open_or_joined_on_is_no_topic_over_lower_case_text():
    # Names without an article or a verb the rule knows, yet a sentence: one ends open at a
    # preposition ("… comply with"), the other's next paragraph joins it ("and the head …").
    # Both run on into the paragraph under them, as they did before topics were read.
    for first, second in (
        (
            "4.1 Pumps supplied under this contract comply with",
            "the standards listed in annex B and are tested at the works before delivery.",
        ),
        (
            "4.1 Operators report the flow at rated speed",
            "and the head at the same time, in the log kept for every pump on the site.",
        ),
    ):
        items = [
            text("4 Pump duty", BODY),
            text("The pump duty is set by the flow and the head of the system.", BODY),
            text(first, BODY),
            text(second, BODY),
            text("4.2 Operating range of the motor", BODY),
            text("The motor runs between 80 and 110 per cent of its rated voltage.", BODY),
        ]
        titles = ["4 Pump duty", "4.2 Operating range of the motor"]
        assert [title for _, title, _ in outline(items, 11)] == titles, first
    assert not names_a_topic("Pumps supplied under this contract comply with")


def test_a_numbered_title_may_run_on_into_a_short_second_line():
    # The second line is short, ends no sentence and a numbered line follows it: the
    # title's own second line, not a paragraph's text.
    items = [
        text("3. Source of funding"),
        text("The works are funded from the budget of the city for the year of the contract."),
        text("4. Place and terms of the works"),
        text("The works are carried out at the sites listed in the annex to this specification."),
        text("5. Requirements for the term and scope"),
        text("of the quality guarantee"),
        text("5.1. The guarantee term is 24 months from the acceptance of the works."),
        text("5.2. The contractor corrects the defects found within the term at its own cost."),
    ]
    assert [title for _, title, _ in outline(items)] == [
        "3. Source of funding",
        "4. Place and terms of the works",
        "5. Requirements for the term and scope",
    ]


@pytest.mark.parametrize("is_list_item", [True, False], ids=["list", "typed"])
def test_a_list_numbered_again_inside_a_styled_section_stays_a_list(is_list_item):
    # A procedure's steps and sub-steps in the long stretch under "9. Maintenance": "1."
    # over "1.1." goes back from the section's own number with no unit found since (an
    # appendix numbering its parts again), so it is a step, not a section beside "9.".
    prose = " ".join(["The contractor keeps the records of every inspection."] * 20)
    step = dict(look=BODY, is_list_item=is_list_item)
    items = [
        heading("1. Subject of the contract", 1),
        text(prose, BODY),
        heading("9. Maintenance", 1),
        text(prose, BODY),
        text("1. Switch off the unit.", **step),
        text("1.1. Turn the key to the off position.", **step),
        text("1.2. Wait until the fan stops turning.", **step),
        text("2. Open the cover.", **step),
        text("2.1. Remove the four screws of the cover.", **step),
        *[text(prose, BODY) for _ in range(4)],
    ]
    gaps = long_stretches(items, 800)
    assert gaps and infer_outline(items, 11.0, within=gaps, long_gaps=gaps) == []


def test_the_numbers_above_an_appendix_going_on_close_its_own_parts():
    # The appendix under "9. Annexes" numbers its parts from "3." again; "10." after them
    # is the contract's next section (it follows "9.", not the appendix's "3."), beside "9.".
    prose = CONTRACT_PROSE
    items = [
        *contract_appendix_opening(),
        *[text(prose, BODY) for _ in range(4)],
        text("4. Interactive schemes", BOLD),
        *[text(prose, BODY) for _ in range(4)],
        text("10. Final provisions", BOLD),
        *[text(prose, BODY) for _ in range(4)],
        text("11. Signatures of the parties", BOLD),
        text(prose, BODY),
    ]
    gaps = long_stretches(items, 800)
    assert [
        (h.level, h.title) for h in infer_outline(items, 11.0, within=gaps, long_gaps=gaps)
    ] == [
        (2, "Appendix 4"),
        (3, "3. Input data requirements."),
        (4, "3.1. Programming requirements."),
        (3, "4. Interactive schemes"),
        (1, "10. Final provisions"),
        (1, "11. Signatures of the parties"),
    ]


def test_the_next_number_of_a_series_an_unnumbered_heading_closed_is_its_sibling():
    # "Part 2" follows "Part 1"; unnumbered headings set alike took Part 1's place in
    # between: Part 2 stands where Part 1 stood, not below them.
    cover = Look(bold=True, size=11, centered=True, caps=True)
    prose = "The network grew more complex and more concentrated over the last decade."
    items = [
        text("RETHINKING THE NETWORK", cover),
        text("RETHINKING THE NETWORK", cover),
        text("Part 1: Topology of the Network", BOLD),
        text("Complexity and Stability", BOLD),
        text("(a) Connectivity and Stability", BOLD),
        text("(b) Feedback and Stability", BOLD),
        text("Diversity and Stability", BOLD),
        text("Part 2: Improving Network Stability", BOLD),
        text("(a) Mapping the Network", BOLD),
    ]
    items = [part for item in items for part in (item, text(prose, BODY))]
    levels = {title: level for level, title, _ in outline(items, 11)}
    assert levels["Part 2: Improving Network Stability"] == 2
    assert levels["Part 1: Topology of the Network"] == 2


def test_a_line_set_apart_whose_sentence_goes_on_in_its_look_is_no_heading():
    # A slide's sentence set large, broken over two paragraphs: the first line, in the
    # look of the second that ends the sentence, titles nothing.
    slide, sub, large, item = Look(size=40), Look(size=20), Look(size=24), Look(size=17)
    items = [
        text("Evaluation Methodology", slide),
        text("Evaluation Phases", sub),
        text("Vendors must go through three stages of evaluation to be", large),
        text("prioritized to work with the board toward an authorization.", large),
        text("Phase One: Down Select", sub),
        text("▪ Evaluate the business cases", item),
        text("▪ Present the scoring analysis to the board", item),
        text("Timeline", slide),
        text("Phase One: Scoring", sub),
        text("▪ The board reads every case", item),
    ]
    titles = [title for _, title, _ in outline(items, 11)]
    assert "Vendors must go through three stages of evaluation to be" not in titles
    assert "Phase One: Down Select" in titles


def test_a_short_numbered_title_over_a_paragraph_opening_in_lower_case_stays_a_title():
    # A title of a word or two is no paragraph's first line broken off, though the text
    # under it opens in lower case (a clause read on, a definition, an identifier).
    items = [
        text("1 Scope", BODY),
        text("this standard applies to centrifugal pumps used in the supply of buildings.", BODY),
        text("2 Normative references", BODY),
        text("The following documents are referred to in the text of this standard.", BODY),
        text("3 Definitions", BODY),
        text("abutment: the part of a structure that bears the thrust of an arch.", BODY),
    ]
    titles = ["1 Scope", "2 Normative references", "3 Definitions"]
    assert [title for _, title, _ in outline(items, 11)] == titles


def test_words_of_a_column_heading_title_a_page_over_text_but_never_over_entries():
    # A site manual's "Map Page" titles the page it describes; "Section Page" over the
    # entries of a list (page numbers closing them) or set in columns heads those columns.
    title = Look(bold=True, size=14)
    prose = "The map shows every site of the network with its address and its hours."
    items = [
        text("Map Page", title),
        text(prose, BODY),
        text("Section Page", title),
        text("Introduction ........ 3", BODY),
        text("Scope ........ 4", BODY),
        text("Section   Page", title),
        text(prose, BODY),
        text("Home Page", title),
        text(prose, BODY),
        text("FIGURES", title),
        text("Figure Page", title),
        text("No table of figures entries found.", BODY),
    ]
    assert [title for _, title, _ in outline(items, 11)] == ["Map Page", "Home Page", "FIGURES"]


def test_the_body_numbered_on_after_an_inferred_appendix_is_no_part_of_it():
    body = text("The pumps are sized for the duty point given by the plant's flow.", BODY)
    items = []
    for title in ("1 Scope", "7 Pumps", "7.1 Duty", "Appendix A Pump curves", "A.1 Rig"):
        items += [text(title, H2), body]
    items += [text("7.2 Seals", H2), body, text("8 Motors", H2), body]
    assert [(level, title) for level, title, _ in outline(items, 11)] == [
        (1, "1 Scope"), (1, "7 Pumps"), (2, "7.1 Duty"), (2, "Appendix A Pump curves"),
        (3, "A.1 Rig"), (2, "7.2 Seals"), (1, "8 Motors"),
    ]  # fmt: skip
    # A styled appendix stays where its style puts it, and its parts below it; "7.2"
    # continues "7.1", from before the appendix: no part of it (a reader would see the
    # path "Appendix A > 7.2 Seals"), it stands beside it, as no level can put it back
    # under "7", which the styled appendix closed.
    items[6] = heading("Appendix A Pump curves", 1)
    assert [(level, title) for level, title, _ in outline(items, 11)][3:5] == [
        (2, "A.1 Rig"), (1, "7.2 Seals"),
    ]  # fmt: skip


def test_a_line_set_like_the_styled_headings_of_a_level_is_one_of_that_level():
    # A collection's documents after the last styled chapter of the first: their titles
    # are set like its chapters (three or more styled headings share that look), so each
    # stands beside them, not below the last chapter.
    prose = "本法的解釋權屬於全國人民代表大會常務委員會，修改權屬於全國人民代表大會。" * 12
    chapter = Look(bold=True, size=16)
    items = []
    for title in ("第一章 總則", "第二章 關係", "第三章 附則"):
        items += [OutlineItem(ItemKind.HEADING, title, 1, chapter), text(prose, BODY)]
    items += [text("全國人民代表大會常務委員會公告", chapter), text(prose, BODY)]
    items += [text("一、關於起草的指導方針", BOLD), text(prose, BODY)] * 1
    gaps = long_stretches(items, 100)
    found = infer_outline(items, 11.0, within=gaps, long_gaps=gaps)
    assert [(h.level, h.title) for h in found] == [
        (1, "全國人民代表大會常務委員會公告"), (2, "一、關於起草的指導方針"),
    ]  # fmt: skip
    # Two styled headings in that look are no convention: the title stays below them.
    found = infer_outline(items[2:], 11.0, within=long_stretches(items[2:], 100))
    assert found[0].level == 2


def test_a_line_set_like_the_chapters_inside_a_chapter_numbered_on_closes_nothing():
    # A pull quote set like the styled chapters, in a long stretch of chapter 2 whose
    # styled sections number on after it ("2.1", then "2.2"): "2.2" is no part of it.
    prose = "The pumps are sized for the duty point that the flow at peak demand sets. " * 8
    items = []
    for title, level, look in (("1 Scope", 1, H1), ("2 Methods", 1, H1), ("2.1 Sampling", 2, H2)):
        items += [OutlineItem(ItemKind.HEADING, title, level, look), text(prose, BODY)]
    items += [text("Quality Is Everyone's Job", H1), text(prose, BODY), text(prose, BODY)]
    for title, level, look in (("2.2 Analysis", 2, H2), ("3 Results", 1, H1)):
        items += [OutlineItem(ItemKind.HEADING, title, level, look), text(prose, BODY)]
    gaps = long_stretches(items, 200)
    [quote] = infer_outline(items, 11.0, within=gaps, long_gaps=gaps)
    assert quote.title == "Quality Is Everyone's Job" and quote.level > 2


def test_a_line_set_like_unnumbered_chapters_before_the_next_of_them_closes_nothing():
    # Unnumbered styled chapters: a pull quote set like them inside "Inspections" stays a
    # part of it, since "Penalties" follows; set so after the last of them, a line is one
    # of their level (a_line_set_like_the_styled_headings_of_a_level_is_one_of_that_level).
    prose = "Operators keep records of every inspection for five years, for the authority. " * 8
    items = []
    for title in ("Introduction", "Inspections"):
        items += [OutlineItem(ItemKind.HEADING, title, 1, H1), text(prose, BODY)]
    items += [text(prose, BODY), text("Records Protect Everyone", H1), text(prose, BODY)]
    items += [text(prose, BODY), OutlineItem(ItemKind.HEADING, "Penalties", 1, H1)]
    items += [text(prose, BODY)]
    gaps = long_stretches(items, 200)
    [quote] = infer_outline(items, 11.0, within=gaps, long_gaps=gaps)
    assert quote.title == "Records Protect Everyone" and quote.level > 1


def test_a_unit_inserted_after_a_styled_one_stands_beside_it():
    # "Section 2A" (inserted by an amendment) in the long stretch of the styled "Section 2":
    # a sibling between 2 and 3, not a part of 2.
    prose = text("The fees are paid within thirty days of the invoice's date. " * 12, BODY)
    items = []
    for title in ("Section 1 Scope", "Section 2 Terms"):
        items += [OutlineItem(ItemKind.HEADING, title, 1, H1), prose]
    items += [prose, text("Section 2A Late fees", H1), prose, prose]
    items += [OutlineItem(ItemKind.HEADING, "Section 3 Duties", 1, H1), prose]
    gaps = long_stretches(items, 100)
    found = infer_outline(items, 11.0, within=gaps, long_gaps=gaps)
    assert [(h.level, h.title) for h in found] == [(1, "Section 2A Late fees")]


def test_an_inferred_heading_numbered_on_from_before_a_styled_one_is_no_part_of_it():
    # "3.2" continues "3.1", found before the styled "Safety notice": it is no part of the
    # notice's section, nor are "3.3" and "4" after it; each stands beside the notice.
    prose = text("The pumps are sized for the duty point that the flow at peak demand sets. " * 12)
    items = [text("3 Pumps", H2), prose, text("3.1 Duty", H2), prose]
    items += [OutlineItem(ItemKind.HEADING, "Safety notice", 1, H1), prose]
    for title in ("3.2 Seals", "3.3 Drives", "4 Motors", "4.1 Duty"):
        items += [text(title, H2), prose]
    assert [(level, title) for level, title, _ in outline(items, 11)] == [
        (1, "3 Pumps"), (2, "3.1 Duty"), (1, "3.2 Seals"), (1, "3.3 Drives"), (1, "4 Motors"),
        (2, "4.1 Duty"),
    ]  # fmt: skip


def test_articles_numbered_on_across_styled_chapters_are_parts_of_each():
    # A law numbers its articles on across its chapters: "第三条" after the styled "第二章"
    # continues "第二条" of chapter 1, and is chapter 2's all the same.
    prose = text("国家维护社会主义法制的统一和尊严，一切法律都不得同宪法相抵触。" * 8, BODY)
    items = []
    for chapter, articles in (("第一章 总纲", ("第一条", "第二条")), ("第二章 权利", ("第三条",))):
        items += [OutlineItem(ItemKind.HEADING, chapter, 1, H1)]
        for article in articles:
            items += [text(article, BOLD), prose]
    assert [(level, title) for level, title, _ in outline(items, 11)] == [
        (2, "第一条"), (2, "第二条"), (2, "第三条"),
    ]  # fmt: skip


def test_an_inferred_attachment_in_a_styled_numbered_sections_stretch_stands_beside_it():
    # "Attachment 1" in the long stretch of the styled "4 Payment" (or "Section 4"): the
    # document's back matter beside its top units, not a part of section 4.
    prose = text("The fees are paid within thirty days of the invoice's date. " * 12, BODY)
    for first, last in (("3 Duties", "4 Payment"), ("Section 3 Duties", "Section 4 Payment")):
        items = [OutlineItem(ItemKind.HEADING, first, 1, H1), prose]
        items += [OutlineItem(ItemKind.HEADING, last, 1, H1), prose]
        items += [text("Attachment 1 Forms", BOLD), prose, prose]
        items += [text("Attachment 2 Rates", BOLD), prose]
        gaps = long_stretches(items, 100)
        found = infer_outline(items, 11.0, within=gaps, long_gaps=gaps)
        assert [(h.level, h.title) for h in found] == [
            (1, "Attachment 1 Forms"), (1, "Attachment 2 Rates"),
        ]  # fmt: skip


def test_a_title_the_headings_share_heads_its_section_in_the_texts_look_too():
    # A specification heads each type's table with "Properties" set as a heading; a deeper
    # type's "Properties" stands over its table in the text's look: the same section.
    prose = "A type defined by this specification, with the properties listed in its table."
    table = OutlineItem(ItemKind.OTHER, "<table>[]</table>")
    items = []
    for name in ("Attack Pattern", "Campaign", "Grouping"):
        items += [text(name, H1), text(prose, BODY), text("Properties", H2), table]
    items += [text("Alternate Data Stream Type", BODY), text(prose, BODY)]
    items += [text("Properties", BODY), table, text(prose, BODY)]
    titles = [h.title for h in infer_outline(items, 11.0)]
    assert titles.count("Properties") == 4


def test_a_filings_items_head_their_parts_in_bold_capitals_at_the_texts_size():
    # A quarterly report's "ITEM 1." titles, bold capitals at the text's size under parts
    # set larger, notes below them; each part holds its own "ITEM 1.".
    part, item = Look(bold=True, size=14, caps=True), Look(bold=True, size=11, caps=True)
    items = [
        text("PART I - FINANCIAL INFORMATION", part),
        text("ITEM 1. FINANCIAL STATEMENTS", item),
        text(PROSE, BODY),
        text("Note 1 – Description of Business", BOLD),
        text(PROSE, BODY),
        text("ITEM 2. MANAGEMENT’S DISCUSSION AND ANALYSIS", item),
        text(PROSE, BODY),
        text("PART II - OTHER INFORMATION", part),
        text("ITEM 1. LEGAL PROCEEDINGS", item),
        text(PROSE, BODY),
        text("ITEM 1A. RISK FACTORS", item),
        text(PROSE, BODY),
    ]
    found = [(level, title) for level, title, _ in outline(items, 11)]
    assert [title for _, title in found] == [
        "PART I - FINANCIAL INFORMATION",
        "ITEM 1. FINANCIAL STATEMENTS",
        "Note 1 – Description of Business",
        "ITEM 2. MANAGEMENT’S DISCUSSION AND ANALYSIS",
        "PART II - OTHER INFORMATION",
        "ITEM 1. LEGAL PROCEEDINGS",
        "ITEM 1A. RISK FACTORS",
    ]
    levels = dict((title, level) for level, title in found)
    assert levels["PART II - OTHER INFORMATION"] < levels["ITEM 1. LEGAL PROCEEDINGS"]
    assert levels["ITEM 1. FINANCIAL STATEMENTS"] < levels["Note 1 – Description of Business"]


@pytest.mark.parametrize("mark", ["", "— "])
def test_a_tab_after_a_units_label_parts_it_from_its_title(mark):
    # A converter sets a wider gap after "ITEM 5." than a word space (a tab), and a bullet
    # may decorate the label; a contents entry's tab before its page number still is no title.
    item = Look(bold=True, size=11, caps=True)
    items = [
        text(f"{mark}ITEM 4. MINE SAFETY DISCLOSURES", item),
        text(PROSE, BODY),
        text(f"{mark}ITEM 5.\tMARKET FOR REGISTRANT’S COMMON EQUITY", item),
        text(PROSE, BODY),
        text("Holders of Record", BOLD),
        text(PROSE, BODY),
        text("Item 6.\tExhibits\t21", BODY),
    ]
    titles = [title for _, title, _ in outline(items, 11)]
    assert f"{mark}ITEM 5. MARKET FOR REGISTRANT’S COMMON EQUITY" in titles
    assert not any("Exhibits" in title for title in titles)


def test_a_bold_line_at_the_texts_size_alone_between_a_units_paragraphs_is_its_sub_head():
    # Under a filing's "ITEM 3." (bold capitals at the text's size, parts set larger), its
    # sub-heads are bold at the text's size, each alone between paragraphs. A bold line in
    # the unit's own look is no sub-head of it, nor is a run-in label (over a list, or
    # opening the unit's text), nor a bold line where no unit stands above it (the larger
    # tier makes it a label).
    part, item = Look(bold=True, size=14, caps=True), Look(bold=True, size=11, caps=True)
    items = [
        text("SPECIAL NOTE ON FORWARD-LOOKING STATEMENTS", part),
        text(PROSE, BODY),
        text("Market Overview", BOLD),
        text(PROSE, BODY),
        text("PART I - FINANCIAL INFORMATION", part),
        text(PROSE, BODY),
        text("ITEM 3. QUANTITATIVE AND QUALITATIVE DISCLOSURES", item),
        text("Note", BOLD),
        text(PROSE, BODY),
        text("Interest Rate Risk", BOLD),
        text(PROSE, BODY),
        text("Foreign Currency Risk", BOLD),
        text(PROSE, BODY),
        text("Risks we manage", BOLD),
        text("• rates", BODY),
        text("• currencies", BODY),
        text(PROSE, BODY),
        text("CONDENSED STATEMENTS OF OPERATIONS", item),
        text(PROSE, BODY),
        text("PART II - OTHER INFORMATION", part),
        text(PROSE, BODY),
    ]
    found = {title: level for level, title, _ in outline(items, 11)}
    assert "Interest Rate Risk" in found and "Foreign Currency Risk" in found
    assert found["ITEM 3. QUANTITATIVE AND QUALITATIVE DISCLOSURES"] < found["Interest Rate Risk"]
    labels = {"Note", "Market Overview", "Risks we manage", "CONDENSED STATEMENTS OF OPERATIONS"}
    assert not labels & set(found)


def test_the_ninth_lettered_section_is_the_sibling_of_the_eighth():
    # A handbook's budget lines, lettered in the text's look: "i." after "h." is the ninth
    # letter, not a first roman item below "h.".
    body = "This line item includes the charges for the service named, with the limits set."
    lines = ["3. OPERATING EXPENSES", "g. Noticing", "h. Telephone", "i. Postage"]
    items = [item for line in lines for item in (text(line), text(body))]
    assert [(level, title) for level, title, _ in outline(items)] == [
        (1, "3. OPERATING EXPENSES"),
        (2, "g. Noticing"),
        (2, "h. Telephone"),
        (2, "i. Postage"),
    ]
