"""The PDF parser's segments: runs of glyphs on one baseline, cut again at column gutters."""

from __future__ import annotations

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from lightrag_pchunk.pdf.glyphs import read_glyphs
from lightrag_pchunk.pdf.rules import page_rules
from lightrag_pchunk.pdf.segments import cut_at_gutters, glyph_runs

from pdf_builders import (
    BOLD,
    LOREM,
    NUMBERED_W3,
    NUMBERED_W6,
    Page,
    Stroke,
    Text,
    build_pdf,
    wrap,
)


def test_runs_cut_at_gutters_as_the_whole_page_cut_with_them() -> None:
    """Only the runs that reach over a gutter are cut again, and each comes out as the whole
    page segmented with the gutters would have it: every pair of glyphs is decided alone.
    Two columns printed close (a gap of a few points), a table's rule between cells, and
    gutters anywhere, one at every few points included."""
    left = wrap(LOREM + " " + LOREM, 60, 700, 250)
    right = wrap(LOREM + " " + LOREM, 276, 700, 250)  # 8 points after the longest left line
    cells = [Text(60, 300, "Pressure"), Text(120, 300, "12 bar"), Stroke(115, 290, 115, 312)]
    # Written row by row across both columns, as some producers do.
    rows = [item for pair in zip(left, right, strict=True) for item in pair]
    pdf = build_pdf([Page([*rows, *cells])])
    document = pdfium.PdfDocument(pdf)
    page = document[0]
    textpage = page.get_textpage()
    try:
        glyphs = read_glyphs(page, textpage, 1, page_rules(page))
        runs = glyph_runs(glyphs)
        for gutters in ([272.0], [118.0, 272.0, 330.0], [float(x) for x in range(55, 600, 3)]):
            whole = glyph_runs(glyphs, gutters)
            assert cut_at_gutters(glyphs, runs, gutters) == whole
            assert len(whole) > len(runs)  # the gutters cut
    finally:
        textpage.close()
        page.close()
        document.close()


def test_a_weight_past_the_heaviest_says_nothing_and_the_font_name_decides(monkeypatch) -> None:
    # Some producers' fonts report a weight of 2140, their roman and bold faces alike: a
    # title's "Permanent URL:" set in Times-Bold and the address after it in Times-Roman.
    pdf = build_pdf([Page([Text(72, 720, "Permanent URL:", 12, BOLD), Text(300, 720, "sprouts")])])
    monkeypatch.setattr(pdfium_c, "FPDFText_GetFontWeight", lambda raw, index: 2140)
    assert _bold_runs(pdf) == [("Permanent URL:", True), ("sprouts", False)]


def test_a_face_numbered_w6_or_heavier_is_bold() -> None:
    # A Mac's Chinese export: headings in HiraginoSansGB-W6, the text in -W3, their weights
    # read below bold's (or not at all): the name's weight number decides.
    page = Page([Text(72, 720, "Strings", 12, NUMBERED_W6), Text(300, 720, "set a key")])
    page.items.append(Text(72, 690, "get a key", 12, NUMBERED_W3))
    assert _bold_runs(build_pdf([page])) == [
        ("Strings", True),
        ("set a key", False),
        ("get a key", False),
    ]


def _bold_runs(pdf: bytes) -> list[tuple[str, bool]]:
    """The text of each run on the first page of ``pdf`` and whether it reads bold."""
    document = pdfium.PdfDocument(pdf)
    page = document[0]
    textpage = page.get_textpage()
    try:
        runs = glyph_runs(read_glyphs(page, textpage, 1, page_rules(page)))
        return [(run.text, run.bold) for run in runs]
    finally:
        textpage.close()
        page.close()
        document.close()
