"""Hangul broken between two syllables at a line's end, without a hyphen, is one word where
the document prints a word opening with the two pieces joined ("개" over "선과제에", the title
printing "개선과제"); elsewhere a Korean line end parts two words, and the joining's space
stays."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import CJK, Page, Text, parse_pages

_SIZE = 10.0


def _page(lines: list[str]) -> Page:
    """A title, "4 개선과제", set large, over ``lines`` set full in 10 points, every
    character one em wide (the test's CJK font): lines of as many characters fill alike."""
    items = [Text(72, 720, "4 개선과제", 16, CJK)]
    items += [Text(72, 690 - 13 * i, line, _SIZE, CJK) for i, line in enumerate(lines)]
    return Page(items)


def _paragraph(result) -> str:
    return next(p for row in result.rows for p in row.content.split("\n") if "보험" in p)


def test_a_word_the_document_prints_whole_is_joined_at_a_line_end(tmp_path: Path) -> None:
    lines = [
        "보험약관 해석 문제와 관련한 개",
        "선과제에 대하여 검토하고 있으며",
        "보험회사 감독당국 역할이 필요함",
    ]
    assert len({len(line) for line in lines}) == 1
    paragraph = _paragraph(parse_pages(tmp_path, [_page(lines)]))
    assert "관련한 개선과제에 대하여" in paragraph
    # The other line end parts two words: the space stays.
    assert "있으며 보험회사" in paragraph


def test_pieces_the_document_never_prints_joined_stay_two_words(tmp_path: Path) -> None:
    lines = [
        "보험약관 해석 문제와 관련한 보",
        "상과제에 대하여 검토하고 있으며",
        "보험회사 감독당국 역할이 필요함",
    ]
    paragraph = _paragraph(parse_pages(tmp_path, [_page(lines)]))
    assert "관련한 보 상과제에" in paragraph
