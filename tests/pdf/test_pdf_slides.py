"""Slides exported to PDF: text boxes side by side read as text, not as a table."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BOLD, Page, Text, parse_pages, tags_of, wrap

SLIDE = {"width": 720.0, "height": 405.0}


def centred(lines: list[str], middle: float, top: float, size: float) -> list[Text]:
    """Bold lines centred on ``middle`` (Helvetica-Bold's glyphs about 0.6 em wide), from
    the baseline ``top`` down at 1.4 x ``size``."""
    return [
        Text(middle - 0.3 * size * len(line), top - 1.4 * size * i, line, size, font=BOLD)
        for i, line in enumerate(lines)
    ]


def test_a_side_title_in_large_type_beside_a_text_box_is_no_table(tmp_path: Path) -> None:
    """A slide's title set large in a narrow box at the left, its lines wrapped, beside a
    box of bulleted text in body type: the two boxes' lines share baselines often enough
    to align as rows of two cells, but a column of titles in type far larger than the
    text beside it is no column of labels."""
    title = ["Orient", "the program", "around the", "customer", "experience"]
    items: list = centred(title, 100, 260, 20)
    points = [
        "Enable agile software delivery by piloting a replacement change request process.",
        "Tackle known policy obstacles that inhibit larger security goals in the process.",
        "Increase clarity on how to navigate the process by creating a knowledge base.",
    ]
    y = 270.0
    for point in points:
        items.append(Text(275, y, "-", 12))
        lines = wrap(point, 293, y, 380, size=12)
        items += lines
        y = lines[-1].y - 22
    result = parse_pages(tmp_path, [Page(items, **SLIDE)])
    assert tags_of(result) == []
    lines = [line.lstrip("# ") for row in result.rows for line in row.content.split("\n")]
    words = " ".join(lines).split()
    assert sorted(words) == sorted(" ".join(item.text for item in items).split())


def test_a_side_title_in_large_type_reads_whole_before_the_text_beside_it(
    tmp_path: Path,
) -> None:
    """The side title's few large lines are a column of their own (they cover as much of
    the slide's height as more lines of body type would): the title reads as one line of
    text, not word by word between the lines of the text box beside it."""
    title = ["Orient", "the program", "around the", "customer", "experience"]
    items: list = centred(title, 100, 260, 20)
    point = (
        "Enable agile software delivery by piloting a replacement change request process "
        "that does not block on advance approval, and tackle known policy obstacles that "
        "inhibit larger security goals in the authorization process of the cloud providers. "
    )
    items += wrap(point * 2, 293, 290, 380, size=12)
    result = parse_pages(tmp_path, [Page(items, **SLIDE)])
    lines = [line for row in result.rows for line in row.content.split("\n")]
    assert "Orient the program around the customer experience" in [
        line.lstrip("# ") for line in lines
    ]
    text = " ".join(" ".join(lines).split())
    assert " ".join(point.split()) in text
