"""Titles of documents no test had seen, set as headings (bold, larger) in a PDF without
tags or bookmarks: the heading classifier's guards against lines no reader calls a title
let them head their sections."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdf_builders import BODY, BOLD, CJK, Page, Text, headings_of, parse_pages, wrap


def _page(titles: list[str], font: str = BOLD) -> Page:
    items: list[Text] = [Text(72, 740, "Report of the Year", 18, BOLD)]
    top = 715
    for title in titles:
        items.append(Text(72, top, title, 14, font))
        items += wrap(BODY, 72, top - 22, 400)
        top -= 110
    return Page(items)


@pytest.mark.parametrize(
    ("titles", "font"),
    [
        # A ";" between a title's items, title-case words around a colon, a date's review.
        (["Funding; Conflicts of interest", "Summary: Findings", "12 May 2023 in Review"], BOLD),
        # An office's message.
        (["学院院长寄语"], CJK),
        # Numbers and amounts a title names.
        (
            ["Results for 2019, 2020 and 2021", "Reduce costs by 20%", "Early Bird Discount 15%"],
            BOLD,
        ),
    ],
)
def test_unseen_titles_head_their_sections(tmp_path: Path, titles: list[str], font: str) -> None:
    found = headings_of(parse_pages(tmp_path, [_page(titles, font)]))
    assert found[-len(titles) :] == titles


def test_numbered_titles_of_empty_sections_head_them(tmp_path: Path) -> None:
    # Set larger than the text, one right under the other: no program's numbered lines.
    items = [Text(72, 740, "Report of the Year", 18, BOLD), *wrap(BODY, 72, 715, 400)]
    items += [Text(72, 640, "1 Scope", 14, BOLD), Text(72, 615, "2 Terms", 14, BOLD)]
    items += [Text(72, 590, "3 Use", 14, BOLD), *wrap(BODY, 72, 565, 400)]
    found = headings_of(parse_pages(tmp_path, [Page(items)]))
    assert found[-3:] == ["1 Scope", "2 Terms", "3 Use"]


def test_a_title_opening_with_a_under_a_short_question_heads_its_section(tmp_path: Path) -> None:
    items = [Text(72, 740, "Report of the Year", 18, BOLD), *wrap(BODY, 72, 715, 400)]
    items += [Text(72, 640, "Why does it matter?", 11), Text(72, 615, "A New Approach", 14, BOLD)]
    items += wrap(BODY, 72, 590, 400)
    found = headings_of(parse_pages(tmp_path, [Page(items)]))
    assert found[-1:] == ["A New Approach"]


def test_a_page_templates_section_titles_head_their_sections(tmp_path: Path) -> None:
    # A designed report gives each chapter a page: its title, then the same three section
    # titles, each at its own height on every page. Printed at one height on each page
    # they read like running titles, but several titles at their places on the same pages
    # are the chapters' sections.
    chapters = ["Pump failures", "Valve leaks", "Coil icing", "Brine dilution"]
    sections = ["What goes wrong", "How to prevent it", "Further reading"]
    pages = []
    for number, chapter in enumerate(chapters, start=1):
        items = [Text(72, 700, chapter, 20, BOLD)]
        for place, section in enumerate(sections):
            top = 660 - 200 * place
            text = f"Case {number}.{place} of the {chapter.lower()}. {BODY}"
            items += [Text(72, top, section, 14, BOLD), *wrap(text, 72, top - 22, 400)]
        pages.append(Page(items))
    found = headings_of(parse_pages(tmp_path, pages))
    assert found == [title for chapter in chapters for title in [chapter, *sections]]


def test_titles_whose_words_are_parted_by_no_break_spaces_head_their_sections(
    tmp_path: Path,
) -> None:
    # A contract converted from a web page writes every word space as a no-break space
    # (U+00A0, which its font's map to Unicode names): its numbered clause titles head
    # their sections, and they and its text read with the word spaces a user types.
    nbsp = "\u00a0"
    body = [
        "Each party shall keep the terms of",
        "this agreement and its records for",
        "as long as the law requires them.",
    ]
    items = [Text(72, 740, "AFFILIATE AGREEMENT".replace(" ", nbsp), 16, CJK)]
    top = 705
    for title in ("1. Enrollment in the Program", "2. Referral Fee", "3. Governing Law"):
        items.append(Text(72, top, title.replace(" ", nbsp), 11, CJK))
        items += [
            Text(72, top - 20 - 14 * k, line.replace(" ", nbsp), 11, CJK)
            for k, line in enumerate(body)
        ]
        top -= 100
    result = parse_pages(tmp_path, [Page(items)])
    assert headings_of(result)[-3:] == [
        "1. Enrollment in the Program",
        "2. Referral Fee",
        "3. Governing Law",
    ]
    assert nbsp not in result.content
