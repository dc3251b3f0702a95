"""Bookmarks naming a title inside a frame of one cell (a table of one cell: a box, a
sidebar), which heads nothing, as a heading style in a Word table's cell heads nothing; a
title in a box of its own and a page's border still head their sections."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.model import PREFACE_HEADING

from pdf_builders import BOLD, Bookmark, Page, Stroke, Text, parse_pages, wrap

BODY = (
    "The refrigeration plant is inspected every week by a competent person who records the "
    "result of every test in the plant log and signs the entry."
)


def _sections(result) -> list[tuple[str, int]]:
    return [(r.heading, r.level) for r in result.rows if r.heading != PREFACE_HEADING]


def _frame(left: float, bottom: float, right: float, top: float) -> list[Stroke]:
    """Four rules closing a rectangle: a frame of one cell."""
    return [
        Stroke(left, top, right, top),
        Stroke(left, bottom, right, bottom),
        Stroke(left, bottom, left, top),
        Stroke(right, bottom, right, top),
    ]


def test_a_bookmarked_title_opening_a_frame_of_one_cell_heads_nothing(tmp_path: Path) -> None:
    # "Box 2: Connection costs" opens a framed box over its own text, and the file
    # bookmarks it (a heading style in a one-cell table): the box's text is text of the
    # section it is printed in, which the bookmark before it names.
    items = [
        Text(72, 740, "1 Infrastructure", 16, BOLD),
        *wrap(BODY, 72, 715, 460),
        *_frame(66, 560, 546, 660),
        Text(200, 645, "Box 2: Connection costs", 11, BOLD),
        *wrap(BODY, 72, 625, 460),
        Text(72, 520, "2 Security", 16, BOLD),
        *wrap(BODY, 72, 495, 460),
    ]
    bookmarks = [
        Bookmark("1 Infrastructure", 1, 0, 756),
        Bookmark("Box 2: Connection costs", 2, 0, 656),
        Bookmark("2 Security", 1, 0, 536),
    ]
    result = parse_pages(tmp_path, [Page(items)], bookmarks=bookmarks)
    assert _sections(result) == [("1 Infrastructure", 1), ("2 Security", 1)]
    assert "Box 2: Connection costs" in result.rows[0].content


def test_a_bookmarked_title_in_a_box_of_its_own_heads_its_section(tmp_path: Path) -> None:
    # The frame holds the title alone (a heading style with a border): a heading.
    items = [
        Text(72, 740, "1 Infrastructure", 16, BOLD),
        *wrap(BODY, 72, 715, 460),
        *_frame(66, 640, 546, 662),
        Text(72, 646, "2 Security", 16, BOLD),
        *wrap(BODY, 72, 620, 460),
    ]
    bookmarks = [Bookmark("1 Infrastructure", 1, 0, 756), Bookmark("2 Security", 1, 0, 662)]
    result = parse_pages(tmp_path, [Page(items)], bookmarks=bookmarks)
    assert _sections(result) == [("1 Infrastructure", 1), ("2 Security", 1)]


def test_bookmarked_titles_inside_a_page_border_head_their_sections(tmp_path: Path) -> None:
    # A border around the whole page's text is no cell: its first line, a bookmarked
    # title, heads its section.
    items = [
        *_frame(50, 40, 562, 770),
        Text(72, 740, "1 Infrastructure", 16, BOLD),
        *wrap(BODY, 72, 715, 460),
        Text(72, 640, "2 Security", 16, BOLD),
        *wrap(BODY, 72, 615, 460),
    ]
    bookmarks = [Bookmark("1 Infrastructure", 1, 0, 756), Bookmark("2 Security", 1, 0, 656)]
    result = parse_pages(tmp_path, [Page(items)], bookmarks=bookmarks)
    assert _sections(result) == [("1 Infrastructure", 1), ("2 Security", 1)]
