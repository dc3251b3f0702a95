"""Bookmarks naming a cell of a table printed without rules (a signature block: two
parties' details side by side), which heads nothing, as a heading style in a Word table's
cell heads nothing; the headings of a page's two columns still head their sections."""

from __future__ import annotations

from pathlib import Path

import pytest

from lightrag_pchunk.model import PREFACE_HEADING

from pdf_builders import (
    BOLD,
    ITALIC,
    TAGGED,
    TAGGED_BOLD,
    Bookmark,
    Page,
    Text,
    parse_pages,
    sections,
    wrap,
)

BODY = (
    "The contractor delivers the works in the volume and on the dates the schedule sets, "
    "and the customer accepts them within ten working days of the notice of completion."
)
#: A party's details: (text, bold), one line each, as a signature block prints them.
CUSTOMER = [
    ("THE CUSTOMER", True),
    ("Committee for Communications", True),
    ("191060, Saint Petersburg, Smolny", False),
    ("Taxpayer number 7825457753 of the city", False),
    ("Registration code 1037843116607 of the city", False),
    ("Account 0710000 at the Finance Committee", False),
    ("L.S.", False),
]
CONTRACTOR = [
    ("THE CONTRACTOR", True),
    ("Stroyvision Limited Company", True),
    ("190005, Saint Petersburg, Egorova Street", False),
    ("Taxpayer number 7838483694 of the company", False),
    ("Registration code 1127847654990 of the firm", False),
    ("Account 4070280 at the Northern Bank", False),
    ("L.S.", False),
]


def _column(
    lines: list[tuple[str, bool]], x: float, top: float, fonts: tuple[str, str] = ("F1", BOLD)
) -> list[Text]:
    return [Text(x, top - 14 * i, text, 11, fonts[bold]) for i, (text, bold) in enumerate(lines)]


@pytest.mark.parametrize("customer_fonts", [("F1", BOLD), (TAGGED, TAGGED_BOLD)])
def test_bookmarked_cells_of_a_signature_block_head_nothing(
    tmp_path: Path, customer_fonts: tuple[str, str]
) -> None:
    # The customer's details and seal are heading-styled paragraphs of a borderless
    # table's cells, and the file bookmarks them; the contractor's, beside them at one
    # height and set alike, are not: the block is text of the section it closes. The
    # customer's may be set in the same faces named under a subset's tag.
    items = [
        Text(72, 740, "1 Subject of the contract", 14, BOLD),
        *wrap(BODY, 72, 716, 460),
        *_column(CUSTOMER, 72, 660, customer_fonts),
        *_column(CONTRACTOR, 330, 660),
        Text(72, 520, "2 Price of the works", 14, BOLD),
        *wrap(BODY, 72, 496, 460),
    ]
    bookmarks = [
        Bookmark("1 Subject of the contract", 1, 0, 754),
        Bookmark("Committee for Communications", 1, 0, 660 - 14 + 11),
        Bookmark("191060, Saint Petersburg, Smolny", 1, 0, 660 - 28 + 11),
        Bookmark("L.S.", 1, 0, 660 - 84 + 11),
        Bookmark("2 Price of the works", 1, 0, 534),
    ]
    result = parse_pages(tmp_path, [Page(items)], bookmarks=bookmarks)
    assert sections(result) == [("1 Subject of the contract", 1), ("2 Price of the works", 1)]
    assert "Committee for Communications" in result.rows[0].content


def test_bookmarked_headings_of_two_columns_head_their_sections(tmp_path: Path) -> None:
    # A page of two columns: each column's heading, bold, stands beside the other
    # column's text; two headings at one height, both bookmarked, head theirs too.
    left = [
        Text(72, 740, "1 Scope", 12, BOLD),
        *wrap(BODY * 3, 72, 722, 220),
        Text(72, 560, "2 Terms", 12, BOLD),
        *wrap(BODY * 3, 72, 542, 220),
    ]
    right = [
        Text(330, 740, "3 Works", 12, BOLD),
        *wrap(BODY * 2, 330, 722, 220),
        Text(330, 620, "4 Prices", 12, BOLD),
        *wrap(BODY * 3, 330, 602, 220),
    ]
    bookmarks = [
        Bookmark("1 Scope", 1, 0, 752),
        Bookmark("2 Terms", 1, 0, 572),
        Bookmark("3 Works", 1, 0, 752),
        Bookmark("4 Prices", 1, 0, 632),
    ]
    result = parse_pages(tmp_path, [Page(left + right)], bookmarks=bookmarks)
    assert sections(result) == [
        ("1 Scope", 1),
        ("2 Terms", 1),
        ("3 Works", 1),
        ("4 Prices", 1),
    ]


