"""The bundled example document: it parses into what the demo and README promise, and the
generator script rebuilds it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from lightrag_pchunk.blockfile.sidecars import read_sidecar
from lightrag_pchunk.cli.demo_cmd import EXAMPLE_NAME, example_path
from lightrag_pchunk.parse.document import parse_docx


def load_generator():
    script = example_path().with_name("make_example.py")
    spec = importlib.util.spec_from_file_location("make_example", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    return parse_docx(example_path(), tmp_path_factory.mktemp("bundled"))


def row_view(document) -> list[tuple]:
    return [(r.heading, r.parent_headings, r.level, r.content) for r in document.rows]


def test_the_example_is_shipped_small_and_named_as_the_demo_expects() -> None:
    path = example_path()
    assert path.name == EXAMPLE_NAME == load_generator().EXAMPLE_NAME
    assert path.is_file()
    assert path.stat().st_size < 100 * 1024


def test_it_has_the_structure_p_is_for(parsed) -> None:
    headings = [row.heading for row in parsed.rows]
    # Numbered clauses from a list linked to Heading 1-3, Chinese included.
    assert "3.3.1 Issue of clothing" in headings
    assert "6 Incident reporting 事故报告" in headings
    assert "3.4 通道与照明 Aisles and lighting" in headings
    # A heading-only chapter, an unnumbered References heading, bullets.
    terms = next(row for row in parsed.rows if row.heading == "2 Terms and definitions")
    assert terms.content == "# 2 Terms and definitions"
    assert headings[-1] == "References"
    assert "• insulated gloves" in parsed.content
    assert parsed.headings == {1: 8, 2: 13, 3: 2}
    assert (parsed.tables, parsed.equations) == (3, 1)


def test_its_tables_have_header_rows_lead_in_and_bridge_text(parsed) -> None:
    tables = read_sidecar(parsed.blocks_path, "tables")
    assert len(tables) == 3
    assert all(item.get("table_header") for item in tables.values())  # w:tblHeader rows
    monitoring = next(row for row in parsed.rows if row.heading == "4 Temperature monitoring")
    lines = monitoring.content.split("\n")
    table_line = next(line for line in lines if line.startswith("<table"))
    rows = json.loads(table_line[table_line.index(">") + 1 : -len("</table>")])
    assert len(rows) == 161  # header + 160 rows
    assert lines.index(table_line) > 1 and lines[-1].startswith("Readings marked")
    checklists = next(row for row in parsed.rows if row.heading == "5.1 Inspection checklists")
    kinds = [
        "table" if line.startswith("<table") else "text" for line in checklists.content.split("\n")
    ]
    assert kinds.count("table") == 2
    between = kinds[kinds.index("table") + 1 : len(kinds) - kinds[::-1].index("table") - 1]
    assert between and set(between) == {"text"}  # bridge text between the two big tables
    assert '<equation id="eq-' in parsed.content


def test_the_generator_rebuilds_the_same_document(parsed, tmp_path) -> None:
    rebuilt = load_generator().build_example(tmp_path / EXAMPLE_NAME)
    again = parse_docx(rebuilt, tmp_path / "out")
    assert row_view(again) == row_view(parsed)
    # Fixed seed, dates and zip timestamps: two builds here are byte-identical.
    second = load_generator().build_example(tmp_path / "second.docx")
    assert Path(second).read_bytes() == Path(rebuilt).read_bytes()
