"""PDF tables at their edges: a ruled cell's text broken on purpose at a sub-row's border,
an unruled table's wrapped header and labels, a running footer under a table that ends the
page, a page banner above a table that goes on, and a first column numbered beside figures."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.pdf.grids import Grid
from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.sub_rows import split_stacked_cells

from pdf_builders import BOLD, Page, Stroke, Text, parse_pages, tags_of, unruled_rows

XS = [72, 120, 260, 340]


def sub_row_item(code_lines: list[tuple[float, str]]) -> list:
    """A ruled table: a header row (700-680), then an item (680-628) whose sub-row border
    (654) is drawn in the last column only, the item's code lines in the middle column."""
    items: list = [Stroke(XS[0], y, XS[-1], y) for y in (700, 680, 628)]
    items.append(Stroke(XS[2], 654, XS[3], 654))
    items += [Stroke(x, 700, x, 628) for x in XS]
    for column, text in enumerate(("No.", "Work", "Qty")):
        items.append(Text(XS[column] + 4, 686, text, 10))
    items += [Text(XS[0] + 4, 668, "1", 10), Text(XS[2] + 4, 668, "12", 10)]
    items.append(Text(XS[2] + 4, 644, "1 pc.", 10))
    items += [Text(XS[1] + 4, y, text, 10) for y, text in code_lines]
    return items


def test_a_cell_broken_early_on_a_sub_row_baseline_is_split_there(tmp_path: Path) -> None:
    """The middle column's lines follow at their leading across the sub-row's border, but
    the line above it stops where the next line's first word would have fitted, and the
    next line starts on the sub-row's baseline: the sub-row's own cell."""
    lines = [(668, "Wall sleeve, steel"), (656, "rubber seal."), (644, "V=12; k=1.2")]
    (table,) = tags_of(parse_pages(tmp_path, [Page(sub_row_item(lines))]))
    assert table == [
        ["No.", "Work", "Qty"],
        ["1", "Wall sleeve, steel rubber seal.", "12"],
        ["1", "V=12; k=1.2", "1 pc."],
    ]


def test_a_cell_wrapped_to_its_edge_across_a_sub_row_border_stays_one(tmp_path: Path) -> None:
    """The same lines, each filled to the column's edge (the next word did not fit): one
    cell's text wrapped over both rows."""
    lines = [(668, "Wall sleeve with rubber"), (656, "seal and galvanised steel"), (644, "collar")]
    (table,) = tags_of(parse_pages(tmp_path, [Page(sub_row_item(lines))]))
    text = "Wall sleeve with rubber seal and galvanised steel collar"
    assert table[1:] == [["1", text, "12"], ["1", text, "1 pc."]]


def test_a_running_footer_under_a_table_ending_the_page_stays_out(tmp_path: Path) -> None:
    """An unruled table down to the foot of the page, then the running footer in the foot
    band, nearer than a paragraph's gap but further than any two rows: not a row."""
    rows = [["Time", "Survival", "Failed", "Left"]]
    rows += [[f"{t}.0000", f"0.{97 - 4 * t}00", str(t), str(48 - t)] for t in range(6)]
    items = unruled_rows(rows, (110, 190, 290, 370), 200, 16)
    items += [Text(72, 80, "VDPAM 527 Homework 13", 10), Text(250, 80, "Page 7 of 14", 10)]
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table == rows


def test_a_first_column_numbered_beside_figures_is_a_table(tmp_path: Path) -> None:
    """0, 1, 2 ... in the first column read as numbering labels, but beside figures, not
    an item's words: a scale's table, not a list."""
    rows = [["Scale", "Value", "Range"], ["0", "0", "0-4"]]
    rows += [[str(n), str(10 * n), f"{10 * n - 5}-{10 * n + 4}"] for n in range(1, 6)]
    items = unruled_rows(rows, (72, 200, 330), 700, 18)
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table == rows