def _stated(result) -> list[tuple[str, int, str | None]]:
    return [
        (r.heading, r.level, r.extra.get("heading_source"))
        for r in result.rows
        if r.heading != PREFACE_HEADING
    ]


def test_headings_in_the_texts_look_beside_a_running_paragraph_head_their_sections(
    tmp_path: Path,
) -> None:
    # A page of two columns whose bookmarked headings are set as the text is (a house
    # setting them in its italic, which the look does not tell): each stands beside a
    # later line of the other column's paragraph, which runs on past it, no cell of a row.
    left = [
        *wrap(BODY, 72, 740, 220),
        Text(72, 650, "Scope", 11),
        *wrap(BODY * 2, 72, 632, 220),
        Text(72, 500, "Terms", 11),
        *wrap(BODY * 2, 72, 482, 220),
    ]
    right = wrap(BODY * 8, 330, 740, 220)
    bookmarks = [Bookmark("Scope", 1, 0, 662), Bookmark("Terms", 1, 0, 512)]
    result = parse_pages(tmp_path, [Page(left + right)], bookmarks=bookmarks)
    assert _stated(result) == [("Scope", 1, None), ("Terms", 1, None)]


def test_a_heading_beside_a_wrapped_headings_second_line_heads_its_section(
    tmp_path: Path,
) -> None:
    # The other column's bookmarked heading wraps: its second line, which no bookmark
    # names by its own text, stands beside the heading at one height and in its look.
    left = [
        Text(72, 740, "Scope", 12, BOLD),
        *wrap(BODY * 2, 72, 722, 220),
        Text(72, 600, "Terms", 12, BOLD),
        *wrap(BODY * 2, 72, 582, 220),
    ]
    right = [
        Text(330, 740, "Works", 12, BOLD),
        *wrap(BODY, 330, 722, 220),
        Text(330, 614, "Prices of the works and", 12, BOLD),
        Text(330, 600, "the terms of payment", 12, BOLD),
        *wrap(BODY * 2, 330, 582, 220),
    ]
    prices = "Prices of the works and the terms of payment"
    bookmarks = [
        Bookmark("Scope", 1, 0, 752),
        Bookmark("Terms", 1, 0, 612),
        Bookmark("Works", 1, 0, 752),
        Bookmark(prices, 1, 0, 626),
    ]
    result = parse_pages(tmp_path, [Page(left + right)], bookmarks=bookmarks)
    assert _stated(result) == [
        ("Scope", 1, None),
        ("Terms", 1, None),
        ("Works", 1, None),
        (prices, 1, None),
    ]


def test_headings_in_the_texts_size_in_another_face_beside_a_paragraphs_opening_head_theirs(
    tmp_path: Path,
) -> None:
    # A page of two columns whose bookmarked headings are set in the text's size and weight,
    # in its italic: each stands beside the opening line of a paragraph of the other
    # column, set in the roman, which no bookmark names. A cell of a row is set as the
    # cell beside it; a heading in another face is not.
    left = [
        *wrap(BODY, 72, 740, 220),
        Text(72, 650, "Scope", 11, ITALIC),
        *wrap(BODY * 2, 72, 632, 220),
        Text(72, 500, "Terms", 11, ITALIC),
        *wrap(BODY * 2, 72, 482, 220),
    ]
    right = [*wrap(BODY, 330, 740, 220), *wrap(BODY * 2, 330, 650, 220)]
    right += wrap(BODY * 2, 330, 500, 220)
    bookmarks = [Bookmark("Scope", 1, 0, 662), Bookmark("Terms", 1, 0, 512)]
    result = parse_pages(tmp_path, [Page(left + right)], bookmarks=bookmarks)
    assert _stated(result) == [("Scope", 1, None), ("Terms", 1, None)]
