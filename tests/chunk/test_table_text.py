"""Keyed table text (chunk/table_text.py): each body row an object keyed by its column's
header, and not a word of the grid lost (the front door's no-loss check refuses a file that
loses one)."""

from __future__ import annotations

import json

from lightrag_pchunk.chunk.coverage import count_words, lost_words
from lightrag_pchunk.chunk.table_text import keyed_table


def tag(rows: list[list[str]]) -> str:
    return f'<table id="t1" format="json">{json.dumps(rows, ensure_ascii=False)}</table>'


def keyed_body(line: str) -> list[dict[str, str]]:
    return json.loads(line[line.index(">") + 1 : -len("</table>")])


# A keynames table of a specification: cells of two paragraphs ("map of" / "property
# definitions"), read as one cell with a line break.
KEYNAMES = [
    ["Keyname", "Mandatory", "Type", "Description"],
    ["properties", "no", "map of\nproperty definitions", "An optional map of properties."],
    ["valid_types", "no", "list of string", "Valid targets.\nIf undefined, all are valid."],
]


def test_cells_with_line_breaks_keep_every_word_in_keyed_rows() -> None:
    grid = tag(KEYNAMES)
    sidecar = json.dumps([dict(zip(KEYNAMES[0], row, strict=True)) for row in KEYNAMES[1:]])
    for keyed_rows in ({}, {"t1": sidecar}):  # the grid by position, the parser's rows
        line = keyed_table(grid, {"t1": json.dumps(KEYNAMES[:1])}, keyed_rows)
        assert keyed_body(line) == [
            {
                "Keyname": "properties",
                "Mandatory": "no",
                "Type": "map of\nproperty definitions",
                "Description": "An optional map of properties.",
            },
            {
                "Keyname": "valid_types",
                "Mandatory": "no",
                "Type": "list of string",
                "Description": "Valid targets.\nIf undefined, all are valid.",
            },
        ]
        # The words after a line break are words of their own, not 'nproperty', 'nIf'.
        words = count_words(line)
        assert words["property"] == 1 and words["If"] == 1 and not words["nproperty"]
        assert not lost_words([grid], [line])


def test_header_labels_over_columns_no_row_fills_are_kept_on_the_first_row() -> None:
    # A test plan template: the results columns are left blank for the user to fill in.
    rows = [
        ["Procedure", "Expected Results", "Actual Results", "Successful?", "Performed by"],
        ["Select Close", "Report Generation Screen Shows"],
        ["Select Log-Off", "Log-in Screen appears"],
    ]
    line = keyed_table(tag(rows), {}, {})
    assert keyed_body(line) == [
        {
            "Procedure": "Select Close",
            "Expected Results": "Report Generation Screen Shows",
            "Actual Results": "",
            "Successful?": "",
            "Performed by": "",
        },
        {"Procedure": "Select Log-Off", "Expected Results": "Log-in Screen appears"},
    ]
    assert not lost_words([tag(rows)], [line])


def test_a_blank_label_repeated_in_the_header_keeps_each_column() -> None:
    rows = [["Item", "Signature", "Signature"], ["Pump"], ["Valve"]]
    line = keyed_table(tag(rows), {}, {})
    assert keyed_body(line)[0] == {"Item": "Pump", "Signature": "", "Signature (2)": ""}
    assert not lost_words([tag(rows)], [line])
    # The key added is numbered past those in use: it never overwrites a value.
    rows = [["Total", "Total", "Total"], ["1", "2"]]
    line = keyed_table(tag(rows), {}, {})
    assert keyed_body(line) == [{"Total": "1", "Total (2)": "2", "Total (3)": ""}]


def test_a_spanning_label_over_columns_the_body_leaves_empty_is_kept() -> None:
    # The parser's keyed rows name columns by the grid: "Bundle" spans the columns no body
    # cell starts in, so no key names it.
    rows = [["Objects", "Bundle"], ["Core", "Meta"], ["Domain", "Observable", "Relationship"]]
    sidecar = [
        {"Objects": "Core", "Objects (3)": "Meta"},
        {"Objects": "Domain", "Objects (2)": "Observable", "Objects (3)": "Relationship"},
    ]
    line = keyed_table(tag(rows), {"t1": json.dumps(rows[:1])}, {"t1": json.dumps(sidecar)})
    assert keyed_body(line) == [{**sidecar[0], "Bundle": ""}, sidecar[1]]
    assert not lost_words([tag(rows)], [line])


def test_a_table_whose_header_every_row_names_is_written_as_before() -> None:
    rows = [["Item", "Unit", "Notes"], ["Pump", "pcs", "spare"], ["Valve", "kg"]]
    line = keyed_table(tag(rows), {}, {})
    assert keyed_body(line) == [
        {"Item": "Pump", "Unit": "pcs", "Notes": "spare"},
        {"Item": "Valve", "Unit": "kg"},
    ]


def test_keyed_rows_that_disagree_with_the_tag_give_way_to_the_tag() -> None:
    # A parser's keyed rows that miss a cell its tag holds are not used: the tag is keyed
    # by position, every cell kept.
    rows = [["Item", "Unit", "Note"], ["Pump", "pcs", "spare"], ["Valve", "kg"]]
    sidecar = [{"Item": "Pump", "Unit": "pcs"}, {"Item": "Valve", "Unit": "kg"}]
    line = keyed_table(tag(rows), {"t1": json.dumps(rows[:1])}, {"t1": json.dumps(sidecar)})
    assert keyed_body(line) == [
        {"Item": "Pump", "Unit": "pcs", "Note": "spare"},
        {"Item": "Valve", "Unit": "kg"},
    ]
    assert not lost_words([tag(rows)], [line])
    # Keyed rows holding the tag's cells are used as they are (their keys may differ).
    sidecar = [{"Item": "Pump", "Unit": "pcs", "Remark": "spare"}, {"Item": "Valve", "Unit": "kg"}]
    line = keyed_table(tag(rows), {"t1": json.dumps(rows[:1])}, {"t1": json.dumps(sidecar)})
    assert keyed_body(line)[0] == {**sidecar[0], "Note": ""}
