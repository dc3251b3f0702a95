"""Short title-like lines that no reader takes for a sub-heading, alone or by their
neighbours: no anchor of stage C."""

from __future__ import annotations

import pytest

from lightrag_pchunk.chunk.anchor_split import anchor_split, is_anchor_candidate
from lightrag_pchunk.outline.non_titles import reads_as_no_title, repeats_itself

from helpers import anchor_texts, char_context, make_block
from outline_items import MEMBERS, UNSEEN_TITLES


@pytest.mark.parametrize(
    "text",
    [
        # Text without words: a figure's labels in a font without a text map, a table's
        # row of figures, a lone letter, a label over a letter.
        "4:<8+7:6I:F+=-4=#0C1923#",
        "/8A>98FG8E.92/09?@D2#3$4!56#",
        "BM25 + DPR 78.0 79.9 74.7 88.5",
        "$185,450 —$400,550 . . $44,603.25 plus 33%",
        "22.12월 23.12월 24.1월 2월 3월 4월",
        "25th 50th 75th 25th 50th 75th Mean (mmol/l) p value",
        "7월",
        "A",
        "P R",
        "(a) (b)",
        "4) X",
        # Code and data: a comment, an assignment, a block, a field of YAML, JSON, a header.
        "// test, if the user has entered valid data",
        "P2 = new Point { X = 2, Y = 3 }",
        "( param ) => expr",
        "x = 0",
        "LIBnn=lib",
        "CFLAGS=-O2",
        "CPPFLAGS=’-isystem $LOCAL/include’",
        "let total = 0",
        "x: int = 0",
        "JF (u, v) = \uf8eb −r(v) sin u r(v) cos u r0 (v) cos u r0 (v) sin u \uf8f6",
        "a) Sei γ˜ ein Weg in Y um y0 und p∗([˜γ]) = e, also p ◦ γ˜ ∼ γx0",
        "Fall 3 z1 = z3 oder z2 = z4",
        "\\n a ButtonPanel in the upper right corner and an \\n ExplanationPanel",
        "340 \\let\\btxjournalfont=\\@empty",
        "MyNode: {}",
        "$$myid1: myval1",
        "Other-Definitions: string",
        '"SHA-1": "5374e08903744ceeaedd8f5e1bfc06b2c4688e76"',
        "Image: figures/nextn.pdf",
        "$ man 1 bash",
        "$ command-in-user-account",
        # A command run from a relative path, no prompt before it.
        "./configure --enable-jit",
        "../bin/R CMD check",
        "SELECT Name FROM Users; DROP TABLE Logs",
        ": *Deprecated synonym for `--split-level`.*",
        # A person: a contact line, a Chinese byline (an office, then the name).
        "Calin Curescu (calin.curescu@ericsson.com), Ericsson",
        "全國人大常委會副秘書長\u3000李飛",
        "基本法起草委員會主任委員 姬鵬飛",
        "中華人民共和國香港特別行政區基本法起草委員會主任委員姬鵬飛",
        # A date line: when and where a speech was given.
        "2014年8月27日在第十二屆全國人民代表大會常務委員會第十次會議上",
        # A control file's field with its relations, a TeX comment, a listing's comment.
        "Replaces: quux (<< 5), quux-foo (<= 7.6)",
        "%%% 答案用紙ヘッダー開始",
        "12 # package maintainers to append LDFLAGS",
        # A lead-in and its note's mark; a sentence's piece closing a parenthesis.
        "Here is a simplified description of package relationships: ⁷",
        "The dh $@ command can be customized as follows: 23",
        "这里有一篇关于软件包关系的简述：⁷",
        "PACKAGE 亦可）",
        # A paragraph's first line ending in a word a hyphen cuts at the line's end.
        "TIP you must include liabilities owed for credit reduc-",
        # A sentence's first line, broken off on a word that leaves it open.
        "The curveTo method starts painting a Bezier curve beginning at the brush location, using",
        # A reference's tail: its entry broken before its pages and year.
        "2767–2775, 2007. View at Publisher · View at Google Scholar · View at PubMed",
        "140–153, 2006. Google Scholar",
    ],
)
def test_lines_without_words_code_persons_and_rows_are_no_anchors(text: str) -> None:
    assert reads_as_no_title(text)
    assert not is_anchor_candidate(text, 100)


