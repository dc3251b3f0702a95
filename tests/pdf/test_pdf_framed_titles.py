"""Bookmarks naming a title inside a frame of one cell (a table of one cell: a box, a
sidebar), which heads nothing, as a heading style in a Word table's cell heads nothing; a
title in a box of its own and a page's border still head their sections."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import (
    BODY,
    BOLD,
    Bookmark,
    Page,
    Stroke,
    Text,
    boxes,
    parse_pages,
    printed_width,
    sections,
    tags_of,
    unruled_rows,
    wrap,
)


def test_a_bookmarked_title_opening_a_frame_of_one_cell_heads_nothing(tmp_path: Path) -> None:
    # "Box 2: Connection costs" opens a framed box over its own text, and the file
    # bookmarks it (a heading style in a one-cell table): the box's text is text of the
    # section it is printed in, which the bookmark before it names.
    items = [
        Text(72, 740, "1 Infrastructure", 16, BOLD),
        *wrap(BODY, 72, 715, 460),
        *boxes((66, 546), 660, 560),
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
    assert sections(result) == [("1 Infrastructure", 1), ("2 Security", 1)]
    assert "Box 2: Connection costs" in result.rows[0].content


def test_a_bookmarked_title_in_a_box_of_its_own_heads_its_section(tmp_path: Path) -> None:
    # The frame holds the title alone (a heading style with a border): a heading.
    items = [
        Text(72, 740, "1 Infrastructure", 16, BOLD),
        *wrap(BODY, 72, 715, 460),
        *boxes((66, 546), 662, 640),
        Text(72, 646, "2 Security", 16, BOLD),
        *wrap(BODY, 72, 620, 460),
    ]
    bookmarks = [Bookmark("1 Infrastructure", 1, 0, 756), Bookmark("2 Security", 1, 0, 662)]
    result = parse_pages(tmp_path, [Page(items)], bookmarks=bookmarks)
    assert sections(result) == [("1 Infrastructure", 1), ("2 Security", 1)]


def test_bookmarked_titles_inside_a_page_border_head_their_sections(tmp_path: Path) -> None:
    # A border around the whole page's text is no cell: its first line, a bookmarked
    # title, heads its section.
    items = [
        *boxes((50, 562), 770, 40),
        Text(72, 740, "1 Infrastructure", 16, BOLD),
        *wrap(BODY, 72, 715, 460),
        Text(72, 640, "2 Security", 16, BOLD),
        *wrap(BODY, 72, 615, 460),
    ]
    bookmarks = [Bookmark("1 Infrastructure", 1, 0, 756), Bookmark("2 Security", 1, 0, 656)]
    result = parse_pages(tmp_path, [Page(items)], bookmarks=bookmarks)
    assert sections(result) == [("1 Infrastructure", 1), ("2 Security", 1)]


def test_bookmarks_into_a_table_head_nothing_and_the_warning_says_so(tmp_path: Path) -> None:
    # A producer bookmarks a table's cells (a heading style in a cell): the table is one
    # tag, no heading cuts it, and the user is told the bookmarks name a table's cells,
    # not that they name no line; a bookmark pointing at nothing is still named so.
    rows = [["Risk name", "Severity"], ["Flooding", "High"], ["Power loss", "Medium"]]
    items = [Text(72, 760, "9 Risks", 16, BOLD), *wrap(BODY, 72, 740, 460)]
    for r in range(4):
        items.append(Stroke(72, 680 - 20 * r, 400, 680 - 20 * r))
    for x in (72, 200, 400):
        items.append(Stroke(x, 680, x, 620))
    for r, row in enumerate(rows):
        items += [Text(76, 666 - 20 * r, row[0], 10), Text(204, 666 - 20 * r, row[1], 10)]
    items += [*boxes((66, 546), 560, 460), Text(200, 545, "Box 2: Connection costs", 11, BOLD)]
    items += [*wrap(BODY, 72, 525, 460), Text(72, 400, "10 Controls", 16, BOLD)]
    items += wrap(BODY, 72, 380, 460)
    bookmarks = [
        Bookmark("9 Risks", 1, 0, 776),
        Bookmark("Flooding", 2, 0, 658),
        Bookmark("Power loss", 2, 0, 638),
        Bookmark("Box 2: Connection costs", 2, 0, 556),
        Bookmark("10 Controls", 1, 0, 416),
        Bookmark("11 Annexes", 1, 0, 200),
    ]
    result = parse_pages(tmp_path, [Page(items)], bookmarks=bookmarks)
    assert sections(result) == [("9 Risks", 1), ("10 Controls", 1)]
    assert tags_of(result) == [rows]
    assert "3 of 6 bookmarks name a line in a table's cell" in " ".join(result.warnings)
    assert "1 of 6 bookmarks name no line on their page" in result.warnings


def test_a_bookmarked_title_wrapped_in_a_box_of_its_own_heads_its_section(
    tmp_path: Path,
) -> None:
    # The frame holds the title alone, set over two lines at the text's size: its first
    # line is the title's, but the frame holds no line of its own; the bookmark heads its
    # section, as a bordered heading style does.
    title = "Security requirements of the refrigeration plant and its operators"
    items = [Text(72, 740, "Infrastructure", 11, BOLD), *wrap(BODY, 72, 720, 460)]
    items += boxes((66, 546), 662, 622)
    items += [Text(72, 648, title[:52], 11, BOLD), Text(72, 634, title[53:], 11, BOLD)]
    items += [*wrap(BODY, 72, 600, 460), Text(72, 540, "Training", 11, BOLD)]
    items += wrap(BODY, 72, 520, 460)
    bookmarks = [
        Bookmark("Infrastructure", 1, 0, 752),
        Bookmark(title, 1, 0, 660),
        Bookmark("Training", 1, 0, 552),
    ]
    result = parse_pages(tmp_path, [Page(items)], bookmarks=bookmarks)
    assert sections(result) == [("Infrastructure", 1), (title, 1), ("Training", 1)]
    assert not result.warnings


def test_bookmarked_titles_beside_margin_notes_are_in_no_table(tmp_path: Path) -> None:
    # A margin note's short lines in the outer margin align with the body's lines, one of
    # them on the row of a centred section title printed as its number and its words apart:
    # the note's rows and the titles' (number and words two cells) read as a text table
    # that took both bookmarked titles. A row printing a bookmarked title is a heading.
    notes = ["Margin notes are narrow,", "keep them short, set", "them in a small size."]
    items = [*wrap(BODY, 72, 740, 400), Text(72, 600, "The effect is shown in the margin.", 10)]
    items += [Text(494, 600 - 12 * k, note, 8) for k, note in enumerate(notes)]
    items += [Text(233, 575, "3.5", 14, BOLD), Text(268, 575, "Special environments", 14, BOLD)]
    items += [Text(72, 546, "3.5.1", 12, BOLD), Text(112, 546, "Lists", 12, BOLD)]
    items += wrap(BODY, 72, 520, 400)
    bookmarks = [
        Bookmark("3.5 Special environments", 1, 0, 592),
        Bookmark("3.5.1 Lists", 2, 0, 560),
    ]
    result = parse_pages(tmp_path, [Page(items)], bookmarks=bookmarks)
    assert sections(result) == [("3.5 Special environments", 1), ("3.5.1 Lists", 2)]
    assert tags_of(result) == []
    assert not result.warnings
    text = "\n".join(row.content for row in result.rows)
    assert all(note in text for note in notes)


def test_bookmarked_labels_at_the_texts_size_stay_a_tables_cells(tmp_path: Path) -> None:
    # A heading style in an unruled table's first column, which the file bookmarks too,
    # set at the text's size: the labels are the table's cells, the table stays whole.
    rows = [
        ["Identifier", "A unique name for the requirement, kept when it changes."],
        ["Directive", "What the product must do, in one sentence."],
        ["Rationale", "Why the market needs it, with its source."],
        ["Users", "Who is affected by the requirement."],
    ]
    items = [Text(72, 740, "5 Requirements", 16, BOLD), *wrap(BODY, 72, 715, 460)]
    items += unruled_rows(rows, (72, 200), 660, 24)
    bookmarks = [Bookmark("5 Requirements", 1, 0, 756)]
    bookmarks += [Bookmark(label, 2, 0, 670 - 24 * k) for k, (label, _) in enumerate(rows)]
    result = parse_pages(tmp_path, [Page(items)], bookmarks=bookmarks)
    assert sections(result) == [("5 Requirements", 1)]
    assert tags_of(result) == [rows]


def test_margin_notes_beside_a_justified_body_read_as_a_column_of_their_own(
    tmp_path: Path,
) -> None:
    # A body justified to one right edge and a note's short lines in the outer margin,
    # its first on the row of the body's short last line: the note is text of its own,
    # not glued to the body's line, and the body's lines still make one paragraph.
    line = "The operator keeps the plant under supervision and logs each reading"
    edge = 72 + printed_width(line, 10)
    items = [Text(72, 700 - 12 * k, line, 10) for k in range(5)]
    items.append(Text(72, 640, "and signs the log.", 10))
    notes = ["Notes are", "narrow: keep", "them short."]
    items += [Text(edge + 8, 640 - 10 * k, note, 8) for k, note in enumerate(notes)]
    result = parse_pages(tmp_path, [Page(items)])
    lines = result.rows[0].content.split("\n")
    assert lines[0].endswith("reading and signs the log.")
    assert lines[1:] == ["Notes are narrow: keep them short."]
