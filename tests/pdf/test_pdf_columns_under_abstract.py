"""A paper's first page: its title and a long abstract across the page over the two columns
its introduction starts in. The abstract's lines cross the gutter as often as the columns
fill it, so the page's prose as a whole shows no gutter; the columns under the abstract,
the page's block of text split in two, show it alone, and the columns read one after the
other, not as lines across the page."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BOLD, Page, Text, parse_pages, printed_width, sections

# Each set's lines print alike wide (Helvetica's digits are one width): the abstract's as
# wide as the two columns and their gutter, as a justified page sets them.
ABSTRACT = [
    f"Abstract line {n:02d} states what the study of the plant found about its safety and about"
    " its supervision."
    for n in range(22)
]
LEFT = [f"Left line {n:02d} opens the introduction of the study." for n in range(18)]
RIGHT = [f"Right line {n:02d} goes on with the introduction here." for n in range(20)]
BOX_LEFT = [f"Box note {n:02d} on the left side of it." for n in range(12)]
BOX_RIGHT = [f"Box note {n:02d} on the right side here." for n in range(12)]
LEADING = 12.0


def _first_page(
    abstract_lines: int, column_lines: int, left=LEFT, right=RIGHT, inset: float = 0.0
) -> list[Text]:
    margin = 60.0
    right_x = margin + printed_width(ABSTRACT[0], 10) - printed_width(right[0], 10) - inset
    page = [Text(150, 740, "Plant Safety Under Continuous Supervision", 16, BOLD)]
    page += [
        Text(margin, 700 - LEADING * i, line, 10)
        for i, line in enumerate(ABSTRACT[:abstract_lines])
    ]
    top = 700 - LEADING * abstract_lines - 24
    page.append(Text(margin, top, "1. Introduction", 12, BOLD))
    page += [
        Text(margin + inset, top - 18 - LEADING * i, t, 10)
        for i, t in enumerate(left[:column_lines])
    ]
    page += [
        Text(right_x, top - 18 - LEADING * i, t, 10) for i, t in enumerate(right[:column_lines])
    ]
    return page


def _text(result) -> str:
    return " ".join(" ".join(row.content.split()) for row in result.rows)


def test_columns_under_a_long_abstract_read_one_after_the_other(tmp_path: Path) -> None:
    result = parse_pages(tmp_path, [Page(_first_page(22, 20))])
    text = _text(result)
    for lines in (ABSTRACT, LEFT, RIGHT):
        assert " ".join(lines) in text
    assert text.index(LEFT[-1]) < text.index(RIGHT[0])
    assert ("1. Introduction", 1) in sections(result)


def test_a_few_lines_side_by_side_under_a_long_paragraph_are_no_columns(
    tmp_path: Path,
) -> None:
    # Four lines side by side under a paragraph are a box's or a table's, not the page's
    # columns: each row reads across the page, as on any page of one column.
    result = parse_pages(tmp_path, [Page(_first_page(6, 4))])
    text = _text(result)
    assert " ".join(ABSTRACT[:6]) in text
    assert f"{LEFT[0]} {RIGHT[0]}" in text


def test_a_box_of_two_columns_inside_the_text_block_is_no_page_columns(tmp_path: Path) -> None:
    # A box set in from both edges of the text under a long paragraph: its two columns of
    # notes are no split of the page's block of text; its rows read across the page.
    page = _first_page(22, 12, BOX_LEFT, BOX_RIGHT, inset=30)
    text = _text(parse_pages(tmp_path, [Page(page)]))
    assert f"{BOX_LEFT[0]} {BOX_RIGHT[0]}" in text