@pytest.mark.parametrize(
    "text",
    [
        "GP",
        "HER2",
        "2.1 Scope",
        "第三十條",
        "§ 1308.12",
        "Article 5",
        "§ 1308.12 Schedule II.",
        "1st power stage",
        "SC-28(1) Cryptographic Protection",
        "X.509 Certificate w/ V3 Extensions",
        "4.3.4 QoS 2: Exactly once delivery",
        "SC-13 Control Requirement(s)",
        "Step 1: Install the agent",
        "Windows 10",
        "Left Small Column, Right Wide Column",
        "3.3 VERIFY_GROUP_FOR_USER function",
        "附件一 香港特別行政區行政長官的產生辦法",
        "② 고용사정 : 빠르게 둔화",
        "## Mid section",
        "`-o` *FILE*, `--output=`*FILE*",
        "PY",
        "ГОСУДАРСТВЕННЫЙ КОНТРАКТ № 0172200006116000125_146076",
        "Kohut[^51]",
        # Single letters joined by "&" or "/" are one word, an abbreviation.
        "Q&A",
        "M&A",
        "I/O",
        # An item's or a note's mark closed by a parenthesis.
        "Teilaufgabe b)",
        "주요 실물경제 지표1)",
        # A title stating its case after its label and a colon: no assignment.
        "Stratum 1: Treatment = 1",
        "Section 3: Data = Records",
        "Einstein E=mc2",
        # A backslash inside a path, no TeX command.
        "C:\\Program Files Setup",
        "Windows\\System32 Settings",
        # Spans of years opening a title: no reference's pages and year.
        "1914–1918, 1939–1945: Two Wars",
        "2019–2020, Annual Report",
    ],
)
def test_titles_with_numbers_codes_and_names_stay_anchors(text: str) -> None:
    assert is_anchor_candidate(text, 100)


def _anchors_around(heading: str, lines: list[str]) -> list[str]:
    """The anchors stage C chooses in a long block headed ``heading``: 700 characters,
    ``lines``, 300 more, the title "Imported names", 700 more."""
    ctx = char_context(1000)
    text = f"## {heading}\n" + "x" * 700 + "\n" + "\n".join(lines) + "\n" + "y" * 300
    text += "\nImported names\n" + "z" * 700
    return anchor_texts(make_block(text, ctx.counter, heading=heading, level=2), ctx)


def test_a_long_block_is_cut_at_its_title_not_at_a_code_comment() -> None:
    assert _anchors_around("Namespaces", ["// omitted here for brevity"]) == ["Imported names"]


@pytest.mark.parametrize(
    "run",
    [
        # A multiple-choice question's options, lettered on.
        [
            "A Napoleon Bonaparte crosses the Alps and invades Italy",
            "B First horse-drawn omnibuses established in London",
            "C American Express is founded by Henry Wells & William Fargo",
            "D Kwang-su becomes emperor of China",
        ],
        # A table's rows of a label and its count, read as lines.
        ["工商、金融界 25%", "專業界 25%", "勞工、社會服務、宗教等界 25%"],
        # A documented program's lines, numbered on.
        [
            "303 \\PackageError{babelbib}{Bibliography font can't be set}{%",
            "304 You have tried to define a font for the bibliographic element",
            "305 \\MessageBreak",
        ],
    ],
)
def test_a_long_block_is_not_cut_inside_a_run_of_options_or_listed_lines(run: list[str]) -> None:
    assert _anchors_around("Part", run) == ["Imported names"]


@pytest.mark.parametrize("text", UNSEEN_TITLES)
def test_titles_of_unseen_documents_are_anchors(text: str) -> None:
    assert is_anchor_candidate(text, 100)


