"""The document's title in a Word document whose outline the classifier inferred: a first
heading set apart (centred, larger than any later heading) that stands beside the chapters
goes to the preface, as a Title style's paragraph does and as a PDF's title does; a title the
chapters nest below, and a heading its author styled, stay headings."""

from __future__ import annotations

from lightrag_pchunk.model import PREFACE_HEADING
from lightrag_pchunk.parse.document import parse_docx

from docx_builders import para, rich_xml, run, style, write_rich_docx

BODY = (
    "The refrigeration plant is inspected every week by a competent person who records the "
    "result of every test in the plant log and signs the entry. "
) * 3
CHAPTERS = ("Introduction", "Scope of the rules", "Inspections", "Records")


def _line(text: str, half_points: int, *, centred: bool = False, style_id: str | None = None):
    ppr = '<w:jc w:val="center"/>' if centred else ""
    return para(run(text, f'<w:b/><w:sz w:val="{half_points}"/>'), ppr=ppr, style=style_id)


def _parse(tmp_path, title: str, styles: str | None = None):
    body = title + para(run("Issued by the works council, May 2004"))
    body += "".join(_line(name, 32) + para(run(BODY)) + para(run(BODY)) for name in CHAPTERS)
    source = write_rich_docx(tmp_path / "bulletin.docx", body, styles=styles)
    return parse_docx(source, tmp_path / "out", doc_id="doc-t")


def _outline(parsed) -> list[tuple[int, str, tuple[str, ...]]]:
    return [(row.level, row.heading, row.parent_headings) for row in parsed.rows]


def test_a_centred_title_beside_the_inferred_chapters_goes_to_the_preface(tmp_path):
    parsed = _parse(tmp_path, _line("Plant Safety Bulletin", 52, centred=True))
    assert _outline(parsed) == [
        (1, PREFACE_HEADING, ()),
        *((1, name, ()) for name in CHAPTERS),
    ]
    preface = parsed.rows[0].content
    assert preface.startswith("Plant Safety Bulletin\nIssued by the works council")
    assert not preface.startswith("#")  # a line of the preface, no heading line
    assert parsed.meta["doc_title"] == "Plant Safety Bulletin"  # still the document's title
    assert parsed.inferred_headings == len(CHAPTERS)


def test_a_title_its_chapters_nest_below_stays_their_heading(tmp_path):
    parsed = _parse(tmp_path, _line("Plant Safety Bulletin", 52))
    assert _outline(parsed)[:2] == [
        (1, "Plant Safety Bulletin", ()),
        (2, "Introduction", ("Plant Safety Bulletin",)),
    ]
    assert parsed.meta["doc_title"] == "Plant Safety Bulletin"


def test_a_styled_title_beside_the_chapters_is_never_demoted(tmp_path):
    styles = rich_xml("styles", style("Heading1", "heading 1", outline=0))
    title = _line("Plant Safety Bulletin", 52, centred=True, style_id="Heading1")
    parsed = _parse(tmp_path, title, styles)
    assert parsed.rows[0].heading == "Plant Safety Bulletin"
    assert parsed.rows[0].extra.get("heading_source") is None  # its style's
    assert parsed.meta["doc_title"] == "Plant Safety Bulletin"