def test_a_header_cell_set_at_its_foot_beside_wrapped_ones_is_one_row(tmp_path: Path) -> None:
    """Header cells wrapped over two lines at the header's leading, the third set on the
    second line only (bottom-aligned), the body's rows further apart: one header row."""
    items: list = [Text(72, 720, "None/Low/Med/", 10, font=BOLD)]
    items.append(Text(200, 720, "STIX Confidence", 10, font=BOLD))
    items += [Text(x, 708, text, 10, font=BOLD) for x, text in ((72, "High"), (200, "Value"))]
    items += [Text(330, 708, "Range of Values", 10, font=BOLD), Stroke(72, 704, 520, 704)]
    body = [["Not Specified", "Not Specified", "N/A"], ["None", "0", "0"], ["Low", "15", "1-29"]]
    body += [["Med", "50", "30-69"], ["High", "85", "70-100"]]
    items += unruled_rows(body, (72, 200, 330), 690, 20)
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table == [["None/Low/Med/ High", "STIX Confidence Value", "Range of Values"], *body]


def test_labels_wrapped_in_a_narrow_first_column_keep_the_table(tmp_path: Path) -> None:
    """Long names broken over two lines of the first column (the rest alone on the next
    line at the column's edge, or after a line-end hyphen): the table goes on, each name
    one cell."""
    entries = [
        (["SERVICE_KERNEL_DRIVER"], "The service is a device driver of the kernel."),
        (["SERVICE_FILE_SYSTEM_DRIV", "ER"], "The service is a file system driver."),
        (["SERVICE_WIN32_OWN_PROC", "ESS"], "The service runs in its own process."),
        (["course-of-", "action"], "The service shares its process with others."),
        (["SERVICE_SHARED"], "The service shares a process with other services."),
    ]
    items: list = [Text(72, 720, "Vocabulary Value", 10, font=BOLD)]
    items += [Text(236, 720, "Description", 10, font=BOLD), Stroke(72, 714, 520, 714)]
    y = 700.0
    for label, description in entries:
        items += [Text(72, y - 12 * k, line, 10) for k, line in enumerate(label)]
        items.append(Text(236, y, description, 10))
        y -= 12 * len(label) + 8
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert [row[0].replace(" ", "") for row in table] == [
        "VocabularyValue",
        "SERVICE_KERNEL_DRIVER",
        "SERVICE_FILE_SYSTEM_DRIVER",
        "SERVICE_WIN32_OWN_PROCESS",
        "course-of-action",
        "SERVICE_SHARED",
    ]


def ruled(rows: list[list[str]], top: float, xs: list[float]) -> list:
    """A ruled table, every border drawn, rows 20 points high."""
    items: list = [Stroke(xs[0], top - 20 * r, xs[-1], top - 20 * r) for r in range(len(rows) + 1)]
    items += [Stroke(x, top, x, top - 20 * len(rows)) for x in xs]
    for r, row in enumerate(rows):
        items += [Text(xs[c] + 4, top - 20 * r - 14, text, 10) for c, text in enumerate(row)]
    return items


def test_a_table_goes_on_below_a_ruled_banner_heading_the_next_page(tmp_path: Path) -> None:
    """Each page opens with a ruled banner (the running header in a box); the table at the
    foot of the first page goes on below the banner of the second: one table."""
    banner = ruled([["Agency", "Security Assessment Report"]], 780, [0, 140, 612])
    xs = [72, 120, 300, 500]
    first = [["No.", "Control", "Elements"], ["1.", "AC-1", "An access policy"]]
    pages = [
        Page([*banner, Text(72, 600, "Attestation of the policies."), *ruled(first, 160, xs)]),
        Page([*banner, *ruled([["", "", "is developed."], ["2.", "AT-1", "Training"]], 660, xs)]),
    ]
    tables = tags_of(parse_pages(tmp_path, pages))
    assert [row[1] for row in tables[-1]] == ["Control", "AC-1", "", "AT-1"]


def test_a_table_drawn_in_a_frame_keeps_its_first_row(tmp_path: Path) -> None:
    """A ruled table inside a larger box sharing its top border (a table in a table's
    cell): the box's margin around it is no cell covering the inner table's first row."""
    xs = [80, 180, 280, 380]
    frame = [Stroke(72, 700, 400, 700), Stroke(72, 600, 400, 600)]
    frame += [Stroke(72, 700, 72, 600), Stroke(400, 700, 400, 600)]
    rows = [["Tab1", "Tab2", "Tab3"], ["A", "B", "C"], ["D", "E", "F"]]
    (table,) = tags_of(parse_pages(tmp_path, [Page(frame + ruled(rows, 700, xs))]))
    assert table == rows


