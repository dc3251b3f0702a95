"""Paragraphs of a layout table (a table the parser reads as text) are outline items with their
look, as body paragraphs are: a page laid out in cells gets its headings; a data table stays
a table tag whatever its cells look like."""

from __future__ import annotations

from lightrag_pchunk.parse.document import parse_docx

from docx_builders import cell, para, run, table, write_rich_docx

BIG_BOLD = '<w:b/><w:sz w:val="48"/>'
BODY = (
    "Complete the questionnaire online before the closing date; the answers you give are"
    " checked against your resume and the documents you send with your application."
)
MORE = (
    "Send your resume with the dates of each job, the hours worked per week and the name of"
    " a supervisor we may contact, so that your experience can be credited in full."
)


def parse(tmp_path, body: str):
    source = write_rich_docx(tmp_path / "doc.docx", body)
    return parse_docx(source, tmp_path / "out", doc_id="doc-l")


def outline(parsed) -> list[tuple[int, str, tuple[str, ...]]]:
    return [(row.level, row.heading, row.parent_headings) for row in parsed.rows]


#: A page of text (over 2,000 characters): the cell of a document laid out in tables.
PAGE = [BODY, MORE] * 7
TEXT = "\n".join(PAGE)


def step_cell(number: int) -> str:
    return cell(para(run(f"STEP {number}:", BIG_BOLD)), *(para(text) for text in PAGE))


def test_a_bold_larger_line_in_a_one_column_layout_table_heads_its_section(tmp_path):
    parsed = parse(tmp_path, table([[step_cell(1)], [step_cell(2)]]))
    assert outline(parsed) == [(1, "STEP 1", ()), (1, "STEP 2", ())]
    assert [row.content for row in parsed.rows] == [
        f"# STEP 1\n{TEXT}",
        f"# STEP 2\n{TEXT}",
    ]
    assert all(row.extra.get("heading_source") == "inferred" for row in parsed.rows)
    assert parsed.tables == 0


def test_a_layout_table_nested_in_a_layout_table_is_read_the_same_way(tmp_path):
    inner = table([[step_cell(1)], [step_cell(2)]])
    parsed = parse(tmp_path, para("Job announcement") + table([[cell(inner)]]))
    assert outline(parsed) == [
        (1, "Preface/Uncategorized", ()),
        (1, "STEP 1", ()),
        (1, "STEP 2", ()),
    ]
    assert parsed.rows[2].content == f"# STEP 2\n{TEXT}"


def test_a_bold_line_heading_a_small_cell_or_ending_one_stays_text(tmp_path):
    # A box beside the text: its title is no section of the document.
    box = table([[cell(para(run("Box 1: Costs", BIG_BOLD)), para(BODY))]])
    # A page cell whose last line is bold heads nothing in it.
    ending = table([[cell(*(para(text) for text in PAGE), para(run("STEP 9", BIG_BOLD)))]])
    parsed = parse(tmp_path, box + ending)
    assert outline(parsed) == [(1, "Preface/Uncategorized", ())]
    assert parsed.rows[0].content == f"Box 1: Costs\n{BODY}\n{TEXT}\nSTEP 9"


def test_a_row_of_one_line_cells_stays_one_line_and_no_heading(tmp_path):
    # A row of short cells is read as one joined line: it is never a heading.
    row = [cell(para(run("STEP 1", BIG_BOLD))), cell(para(run("STEP 2", BIG_BOLD)))]
    body = table([row]) + para(BODY) + para(MORE)
    parsed = parse(tmp_path, body)
    assert outline(parsed) == [(1, "Preface/Uncategorized", ())]
    assert parsed.rows[0].content == f"STEP 1 | STEP 2\n{BODY}\n{MORE}"


def test_a_data_table_stays_a_table_tag_whatever_its_cells_look_like(tmp_path):
    rows = [
        ["Grade", "Salary", "Location"],
        [cell(para(run("STEP 1", BIG_BOLD)), para(BODY)), "32,534", "Buffalo"],
        ["GS-8", "36,030", "Bath"],
    ]
    parsed = parse(tmp_path, para(BODY) + table(rows) + para(MORE))
    assert outline(parsed) == [(1, "Preface/Uncategorized", ())]
    assert parsed.tables == 1
    (content,) = [row.content for row in parsed.rows]
    assert content.startswith(f"{BODY}\n<table id=") and content.endswith(f"</table>\n{MORE}")


def test_a_layout_table_beside_the_text_of_a_document_gives_no_headings(tmp_path):
    # Most of the text is the document's own: a framed page in it is a box, not its outline.
    text = "".join(para(text) for text in PAGE * 3)
    parsed = parse(tmp_path, text + table([[step_cell(1)]]) + text)
    assert outline(parsed) == [(1, "Preface/Uncategorized", ())]
    assert f"\nSTEP 1:\n{TEXT}\n" in parsed.rows[0].content


def test_a_paper_pasted_into_a_small_layout_table_keeps_its_section_names(tmp_path):
    # A web page saved as a document: its own text, styled, and a paper pasted into one
    # cell of its layout (under half of its words), whose section names kept no look.
    # The names head the paper's parts; its other lines title nothing (a box's lines).
    text = "".join(para(text) for text in PAGE * 2)
    paper = cell(
        para(run("Exposure to biphenyls and breast cancer", BIG_BOLD)),
        para("Introduction"),
        *(para(text) for text in PAGE),
        para("Subjects"),
        *(para(text) for text in PAGE),
        para("Results"),
        *(para(text) for text in PAGE),
    )
    body = (
        para("Cancer statistics", style="Heading1")
        + text
        + table([[paper]])
        + para("Review article", style="Heading1")
        + text
    )
    parsed = parse(tmp_path, body)
    assert [heading for _, heading, _ in outline(parsed)] == [
        "Cancer statistics",
        "Introduction",
        "Results",
        "Review article",
    ]
