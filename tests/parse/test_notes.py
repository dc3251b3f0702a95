"""Footnotes and endnotes stay with their reference: a ``[^n]`` marker in the text and the note
text on the next line, in the same block; headings get no marker."""

from __future__ import annotations

from lightrag_pchunk.parse.document import parse_docx

from docx_builders import cell, para, table, write_rich_docx


def foot(note_id: str) -> str:
    return f'<w:r><w:footnoteReference w:id="{note_id}"/></w:r>'


def end(note_id: str) -> str:
    return f'<w:r><w:endnoteReference w:id="{note_id}"/></w:r>'


def note_text(text: str) -> str:
    return para("<w:r><w:footnoteRef/></w:r>", f" {text}")


def parse(tmp_path, body: str, **kwargs):
    source = write_rich_docx(tmp_path / "notes.docx", body, **kwargs)
    return parse_docx(source, tmp_path / "out")


def test_footnote_text_follows_the_referencing_paragraph(tmp_path):
    parsed = parse(
        tmp_path,
        para("Water boils at 100 degrees", foot("1"), ".") + para("Next paragraph."),
        footnotes={"1": note_text("At sea level.")},
    )
    assert parsed.content == (
        "Water boils at 100 degrees[^1].\n[^1]: At sea level.\nNext paragraph."
    )


def test_notes_are_numbered_by_first_reference_and_each_text_appears_once(tmp_path):
    parsed = parse(
        tmp_path,
        para("A", foot("7")) + para("B", foot("3")) + para("A again", foot("7")),
        footnotes={"3": note_text("Three."), "7": note_text("Seven.")},
    )
    assert parsed.content.split("\n") == [
        "A[^1]",
        "[^1]: Seven.",
        "B[^2]",
        "[^2]: Three.",
        "A again[^1]",
    ]


def test_endnotes_use_lower_roman_by_default_and_the_documents_format_if_set(tmp_path):
    body = para("Claim", end("2"))
    parsed = parse(tmp_path, body, endnotes={"2": note_text("Source.")})
    assert parsed.content == "Claim[^i]\n[^i]: Source."
    section = '<w:sectPr><w:endnotePr><w:numFmt w:val="decimal"/></w:endnotePr></w:sectPr>'
    parsed = parse(tmp_path, body + section, endnotes={"2": note_text("Source.")})
    assert parsed.content == "Claim[^1]\n[^1]: Source."


def test_a_heading_keeps_no_marker_and_its_note_follows_the_heading_line(tmp_path):
    body = para("Results", foot("1"), style="Heading1") + para("Body text.")
    parsed = parse(tmp_path, body, footnotes={"1": note_text("Preliminary.")})
    [row] = parsed.rows
    assert row.heading == "Results"
    assert row.content == "# Results\n[^1]: Preliminary.\nBody text."


def test_a_note_in_a_table_cell_stays_in_that_cell(tmp_path):
    body = table([["Item", "Cost"], ["Pump", cell(para("Value", foot("1")))]])
    parsed = parse(tmp_path, body, footnotes={"1": note_text("Estimated.")})
    assert '["Pump", "Value[^1]\\n[^1]: Estimated."]' in parsed.content


def test_multi_paragraph_notes_and_tables_in_notes_are_one_line(tmp_path):
    note = note_text("First part.") + para("Second part.") + table([["a", "b"], ["c", "d"]])
    parsed = parse(tmp_path, para("X", foot("1")), footnotes={"1": note})
    assert parsed.content == "X[^1]\n[^1]: First part. Second part. a | b c | d"


def test_separator_notes_unreferenced_notes_and_missing_ids_show_nothing(tmp_path):
    parsed = parse(
        tmp_path,
        para("Dangling", foot("99")) + para("Plain"),
        footnotes={"1": note_text("Never referenced.")},
    )
    assert parsed.content == "Dangling\nPlain"


def test_no_notes_part_is_not_an_error(tmp_path):
    parsed = parse(tmp_path, para("Ref", foot("1")))
    assert parsed.content == "Ref"
    assert parsed.warnings == ()
