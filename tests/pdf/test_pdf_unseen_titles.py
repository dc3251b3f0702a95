"""Titles of documents no test had seen, set as headings (bold, larger) in a PDF without
tags or bookmarks: the heading classifier's guards against lines no reader calls a title
let them head their sections."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BODY, BOLD, CJK, Page, Text, parse_pages, sections, wrap


def _page(titles: list[str], font: str = BOLD) -> Page:
    items: list[Text] = [Text(72, 740, "Report of the Year", 18, BOLD)]
    top = 715
    for title in titles:
        items.append(Text(72, top, title, 14, font))
        items += wrap(BODY, 72, top - 22, 400)
        top -= 110
    return Page(items)


def test_unseen_titles_head_their_sections(tmp_path: Path) -> None:
    titles = ["Funding; Conflicts of interest", "Summary: Findings", "12 May 2023 in Review"]
    found = [title for title, _ in sections(parse_pages(tmp_path, [_page(titles)]))]
    assert found[-3:] == titles


def test_an_offices_message_heads_its_section(tmp_path: Path) -> None:
    found = [title for title, _ in sections(parse_pages(tmp_path, [_page(["学院院长寄语"], CJK)]))]
    assert found[-1:] == ["学院院长寄语"]
