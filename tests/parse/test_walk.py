"""The walk over w:body: headings (outline levels, localised and outline-only styles), the
heading stack, the Preface block, numbering labels, block equations and paraId positions."""

from __future__ import annotations

import json

import pytest
from docx import Document
from docx.enum.style import WD_STYLE_TYPE

from lightrag_pchunk.parse.document import parse_docx

from docx_builders import (
    cell,
    numbering_xml,
    para,
    rich_xml,
    style,
    table,
    write_rich_docx,
)

MATH_X = "<m:oMath><m:r><m:t>x</m:t></m:r></m:oMath>"


def styles_xml(*styles: str) -> str:
    return rich_xml("styles", "".join(styles))


def parse(tmp_path, body: str, **kwargs):
    source = write_rich_docx(tmp_path / "walk.docx", body, **kwargs)
    return parse_docx(source, tmp_path / "out", doc_id="doc-w")


def outline(rows) -> list[tuple[int, str, tuple[str, ...]]]:
    return [(row.level, row.heading, row.parent_headings) for row in rows]


def test_preface_heading_stack_parents_and_heading_only_blocks(tmp_path):
    doc = Document()
    doc.add_paragraph("Before any heading.")
    doc.add_heading("Manual", level=1)
    doc.add_heading("Scope", level=2)
    doc.add_paragraph("Scope text.")
    doc.add_heading("Details", level=3)
    doc.add_heading("Terms", level=2)  # closes "Details"
    doc.add_paragraph("Terms text.")
    doc.add_heading("Annex", level=1)
    path = tmp_path / "stack.docx"
    doc.save(path)
    parsed = parse_docx(path, tmp_path / "out")
    assert outline(parsed.rows) == [
        (1, "Preface/Uncategorized", ()),
        (1, "Manual", ()),
        (2, "Scope", ("Manual",)),
        (3, "Details", ("Manual", "Scope")),
        (2, "Terms", ("Manual",)),
        (1, "Annex", ()),
    ]
    assert [row.content for row in parsed.rows] == [
        "Before any heading.",
        "# Manual",
        "## Scope\nScope text.",
        "### Details",
        "## Terms\nTerms text.",
        "# Annex",
    ]
    assert parsed.meta["doc_title"] == "Manual"


def test_levels_up_to_9_keep_their_level_and_cap_the_markdown_at_six(tmp_path):
    body = "".join(para(f"L{n}", ppr=f'<w:outlineLvl w:val="{n - 1}"/>') for n in (1, 7, 9))
    rows = parse(tmp_path, body).rows
    assert [(r.level, r.content) for r in rows] == [
        (1, "# L1"),
        (7, "###### L7"),
        (9, "###### L9"),
    ]
    assert rows[2].parent_headings == ("L1", "L7")


def test_based_on_chain_any_depth_and_cycles(tmp_path):
    styles = styles_xml(
        style("Heading2", "heading 2", outline=1),
        style("Custom", "Custom", based_on="Heading2"),
        style("Custom2", "Custom two", based_on="Custom"),
        style("LoopA", "Loop A", based_on="LoopB"),
        style("LoopB", "Loop B", based_on="LoopA"),
    )
    body = para("Two hops", style="Custom2") + para("In a cycle", style="LoopA")
    assert outline(parse(tmp_path, body, styles=styles).rows) == [(2, "Two hops", ())]


def test_paragraph_outline_level_overrides_the_style_and_9_is_body(tmp_path):
    styles = styles_xml(style("Heading1", "heading 1", outline=0))
    body = (
        para("Direct level 3", ppr='<w:outlineLvl w:val="2"/>')
        + para("Heading style demoted", style="Heading1", ppr='<w:outlineLvl w:val="9"/>')
        + para("Real heading", style="Heading1")
    )
    rows = parse(tmp_path, body, styles=styles).rows
    assert outline(rows) == [(3, "Direct level 3", ()), (1, "Real heading", ())]
    assert rows[0].content == "### Direct level 3\nHeading style demoted"


@pytest.mark.parametrize(
    ("name", "level"),
    [("标题 1", 1), ("Überschrift 2", 2), ("Titre 3", 3), ("heading 4", 4), ("Заголовок 2", 2)],
)
def test_localised_builtin_heading_names_without_outline_level(tmp_path, name, level):
    styles = styles_xml(style("s1", name))
    rows = parse(tmp_path, para("Section", style="s1"), styles=styles).rows
    assert outline(rows) == [(level, "Section", ())]


def test_styles_that_only_carry_an_outline_level(tmp_path):
    styles = styles_xml(
        style("a1", "章标题", outline=0),
        style("a2", "一级条标题", outline=1),
        style("toc", "TOC Heading", based_on="a1", outline=9),
    )
    body = para("目次", style="toc") + para("1 范围", style="a1") + para("1.1 总则", style="a2")
    rows = parse(tmp_path, body, styles=styles).rows
    assert outline(rows) == [
        (1, "Preface/Uncategorized", ()),
        (1, "1 范围", ()),
        (2, "1.1 总则", ("1 范围",)),
    ]


