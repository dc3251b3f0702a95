"""Lines no reader calls a title head no inferred section, whatever their look; a styled
heading of the same text stays one."""

from __future__ import annotations

import pytest

from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem, infer_outline
from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.non_titles import (
    is_date_line,
    is_persons_line,
    opens_a_sentence,
    reads_as_code_or_data,
    reads_as_no_title,
    reads_without_words,
)
from lightrag_pchunk.outline.page_references import refers_on

from outline_items import BODY, BOLD, H1, H2, PROSE, UNSEEN_TITLES, text, titles


def _between_headings(line: str, look: Look) -> list[OutlineItem]:
    return [
        text("Overview", H1),
        text(PROSE),
        text(line, look),
        text(PROSE),
        text("Decisions", H2),
        text(PROSE),
    ]


@pytest.mark.parametrize(
    ("line", "look"),
    [
        # A person's line: a byline, the office written in one run with the name.
        ("基本法起草委員會主任委員姬鵬飛", H2),
        ("全國人大常委會副秘書長\u3000李飛", H2),
        ("Emily Ratliff (emily.ratliff@ibm.com), IBM", H2),
        # A date line: when and where a speech was given.
        ("2014年8月27日在第十次會議上", H2),
        ("27 August 2014 at the Tenth Session of the Standing Committee", H2),
        # Code or data: a documented package's numbered code line, an assignment.
        ("340 \\let\\btxjournalfont=\\@empty", BODY),
        ("let total = 0", H2),
        ("$ man 1 bash", H2),  # a command after a shell's prompt
        # A YAML mapping's key alone before its colon, its value on the lines below.
        ("example1:", H2),
        ("node_types:", H2),
        # A sentence's first line, broken off at the line's end on a word leaving it open.
        (
            "3.2 The curveTo method starts painting a Bezier curve from the brush location, using",
            BODY,
        ),
        # A paragraph's first line, broken off at a word a hyphen cuts at the line's end.
        ("Disregarded entities and qualified subchapter S sub-", H2),
        ("2. If you did not withhold income tax from the employ-", H2),
        # Text without words: an axis's labels, a table's row of figures.
        ("22.12월 23.12월 24.1월 2월", H2),
        ("BM25 + DPR 78.0 79.9 74.7", H2),
        # Options of a question set in columns, read across.
        ("A Beirut B Berlin C Beijing D Banjul E Bangkok", H2),
    ],
)
def test_a_line_no_reader_calls_a_title_heads_no_section(line: str, look: Look) -> None:
    assert titles(_between_headings(line, look)) == ["Overview", "Decisions"]


def test_the_same_line_styled_is_a_heading() -> None:
    items = _between_headings("2014年8月27日在第十二屆全國人民代表大會常務委員會第十次會議上", H2)
    items[2] = OutlineItem(ItemKind.HEADING, items[2].text, 2, H2)
    assert titles(items) == ["Overview", "Decisions"]  # the styled one is no inferred heading
    assert [found.level for found in infer_outline(items, 11)] == [1, 3]


@pytest.mark.parametrize(
    "line",
    [
        "主席致辭",  # the chairman's address: a speech's title, no byline
        "委員長會議",  # the council of chairmen: a body
        # A section's number after a list's glyph: its points are no characters.
        "● 3.7.2.4 QoS",
        "● C.6.2.3 DUP",
        "院长寄语",  # the dean's message: an office, then what it gives, no body before it
        "总理答问",  # the premier answers questions
        "2014年8月27日",  # a date alone heads a diary's entry
        "March 3, 2020",
        "2020年3月12日會議紀要",  # a date, then what the text is: a title
        "Step 1: Install the agent",
        "A Tale of Two Cities",
        "What to look for",  # a short title may end on a preposition
        "$5 million for the new library",
        "Part 1 –",  # a dash set apart
        "Pre- and post-war housing",  # a word's hyphen before its other half
        # A title holding an equation: its LaTeX is no code of the line's own.
        '2. 标题内包含公式 <equation format="latex">x=\\frac{-b}{2a}</equation>',
    ],
)
def test_titles_that_look_like_such_lines_stay_titles(line: str) -> None:
    assert not reads_as_no_title(line)


def test_one_predicate_per_reason() -> None:
    assert is_persons_line("基本法起草委員會主任委員姬鵬飛")
    assert not is_persons_line("主任委員會議")
    assert is_date_line("2014年8月27日在第十二屆全國人民代表大會常務委員會第十次會議上")
    assert not is_date_line("2014年8月27日全國人大常委會決定")
    assert is_date_line("27 maart 2014 in de Tweede Kamer")  # a month in any language known
    assert reads_as_code_or_data("x = 0", None)
    assert reads_as_code_or_data("$ command-in-user-account", None)
    assert opens_a_sentence(
        "The borderStyle argument changes the 3D look of the widget on the page alternatives are"
    )
    assert reads_without_words("BM25 + DPR 78.0 79.9 74.7", None)


