"""Ruled tables in a PDF: cells, merged cells, a table continued on the next page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lightrag_pchunk.blockfile.sidecars import read_sidecar

from pdf_builders import (
    BODY,
    BOLD,
    CJK_OTHER,
    MONO,
    REGULAR,
    Page,
    Stroke,
    Text,
    parse_pages,
    tags_of,
    unruled_rows,
    wrap,
)


def grid(rows: list[list[str]], top: float, xs: list[float], height: float = 20.0, skip=()) -> list:
    """A ruled table: every border drawn but the vertical ones listed in ``skip`` as
    ``(row, x index)`` (a horizontally merged cell)."""
    items: list = []
    for r in range(len(rows) + 1):
        y = top - height * r
        items.append(Stroke(xs[0], y, xs[-1], y))
    for k, x in enumerate(xs):
        for r in range(len(rows)):
            if (r, k) in skip:
                continue
            items.append(Stroke(x, top - height * r, x, top - height * (r + 1)))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            if text:
                items.append(Text(xs[c] + 4, top - height * r - 14, text, 10))
    return items


def test_a_ruled_table_becomes_one_tag_with_every_cell(tmp_path: Path) -> None:
    rows = [["Gauge", "Limit", "Unit"], ["Suction", "2.5", "bar"], ["Discharge", "16", "bar"]]
    page = Page(
        [Text(72, 720, "Pressure limits of the plant:"), *grid(rows, 700, [72, 200, 300, 400])]
    )
    result = parse_pages(tmp_path, [page])
    assert tags_of(result) == [rows]
    record = next(iter(read_sidecar(result.blocks_path, "tables").values()))
    assert json.loads(record["table_header"]) == [rows[0]]
    assert "Pressure limits of the plant:" in result.content


def test_tables_opening_several_pages_are_kept(tmp_path: Path) -> None:
    """A new table at the top of each of four pages, text below it: no running header."""
    pages = []
    for n in range(4):
        rows = [["Item", "Count"], [f"Pump {n}", str(n + 3)], [f"Valve {n}", str(n + 7)]]
        items = grid(rows, 770, [72, 200, 300])
        items.append(Text(72, 600, f"Notes on the equipment of section {n + 1}."))
        pages.append(Page(items))
    assert tags_of(parse_pages(tmp_path, pages)) == [
        [["Item", "Count"], [f"Pump {n}", str(n + 3)], [f"Valve {n}", str(n + 7)]] for n in range(4)
    ]


def test_a_running_header_in_a_ruled_box_on_every_page_is_removed(tmp_path: Path) -> None:
    """A banner: the document's title in a ruled box (a logo's empty cell beside it) at the
    top of every page. It is page furniture, not a table, and not text of the pages."""
    words = ["ammonia", "brine", "freezer", "valve"]
    pages = []
    for word in words:
        items = grid([["", "Cold Store Safety Manual"]], 770, [72, 150, 540], height=30)
        items += wrap(f"Body text about the {word}. " * 8, 72, 690, 400)
        pages.append(Page(items))
    result = parse_pages(tmp_path, pages)
    assert "Cold Store Safety Manual" not in result.content
    assert all(f"Body text about the {word}." in result.content for word in words)


def test_a_ruled_box_alone_on_its_pages_is_their_text_kept_once(tmp_path: Path) -> None:
    """Pages of text under one banner, then plates (pictures) under another with no other
    text: the first banner goes; the second, matched across the plates by its text, not
    as one more ruled box, is their only text, kept once."""
    words = ["ammonia", "brine", "freezer", "valve"]
    pages = []
    for word in words:
        items = grid([["", "Cold Store Safety Manual"]], 770, [72, 150, 540], height=30)
        items += wrap(f"Body text about the {word}. " * 8, 72, 690, 400)
        pages.append(Page(items))
    for inset in (0, 10, 20):  # boxes of other widths: no table going on over the pages
        plate = [["", "Plates of the refrigeration plant"]]
        pages.append(Page(grid(plate, 770, [72, 150 + inset, 540 - inset], height=30), image=True))
    result = parse_pages(tmp_path, pages)
    assert "Cold Store Safety Manual" not in result.content
    assert result.content.count("Plates of the refrigeration plant") == 1


def test_a_table_just_before_a_heading_of_the_printed_contents_stays_a_table(
    tmp_path: Path,
) -> None:
    """A printed table of contents names the headings; each section's page opens with a
    table, its heading right below it: the heading is found, the table kept whole."""
    titles = [
        "1 Overview of the refrigeration plant",
        "2 Scope of the maintenance programme",
        "3 Terms used throughout this guide",
        "4 Roles of the plant operators",
    ]
    contents = [Text(72, 720, "Contents", 14, font=BOLD)]
    contents += [
        Text(72, 690 - 16 * n, f"{title} {'.' * 60} {n + 2}") for n, title in enumerate(titles)
    ]
    pages = [Page(contents)]
    for n, title in enumerate(titles):
        rows = [["Item", "Count"], [f"Pump {n}", str(n + 3)]]
        items = grid(rows, 770, [72, 200, 300])
        items.append(Text(72, 710, title, 14, font=BOLD))
        items += wrap(f"What {title[2:].lower()} covers in detail. " * 6, 72, 690, 400)
        pages.append(Page(items))
    result = parse_pages(tmp_path, pages)
    assert [row.heading for row in result.rows if row.heading in titles] == titles
    assert len(tags_of(result)) == 4
    assert "table-" not in result.content


def test_a_cell_line_ending_in_a_hyphen_keeps_it(tmp_path: Path) -> None:
    """A narrow cell breaks after a word's own hyphen (PDFium marks it as a hyphenation's):
    the cell's lines are joined with it."""
    rows = [["Property", "Type"], ["sectors", "list of type open-"], ["labels", "list of string"]]
    items = grid(rows, 700, [72, 200, 300], height=30)
    items.append(Text(204, 700 - 30 - 26, "vocab", 10))
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table[1] == ["sectors", "list of type open-vocab"]