def heading_numbering() -> str:
    # Level 2 is "legal" (w:isLgl): its parent number shows as decimal, "1.1" not "一.1".
    levels = "".join(
        f'<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>{extra}'
        f'<w:lvlText w:val="{text}"/><w:pStyle w:val="Heading{i + 1}"/></w:lvl>'
        for i, (fmt, text, extra) in enumerate(
            [("chineseCounting", "第%1章", ""), ("decimal", "%1.%2", "<w:isLgl/>")]
        )
    )
    return numbering_xml(
        f'<w:abstractNum w:abstractNumId="0">{levels}</w:abstractNum>'
        '<w:num w:numId="5"><w:abstractNumId w:val="0"/></w:num>'
    )


def test_heading_numbers_come_from_numbering_linked_to_the_heading_styles(tmp_path):
    styles = styles_xml(
        style("Heading1", "heading 1", outline=0, num_id=5),
        style("Heading2", "heading 2", outline=1, num_id=5, ilvl=1),
    )
    body = (
        para("总则", style="Heading1")
        + para("范围", style="Heading2")
        + para("术语", style="Heading2")
        + para("要求", style="Heading1")
        + para("设计", style="Heading2")
    )
    rows = parse(tmp_path, body, styles=styles, numbering=heading_numbering()).rows
    assert [row.heading for row in rows] == [
        "第一章 总则",
        "1.1 范围",
        "1.2 术语",
        "第二章 要求",
        "2.1 设计",
    ]
    assert rows[4].parent_headings == ("第二章 要求",)


def test_bullets_are_a_plain_bullet_not_a_private_use_glyph(tmp_path):
    doc = Document()
    doc.add_paragraph("First point", style="List Bullet")
    doc.add_paragraph("Step one", style="List Number")
    doc.add_paragraph("Step two", style="List Number")
    path = tmp_path / "lists.docx"
    doc.save(path)
    content = parse_docx(path, tmp_path / "out").content
    assert content == "• First point\n1. Step one\n2. Step two"
    assert not any(0xE000 <= ord(ch) <= 0xF8FF for ch in content)


def test_over_long_heading_is_split_at_its_soft_break_or_kept_as_body(tmp_path):
    long_tail = "word " * 60
    split = para(
        f"<w:r><w:t>Short title</w:t><w:br/><w:t>{long_tail}</w:t></w:r>", style="Heading1"
    )
    demoted = para("x" * 201, style="Heading1")
    parsed = parse(tmp_path, split + demoted)
    [row] = parsed.rows
    assert row.heading == "Short title"
    assert row.content == f"# Short title\n{long_tail.strip()}\n{'x' * 201}"
    assert any("201 characters" in warning for warning in parsed.warnings)


def test_tabs_and_soft_breaks_in_headings_become_one_space(tmp_path):
    body = para("<w:r><w:t>1.1</w:t><w:tab/><w:t>Scope</w:t><w:br/><w:t>and aims</w:t></w:r>",
                style="Heading1") + para("目  次", style="Heading1")  # fmt: skip
    rows = parse(tmp_path, body).rows
    assert [r.heading for r in rows] == ["1.1 Scope and aims", "目 次"]
    assert rows[0].content == "# 1.1 Scope and aims"


def test_a_heading_is_named_with_its_typed_padding_as_one_space_its_line_keeps_it(tmp_path):
    padded = "FUNDING OPPORTUNITIES" + " " * 40 + "TOP"
    body = para(padded, style="Heading1") + para("Grants for research.")
    body += para("附\u3000录\u3000A", style="Heading1") + para("资料。")
    rows = parse(tmp_path, body).rows
    assert [row.heading for row in rows] == ["FUNDING OPPORTUNITIES TOP", "附\u3000录\u3000A"]
    assert rows[0].content == f"# {padded}\nGrants for research."


def test_markdown_heading_text_is_kept_as_written(tmp_path):
    [row] = parse(tmp_path, para("## Already markdown", style="Heading3")).rows
    assert row.content == "## Already markdown"
    assert row.heading == "Already markdown"
    assert row.level == 3


def test_headings_in_body_content_controls_count_but_not_in_cells_or_text_boxes(tmp_path):
    sdt = f"<w:sdt><w:sdtContent>{para('Controlled', style='Heading1')}</w:sdtContent></w:sdt>"
    in_cell = table([["Cell", "Note"], [cell(para("Cell heading", style="Heading1")), "1"]])
    box = (
        '<w:r><w:drawing><wp:anchor><wp:docPr id="1" name="Box"/><a:graphic><a:graphicData>'
        f"<wps:wsp><wps:txbx><w:txbxContent>{para('Box heading', style='Heading1')}"
        "</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor>"
        "</w:drawing></w:r>"
    )
    rows = parse(tmp_path, sdt + in_cell + para("Host", box)).rows
    assert outline(rows) == [(1, "Controlled", ())]
    assert rows[0].content.split("\n")[2:] == ["Host", "Box heading"]
    assert '[["Cell", "Note"], ["Cell heading", "1"]]' in rows[0].content


