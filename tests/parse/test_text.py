"""A paragraph's displayed text: what Word shows, each character once, with inline tags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lightrag_pchunk.parse.document import parse_docx
from lightrag_pchunk.parse.text import InlineReader, InlineText
from lightrag_pchunk.parse.xml import parse_xml, qn

from docx_builders import PNG_1PX, para, rich_document_xml, run, write_rich_docx

FIELD_BEGIN = '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
FIELD_SEPARATE = '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
FIELD_END = '<w:r><w:fldChar w:fldCharType="end"/></w:r>'


def read(*inner: str, heading: bool = False) -> InlineText:
    root = parse_xml(rich_document_xml(para(*inner)).encode())
    p = root.find(f"{qn('w:body')}/{qn('w:p')}")
    return InlineReader(None).read(p, "word/document.xml", heading=heading)


def text_of(*inner: str) -> str:
    return read(*inner).text


def parse_body(tmp_path: Path, body: str, **kwargs) -> str:
    """The content rows of a document with ``body``, joined as LightRAG stores them."""
    source = write_rich_docx(tmp_path / "doc.docx", body, **kwargs)
    return parse_docx(source, tmp_path / "out").content


def test_runs_and_hyperlinks_are_joined_in_order():
    link = f'<w:hyperlink r:id="rId9">{run("link text")}</w:hyperlink>'
    assert text_of("Before ", link, " after") == "Before link text after"


def test_complex_field_shows_its_result_not_its_instruction():
    field = (
        FIELD_BEGIN
        + '<w:r><w:instrText xml:space="preserve"> PAGEREF _Toc1 \\h </w:instrText></w:r>'
        + FIELD_SEPARATE
        + run("42")
        + FIELD_END
    )
    assert text_of("See page ", field, ".") == "See page 42."


def test_simple_field_shows_its_result():
    field = f'<w:fldSimple w:instr=" NUMPAGES ">{run("7")}</w:fldSimple>'
    assert text_of("of ", field) == "of 7"


def test_content_control_shows_its_content_not_its_placeholder_properties():
    sdt = (
        '<w:sdt><w:sdtPr><w:alias w:val="Customer name"/><w:placeholder>'
        '<w:docPart w:val="X"/></w:placeholder></w:sdtPr>'
        f"<w:sdtContent>{run('ACME Corp')}</w:sdtContent></w:sdt>"
    )
    assert text_of("Client: ", sdt) == "Client: ACME Corp"


def test_nested_smart_tags_keep_their_text():
    tag = (
        '<w:smartTag w:element="place"><w:smartTag w:element="City">'
        f"{run('Paris')}</w:smartTag></w:smartTag>"
    )
    assert text_of("In ", tag, " today") == "In Paris today"


def test_tracked_changes_keep_insertions_and_drop_deletions_and_moves_away():
    ins = f'<w:ins w:id="1" w:author="a">{run("new ")}</w:ins>'
    deleted = '<w:del w:id="2" w:author="a"><w:r><w:delText>old </w:delText></w:r></w:del>'
    move_from = '<w:moveFrom w:id="3"><w:r><w:t>moved </w:t></w:r></w:moveFrom>'
    move_to = f'<w:moveTo w:id="4">{run("arrived ")}</w:moveTo>'
    assert text_of("A ", ins, deleted, move_from, move_to, "end") == "A new arrived end"


def test_soft_breaks_tabs_and_page_breaks():
    runs = (
        "<w:r><w:t>one</w:t><w:br/><w:t>two</w:t><w:tab/><w:t>three</w:t>"
        '<w:br w:type="page"/><w:t>four</w:t><w:cr/><w:t>five</w:t></w:r>'
    )
    # A page break between words must not glue them together ("threefour").
    assert text_of(runs) == "one\ntwo\tthree\nfour\nfive"


def test_symbols_hyphens_and_comments():
    runs = (
        '<w:r><w:t>x</w:t><w:sym w:font="Symbol" w:char="F0B3"/><w:t>0 </w:t>'
        '<w:sym w:font="Wingdings" w:char="F0FC"/><w:t> e</w:t><w:noBreakHyphen/>'
        "<w:t>mail</w:t><w:softHyphen/><w:t>ing</w:t></w:r>"
        '<w:commentRangeStart w:id="0"/><w:r><w:commentReference w:id="0"/></w:r>'
    )
    assert text_of(runs) == "x≥0 ✓ e-mailing"


def test_superscript_and_subscript_runs_are_tagged_and_adjacent_runs_share_a_tag():
    sup = '<w:vertAlign w:val="superscript"/>'
    sub = '<w:vertAlign w:val="subscript"/>'
    assert text_of("H", run("2", sub), "O") == "H<sub>2</sub>O"
    assert text_of("x", run("1", sup), run("2", sup), " y") == "x<sup>12</sup> y"
    assert text_of("a", run("b", '<w:vertAlign w:val="baseline"/>')) == "ab"


def test_alternate_content_is_read_from_one_branch_only():
    alternate = (
        '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:t>chosen</w:t></mc:Choice>'
        "<mc:Fallback><w:t>fallback</w:t></mc:Fallback></mc:AlternateContent></w:r>"
    )
    assert text_of(alternate) == "chosen"


def test_ruby_shows_its_base_text():
    ruby = (
        "<w:r><w:ruby><w:rubyPr/><w:rt><w:r><w:t>かん</w:t></w:r></w:rt>"
        "<w:rubyBase><w:r><w:t>漢</w:t></w:r></w:rubyBase></w:ruby></w:r>"
    )
    assert text_of(ruby, "字") == "漢字"


def test_inline_math_is_an_equation_tag_without_id():
    math = "<m:oMath><m:r><m:t>x</m:t></m:r></m:oMath>"
    result = read("Let ", math, " be positive.")
    assert result.text == 'Let <equation format="latex">x</equation> be positive.'
    assert not result.is_math_only
    assert read(math).is_math_only


def test_text_boxes_are_handed_to_the_caller_and_not_inlined():
    box = (
        '<w:r><w:drawing><wp:anchor><wp:docPr id="1" name="Box"/><a:graphic><a:graphicData>'
        "<wps:wsp><wps:txbx><w:txbxContent>"
        f"{para('inside the box')}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData>"
        "</a:graphic></wp:anchor></w:drawing></w:r>"
    )
    result = read("Host ", box, "paragraph")
    assert result.text == "Host paragraph"
    assert len(result.boxes) == 1


def test_text_box_text_appears_once_although_both_branches_carry_it(tmp_path):
    box = (
        '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor>'
        '<wp:docPr id="1" name="Box"/><a:graphic><a:graphicData><wps:wsp><wps:txbx>'
        f"<w:txbxContent>{para('Boxed words')}</w:txbxContent></wps:txbx></wps:wsp>"
        "</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback>"
        f"<w:pict><v:shape><v:textbox><w:txbxContent>{para('Boxed words')}</w:txbxContent>"
        "</v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>"
    )
    content = parse_body(tmp_path, para("Host text", box) + para("After"))
    assert content == "Host text\nBoxed words\nAfter"


def test_pictures_become_drawing_tags_with_alt_text_and_safe_asset_paths(tmp_path):
    picture = (
        '<w:r><w:drawing><wp:inline><wp:docPr id="3" name="Picture 3" descr="A red dot"/>'
        "<a:graphic><a:graphicData><pic:pic><pic:nvPicPr>"
        '<pic:cNvPr id="0" name="dot.png"/></pic:nvPicPr><pic:blipFill>'
        '<a:blip r:embed="rIdPic"/></pic:blipFill></pic:pic></a:graphicData></a:graphic>'
        "</wp:inline></w:drawing></w:r>"
    )
    source = write_rich_docx(
        tmp_path / "pic.docx", para("See ", picture, " here"), media={"rIdPic": PNG_1PX}
    )
    parsed = parse_docx(source, tmp_path / "out", doc_id="doc-abc")
    tag = (
        '<drawing id="im-abc-0001" format="png" caption="A red dot"'
        ' path="pic.blocks.assets/rIdPic.png" src="" />'
    )
    assert parsed.content == f"See {tag} here"
    assets = parsed.parsed_dir / "pic.blocks.assets"
    assert (assets / "rIdPic.png").read_bytes() == PNG_1PX
    sidecar = json.loads((parsed.parsed_dir / "pic.drawings.json").read_text())
    item = sidecar["drawings"]["im-abc-0001"]
    assert item["path"] == "pic.blocks.assets/rIdPic.png"
    assert item["blockid"] == parsed.rows[0].blockid
    assert parsed.drawings == 1


@pytest.mark.parametrize(
    "graphic",
    [
        # A shape with a picture fill inside a text box: tagged once, by the text-box walk.
        '<w:r><w:drawing><wp:anchor><wp:docPr id="1" name="Box"/><a:graphic><a:graphicData>'
        "<wps:wsp><wps:txbx><w:txbxContent><w:p><w:r><w:drawing><wp:inline>"
        '<wp:docPr id="2" name="pic"/><a:graphic><a:graphicData><pic:pic><pic:blipFill>'
        '<a:blip r:embed="rIdPic"/></pic:blipFill></pic:pic></a:graphicData></a:graphic>'
        "</wp:inline></w:drawing></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp>"
        "</a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>",
    ],
)
def test_a_picture_inside_a_text_box_is_tagged_once(tmp_path, graphic):
    source = write_rich_docx(tmp_path / "d.docx", para(graphic), media={"rIdPic": PNG_1PX})
    parsed = parse_docx(source, tmp_path / "out", doc_id="doc-abc")
    assert parsed.content.count("<drawing ") == 1
    assert parsed.drawings == 1


def test_wordart_text_is_kept(tmp_path):
    wordart = (
        '<w:r><w:pict><v:shape id="s1"><v:textpath string="DRAFT  COPY"/></v:shape></w:pict></w:r>'
    )
    assert parse_body(tmp_path, para("Body", wordart)) == "Body\nDRAFT COPY"


def test_tab_stop_definitions_are_not_text_but_run_tabs_are():
    tab_stops = (
        '<w:tabs><w:tab w:val="left" w:pos="720"/><w:tab w:val="right" w:pos="9000"/></w:tabs>'
    )
    root = parse_xml(
        rich_document_xml(para("Name", "<w:r><w:tab/></w:r>", "Value", ppr=tab_stops)).encode()
    )
    p = root.find(f"{qn('w:body')}/{qn('w:p')}")
    assert InlineReader(None).read(p, "word/document.xml").text == "Name\tValue"


def test_plain_and_rich_paragraphs_read_alike(tmp_path):
    # The same words, once in plain runs (one-pass reader) and once next to a symbol (full walk).
    plain = para("Alpha ", '<w:hyperlink r:id="x">' + run("beta") + "</w:hyperlink>", " gamma")
    rich = para(
        "Alpha ",
        '<w:hyperlink r:id="x">' + run("beta") + "</w:hyperlink>",
        " gamma",
        '<w:r><w:sym w:font="Symbol" w:char="F0B7"/></w:r>',
    )
    assert parse_body(tmp_path, plain + rich) == "Alpha beta gamma\nAlpha beta gamma•"


def test_math_beside_a_picture_is_inline_and_math_alone_a_block_equation(tmp_path):
    # A picture is shown content: the paragraph is no display line of math, so its
    # equation gets no id and no equations.json item.
    picture = (
        '<w:r><w:drawing><wp:inline><wp:docPr id="3" name="Picture 3" descr="A red dot"/>'
        '<a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:embed="rIdPic"/>'
        "</pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"
    )
    math = "<m:oMath><m:r><m:t>x</m:t></m:r></m:oMath>"
    body = para(math, picture) + para(math)
    source = write_rich_docx(tmp_path / "m.docx", body, media={"rIdPic": PNG_1PX})
    beside, alone = parse_docx(source, tmp_path / "out", doc_id="doc-abc").content.split("\n")
    assert beside.startswith('<equation format="latex">x</equation><drawing id=')
    assert alone.startswith("<equation id=")
