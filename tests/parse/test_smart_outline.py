"""The smart outline in the .docx parser: documents typed without heading styles get their
chapter/article tree, inferred headings are marked, styles win where they exist, and the
switch follows smart_heading / DOCX_SMART_HEADING (auto by default)."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.parse.document import parse_docx
from lightrag_pchunk.parse.outline_events import Event, EventKind, Line, join_split_titles

from docx_builders import para, rich_xml, run, style, write_rich_docx

REGULATION = [
    "XX公司安全生产管理办法",
    "第一章 总则",
    "第一条 为加强公司安全生产管理，保障员工生命财产安全，制定本办法。",
    "第二条 本办法适用于公司所属各部门及全体员工。",
    "第二章 管理职责",
    "第三条 安全生产委员会是公司安全生产的最高决策机构。",
    "第四条 各部门负责人是本部门安全生产第一责任人。",
]


def parse(tmp_path, body: str, *, name: str = "doc.docx", **kwargs):
    source = write_rich_docx(tmp_path / name, body, styles=kwargs.pop("styles", None))
    return parse_docx(source, tmp_path / "out", doc_id="doc-s", **kwargs)


def outline(parsed) -> list[tuple[int, str, tuple[str, ...], str | None]]:
    return [
        (row.level, row.heading, row.parent_headings, row.extra.get("heading_source"))
        for row in parsed.rows
    ]


def test_a_regulation_typed_without_styles_gets_its_chapter_article_tree(tmp_path):
    parsed = parse(tmp_path, "".join(para(line) for line in REGULATION))
    assert outline(parsed) == [
        (1, "Preface/Uncategorized", (), None),
        (1, "第一章 总则", (), "inferred"),
        (2, "第一条", ("第一章 总则",), "inferred"),
        (2, "第二条", ("第一章 总则",), "inferred"),
        (1, "第二章 管理职责", (), "inferred"),
        (2, "第三条", ("第二章 管理职责",), "inferred"),
        (2, "第四条", ("第二章 管理职责",), "inferred"),
    ]
    article = parsed.rows[2]
    assert (
        article.content == "## 第一条\n为加强公司安全生产管理，保障员工生命财产安全，制定本办法。"
    )
    assert parsed.outline.applied and parsed.inferred_headings == 6
    lines = parsed.blocks_path.read_text(encoding="utf-8").splitlines()
    meta, row = json.loads(lines[0]), json.loads(lines[3])
    assert meta["outline"] == {
        "smart_heading": "auto", "applied": True, "styled_headings": 0,
        "inferred_headings": 6, "toc_blocks": 0,
    }  # fmt: skip
    assert row["heading_source"] == "inferred" and row["heading"] == "第一条"


def test_smart_heading_off_keeps_the_styles_only_outline(tmp_path):
    parsed = parse(tmp_path, "".join(para(line) for line in REGULATION), smart_heading=False)
    assert outline(parsed) == [(1, "Preface/Uncategorized", (), None)]
    assert not parsed.outline.applied


def test_the_environment_switch_and_its_errors(tmp_path, monkeypatch):
    body = "".join(para(line) for line in REGULATION)
    monkeypatch.setenv("DOCX_SMART_HEADING", "false")
    assert parse(tmp_path, body).inferred_headings == 0
    monkeypatch.setenv("DOCX_SMART_HEADING", "true")
    assert parse(tmp_path, body).inferred_headings == 6
    assert parse(tmp_path, body, smart_heading="off").inferred_headings == 0  # argument wins
    monkeypatch.setenv("DOCX_SMART_HEADING", "maybe")
    with pytest.raises(ValueError, match="DOCX_SMART_HEADING"):
        parse(tmp_path, body)


def test_look_from_runs_and_from_a_paragraph_style_makes_headings(tmp_path):
    styles = rich_xml(
        "styles",
        style("Normal", "Normal", default=True).replace(
            "</w:style>", '<w:rPr><w:sz w:val="22"/></w:rPr></w:style>'
        )
        + style("Big", "Big title").replace(
            "</w:style>", '<w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>'
        ),
    )
    long = "The cold store keeps goods at minus twenty degrees and is checked every day by staff."
    body = (
        para("Overview", style="Big")
        + para(long)
        + para(run("Ammonia systems", '<w:b/><w:sz w:val="28"/>'))
        + para(long)
        + para(run("Note", "<w:b/>"))  # bold at body size while larger headings exist
        + para(long)
    )
    parsed = parse(tmp_path, body, styles=styles, smart_heading=True)
    assert [(r.level, r.heading) for r in parsed.rows] == [
        (1, "Overview"),
        (2, "Ammonia systems"),
    ]
    assert "Note\n" in parsed.rows[1].content


def test_a_styled_title_over_unstyled_clauses(tmp_path):
    styles = rich_xml("styles", style("Heading1", "heading 1", outline=0))
    body = para("安全生产管理办法", style="Heading1") + "".join(para(x) for x in REGULATION[1:])
    parsed = parse(tmp_path, body, styles=styles)  # auto: one styled heading, a title
    assert [(r.level, r.heading, r.extra.get("heading_source")) for r in parsed.rows] == [
        (1, "安全生产管理办法", None),
        (2, "第一章 总则", "inferred"),
        (3, "第一条", "inferred"),
        (3, "第二条", "inferred"),
        (2, "第二章 管理职责", "inferred"),
        (3, "第三条", "inferred"),
        (3, "第四条", "inferred"),
    ]
    assert parsed.rows[2].parent_headings == ("安全生产管理办法", "第一章 总则")


def test_auto_leaves_a_well_styled_document_alone(tmp_path):
    styles = rich_xml(
        "styles",
        style("Heading1", "heading 1", outline=0) + style("Heading2", "heading 2", outline=1),
    )
    body = (
        para("1 Scope", style="Heading1")
        + para(run("Bold lead line", "<w:b/>"))
        + para("Text of the scope.")
        + para("2 Terms", style="Heading1")
        + para("1.1 Not a heading here")
        + para("Terms text.")
    )
    parsed = parse(tmp_path, body, styles=styles)
    assert [(r.level, r.heading) for r in parsed.rows] == [(1, "1 Scope"), (1, "2 Terms")]
    assert not parsed.outline.applied


def test_a_title_style_is_never_inferred(tmp_path):
    styles = rich_xml("styles", style("Title", "Title"))
    body = para(run("Annual report", '<w:b/><w:sz w:val="52"/>'), style="Title") + "".join(
        para(line) for line in REGULATION[1:4]
    )
    parsed = parse(tmp_path, body, styles=styles, smart_heading=True)
    assert parsed.rows[0].heading == "Preface/Uncategorized"
    assert parsed.rows[0].content == "Annual report"
    assert parsed.rows[1].heading == "第一章 总则"


def test_a_subtitle_style_set_on_every_section_title_heads_them(tmp_path):
    # Word's Subtitle style (bold 14 pt) over each section of a test page, not the
    # document's name: set on more lines than a cover holds, it is the author's heading look.
    styles = rich_xml("styles", style("subtitle", "subtitle"))
    look = '<w:b/><w:sz w:val="28"/>'
    text = "Verify that the lines below print as the text describes, in each of the printers."
    sections = ("Fields", "Equations:", "Tables:", "Underlining", "Graphics")

    def section(title: str) -> str:
        return para(run(title, look), style="subtitle") + para(text) + para(text)

    body = para(run("Printer test", '<w:b/><w:sz w:val="36"/>')) + para(text)
    body += "".join(map(section, sections))
    parsed = parse(tmp_path, body, styles=styles)
    assert [(r.level, r.heading) for r in parsed.rows] == [
        (1, "Printer test"),
        *((2, title.rstrip(":")) for title in sections),
    ]
    # Set on a cover's few lines (and no more), it names the document: never a heading.
    cover = "".join(para(run(line, look), style="subtitle") for line in ("Printer test", "v2"))
    body = para(text) + "".join(map(section, sections[:2]))
    parsed = parse(tmp_path, cover + body, styles=styles)
    assert [r.heading for r in parsed.rows] == ["Preface/Uncategorized"]


def test_word_list_numbering_needs_look_or_a_unit_name(tmp_path):
    from docx_builders import numbering_xml

    numbering = numbering_xml(
        '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
        '<w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum>'
        '<w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>'
    )
    item = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
    long = "A paragraph of body text that explains the item above in full sentences."
    body = para("Checklist", ppr="") + para("Apples", ppr=item) + para(long)
    body += para("Pears", ppr=item) + para(long)
    source = write_rich_docx(tmp_path / "list.docx", body, numbering=numbering)
    parsed = parse_docx(source, tmp_path / "out", smart_heading=True)
    assert [r.heading for r in parsed.rows] == ["Preface/Uncategorized"]
    assert "1. Apples" in parsed.rows[0].content


def test_an_inferred_heading_with_a_soft_break_is_one_line(tmp_path):
    big = '<w:b/><w:sz w:val="32"/>'
    body = para(run("Chapter 18.33", big), f"<w:r><w:rPr>{big}</w:rPr><w:br/></w:r>",
                run("ACCESSORY DWELLING UNITS", big))  # fmt: skip
    body += para("The purpose of this chapter is to allow accessory dwelling units in zones.")
    parsed = parse(tmp_path, body, smart_heading=True)
    assert parsed.rows[0].heading == "Chapter 18.33 ACCESSORY DWELLING UNITS"
    assert parsed.rows[0].content.startswith(
        "# Chapter 18.33 ACCESSORY DWELLING UNITS\nThe purpose"
    )


def test_an_article_split_at_its_colon_keeps_the_colon_after_an_ideographic_space(tmp_path):
    # "第二十八条　库房温度应当符合下列要求：（一）…": the heading's line is printed with the
    # colon that parts it from its body, whatever space follows the article's number.
    article = "第二条\u3000库房温度应当符合下列要求：（一）冷藏库不高于4℃；（二）冷冻库更低。"
    lines = [*REGULATION[:3], article]
    parsed = parse(tmp_path, "".join(para(line) for line in lines))
    article = parsed.rows[-1]
    assert article.heading == "第二条\u3000库房温度应当符合下列要求"
    assert article.content.startswith("## 第二条\u3000库房温度应当符合下列要求：\n（一）冷藏库")


def test_a_units_label_alone_over_its_name_on_the_next_paragraph_is_one_title(tmp_path):
    # "第一篇" and its name typed as two paragraphs, as handbooks and codes often are: one
    # title, over the parts it holds; a label over a sentence stays a bare label over text.
    body = "员工应当遵守本所的各项规章制度，按时上下班，不得迟到早退，违者按有关规定处理。"
    bold = "<w:b/>"
    lines = [
        para("第一篇"),
        para("基本制度和行为规范"),
        para(run("第一部分 入所须知", bold)),
        para(body),
        para(run("第二部分 行为规范", bold)),
        para(body),
        para("第二篇"),
        para("法律服务操作规程"),
        para(run("第一部分 收案", bold)),
        para(body),
        para("第三篇"),
        para("本篇规定律师事务所的财务管理，各部门应当遵守并执行。"),
    ]
    parsed = parse(tmp_path, "".join(lines))
    first, second = "第一篇 基本制度和行为规范", "第二篇 法律服务操作规程"
    assert [row[:3] for row in outline(parsed)] == [
        (1, first, ()),
        (2, "第一部分 入所须知", (first,)),
        (2, "第二部分 行为规范", (first,)),
        (1, second, ()),
        (2, "第一部分 收案", (second,)),
        (1, "第三篇", ()),
    ]
    assert parsed.rows[0].content == "# 第一篇 基本制度和行为规范"
    last = "本篇规定律师事务所的财务管理，各部门应当遵守并执行。"
    assert parsed.rows[-1].content.endswith(f"\n{last}")


def test_a_label_over_a_block_of_title_lines_is_read_as_it_stands():
    # An appendix's label, its name and the title of the form it holds, centred one under
    # the other: no one line is the label's name, so none is joined to it.
    def paragraph(text: str) -> Event:
        return Event(Line(text), EventKind.PARAGRAPH)

    block = ["APPENDIX B", "STANDARDS FOR CREW OPERATIONS", "ANNUAL PREPAREDNESS REVIEW"]
    events = join_split_titles([paragraph(text) for text in block])
    assert [event.line.text for event in events] == block
    named = join_split_titles([paragraph("APPENDIX B"), paragraph("CREW STANDARDS")])
    assert [event.line.text for event in named] == ["APPENDIX B\nCREW STANDARDS"]


def test_a_styled_heading_left_open_goes_on_in_the_paragraph_after_it(tmp_path):
    # A chapter's title broken by a paragraph mark after an enumeration's comma: its end
    # on the next, unstyled paragraph is no section of its own but the rest of the title.
    styles = rich_xml("styles", style("Heading1", "heading 1", outline=0))
    text = "供应商应按照本章要求提供服务，并接受采购人的监督检查和考核。"
    body = (
        para("第二章 采购须知", style="Heading1")
        + para(text)
        + para("第三章 总体要求、技术及服务要求、", style="Heading1")
        + para("商务和其它要求")
        + para(text)
    )
    parsed = parse(tmp_path, body, styles=styles, smart_heading=True)
    title = "第三章 总体要求、技术及服务要求、商务和其它要求"
    assert [(r.level, r.heading) for r in parsed.rows] == [
        (1, "第二章 采购须知"),
        (1, title),
    ]
    assert parsed.rows[1].content == f"# {title}\n{text}"


def test_a_forms_field_line_given_an_outline_level_heads_nothing(tmp_path):
    # An outline level set by hand on a form's line of fields to fill in: no section
    # starts there; the clauses after it stay in the chapter they belong to. A title
    # holding a blank ("关于____的通知", a template's) stays a heading.
    styles = rich_xml("styles", style("Heading1", "heading 1", outline=0))
    level = '<w:outlineLvl w:val="0"/>'
    text = "投标人应当如实填写以下信息，并加盖单位公章后随投标文件一并提交。"
    body = (
        para("第五章 投标文件格式", style="Heading1")
        + para(text)
        + para("电    话：_____________    传    真：_____________", ppr=level)
        + para(text)
        + para("关于________的通知", style="Heading1")
        + para(text)
    )
    parsed = parse(tmp_path, body, styles=styles, smart_heading=False)
    assert [(r.level, r.heading) for r in parsed.rows] == [
        (1, "第五章 投标文件格式"),
        (1, "关于________的通知"),
    ]
    assert "电    话：_____________" in parsed.rows[0].content
