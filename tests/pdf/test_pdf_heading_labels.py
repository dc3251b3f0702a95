"""A heading's label printed apart from its bookmarked title: a section's number in a
segment of its own before the title on its line, a chapter's 'Chapter 2' on the line above
it. The label goes with the title, never to the section before, never a heading alone."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.model import PREFACE_HEADING

from pdf_builders import BOLD, Bookmark, Page, Text, parse_pages, wrap

BODY = (
    "The refrigeration plant is inspected every week by a competent person who records the "
    "result of every test in the plant log and signs the entry."
)


def _sections(result) -> list[tuple[str, int]]:
    return [(r.heading, r.level) for r in result.rows if r.heading != PREFACE_HEADING]


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
    assert _sections(result) == [
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
    assert _sections(result) == [
        ("Chapter 1 Tutorials", 1),
        ("Chapter 2 Package management", 1),
    ]
    assert "Chapter 2" not in result.rows[-2].content


def test_a_number_in_the_bodys_look_above_a_title_stays_text(tmp_path: Path) -> None:
    # A paragraph's last line that is a number in the text's look ("42" of a list of
    # quantities) is the text's, not the label of the bookmarked title under it.
    pages = [
        Page(
            [
                Text(72, 740, "Stock", 18),
                *wrap(BODY, 72, 715, 460),
                Text(72, 670, "42", 11),
                Text(72, 640, "Orders", 18),
                *wrap(BODY, 72, 615, 460),
            ]
        )
    ]
    bookmarks = [Bookmark("Stock", 1, 0, 758), Bookmark("Orders", 1, 0, 658)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert _sections(result) == [("Stock", 1), ("Orders", 1)]
    assert result.rows[-2].content.rstrip().endswith("42")


def test_a_number_above_a_numbered_title_stays_where_it_is(tmp_path: Path) -> None:
    # An equation's number "(4)" in a larger look closes its section; the title under it
    # has its own number: the "(4)" is no label of it.
    pages = [
        Page(
            [
                Text(72, 740, "2.1 Formulas", 18),
                *wrap(BODY, 72, 715, 460),
                Text(500, 670, "(4)", 14),
                Text(72, 640, "2.2 Tables", 18),
                *wrap(BODY, 72, 615, 460),
            ]
        )
    ]
    bookmarks = [Bookmark("2.1 Formulas", 1, 0, 758), Bookmark("2.2 Tables", 1, 0, 658)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert _sections(result) == [("2.1 Formulas", 1), ("2.2 Tables", 1)]
    assert result.rows[-2].content.rstrip().endswith("(4)")
