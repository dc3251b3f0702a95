"""Unruled tables of numbered rows under a header row naming their columns."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import Page, Text, parse_pages, tags_of, unruled_rows

#: Requirements: a number, a description wrapped over lines, a level on the first line.
REQUIREMENTS = [
    (
        "1.1.1",
        [
            "Verify that input is decoded or unescaped into a canonical form only once,",
            "that it is only decoded when encoded data in that form is expected, and",
            "that this is done before processing the input further.",
        ],
        "2",
    ),
    (
        "1.1.2",
        [
            "Verify that the application performs output encoding and escaping either as",
            "a final step before being used by the interpreter for which it is intended.",
        ],
        "2",
    ),
    (
        "1.1.3",
        [
            "Verify that output encoding for an HTTP response, HTML document, or XML",
            "document is relevant for the context required.",
        ],
        "1",
    ),
]


def _requirements_page() -> Page:
    items = [Text(79, 720, "#", 10), Text(119, 720, "Description", 10)]
    items.append(Text(508, 720, "Level", 10))
    top = 693.0
    for number, lines, level in REQUIREMENTS:
        items += [Text(70, top, number, 10), Text(518, top, level, 10)]
        items += [Text(119, top - 16 * i, line, 10) for i, line in enumerate(lines)]
        top -= 16 * len(lines) + 21
    return Page(items)


def test_numbered_rows_under_a_header_naming_their_columns_are_a_table(tmp_path: Path) -> None:
    """A requirement's number, its description wrapped over lines and its level, under a
    header row naming the three columns: a table, the level its row's, not a list whose
    items read "… or XML<tab>1" over the description's next line."""
    (table,) = tags_of(parse_pages(tmp_path, [_requirements_page()]))
    assert table[0] == ["#", "Description", "Level"]
    assert table[1:] == [[n, " ".join(lines), level] for n, lines, level in REQUIREMENTS]


def test_a_contents_under_a_header_naming_its_columns_is_no_table(tmp_path: Path) -> None:
    """A contents' numbered entries, a title a line each and its page, under a header row
    naming the columns: a list, as without the header."""
    entries = [
        ("Part", "Title", "Page"),
        ("1.", "Scope of the rules", "3"),
        ("2.", "Terms", "7"),
        ("3.", "Inspections", "12"),
    ]
    items = unruled_rows(entries, (72, 100, 500), 700, 16)
    assert tags_of(parse_pages(tmp_path, [Page(items)])) == []
