"""The body text size a document's looks are measured against."""

from __future__ import annotations

from lightrag_pchunk.outline.items import Look
from lightrag_pchunk.parse.body_size import BodySize
from lightrag_pchunk.parse.document import parse_docx
from lightrag_pchunk.parse.outline_events import Event, EventKind, Line

from docx_builders import cell, para, run, table, write_rich_docx


def paragraph(text: str, size: float) -> Event:
    return Event(Line(text), EventKind.PARAGRAPH, look=lambda: Look(size=size))


def test_the_text_sets_the_size_not_the_longer_code_listings():
    # A specification's examples are its longest paragraphs by characters: JSON set at 11 pt,
    # a short line to each soft break. Its text, at 12 pt, fills its lines.
    listing = "{\n" + "\n".join(f'  "property_{n}": "value {n}",' for n in range(40)) + "\n}"
    text = "The binary data type represents a sequence of bytes, encoded as base64 text. " * 2
    events = [paragraph(listing, 11) for _ in range(60)] + [paragraph(text, 12) for _ in range(60)]
    assert BodySize(events)() == 12


def test_text_typed_with_soft_breaks_still_sets_the_size():
    # Prose whose lines were broken by hand: its lines are still longer than its titles'.
    prose = "\n".join(["本办法规定了安全生产管理的职责、程序和要求，适用于公司各部门。"] * 4)
    events = [paragraph("第一章 总则", 16), paragraph(prose, 10.5), paragraph(prose, 10.5)]
    assert BodySize(events)() == 10.5


def test_the_text_of_a_documents_tables_sets_the_size():
    # A document whose text is all in tables: outside them, only its titles (16 pt).
    titles = [paragraph(f"Table with feature {n}", 16) for n in range(6)]
    cells = tuple((f"Cell text number {n}, a sentence of the table.", lambda: Look(size=12))
                  for n in range(8))  # fmt: skip
    tables = [Event(Line("<table/>"), cells=cells) for _ in titles]
    events = [event for pair in zip(titles, tables, strict=True) for event in pair]
    assert BodySize(titles)() == 16
    assert BodySize(events)() == 12


def test_prose_outside_the_tables_still_sets_the_size():
    # Prose at 11 pt with lines as long as a table's set at 10 pt: the prose is sampled
    # beside the cells, which do not outweigh it where the document has its text outside.
    prose = "The provider attests that each control below is in place and tested yearly. " * 3
    cells = tuple(("Control AC-2: account management, reviewed.", lambda: Look(size=10))
                  for _ in range(40))  # fmt: skip
    events = [paragraph(prose, 11) for _ in range(30)] + [Event(Line("<table/>"), cells=cells)]
    assert BodySize(events)() == 11


LARGE = '<w:sz w:val="32"/>'  # 16 pt, not bold: each section's title
TEXT_12 = '<w:sz w:val="24"/>'


def test_titles_over_tables_holding_the_text_are_headings(tmp_path):
    # Each section is a title set at 16 pt over a table whose cells hold its text at 12 pt:
    # measured against the cells' text, the titles are set larger.
    sections = ("Tables with rich cells", "Tables with pictures", "Lists in different cells")
    body = ""
    for title in sections:
        rows = [["Column A", "Column B"]] + [
            [cell(para(run(f"{title}: item {n} of the list in this cell.", TEXT_12))),
             cell(para(run(f"Another paragraph, the {n}th, in the second column.", TEXT_12)))]
            for n in range(3)
        ]  # fmt: skip
        body += para(run(title, LARGE)) + table(rows)
    source = write_rich_docx(tmp_path / "doc.docx", body)
    parsed = parse_docx(source, tmp_path / "out", doc_id="doc-t", smart_heading=True)
    assert [row.heading for row in parsed.rows] == list(sections)
    assert all("<table" in row.content for row in parsed.rows)
