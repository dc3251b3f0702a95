"""A title broken inside a phrase at a full line, its next line set in a hanging indent and
its words capitalised ("… Networks at the" over "Direction of Users"): one title, though
the document's paragraphs open with their first line indented as far. A line is full when
the next line's first word would not fit in the room it leaves ("… Retriever and" over
"Reader"), however wide that room is."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdf_builders import BOLD, LOREM, Page, Text, parse_pages, printed_width, sections, wrap

TITLE_SIZE, TEXT_SIZE = 13.0, 12.0


def _section(title: tuple[str, ...], top: float) -> list[Text]:
    items = [
        Text(108 + 36 * k, top - 15 * k, line, TITLE_SIZE, BOLD) for k, line in enumerate(title)
    ]
    top -= 15 * len(title) + 14
    # Paragraphs open indented to where the title's second line stands; their lines run to
    # the margin the title's first line reaches.
    items.append(Text(144, top, LOREM[:60], TEXT_SIZE))
    items += wrap(LOREM[60:400], 108, top - 14, 400, size=TEXT_SIZE)
    return items


def test_a_titles_line_in_a_hanging_indent_goes_on_with_it(tmp_path: Path) -> None:
    first = "Limitation for Information Residing on Systems or Networks at the"
    page = [
        Text(72, 760, "TITLE II: ONLINE LIABILITY", 16, BOLD),
        *_section(("Limitation for System Caching",), 730),
        *_section((first, "Direction of Users"), 560),
        *_section(("Limitation for Information Location Tools",), 380),
    ]
    result = parse_pages(tmp_path, [Page(page)])
    assert [heading for heading, _ in sections(result)] == [
        "TITLE II: ONLINE LIABILITY",
        "Limitation for System Caching",
        f"{first} Direction of Users",
        "Limitation for Information Location Tools",
    ]


@pytest.mark.parametrize(
    ("first", "second"),
    [("D Joint Training of Retriever and", "Reader"), ("B Similarity Functions &", "Triplet Loss")],
)
def test_a_title_goes_on_where_its_next_word_would_not_fit(
    tmp_path: Path, first: str, second: str
) -> None:
    # An appendix title of a two-column paper: its first line leaves room at the column's
    # end (more than a twentieth of the column), but too little for the next line's word.
    body = wrap(f"{LOREM} {LOREM}", 72, 700, 220, size=TEXT_SIZE)
    right = max(72 + printed_width(line.text, TEXT_SIZE) for line in body)
    room = 0.75 * printed_width(second.split()[0], TITLE_SIZE, BOLD)
    assert room > 0.05 * (right - 72)
    size = (right - room - 72) / printed_width(first, 1.0, BOLD)
    page = [
        Text(72, 760, first, size, BOLD),
        Text(92, 760 - 1.2 * size, second, size, BOLD),
        *body,
        Text(72, 700 - 14 * len(body) - 30, "C Qualitative Analysis", size, BOLD),
        *wrap(LOREM, 72, 700 - 14 * len(body) - 50, 220, size=TEXT_SIZE),
    ]
    result = parse_pages(tmp_path, [Page(page)])
    assert [heading for heading, _ in sections(result)] == [
        f"{first} {second}",
        "C Qualitative Analysis",
    ]