def _bulleted(x: float, y: float, text: str) -> list[Text]:
    """A list item: Word's Symbol bullet (read as "•") and its text a tab stop right of it."""
    return [Text(x, y, "\uf0b7 ", 10, CJK_OTHER), Text(x + 10, y, text, 10)]


def test_a_cell_listing_bulleted_items_keeps_each_on_a_line_of_its_own(tmp_path: Path) -> None:
    """Each line opening on a bullet starts a line of the cell's text, as the Word parser
    writes a cell's paragraphs; the line wrapped inside an item stays in it."""
    rows = [["Control", "Procedures"], ["AC-3", "Assessment procedures:"], ["AC-4", "The goal"]]
    items = grid(rows, 700, [72, 200, 460], height=64)
    # A sentence wrapped before its dash goes on: a dash may open an item only in a list.
    items += [
        Text(204, 700 - 128 - 26, "\u2014 ", 10, CJK_OTHER),
        Text(218, 700 - 128 - 26, "what the actor hopes to achieve", 10),
    ]
    items += [
        *_bulleted(204, 700 - 64 - 26, "Examine: the access control policy and the"),
        Text(214, 700 - 64 - 38, "procedures addressing access enforcement", 10),
        *_bulleted(204, 700 - 64 - 50, "Test: the mechanisms implementing the policy"),
    ]
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table[1] == [
        "AC-3",
        "Assessment procedures:\n"
        "\u2022 Examine: the access control policy and the procedures addressing access"
        " enforcement\n"
        "\u2022 Test: the mechanisms implementing the policy",
    ]
    assert table[2] == ["AC-4", "The goal \u2014 what the actor hopes to achieve"]


def test_a_box_of_bulleted_instructions_reads_an_item_a_line(tmp_path: Path) -> None:
    # A box of one column is layout, written as lines: its title, its lead-in, an item each.
    items = grid([["Assessment of AC-3"], [""]], 700, [72, 460], height=70)
    items += [
        Text(76, 616, "Instructions: complete every section of this form.", 10),
        *_bulleted(76, 603, "Name the system owner and the system's"),
        Text(86, 590, "authorising official.", 10),
        *_bulleted(76, 577, "Attach the boundary diagram."),
    ]
    result = parse_pages(tmp_path, [Page([*items, *wrap(BODY, 72, 540, 400)])])
    assert tags_of(result) == []
    assert (
        "Assessment of AC-3\n"
        "Instructions: complete every section of this form.\n"
        "\u2022 Name the system owner and the system's authorising official.\n"
        "\u2022 Attach the boundary diagram.\n"
    ) in result.content


