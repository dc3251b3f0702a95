"""A paper's paragraph that runs from the foot of its left column into the top of the right
one is one paragraph: its last line in the left column is full, no sentence ended there,
and the right column opens in lower case. A column that ends its sentence, or a right
column that opens a new sentence, parts two paragraphs."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import Page, Text, parse_pages


def _line(side: str, number: int) -> str:
    """A full line of a column's prose (about 52 characters), unique to its place."""
    return f"the {side} column holds its line {number:02d} of prose set full"


def _page(left_end: str, right_start: str) -> Page:
    """Two columns of 40 lines each at 11-point steps, every line full to its column's
    end; the left column's last line ends with ``left_end``, the right column's first
    line starts with ``right_start``."""
    items = []
    for number in range(40):
        y = 740 - 11 * number
        left, right = _line("left", number), _line("right", number)
        if number == 39:
            left = left[: -len(left_end)] + left_end
        if number == 0:
            right = right_start + right[len(right_start) :]
        items += [Text(60, y, left, 9), Text(320, y, right, 9)]
    return Page(items)


def _paragraph_with(result, text: str) -> str:
    return next(p for row in result.rows for p in row.content.split("\n") if text in p)


def test_a_paragraph_cut_by_the_column_break_is_one(tmp_path: Path) -> None:
    result = parse_pages(tmp_path, [_page(" the migrating", "flamingos ")])
    paragraph = _paragraph_with(result, "migrating")
    assert "the migrating flamingos" in paragraph
    assert paragraph.startswith("the left column holds its line 00")


def test_a_sentence_ended_at_the_column_foot_parts_two_paragraphs(tmp_path: Path) -> None:
    result = parse_pages(tmp_path, [_page(" it migrates.", "Flamingos ")])
    assert "Flamingos" not in _paragraph_with(result, "it migrates.")
    assert _paragraph_with(result, "Flamingos").startswith("Flamingos")