def test_a_heading_paragraph_holding_only_a_picture_is_not_a_heading(tmp_path):
    picture = (
        '<w:r><w:drawing><wp:inline><wp:docPr id="1" name="p"/><a:graphic><a:graphicData>'
        '<pic:pic><pic:blipFill><a:blip r:embed="rIdX"/></pic:blipFill></pic:pic>'
        "</a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"
    )
    rows = parse(tmp_path, para(picture, style="Heading1") + para("Text")).rows
    assert outline(rows) == [(1, "Preface/Uncategorized", ())]
    assert rows[0].content.startswith("<drawing ")


def test_block_and_inline_equations(tmp_path):
    two = f"<m:oMathPara>{MATH_X}<m:oMath><m:r><m:t>y</m:t></m:r></m:oMath></m:oMathPara>"
    numbered = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
    numbering = numbering_xml(
        '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
        '<w:numFmt w:val="decimal"/><w:lvlText w:val="(%1)"/></w:lvl></w:abstractNum>'
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
    )
    body = (
        para(MATH_X)
        + para("where ", MATH_X, " is real")
        + para(two)
        + para(MATH_X, ppr=numbered)
        + table([["Term", "Value"], ["x", cell(para(MATH_X))]])
    )
    parsed = parse(tmp_path, body, numbering=numbering)
    assert parsed.content.split("\n")[:4] == [
        '<equation id="eq-w-0001" format="latex">x</equation>',
        'where <equation format="latex">x</equation> is real',
        '<equation id="eq-w-0002" format="latex">\\begin{gathered} x \\\\ y \\end{gathered}'
        "</equation>",
        '(1) <equation format="latex">x</equation>',
    ]
    assert '["x", "<equation format=\\"latex\\">x</equation>"]]' in parsed.content
    items = json.loads((parsed.parsed_dir / "walk.equations.json").read_text())["equations"]
    assert list(items) == ["eq-w-0001", "eq-w-0002"]
    assert items["eq-w-0001"]["content"] == "x"
    assert parsed.equations == 2


def test_positions_span_the_first_and_last_paraid_of_each_block(tmp_path):
    body = (
        para("Intro", para_id="00000001")
        + para("Title", style="Heading1", para_id="0000000A")
        + para("middle", para_id="0000000B")
        + table([[cell(para("c", para_id="0000000C"))]])
        + para("Bare")
        + para("Next", style="Heading1")
    )
    rows = parse(tmp_path, body).rows
    assert [row.positions for row in rows] == [
        ({"type": "paraid", "range": ["00000001", "00000001"]},),
        ({"type": "paraid", "range": ["0000000A", None]},),
        ({"type": "paraid", "range": [None, None]},),
    ]


def test_a_character_style_named_like_a_heading_is_not_a_heading(tmp_path):
    doc = Document()
    doc.styles.add_style("Heading 1 Char Custom", WD_STYLE_TYPE.CHARACTER)
    run_paragraph = doc.add_paragraph()
    run_paragraph.add_run("Only a character style", style="Heading 1 Char Custom")
    path = tmp_path / "chars.docx"
    doc.save(path)
    assert outline(parse_docx(path, tmp_path / "out").rows) == [(1, "Preface/Uncategorized", ())]


def test_list_restarts_overrides_and_formats(tmp_path):
    levels = (
        '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/>'
        '<w:lvlText w:val="%1."/></w:lvl>'
        '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/>'
        '<w:lvlText w:val="(%2)"/></w:lvl>'
    )
    numbering = numbering_xml(
        f'<w:abstractNum w:abstractNumId="0">{levels}</w:abstractNum>'
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
        '<w:num w:numId="2"><w:abstractNumId w:val="0"/>'
        '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'
    )

    def item(text: str, num: int, ilvl: int = 0) -> str:
        numbered = f'<w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num}"/></w:numPr>'
        return para(text, ppr=numbered)

    body = (
        item("one", 1)
        + item("sub", 1, 1)
        + item("sub two", 1, 1)
        + item("two", 1)
        + table([["Step", "Note"], ["between", "1"]])  # a table does not break the list
        + item("three", 1)
        + item("again", 2)  # a w:num with a startOverride restarts the list
        + item("removed", 0)
    )
    content = parse(tmp_path, body, numbering=numbering).content
    assert content.split("\n") == [
        "I. one",
        "(a) sub",
        "(b) sub two",
        "II. two",
        '<table id="tb-w-0001" format="json">[["Step", "Note"], ["between", "1"]]</table>',
        "III. three",
        "I. again",
        "removed",
    ]


def test_headers_footers_and_comments_are_not_body_text(tmp_path):
    doc = Document()
    doc.sections[0].header.paragraphs[0].text = "Running header"
    doc.sections[0].footer.paragraphs[0].text = "Page footer"
    body = doc.add_paragraph("Commented sentence.")
    doc.add_comment(body.runs, text="A reviewer's remark", author="R")
    path = tmp_path / "hf.docx"
    doc.save(path)
    assert parse_docx(path, tmp_path / "out").content == "Commented sentence."
