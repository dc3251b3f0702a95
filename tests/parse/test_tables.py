"""Tables: one-line ``<table>`` tags with LightRAG's merge conventions, header rows in the
sidecar, nested tables kept as text, blank tables skipped."""

from __future__ import annotations

import json

import pytest
from docx import Document

from lightrag_pchunk.parse.document import parse_docx
from lightrag_pchunk.parse.table_shape import shape_table
from lightrag_pchunk.parse.tables import TableGrid

from docx_builders import (
    V_CONTINUE,
    V_RESTART,
    cell,
    grid_of,
    numbering_xml,
    para,
    span,
    table,
    write_rich_docx,
)


def rows_of(tmp_path, body: str) -> list[list[list[str]]]:
    source = write_rich_docx(tmp_path / "t.docx", body)
    parsed = parse_docx(source, tmp_path / "out", doc_id="doc-t")
    tables = json.loads((parsed.parsed_dir / "t.tables.json").read_text())["tables"]
    return [json.loads(item["content"]) for item in tables.values()]


def test_vertical_merge_repeats_the_text_and_horizontal_merge_fills_the_left_cell():
    grid = grid_of(
        table(
            [
                [cell("A", tc_pr=V_RESTART), cell("wide", tc_pr=span(2))],
                [cell(tc_pr=V_CONTINUE), "b", "c"],
            ]
        )
    )
    assert grid.rows == [["A", "wide", ""], ["A", "b", "c"]]
    assert grid.dimension == (2, 3)


def test_a_cell_without_vmerge_never_inherits_the_text_above():
    # LightRAG copies a merge's text into any empty cell below it; Word shows it empty.
    grid = grid_of(
        table([[cell("top", tc_pr=V_RESTART)], [cell(tc_pr=V_CONTINUE)], [cell()], ["x"]])
    )
    assert grid.rows == [["top"], ["top"], [""], ["x"]]


def test_grid_before_shifts_cells_and_wide_rows_widen_the_table():
    grid = grid_of(
        table(
            [["a", "b"], ["c"], ["d", "e", "f"]],
            grid=2,
            row_props={1: '<w:gridBefore w:val="1"/>'},
        )
    )
    assert grid.rows == [["a", "b", ""], ["", "c", ""], ["d", "e", "f"]]


def test_deleted_rows_are_dropped_and_content_controls_around_rows_and_cells_are_read():
    sdt_cell = f"<w:sdt><w:sdtContent>{cell('in control')}</w:sdtContent></w:sdt>"
    xml = table([["kept"], ["deleted"]], row_props={1: '<w:del w:id="1" w:author="x"/>'})
    xml = xml.replace(
        "</w:tbl>",
        f"<w:sdt><w:sdtContent><w:tr>{sdt_cell}</w:tr></w:sdtContent></w:sdt></w:tbl>",
    )
    assert grid_of(xml).rows == [["kept"], ["in control"]]


def test_only_leading_header_rows_repeat_and_val_0_is_off():
    header = "<w:tblHeader/>"
    grid = grid_of(
        table([["H1"], ["H2"], ["body"], ["late"]], row_props={0: header, 1: header, 3: header})
    )
    assert grid.header_rows == 2
    off = grid_of(table([["H"], ["b"]], row_props={0: '<w:tblHeader w:val="0"/>'}))
    assert off.header_rows == 0


def test_tag_body_and_record_follow_lightrag():
    grid = TableGrid([["Name", "Note"], ["x", "a </table> b"]], header_rows=1)
    shape = shape_table(grid)
    body = '[["Name", "Note"], ["x", "a <\\/table> b"]]'
    assert shape.tag("tb-h-0001") == f'<table id="tb-h-0001" format="json">{body}</table>'
    assert json.loads(body)[1][1] == "a </table> b"  # still the same JSON string
    record = grid.record("tb-h-0001", shape.caption, shape.header_json())
    assert list(record) == [
        "id", "blockid", "heading", "parent_headings", "dimension", "format", "content",
        "caption", "footnotes", "table_header",
    ]  # fmt: skip
    assert record["dimension"] == [2, 2]
    assert record["table_header"] == '[["Name", "Note"]]'


