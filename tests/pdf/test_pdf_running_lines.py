"""Running lines that change from page to page: a register's running header carries the
number of the section the page holds ("Cold Store Administration, Safety    § 4.12"), set
apart from its title at the other end of the row. The title runs through the document;
the number is the page's own. Both are furniture, never a heading or the text of a page."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.model import PREFACE_HEADING
from lightrag_pchunk.pdf.document import parse_pdf

from pdf_builders import BOLD, LOREM, Bookmark, Page, Text, build_pdf, headings_of, wrap

WORDS = ["ammonia", "brine", "freezer", "valve", "gauge", "pump", "coil", "drain"]
TITLE, EDITION = "Cold Store Administration, Safety", "21 CSR Ch. II (4-1-00 Edition)"


def _parse(tmp_path: Path, pages: list[Page]):
    path = tmp_path / "doc.pdf"
    path.write_bytes(build_pdf(pages))
    return parse_pdf(path, tmp_path / "out", doc_id="doc-test")


def _register_page(number: int, word: str, columns: int) -> Page:
    """A page printed small in the middle of a letter sheet (its print starts 160 pt below
    the sheet's top), its header bold: the title on odd pages, the edition on even ones,
    and the section number at the other end of the row."""
    marker = f"§ 4.{10 + number}"
    if number % 2:
        header = [Text(140, 632, TITLE, 9, font=BOLD), Text(440, 632, marker, 9, font=BOLD)]
    else:
        header = [Text(140, 632, marker, 9, font=BOLD), Text(360, 632, EDITION, 9, font=BOLD)]
    body = f"Body text about the {word}. {LOREM} {LOREM}"
    if columns == 1:
        return Page([*header, *wrap(body, 140, 610, 330, size=8)])
    left = wrap(body, 140, 610, 150, size=8)
    right = wrap(f"Right column on the {word}. {LOREM} {LOREM}", 310, 610, 150, size=8)
    return Page([*header, *left, *right])


def test_a_running_header_with_the_pages_section_number_is_removed(tmp_path: Path) -> None:
    pages = [_register_page(n, word, 1) for n, word in enumerate(WORDS, start=1)]
    result = _parse(tmp_path, pages)
    assert "Cold Store Administration" not in result.content
    assert "21 CSR" not in result.content
    assert "§ 4." not in result.content
    assert all(f"Body text about the {word}." in result.content for word in WORDS)
    assert {row.heading for row in result.rows} == {PREFACE_HEADING}


def test_a_running_header_split_over_two_columns_is_removed(tmp_path: Path) -> None:
    # Two-column pages: the title stands over the left column, the section number over
    # the right one, read as two lines of the row.
    pages = [_register_page(n, word, 2) for n, word in enumerate(WORDS, start=1)]
    result = _parse(tmp_path, pages)
    assert "Cold Store Administration" not in result.content
    assert "§ 4." not in result.content
    assert all(f"Right column on the {word}." in result.content for word in WORDS)


def test_a_numbered_heading_that_opens_each_page_is_kept(tmp_path: Path) -> None:
    # Each page opens with its own section, its number set apart from its title: the
    # title changes with the page, so nothing runs through; the headings stay.
    pages = []
    for number, word in enumerate(WORDS, start=1):
        heading = [
            Text(140, 632, f"{number}.", 9, font=BOLD),
            Text(200, 632, f"Handling the {word}", 9, font=BOLD),
        ]
        body = wrap(f"Body text about the {word}. {LOREM}", 140, 610, 330, size=8)
        pages.append(Page([*heading, *body]))
    result = _parse(tmp_path, pages)
    assert all(f"Handling the {word}" in result.content for word in WORDS)


def test_sections_of_one_title_opening_their_pages_and_bookmarked_are_kept(
    tmp_path: Path,
) -> None:
    # A guideline's chapters each open a page with "N.4 Rationale for the recommendations"
    # at one height: by its words, with the number set aside, one running header. Its
    # bookmarks show the whole page (no height), but name each title on its page: headings.
    pages, bookmarks = [], []
    for number, word in enumerate(WORDS[:4], start=1):
        title = f"{number}.4 Rationale for the recommendations"
        body = wrap(f"The rationale for the {word}. {LOREM} {LOREM}", 72, 710, 450, size=10)
        pages.append(Page([Text(72, 740, title, 12, font=BOLD), *body]))
        bookmarks.append(Bookmark(title, 1, number - 1, y=None))
    path = tmp_path / "doc.pdf"
    path.write_bytes(build_pdf(pages, bookmarks))
    result = parse_pdf(path, tmp_path / "out", doc_id="doc-test")
    titles = [f"{n}.4 Rationale for the recommendations" for n in range(1, 5)]
    assert [row.heading for row in result.rows] == titles


def test_a_first_pages_footer_with_its_page_number_is_removed(tmp_path: Path) -> None:
    # The first page's footer prints the page number and the template's date apart from
    # it, a size over the body's; the later pages print the page number alone. The first
    # footer repeats on no other page, but its page number makes it a footer: no heading,
    # no text of the page.
    pages = []
    for number, word in enumerate(WORDS[:4], start=1):
        footer = [Text(260, 40, f"Page {number} of 4", 12)]
        if number == 1:
            footer = [Text(260, 40, "Page 1 of 4", 12), Text(420, 40, "Template: May 3, 2017", 12)]
        heading = [Text(72, 700, f"Handling the {word}", 13)]
        body = wrap(f"Body text about the {word}. {LOREM} {LOREM}", 72, 680, 460, size=10)
        pages.append(Page([*heading, *body, *footer]))
    result = _parse(tmp_path, pages)
    assert "Template" not in result.content
    assert "Page 1" not in result.content
    assert headings_of(result) == [f"Handling the {word}" for word in WORDS[:4]]


def test_lines_in_the_foot_band_beside_an_unmarked_number_are_kept(tmp_path: Path) -> None:
    # In the foot band, a number set apart from the text beside it that no word marks as
    # a page's is the text's: a row's total that is the page's own number ("Total    1"
    # on page 1), a footnote's citation of a volume and page ("Sunan Ibn Majah    1/79").
    pages = [
        Page([*wrap(f"Stock of the {word}. {LOREM}", 72, 700, 460, size=10)]) for word in WORDS[:3]
    ]
    pages[0].items += [Text(72, 52, "Total", 10), Text(420, 52, "1", 10)]
    pages[1].items += [Text(72, 40, "Sunan Ibn Majah", 8), Text(420, 40, "1/79", 8)]
    result = _parse(tmp_path, pages)
    assert "Total" in result.content and "Sunan Ibn Majah" in result.content
    assert "1/79" in result.content


def test_a_note_repeated_at_the_foot_of_pages_keeps_its_last_line(tmp_path: Path) -> None:
    # A note box printed at the foot of several pages, its last line inside the foot band
    # at the same height on each: a running footer's place and repeated text, but the line
    # goes on from the note's line above at the paragraph's spacing. It is the note's.
    note = [
        "The description fields are multiline markup, which lets the text be formatted.",
        "See the guide to the content, section 2.5.3 on markup fields in the model,",
        "or visit: https://pages.example.org/model/reference/datatypes/#markup-line",
    ]
    pages = []
    for word in WORDS[:3]:
        body = wrap(f"Body text about the {word}. {LOREM} {LOREM}", 72, 700, 460, size=10)
        lines = [Text(72, 90 - 12 * index, line, 10) for index, line in enumerate(note)]
        pages.append(Page([*body, *lines]))
    result = _parse(tmp_path, pages)
    assert result.content.count(note[-1]) == 3


def test_a_running_footer_set_close_under_the_text_is_removed(tmp_path: Path) -> None:
    # Full pages whose text ends one line above the foot band, the footer printed at the
    # text's spacing under its last line: each page's footer follows another line of text
    # (a note box's last line follows the same line on every page), so it is a footer.
    footer = "Acme Corporation internal use only, do not distribute"
    pages = []
    for number, word in enumerate(WORDS[:4]):
        body = " ".join(f"{word.title()} {n}. {LOREM[number + n :]}" for n in range(40))
        lines = [line for line in wrap(body, 72, 720, 460, size=10) if line.y >= 76]
        pages.append(Page([*lines, Text(72, lines[-1].y - 12, footer, 10)]))
    assert len({page.items[-2].text for page in pages}) == 4
    assert footer not in _parse(tmp_path, pages).content


def test_a_subscript_lowered_out_of_a_heading_in_the_top_band_is_kept(tmp_path: Path) -> None:
    # "CO" and its "2" set 9 pt and lowered 7 pt, too low to share the heading's row: read
    # as a line of its own, a bare number in the sheet's top band, but it marks the heading
    # beside it. The page numbers at the foot are furniture.
    pages = [
        Page(
            [
                Text(72, 740, "1. Emissions of CO", 16, BOLD),
                Text(219, 733, "2", 9, BOLD),
                *wrap(LOREM, 72, 700, 400),
                Text(300, 40, "1"),
            ]
        ),
        *(Page([*wrap(LOREM, 72, 700, 400), Text(300, 40, str(n))]) for n in (2, 3)),
    ]
    content = "\n".join(row.content for row in _parse(tmp_path, pages).rows)
    assert "Emissions of CO\n2\n" in content or "Emissions of CO 2" in content
    assert "\n1\n" not in content and not content.rstrip().endswith(("1", "3"))


def test_a_subscript_beside_a_running_header_goes_with_it(tmp_path: Path) -> None:
    pages = [
        Page(
            [
                Text(72, 750, "Report on CO", 10, BOLD),
                Text(140, 746, "2", 6, BOLD),
                *wrap(f"{word.capitalize()} text. {LOREM}", 72, 700, 400),
            ]
        )
        for word in WORDS[:3]
    ]
    content = "\n".join(row.content for row in _parse(tmp_path, pages).rows)
    assert "Report on CO" not in content
    assert "\n2\n" not in content and not content.startswith("2")


def test_page_numbers_printed_above_the_foot_band_are_removed(tmp_path: Path) -> None:
    # A book set with wide margins (a LaTeX manual) prints its page number alone, centred
    # under the text, higher than the sheet's foot band: each page's last row, at one
    # height. The numbers change from page to page; their look runs through the document.
    pages = []
    for number, word in enumerate(WORDS[:5], start=1):
        body = wrap(f"Body text about the {word}. {LOREM} {LOREM}", 72, 700, 460, size=10)
        pages.append(Page([*body, Text(300, 88, str(number), 10)]))
    result = _parse(tmp_path, pages)
    assert all(f"Body text about the {word}." in result.content for word in WORDS[:5])
    assert not any(line.strip().isdigit() for line in result.content.splitlines())


def test_page_numbers_printed_right_after_each_pages_text_are_removed(tmp_path: Path) -> None:
    # A page printed from a web page (an SEC filing) sets its number centred right under
    # its text, which ends at a different height on each page, over a blank foot: no band
    # and no printed edge holds it; the numbers run with the pages, which gives them away.
    pages = []
    for number, word in enumerate(WORDS[:5], start=47):
        text = f"Body text about the {word}. " + " ".join([LOREM] * (1 + number % 3))
        body = wrap(text, 72, 700, 460, size=10)
        pages.append(Page([*body, Text(300, body[-1].y - 40, str(number), 10)]))
    result = _parse(tmp_path, pages)
    assert all(f"Body text about the {word}." in result.content for word in WORDS[:5])
    assert not any(line.strip().isdigit() for line in result.content.splitlines())


def test_a_running_header_with_roman_page_numbers_is_removed(tmp_path: Path) -> None:
    # The front matter numbers its pages in lower-case roman numerals, printed at the
    # running header's end: the header is one running line whatever the numeral.
    pages = []
    for number, word in zip(["i", "ii", "iii", "iv"], WORDS, strict=False):
        header = [Text(72, 760, "Cold Store Manual", 9), Text(520, 760, number, 9)]
        body = wrap(f"Body text about the {word}. {LOREM} {LOREM}", 72, 700, 460, size=10)
        pages.append(Page([*header, *body]))
    result = _parse(tmp_path, pages)
    assert "Cold Store Manual" not in result.content
    assert all(f"Body text about the {word}." in result.content for word in WORDS[:4])


def test_a_scans_running_header_read_differently_on_some_pages_is_removed(
    tmp_path: Path,
) -> None:
    # Text recognition reads the running header of a scanned book with a slip here and
    # there, the page number on the outer side, a full stop on some pages only. A page
    # without it whose text begins at its height with a line alike in part keeps the line.
    headers = [
        "THE SIEGE OF VICKSBURG. 49",
        "50 THE SIEGE OF VICKSBUEG.",
        "51 THE SIEGE OF VICKSBURG.",
        "THE SIEGE OP VICKSBURG 52",
        "53 THE SIEGE OF VICKSBURG.",
        "THE SIEGE OF VICKSBURG. 54",
    ]
    pages = []
    for number, (header, word) in enumerate(zip(headers, WORDS, strict=False)):
        top = [Text(140, 740, header, 8)]
        if number == 3:  # no header on this page: text begins at its height
            top = [Text(72, 740, "The siege of Vicksburg ended.", 8)]
        pages.append(Page([*top, *wrap(f"Body text about the {word}. {LOREM}", 72, 700, 460)]))
    result = _parse(tmp_path, pages)
    assert "SIEGE" not in result.content
    assert "The siege of Vicksburg ended." in result.content
    assert all(f"Body text about the {word}." in result.content for word in WORDS[:6])


def test_a_line_printed_alone_on_every_page_is_kept_once(tmp_path: Path) -> None:
    # The document's only text is one line at one place on every page: it is the text of
    # the document, not a header framing any, and reaches the blocks once, on page 1.
    pages = [Page([Text(72, 742, "Potato", 12)]) for _ in range(4)]
    result = _parse(tmp_path, pages)
    assert result.content.split() == ["Potato"]
    assert [p["anchor"] for row in result.rows for p in row.positions] == ["1"]


def test_plates_titled_alike_after_the_text_keep_their_title(tmp_path: Path) -> None:
    # A manual's pages of text under a running header, then three plates (pictures) each
    # titled at the top of its page, with no other text: the header goes, the plates'
    # title stays once; a page without text but the header keeps nothing.
    pages = [
        Page(
            [
                Text(72, 760, "Cold Store Manual", 9),
                *wrap(f"Body text about the {word}. {LOREM}", 72, 700, 460),
            ]
        )
        for word in WORDS[:4]
    ]
    pages.append(Page([Text(72, 760, "Cold Store Manual", 9)]))
    pages += [Page([Text(72, 760, "Plates of the plant", 9)], image=True) for _ in range(3)]
    result = _parse(tmp_path, pages)
    assert "Cold Store Manual" not in result.content
    assert result.content.count("Plates of the plant") == 1
    assert all(f"Body text about the {word}." in result.content for word in WORDS[:4])


def test_a_word_of_roman_letters_ending_a_paragraph_in_the_bottom_band_is_text(
    tmp_path: Path,
) -> None:
    # A paragraph's last line holding one word ("did.", "civil.", "vivid.": only letters a
    # roman numeral uses) printed low on a page, inside the sheet's bottom band where page
    # numbers stand: it is text, not a page number; each page's number still goes.
    last_words = ["did.", "civil.", "vivid."]
    pages = [
        Page(
            [
                *wrap(f"{LOREM} The {word[:-1]} paragraph ends", 72, 160, 450),
                Text(72, 64, word, 11),
                Text(300, 30, str(number), 9),
            ]
        )
        for number, word in enumerate(last_words, start=1)
    ]
    result = _parse(tmp_path, pages)
    lines = result.content.splitlines()
    assert all(word in lines for word in last_words)
    assert not {"1", "2", "3"} & set(lines)


def test_a_running_header_drifting_across_the_top_bands_border_is_removed(tmp_path: Path) -> None:
    # The header sits 5 pt higher on the first two pages, inside the top band; on the
    # eight after, just below the band, it opens each page's print: one running line.
    pages = []
    for number, word in enumerate(WORDS + WORDS[:2]):
        top = 713 if number < 2 else 708
        body = wrap(f"Body text about the {word}. {LOREM} {LOREM}", 72, 680, 460)
        pages.append(Page([Text(210, top, "The Cold Store Act of 1998", 11), *body]))
    result = _parse(tmp_path, pages)
    assert "Cold Store Act" not in result.content
    assert all(f"Body text about the {word}." in result.content for word in WORDS)


def test_a_running_header_over_a_figures_labels_is_furniture_not_a_tables_row(
    tmp_path: Path,
) -> None:
    """A lecture's running header, the page number and the section's title ("53", "3.3.
    UBERLAGERUNGEN"), with a figure's labels aligned in rows under it on one page: the
    labels are no table that the header heads; the header goes with the other pages' as
    furniture, and the labels stay text."""
    labels = [
        Text(x, y, label, 10)
        for y, row in ((735, ("i", "f", "z2")), (722, ("z", "g", "1")))
        for x, label in zip((150, 260, 370), row, strict=True)
    ]
    pages = [
        Page(
            [
                Text(72, 760, str(52 + number), 10),
                Text(380, 760, "3.3. UBERLAGERUNGEN", 10),
                *(labels if number == 1 else []),
                *wrap(LOREM * 3, 72, 700, 468),
            ]
        )
        for number in range(4)
    ]
    result = _parse(tmp_path, pages)
    text = "\n".join(row.content for row in result.rows)
    assert "UBERLAGERUNGEN" not in text
    assert "<table" not in text
    assert all(label in text.split() for label in ("z2", "f", "g"))