def test_a_cell_without_its_inner_border_is_one_merged_cell(tmp_path: Path) -> None:
    rows = [["Zone", "Temperature", ""], ["Freezer", "-25 to -18 C (whole room)", ""]]
    # Row 1's border at x index 2 is missing: its second cell spans two columns.
    items = grid(rows, 700, [72, 200, 330, 460], skip={(1, 2)})
    items.append(Text(336, 700 - 14, "Humidity", 10))
    result = parse_pages(tmp_path, [Page(items)])
    (table,) = tags_of(result)
    assert table[0] == ["Zone", "Temperature", "Humidity"]
    assert table[1] == ["Freezer", "-25 to -18 C (whole room)"]


def test_a_table_continued_on_the_next_page_is_one_table_without_its_header_twice(
    tmp_path: Path,
) -> None:
    header = ["Item", "Check", "Interval"]
    first = [header] + [[f"Valve {i}", "leak test", "weekly"] for i in range(1, 6)]
    second = [header] + [[f"Valve {i}", "leak test", "monthly"] for i in range(6, 9)]
    xs = [72, 220, 360, 500]
    pages = [
        Page([Text(72, 720, "Inspection schedule"), *grid(first, 140, xs)]),
        Page([*grid(second, 740, xs)]),
    ]
    result = parse_pages(tmp_path, pages)
    (table,) = tags_of(result)
    assert table[0] == header
    assert table.count(header) == 1
    assert [row[0] for row in table[1:]] == [f"Valve {i}" for i in range(1, 9)]
    record = next(iter(read_sidecar(result.blocks_path, "tables").values()))
    assert json.loads(record["table_header"]) == [header]
    # The tag's positions say which rows are on which page.
    row = next(r for r in result.rows if "<table" in r.content)
    tag_start = row.content.index("<table")
    on_tag = [p for p in row.positions if p["charspan"][0] >= tag_start]
    assert [p["anchor"] for p in on_tag] == ["1", "2"]
    page_two = next(p for p in row.positions if p["anchor"] == "2")
    assert row.content[page_two["charspan"][0] :].startswith('["Valve 6"')


def test_an_unruled_table_of_aligned_cells_is_a_table(tmp_path: Path) -> None:
    """A property table: a rule under the header only, cells aligned in columns, a long
    description wrapped over two lines of its cell."""
    rows = [
        ("name", "string", "The name of the source."),
        ("url", "string", "A link to the resource that"),
        ("", "", "holds the full description."),
        ("hashes", "dictionary", "Hashes of the content."),
        ("external_id", "string", "An identifier."),
    ]
    items: list = [Text(72, 720, "Property", 10), Text(200, 720, "Type", 10)]
    items += [Text(300, 720, "Description", 10), Stroke(72, 714, 540, 714)]
    for i, (name, kind, description) in enumerate(rows):
        y = 700 - 14 * i
        if name:
            items += [Text(72, y, name, 10), Text(200, y, kind, 10)]
        items.append(Text(300, y, description, 10))
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table[0] == ["Property", "Type", "Description"]
    assert table[2] == ["url", "string", "A link to the resource that holds the full description."]
    assert [row[0] for row in table[1:]] == ["name", "url", "hashes", "external_id"]