@pytest.mark.parametrize("cells", [[["", " "], ["\t", ""]], []])
def test_blank_tables_are_skipped(tmp_path, cells):
    source = write_rich_docx(tmp_path / "t.docx", para("Before") + table(cells) + para("After"))
    parsed = parse_docx(source, tmp_path / "out")
    assert parsed.content == "Before\nAfter"
    assert parsed.tables == 0
    assert not (parsed.parsed_dir / "t.tables.json").exists()


def test_cell_paragraphs_are_joined_with_newlines_and_keep_their_list_labels(tmp_path):
    doc = Document()
    tbl = doc.add_table(rows=2, cols=2)
    tbl.cell(0, 0).text, tbl.cell(0, 1).text = "Lines", "List"
    left = tbl.cell(1, 0)
    left.text = "First line"
    left.add_paragraph("Second line")
    left.add_paragraph("")  # empty paragraphs add nothing
    tbl.cell(1, 1).paragraphs[0].add_run("Bullet item")
    tbl.cell(1, 1).paragraphs[0].style = doc.styles["List Bullet"]
    path = tmp_path / "cells.docx"
    doc.save(path)
    parsed = parse_docx(path, tmp_path / "out")
    assert '["First line\\nSecond line", "• Bullet item"]]' in parsed.content


def test_nested_tables_are_kept_as_text_lines_inside_their_cell(tmp_path):
    nested = table([["n1", "n2"], ["n3", ""]])
    outer = table([["Name", "Parts"], ["outer", cell(para("intro"), nested)]])
    rows = rows_of(tmp_path, outer)
    assert rows == [[["Name", "Parts"], ["outer", "intro\nn1 | n2\nn3"]]]


def test_a_one_cell_frame_around_a_table_gives_the_inner_table(tmp_path):
    inner = table([["a", "b"], ["c", "d"]])
    rows = rows_of(tmp_path, table([[cell("<w:p/>", inner, "<w:p/>")]]))
    assert rows == [[["a", "b"], ["c", "d"]]]


def test_table_header_rows_reach_the_sidecar(tmp_path):
    body = table([["ID", "Name"], ["1", "one"]], row_props={0: "<w:tblHeader/>"})
    source = write_rich_docx(tmp_path / "t.docx", body)
    parsed = parse_docx(source, tmp_path / "out", doc_id="doc-t")
    item = json.loads((parsed.parsed_dir / "t.tables.json").read_text())["tables"]["tb-t-0001"]
    assert item["table_header"] == '[["ID", "Name"]]'
    assert item["blockid"] == parsed.rows[0].blockid
    assert item["heading"] == "Preface/Uncategorized"


def test_numbered_empty_cells_show_their_number(tmp_path):
    numbering = (
        '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
        '<w:numFmt w:val="decimal"/><w:lvlText w:val="%1"/></w:lvl></w:abstractNum>'
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
    )
    numbered = para(ppr='<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>')
    body = table([[cell(numbered), "first"], [cell(numbered), "second"]])
    source = write_rich_docx(tmp_path / "t.docx", body, numbering=numbering_xml(numbering))
    parsed = parse_docx(source, tmp_path / "out")
    assert '[["1", "first"], ["2", "second"]]' in parsed.content


def test_deeply_nested_tables_do_not_crash_and_keep_their_text(tmp_path):
    xml = table([["core"]])
    for depth in range(60):
        xml = table([[cell(para(f"level {depth}"), xml)]])
    source = write_rich_docx(tmp_path / "deep.docx", xml)
    parsed = parse_docx(source, tmp_path / "out")
    assert "core" in parsed.content
    assert "level 59" in parsed.content
    assert any("nest deeper" in warning for warning in parsed.warnings)
