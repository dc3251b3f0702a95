"""A title bar (a layout table whose only text is a heading-styled paragraph: the banner a
template draws around each chapter's title) heads its section as the paragraph would in the
body; a heading style in any other cell stays text there."""

from __future__ import annotations

from lightrag_pchunk.parse.document import parse_docx

from docx_builders import PNG_1PX, cell, para, table, write_rich_docx

TEXT = "The verifier checks each requirement against the application and records the result."
MORE = "Each level adds requirements to the one below it and is verified in the same way."


def parse(tmp_path, body: str, **kwargs):
    source = write_rich_docx(tmp_path / "doc.docx", body, **kwargs)
    return parse_docx(source, tmp_path / "out", doc_id="doc-t")


def outline(parsed) -> list[tuple[int, str, tuple[str, ...]]]:
    return [(row.level, row.heading, row.parent_headings) for row in parsed.rows]


def bar(title: str, style: str) -> str:
    """A banner: a colour stripe and a number's cell, empty, beside the styled title."""
    return table([[cell(), cell(), cell(para(title, style=style))]])


def test_a_heading_styled_title_alone_in_a_layout_table_heads_its_section(tmp_path):
    body = (
        para(TEXT)
        + bar("Verification Levels", "Heading1")
        + para(TEXT)
        + bar("Level 1: Opportunistic", "Heading2")
        + para(MORE)
        + bar("Appendix A", "Heading1")
        + para(MORE)
    )
    parsed = parse(tmp_path, body)
    assert outline(parsed) == [
        (1, "Preface/Uncategorized", ()),
        (1, "Verification Levels", ()),
        (2, "Level 1: Opportunistic", ("Verification Levels",)),
        (1, "Appendix A", ()),
    ]
    assert parsed.rows[2].content == f"## Level 1: Opportunistic\n{MORE}"
    assert parsed.tables == 0


def test_a_one_cell_bar_of_two_styled_titles_gives_both(tmp_path):
    titles = cell(para("Part II", style="Heading1"), para("Requirements", style="Heading2"))
    parsed = parse(tmp_path, table([[titles]]) + para(TEXT))
    assert outline(parsed) == [(1, "Part II", ()), (2, "Requirements", ("Part II",))]
    assert parsed.rows[1].content == f"## Requirements\n{TEXT}"


def test_a_styled_title_with_anything_else_in_its_table_stays_text(tmp_path):
    # A box: its styled title over its own text in the one cell.
    box = table([[cell(para("Box 1: Costs", style="Heading1"), para(TEXT))]])
    # A form's label beside its field, the label in a heading style.
    label = table([[cell(para("Contracting party", style="Heading2")), cell(para("ACME Ltd"))]])
    # Two styled cells side by side: a row of labels, read as one line.
    labels = table([[cell(para("Name", style="Heading2")), cell(para("Date", style="Heading2"))]])
    # A styled title over a second row of text.
    rows = table([[cell(para("Scope", style="Heading1"))], [cell(para(MORE))]])
    parsed = parse(tmp_path, para(TEXT) + box + label + labels + rows)
    assert outline(parsed) == [(1, "Preface/Uncategorized", ())]
    assert parsed.rows[0].content == "\n".join(
        [TEXT, "Box 1: Costs", TEXT, "Contracting party | ACME Ltd", "Name | Date", "Scope", MORE]
    )


ICON = (
    '<w:r><w:drawing><wp:inline><wp:docPr id="1" name="p"/><a:graphic><a:graphicData>'
    '<pic:pic><pic:blipFill><a:blip r:embed="rIdX"/></pic:blipFill></pic:pic>'
    "</a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"
)


def test_an_icon_beside_the_title_or_under_it_follows_the_heading(tmp_path):
    # As a heading's own picture does in the body: the heading, then the picture's line.
    beside = table([[cell(para(ICON)), cell(para("Scope", style="Heading1"))]])
    under = table([[cell(para("Terms", style="Heading1"), para(ICON))]])
    parsed = parse(tmp_path, beside + para(TEXT) + under + para(MORE), media={"rIdX": PNG_1PX})
    assert outline(parsed) == [(1, "Scope", ()), (1, "Terms", ())]
    scope, terms = (row.content.split("\n") for row in parsed.rows)
    assert scope[0] == "# Scope" and scope[1].startswith("<drawing ") and scope[2:] == [TEXT]
    assert terms[0] == "# Terms" and terms[1].startswith("<drawing ") and terms[2:] == [MORE]
    assert parsed.tables == 0


def test_a_styled_title_in_a_bar_showing_a_picture_stays_text(tmp_path):
    # Read as a cell's text, its picture's tag stands in it: the heading would carry it.
    body = table([[cell(para(ICON, "Scope", style="Heading1"))]]) + para(TEXT)
    parsed = parse(tmp_path, body, media={"rIdX": PNG_1PX})
    assert outline(parsed) == [(1, "Preface/Uncategorized", ())]
    assert parsed.rows[0].content.startswith("<drawing ")
    assert parsed.rows[0].content.endswith(f"Scope\n{TEXT}")