def test_an_unruled_table_whose_descriptions_wrap_over_many_lines_is_one_table(
    tmp_path: Path,
) -> None:
    """Most lines of the run are a description's wrapped lines, alone at the third
    column's edge: they are the table's cells, not text beside a few aligned rows."""
    description = [
        "A list of external references which",
        "refer to non-STIX information. This",
        "property MAY be used to provide one",
        "or more identifiers, such as a CAPEC",
        "ID, formatted as CAPEC-[id].",
    ]
    items: list = [Text(72, 720, "Property", 10), Text(200, 720, "Type", 10)]
    items += [Text(300, 720, "Description", 10), Stroke(72, 714, 540, 714)]
    items += [Text(72, 700, "type", 10), Text(200, 700, "string", 10)]
    items.append(Text(300, 700, "The value of this property.", 10))
    items += [Text(72, 680, "references", 10), Text(200, 680, "list", 10)]
    items += [Text(300, 680 - 12 * i, line, 10) for i, line in enumerate(description)]
    items += [Text(72, 610, "aliases", 10), Text(200, 610, "list", 10)]
    items += [Text(300, 610, "Alternative names used", 10), Text(300, 598, "for it.", 10)]
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table[0] == ["Property", "Type", "Description"]
    assert table[2] == ["references", "list", " ".join(description)]
    assert table[3] == ["aliases", "list", "Alternative names used for it."]


def test_an_unruled_table_whose_cells_wrap_in_several_columns_keeps_its_rows(
    tmp_path: Path,
) -> None:
    """Narrow columns: a row's cells wrap over lines in several columns at once, each next
    line starting at its cell's left edge; rows stand further apart than lines."""
    cells = [
        (["Domain", "Objects (SDO)"], ["Core", "object"], ["Required"]),
        (["Relationship", "Objects"], ["Meta", "object"], ["Optional"]),
        (["Bundle"], ["Wrapper"], ["None"]),
    ]
    items: list = [Text(72, 720, "Object", 10), Text(150, 720, "Kind", 10)]
    items.append(Text(220, 720, "Status", 10))
    y = 700.0
    for row in cells:
        for x, lines in zip((72, 150, 220), row, strict=True):
            items += [Text(x, y - 12 * k, line, 10) for k, line in enumerate(lines)]
        y -= 12 * max(len(lines) for lines in row) + 10
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table == [
        ["Object", "Kind", "Status"],
        ["Domain Objects (SDO)", "Core object", "Required"],
        ["Relationship Objects", "Meta object", "Optional"],
        ["Bundle", "Wrapper", "None"],
    ]


def test_an_unruled_table_of_short_cells_at_one_spacing_keeps_a_row_a_line(
    tmp_path: Path,
) -> None:
    """Lines at one spacing, the first column's short labels: each line is a row, even
    where a label would not fit after the one above it."""
    rows = [("Total", "1 234", "12"), ("Net", "567", "8"), ("Taxes", "89", "3"), ("Fees", "4", "1")]
    items = unruled_rows(rows, (72, 150, 220), 700, 12)
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table == [list(row) for row in rows]


#: The columns of a label, a word and a value, rows 16 points apart.
LABEL_WORD_VALUE = ((72, 120, 260), 16)


@pytest.mark.parametrize(
    ("rows", "layout"),
    [
        # Observations numbered 1, 2, 3 in the first column beside four columns of values:
        # a table, though its first cells read as numbering labels.
        (
            [[str(n), str(3 * n % 7), str(n % 2), "1", str(n % 3)] for n in range(1, 7)],
            ((72, 120, 180, 240, 300), 20),
        ),
        # Grades lettered "A.", "B." beside a word and a range of marks in two more columns:
        # three aligned cells repeated over rows are a table's rows, not list items (an item
        # is its label, its text and at most a page number).
        (
            [
                ["A.", "Excellent", "90-100"],
                ["B.", "Good", "75-89"],
                ["C.", "Satisfactory", "60-74"],
                ["D.", "Poor", "0-59"],
            ],
            LABEL_WORD_VALUE,
        ),
        # A last column of words made of the letters roman numerals use ("Mild", "Civil") is
        # no column of page numbers: every row is the table's, the first too.
        (
            [
                ["1.", "Cough", "Mild"],
                ["2.", "Fever", "Mild"],
                ["3.", "Rash", "Mild"],
                ["4.", "Pain", "Severe"],
            ],
            LABEL_WORD_VALUE,
        ),
        # A rubric's points counting down the rows, and a checklist's mark on every row:
        # no column of page numbers, which never go down a contents nor stand still in it.
        (
            [
                ["A.", "Excellent", "4"],
                ["B.", "Good", "3"],
                ["C.", "Fair", "2"],
                ["D.", "Poor", "1"],
            ],
            LABEL_WORD_VALUE,
        ),
        (
            [["1.", "Extinguisher", "X"], ["2.", "Exit signs", "X"], ["3.", "Alarm", "X"]],
            LABEL_WORD_VALUE,
        ),
        # A column of units whose letters make roman numerals past a page's ("cm" 900, "mm"
        # 2000): no page numbers, which a contents' front matter prints low.
        (
            [["1.", "Height", "cm"], ["2.", "Width", "cm"], ["3.", "Gap", "mm"]],
            LABEL_WORD_VALUE,
        ),
    ],
    ids=["numbered", "graded", "roman letters", "points", "checklist", "units"],
)
def test_an_unruled_table_numbered_or_lettered_in_its_first_column_is_one_table(
    tmp_path: Path, rows: list[list[str]], layout: tuple[tuple[float, ...], float]
) -> None:
    """Unruled rows whose first cells read as numbering labels, no rules (``layout``: the
    columns' left edges and the spacing of the rows)."""
    xs, step = layout
    (table,) = tags_of(parse_pages(tmp_path, [Page(unruled_rows(rows, xs, 700, step))]))
    assert table == rows


