"""Tables of contents written as plain lines."""

from __future__ import annotations

from lightrag_pchunk.outline.page_references import is_toc_line, strip_page_reference
from lightrag_pchunk.outline.toc import (
    is_body_text,
    is_toc_title,
    listing_runs,
    literal_toc_runs,
    toc_end,
)
from lightrag_pchunk.outline.toc_match import title_keys, toc_listed
from lightrag_pchunk.parse.outline_events import Event, EventKind, Line, mark_toc


def test_titles():
    for title in (
        "Contents",
        "TABLE OF CONTENTS",
        "目录",
        "目 次",
        "Inhaltsverzeichnis",
        "# Contents",
        "List of Figures",  # Word's table of figures: a contents of the figures
        "LIST OF TABLES",
        "List of Equations",
    ):
        assert is_toc_title(title), title
    assert not is_toc_title("Contents of the box")
    assert not is_toc_title("List of figures of merit")


def test_a_titled_run_of_page_referenced_lines():
    lines = [
        "Preface text.",
        "目录",
        "第一章 总则\t1",
        "第二章 职责\t3",
        "第三章 附则\t9",
        "第一章 总则",
    ]
    assert literal_toc_runs(lines) == [(1, 5)]


def test_an_untitled_run_needs_five_leader_lines():
    four = [f"Section {i} ........ {i * 3}" for i in range(1, 5)]
    assert literal_toc_runs(four) == []
    five = [*four, "Section 5 ........ 15"]
    assert literal_toc_runs(["Intro", *five, "Body"]) == [(1, 6)]


def test_a_part_heading_inside_the_toc_keeps_the_run_together():
    lines = ["Contents", "1 Scope\t1", "Part II", "2 Terms\t4", "3 Method\t7", "Body text here."]
    assert literal_toc_runs(lines) == [(0, 5)]


def test_two_entries_are_not_a_table_of_contents():
    assert literal_toc_runs(["Contents", "1 Scope\t1", "2 Terms\t4", "Body"]) == []


def test_a_titled_run_of_entries_without_page_numbers():
    lines = [
        "目录",
        "1 范围",
        "2 规范性引用文件",
        "3 试验条件",
        "1 范围",
        "本规程规定了试验的条件。",
    ]
    assert literal_toc_runs(lines) == [(0, 4)]


def test_a_titled_run_of_entries_with_leaders_but_no_page_numbers():
    # The leaders typed, the page numbers never filled in (or lost with their field).
    lines = [
        "目录",
        "第一部分 入所须知………………………………………",
        "第二部分 行为规范……………………………………….",
        "一、着装……………………………………………………",
        "Chapter 3 Results . . . . . . . . . .",
        "第一部分 入所须知",
        "事务所实行每周五天工作制，员工应当遵守本所的各项规章制度，按时上下班。",
    ]
    assert literal_toc_runs(lines) == [(0, 5)]


def test_headings_with_body_text_between_them_are_no_entries():
    lines = [
        "Contents",
        "AC-1 Policy and Procedures",
        "The organization develops and documents an access control policy.",
        "AC-2 Account Management",
        "The organization manages information system accounts.",
    ]
    assert literal_toc_runs(lines) == []


def test_a_marked_table_of_contents_ends_where_body_text_starts():
    assert toc_end(["1 Scope\t3", "2 Terms\t5"]) == 2
    # The field's end was lost: the heading that opens the body is no entry either.
    lines = ["1 Scope\t3", "2 Terms\t5", "1 Scope", "This standard applies to cold stores."]
    assert toc_end(lines) == 2
    assert not is_body_text("4.1. Model architecture.")  # an entry with a full stop
    assert is_body_text("Write this section last.")


def test_lines_are_matched_to_the_entries_in_order():
    entries = ["Overview\t1", "Properties\t2", "Relationships\t3", "Properties\t7"]
    lines = ["Overview", "Some text.", "PROPERTIES", None, "Relationships", "Properties", "Other"]
    assert toc_listed(entries, title_keys(lines)) == [0, None, 1, None, 2, 3, None]


