"""Headings printed over several lines: a bold section heading set with a hanging indent
whose word is broken at the line end ("Exemption of certain chemical prepara-" over an indented
"tions.") is one heading, never two paragraphs; so is a title broken by hand inside a phrase."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import (
    BODY,
    BOLD,
    CJK,
    REGULAR,
    Page,
    Text,
    headings_of,
    parse_pages,
    printed_width,
    sections,
    wrap,
)


def test_a_heading_broken_inside_a_word_over_a_hanging_indent_is_one_paragraph(
    tmp_path: Path,
) -> None:
    items = [*wrap(BODY, 72, 720, 300)]
    items += [
        Text(72, 660, "Exemption of certain chemical prepara-", 11, BOLD),
        Text(88, 647, "tions.", 11, BOLD),
    ]
    items += wrap(BODY, 72, 630, 300)
    result = parse_pages(tmp_path, [Page(items)])
    lines = result.content.split("\n")
    title = "Exemption of certain chemical preparations."
    assert any(line.endswith(title) for line in lines), lines
    assert "tions." not in lines


def test_a_regulations_sections_are_headings_below_its_part(tmp_path: Path) -> None:
    # A part's title set larger, its sections bold at the text's size, numbered with the
    # section sign, each titled whole ("§ 1308.12 Schedule II.": the full stop ends the
    # title); the paragraphs "(a)", "(b)" under them are text.
    items = [Text(72, 740, "PART 1308 SCHEDULES OF CONTROLLED SUBSTANCES", 14, BOLD)]
    items += wrap(BODY, 72, 715, 400)
    y = 660
    for number, title in ((11, "Schedule I."), (12, "Schedule II."), (13, "Schedule III.")):
        items.append(Text(72, y, f"§ 1308.{number} {title}", 11, BOLD))
        items += wrap(f"(a) {BODY}", 72, y - 15, 400)
        items += wrap(f"(b) {BODY}", 72, y - 60, 400)
        y -= 130
    result = parse_pages(tmp_path, [Page(items)])
    found = sections(result)
    assert found == [
        ("PART 1308 SCHEDULES OF CONTROLLED SUBSTANCES", 1),
        ("§ 1308.11 Schedule I.", 2),
        ("§ 1308.12 Schedule II.", 2),
        ("§ 1308.13 Schedule III.", 2),
    ]
    assert "## § 1308.12 Schedule II.\n(a) The refrigeration plant" in result.content


def test_a_numbered_title_under_a_reference_list_is_no_line_of_its_entry(
    tmp_path: Path,
) -> None:
    # The last page holds the list's last entry, "[4] …" (its widest line: no room seen
    # after it), and the next section's numbered title at the margin: an entry of a list of
    # references opens on its number in brackets, and a numbered line after it starts a
    # paragraph of its own, as after a numbered item.
    text = "核电厂定期安全评价的原则和要求由国家核安全法规规定，营运单位应当据此开展评价工作。" * 3
    body = [Text(72, 720 - 16 * i, text[i * 30 : i * 30 + 30], font=CJK) for i in range(3)]
    references = [
        Text(94, 650, "[1] GB/T 1.1-2020 Directives for standardization"),
        Text(94, 634, "[2] HAF 103-2020 Safety of nuclear power plants"),
    ]
    first = Page([Text(72, 740, "七、参考资料", font=CJK), *body, *references])
    last = Page(
        [
            Text(94, 740, "[4] IAEA SSG-25 Periodic Safety Review for Nuclear Power Plants"),
            Text(72, 724, "八、其他需要说明的问题", font=CJK),
            Text(94, 708, "无。", font=CJK),
        ]
    )
    result = parse_pages(tmp_path, [first, last])
    headings = list(dict.fromkeys(r.heading for r in result.rows))
    assert headings == ["七、参考资料", "八、其他需要说明的问题"]


def test_a_title_broken_by_hand_inside_a_phrase_is_one_heading(tmp_path: Path) -> None:
    # The author broke the title's line after "of", room left at its end: its next line,
    # in its look and opening in lower case, goes on with it.
    items = [Text(72, 740, "Weekly inspection reports of", 14, BOLD)]
    items += [Text(72, 722, "the refrigeration plant", 14, BOLD), *wrap(BODY, 72, 700, 400)]
    items += [Text(72, 620, "Training of the operators", 14, BOLD), *wrap(BODY, 72, 598, 400)]
    result = parse_pages(tmp_path, [Page(items)])
    headings = headings_of(result)
    assert headings == [
        "Weekly inspection reports of the refrigeration plant",
        "Training of the operators",
    ]


def test_text_lines_ending_early_stay_apart_though_the_next_opens_in_lower_case(
    tmp_path: Path,
) -> None:
    # In the text's look a line that ends early ends its paragraph, whatever follows.
    items = [Text(72, 740, "Inspections", 14, BOLD)]
    items += [Text(72, 718, "Items to check each week, in", 11), Text(72, 704, "order:", 11)]
    items += wrap(BODY, 72, 690, 400)
    result = parse_pages(tmp_path, [Page(items)])
    assert "Items to check each week, in\norder:" in result.rows[-1].content


def test_a_heading_split_from_its_body_keeps_every_character_of_its_line(
    tmp_path: Path,
) -> None:
    # Numbered lines carrying their body after a colon ("一、名稱：本會…") are each a
    # heading named without the colon and a line of body; the block's heading line is
    # printed with the colon: its lines hold every character of the printed line, in order.
    lines = [
        "第一章 總則",
        "一、名稱：本會定名為台灣綠色生產力基金會。",
        "二、宗旨：本會以推動產業綠色生產力為宗旨，辦理下列事項。",
        "本會設於臺北市，並得於各地設立辦事處，以利業務之推展與執行。",
        "三、會址：本會會址設於臺北市。",
    ]
    items = [Text(72, 700 - 30 * i, text, 12, CJK) for i, text in enumerate(lines)]
    items[0] = Text(72, 700, lines[0], 14, CJK)
    result = parse_pages(tmp_path, [Page(items)])
    headings = headings_of(result)
    assert headings == ["第一章 總則", "一、名稱", "二、宗旨", "三、會址"]
    assert "## 一、名稱：\n本會定名為台灣綠色生產力基金會。" in result.content
    printed = "".join(line.lstrip("# ") for line in result.content.split("\n"))
    assert "".join(lines) in printed


def test_a_units_label_in_the_texts_look_over_its_bold_name_is_its_label(
    tmp_path: Path,
) -> None:
    # A contract centres each article's label in the text's look on a line of its own over
    # the article's name set bold: one title, the label with its name.
    def centred(text: str, y: float, font: str) -> Text:
        return Text((612 - printed_width(text, 11)) / 2, y, text, 11, font)

    articles = [
        ("ARTICLE I", "DEFINITIONS AND ACCOUNTING TERMS"),
        ("ARTICLE II", "AMOUNTS AND TERMS OF THE ADVANCES"),
        ("ARTICLE III", "CONDITIONS OF LENDING"),
    ]
    pages = [
        Page(
            [
                centred(label, 740, REGULAR),
                centred(name, 726, BOLD),
                *wrap(BODY + " " + BODY, 72, 700, 460),
            ]
        )
        for label, name in articles
    ]
    result = parse_pages(tmp_path, pages)
    assert headings_of(result) == [f"{label} {name}" for label, name in articles]