@pytest.mark.parametrize(
    "entries",
    [
        [("A.", "Scope of the rules", "3"), ("B.", "Terms", "7"), ("C.", "Inspections", "12")],
        # Three sections printed on one page: a contents' page numbers stand still there.
        [("1.", "Keynames", "34"), ("2.", "Grammar", "34"), ("3.", "Example", "34")],
    ],
    ids=["rising", "one page"],
)
def test_a_lettered_list_with_page_numbers_is_no_table(
    tmp_path: Path, entries: list[tuple[str, str, str]]
) -> None:
    """A contents page's lettered entries, a title and a page number each: a list."""
    items = unruled_rows(entries, (72, 100, 500), 700, 16)
    assert tags_of(parse_pages(tmp_path, [Page(items)])) == []


def test_a_numbered_list_beside_its_text_is_no_table(tmp_path: Path) -> None:
    items = []
    for i in range(5):
        items += [
            Text(72, 700 - 14 * i, f"{i + 1}.", 10),
            Text(100, 700 - 14 * i, "Keep the gauge log.", 10),
        ]
    assert tags_of(parse_pages(tmp_path, [Page(items)])) == []


def test_two_columns_of_prose_with_short_lines_and_gaps_are_no_table(tmp_path: Path) -> None:
    """A paper's two columns on shared baselines: the left one's lines are short at the
    ends of paragraphs or cut by wide gaps (a keywords line), the right one's full."""
    right = "compiled code runs faster when the trace monitor records the hot loops of"
    left = [
        ["programs."],
        ["Categories and Descriptors", "D.3.4 [Programming]"],
        ["guages]: Processors, incremental compilers, code"],
        ["General Terms", "Design, Experimentation, Measurement"],
        ["Keywords", "tracing, type specialization"],
    ]
    items = []
    for i, pieces in enumerate(left):
        y = 700 - 12 * i
        items.append(Text(54, y, pieces[0], 9))
        if len(pieces) > 1:
            items.append(Text(54 + 5 * len(pieces[0]) + 12, y, pieces[1], 9))
        items.append(Text(317, y, right[: 50 + i], 9))
    assert tags_of(parse_pages(tmp_path, [Page(items)])) == []


def test_two_columns_of_prose_are_no_table(tmp_path: Path) -> None:
    text = "The operators keep the refrigeration plant under continuous supervision"
    items = []
    for i in range(8):
        items += [
            Text(60, 700 - 13 * i, f"{text} {i}"[:48], 9),
            Text(320, 700 - 13 * i, f"{text} {i}"[:48], 9),
        ]
    assert tags_of(parse_pages(tmp_path, [Page(items)])) == []