def _line(text: str, x0: float, top: float, bottom: float) -> Segment:
    """A line of a ruled cell, boxed as PDFium boxes an embedded font's glyphs (to their
    ink: a line of lower-case letters without ascenders stands lower), 11 pt, 5 pt a
    character."""
    return Segment(text, x0, top, x0 + 5.0 * len(text), bottom, (0, 0, 0, 0), 0, 0, 0, 11.0)


def test_a_title_going_on_in_lower_case_across_a_sub_row_border_is_one_cell() -> None:
    """A header cell over two grid rows ("Operating" over "machines"), the row border drawn
    in another column only ("unit" under "Count"): its second line, of lower-case letters
    without ascenders, starts on that sub-row's baseline and its low top leaves a gap of
    over half a line, but its foot follows at the title's line spacing and it goes on its
    words: one cell. Figures stacked so ("0" over "0") stay two rows."""
    grid = Grid([0.0, 60.0, 120.0], [0.0, 14.0, 28.0], [(0, 0, 0, 0), (1, 1, 0, 0), (0, 1, 1, 1)])
    count, unit = [_line("Count", 4, 3.0, 10.5)], [_line("unit", 4, 17.7, 23.0)]
    title = [_line("Operating", 64, 3.0, 12.6), _line("machines", 64, 17.7, 23.0)]
    split, owned = split_stacked_cells(grid, {0: count, 1: unit, 2: title})
    assert sorted(split.cells) == [(0, 0, 0, 0), (0, 1, 1, 1), (1, 1, 0, 0)]
    assert owned[split.cells.index((0, 1, 1, 1))] == title
    figures = [_line("0", 64, 3.0, 10.5), _line("0", 64, 15.6, 23.1)]
    split, _ = split_stacked_cells(grid, {0: count, 1: [_line("1 pc.", 4, 15.6, 23.1)], 2: figures})
    assert (0, 0, 1, 1) in split.cells and (1, 1, 1, 1) in split.cells


def test_a_cell_beside_a_code_that_starts_a_sub_row_is_cut_there(tmp_path: Path) -> None:
    """An item whose sub-row border is drawn in the last column only: its code column
    breaks early onto the sub-row's baseline ("TER-10" / "(0)"), which shows the sub-row;
    the work column's lines beside it, each filled to the column's edge, follow at their
    spacing across that border, its line on the sub-row's baseline the sub-row's own."""
    xs = [72, 110, 180, 320, 400]
    items: list = [Stroke(xs[0], y, xs[-1], y) for y in (700, 680, 628)]
    items.append(Stroke(xs[3], 654, xs[4], 654))
    items += [Stroke(x, 700, x, 628) for x in xs]
    for column, text in enumerate(("No.", "Code", "Work", "Qty")):
        items.append(Text(xs[column] + 4, 686, text, 10))
    items += [Text(76, 668, "1", 10), Text(114, 668, "TER-10", 10), Text(114, 644, "(0)", 10)]
    items += [Text(324, 668, "12", 10), Text(324, 644, "1 pc.", 10)]
    lines = [(668, "Wall sleeve with rubber"), (656, "seal and galvanised steel"), (644, "V=12")]
    items += [Text(184, y, text, 10) for y, text in lines]
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table[1:] == [
        ["1", "TER-10", "Wall sleeve with rubber seal and galvanised steel", "12"],
        ["1", "(0)", "V=12", "1 pc."],
    ]


def test_a_table_under_a_large_title_opening_the_next_page_goes_on_from_none(
    tmp_path: Path,
) -> None:
    """A designed report prints each page under a title set large in the top band, its
    text in a ruled box of the same columns: the box under the second title opens that
    title's section, a table of its own, not the first page's table going on."""
    xs = [72, 200, 540]
    first = [["Pump", "Weekly leak test"], ["P-1", "Passed"]]
    second = [["Valve", "Monthly seat test"], ["V-1", "Failed"]]
    pages = [
        Page([Text(72, 750, "Pump records", 24, BOLD), *ruled(first, 100, xs)]),
        Page([Text(72, 750, "Valve records", 24, BOLD), *ruled(second, 690, xs)]),
    ]
    assert tags_of(parse_pages(tmp_path, pages)) == [first, second]
