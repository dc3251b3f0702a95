"""Word spaces a PDF writes as tab characters (a producer that sets each space as a tab
glyph, blank and a space wide) read as spaces; a tab that opens a wider gap (before a
contents entry's page number) stays the tab it is."""

from __future__ import annotations

import re
from pathlib import Path

from pdf_builders import (
    BODY,
    DRAWN_TAB,
    LOREM,
    Page,
    Text,
    build_pdf,
    contents_rows,
    first_page_text,
    outline_rows,
    parse_pages,
    wrap,
)

TITLES = ("V1: Architecture, design and threat modelling", "V2: Authentication requirements")


def _tabbed(lines: list[Text], stretch: float = 0.0) -> list[Text]:
    """``lines`` with every space set as a tab, ``stretch`` points wider (justified)."""
    found = []
    for line in lines:
        text = line.text.replace(" ", "\t")
        spacing = tuple(stretch if char == "\t" else 0.0 for char in text[:-1])
        found.append(Text(line.x, line.y, text, line.size, line.font, spacing=spacing))
    return found


def test_headings_and_text_whose_word_spaces_are_tabs_read_with_spaces(tmp_path: Path) -> None:
    # Titles set larger than the text, every word space of the page a tab glyph, those of
    # the second paragraphs stretched as a justified line's are (PDFium writes a space
    # after each): the titles are headings, their text and the paragraphs' read with
    # one space between words.
    items = []
    for i, title in enumerate(TITLES):
        y = 720 - 200 * i
        items += _tabbed([Text(72, y, title, 16), *wrap(BODY, 72, y - 24, 400)])
        items += _tabbed(wrap(LOREM, 72, y - 90, 400), stretch=2.5)
    result = parse_pages(tmp_path, [Page(items)])
    assert [r.heading for r in outline_rows(result)] == list(TITLES)
    text = " ".join(r.content.replace("\n", " ") for r in result.rows)
    assert "\t" not in text
    assert BODY in text
    assert LOREM in text


def test_a_tab_before_a_contents_entry_s_page_number_stays_a_tab(tmp_path: Path) -> None:
    # Contents entries whose words are parted by tab glyphs a space wide, each title by a
    # tab from its page number set further than a word space reaches, not as far as a
    # column (three quarters of the text's height): the entries stay a contents listing
    # the chapters, each with its page number after a tab.
    chapters = ["1 General provisions", "2 Operation", "3 Maintenance"]
    toc = [Text(72, 740, "Contents", 14)]
    for i, chapter in enumerate(chapters):
        line = f"{chapter}\t{i + 2}".replace(" ", "\t")
        spacing = tuple(7.0 if at == len(chapter) else 0.0 for at in range(len(line) - 1))
        toc.append(Text(72, 716 - 16 * i, line, spacing=spacing))
    body = []
    for i, chapter in enumerate(chapters):
        y = 640 - 150 * i
        body += _tabbed([Text(72, y, chapter, 14), *wrap(BODY, 72, y - 22, 400)])
    result = parse_pages(tmp_path, [Page(toc), Page(body)])
    assert [r.heading for r in outline_rows(result)] == chapters
    toc_text = "".join(r.content for r in contents_rows(result))
    for i, chapter in enumerate(chapters):
        assert re.search(f"{chapter}\t *{i + 2}", toc_text), toc_text


def test_a_tab_whose_glyph_draws_a_letter_is_no_space(tmp_path: Path) -> None:
    # A font whose text map reads one of its letters as a tab (fonts without a usable map
    # read their glyphs by their codes): the glyph draws ink, so it is no word space,
    # however close it stands to its neighbours; the text reads as the map says.
    path = tmp_path / "doc.pdf"
    path.write_bytes(build_pdf([Page([Text(72, 700, "L\tmits of the f\tle", 11, DRAWN_TAB)])]))
    assert [s.text for s in first_page_text(path).segments] == ["L\tmits of the f\tle"]