def test_titles_over_tables_holding_the_text_are_headings(tmp_path: Path) -> None:
    """A document that keeps its text in table cells (10 pt) under titles set larger (14 pt,
    not bold): the cells' text is the text whose size the titles are measured against, as
    in a Word table, so the titles head sections (the titles' own size is no body size)."""
    rows = [
        ["Inspection", "Every week, by a competent person"],
        ["Records", "Each test is written in the plant log"],
        ["Signature", "The inspector signs every entry made"],
    ]
    items: list = []
    titles = ["Refrigeration plant", "Loading docks", "Emergency exits"]
    for number, title in enumerate(titles):
        top = 720 - 200 * number
        items.append(Text(72, top, title, 14))
        items += grid(rows, top - 20, [72, 200, 500])
    result = parse_pages(tmp_path, [Page(items)])
    assert [row.heading for row in result.rows] == titles
    assert all('<table id="' in row.content for row in result.rows)


def test_a_text_column_beside_a_list_in_the_next_column_is_no_table(tmp_path: Path) -> None:
    """A two-column page: the left column's prose runs on baselines shared with a list of
    numbered sections under a part's title in the right column. Lines aligned across the
    gutter are the page's two columns, not a table: the left column reads whole, first,
    and the part's title heads the list, with no left-column text in any table."""
    prose = (
        "The operator keeps the refrigeration plant under continuous supervision and writes "
        "every reading of the gauges into the plant log before the end of each shift, so that "
        "the next operator finds the state of the compressors, the condensers and the brine "
        "pumps recorded in one place. "
    ) * 3
    left = wrap(prose, 60, 700, 230, size=9)
    items: list = [*left]
    items += wrap(
        "read in the morning and again at night by the engineer on duty at the plant, who "
        "signs each page of the log and hands it to the next shift in the control room.",
        320,
        743.2,
        230,
        size=9,
    )
    items.append(Text(320, 660, "PART 12 PLANT SAFETY", 11, font=BOLD))
    entries = [
        "Scope of this part.",
        "Definitions.",
        "Inspection of the plant.",
        "Records of the inspections.",
        "Gauge readings by shift.",
        "Alarms and their trips.",
        "Handover between shifts.",
        "Emergency stops of pumps.",
    ]
    for i, entry in enumerate(entries):
        y = 700 - 10.8 * (7 + i)
        items += [Text(320, y, f"12.{i + 1:02d}", 9), Text(356, y, entry, 9)]
    result = parse_pages(tmp_path, [Page(items)])
    cells = " ".join(cell for table in tags_of(result) for row in table for cell in row)
    assert not any(line.text in cells for line in left)
    text = result.content.replace("\n", " ")
    assert " ".join(line.text for line in left) in text
    assert text.index(left[-1].text) < text.index("PART 12 PLANT SAFETY")
    part = next(row for row in result.rows if row.heading == "PART 12 PLANT SAFETY")
    assert all(entry in part.content for entry in entries)


def test_a_code_listing_with_line_numbers_is_no_table(tmp_path: Path) -> None:
    """A documented program's listing: each line's number, then its code at its indent;
    lines holding a brace alone (no letters) are a listing's lines as much as the others:
    the numbered lines are text, not the rows of a table."""
    code = [
        (0, "\\cs_new:Npn \\__gauge_check:n #1"),
        (1, "{"),
        (2, "\\int_compare:nNnTF {#1} > \\c__gauge_limit_int"),
        (3, "{ \\__gauge_alarm:n {#1} }"),
        (3, "{ \\__gauge_log:n {#1} }"),
        (2, "#1 #2"),
        (1, "}"),
        (0, "\\cs_new:Npn \\__gauge_reset:"),
        (1, "{"),
        (2, "\\int_zero:N \\l__gauge_count_int"),
        (1, "}"),
    ]
    items = []
    for i, (indent, line) in enumerate(code):
        items += [
            Text(60, 700 - 11 * i, str(1496 + i), 7),
            Text(90 + 12 * indent, 700 - 11 * i, line, 9),
        ]
    result = parse_pages(tmp_path, [Page(items)])
    assert tags_of(result) == []
    text = "\n".join(row.content for row in result.rows)
    assert "\\int_zero:N \\l__gauge_count_int" in text


