"""Titles set in small capitals that a producer draws as capitals of two sizes (each word's
capitals at the size set, the letters typed in lower case smaller): the title reads at the
size set, as its author meant it, and keeps its place above the sections set smaller."""

from __future__ import annotations

import re
from pathlib import Path

from pdf_builders import (
    BOLD,
    LOREM,
    REGULAR,
    Page,
    Text,
    parse_pages,
    printed_width,
    sections,
    wrap,
)

TITLE_SIZE, SMALL_SIZE, SECTION_SIZE, TEXT_SIZE = 14.0, 11.0, 13.0, 12.0
#: A word space in Helvetica, in ems.
HELVETICA_SPACE = 0.278


def small_capitals(title: str, x: float, y: float, font: str = BOLD) -> list[Text]:
    """``title`` as typed, drawn in small capitals: its capitals (and digits) at
    :data:`TITLE_SIZE`, its lower-case letters as capitals at :data:`SMALL_SIZE`."""
    runs: list[Text] = []
    for word in title.split():
        for piece in re.findall(r"[a-z]+|[^a-z]+", word):
            size = SMALL_SIZE if piece.islower() else TITLE_SIZE
            runs.append(Text(x, y, piece.upper(), size, font))
            x += printed_width(piece.upper(), size, font)
        x += HELVETICA_SPACE * TITLE_SIZE
    return runs


def test_a_title_in_small_capitals_reads_at_its_capitals_size(tmp_path: Path) -> None:
    """Two titles in small capitals, 14 pt over 11 pt (most of their letters are the small
    ones), each over a section titled in bold at 13 pt, over text at 12 pt: the titles head
    the document and the sections nest under them. Read by their letters' count, the
    titles were set at 11 pt, smaller than the sections they head and than the text."""
    page = [
        *small_capitals("Title I: General provisions", 72, 740),
        Text(72, 712, "Scope of this part", SECTION_SIZE, BOLD),
        *wrap(LOREM, 72, 690, 468, size=TEXT_SIZE),
        *small_capitals("Title II: Definitions", 72, 560),
        Text(72, 532, "Terms used", SECTION_SIZE, BOLD),
        *wrap(LOREM, 72, 510, 468, size=TEXT_SIZE),
    ]
    result = parse_pages(tmp_path, [Page(page)])
    assert sections(result) == [
        ("TITLE I: GENERAL PROVISIONS", 1),
        ("Scope of this part", 2),
        ("TITLE II: DEFINITIONS", 1),
        ("Terms used", 2),
    ]
    parents = {row.heading: row.parent_headings for row in result.rows}
    assert parents["Terms used"] == ("TITLE II: DEFINITIONS",)


def test_a_small_capitals_title_with_its_label_set_at_a_third_size_reads_at_its_capitals(
    tmp_path: Path,
) -> None:
    """A paper's section titles, not bold: the roman numeral at 12.5 pt, a little smaller
    than the capitals' 14 pt, the rest in small capitals at 11 pt, over text at 12 pt. Three
    sizes, still small capitals: read at 11 pt, the titles were no headings at all."""
    page = []
    for index, (label, title) in enumerate((("I.", "Introduction"), ("II.", "Methods"))):
        y = 740 - 200 * index
        page.append(Text(72, y, label, 12.5))
        page += small_capitals(title, 72 + printed_width(f"{label} ", 12.5), y, REGULAR)
        page += wrap(LOREM, 72, y - 24, 468, size=TEXT_SIZE)
    result = parse_pages(tmp_path, [Page(page)])
    assert sections(result) == [("I. INTRODUCTION", 1), ("II. METHODS", 1)]