def test_a_line_matches_an_entry_without_the_numbering_the_entry_shows():
    # A heading that lost its style lost the numbering its style gave: "Motivation" in the
    # body is the TOC's "1.1 Motivation".
    entries = ["1\tIntroduction\t9", "1.1\tMotivation\t9", "2\tMethods\t15"]
    lines = ["Introduction", "We start.", "1.1 Motivation", "Methods"]
    assert toc_listed(entries, title_keys(lines)) == [0, None, 1, 2]
    # An entry without a label is matched whole only: "Scope" is not "2 Scope".
    assert toc_listed(["Scope\t3"], title_keys(["2 Scope"])) == [None]


def test_a_list_of_figures_does_not_carry_the_matching_past_the_headings():
    entries = ["1\tIntroduction\t1", "2\tDesign\t4", "3\tResults\t9", "Figure 1: Layout\t5"]
    lines = ["Introduction", "Figure 1: Layout", "Design", "Results"]
    assert toc_listed(entries, title_keys(lines)) == [0, None, 1, 2]


def test_a_short_line_far_from_the_entries_matched_last_is_not_matched_without_its_number():
    entries = ["6.1.1 get_input\t150", "6.1.1.1 Grammar\t150", "6.1.1.2 Arguments\t151"]
    entries += [f"6.1.{n} function_{n}\t{151 + n}" for n in range(2, 9)] + ["6.2.2 or\t161"]
    lines = ["6.1.1 get_input", "6.1.1.1 Grammar", "or", "6.1.1.2 Arguments"]
    assert toc_listed(entries, title_keys(lines)) == [0, 1, None, 2]


def test_a_chinese_title_spaced_out_on_its_page_matches_its_entry():
    # "前　　言" set wide as a page's title is the contents' "前言"; the entry's space
    # before a bracket is no difference either. Latin titles keep their spaces.
    entries = ["前言\tII", "1 范围\t1", "附录A （资料性附录） 安全要素关联矩阵\t7", "Scope\t9"]
    lines = ["前\u2003\u2003言", "1 范围", "附录A（资料性附录）安全要素关联矩阵", "Sc ope"]
    assert toc_listed(entries, title_keys(lines)) == [0, 1, 2, None]


#: A newsletter: its sections are listed at the top, each a link to a line further down.
NEWSLETTER = [
    "IN THIS ISSUE – Click below to go directly to section",
    "• CALL FOR ABSTRACTS",
    "• FUNDING OPPORTUNITIES",
    "• NEWS AND NOTICES",
    "• RESEARCH FINDINGS",
    "CALL FOR ABSTRACTS <sup>TOP</sup>",
    "DEADLINE EXTENDED: POLICY CONFERENCE",
    "The deadline for the submission of abstracts has been extended to May 16.",
    "FUNDING OPPORTUNITIES <sup>TOP</sup>",
    "About $10,500,000 will be available in fiscal year 2004 to fund 8 to 12 awards.",
    "NEWS AND NOTICES <sup>TOP</sup>",
    "The institute moved to new offices; its telephone numbers stay the same.",
    "RESEARCH FINDINGS <sup>TOP</sup>",
    "Programs that take children on tours of prisons do not prevent crime.",
]


def test_a_list_of_the_titles_of_the_sections_after_it_is_a_contents():
    # Its title-like title goes with it; the run ends where the first section starts.
    assert listing_runs(NEWSLETTER) == [(0, 5)]
    listed = toc_listed(NEWSLETTER[1:5], title_keys(NEWSLETTER))
    assert [NEWSLETTER[i] for i, entry in enumerate(listed) if entry is not None][-4:] == [
        "CALL FOR ABSTRACTS <sup>TOP</sup>",
        "FUNDING OPPORTUNITIES <sup>TOP</sup>",
        "NEWS AND NOTICES <sup>TOP</sup>",
        "RESEARCH FINDINGS <sup>TOP</sup>",
    ]


def test_a_list_whose_items_recur_in_lists_or_out_of_order_is_no_contents():
    # The same items in another list later (a document of list examples), and a list
    # whose titles come back out of its order: no contents.
    lists = ["• List item 1", "• List item 2", "• List item 3", "Some text between them."]
    assert listing_runs(["Test 1:", *lists, "Test 2:", *lists]) == []
    shuffled = [NEWSLETTER[0], *NEWSLETTER[1:5][::-1], *NEWSLETTER[5:]]
    assert listing_runs(shuffled) == []
    # Two titles of four recur: not most of them.
    half = [*NEWSLETTER[:5], *NEWSLETTER[5:8], "NEWS AND NOTICES", "Text."]
    assert listing_runs(half) == []


