"""The text channel of the heading classifier: which lines can be headings, and how a
numbered line carrying its body is cut."""

from __future__ import annotations

import pytest

from lightrag_pchunk.outline.lines import heading_text, soft_break_pieces
from lightrag_pchunk.outline.page_references import is_toc_line, strip_page_reference
from lightrag_pchunk.outline.stopped_titles import stopped_capitals_title, stopped_numbered_title


@pytest.mark.parametrize(
    ("line", "title", "body"),
    [
        ("第一章 总则", "第一章 总则", ""),
        ("第一条 为加强管理，制定本办法。", "第一条", "为加强管理，制定本办法。"),
        (
            "Article 12. The operator shall keep records.",
            "Article 12",
            "The operator shall keep records.",
        ),
        ("1.目的：", "1.目的", ""),
        ("1.目的：规范外发加工程序，确保质量。", "1.目的", "规范外发加工程序，确保质量。"),
        ("4.1 物控部：负责外发加工的统筹。", "4.1 物控部", "负责外发加工的统筹。"),
        (
            "9.2 Conformance Clause 1: TOSCA processor",
            "9.2 Conformance Clause 1: TOSCA processor",
            "",
        ),
        ("2.1 Scope", "2.1 Scope", ""),
        ("一、总体要求", "一、总体要求", ""),
        ("Background", "Background", ""),
        ("What is docx4j?", "What is docx4j?", ""),
        ("U.S. Department of Energy", "U.S. Department of Energy", ""),
        ("● 1 Introduction", "● 1 Introduction", ""),
        ("## Mid", "Mid", ""),
        ("\u200bExamples", "Examples", ""),  # a zero-width space shows nothing
        ("FUNDING          TOP", "FUNDING TOP", ""),  # spaces typed to push a mark right
        ("Tables and figures", "Tables and figures", ""),  # a word, not "Table s"
        # A plus glued to a word is its sign: a report's "+D" section (for Developers).
        ("+D What's Next for Developers", "+D What's Next for Developers", ""),
    ],
)
def test_headings_and_their_bodies(line, title, body):
    found = heading_text(line)
    assert found is not None
    assert (found.title, found.body) == (title, body)


@pytest.mark.parametrize(
    "line",
    [
        "The secondary aims are:",  # a lead-in, not a title
        "231. There are a number of non-governmental mechanisms, including:",
        "AC-11 Device Lock (M)(H)\t52",  # a table-of-contents entry
        "2.\tDesign\t14",  # an entry with its number and a tab after it
        "Name:\tJohn Smith",  # a form line
        "Scope\tof the work",  # a tab inside a title: laid out in columns
        "1.1.\tОписание обнаруженного недостатка ______",  # a form's blank to fill in
        "None",  # an answer saying there is nothing: a filing's empty item, a placeholder
        "N/A",
        "Not applicable",
        "Introduction ........ 3",
        "Preface   iv",  # an entry whose leaders are typed spaces: read before they are one
        "Scope and purpose. This document covers it",  # a sentence inside
        "1. Apply the patch.",
        "“Common sense revolts at the idea.”",  # a quoted sentence ends inside its quotes
        "a) the operator shall",
        "Notes:",
        "Figure 3: Architecture",
        "表 2 参数",
        "图表 1",  # Chinese Word's caption of a chart
        "• CWE-79: Cross-site Scripting",  # a reference list's item, a catalogue's code
        "Table B-1. Control summary",  # a caption with a lettered number
        "Figure 12",
        "12",
        "• Keep the valve closed",
        "+ Keep the valve closed",  # a typed bullet before a space
        "-FAQ",  # a dash glued to a word is still a bullet (PDF text loses its space)
        "⚫ R：Repeatable（可重复）",  # a medium black circle as a list's bullet
        "⬤ Keep the valve closed",
        "<table>[]</table>",
        "x" * 101,
        "这是一个非常长的中文段落标题它已经超过了四十个字符所以不能被当作标题来处理的情况下应当拒绝",
        "docx4j.NET",  # lower case: only with look (see the strict default)
        "Inspired by",  # a sentence broken before its citation (LaTeX converted to Markdown)
        "Now, from a mathematical procedure using Eq. (16), we obtain that",
        "90. Concerns have been expressed that",  # a numbered paragraph, not a title
        # A hard line break inside a Russian sentence: lower case in any script continues it.
        "с частью 2 документации о проведении аукциона с учетом требований, установленных",
        "1 (одного) рабочего дня со дня принятия решения о начале проведения ликвидации",
        "être conforme aux exigences",
        "Ultimately, the attention queries (",  # cut inside a parenthesis
        "系统架构（",
        "∫ I ( λ) ·QE( λ ) EWQE=",  # an equation's left side, its right on the next line
        ", 𝑉𝑢ℎ,1 = 𝑉α. It follows that the snap-down voltage 𝑉𝑑𝑙,2 can",  # a continuation
    ],
)
def test_lines_that_cannot_be_headings(line):
    assert heading_text(line) is None