def test_a_title_opening_with_a_under_a_short_question_is_an_anchor() -> None:
    ctx = char_context(1000)
    text = "## Tea\n" + "x" * 700 + "\nWhy does it matter?\nA Brief History of Tea\n" + "y" * 900
    block = make_block(text, ctx.counter, heading="Tea", level=2)
    assert anchor_texts(block, ctx) == ["A Brief History of Tea"]


def test_a_long_block_is_not_cut_at_an_entry_of_a_dated_log() -> None:
    log = [
        "Mar 8, 2009: Release Candidate 2.0-rc-1.",
        "Feb 2009: Added support for multi-level lists to new processors.",
        "Jan 2009: Added HTML 4 output as an option (thanks to a contributor)",
        "Nov 2008: Added Definition List ext. Replaced old core with processors.",
    ]
    assert _anchors_around("Log", log) == ["Imported names"]


def test_a_long_block_is_not_cut_at_an_entry_of_a_members_list() -> None:
    # Each member's office and city, parted by ";", under the member's name: the cut falls
    # before a name, not between a member and the office.
    ctx = char_context(1000)
    text = "## Members\n" + "x" * 600 + "\n" + "\n".join(MEMBERS) + "\n" + "y" * 900
    block = make_block(text, ctx.counter, heading="Members", level=2)
    assert anchor_texts(block, ctx) == ["Cleo Model"]


def test_a_long_block_is_not_cut_inside_a_word_a_hyphen_cuts() -> None:
    # The line after "addi-" opens inside that word (a margin's "TIP" set before it): no
    # title, though it reads as one alone.
    lines = ["A nonresident alien employee may request addi-"]
    lines.append("TIP tional withholding at his or her option for other")
    assert is_anchor_candidate(lines[1], 100)
    assert _anchors_around("Withholding", lines) == ["Imported names"]


def test_a_long_block_is_not_cut_at_a_table_row_read_as_a_line() -> None:
    # A table's rows read as lines, each closing on its cells ("Taxable Taxable"); a list
    # item's line before them ("b. Amounts …") carries the row's cells too.
    rows = ["a. Amounts not exceeding specified Exempt Exempt Exempt", "government rate."]
    rows += ["b. Amounts in excess of specified Withhold Taxable Taxable", "standard mileage."]
    rows += ["Withhold Taxable Taxable", "more in cash in a year.", "Withhold Taxable Exempt"]
    assert all(is_anchor_candidate(rows[i], 100) for i in (2, 4, 6))
    assert _anchors_around("Special rules", rows) == ["Imported names"]


def test_a_row_is_no_anchor_after_a_cut_parts_it_from_the_row_beside_it() -> None:
    # The first cut falls at the title between two rows of a table read as lines; the piece
    # after it, still too long, holds the second row without the first, which tells it is
    # a row: the block's neighbours are read before any cut.
    ctx = char_context(1000)
    text = "## Rules\n" + "x" * 800 + "\nWithhold Taxable Taxable\nImported names\n"
    text += "Withhold Taxable Exempt\n" + "y" * 1100
    block = make_block(text, ctx.counter, heading="Rules", level=2)
    headings = [piece.heading for piece in anchor_split([block], ctx)]
    assert headings == ["Rules", "Imported names", "Imported names"]


@pytest.mark.parametrize(
    "text",
    [
        "Percentile (mmol/l) Percentile (mmol/l)",
        "Coefficient p value Coefficient p value",
        "Security Weakness | Security Weakness",
        "Cases Deaths Cases Deaths Cases Deaths",
    ],
)
def test_a_header_row_said_again_per_column_group_is_no_anchor(text: str) -> None:
    assert repeats_itself(text)
    assert not is_anchor_candidate(text, 100)


@pytest.mark.parametrize("text", ["Bora Bora", "New York, New York"])
def test_a_title_saying_a_word_again_stays_an_anchor(text: str) -> None:
    assert is_anchor_candidate(text, 100)