def test_a_stack_of_headings_repeated_in_every_chapter_is_no_contents():
    # Each chapter opens with the same headings one under the other, then text: the stack
    # of one chapter recurs in the next ones, but its headings have no text between them
    # there either, so it lists no sections.
    text = "The operator shall keep the records of each inspection for five years at least."
    stack = ("General provisions", "Duties of the operator", "Purpose of the rules")
    lines = [line for n in range(1, 7) for line in (f"Chapter {n} of the manual", *stack, text)]
    assert listing_runs(lines) == []


def test_a_line_matches_an_entry_that_adds_a_subtitle_after_a_dash():
    # The contents names a section's main item after its title: the section's own title
    # line is the entry. A hyphen inside a word parts no subtitle.
    entries = [
        "• CALL FOR ABSTRACTS",
        "• CONFERENCES/TRAINING– IASWR META-ANALYSIS METHODS TRAINING",
        "• FUNDING OPPORTUNITIES",
    ]
    lines = [
        "CALL FOR ABSTRACTS",
        "Text.",
        "CONFERENCES/TRAINING",
        "Text.",
        "FUNDING OPPORTUNITIES",
    ]
    assert toc_listed(entries, title_keys(lines)) == [0, None, 1, None, 2]
    assert toc_listed(["Meta-analysis methods\t3"], title_keys(["Meta"])) == [None]
    assert toc_listed(["Results - main findings\t3"], title_keys(["Results"])) == [0]
    # As a title without its number, only near the entries matched last.
    far = [f"Section {n}\t{n}" for n in range(1, 6)] + ["Methods – training\t9"]
    assert toc_listed(far, title_keys(["Section 1", "Methods"])) == [0, None]


def test_an_author_under_the_title_the_contents_follows_with_a_dash_is_a_byline():
    # "Author – Title": the body sets the title, then the author's name under it.
    entries = ["John Smith – On Ethics\t3", "Mary Jones – The Good Life\t9"]
    lines = ["On Ethics", "John Smith", "Text.", "The Good Life", "Mary Jones", "Text."]
    assert toc_listed(entries, title_keys(lines)) == [None] * 6


def test_a_journal_contents_with_slashed_page_numbers_and_a_noted_title():
    # Under its title, entries whose page number follows a slash; the body's title keeps
    # the asterisk of its note, which the contents leaves out.
    lines = ["Inhalt", "Tom KELLY: To the Members / 2", "Reiner SEIBOLD: Ego States / 4"]
    lines += ["Günter LANGWIELER: Unde Bonum? / 9", "Tom KELLY: To the Members"]
    assert literal_toc_runs(lines) == [(0, 4)]
    assert toc_listed(
        lines[1:4], title_keys(["Tom KELLY: To the Members", "Günter LANGWIELER: Unde Bonum? *"])
    ) == [0, 2]
    # An asterisk leading a line is its bullet: a list item naming a title is no heading.
    bulleted = ["* Tom KELLY: To the Members", "Tom KELLY: To the Members"]
    assert toc_listed(lines[1:4], title_keys(bulleted)) == [None, 0]


def test_column_headings_between_the_title_and_the_entries_keep_the_run_titled():
    lines = [
        "CONTENTS",
        "Section Page",
        "FIGURES ........ i",
        "TABLES ........ ii",
        "SECTION 1 Introduction ........ 1",
        "SECTION 1 Introduction",
    ]
    assert literal_toc_runs(lines) == [(0, 5)]
    assert literal_toc_runs(["Contents", "页码", *lines[2:]]) == [(0, 5)]
    # Column headings without a contents title above them title nothing.
    assert literal_toc_runs(lines[1:]) == []


def test_a_short_leader_run_is_a_contents_when_its_titles_follow_it_in_order():
    entries = ["Scope ........ 2", "Terms ........ 2"]
    assert literal_toc_runs([*entries, "Scope", "Some text.", "Terms"]) == [(0, 2)]
    # Titles that do not all follow, or follow out of order, list nothing.
    assert literal_toc_runs([*entries, "Scope", "Some text."]) == []
    assert literal_toc_runs([*entries, "Terms", "Scope"]) == []


