"""A heading's label printed apart from its bookmarked title: a section's number in a
segment of its own before the title on its line, a chapter's 'Chapter 2' on the line above
it. The label goes with the title, never to the section before, never a heading alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from lightrag_pchunk.pdf.bookmark_match import match_bookmarks
from lightrag_pchunk.pdf.outline import Bookmark as OutlineBookmark

from pdf_builders import (
    BODY,
    BOLD,
    CJK,
    Bookmark,
    Page,
    Text,
    headings_of,
    parse_pages,
    sections,
    wrap,
)


def _parse_two_sections(tmp_path: Path, first: str, between: Text, second: str):
    """Two bookmarked titles in 18 pt on one page, each over a paragraph, ``between``
    printed on the line above the second, parsed."""
    pages = [
        Page(
            [
                Text(72, 740, first, 18),
                *wrap(BODY, 72, 715, 460),
                between,
                Text(72, 640, second, 18),
                *wrap(BODY, 72, 615, 460),
            ]
        )
    ]
    bookmarks = [Bookmark(first, 1, 0, 758), Bookmark(second, 1, 0, 658)]
    return parse_pages(tmp_path, pages, bookmarks=bookmarks)


def test_a_sections_number_set_apart_on_its_titles_line_stays_in_the_title(
    tmp_path: Path,
) -> None:
    # dblatex sets "1.1.10" and the title as two runs of one line; the bookmark names the
    # title alone. The number is the title's, as a Word heading's number is.
    pages = [
        Page(
            [
                Text(72, 740, "1.1.9", 12, BOLD),
                Text(120, 740, "Restoring the console", 12, BOLD),
                *wrap(BODY, 72, 715, 460),
                Text(72, 640, "1.1.10", 12, BOLD),
                Text(120, 640, "Suggested packages", 12, BOLD),
                *wrap(BODY, 72, 615, 460),
            ]
        )
    ]
    bookmarks = [
        Bookmark("Restoring the console", 1, 0, 752),
        Bookmark("Suggested packages", 1, 0, 652),
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert sections(result) == [
        ("1.1.9 Restoring the console", 1),
        ("1.1.10 Suggested packages", 1),
    ]
    assert not result.rows[-2].content.rstrip().endswith("1.1.10")


def test_a_chapter_label_on_the_line_above_its_title_goes_with_the_title(
    tmp_path: Path,
) -> None:
    # "Chapter 2" in bold above the chapter's larger title, which the bookmark names: the
    # label is the title's, not the last line of chapter 1 nor a heading of its own.
    pages = [
        Page(
            [
                Text(72, 690, "Chapter 1", 20, BOLD),
                Text(72, 640, "Tutorials", 24),
                *wrap(BODY, 72, 600, 460),
            ]
        ),
        Page(
            [
                Text(72, 690, "Chapter 2", 20, BOLD),
                Text(72, 640, "Package management", 24),
                *wrap(BODY, 72, 600, 460),
            ]
        ),
    ]
    bookmarks = [Bookmark("Tutorials", 1, 0, 762), Bookmark("Package management", 1, 1, 762)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert sections(result) == [
        ("Chapter 1 Tutorials", 1),
        ("Chapter 2 Package management", 1),
    ]
    assert "Chapter 2" not in result.rows[-2].content


@pytest.mark.parametrize(
    ("first", "number", "second"),
    [
        # A paragraph's last line that is a number in the text's look ("42" of a list of
        # quantities) is the text's, not the label of the bookmarked title under it.
        ("Stock", Text(72, 670, "42", 11), "Orders"),
        # An equation's number "(4)" in a larger look closes its section; the title under
        # it has its own number: the "(4)" is no label of it.
        ("2.1 Formulas", Text(500, 670, "(4)", 14), "2.2 Tables"),
    ],
)
def test_a_number_above_a_title_it_labels_not_stays_in_the_section_before(
    tmp_path: Path, first: str, number: Text, second: str
) -> None:
    result = _parse_two_sections(tmp_path, first, number, second)
    assert sections(result) == [(first, 1), (second, 1)]
    assert result.rows[-2].content.rstrip().endswith(number.text)


def test_a_documents_own_unit_label_above_a_found_title_goes_with_it(tmp_path: Path) -> None:
    # A collection of documents without bookmarks: each one's label ("文件二"), in the
    # text's look, on the line above its larger title. "文件" numbers on through the
    # collection, a unit of its own: each label opens its document's title, none closes the
    # document before it.
    titles = ["關於設立委員會的決定", "關於第一屆政府產生辦法的決定", "關於英文本的決定"]
    pages = []
    for number, (numeral, title) in enumerate(zip("一二三", titles, strict=True)):
        pages.append(
            Page(
                [
                    Text(72, 740, f"文件{numeral}", 11, CJK),
                    Text(72, 705, title, 16, CJK),
                    Text(
                        72, 670, "全國人民代表大會常務委員會第十次會議審議了這項議案。" * 2, 11, CJK
                    ),
                    Text(72, 655, f"第{number + 1}號公告於會議結束後公布施行。", 11, CJK),
                ]
            )
        )
    result = parse_pages(tmp_path, pages)
    headings = headings_of(result)
    assert headings == [f"文件{n} {t}" for n, t in zip("一二三", titles, strict=True)]
    assert not any(r.content.rstrip().endswith(("文件二", "文件三")) for r in result.rows)


def test_a_word_and_number_that_do_not_number_on_stay_text(tmp_path: Path) -> None:
    # "Room 12", "Room 3", "Room 7" above larger titles: the numbers do not run on, so
    # "Room" is no unit of the document, and each line in the text's look stays text.
    pages = []
    for room in ("12", "3", "7"):
        pages.append(
            Page(
                [
                    Text(72, 740, f"Room {room}", 11),
                    Text(72, 705, "Inspection record", 16),
                    *wrap(BODY, 72, 670, 460),
                ]
            )
        )
    result = parse_pages(tmp_path, pages)
    assert not any(r.heading.startswith("Room") for r in result.rows)


def test_a_large_number_above_a_found_title_goes_with_it(tmp_path: Path) -> None:
    # A report's goals, each opened by a large "1" above its bold title, no bookmarks:
    # the number is the title's, not the last line of the goal before.
    items: list = wrap(BODY, 72, 750, 460)  # a page's first line alone may be its number
    for number, goal in enumerate(("Orient the program", "Lead in security"), start=1):
        top = 720 - 330 * (number - 1)
        items += [Text(72, top - 40, str(number), 40, BOLD), Text(72, top - 100, goal, 20, BOLD)]
        items += wrap(BODY * 2, 72, top - 140, 460)
    pages = [Page(items)]
    result = parse_pages(tmp_path, pages)
    assert headings_of(result) == [
        "1 Orient the program",
        "2 Lead in security",
    ]
    assert not result.rows[0].content.rstrip().endswith("2")


def test_a_found_heading_over_a_subtitle_in_its_look_stays_a_heading(tmp_path: Path) -> None:
    # "APPENDIX B" over the appendix's subtitle, both bold and centred in one size, no
    # bookmarks: Word sets a heading over a subtitle so as often as a two-line title, and
    # the classifier keeps judging the two lines.
    pages = [
        Page(
            [
                Text(250, 740, "APPENDIX B", 12, BOLD),
                Text(150, 715, "STANDARDS FOR CREW OPERATIONS REVIEW", 12, BOLD),
                *wrap(BODY, 72, 680, 460),
            ]
        )
    ]
    result = parse_pages(tmp_path, pages)
    assert "APPENDIX B" in [r.heading for r in result.rows]


def test_an_equations_number_above_a_found_line_stays_where_it_is(tmp_path: Path) -> None:
    # "(1)" in bold above a larger bold line, no bookmarks: an equation's number and
    # its equation, no label of a title; "32" above a bold "( )" with no word: no title.
    pages = [
        Page(
            [
                Text(72, 740, "Radiometry", 18, BOLD),
                *wrap(BODY, 72, 715, 460),
                Text(300, 660, "(1)", 12, BOLD),
                Text(72, 630, "Quantum efficiency QE weighted", 14, BOLD),
                *wrap(BODY, 72, 600, 460),
                Text(72, 540, "32", 12, BOLD),
                Text(72, 515, "( )", 14, BOLD),
                *wrap(BODY, 72, 490, 460),
            ]
        )
    ]
    result = parse_pages(tmp_path, pages)
    text = "\n".join(r.content for r in result.rows)
    assert "(1) Quantum" not in text and "32 ( )" not in text


def _chapter_pages(labels: tuple[str, str]) -> list[Page]:
    """Two chapter openings, each a label ("CHAPTER 1") over its title in the same look
    (14 pt bold), 70 points (five sizes) above it, then text."""
    pages = []
    for label, title in zip(labels, ("Introduction", "Methods"), strict=True):
        items = [Text(72, 700, label, 14, BOLD), Text(72, 630, title, 14, BOLD)]
        pages.append(Page([*items, *wrap(BODY, 72, 590, 460)]))
    return pages


def test_a_chapter_label_read_with_its_title_as_one_paragraph_is_the_titles() -> None:
    # The label set flush right over the title, read with it as one paragraph of two
    # lines. The bookmark names the title alone and points above the label (a book's
    # chapter anchor at the top of its page): the title starts on the second line. A
    # paragraph whose first line is text, not a label, is not named from its second.
    bookmarks = [OutlineBookmark("Introduction", 1, 8, 720.0)]
    texts = [["CHAPTER 1", "Introduction"], [BODY[:60]]]
    found = match_bookmarks(bookmarks, texts, [8, 8], 0, [[647.0, 579.0], [540.0]])
    assert [(m.paragraph, m.first, m.lines) for m in found] == [(0, 1, 1)]
    texts = [["See the note", "Introduction"], [BODY[:60]]]
    assert match_bookmarks(bookmarks, texts, [8, 8], 0, [[647.0, 579.0], [540.0]]) == []


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        # A chapter opening sets its label word and number five sizes above the title:
        # still the title's.
        (("CHAPTER 1", "CHAPTER 2"), ["CHAPTER 1 Introduction", "CHAPTER 2 Methods"]),
        # A bare number as far above a title is not its label: it stays text.
        (("7", "8"), ["Introduction", "Methods"]),
    ],
)
def test_a_chapter_label_set_far_above_its_title_is_the_titles(
    tmp_path: Path, labels: tuple[str, str], expected: list[str]
) -> None:
    bookmarks = [Bookmark("Introduction", 1, 0, 640), Bookmark("Methods", 1, 1, 640)]
    result = parse_pages(tmp_path, _chapter_pages(labels), bookmarks=bookmarks)
    assert headings_of(result) == expected
