"""The PDF parser's pages whose text does not decode: fonts without a map to Unicode."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from lightrag_pchunk.errors import PdfParseError

from pdf_builders import CJK_OTHER, UNMAPPED, UNNAMED, Page, Text, parse_pages, wrap

BODY = (
    "Operators shall keep the refrigeration plant under continuous supervision and record "
    "every reading of the pressure gauges in the plant log before the end of each shift."
)
#: A title of many distinct glyphs: past the 32nd, a font's codes read as ASCII, so its
#: garbage is printable ("%&(-./").
TITLE = "Survey 2024: QUICK BROWN FOX JUMPS OVER A LAZY DOG (1357-9)"


def _garbled_page(header: str) -> Page:
    """A page set in a font without a map to Unicode (a title set large, two paragraphs)
    under a running line set in Helvetica."""
    return Page(
        [
            Text(72, 760, header, 9),
            Text(72, 700, TITLE, 18, UNMAPPED),
            *wrap(BODY, 72, 670, 420, font=UNMAPPED),
            *wrap(BODY, 72, 600, 420, font=UNMAPPED),
        ]
    )


def test_undecodable_text_is_not_read_and_its_pages_are_named(tmp_path: Path) -> None:
    """A page whose text does not decode gives neither paragraphs nor headings of garbage;
    its decodable line is read, as is every other page; one warning names the page and
    says what to do."""
    pages = [Page(wrap(BODY, 72, 720, 420)), _garbled_page("Working paper 9-37")]
    result = parse_pages(tmp_path, pages)
    assert "Working paper 9-37" in result.content
    assert BODY in result.content.replace("\n", " ")
    assert [row.heading for row in result.rows] == ["Preface/Uncategorized"]
    assert all(ch.isprintable() for ch in result.content.replace("\n", ""))
    assert len(result.content) < 2 * len(BODY)
    (warning,) = [w for w in result.warnings if "undecodable" in w]
    assert "pages 2" in warning and "ocrmypdf" in warning


def test_a_file_whose_text_never_decodes_is_refused_with_what_to_do(tmp_path: Path) -> None:
    pages = [Page([Text(72, 700, TITLE, 18, UNMAPPED)])]
    pages += [Page(wrap(BODY, 72, 720, 420, font=UNMAPPED)) for _ in range(2)]
    with pytest.raises(PdfParseError) as refused:
        parse_pages(tmp_path, pages)
    assert refused.value.reason == "undecodable"
    assert "ocrmypdf" in str(refused.value)


def test_a_few_undecodable_glyphs_leave_the_page_read_whole(tmp_path: Path) -> None:
    """A symbol font's marks among decodable text (bullets without a map) are no sign of
    an undecodable page: nothing is left out and nothing is said."""
    items = [Text(60, 720 - 30 * i, "*", 11, UNMAPPED) for i in range(3)]
    items += [Text(72, 720 - 30 * i, BODY[:80], 11) for i in range(3)]
    result = parse_pages(tmp_path, [Page(items)])
    assert result.content.count(BODY[:80]) == 3
    assert not result.warnings


def test_a_font_read_by_its_ascii_codes_is_read(tmp_path: Path) -> None:
    """An old TeX font whose glyph names no map knows: PDFium flags every character, but
    reads its letters by their codes, right; its ligatures are control characters ("ffi"
    at 0x0E, "fi" at 0x0C). Its pages are read, not refused."""
    body = (
        "The first field of the office form is filled in by the operator of the plant "
        "before the end of each shift, and the second by the officer on duty."
    )
    lines = [
        replace(line, text=line.text.replace("ffi", "\x0e").replace("fi", "\x0c"))
        for line in wrap(body, 72, 720, 420, font=UNNAMED)
    ]
    result = parse_pages(tmp_path, [Page(lines)])
    assert "by the operator of the plant" in result.content.replace("\n", " ")
    assert not result.warnings


def test_words_that_decode_inside_an_undecodable_line_are_read(tmp_path: Path) -> None:
    """A reference set in a font without a map around a journal's name set in one with a
    map keeps the name; a word's piece set against the garbage ("f" of "for") and the
    garbage are left out, and nothing of it heads a section."""
    page = _garbled_page("Working paper 9-37")
    page.items += [
        Text(72, 500, "Davis F (1989)", 11, UNMAPPED),
        Text(230, 500, "MIS Quarterly", 11),
        Text(309, 500, "13(3) 319-340", 11, UNMAPPED),
        Text(72, 470, "Descriptions f", 11),
        Text(138.5, 470, "or the scales of (1989)", 11, UNMAPPED),
    ]
    result = parse_pages(tmp_path, [Page(wrap(BODY, 72, 720, 420)), page])
    lines = result.content.split("\n")
    assert "MIS Quarterly" in lines
    assert "Descriptions" in lines
    assert [row.heading for row in result.rows] == ["Preface/Uncategorized"]
    assert all(ch.isprintable() for ch in result.content.replace("\n", ""))


def test_a_page_of_letters_is_read_without_asking_each_glyphs_map(monkeypatch) -> None:
    """PDFium's map-error flag, one call a character, is asked only of a page whose
    characters that are not letters could reach the undecodable share (flagged letters do
    not count there): a page of words with a symbol font's bullets never asks it; a page
    set in a font without a map still does, and is not read."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    from lightrag_pchunk.pdf.glyphs import read_glyphs
    from lightrag_pchunk.pdf.layout import read_segments
    from lightrag_pchunk.pdf.undecodable import without_undecodable

    from pdf_builders import build_pdf

    asked = []
    flag = pdfium_c.FPDFText_HasUnicodeMapError
    monkeypatch.setattr(
        pdfium_c, "FPDFText_HasUnicodeMapError", lambda *a: asked.append(a[1]) or flag(*a)
    )
    bulleted = [Text(60, 720 - 30 * i, "*", 11, UNMAPPED) for i in range(3)]
    bulleted += [Text(72, 720 - 30 * i, BODY[:80], 11) for i in range(3)]
    document = pdfium.PdfDocument(build_pdf([Page(bulleted), _garbled_page("Working paper")]))
    try:
        verdicts = []
        for index in range(2):
            page = document[index]
            textpage = page.get_textpage()
            glyphs = read_glyphs(page, textpage, index + 1)
            text = read_segments(glyphs)
            kept, is_undecodable = without_undecodable(glyphs, text)
            verdicts.append((is_undecodable, kept == text, len(asked)))
            textpage.close()
            page.close()
    finally:
        document.close()
    (first, second) = verdicts
    assert first == (False, True, 0)
    assert second[0] and not second[1] and second[2] > 0


def test_an_icon_read_as_replacement_characters_is_left_out(tmp_path: Path) -> None:
    """A note's icon that no map names, read as "��" on a line of its own between two
    paragraphs of a page that decodes: nothing to read, left out; the text stays whole.
    One beside text (a bullet no map names) stays with its line."""
    items = [
        *wrap(BODY, 72, 720, 420),
        Text(72, 660, "\ufffd\ufffd", 11, CJK_OTHER),
        *wrap(BODY, 72, 630, 420),
        Text(72, 560, "\ufffd System Security Plan", 11, CJK_OTHER),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    assert "\ufffd\ufffd" not in result.content
    assert "\ufffd System Security Plan" in result.content
    assert result.content.count("end of each shift") == 2
    assert not result.warnings
