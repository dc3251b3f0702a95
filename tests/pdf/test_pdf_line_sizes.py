"""A line's size is the size its words are set at: a formula inside a list item, its symbols
set larger or smaller than the text around them, does not make the item a heading."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.pdf.layout import page_lines

from pdf_builders import (
    CJK,
    Page,
    Text,
    build_pdf,
    first_page_text,
    headings_of,
    parse_pages,
)

# Each glyph of the CJK font is one em wide, so runs can be set closed up, one segment.
_TEXT = "核电厂定期安全评价的原则和要求由国家核安全法规规定，营运单位应据此评价。"


def _item_with_formula(y: float, formula: str, formula_size: float) -> list[Text]:
    """A list item "1)最里层列表", ``formula`` closed up after it, then the item's words."""
    opening, closing = "1)最里层列表", "行内公式后接正文"
    formula_x = 90 + 11 * len(opening)
    closing_x = formula_x + formula_size * len(formula)
    return [
        Text(90, y, opening, 11, CJK),
        Text(formula_x, y, formula, formula_size, CJK),
        Text(closing_x, y, closing, 11, CJK),
    ]


def _document(items: list[Text]) -> list[Page]:
    title = [Text(72, 740, "第一章 总则", 16, CJK)]
    body = [Text(72, 712 - 16 * i, _TEXT[i * 18 : i * 18 + 18], 11, CJK) for i in range(2)]
    after = [Text(72, 600 - 16 * i, _TEXT[i * 18 : i * 18 + 18], 11, CJK) for i in range(2)]
    return [Page([*title, *body, *items, *after])]


def test_a_formula_set_large_in_a_list_items_run_does_not_set_its_size(tmp_path: Path) -> None:
    # The formula's glyphs sit in the middle of the run of glyphs they are closed up to.
    result = parse_pages(tmp_path, _document(_item_with_formula(650, "(x+a)=∑kn", 13)))
    headings = headings_of(result)
    assert not any("最里层列表" in heading for heading in headings), headings
    assert "1)最里层列表(x+a)=∑kn行内公式后接正文" in result.content


def test_a_formula_of_more_glyphs_than_words_does_not_set_its_lines_size(
    tmp_path: Path,
) -> None:
    # The formula a segment of its own, of more glyphs than the item has characters but
    # fewer letters and digits: its symbols are not the line's words.
    formula = "(x+1)=∑(2k+1)·(3n+2)"
    items = [
        Text(90, 650, "1)最里层列表", 11, CJK),
        Text(170, 650, formula, 17, CJK),
        Text(176 + 17 * len(formula), 650, "后接正文", 11, CJK),
    ]
    path = tmp_path / "page.pdf"
    path.write_bytes(build_pdf(_document(items)))
    text = first_page_text(path)
    sizes = {line.text: line.size for line in page_lines(text)}
    assert sizes == {
        "第一章 总则": 16.0,
        "核电厂定期安全评价的原则和要求由国家": 11.0,
        "核安全法规规定，营运单位应据此评价。": 11.0,
        f"1)最里层列表 {formula} 后接正文": 11.0,
    }