def test_a_page_ruled_to_its_edges_as_graph_paper_is_no_table(tmp_path: Path) -> None:
    """A copybook's page: squares ruled over the whole sheet, edge to edge, and prose on
    them. The ruling is the paper's, not a table's: the lines stay text, none of them cut
    into cells at the rules it crosses."""
    items: list = []
    for x in range(0, 613, 18):
        items.append(Stroke(x, 0, x, 792))
    for y in range(0, 793, 18):
        items.append(Stroke(0, y, 612, y))
    prose = (
        "The grid is drawn by the package under every page of the copybook, so that each "
        "character the pupil writes stands in its own square of the sheet. "
    )
    items += wrap(prose * 4, 72, 700, 450, size=11)
    result = parse_pages(tmp_path, [Page(items)])
    assert tags_of(result) == []
    text = " ".join(row.content for row in result.rows)
    assert " | " not in text
    assert "stands in its own square of the sheet" in text


@pytest.mark.parametrize(
    ("font", "a_table"),
    [
        # Years one after the other beside what each brought: a timeline, a table whose
        # first column is the year, as a timeline with gaps between its years is.
        (REGULAR, True),
        # The same lines numbered one by one in a fixed-pitch font: a listing's lines
        # (a program's output), text, though none holds a code's mark.
        (MONO, False),
    ],
    ids=["timeline", "fixed-pitch listing"],
)
def test_lines_numbered_one_by_one_are_a_listing_only_in_a_listing_s_print(
    tmp_path: Path, font: str, a_table: bool
) -> None:
    events = [
        "Founded in Lyon by two engineers",
        "Opened the first store",
        "Reached a hundred employees",
        "Expanded to Spain and Italy",
        "Listed on the stock exchange",
    ]
    items = [Text(72, 740, "Our history", 14, BOLD), *wrap(BODY, 72, 716, 400)]
    for i, event in enumerate(events):
        y = 640 - 16 * i
        items += [Text(72, y, str(2019 + i), font=font), Text(130, y, event, font=font)]
    tables = tags_of(parse_pages(tmp_path, [Page(items)]))
    rows = [[str(2019 + i), event] for i, event in enumerate(events)]
    assert tables == ([rows] if a_table else [])


def test_a_form_ruled_to_the_page_s_edges_is_read_as_the_same_form_inside_margins(
    tmp_path: Path,
) -> None:
    """A form ruled edge to edge, most of its cells left blank: its rows and columns are as
    wide as what they hold, no paper's ruling at one pitch (graph paper's squares), so it
    reads as the same form ruled inside the page's margins does, label beside value."""

    def form(xs: list[float], ys: list[float]) -> list[str]:
        labels = ["Name", "Address", "Phone", "Employer", "Comments", "Signature"]
        items: list = [Stroke(x, ys[-1], x, ys[0]) for x in xs]
        items += [Stroke(xs[0], y, xs[-1], y) for y in ys]
        items += [Text(xs[0] + 6, y - 16, label) for label, y in zip(labels, ys, strict=False)]
        items += [Text(xs[1] + 6, ys[0] - 16, "Jane Doe"), Text(xs[1] + 6, ys[1] - 16, "Leith")]
        folder = tmp_path / str(xs[0])
        folder.mkdir()
        return [row.content for row in parse_pages(folder, [Page(items)]).rows]

    edge_to_edge = form([18, 160, 480, 594], [774, 700, 640, 600, 560, 380, 18])
    assert edge_to_edge == form([72, 160, 480, 540], [720, 646, 586, 546, 506, 326, 72])
    assert "Name | Jane Doe" in edge_to_edge[0]


def test_a_title_printed_again_over_a_continued_table_heads_it_once(tmp_path: Path) -> None:
    # A directory's pages each print the table's title over its next rows (and its header
    # row again): one section, one table, the title not left behind as empty sections.
    title = "FOREIGN TRAVEL AND SHIPBOARD SERVICES"
    header = ["If you live in", "Mail your claim to"]
    xs = [72, 220, 500]
    states = [f"State {i}" for i in range(1, 16)]
    rows = [[state, f"Contractor {i}, P.O. Box {100 + i}"] for i, state in enumerate(states)]
    intro = wrap(
        "Claims for services abroad are sent to the contractor of your state.", 72, 720, 440
    )
    pages = [
        Page([*intro, Text(72, 300, title, 12, font=BOLD), *grid([header, *rows[:5]], 280, xs)]),
        Page([Text(72, 745, title, 12, font=BOLD), *grid([header, *rows[5:10]], 725, xs)]),
        Page([Text(72, 745, title, 12, font=BOLD), *grid([header, *rows[10:]], 725, xs)]),
    ]
    result = parse_pages(tmp_path, pages)
    (table,) = tags_of(result)
    assert [row[0] for row in table[1:]] == states
    assert [r.heading for r in result.rows].count(title) == 1
    assert sum(r.content.count(title) for r in result.rows) == 1


