"""A paper's front matter in a PDF: its author list and its copyright line, set in the
headings' look, title no section; a title that names authors or copyright still does."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BOLD, Page, Text, parse_pages, wrap

BODY = (
    "The refrigeration plant is inspected every week by a competent person who records the "
    "result of every test in the plant log and signs the entry. The log is kept for five "
    "years and shown to the inspector on request, with the certificates of the tests."
)


def _paper(tmp_path: Path, authors: str, notice: str):
    first = Page(
        [
            Text(100, 740, "Weekly Inspection of Refrigeration Plants", 18, BOLD),
            Text(150, 712, authors, 13, BOLD),
            Text(150, 694, "Plant Safety Institute", 11),
            Text(72, 660, "Abstract", 13, BOLD),
            *wrap(BODY, 72, 640, 460),
            Text(72, 560, "1 Introduction", 13, BOLD),
            *wrap(BODY, 72, 540, 460),
            Text(72, 470, notice, 13, BOLD),
            *wrap(BODY, 72, 450, 460),
        ]
    )
    second = Page([Text(72, 720, "2 Method", 13, BOLD), *wrap(BODY, 72, 700, 460)])
    return parse_pages(tmp_path, [first, second])


def test_an_author_list_and_a_copyright_line_head_no_section(tmp_path: Path) -> None:
    authors = "Dan Roe¹, Eve Stone² and Fay Hill¹"
    notice = "Copyright © 2024 Plant Safety Institute"
    result = _paper(tmp_path, authors, notice)
    assert [row.heading for row in result.rows] == [
        "Preface/Uncategorized",
        "Abstract",
        "1 Introduction",
        "2 Method",
    ]
    assert authors in result.rows[0].content  # the title page's lines, kept whole
    assert notice in result.rows[2].content  # a line of the section it is printed in


def test_unmarked_names_and_a_title_naming_copyright_head_sections(tmp_path: Path) -> None:
    # Without affiliation marks names read as a title; "Copyright" without a year at once
    # after it names a subject.
    result = _paper(tmp_path, "Smith, Jones and Partners Agreement", "Copyright and Related Rights")
    assert [row.heading for row in result.rows] == [
        "Preface/Uncategorized",
        "Smith, Jones and Partners Agreement",
        "Abstract",
        "1 Introduction",
        "Copyright and Related Rights",
        "2 Method",
    ]
