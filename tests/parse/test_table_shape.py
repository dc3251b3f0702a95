"""How a table is written: a compact tag (no merged-cell padding) with its real header and
caption, or paragraphs in reading order for a layout table; the full grid stays in
``tables.json``."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.parse.document import parse_docx
from lightrag_pchunk.parse.table_shape import shape_table

from docx_builders import (
    V_CONTINUE,
    V_RESTART,
    cell,
    grid_of,
    para,
    span,
    table,
    write_rich_docx,
)

HEADER = "<w:tblHeader/>"


def parse(tmp_path, body: str):
    source = write_rich_docx(tmp_path / "t.docx", body)
    parsed = parse_docx(source, tmp_path / "out", doc_id="doc-t")
    path = parsed.parsed_dir / "t.tables.json"
    items = json.loads(path.read_text())["tables"] if path.exists() else {}
    return parsed, items


PRICE_LIST = [
    [cell("Price list", tc_pr=span(4))],
    ["Item", "Unit", "Qty", "Price"],
    ["Pump", "pcs", "2", "10.50"],
    [cell("Valve", tc_pr=span(2)), "", "3.00"],
    ["", "", "", ""],
]


def test_merged_cell_padding_trailing_and_empty_rows_cost_nothing(tmp_path):
    parsed, items = parse(tmp_path, table(PRICE_LIST, grid=4))
    [item] = items.values()
    # The tag: the merged "Valve" cell written once (its empty Qty cell kept), no trailing
    # "", no all-empty row; the title row is the caption; the header is the first label row.
    tag = (
        '<table id="tb-t-0001" format="json" caption="Price list">'
        '[["Item", "Unit", "Qty", "Price"], ["Pump", "pcs", "2", "10.50"], '
        '["Valve", "", "3.00"]]</table>'
    )
    assert parsed.content == tag
    # tables.json keeps the full grid (LightRAG's conventions), the caption and the header.
    assert json.loads(item["content"]) == [
        ["Price list", "", "", ""],
        ["Item", "Unit", "Qty", "Price"],
        ["Pump", "pcs", "2", "10.50"],
        ["Valve", "", "", "3.00"],
        ["", "", "", ""],
    ]
    assert item["caption"] == "Price list"
    assert item["table_header"] == '[["Item", "Unit", "Qty", "Price"]]'
    # Keyed rows meet their header on the grid's columns: the merged "Valve" is the Item.
    assert json.loads(item["keyed_rows"]) == [
        {"Item": "Pump", "Unit": "pcs", "Qty": "2", "Price": "10.50"},
        {"Item": "Valve", "Price": "3.00"},
    ]


def test_merged_cells_are_written_once():
    # A 6-column grid whose cells each span 2 columns: 3 columns hold text.
    rows = [[cell(t, tc_pr=span(2)) for t in row] for row in (["A", "B", "C"], ["1x", "2y", ""])]
    shape = shape_table(grid_of(table(rows, grid=6)))
    assert shape.rows == (("A", "B", "C"), ("1x", "2y"))
    assert shape.keyed == ({"A": "1x", "B": "2y"},)


def test_w_tbl_header_rows_are_the_header_and_a_spanning_title_among_them_the_caption():
    rows = [
        [cell("Table 3 Limits", tc_pr=span(3))],
        ["Parameter", "Min", "Max"],
        ["Voltage", "10", "20"],
        ["Current", "1", "2"],
    ]
    shape = shape_table(grid_of(table(rows, grid=3, row_props={0: HEADER, 1: HEADER})))
    assert shape.caption == "Table 3 Limits"
    assert shape.header_rows == 1
    assert shape.rows[0] == ("Parameter", "Min", "Max")
    assert shape.header_json() == '[["Parameter", "Min", "Max"]]'


def test_a_title_merged_down_over_two_rows_is_the_caption_once():
    # The title's cell spans the table and is merged down into the next row: that row
    # repeats the title and holds nothing of its own.
    rows = [
        [cell("Chemotherapy Regimens", tc_pr=span(3) + V_RESTART)],
        [cell("", tc_pr=span(3) + V_CONTINUE)],
        ["Paclitaxel", "50 mg/m2", "Weekly"],
        ["Cisplatin", "40 mg/m2", "Weekly"],
        ["Docetaxel", "60 mg/m2", "Every 3 weeks"],
    ]
    shape = shape_table(grid_of(table(rows, grid=3)))
    assert shape.caption == "Chemotherapy Regimens"
    assert ("Cisplatin", "40 mg/m2", "Weekly") in shape.rows


def test_detected_header_comes_after_a_sparse_preamble_which_becomes_lines():
    rows = [
        [cell("LOCAL ESTIMATE No. 2", tc_pr=span(4))],
        [cell("Basis", tc_pr=span(2)), cell("Cost: 30 644,898", tc_pr=span(2))],
        ["No.", "Code", "Work", "Amount"],
        ["1", "T-12", "Pipe laying", "31 911,77"],
        ["2", "T-13", "Valves", "68 015,92"],
    ]
    shape = shape_table(grid_of(table(rows, grid=4)))
    assert shape.caption == "LOCAL ESTIMATE No. 2"
    assert shape.lines == ("Basis | Cost: 30 644,898",)
    assert shape.rows[0] == ("No.", "Code", "Work", "Amount")
    assert shape.header_rows == 1 and len(shape.rows) == 3


def test_a_multi_row_header_follows_its_vertical_merges_and_labels_every_column():
    rows = [
        [cell("No.", tc_pr=V_RESTART), cell("Cost per unit", tc_pr=span(2)), "Total"],
        [cell(tc_pr=V_CONTINUE), "All", "Machines", cell(tc_pr=V_CONTINUE)],
        ["1", "9 035,64", "2 251,3", "31 911,77"],
        ["2", "10 397,86", "2 488,08", "68 015,92"],
    ]
    # "Total" is not vertically merged into row 1 here; make it so to test the blanking.
    rows[0][2] = cell("Total", tc_pr=V_RESTART)
    shape = shape_table(grid_of(table(rows, grid=4)))
    assert shape.header_rows == 2
    # Header cells are written once, a vertical repeat blank (its label is above).
    assert shape.rows[:2] == (("No.", "Cost per unit", "Total"), ("", "All", "Machines"))
    assert shape.rows[2] == ("1", "9 035,64", "2 251,3", "31 911,77")
    # Keys are each column's label path: the span's label is above both of its columns.
    assert shape.keyed[0] == {
        "No.": "1",
        "Cost per unit / All": "9 035,64",
        "Cost per unit / Machines": "2 251,3",
        "Total": "31 911,77",
    }


def test_a_group_label_over_sub_labels_is_a_two_row_header_without_vertical_merges():
    # A responsibility matrix: "Role" spans four columns over the roles, the cell under
    # "Activity" left empty (no vertical merge): the roles' row is the header's second level.
    rows = [
        ["Activity", cell("Role", tc_pr=span(4))],
        ["", "Operator", "Inspector", "QA Manager", "Plant Manager"],
        ["Identify and tag", "R", "A", "I", "-"],
        ["Disposition", "-", "C", "R", "A"],
    ]
    shape = shape_table(grid_of(table(rows, grid=5)))
    assert shape.header_rows == 2
    assert shape.rows[2] == ("Identify and tag", "R", "A", "I", "-")
    assert shape.keyed[0] == {
        "Activity": "Identify and tag",
        "Role / Operator": "R",
        "Role / Inspector": "A",
        "Role / QA Manager": "I",
        "Role / Plant Manager": "-",
    }


def test_a_table_without_a_label_row_has_an_empty_header_never_an_empty_row():
    rows = [["", "", ""], ["1", "2.5", "3"], ["4", "5.5", "6"]]
    shape = shape_table(grid_of(table(rows)))
    assert shape.header_rows == 0
    assert shape.header_json() == "[]" and shape.keyed_json() is None
    assert shape.rows == (("1", "2.5", "3"), ("4", "5.5", "6"))


def test_a_key_value_list_has_no_header_row():
    rows = [["Organization Name", "[Enter Name]"], ["Street Address", "[Enter Street]"]]
    rows.append(["Suite/Room", "[Enter Suite]"])
    shape = shape_table(grid_of(table(rows)))
    assert not shape.layout and shape.header_rows == 0


@pytest.mark.parametrize(
    ("rows", "reason", "lines"),
    [
        ([["Cover title"], ["Version 3"]], "one column", ["Cover title", "Version 3"]),
        ([["Saint Petersburg", "«__» 2016"]], "one row", ["Saint Petersburg | «__» 2016"]),
        (
            [["Name", "Date", "Note", "Sign"], ["Ann", "", "", ""], ["", "", "", ""]]
            + [["", "", "", ""]] * 3,
            "mostly empty",
            ["Name | Date | Note | Sign", "Ann"],
        ),
        (
            [["from the Customer", "__________", "(name)"], ["from the Contractor", "_______", ""]],
            "signature grid",
            ["from the Customer | __________ | (name)", "from the Contractor | _______"],
        ),
        (
            [["AC-2", "Control Summary"], ["Responsible Role:", ""], ["Parameter AC-2:", ""]],
            "form",
            ["AC-2 | Control Summary", "Responsible Role:", "Parameter AC-2:"],
        ),
    ],
)
def test_layout_tables_become_paragraphs_in_reading_order(tmp_path, rows, reason, lines):
    assert shape_table(grid_of(table(rows))).layout == reason
    parsed, items = parse(tmp_path, para("Before") + table(rows) + para("After"))
    assert parsed.content.split("\n") == ["Before", *lines, "After"]
    assert items == {}


def test_a_layout_cell_with_several_lines_gives_each_line_and_merges_are_read_once():
    rows = [
        [cell("Customer", "Director", tc_pr=V_RESTART), cell("Contractor", "Manager")],
        [cell(tc_pr=V_CONTINUE), "________ / Smith /"],
    ]
    shape = shape_table(grid_of(table(rows)))
    assert shape.layout == "signature grid"
    assert shape.lines == ("Customer", "Director", "Contractor", "Manager", "________ / Smith /")


def test_a_page_laid_out_in_cells_is_a_text_frame():
    article = "Abstract. " + "word " * 500
    rows = [["Logo", "Journal"], [article, "Volume 3"]]
    assert shape_table(grid_of(table(rows))).layout == "text frame"


def test_a_row_above_a_column_numbering_row_is_the_header_however_long_its_cells():
    long = "Trade mark (its verbal designation) if any, service mark if any, company name " * 2
    rows = [["No.", long, long + "!"], ["1", "2", "3"], ["1", "Battery", "China"]]
    shape = shape_table(grid_of(table(rows)))
    assert shape.header_rows == 1 and shape.rows[1] == ("1", "2", "3")


def test_a_header_row_repeating_the_one_above_is_left_out():
    rows = [
        [cell("No.", tc_pr=V_RESTART), cell("Work", tc_pr=V_RESTART)],
        [cell(tc_pr=V_CONTINUE), cell(tc_pr=V_CONTINUE)],
        ["1", "Laying"],
        ["2", "Valves"],
    ]
    shape = shape_table(grid_of(table(rows)))
    assert shape.header_rows == 1
    assert shape.rows == (("No.", "Work"), ("1", "Laying"), ("2", "Valves"))


def test_a_preamble_row_with_a_measured_value_is_not_the_header():
    header = ["No.", "Code", "Work", "Unit", "Qty", "Amount"]
    rows = [
        [cell("Drawings No. 160206", tc_pr=span(3)), cell("Labour -", tc_pr=span(2)), "980,35 h"],
        header,
        ["1", "T-12", "Pipe laying", "m", "0,24", "31 911,77"],
        ["2", "T-13", "Valves", "pcs", "3", "68 015,92"],
    ]
    shape = shape_table(grid_of(table(rows, grid=6)))
    assert shape.lines == ("Drawings No. 160206 | Labour - | 980,35 h",)
    assert shape.rows[0] == tuple(header)