def test_lowercase_and_markdown_switches():
    assert heading_text("docx4j.NET", lowercase=True).title == "docx4j.NET"
    assert heading_text("# Defaults to toc", markdown=False) is None
    assert heading_text("5.2.1 tosca_definitions", lowercase=True) is not None
    assert heading_text("5.2.1 tosca_definitions") is None


def test_numbered_titles_may_run_longer_than_plain_ones():
    title = "18.6. ATTACHMENT 5 – FedRAMP Tailored Low Impact Software as a Service Baseline"
    assert heading_text(title + " Template") is not None
    assert heading_text("ATTACHMENT FIVE " + "word " * 20) is None


def test_table_of_contents_lines():
    assert is_toc_line("AC-11 Device Lock (M)(H)\t52")
    assert is_toc_line("1.2 Scope .......... 4")
    assert is_toc_line("第一章 总则……………………1")
    assert is_toc_line("1.5 Kompaktheit . . . . . . . . . . . . . . 14")  # LaTeX's leaders
    assert not is_toc_line("See items a . b . c 14")
    assert not is_toc_line("The total was 52")
    assert not is_toc_line("\t52")
    assert strip_page_reference("AC-11 Device Lock (M)(H)\t52") == "AC-11 Device Lock (M)(H)"
    assert strip_page_reference("Scope") == "Scope"


def test_a_sections_number_alone_before_dot_leaders_is_an_entry():
    # A contents field lists a heading without text as its number, leaders and page: an
    # entry still, which keeps the contents whole around it. Without dot leaders a number
    # before a number is text, and so is a year before another; a number of one level
    # alone may end the title of the entry wrapped above it ("Forms 941 or" over "944").
    assert is_toc_line("3.1 ............................ 1")
    assert is_toc_line("4.2.1……………………7")
    assert not is_toc_line("944 ...................................... 31")
    assert not is_toc_line("3.1\t1")
    assert not is_toc_line("1.2   3")
    assert not is_toc_line("2023 ... 2024")


def test_a_slash_set_apart_before_the_page_number_is_a_leader():
    # A journal's contents: "Author: Title / page". A slash in a number or between words
    # is no leader.
    assert is_toc_line("Tarek BAJARI:  Imaginal Wars  /  116")
    assert (
        strip_page_reference("Gerhard BURDA: Islam::Angst / 103") == "Gerhard BURDA: Islam::Angst"
    )
    assert not is_toc_line("Results for round 1/2")
    assert not is_toc_line("Input and/or 12")
    # After a number a larger one ends a range or a fraction: a heading keeps it whole. A
    # title that ends in a number lists its page after it.
    for title in ("Academic Year 2023 / 2024", "Page 1 / 12", "Budget 2024  /  2025"):
        assert not is_toc_line(title), title
        assert strip_page_reference(title) == title
    assert strip_page_reference("Dreiländertagung Wien 2014 / 119") == "Dreiländertagung Wien 2014"


def test_page_references_on_form_lines_with_long_leader_runs():
    form = "Name: " + "_" * 5000 + " Date: " + "." * 5000
    assert not is_toc_line(form)
    assert strip_page_reference(form) == form
    assert is_toc_line("Annex A " + "." * 5000 + " 12")
    assert strip_page_reference("Preface   iv") == "Preface"
    assert not is_toc_line("Go to the civil")  # a word of roman letters is not a page number
    assert not is_toc_line("Chapter 12")  # a single space is not a leader


