"""Rows of PDF tables that no rule parts: a ruled table's sub-rows, and an unruled table of
labels beside descriptions wrapped over many lines."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BOLD, Page, Stroke, Text, parse_pages, tags_of

XS = [72, 120, 260, 340]


def estimate(sub_row_text: list[tuple[int, float, str]]) -> list:
    """A cost estimate's table: a header row, then an item of two rows (its line and its
    sub-row) whose border is drawn in the last column only, then a second item. Row
    borders at y 700, 680, 640 (the sub-row's border at 660, last column only), 620.
    ``sub_row_text``: (column, baseline, text) printed in the item's rows."""
    items: list = [Stroke(XS[0], y, XS[-1], y) for y in (700, 680, 640, 620)]
    items.append(Stroke(XS[2], 660, XS[3], 660))
    items += [Stroke(x, 700, x, 620) for x in XS]
    for column, text in enumerate(("No.", "Code", "Total")):
        items.append(Text(XS[column] + 4, 686, text, 10))
    items += [Text(XS[column] + 4, y, text, 10) for column, y, text in sub_row_text]
    items += [Text(XS[0] + 4, 626, "2", 10), Text(XS[1] + 4, 626, "Cable tray", 10)]
    items.append(Text(XS[2] + 4, 626, "8", 10))
    return items


def test_a_sub_row_without_its_rule_in_some_columns_is_a_row(tmp_path: Path) -> None:
    """The sub-row's border is drawn in the last column only; in the others its text
    stands apart, on the baseline of the last column's sub-row: two rows."""
    item = [(0, 666, "1"), (1, 666, "Wall sleeve"), (2, 666, "12")]
    item += [(1, 646, "(0) per unit"), (2, 646, "1 pc.")]
    (table,) = tags_of(parse_pages(tmp_path, [Page(estimate(item))]))
    assert table == [
        ["No.", "Code", "Total"],
        ["1", "Wall sleeve", "12"],
        ["1", "(0) per unit", "1 pc."],
        ["2", "Cable tray", "8"],
    ]


def test_a_merged_cell_whose_lines_run_past_the_border_stays_one_cell(tmp_path: Path) -> None:
    """A cell's text wrapped over lines that do not start on the baseline of the row
    below: one cell over both rows, its text whole."""
    item = [(0, 666, "1"), (2, 666, "12"), (2, 646, "1 pc.")]
    item += [(1, 668, "Wall sleeve"), (1, 656, "with seal"), (1, 644, "and collar")]
    (table,) = tags_of(parse_pages(tmp_path, [Page(estimate(item))]))
    assert table[1] == ["1", "Wall sleeve with seal and collar", "12"]
    assert table[2] == ["1", "Wall sleeve with seal and collar", "1 pc."]


DEFINITIONS = [
    (
        "accidental",
        [
            "A non-hostile actor whose benevolent or",
            "harmless intent inadvertently causes",
            "harm.",
        ],
    ),
    (
        "competitor",
        ["An organization that competes in the same", "economic marketplace, seeking an", "edge."],
    ),
    (
        "insider",
        [
            "A current or former insider with",
            "access to the systems of the",
            "target, acting",
            "alone.",
        ],
    ),
    ("spy", ["A secret agent gathering information", "for a foreign power."]),
]


def definitions(label_x: float, text_x: float, labels: list[str]) -> list:
    """Labels at ``label_x`` beside descriptions at ``text_x`` wrapped over lines, a rule
    under the header row."""
    items: list = [Text(label_x, 720, "Value", 10, font=BOLD)]
    items += [Text(text_x, 720, "Description", 10, font=BOLD), Stroke(72, 714, 540, 714)]
    y = 700.0
    for label, (_, lines) in zip(labels, DEFINITIONS, strict=True):
        items.append(Text(label_x, y, label, 10))
        items += [Text(text_x, y - 12 * k, line, 10) for k, line in enumerate(lines)]
        y -= 12 * len(lines) + 8
    return items


def test_labels_beside_descriptions_wrapped_over_many_lines_are_a_table(tmp_path: Path) -> None:
    """Most lines of the run are descriptions' wrapped lines, alone at the second column's
    edge: a table of two columns, each description one cell."""
    labels = [label for label, _ in DEFINITIONS]
    (table,) = tags_of(parse_pages(tmp_path, [Page(definitions(72, 240, labels))]))
    assert table == [["Value", "Description"]] + [
        [label, " ".join(lines)] for label, lines in DEFINITIONS
    ]


def test_a_reference_list_with_wrapped_entries_is_no_table(tmp_path: Path) -> None:
    labels = [f"[{n}]" for n in range(1, len(DEFINITIONS) + 1)]
    result = parse_pages(tmp_path, [Page(definitions(72, 100, labels)[3:])])
    assert tags_of(result) == []


def test_a_contents_column_beside_a_cover_is_no_table(tmp_path: Path) -> None:
    """A cover's short lines beside a table of contents whose entries wrap: no table."""
    cover = ["Department of Works", "Publication 15", "Cat. No. 1000", "For use in 2013"]
    entries = [
        ["What's New . . . . . . . . . . . . 1"],
        ["1. Identification Number and", "the Register . . . . . . . . . . 10"],
        ["2. Who Are Employees? . . . . . . 11"],
        ["3. Special Rules for Various", "Types of Services . . . . . . . 37"],
    ]
    items: list = []
    y = 700.0
    for label, lines in zip(cover, entries, strict=True):
        items.append(Text(72, y, label, 10))
        items += [Text(300, y - 12 * k, line, 10) for k, line in enumerate(lines)]
        y -= 12 * len(lines) + 6
    assert tags_of(parse_pages(tmp_path, [Page(items)])) == []


def banded(lines: list[tuple[int, float, str]]) -> list:
    """A ruled table of a header row (y 700-680) and one tall row (680-620) with the given
    (column, baseline, text) lines in it."""
    items: list = [Stroke(XS[0], y, XS[-1], y) for y in (700, 680, 620)]
    items += [Stroke(x, 700, x, 620) for x in XS]
    for column, text in enumerate(("Code", "Item", "Quantity")):
        items.append(Text(XS[column] + 4, 686, text, 10))
    items += [Text(XS[column] + 4, y, text, 10) for column, y, text in lines]
    return items


def test_a_ruled_row_printed_in_two_bands_is_two_rows(tmp_path: Path) -> None:
    """No rule parts the row, but its text stands in two bands far apart (further than
    the item's own lines follow), the lower one on one baseline in two columns (an item,
    then its formula and unit): two rows."""
    lines = [(0, 666, "101-3661"), (1, 666, "Mounting foam for"), (2, 666, "22")]
    lines += [(1, 654, "cable passages"), (1, 630, "V=19+3"), (2, 630, "pcs.")]
    (table,) = tags_of(parse_pages(tmp_path, [Page(banded(lines))]))
    assert table == [
        ["Code", "Item", "Quantity"],
        ["101-3661", "Mounting foam for cable passages", "22"],
        ["101-3661", "V=19+3", "pcs."],
    ]


def test_a_unit_set_apart_at_a_cells_foot_is_a_sub_row(tmp_path: Path) -> None:
    """One cell's last line stands an empty line below its first, alone below that strip
    (a quantity, then its unit printed at the foot of the row): two rows, the other
    cells over both."""
    lines = [(0, 666, "101-3661"), (1, 666, "Mounting foam"), (2, 666, "22"), (2, 630, "pcs.")]
    lines += [(1, 654, "for cable passages")]
    (table,) = tags_of(parse_pages(tmp_path, [Page(banded(lines))]))
    assert table[1:] == [
        ["101-3661", "Mounting foam for cable passages", "22"],
        ["101-3661", "Mounting foam for cable passages", "pcs."],
    ]


def test_a_paragraph_set_apart_under_a_cells_text_stays_in_its_cell(tmp_path: Path) -> None:
    """A cell's second paragraph an empty line below its first, which wraps over two
    lines: one cell of two paragraphs, not a sub-row."""
    lines = [(0, 666, "\\a"), (1, 666, "Includes captioned"), (1, 654, "items only")]
    lines += [(1, 630, "See also \\c"), (2, 666, "no")]
    (table,) = tags_of(parse_pages(tmp_path, [Page(banded(lines))]))
    assert table[1:] == [["\\a", "Includes captioned items only See also \\c", "no"]]


def test_a_unit_on_the_line_under_its_quantity_stays_in_its_cell(tmp_path: Path) -> None:
    lines = [(0, 666, "101-3661"), (1, 666, "Mounting foam"), (2, 666, "22"), (2, 654, "pcs.")]
    lines += [(1, 654, "for cable passages")]
    (table,) = tags_of(parse_pages(tmp_path, [Page(banded(lines))]))
    assert table[1:] == [["101-3661", "Mounting foam for cable passages", "22 pcs."]]


def test_a_header_set_at_wide_line_spacing_stays_one_row(tmp_path: Path) -> None:
    """Titles wrapped in several cells at one wide leading (CJK set at one and a half
    lines), nothing closer anywhere in the table: the lines follow at the table's own
    leading, one row."""
    lines = [(0, 666, "Start date"), (1, 666, "School"), (2, 666, "Degree")]
    lines += [(0, 636, "(year, month)"), (2, 636, "certificate")]
    (table,) = tags_of(parse_pages(tmp_path, [Page(banded(lines))]))
    assert table[1] == ["Start date (year, month)", "School", "Degree certificate"]


def test_cells_wrapped_at_their_leading_in_a_ruled_row_stay_one_row(tmp_path: Path) -> None:
    lines = [(0, 666, "101-3661"), (1, 666, "Mounting foam for"), (2, 666, "22 pieces")]
    lines += [(1, 654, "the cable passages"), (2, 654, "in boxes")]
    (table,) = tags_of(parse_pages(tmp_path, [Page(banded(lines))]))
    assert table[1] == ["101-3661", "Mounting foam for the cable passages", "22 pieces in boxes"]


#: Helvetica's glyph widths (thousandths of the size) of the text the next test sets.
HELVETICA = {"T": 611, "i": 222, "m": 833, "e": 556, "S": 667, "t": 278, "a": 556, "n": 556,
             "d": 556, "r": 333, "E": 667, "o": 556, "N": 722, "u": 556, "b": 556, "F": 611,
             "l": 222, ".": 278, **dict.fromkeys("0123456789", 556)}  # fmt: skip


def _set(text: str, size: float, right: float | None = None, middle: float | None = None):
    """``text`` in Helvetica at ``size``, its right side at ``right`` or its middle at
    ``middle``, on a baseline the caller gives: (x, text)."""
    width = sum(HELVETICA[c] for c in text) * size / 1000
    return (right - width if right is not None else middle - width / 2), text


def test_titles_wrapped_right_aligned_and_centred_stay_one_header_row(tmp_path: Path) -> None:
    """A table of figures whose titles wrap over two lines, right-aligned over their
    figures or centred over them (a statistics package's output): each title's second
    line goes on with its first; the body's rows stand further apart than those lines."""
    size = 10
    lines = [
        (700, [_set("Time", size, right=200), _set("Standard", size, right=300),
               _set("Number", size, middle=400)]),
        (689, [_set("Error", size, right=300), _set("Failed", size, middle=400)]),
        (670, [_set("1.0000", size, right=200), _set("0.0362", size, right=300),
               _set("12", size, right=417)]),
        (652, [_set("2.0000", size, right=200), _set("0.0613", size, right=300),
               _set("13", size, right=417)]),
        (634, [_set("3.0000", size, right=200), _set("0.0717", size, right=300),
               _set("14", size, right=417)]),
    ]  # fmt: skip
    items = [Text(x, y, text, size) for y, cells in lines for x, text in cells]
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table == [
        ["Time", "Standard Error", "Number Failed"],
        ["1.0000", "0.0362", "12"],
        ["2.0000", "0.0613", "13"],
        ["3.0000", "0.0717", "14"],
    ]


def test_a_list_of_values_going_on_after_a_comma_stays_in_its_cell(tmp_path: Path) -> None:
    """A first cell listing values over lines, each but the last ending in a comma, its
    next line short enough to have fitted on the line above: the list is one cell, the
    table one table, the rows under it rows."""
    xs = (72, 190, 280, 370)
    rows = [
        (["indicator"], ["indicates"], ["malware"], ["See forward relationship."]),
        (["attack-pattern,", "campaign,", "tool"], ["uses"], ["malware"], ["See forward."]),
        (["course-of-action"], ["mitigates"], ["malware"], ["See forward relationship."]),
        (["tool"], ["drops"], ["malware"], ["See forward relationship."]),
    ]
    items: list = [Text(72, 742, "Reverse Relationships", 10, font=BOLD)]
    items.append(Stroke(68, 736, 540, 736))
    items += _wrapped_rows(xs, rows, top=722, gap=8)
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert ["attack-pattern, campaign, tool", "uses", "malware", "See forward."] in table
    assert table[-2:] == [
        ["course-of-action", "mitigates", "malware", "See forward relationship."],
        ["tool", "drops", "malware", "See forward relationship."],
    ]


def test_a_row_whose_label_wraps_goes_on_where_the_next_word_nearly_fitted(
    tmp_path: Path,
) -> None:
    """A property table whose rows stand apart: a label wrapped over two lines
    ("description" / "(optional)") beside a description whose next line's first word
    ("more", wide letters among narrow ones) would have fitted by its share of the line's
    width, a few points short of the column's edge: the label's wrap shows the row goes
    on, and the estimate's error is allowed for in the cells beside it: one row."""
    xs = (72, 190, 300)
    rows = [
        (["name (required)"], ["string"], ["The name of the object, as the producer", "sets"]),
        (["description", "(optional)"], ["string"],
         ["A description of the object that says", "more illicit lilt fill."]),
        (["type (required)"], ["string"], ["The type of the object."]),
    ]  # fmt: skip
    items: list = [Text(x, 720, t, 10) for x, t in zip(xs, ("Name", "Type", "Notes"), strict=True)]
    items.append(Stroke(68, 716, 540, 716))
    items += _wrapped_rows(xs, rows, top=700, gap=10)
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table[2] == [
        "description (optional)",
        "string",
        "A description of the object that says more illicit lilt fill.",
    ]
    assert len(table) == 4


def _wrapped_rows(xs: tuple[float, ...], rows: list, top: float, gap: float) -> list[Text]:
    """Unruled rows of cells wrapped over lines 12 points apart, each cell's lines at its
    column's left edge in ``xs``; a row's tallest cell and ``gap`` part it from the next."""
    items: list[Text] = []
    y = top
    for cells in rows:
        for x, lines in zip(xs, cells, strict=True):
            items += [Text(x, y - 12 * k, line, 10) for k, line in enumerate(lines)]
        y -= 12 * max(len(lines) for lines in cells) + gap
    return items


def _cost_rows(groups: list[tuple[str, list[tuple[str, str, str]]]], top: float, pitch: float):
    """Unruled rows, one line each at ``pitch``: each group's title alone at the left edge
    (when not empty), then its rows of a label, a factor and a sum."""
    items: list = []
    y = top
    for title, rows in groups:
        if title:
            items.append(Text(72, y, title, 10))
            y -= pitch
        for label, factor, total in rows:
            items += [Text(72, y, label, 10), Text(330, y, factor, 10)]
            items.append(_set_text(total, right=540, y=y))
            y -= pitch
    return items


def _set_text(text: str, right: float, y: float) -> Text:
    x, _ = _set(text, 10, right=right)
    return Text(x, y, text, 10)


GROUPS = [
    ("", [("Overhead", "0.81", "501.21"), ("Profit", "0.52", "321.77"), ("Total", "", "822.98")]),
    ("Mounting of equipment (5)", [("Overhead", "0.68", "2259.84"), ("Profit", "0.48", "1595.18"),
                                   ("Total", "", "3855.02")]),
    ("Electrical works (17, 18)", [("Overhead", "0.81", "8178.05"), ("Profit", "0.52", "5250.11"),
                                   ("Total", "", "13428.16")]),
]  # fmt: skip


def test_a_groups_title_between_rows_at_their_spacing_is_a_row_across_the_table(
    tmp_path: Path,
) -> None:
    """An unruled table whose groups of rows each open with a title alone at the left edge,
    set as the rows are and at their spacing: one table, each title a row of one cell
    across the columns."""
    items = _cost_rows(GROUPS, 700, 13)
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert ["Mounting of equipment (5)"] in table
    assert ["Electrical works (17, 18)"] in table
    assert ["Overhead", "0.68", "2259.84"] in table
    assert len(table) == 11


def test_a_bold_title_between_two_tables_stays_text(tmp_path: Path) -> None:
    """The same groups, their titles bold and set apart above and below: headings
    between tables, no rows of them."""
    items = _cost_rows(GROUPS[:1], 700, 13)
    items.append(Text(72, 640, "Mounting of equipment (5)", 10, font=BOLD))
    items += _cost_rows([("", GROUPS[1][1])], 620, 13)
    result = parse_pages(tmp_path, [Page(items)])
    assert all("Mounting" not in cell for table in tags_of(result) for r in table for cell in r)
    assert any("Mounting of equipment (5)" in row.content for row in result.rows)


def test_a_line_in_lower_case_between_rows_titles_no_group(tmp_path: Path) -> None:
    """A line alone at the left edge between the rows that starts in lower case goes on a
    sentence (a list item's line wrapped under its bullet): no group's title."""
    groups = [GROUPS[0], ("and the mounting of equipment (5)", GROUPS[1][1])]
    result = parse_pages(tmp_path, [Page(_cost_rows(groups, 700, 13))])
    assert all(["and the mounting of equipment (5)"] not in table for table in tags_of(result))
    assert any("and the mounting of equipment (5)" in row.content for row in result.rows)


def test_a_paragraph_set_lower_beside_a_wrapped_label_leaves_the_row_one(
    tmp_path: Path,
) -> None:
    """A property table whose rows stand apart: a label and a type wrapped over two lines
    ("account_type" / "(optional)", "open-" / "vocab") beside a description whose second
    paragraph starts a little lower than their second lines (the space before a
    paragraph), so that the two lines overlap: that overlap is no line spacing, and the
    labels' second lines go on with their row."""
    size, pitch = 10, 12
    items: list = [Text(x, 720, t, size) for x, t in ((72, "Name"), (190, "Type"), (300, "Notes"))]
    items.append(Stroke(68, 716, 540, 716))
    y = 700
    for name, kind, notes in (
        ("name (required)", "string", "The name of the object."),
        ("type (required)", "string", "The type of the object."),
    ):
        items += [Text(72, y, name, size), Text(190, y, kind, size), Text(300, y, notes, size)]
        y -= pitch + 10
    items += [Text(72, y, "account_type", size), Text(190, y, "open-", size)]
    items += [Text(300, y, "Specifies the type of the account.", size)]
    items += [Text(72, y - pitch, "(optional)", size), Text(190, y - pitch, "vocab", size)]
    items += [Text(300, y - pitch - 7, "This is an open vocabulary and its", size)]
    items += [Text(300, y - 2 * pitch - 7, "values come from the list.", size)]
    y -= 3 * pitch + 17
    items += [Text(72, y, "is_disabled", size), Text(190, y, "boolean", size)]
    items += [Text(300, y, "Whether the account is disabled.", size)]
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table[3] == [
        "account_type (optional)",
        "open-vocab",
        "Specifies the type of the account. This is an open vocabulary and its values come"
        " from the list.",
    ]
    assert len(table) == 5


def test_lines_with_an_empty_first_cell_at_line_spacing_go_on_with_their_row(
    tmp_path: Path,
) -> None:
    """A table whose rows stand apart, a cell listing values one under another (``binary``
    / ``hex`` / ``string``, none wrapped: each would have fitted on the line above) beside
    a description over more lines: the lines under the row's first, at the table's line
    spacing and with nothing in the first column, go on with the row."""
    xs = (72, 190, 300)
    rows = [
        (["boolean"], ["list of strings"], ["A constant of boolean type encodes", "truth."]),
        (["binary"], ["binary", "hex", "string"],
         ["A constant of binary type is a", "base64 encoded array of octets", "per RFC4648."]),
        (["hex"], ["binary", "hex"], ["A constant of hex type encodes an", "array of octets."]),
    ]  # fmt: skip
    titles = ("Constant", "Type", "Notes")
    items: list = [Text(x, 720, t, 10) for x, t in zip(xs, titles, strict=True)]
    items.append(Stroke(68, 716, 540, 716))
    items += _wrapped_rows(xs, rows, top=700, gap=10)
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table == [
        ["Constant", "Type", "Notes"],
        ["boolean", "list of strings", "A constant of boolean type encodes truth."],
        ["binary", "binary hex string",
         "A constant of binary type is a base64 encoded array of octets per RFC4648."],
        ["hex", "binary hex", "A constant of hex type encodes an array of octets."],
    ]  # fmt: skip


def test_a_row_of_figures_under_a_groups_label_stays_a_row(tmp_path: Path) -> None:
    """A table of results whose group label stands in its first row only (``Single`` over
    three models), its rows set apart by a wider gap between groups: the second model's row
    of figures, at the line spacing under the first, with nothing in the first column, is
    a row of its own (figures stand right-aligned one under another and never wrap)."""
    xs = (72, 150, 330, 380, 430)
    groups = [
        [("Single", "BM25", "32.6", "50.1", "29.4"), ("", "DPR", "41.5", "56.8", "34.6"),
         ("", "BM25+DPR", "39.0", "57.0", "35.2")],
        [("Multi", "DPR", "41.5", "56.8", "42.4"),
         ("", "GraphRetriever (Min et al.)", "38.8", "57.9", "41.1")],
    ]  # fmt: skip
    items: list = [
        Text(x, 720, t, 10)
        for x, t in zip(xs, ("Training", "Model", "NQ", "WQ", "TREC"), strict=True)
    ]
    items.append(Stroke(68, 716, 540, 716))
    y = 700
    for group in groups:
        for row in group:
            items += [Text(x, y, t, 10) for x, t in zip(xs[:2], row[:2], strict=True) if t]
            items += [_set_text(t, right=x + 30, y=y) for x, t in zip(xs[2:], row[2:], strict=True)]
            y -= 12
        y -= 10
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert ["", "BM25+DPR", "39.0", "57.0", "35.2"] in table or [
        "Single", "BM25+DPR", "39.0", "57.0", "35.2"
    ] in table  # fmt: skip
    assert len(table) == 6
