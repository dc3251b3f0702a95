"""Lines no reader calls a title head no inferred section, whatever their look; a styled
heading of the same text stays one."""

from __future__ import annotations

import pytest

from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem, infer_outline
from lightrag_pchunk.outline.line_runs import in_a_numbered_listing, in_a_run_of_options
from lightrag_pchunk.outline.non_titles import (
    is_date_line,
    is_persons_line,
    opens_a_sentence,
    reads_as_code_or_data,
    reads_as_no_title,
    reads_without_words,
)

BODY = Look(size=11)
H1 = Look(bold=True, size=16)
H2 = Look(bold=True, size=14)
BOLD = Look(bold=True, size=11)
PROSE = "The committee met to hear the report and discussed it at length before voting."


def text(line: str, look: Look | None = BODY) -> OutlineItem:
    return OutlineItem(ItemKind.TEXT, line, look=look)


def titles(items: list[OutlineItem]) -> list[str]:
    return [found.title for found in infer_outline(items, 11)]


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
        # A sentence's first line, broken off at the line's end on a word leaving it open.
        (
            "3.2 The curveTo method starts painting a Bezier curve from the brush location, using",
            BODY,
        ),
        # Text without words: an axis's labels; a table's row of a label and its count.
        ("22.12월 23.12월 24.1월 2월", H2),
        ("香港地區全國政協委員的代表 200人", H2),
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


def test_options_of_a_question_head_no_section() -> None:
    items = [
        text("History", H1),
        text("Question 1 Which of the following events are taking place during the year 1850?"),
        text("A Napoleon Bonaparte crosses the Alps", H2),
        text("B First horse-drawn omnibuses established in London", H2),
        text("C American Express is founded by Henry Wells", H2),
        text("D Kwang-su becomes emperor of China", H2),
        text(PROSE),
    ]
    assert titles(items) == ["History"]


def test_lines_of_a_numbered_listing_head_no_section() -> None:
    items = [
        text("Implementation", H1),
        text(PROSE),
        # Set in bold, each line would head a section of its own number.
        text("302 Heading of the package and the other files", BOLD),
        text("303 Bibliography font can not be set here", BOLD),
        text("304 You have tried to define a font for the bibliographic element", BOLD),
        text("305 which is unknown to babelbib and was never defined", BOLD),
        text(PROSE),
    ]
    assert titles(items) == ["Implementation"]


def test_lettered_and_numbered_sections_with_text_between_stay_headings() -> None:
    items = [
        text("A Proofs of the main results", H2),
        text(PROSE),
        text("B Further experiments on larger sets", H2),
        text(PROSE),
        text("C Hyperparameters used in training", H2),
        text(PROSE),
        text("1 Scope"),
        text(PROSE),
        text("2 Normative references"),
        text(PROSE),
        text("3 Terms and definitions"),
        text(PROSE),
    ]
    assert titles(items) == [
        "A Proofs of the main results",
        "B Further experiments on larger sets",
        "C Hyperparameters used in training",
        "1 Scope",
        "2 Normative references",
        "3 Terms and definitions",
    ]


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
    assert reads_as_code_or_data("x = 0", None)
    assert reads_as_code_or_data("$ command-in-user-account", None)
    assert opens_a_sentence(
        "The borderStyle argument changes the 3D look of the widget on the page alternatives are"
    )
    assert reads_without_words("BM25 + DPR 78.0 79.9 74.7", None)
    options = ["Question 2 What is the capital of Egypt?", "A Cayenne", "B Caracas", "C Cairo"]
    assert [in_a_run_of_options(options, i) for i in range(4)] == [False, True, True, True]
    assert not in_a_run_of_options(["A Cayenne", "", "B Caracas", "", "C Cairo"], 2)
    listing = ["4505 { add.period$", "4506 write$", "4507 newline$", "4508 }", ""]
    assert [in_a_numbered_listing(listing, i) for i in range(5)] == [True] * 4 + [False]
    assert not in_a_numbered_listing(["1 Scope", "Text.", "2 Terms", "Text.", "3 Use"], 2)


def test_a_listing_read_in_pieces_is_still_a_listing() -> None:
    # Lines read as one, and lines read as a table's rows (no line of text here).
    listing = ["5231 h/bststdi", "5232 hbststd 5233 hbststd 5234 h*bststdi", "5235 if$"]
    assert in_a_numbered_listing(listing, 2)
    bridged = ["4900 h*bststd", "", "4907 h/bststd", "4908 h*bststd & bstshorti", ""]
    assert in_a_numbered_listing(bridged, 3)
    # Numbered lines with a table after each: no two stand next to each other.
    assert not in_a_numbered_listing(["1 Scope", "", "2 Terms", "", "3 Use"], 2)


def test_the_first_option_under_its_question_is_an_option() -> None:
    question = ["Question 3 Which of the following events took place in 1971?", "A Death of X"]
    assert in_a_run_of_options(question, 1)
    paragraph = " ".join(["word"] * 40) + " can we do better?"
    assert not in_a_run_of_options([paragraph, "A Proofs of the main results"], 1)
