"""Numbered paragraphs of a PDF that are items of a list, not titles of sections: the next
step of numbered sentences, an item set in a list's hanging indent."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.pdf.bullets import is_bulleted

from pdf_builders import (
    BODY,
    BOLD,
    CJK,
    CJK_OTHER,
    LOREM,
    SYMBOL_MT,
    WINGDINGS,
    Page,
    Text,
    boxes,
    headings_of,
    outline_rows,
    parse_pages,
    tags_of,
    wrap,
)


def _headings(result) -> list[str]:
    return [r.heading for r in result.rows]


def test_the_next_step_after_numbered_sentences_is_no_heading(tmp_path: Path) -> None:
    # "3." continues the steps "1." and "2.", sentences of the text, past a note between
    # them: a step, though short, plain and followed by its bullets.
    lines = [
        Text(72, 740, "Create a link to a file", 16, BOLD),
        *wrap("1. Select the text or picture that you want to show as the link.", 72, 710, 450),
        *wrap("2. On the Insert tab, in the Links group, click Link to open it.", 72, 690, 450),
        *wrap("You can also right-click the text and then click Link on the menu.", 72, 670, 450),
        Text(72, 650, "3. Do one of the following:"),
        Text(86, 630, "\xb7 To link to an existing file, click Existing File under Link to."),
        Text(86, 610, "\xb7 To link to a new file, click Create New Document under Link to."),
        *wrap(BODY, 72, 585, 450),
        Text(72, 540, "Remove a link", 16, BOLD),
        *wrap(BODY, 72, 515, 450),
    ]
    result = parse_pages(tmp_path, [Page(lines)])
    assert _headings(result) == ["Create a link to a file", "Remove a link"]
    assert "3. Do one of the following:" in result.rows[0].content


def test_a_numbered_title_after_a_list_in_its_section_still_heads_the_next(
    tmp_path: Path,
) -> None:
    # "2. Background" numbers on from the list item "1. …" inside "1. Introduction" and
    # from that title: the next section, as before.
    lines = [
        Text(72, 740, "1. Introduction"),
        *wrap(BODY, 72, 715, 450),
        *wrap("1. " + BODY, 86, 670, 430),
        *wrap(BODY, 72, 625, 450),
        Text(72, 585, "2. Background"),
        *wrap(BODY, 72, 560, 450),
    ]
    result = parse_pages(tmp_path, [Page(lines)])
    assert _headings(result) == ["1. Introduction", "2. Background"]


def test_items_set_in_a_hanging_indent_are_no_headings(tmp_path: Path) -> None:
    # Each item's number stands a little in from the margin (less than a first-line
    # indent would not tell), its text further in: a list, though every item is a
    # numbered line with its text after a colon.
    stages = [
        "Stage: the person orients to those who hold power and avoids punishment at all costs.",
        "Stage: what serves the person's own needs is right, and others' needs now and then.",
        "Stage: the norms of the group the person belongs to guide what the person does.",
    ]
    lines = [Text(72, 740, "Stages of moral judgement", 16, BOLD), *wrap(BODY, 72, 715, 450)]
    top = 670
    for number, stage in enumerate(stages, start=1):
        first, *rest = wrap(f"{number}. {stage}", 84.5, top, 420)
        lines += [first, *(Text(93, line.y, line.text) for line in rest)]
        top -= 14 * (1 + len(rest)) + 6
    lines += wrap(BODY, 72, top - 10, 450)
    result = parse_pages(tmp_path, [Page(lines)])
    assert _headings(result) == ["Stages of moral judgement"]
    assert "3. Stage: the norms" in result.rows[0].content


#: A Chinese paragraph of text, 30 characters a line at 12 pt (the test CJK font's glyphs
#: are an em wide).
CJK_TEXT = "国家能源局下达了能源行业核电标准制修订计划，项目组据此开展了标准的修订工作。" * 3


def _cjk_paragraph(top: float) -> list[Text]:
    """A paragraph of :data:`CJK_TEXT` whose first line is set in by two characters."""
    lines = [CJK_TEXT[:28], CJK_TEXT[28:58], CJK_TEXT[58:88]]
    return [Text(96 if n == 0 else 72, top - 20 * n, line, 12, CJK) for n, line in enumerate(lines)]


def test_a_numbered_title_set_in_as_its_text_paragraphs_is_no_list_item(tmp_path: Path) -> None:
    # "1、征求意见稿" stands in two characters, as far as the first line of the paragraph
    # under it, whose next lines go back to the margin: the text's first-line indent, not
    # a list's; the title heads its part. Items so set, one over the other, stay a list.
    items = [Text(72, 740, "二、编制过程", 12, CJK), Text(96, 710, "1、征求意见稿", 12, CJK)]
    items += _cjk_paragraph(680)
    items += [Text(72, 600, "三、调研情况", 12, CJK), *_cjk_paragraph(570)]
    items += [Text(96, 500, "1、电厂名称", 12, CJK), Text(96, 480, "2、调研日期", 12, CJK)]
    items += _cjk_paragraph(450)
    result = parse_pages(tmp_path, [Page(items)])
    assert _headings(result) == ["二、编制过程", "1、征求意见稿", "三、调研情况"]


def test_a_numbered_title_wrapped_as_its_text_paragraphs_is_no_list_item(tmp_path: Path) -> None:
    # The title runs onto a second line at the margin, as the paragraph under it does.
    title = "四、关于行政长官产生办法如果不作修改继续适用现行规定的问题和处理建议"
    items = [Text(72, 740, "三、调研情况", 12, CJK), *_cjk_paragraph(710)]
    items += [Text(96, 640, title[:28], 12, CJK), Text(72, 620, title[28:], 12, CJK)]
    items += _cjk_paragraph(590)
    result = parse_pages(tmp_path, [Page(items)])
    assert _headings(result) == ["三、调研情况", title]


def test_a_line_opening_on_a_z_notation_spot_opens_an_item() -> None:
    # Word exports some lists' bullets as U+2981 ("⦁", a spot): a line opening with one
    # starts an item, as "●" does, so an item wrapped at its text's indent is one paragraph
    # and the next item a paragraph of its own (a slide's points were cut after their first
    # line and run into the next).
    assert is_bulleted("\u2981 Enable agile software delivery by piloting a new process")


def _slide_lines(tmp_path: Path, items: list[Text]) -> list[str]:
    """The lines of the blocks of one slide (a 960 x 540 page) holding ``items``."""
    result = parse_pages(tmp_path, [Page(items, width=960, height=540)])
    return "\n".join(r.content for r in result.rows).split("\n")


def test_a_slides_bulleted_item_wrapped_under_its_text_is_one_paragraph(tmp_path: Path) -> None:
    # A slide's text box is far narrower than its page: every line ends early by the page's
    # measure, so the item's wrapped lines, set under its text (a hanging indent), go on
    # with it where the line above stops mid-phrase; a title over its description does not.
    items = [
        Text(38, 470, "The information gathered in the business case includes all of it:", 20),
        Text(38, 400, "\u00b7 Basic information about the CSP and", 20),
        Text(52, 376, "CSO", 20),
        Text(38, 340, "\u00b7 How the CSO meets OMB Priorities,", 20),
        Text(52, 316, "which is one of the ways to show", 20),
        Text(52, 292, "demand", 20),
        Text(38, 256, "\u00b7 Service Description", 20),
        Text(52, 232, "The evaluators read it first.", 20),
    ]
    lines = _slide_lines(tmp_path, items)
    assert "\u00b7 Basic information about the CSP and CSO" in lines
    item = "\u00b7 How the CSO meets OMB Priorities, which is one of the ways to show demand"
    assert item in lines
    assert "\u00b7 Service Description" in lines


def test_code_under_a_typed_dash_is_no_wrapped_item(tmp_path: Path) -> None:
    # A YAML list in a listing: its keys are indented under the dash as a wrapped item's
    # lines would be, and each is a line of its own.
    items = [
        Text(38, 470, "The information gathered in the business case includes all of it:", 20),
        Text(38, 400, "- url: my_defns/my_typesdefs_n.yaml", 20),
        Text(52, 376, "repository: my_company_repo", 20),
    ]
    lines = _slide_lines(tmp_path, items)
    assert "repository: my_company_repo" in lines


def test_a_lettered_title_after_a_hanging_indent_list_is_no_table_row(tmp_path: Path) -> None:
    # A report's bulleted points hang their text at a tab stop right of the bullet; the
    # next part's title ("B." at the margin, its title at the next tab stop) and its first
    # numbered paragraph ("61." at that stop, the text at the bullets') align with them in
    # two columns. A letter with its dot alone beside words is a label as "(a)" and "61."
    # are: a list and its headings, not a table that would hold the title.
    lines = [
        Text(63, 740, "A.", 11, BOLD),
        Text(90, 740, "Issues relating to infrastructure", 11, BOLD),
        Text(90, 715, "60."),
        *wrap(BODY, 126, 715, 380),
        Text(108, 670, "\u00b7"),
        *wrap("Strengthening cooperation between the registries and the bodies;", 126, 670, 380),
        Text(108, 640, "\u00b7"),
        *wrap("Informal mechanisms for the management of collective efforts.", 126, 640, 380),
        Text(63, 605, "B.", 11, BOLD),
        Text(90, 605, "Issues relating to the use of the Internet", 11, BOLD),
        Text(90, 580, "61."),
        *wrap(BODY, 126, 580, 380),
    ]
    result = parse_pages(tmp_path, [Page(lines)])
    assert not tags_of(result)
    assert [r.heading for r in outline_rows(result)][-1] == (
        "B. Issues relating to the use of the Internet"
    )


def test_a_numbered_line_heading_a_nested_list_is_no_heading(tmp_path: Path) -> None:
    # "1) Apples" and "2) Pears" stand at the margin in the text's look, each over a list
    # of another numbering set further in: items of a list nested a level down, no titles,
    # though a table inside the nested list parts "2) Pears" from "1) Apples" and its items.
    lines = [*wrap(BODY, 72, 740, 450), Text(72, 700, "1) Apples"), Text(90, 682, "a) Red")]
    lines += [Text(108, 664, "i) Crisp"), Text(114, 642, "Stock", 10), Text(234, 642, "Crates", 10)]
    lines += [Text(114, 624, "Cellar", 10), Text(234, 624, "12", 10), Text(108, 598, "ii) Sweet")]
    lines += [Text(72, 580, "2) Pears"), Text(90, 562, "a) Green"), *wrap(LOREM, 72, 530, 450)]
    table = [*boxes((108, 228, 348), 654, 636), *boxes((108, 228, 348), 636, 618)]
    result = parse_pages(tmp_path, [Page(lines + table)])
    assert headings_of(result) == []
    assert "2) Pears" in result.rows[0].content


def test_a_lettered_title_over_numbered_paragraphs_set_in_still_heads(tmp_path: Path) -> None:
    # "(a) Governance" stands at the margin over numbered paragraphs of text set further
    # in: a title over its section's numbered paragraphs, not the head of a nested list.
    lines = [Text(72, 740, "Governance", 16, BOLD), *wrap(BODY, 72, 715, 450)]
    lines += [Text(72, 670, "(a) Mechanisms"), *wrap("57. " + BODY, 99, 652, 420)]
    lines += [Text(72, 600, "(b) Coordination"), *wrap("58. " + LOREM, 99, 582, 420)]
    result = parse_pages(tmp_path, [Page(lines)])
    assert _headings(result) == ["Governance", "(a) Mechanisms", "(b) Coordination"]


def test_a_symbol_fonts_bullets_read_as_the_plain_bullets_they_draw(tmp_path: Path) -> None:
    # Word's bullets in Symbol and Wingdings, mapped to private use (U+F0B7, U+F0A7): read
    # as "•" and "▪", as the Word parser writes them. An icon font's glyph ("\uf095", a
    # telephone) before a line stays what the file maps it to.
    items = [Text(72, 740, "Risks", 16, BOLD), *wrap(" ".join([BODY] * 4), 72, 715, 450)]
    for i, (glyph, words) in enumerate(
        [("\uf0b7", "Interest rate risk of the plant"), ("\uf0a7", "Liquidity risk of the plant")]
    ):
        items.append(Text(86, 600 - 20 * i, f"{glyph} {words}", 11, CJK_OTHER))
    items.append(Text(72, 540, "\uf095 Call the operator of the plant", 11, CJK_OTHER))
    result = parse_pages(tmp_path, [Page(items)])
    assert "• Interest rate risk of the plant" in result.content
    assert "▪ Liquidity risk of the plant" in result.content
    assert "\uf095 Call the operator" in result.content
    assert "\uf0b7" not in result.content


def test_a_symbol_fonts_glyphs_read_as_the_characters_its_font_draws(tmp_path: Path) -> None:
    # The font says what a private-use code draws: Wingdings' U+F0FA a small square (a
    # bullet outside Word's bullet library, each item its own), U+F06C in SymbolMT a lambda
    # (in Wingdings it would be a bullet, "●"), Symbol's U+F0AE an arrow inside a line.
    items = [Text(72, 740, "Holds", 16, BOLD), *wrap(" ".join([BODY] * 4), 72, 715, 450)]
    for i, words in enumerate(["Can holds be limited by custodian?", "Who verifies a hold?"]):
        items += [Text(86, 600 - 20 * i, "\uf0fa ", 11, WINGDINGS), Text(110, 600 - 20 * i, words)]
    items += [Text(72, 540, "\uf06c ", 11, SYMBOL_MT), Text(96, 540, "= 550 nm is the wavelength.")]
    items += [Text(72, 520, "Open the menu"), Text(156, 520, "\uf0ae ", 11, SYMBOL_MT)]
    items.append(Text(180, 520, "Save as to keep a copy of the plant's log."))
    result = parse_pages(tmp_path, [Page(items)])
    assert "\n▭ Can holds be limited by custodian?\n▭ Who verifies a hold?\n" in result.content
    assert "λ = 550 nm is the wavelength." in result.content
    assert "Open the menu → Save as" in result.content
    assert not any("\ue000" <= ch <= "\uf8ff" for ch in result.content)


def test_a_shape_a_symbol_font_draws_opens_an_item_as_its_private_use_code_did() -> None:
    # Read by its font, Wingdings' U+F0FA is "▭" and U+F0F0 "⇨": a list's bullets still,
    # as the codes were; a circled number is a label, a Greek letter text.
    assert is_bulleted("▭ Who verifies a hold?") and is_bulleted("⇨ Open the menu")
    assert not is_bulleted("❶ Open the menu") and not is_bulleted("λ = 550 nm")