@pytest.mark.parametrize("line", UNSEEN_TITLES)
def test_titles_of_unseen_documents_head_their_sections(line: str) -> None:
    assert not reads_as_no_title(line)
    assert titles(_between_headings(line, H2)) == ["Overview", line, "Decisions"]


@pytest.mark.parametrize(
    ("line", "title"),
    [
        ("Examples:", "Examples"),  # a lead-in's word, no key of data
        ("macOS:", "macOS"),  # a product's name, its capitals closing it: its steps below
    ],
)
def test_a_lead_in_alone_before_its_colon_heads_its_section(line: str, title: str) -> None:
    assert titles(_between_headings(line, H2)) == ["Overview", title, "Decisions"]


@pytest.mark.parametrize(
    "line",
    [
        "int count; char letter",  # a ";" beside a keyword
        "for (i = 0; i < n; i++)",  # beside an "="
        "free(buffer); exit(1)",  # beside a call
        "Status: Draft",  # a form's label and its value
        "Author: Smith",
        "Schema Name: order-status-v2",  # a field named in two words, an identifier's value
        "Field Id: user_name",
        "12 May 2023 in Geneva",  # where it happened
        # A variable set to a value in typographic quotes, as a PDF prints a shell's line.
        "CPPFLAGS=’-isystem $LOCAL/include’",
        "CC=“gcc -m32”",
    ],
)
def test_code_fields_and_date_lines_near_those_titles_stay_refused(line: str) -> None:
    assert reads_as_no_title(line)


@pytest.mark.parametrize(
    ("line", "title"),
    [
        # A procedure's list of related documents: each cited by its name and its code.
        ("6.1 《持续改善管理程序》 C2GM-Z11-000", False),
        ("7.1《管理评审报告》 ZSCM-FOR-0109", False),
        ("2. 《制版作业指导书》", False),  # a list of the instructions to follow
        # A title naming a document, with words of its own.
        ("2．《律师函》发送及送达情况", True),
        ("3.《安全生产法》 2021年修订要点", True),
    ],
)
def test_a_document_cited_with_its_code_is_no_title(line: str, title: bool) -> None:
    assert reads_as_no_title(line) is not title


def test_a_month_name_that_is_a_word_leaves_a_number_its_label() -> None:
    # In the body's look, only their numbering makes these lines sections.
    items = [text("Overview", H1), text(PROSE)]
    for line in ("3 Venus missions", "4 Mars missions", "5 Jupiter missions"):
        items += [text(line), text(PROSE)]
    assert titles(items) == [
        "Overview",
        "3 Venus missions",
        "4 Mars missions",
        "5 Jupiter missions",
    ]
    assert parse_label("4 mars 2021") is None  # a date, in the language whose month it is
    assert parse_label("12 May") is None


def test_a_tables_rows_of_a_label_and_its_count_head_no_section() -> None:
    # A table read as lines, one label's cell wrapped over three lines; alone, such a line
    # is a title naming an amount.
    rows = ["工商、金融界 200人", "專業界 200人", "勞工、社會服務、宗教等界 200人"]
    rows += [
        "立法會議員、區域性組織代表、",
        "香港地區全國人大代表、",
        "香港地區全國政協委員的代表 200人",
    ]
    items = [text("Overview", H1), text(PROSE), *(text(row, H2) for row in rows), text(PROSE)]
    assert titles(items) == ["Overview"]
    alone = [text("Overview", H1), text(PROSE), text("Early Bird Discount 15%", H2), text(PROSE)]
    assert titles(alone) == ["Overview", "Early Bird Discount 15%"]


def test_a_glossarys_cross_reference_heads_no_part_of_its_definitions():
    # A handbook's definitions, each term in capitals at the start of its paragraph; one
    # entry only sends the reader on to another term: set alone in bold, it is no title.
    items = [
        OutlineItem(ItemKind.HEADING, "1.5 Definitions", 2, H2),
        text("GRIEVANCE means an issue raised by an employee about the conditions of work."),
        text("INTERMITTENT LEAVE is leave taken in separate blocks of time for one reason."),
        text("JOB (see POSITION)", BOLD),
        text("LEGAL GUARDIAN means a person appointed by a court to guard a child's interests."),
        text("POSITION means the tasks and duties regularly assigned to one person at work."),
        text("PROMOTION means the move of an employee to a higher class with a higher salary."),
    ]
    assert titles(items) == []
    assert refers_on("LEAVE (SEE ALSO ABSENCE)")
    assert not refers_on("Scoring (see Annex B)")  # a title saying where more is told
