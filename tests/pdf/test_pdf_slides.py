"""Slides exported to PDF: text boxes side by side read as text, not as a table."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.text_boxes import bulleted_boxes, shows_bullet

from pdf_builders import BOLD, Page, Text, parse_pages, tags_of, wrap

SLIDE = {"width": 720.0, "height": 405.0}


#: Widths of the titles' lines in Helvetica-Bold at 20 points (as PDFium boxes them).
WIDTHS = {
    "Orient": 57.5,
    "the program": 115.2,
    "around the": 102.2,
    "customer": 89.0,
    "experience": 103.5,
    "Position the": 112.4,
    "program as a": 123.8,
    "leader in": 79.6,
    "cybersecurity": 129.0,
    "and risk": 76.2,
    "management": 121.6,
}


def centred(lines: list[str], middle: float, top: float) -> list[Text]:
    """Bold 20-point lines centred on ``middle`` (widths: :data:`WIDTHS`), from the
    baseline ``top`` down at 28 points."""
    return [
        Text(middle - WIDTHS[line] / 2, top - 28 * i, line, 20, font=BOLD)
        for i, line in enumerate(lines)
    ]


def side_title_slide(tmp_path: Path, title: list[str], top: float, point: str) -> list[str]:
    """The lines (heading marks stripped) of a slide whose side title, ``title`` centred
    from ``top`` down, stands beside a text box of ``point`` twice over in body type."""
    items = centred(title, 100, top) + wrap(point * 2, 293, 290, 380, size=12)
    result = parse_pages(tmp_path, [Page(items, **SLIDE)])
    return [line.lstrip("# ") for row in result.rows for line in row.content.split("\n")]


def test_a_side_title_in_large_type_beside_a_text_box_is_no_table(tmp_path: Path) -> None:
    """A slide's title set large in a narrow box at the left, its lines wrapped, beside a
    box of bulleted text in body type: the two boxes' lines share baselines often enough
    to align as rows of two cells, but a column of titles in type far larger than the
    text beside it is no column of labels."""
    title = ["Orient", "the program", "around the", "customer", "experience"]
    items: list = centred(title, 100, 260)
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
    point = (
        "Enable agile software delivery by piloting a replacement change request process "
        "that does not block on advance approval, and tackle known policy obstacles that "
        "inhibit larger security goals in the authorization process of the cloud providers. "
    )
    lines = side_title_slide(tmp_path, title, 260, point)
    assert "Orient the program around the customer experience" in lines
    text = " ".join(" ".join(lines).split())
    assert " ".join(point.split()) in text


def test_a_side_title_wider_in_one_line_than_the_rest_reads_as_one_paragraph(
    tmp_path: Path,
) -> None:
    """A centred side title whose widest line sets its column's edges: that line is
    neither centred nor balanced in its column (no room either side), and the shorter
    centred line under it stands indented from it by more than a line's height. The
    lines of a block that opened centred and goes on centred are one title, not two."""
    title = ["Position the", "program as a", "leader in", "cybersecurity", "and risk", "management"]
    point = (
        "Bring more technical capacity and expertise into the program and its ecosystem, "
        "and define the core security expectations for all authorizations in support of a "
        "government-wide presumption of adequacy for the agencies and their partners. "
    )
    assert " ".join(title) in side_title_slide(tmp_path, title, 280, point)


def test_labels_set_large_on_their_values_baselines_stay_a_table(tmp_path: Path) -> None:
    """A table of two columns whose labels are set large and bold beside values in body
    type: each label stands on its value's baseline, row after row, where a side title's
    lines meet the text beside them at any height. It stays a table."""
    items = [Text(72, 700, "Key figures for the year", 11, font=BOLD)]
    rows = [
        ("Revenue", "Grew by twelve percent"),
        ("Costs", "Fell by four percent"),
        ("Staff", "Rose to two hundred"),
        ("Offices", "Opened in three cities"),
        ("Exports", "Doubled over the year"),
    ]
    for index, (label, value) in enumerate(rows):
        items.append(Text(72, 670 - 24 * index, label, 16, font=BOLD))
        items.append(Text(200, 670 - 24 * index, value, 10))
    result = parse_pages(tmp_path, [Page(items)])
    assert tags_of(result) == [[list(row) for row in rows]]


def test_side_headings_in_large_type_each_read_before_their_paragraph(tmp_path: Path) -> None:
    """Headings set large in the left margin, each on the first baseline of its short
    paragraph (a résumé's sections): a column of short large lines beside body type, but
    each heading belongs to the paragraph beside it, not to a side title read whole
    before the text."""
    text = (
        "The provider describes how the system is managed and which controls apply to "
        "each part of it, and the assessor checks each one."
    )
    headings = ["Education", "Experience", "Skills", "Interests"]
    items: list = []
    top = 700.0
    for number, heading in enumerate(headings):
        items.append(Text(72, top, heading, 16, font=BOLD))
        lines = wrap(f"Item {number}. {text}", 200, top, 340, size=10)
        items += lines
        top = lines[-1].y - 30
    result = parse_pages(tmp_path, [Page(items)])
    read = "\n".join(row.content for row in result.rows)
    order = [
        read.index(word) for number, h in enumerate(headings) for word in (h, f"Item {number}.")
    ]
    assert order == sorted(order)


def bulleted_box(x: float, title: str, points: list[str], top: float = 330) -> list[Text]:
    """A slide's box: ``title`` in bold over ``points``, each a bullet set alone at ``x``
    before its text, wrapped at 150 points from ``x + 18``."""
    items = [Text(x, top, title, 16, font=BOLD)]
    y = top - 40
    for point in points:
        items.append(Text(x, y, "\x95", 10))  # WinAnsi's bullet: "•"
        lines = wrap(point, x + 18, y, 150, size=12)
        items += lines
        y = lines[-1].y - 22
    return items


def three_box_slide(tmp_path: Path, boxes: dict[str, list[str]]):
    """The parse of one slide holding ``boxes`` (title: points) side by side, as
    :func:`bulleted_box` sets each, and its text with every run of white space one space."""
    items = [
        item
        for x, (title, points) in zip((50, 290, 530), boxes.items(), strict=True)
        for item in bulleted_box(x, title, points)
    ]
    result = parse_pages(tmp_path, [Page(items, **SLIDE)])
    return result, " ".join(" ".join(row.content.split()) for row in result.rows)


def test_boxes_of_wrapped_bullets_side_by_side_read_as_text_box_by_box(tmp_path: Path) -> None:
    """Three boxes of bulleted points side by side under their titles (a slide's columns):
    their wrapped lines are short and share baselines across the boxes, like a table's
    cells, but each box is a bulleted list whose items go on over lines at their text's
    indent. No table: each point reads whole, box by box."""
    boxes = {
        "Customers": [
            "Growth of a trusted marketplace of cloud services for agencies",
            "Engagement with a larger and more technical staff",
        ],
        "Security": [
            "Increased visibility into the posture of providers through monitoring",
            "More clear and consistent expectations with guidance",
        ],
        "Cost": [
            "Less manual work to create and share the packages",
            "Reduced time and cost to review and assess the packages",
            "Reduced effort to complete the continuous monitoring",
        ],
    }
    result, text = three_box_slide(tmp_path, boxes)
    assert tags_of(result) == []
    for points in boxes.values():
        for point in points:
            assert point in text


def test_a_box_of_few_points_beside_fuller_boxes_reads_as_a_column_of_its_own(
    tmp_path: Path,
) -> None:
    """Three boxes of bulleted points side by side, the third holding two short points
    beside two boxes of many: so little text covers the third box's strip of the slide,
    next to the others', that all of it looks like a gutter. The empty strip before it
    is the gutter: each point of the third box reads whole, not word by word between the
    second box's lines."""
    long_points = [
        "Can see how to deploy significant changes without blocking on approval",
        "Can use and contribute to a growing public knowledge base of guidance",
        "Can confidently build, validate and submit a digital package for review",
        "Are seeing the metrics of the program reflect their own experience",
        "Are led and engaged by a larger and more technical staff of the program",
    ]
    boxes = {
        "Providers": long_points,
        "Teams": [point.replace("Can", "May") for point in long_points],
        "Agencies": [
            "Have a centralized repository that holds all the packages",
            "Have the tools to review the digital packages",
        ],
    }
    _, text = three_box_slide(tmp_path, boxes)
    for points in boxes.values():
        for point in points:
            assert point in text


def test_a_side_title_a_step_above_the_text_read_as_one_sentence_is_no_table(
    tmp_path: Path,
) -> None:
    """A side title set bold a step above the text beside it (17 over 14 points, under a
    title's usual step), one sentence wrapped over its lines: each line after the first
    goes on with it in lower case. Its lines share baselines with the text box's often
    enough to pass for labels, but labels are items of their own. No table: the title
    reads whole."""
    title = ["The program applies", "a unified security", "standard for all", "cloud products"]
    items = [Text(36, 240 - 24.6 * i, line, 17, font=BOLD) for i, line in enumerate(title)]
    blocks = [
        ("Do Once, Use Many Times", "Providing a common security framework improves the "
         "posture and allows agencies and providers to reuse work and remove duplicate efforts"),
        ("A Brand Beyond the Federal Space", "The program is recognized government-wide, in "
         "higher education, and within state and local government as the leader in security"),
        ("Guidance And Support", "The program provides training, guidance and advisory support "
         "to cloud providers and agencies, helping them navigate the process"),
    ]  # fmt: skip
    y = 316.0
    for heading, text in blocks:
        items.append(Text(266, y, heading, 14, font=BOLD))
        lines = wrap(text, 266, y - 21, 400, size=14)
        items += lines
        y = lines[-1].y - 30
    result = parse_pages(tmp_path, [Page(items, **SLIDE)])
    assert tags_of(result) == []
    text = " ".join(" ".join(row.content.replace("#", "").split()) for row in result.rows)
    assert " ".join(title) in text


def test_a_table_whose_every_cell_is_a_bulleted_point_stays_a_table(tmp_path: Path) -> None:
    """Columns of bulleted points under their titles, each row's points opening on one
    baseline across the columns and wrapping alike: a table of rows ("Before", "After",
    "Benefit"), not boxes side by side; read as boxes, its columns' lines interleave."""
    rows = [
        ("Manual review of every package", "Automated review by tools", "Review time cut by half"),
        ("Paper forms sent by post", "Online forms for agencies", "No postage to pay"),
        ("Yearly assessment of providers", "Continuous monitoring", "Risks found sooner"),
    ]
    titles, edges = ("Before", "After", "Benefit"), (72, 240, 408)
    items = [Text(x, 700, title, 12, font=BOLD) for x, title in zip(edges, titles, strict=True)]
    y = 680.0
    for row in rows:
        low = y
        for x, point in zip(edges, row, strict=True):
            lines = wrap(point, x + 14, y, 80, size=10)
            items += [Text(x, y, "\x95", 10), *lines]
            low = min(low, lines[-1].y)
        y = low - 20
    tables = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert len(tables) == 1 and tables[0][0] == list(titles)
    assert [cell[:1] for cell in tables[0][1]] == ["•"] * 3


def _box_line(text: str, x0: float, top: float) -> Segment:
    return Segment(text, x0, top, x0 + 5.0 * len(text), top + 9, (0, 0, 0, 0), 0, 0, 0, 9.0)


def test_boxes_of_bulleted_text_need_a_bullet_to_open_an_item() -> None:
    """Two boxes of lines side by side, each item's lines at one left edge: boxes of
    bulleted text when a bullet, set alone or opening a line, opens each item; without
    one the same rows are no such boxes (the table finder asks only of runs showing a
    bullet, ``shows_bullet``)."""
    texts = [("• Review every package", "• Automated review"), ("by hand", "by tools")]
    bulleted = [
        [_box_line(left, 72, 100 + 12 * k), _box_line(right, 300, 100 + 12 * k)]
        for k, (left, right) in enumerate(texts)
    ]
    bulleted[1] = [replace(s, x0=s.x0 + 10, x1=s.x1 + 10) for s in bulleted[1]]
    plain = [[replace(s, text=s.text.removeprefix("• ")) for s in row] for row in bulleted]
    assert bulleted_boxes(bulleted)
    assert not bulleted_boxes(plain)
    assert [shows_bullet(s) for s in bulleted[0] + plain[0]] == [True, True, False, False]
    assert shows_bullet(_box_line("\u25aa", 72, 0)) and not shows_bullet(_box_line("o", 72, 0))