def test_an_untitled_run_of_tab_entries_is_a_contents_when_its_titles_follow_it_in_order():
    # A contents printed without a title, a tab (a gap) before each page number, no
    # leaders: five entries whose titles all stand below it, in order, are a contents.
    titles = ["Preface", "Scope", "Terms", "Method", "Results"]
    entries = [f"{title.upper()}\t{2 * i + 3}" for i, title in enumerate(titles)]
    body = [line for title in titles for line in (title, "Some text.")]
    assert literal_toc_runs(["Standard 3.0", *entries, *body]) == [(1, 6)]
    # Fewer than five, or titles that do not all follow in order, list nothing.
    assert literal_toc_runs([*entries[:4], *body]) == []
    assert literal_toc_runs([*entries, *body[2:]]) == []


def test_a_listing_followed_by_sections_of_long_paragraphs_is_marked_as_a_contents():
    # The text between the sections' titles is long (a notice's whole text in one
    # paragraph): it is body text all the same, which tells the sections from the list.
    long_text = " ".join(["The deadline for the submission of abstracts has been extended."] * 6)
    assert len(long_text) > 300
    starts = ("The ", "About ", "Programs ")
    lines = [long_text if line.startswith(starts) else line for line in NEWSLETTER]
    events = [Event(Line(text), kind=EventKind.PARAGRAPH) for text in lines]
    mark_toc(events)
    assert [e.line.text for e in events if e.kind is EventKind.TOC] == NEWSLETTER[:5]


def test_an_index_entry_lists_its_pages_a_decimal_comma_is_no_list():
    assert strip_page_reference("Factors . . . . . . 17, 57") == "Factors"
    assert strip_page_reference("Options\t2, 9, 40") == "Options"
    # "822,98" is an amount: no list of pages, and no leaders before it.
    assert not is_toc_line("Итого\t822,98")
    assert not is_toc_line("Items 1, 2, 3")


def test_a_table_inside_a_contents_parts_it_and_stays_a_table():
    # Two entries of a long contents read as a table (a wrapped title beside its number):
    # the entries on either side are the contents still; the table is none of it.
    texts = ["Guide", "Contents", *(f"{n} Section {n}\t{n * 2}" for n in range(1, 6))]
    texts += ['<table id="t1">[["6", "Section 6 . . . . 12"]]</table>']
    texts += [*(f"{n} Section {n} . . . . {n * 2}" for n in range(7, 12)), "1 Section 1"]
    events = [Event(Line(text), kind=EventKind.PARAGRAPH) for text in texts]
    events[7].kind = EventKind.LINE
    mark_toc(events)
    kinds = [e.kind for e in events]
    assert kinds[2:7] == [EventKind.TOC] * 5 and kinds[8:13] == [EventKind.TOC] * 5
    assert kinds[7] is EventKind.LINE
    assert kinds[13] is EventKind.PARAGRAPH and kinds[0] is EventKind.PARAGRAPH


def test_a_heading_over_a_list_of_its_own_inside_a_contents_parts_two_lists():
    # A list of figures after the contents, its title a heading (a tagged or bookmarked
    # title): both lists are contents; a heading with fewer entries after it parts none.
    texts = ["Contents", *(f"Chapter {n} Part {n}\t{n * 4}" for n in range(1, 5))]
    texts += ["List of Figures", *(f"Figure {n}: Plan {n}\t{n * 3}" for n in range(1, 5))]
    events = [Event(Line(text), kind=EventKind.PARAGRAPH) for text in texts]
    for index in (0, 5):
        events[index] = Event(Line(texts[index]), level=1, heading=texts[index])
    mark_toc(events)
    kinds = [e.kind for e in events]
    assert kinds[1:5] == [EventKind.TOC] * 4 and kinds[6:] == [EventKind.TOC] * 4
    short = [Event(Line(text), kind=EventKind.PARAGRAPH) for text in texts[:8]]
    short[0], short[5] = events[0], Event(Line("Figures"), level=1, heading="Figures")
    mark_toc(short)
    assert EventKind.TOC not in [e.kind for e in short]


def test_a_line_opening_on_a_small_letter_matches_no_entry_opening_on_a_capital():
    # A manual's contents lists the class "IRect"; the "irect" before it is a parameter
    # of the class above (its definition list), not the class's title: the entry waits for
    # its own line. Titles that open alike in case match whatever their other letters.
    entries = ["Colorspace\t10", "Device\t11", "IRect\t17", "iOS notes\t19"]
    lines = ["Colorspace", "irect", "Device", "IRect", "iOS Notes"]
    assert toc_listed(entries, title_keys(lines)) == [0, None, 1, 2, 3]