@pytest.mark.parametrize(
    "line",
    [
        "Who We Are",
        "Terms of Use",
        "Sign In",
        "4.5.2 Operationally Required (OR)",
        "5.1 评价目的",
        "Annex A (informative) Examples",  # a parenthesis in lower case, then a title word
        "Общие положения",
        "“Quoted” Names",
        "“PIRACY”",  # a title in quotes, no sentence inside them
    ],
)
def test_titles_that_end_on_a_short_word_are_still_headings(line):
    found = heading_text(line)
    assert found is not None and (found.title, found.body) == (line, "")


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        # Articles run together with soft breaks: each member of the series stands alone.
        (
            "第十五条 为加强管理。\n第十六条 本办法适用于全体员工。\n第十七条 附则。",
            ["第十五条 为加强管理。", "第十六条 本办法适用于全体员工。", "第十七条 附则。"],
        ),
        # A title over its text on the next line: the title stands alone.
        (
            "第十五条 安全责任\n各部门应当落实安全生产责任制。",
            ["第十五条 安全责任", "各部门应当落实安全生产责任制。"],
        ),
        # A heading written on two lines, a list typed with breaks, a wrapped title: whole.
        ("第一章\n总则", ["第一章\n总则"]),
        ("Steps:\n1. Open the valve\n2. Close it", ["Steps:\n1. Open the valve\n2. Close it"]),
        ("1.2 Scope of\nthe standard", ["1.2 Scope of\nthe standard"]),
        # The line after the break goes on with the sentence (lower case): one paragraph.
        (
            "3.5.\tОплата производится заказчиком\nв безналичном порядке.",
            ["3.5.\tОплата производится заказчиком\nв безналичном порядке."],
        ),
        (
            "1.1. Подрядчик выполняет для третьего лица\n(далее – Получатель) работы.",
            ["1.1. Подрядчик выполняет для третьего лица\n(далее – Получатель) работы."],
        ),
        ("One line only", ["One line only"]),
    ],
)
def test_a_paragraph_with_soft_breaks_is_read_whole_or_at_its_series(text, pieces):
    assert soft_break_pieces(text) == pieces


def test_a_line_mostly_of_symbols_is_an_equation_not_a_title():
    assert heading_text("∑ x", markdown=False) is None
    assert heading_text("C++", markdown=False) is None
    assert heading_text("Q&A", markdown=False) is not None
    assert heading_text("FY 2023", markdown=False) is not None


def test_a_line_of_more_mathematical_symbols_than_words_is_an_equation_not_a_title():
    # Displayed formulas of lecture notes and papers, as their glyphs read: relations,
    # operators, letters of the mathematical alphabets; numbered like list items too.
    for line in (
        "Ui → R n",
        "⇒ A ∩ A1 6= ∅ und analog A ∩ A2 6= ∅",
        "8) X = (R \\ { 0 }) ∪ (01, 02)",
        "𝑉𝑑𝑙,2>𝑉𝑑ℎ,1 ,𝑉𝑑𝑙,1 ), we can snap down",
    ):
        assert heading_text(line, markdown=False) is None, line
    # A title may hold a symbol between its words, and a formula typed with "=".
    assert heading_text("Input → Output", markdown=False) is not None
    assert heading_text("Storage ≤ 5 °C", markdown=False) is not None
    assert heading_text("输入→输出", markdown=False) is not None
    assert heading_text("Ａ\u3000异象（二2～5）", markdown=False) is not None
    assert heading_text("2. 标题内包含公式 x= −b± √b 2−4ac", markdown=False) is not None


def test_a_line_that_leaves_a_parenthesis_open_is_no_title():
    assert heading_text("Taxable (Exempt for state Exempt", markdown=False) is None
    assert heading_text("4.2 Scope (informative", markdown=False) is None
    assert heading_text("4.2 Scope (informative)", markdown=False) is not None
    assert heading_text("c) Test loads", markdown=False) is not None
    # A colon inside a parenthesis ends no title: the line is an item, not "title: body".
    line = "(1) Aminorex (Some other names: aminoxaphen; 2-amino-5-phenyl-2-oxazoline; or"
    assert heading_text(line, markdown=False) is None


def test_a_line_wholly_in_brackets_is_an_aside_no_title():
    # A dated approval under a law's title, a removed clause's marker, a source line.
    for line in (
        "（2004年4月6日第十屆全國人民代表大會常務委員會第八次會議通過）",
        "(removed)",
        "(Don MacLean, February 2005 WGIG e-mail)",
    ):
        assert heading_text(line, markdown=False) is None
    # A label in brackets before its title stays a title.
    assert heading_text("(2) Scope of the rules", markdown=False) is not None
    assert heading_text("（一）总则", markdown=False) is not None


