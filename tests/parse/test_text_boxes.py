"""Text boxes in every form Word writes are read, each exactly once: Transitional ``wps:``
shapes, VML ``v:textbox``, Strict ``wp:wsp/wp:txbx/wne:txbxContent``, inside and outside
``mc:AlternateContent``, in table cells, footnotes and other text boxes."""

from __future__ import annotations

from pathlib import Path

import pytest

from lightrag_pchunk.parse.document import parse_docx

from docx_builders import (
    STRICT_R_NS,
    STRICT_W_NS,
    build_zip,
    cell,
    docx_entries,
    para,
    table,
    write_rich_docx,
)
from helpers import shared_dir

WNE = "http://schemas.microsoft.com/office/word/2006/wordml"
STRICT_WP = "http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing"
STRICT_A = "http://purl.oclc.org/ooxml/drawingml/main"
WPS_URI = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"


def wps_box(text: str) -> str:
    """A Transitional DrawingML text box (what Word 2010+ writes in the mc:Choice)."""
    return (
        '<w:drawing><wp:anchor><wp:docPr id="1" name="Text Box 1"/><a:graphic>'
        f'<a:graphicData uri="{WPS_URI}"><wps:wsp><wps:txbx><w:txbxContent>{para(text)}'
        "</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor>"
        "</w:drawing>"
    )


def vml_box(text: str) -> str:
    """A VML text box (Word 2007, and the mc:Fallback of later versions)."""
    return (
        f'<w:pict><v:shape id="s1"><v:textbox><w:txbxContent>{para(text)}</w:txbxContent>'
        "</v:textbox></v:shape></w:pict>"
    )


def alternate(choice: str, fallback: str, requires: str = "wps", declare: str = "") -> str:
    return (
        f'<mc:AlternateContent><mc:Choice Requires="{requires}"{declare}>{choice}</mc:Choice>'
        f"<mc:Fallback>{fallback}</mc:Fallback></mc:AlternateContent>"
    )


INK = ' xmlns:aink="http://schemas.microsoft.com/office/drawing/2016/ink"'


def group_box(text: str) -> str:
    """A text box inside a shape group (``wpg:wgp``)."""
    return (
        '<w:drawing><wp:anchor><wp:docPr id="2" name="Group"/><a:graphic><a:graphicData>'
        f'<wpg:wgp xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup">'
        f"<wps:wsp><wps:txbx><w:txbxContent>{para(text)}</w:txbxContent></wps:txbx></wps:wsp>"
        "</wpg:wgp></a:graphicData></a:graphic></wp:anchor></w:drawing>"
    )


def in_run(xml: str) -> str:
    return para("Anchor paragraph.", f"<w:r>{xml}</w:r>")


FORMS = {
    "wps-in-mc-with-vml-fallback": in_run(alternate(wps_box("BOXTEXT"), vml_box("BOXTEXT"))),
    "wps-without-mc": in_run(wps_box("BOXTEXT")),
    "vml-without-mc": in_run(vml_box("BOXTEXT")),
    # A Choice this parser cannot read (ink): its Fallback holds the text box.
    "vml-in-the-fallback-of-an-unread-choice": in_run(
        alternate("<w:drawing/>", vml_box("BOXTEXT"), "aink", INK)
    ),
    "group-in-mc": in_run(alternate(group_box("BOXTEXT"), vml_box("BOXTEXT"), "wpg")),
    "mc-between-runs": para(
        "Anchor paragraph.", alternate(f"<w:r>{wps_box('BOXTEXT')}</w:r>", "<w:r/>")
    ),
    "box-in-a-table-cell": table([[cell(in_run(wps_box("BOXTEXT"))), "other cell"]]),
    "box-in-a-box": in_run(wps_box("OUTER").replace(para("OUTER"), in_run(vml_box("BOXTEXT")))),
}


@pytest.mark.parametrize("form", FORMS)
def test_every_transitional_form_is_read_once(form, tmp_path) -> None:
    source = write_rich_docx(tmp_path / "doc.docx", FORMS[form])
    parsed = parse_docx(source, tmp_path / "out")
    assert parsed.content.count("BOXTEXT") == 1, parsed.content
    assert "Anchor paragraph." in parsed.content or form == "box-in-a-table-cell"


def strict_box(text: str) -> str:
    """A text box as Word writes it in a Strict file: wp:wsp / wp:txbx / wne:txbxContent."""
    return (
        f'<w:drawing><wp:inline xmlns:wp="{STRICT_WP}"><wp:docPr id="1" name="Text Box 9"/>'
        f'<a:graphic xmlns:a="{STRICT_A}"><a:graphicData uri="{WPS_URI}"><wp:wsp>'
        '<wp:cNvSpPr txBox="1"/><wp:spPr/><wp:txbx>'
        f'<wne:txbxContent xmlns:wne="{WNE}"><w:p><w:r><w:t>{text}</w:t></w:r></w:p>'
        "</wne:txbxContent></wp:txbx><wp:bodyPr/></wp:wsp></a:graphicData></a:graphic>"
        "</wp:inline></w:drawing>"
    )


def strict_docx(path: Path, body: str) -> Path:
    document = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<w:document xmlns:w="{STRICT_W_NS}" xmlns:r="{STRICT_R_NS}"'
        ' xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">'
        f"<w:body>{body}</w:body></w:document>"
    )
    path.write_bytes(build_zip(docx_entries(document=document, strict=True)))
    return path


@pytest.mark.parametrize("with_mc", [False, True])
def test_strict_text_boxes_are_read_once(with_mc, tmp_path) -> None:
    abstract = "This is my interesting abstract"
    boxes = "".join(strict_box(f"{abstract} {n}") for n in range(3))
    if with_mc:
        boxes = alternate(boxes, "<w:r><w:t>fallback picture</w:t></w:r>")
    body = f"<w:p><w:r><w:t>Cover page</w:t></w:r><w:r>{boxes}</w:r></w:p>"
    parsed = parse_docx(strict_docx(tmp_path / "strict.docx", body), tmp_path / "out")
    for n in range(3):
        assert parsed.content.count(f"{abstract} {n}") == 1, parsed.content
    assert "fallback picture" not in parsed.content


def test_a_text_box_in_a_footnote_is_in_the_note_line(tmp_path) -> None:
    body = para("Cited here.", '<w:r><w:footnoteReference w:id="1"/></w:r>')
    note = in_run(wps_box("NOTEBOX"))
    source = write_rich_docx(tmp_path / "doc.docx", body, footnotes={"1": note})
    parsed = parse_docx(source, tmp_path / "out")
    assert parsed.content.count("NOTEBOX") == 1
    assert "[^1]: Anchor paragraph. NOTEBOX" in parsed.content


def test_the_kitchen_sink_text_boxes_are_each_read_once(tmp_path) -> None:
    shared = shared_dir()
    name = "openxmlsdk__kitchen-sink-document.docx"
    source = shared / "corpus" / "docx" / name if shared else None
    if source is None or not source.is_file():
        pytest.skip("../shared/corpus/docx is absent: the real text boxes are not checked")
    parsed = parse_docx(source, tmp_path)
    assert parsed.content.count("This is my interesting abstract") == 1