def test_rows_of_figures_at_the_line_spacing_under_a_full_first_cell_stay_rows(
    tmp_path: Path,
) -> None:
    # A paper's results table in groups set apart: the last group's rows stand at the
    # line spacing and its labels fill their column, as a wrapped cell's lines would; but
    # a line of figures under a line of figures is a row of its own (figures never wrap).
    xs = (72, 160, 230, 290)
    groups = [
        [("Random", "7", "47.0", "64.3"), ("BM25", "7", "50.0", "63.3")],
        [("Gold", "31", "52.1", "70.8"), ("Gold", "127", "55.8", "73.0")],
        [("G.+BM25 (1)", "31+32", "65.0", "77.3"), ("G.+BM25 (2)", "31+64", "64.5", "76.4"),
         ("G.+BM25 (1)", "127+128", "65.8", "78.0")],
    ]  # fmt: skip
    items: list = [*unruled_rows([("Type", "#N", "Top-5", "Top-20")], xs, 720, 0)]
    top = 700
    for group in groups:
        items += unruled_rows(group, xs, top, 11)
        top -= 11 * len(group) + 16
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert [row[0] for row in table[1:]] == [row[0] for group in groups for row in group]
    assert table[-1] == ["G.+BM25 (1)", "127+128", "65.8", "78.0"]


def test_a_group_label_set_between_two_rows_of_its_group_stays_in_the_table(
    tmp_path: Path,
) -> None:
    # A paper's results table labels each group of rows once, in its first column, set
    # halfway between the group's two rows (a multi-row cell): the table goes on past it.
    xs = (72, 150, 260, 330)
    items: list = [*unruled_rows([("Training", "Model", "NQ", "WQ")], xs, 720, 0)]
    items += unruled_rows([("Single", "BM25", "32.6", "29.9")], xs, 700, 0)
    items += unruled_rows([("DPR", "41.5", "34.6")], xs[1:], 687, 0)
    items += unruled_rows([("BM25+DPR", "39.0", "35.2")], xs[1:], 674, 0)
    items += unruled_rows([("DPR", "41.5", "42.4"), ("BM25+DPR", "38.8", "41.1")], xs[1:], 661, 13)
    items.append(Text(72, 654.5, "Multi", 10))
    items += wrap("Table 4: End-to-end QA accuracy of each retriever.", 72, 620, 400)
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert [row[1] for row in table[1:]] == ["BM25", "DPR", "BM25+DPR", "DPR", "BM25+DPR"]
    assert table[-1][1:] == ["BM25+DPR", "38.8", "41.1"]
    assert [row[0] for row in table].count("Multi") == 1


def test_a_table_in_one_column_of_a_two_column_page_is_found_there(tmp_path: Path) -> None:
    # A paper's table set in its left column, the right column's prose at its own line
    # spacing beside it and both columns' prose below: rows read across the page run on
    # into the prose, so no table shows there; the left column read alone holds it.
    xs = (60, 140, 200)
    rows = [("Model", "dev", "test"), ("TAPAS base", "23.6", "24.1")]
    rows += [("TAPAS large", "40.8", "41.7"), ("Former base", "34.4", "34.8")]
    rows += [("Former large", "42.5", "43.9"), ("Herzig", "48.8", "50.1")]
    items: list = [*unruled_rows(rows, xs, 720, 10)]
    sentence = "the right column's prose goes on beside it"
    items += [Text(310, 722 - 12 * i, sentence, 9) for i in range(40)]
    below = "the left column's prose goes on under it"
    items += [Text(60, 640 - 12 * i, below, 9) for i in range(33)]
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table == [list(row) for row in rows]