def test_a_line_stating_values_is_no_title():
    assert heading_text("Chi-square= 1.5209\np-value= 0.2175", markdown=False) is None
    assert heading_text("S2 (6) = 0.6687", markdown=False) is None
    assert heading_text("Response rate = 45 %", markdown=False) is None
    # "=" inside a title that states no value on its own: still a title.
    assert heading_text("The case n = 2 and beyond", markdown=False) is not None
    # A whole number after "=" is a setting the title names, not a value measured.
    for title in ("Results for N = 500", "Chapter 4: When x = 0", "Experiments with k = 10"):
        assert heading_text(title, markdown=False) is not None, title
    assert heading_text("Estimates for S1(6)= 0.6498 (0.5112, 0.7884)", markdown=False)


def test_a_numbered_title_ending_with_a_full_stop_or_a_colon_is_read_for_the_caller_to_judge():
    title = stopped_numbered_title("3.1. Требования к программированию КСОБ объекта.")
    assert title is not None and title.label is not None and title.label.ordinals == (3, 1)
    assert heading_text("3.1. Требования к программированию КСОБ объекта.") is None
    lead_in = stopped_numbered_title("4.3. The customer may:")
    assert lead_in is not None and lead_in.title == "4.3. The customer may"
    for line in ("Требования к объекту.", "3.1. Apply the patch. Then restart.", "1.2 Title"):
        assert stopped_numbered_title(line) is None


def test_a_contents_column_headings_line_is_no_heading_but_a_title_page_is():
    # "Figure  Page" heads the columns of a list of figures, wherever it stands.
    assert heading_text("Figure  Page", markdown=False) is None
    assert heading_text("Section Page", markdown=False) is None
    # Words that name no contents' entries make a title of their own.
    assert heading_text("Title Page", markdown=False) is not None
    assert heading_text("Home page", markdown=False) is not None


@pytest.mark.parametrize("word", ["None", "N/A", "NA", "nil", "Nil", "null", "NULL", "TBD"])
def test_a_placeholder_alone_titles_nothing_unless_its_author_or_number_says_title(word):
    # Alone, the word stands where an answer goes ("Nil" on a return, a converter's "null"):
    # a false title would label its neighbour's text with it, a missed one leaves the
    # chunk under its parent's true path. A value's own section ("Null" in a language
    # reference) keeps its title when the author marked it or numbered it.
    assert heading_text(word) is None
    assert heading_text(f"# {word}").title == word
    assert heading_text(f"4.2 {word[0].upper()}{word[1:]}") is not None


def test_a_marked_label_heads_its_title_as_a_bullets_does_not():
    # "★" touching a label marks a tender's binding term: the line is its numbered title;
    # a bullet before a sentence's number keeps it a list's sentence.
    marked = heading_text("★一、技术及服务要求")
    assert marked is not None and marked.title == "★一、技术及服务要求"
    assert marked.label is not None and marked.label.family == "cn-enum"
    assert heading_text("★3.投标供应商须与派驻人员签订劳动合同。") is None


def test_a_numbered_title_in_capitals_may_end_with_a_full_stop():
    title = stopped_capitals_title("IV. OBJETIVOS DE INTEGRACIÓN SOCIAL DE LA PNDU.")
    assert title is not None and title.label.ordinals == (4,)
    assert title.title == "IV. OBJETIVOS DE INTEGRACIÓN SOCIAL DE LA PNDU."
    for line in (
        "IV. Objetivos de integración social.",  # a numbered sentence
        "OBJETIVOS DE INTEGRACIÓN SOCIAL.",  # no number
        "7. THE SOFTWARE IS PROVIDED AS IS. NO WARRANTY IS GIVEN.",  # two sentences
        "8. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM OR LOSS.",
    ):
        assert stopped_capitals_title(line) is None


def test_a_roman_numbered_title_in_capitals_with_a_full_stop_is_a_heading():
    from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem, infer_outline

    caps, body = Look(bold=True, size=11.0, caps=True), Look(size=11.0)
    text = "El consejo propone medidas para integrar la ciudad y reducir la desigualdad urbana."
    lines = ["III. PRINCIPALES CAUSAS", "IV. OBJETIVOS DE LA POLÍTICA.", "V. PROPUESTAS"]
    items = []
    for line in lines:
        items += [OutlineItem(ItemKind.TEXT, line, look=caps)]
        items += [OutlineItem(ItemKind.TEXT, text, look=body)] * 2
    assert [(h.level, h.title) for h in infer_outline(items, 11.0)] == [(1, t) for t in lines]
