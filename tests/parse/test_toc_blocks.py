"""Tables of contents: recognised from the TOC field, the "toc N" styles, a Table of Contents
content control or plain lines under a Contents/目录 title; kept as one block of their own
(``session_type: "toc"``); their lines never become headings; headings lose page numbers."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.cli.main import main
from lightrag_pchunk.parse.document import parse_docx

from docx_builders import para, rich_xml, run, style, write_rich_docx

STYLES = rich_xml(
    "styles",
    style("Heading1", "heading 1", outline=0)
    + style("TOC1", "toc 1")
    + style("TOCHeading", "TOC Heading", based_on="Heading1", outline=9),
)
BODY = para("1 Scope", style="Heading1") + para("The scope of this standard.")


def parse(tmp_path, body: str, **kwargs):
    source = write_rich_docx(tmp_path / "toc.docx", body, styles=STYLES)
    return parse_docx(source, tmp_path / "out", doc_id="doc-t", **kwargs)


def summary(parsed) -> list[tuple[str, str | None, str]]:
    return [(r.heading, r.extra.get("session_type"), r.content) for r in parsed.rows]


def field_char(kind: str) -> str:
    return f'<w:r><w:fldChar w:fldCharType="{kind}"/></w:r>'


def entry(text: str, page: int, anchor: str = "_Toc1") -> str:
    return (
        f'<w:hyperlink w:anchor="{anchor}">{run(text)}<w:r><w:tab/></w:r>{run(str(page))}'
        "</w:hyperlink>"
    )


def test_a_toc_field_is_one_block_of_its_own(tmp_path):
    body = (
        para("Cold store standard")
        + para("Contents", style="TOCHeading")
        + para(
            field_char("begin"),
            '<w:r><w:instrText xml:space="preserve"> TOC \\o "1-3" \\h </w:instrText></w:r>',
            field_char("separate"),
            entry("1 Scope", 1),
        )
        + para(entry("2 Terms", 3))
        + para(entry("3 Method", 5), field_char("end"))
        + BODY
    )
    parsed = parse(tmp_path, body, smart_heading=True)
    assert summary(parsed) == [
        ("Preface/Uncategorized", None, "Cold store standard"),
        ("Contents", "toc", "Contents\n1 Scope\t1\n2 Terms\t3\n3 Method\t5"),
        ("1 Scope", None, "# 1 Scope\nThe scope of this standard."),
    ]
    assert parsed.outline.toc_blocks == 1
    assert parsed.inferred_headings == 0


def test_toc_styles_without_a_field_and_a_default_title(tmp_path):
    body = (
        para("Scope\t1", style="TOC1")
        + para("Terms\t3", style="TOC1")
        + para("Intro text before the first heading.")
        + BODY
    )
    parsed = parse(tmp_path, body)
    assert summary(parsed)[:2] == [
        ("Table of Contents", "toc", "Scope\t1\nTerms\t3"),
        ("Preface/Uncategorized", None, "Intro text before the first heading."),
    ]


def test_a_table_of_contents_content_control(tmp_path):
    sdt = (
        '<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/>'
        "<w:docPartUnique/></w:docPartObj></w:sdtPr><w:sdtContent>"
        + para("Contents", style="TOCHeading")
        + para("1 Scope\t1")
        + para("2 Terms\t2")
        + "</w:sdtContent></w:sdt>"
    )
    parsed = parse(tmp_path, sdt + BODY)
    assert summary(parsed)[0] == ("Contents", "toc", "Contents\n1 Scope\t1\n2 Terms\t2")


def test_a_plain_text_toc_under_its_title(tmp_path):
    lines = ["目录", "第一章 总则……………1", "第二章 职责……………3", "第三章 附则……………9"]
    body = "".join(para(line) for line in lines) + para("第一章 总则") + para("本章规定总的原则。")
    parsed = parse(tmp_path, body, smart_heading=True)
    assert summary(parsed)[0] == ("目录", "toc", "\n".join(lines))
    assert [r.heading for r in parsed.rows[1:]] == ["第一章 总则"]


def test_a_styled_contents_heading_becomes_the_toc_block(tmp_path):
    body = (
        para("Table of Contents", style="Heading1")
        + para("1 Scope\t1", style="TOC1")
        + para("2 Terms\t3", style="TOC1")
        + BODY
    )
    parsed = parse(tmp_path, body)
    assert summary(parsed)[0] == (
        "Table of Contents",
        "toc",
        "# Table of Contents\n1 Scope\t1\n2 Terms\t3",
    )
    row = json.loads(parsed.blocks_path.read_text(encoding="utf-8").splitlines()[1])
    assert row["session_type"] == "toc"


def test_toc_entries_styled_as_headings_are_not_headings(tmp_path):
    toc_heading_style = rich_xml(
        "styles",
        style("Heading1", "heading 1", outline=0) + style("TOC1", "toc 1", based_on="Heading1"),
    )
    body = para("1 Scope\t1", style="TOC1") + para("2 Terms\t3", style="TOC1") + BODY
    source = write_rich_docx(tmp_path / "t.docx", body, styles=toc_heading_style)
    parsed = parse_docx(source, tmp_path / "out")
    assert [r.heading for r in parsed.rows] == ["Table of Contents", "1 Scope"]


def test_a_heading_never_keeps_a_tab_and_page_number(tmp_path):
    body = para("Scope\t4", style="Heading1") + para("Text.")
    parsed = parse(tmp_path, body)
    assert parsed.rows[0].heading == "Scope"
    assert parsed.rows[0].content.startswith("# Scope\n")


def test_a_toc_without_page_numbers_under_its_title_is_no_source_of_headings(tmp_path):
    # A Chinese test procedure: cover, 目录 and its entries (no page numbers), then the
    # sections. The entries are one table of contents; the body's headings are found after
    # it, and no chunk is headed by an entry.
    entries = ["1 范围", "2 规范性引用文件", "3 试验条件", "3.6 设备状态"]
    body = (
        para("XX核电厂 试验规程")
        + para("目录")
        + "".join(para(entry) for entry in entries)
        + para("1 范围")
        + para("本规程规定了设备试验的条件、步骤和验收准则，适用于安全相关设备。")
        + para("2 规范性引用文件")
        + para("下列文件对于本文件的应用是必不可少的，凡是注日期的引用文件仅所注日期的版本适用。")
        + para("3 试验条件")
        + para("3.6 设备状态")
        + para("试验前设备应处于正常运行状态，所有保护投入，记录初始参数并由值长确认。")
    )
    parsed = parse(tmp_path, body, smart_heading=True)
    assert summary(parsed)[:2] == [
        ("Preface/Uncategorized", None, "XX核电厂 试验规程"),
        ("目录", "toc", "\n".join(["目录", *entries])),
    ]
    assert [(r.heading, r.parent_headings) for r in parsed.rows[2:]] == [
        ("1 范围", ()),
        ("2 规范性引用文件", ()),
        ("3 试验条件", ()),
        ("3.6 设备状态", ("3 试验条件",)),
    ]


def test_short_headings_with_body_text_between_them_are_no_toc(tmp_path):
    # Under a "Contents" line, short title-like lines each followed by body text are the
    # document's sections, not entries.
    body = (
        para("Contents")
        + para("AC-1 Policy and Procedures")
        + para("The organization develops and documents an access control policy for staff.")
        + para("AC-2 Account Management")
        + para("The organization manages information system accounts, including their types.")
        + para("AC-3 Access Enforcement")
        + para("The information system enforces approved authorizations for logical access.")
    )
    parsed = parse(tmp_path, body)
    assert parsed.outline.toc_blocks == 0


def test_a_toc_field_whose_end_is_lost_ends_where_body_text_starts(tmp_path):
    # The field's end mark is missing: the controls after the entries are inside it, but
    # body text ends the table of contents: the styled heading is one, and the control
    # before the body text is found (an enhancement of AC-1's series, below it).
    body = (
        para(
            field_char("begin"),
            '<w:r><w:instrText xml:space="preserve"> TOC \\o "1-3" \\h </w:instrText></w:r>',
            field_char("separate"),
            entry("AC-1 Policy and Procedures", 3),
        )
        + para(entry("AC-2 Account Management", 5))
        + para("AC-1 Policy and Procedures", style="Heading1")
        + para("The organization develops and documents an access control policy for staff.")
        + para("AC-2(1) Automated System Account Management (M)(H)")
        + para("The organization employs automated mechanisms to support account management.")
    )
    parsed = parse(tmp_path, body, smart_heading=True)
    assert [(r.heading, r.parent_headings, r.extra.get("session_type")) for r in parsed.rows] == [
        ("Table of Contents", (), "toc"),
        ("AC-1 Policy and Procedures", (), None),
        (
            "AC-2(1) Automated System Account Management (M)(H)",
            ("AC-1 Policy and Procedures",),
            None,
        ),
    ]
    assert parsed.rows[2].content.endswith(
        "The organization employs automated mechanisms to support account management."
    )


def test_a_cover_before_the_contents_heads_no_section(tmp_path):
    # A standard's cover: its issuer's mark set large and bold, its name, its part, dates;
    # then the contents and the sections. The cover's lines after the first are no
    # headings: its chunk is the document's preface, not a section "NB".
    def line(text: str, half_points: int, bold: bool = False) -> str:
        rpr = ("<w:b/>" if bold else "") + f'<w:sz w:val="{half_points}"/>'
        return para(run(text, rpr), ppr='<w:jc w:val="center"/>')

    text = "本部分规定了核电厂定期安全评价的策划准备、评价执行等各阶段的工作内容和方法。"
    body = (
        line("ICS 27.120.99", 21)
        + line("NB", 96, bold=True)
        + line("中华人民共和国能源行业标准", 48)
        + line("核电厂定期安全评价", 52)
        + line("2023-03-09发布", 28)
        + para("1 范围\t1", style="TOC1")
        + para("2 术语和定义\t1", style="TOC1")
        + line("1 范围", 28, bold=True)
        + para(run(text, '<w:sz w:val="21"/>'))
        + line("2 术语和定义", 28, bold=True)
        + para(run(text, '<w:sz w:val="21"/>'))
    )
    parsed = parse(tmp_path, body, smart_heading=True)
    assert [(r.heading, r.extra.get("session_type")) for r in parsed.rows] == [
        ("Preface/Uncategorized", None),
        ("Table of Contents", "toc"),
        ("1 范围", None),
        ("2 术语和定义", None),
    ]


def test_a_list_of_links_to_the_sections_is_a_contents_and_names_them(tmp_path):
    # A newsletter: bold capitals at the text's size are its sections' titles and its
    # items' titles alike; the list at its top, whose entries recur below as lines of
    # their own, says which are the sections.
    bold = "<w:b/><w:caps/>"
    SUPERSCRIPT = '<w:vertAlign w:val="superscript"/>'  # a link back to the top
    sections = ("Call for abstracts", "Funding opportunities", "News and notices")
    body = para(run("In this issue – click below to go to a section", "<w:b/>"))
    body += "".join(para(run(f"• {title}", bold)) for title in sections)
    for number, title in enumerate(sections):
        body += para(run(f"{title}   ", bold), run("TOP", SUPERSCRIPT))
        body += para(run(f"ITEM {number} OF THE SECTION", bold))
        body += para(f"The text of item {number}, which says what the item is about at length.")
    parsed = parse(tmp_path, body, smart_heading=True)
    rows = summary(parsed)
    assert rows[0][1] == "toc" and "• Call for abstracts" in rows[0][2]
    headings = [heading for heading, kind, _ in rows if kind != "toc"]
    for title in sections:
        assert f"{title} <sup>TOP</sup>" in headings, headings
    assert not any(heading.startswith("•") for heading in headings)


def test_a_journal_contents_with_slashed_page_numbers_names_its_articles(tmp_path):
    # "Author: Title / page" under a styled "Inhalt": a table of contents. The articles it
    # lists head their text (a title longer than a heading usually is, with a question
    # inside and a note's asterisk after it, too), none below the contents' title.
    larger = '<w:sz w:val="32"/>'
    question = (
        "Günter LANGWIELER: Unde Bonum? The Voice of Conscience: Is There a Moral Orientation"
        " from the Unconscious?"
    )
    articles = ("Tom KELLY: To the Members", "Reiner SEIBOLD: Ego-State Therapy", question)
    body = para("Inhalt", style="Heading1")
    body += "".join(para(f"{title}  /  {page}") for page, title in enumerate(articles, 2))
    for title in articles:
        body += para(run(title + (" *" if title == question else ""), larger))
        body += para("The text of the article, which says at length what the author thinks.")
    parsed = parse(tmp_path, body, smart_heading=True)
    assert summary(parsed)[0][:2] == ("Inhalt", "toc")
    assert [(r.heading, r.parent_headings) for r in parsed.rows[1:]] == [
        ("Tom KELLY: To the Members", ()),
        ("Reiner SEIBOLD: Ego-State Therapy", ()),
        (question + " *", ()),
    ]


def test_a_chapter_heading_over_its_own_contents_still_heads_its_sections(tmp_path):
    # A chapter opens with a contents of its sections (dot leaders, no title of its own):
    # the sections the smart outline finds after it stay under the chapter.
    sections = ("1.1 General", "1.2 Equipment", "1.3 Procedure", "1.4 Records", "1.5 Training")
    body = para("Chapter 1 Safety", style="Heading1")
    body += "".join(para(f"{title} ........ {page}") for page, title in enumerate(sections, 2))
    for title in sections:
        body += para(run(title, "<w:b/>"))
        body += para("The text of the section, which says at length what the author thinks.")
    parsed = parse(tmp_path, body, smart_heading=True)
    assert [r.extra.get("session_type") for r in parsed.rows[:2]] == [None, "toc"]
    assert [(r.heading, r.parent_headings) for r in parsed.rows[2:]] == [
        (title, ("Chapter 1 Safety",)) for title in sections
    ]


@pytest.mark.parametrize("drop_toc", [False, True])
def test_a_lone_line_that_reads_as_an_entry_is_text(tmp_path, monkeypatch, capsys, drop_toc):
    # A line with a tab and a number between body paragraphs, no TOC field, style or link
    # marking it, is the document's text: it stays in its section and reaches the chunks,
    # also when tables of contents (the styled one here) are left out.
    body = (
        para("Invoice\t1", style="TOC1")
        + para("Invoice", style="Heading1")
        + para("Thank you for your order of the spare pump parts listed below.")
        + para("Amount due\t45")
        + para("Please pay within thirty days of the date of this invoice.")
    )
    parsed = parse(tmp_path, body)
    assert summary(parsed) == [
        ("Table of Contents", "toc", "Invoice\t1"),
        (
            "Invoice",
            None,
            "# Invoice\nThank you for your order of the spare pump parts listed below.\n"
            "Amount due\t45\nPlease pay within thirty days of the date of this invoice.",
        ),
    ]
    monkeypatch.setenv("CHUNK_P_DROP_TOC", "true" if drop_toc else "false")
    capsys.readouterr()
    assert main(["chunk", str(tmp_path / "toc.docx"), "--json"]) == 0
    chunks = [json.loads(line)["content"] for line in capsys.readouterr().out.splitlines()]
    assert sum("Amount due\t45" in chunk for chunk in chunks) == 1
    assert any("Invoice\t1" in chunk for chunk in chunks) is not drop_toc


def test_entries_linked_to_toc_bookmarks_are_a_toc_without_a_field(tmp_path):
    # Word's entries (a page number, a link to a heading's _Toc bookmark) whose field marks
    # were lost: the links say what they are, too few and untitled as they are.
    body = para(entry("1 Scope", 1)) + para(entry("2 Terms", 3)) + BODY
    parsed = parse(tmp_path, body)
    assert summary(parsed)[0] == ("Table of Contents", "toc", "1 Scope\t1\n2 Terms\t3")


def test_styled_cover_lines_over_the_contents_leave_the_body_to_the_smart_outline(tmp_path):
    # A manual's name and kind set in a heading style on its cover, then the contents and a
    # body whose titles are only set larger: the two styled lines name the document, so
    # the body is read as an unstyled one's (its titles head its sections). A contents at
    # the end lists the styled headings above it: they are the outline, and none is added.
    def line(text: str, half_points: int) -> str:
        return para(run(text, f'<w:sz w:val="{half_points}"/>'))

    text = "本手册说明系统的安装、配置和日常使用方法，供管理人员和普通用户在使用过程中查阅。"
    sections = (
        line("一．引言", 30)
        + line("1.1 编写目的", 28)
        + line(text, 21)
        + line("1.2 项目背景", 28)
        + line(text, 21)
        + line("二．软件概述", 30)
        + line(text, 21)
    )
    cover = para("社团管理系统", style="Heading1") + para("用户操作手册", style="Heading1")
    contents = "".join(
        para(f"{title}\t{page}", style="TOC1")
        for title, page in [("一．引言", 3), ("1.1 编写目的", 3), ("二．软件概述", 4)]
    )
    parsed = parse(tmp_path, cover + contents + sections)
    assert [r.heading for r in parsed.rows][3:] == [
        "一．引言",
        "1.1 编写目的",
        "1.2 项目背景",
        "二．软件概述",
    ]
    # Body text before the contents: no cover, the styled lines head sections.
    parsed = parse(tmp_path, cover + line(text + text, 21) + contents + sections)
    assert "一．引言" not in [r.heading for r in parsed.rows]
    styled = para("1 Scope", style="Heading1") + line(text, 21)
    styled += para("2 Terms", style="Heading1") + line("一．引言", 30) + line(text, 21)
    ending = para("1 Scope\t1", style="TOC1") + para("2 Terms\t2", style="TOC1")
    parsed = parse(tmp_path, styled + ending)
    assert [r.heading for r in parsed.rows if r.extra.get("session_type") != "toc"] == [
        "1 Scope",
        "2 Terms",
    ]
