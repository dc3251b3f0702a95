"""The sidecar files (blockfile/sidecars.py): written as LightRAG lays them out, read back
by id; an empty kind writes no file, an unreadable one reads as empty."""

from __future__ import annotations

import json

from lightrag_pchunk.blockfile.sidecars import read_sidecar, read_table_items, write_sidecar


def test_a_sidecar_is_written_indented_and_read_back_by_id(tmp_path) -> None:
    blocks = tmp_path / "doc.blocks.jsonl"
    items = {"tb-x-0001": {"table_header": ["数", 'a"b'], "keyed_rows": "k: v"}}
    path = write_sidecar(blocks, "tables", items)
    assert path == tmp_path / "doc.tables.json"
    text = path.read_text(encoding="utf-8")
    assert (
        text == json.dumps({"version": "1.0", "tables": items}, ensure_ascii=False, indent=2) + "\n"
    )
    assert read_sidecar(blocks, "tables") == items
    assert read_table_items(blocks) == ({"tb-x-0001": '["数", "a\\"b"]'}, {"tb-x-0001": "k: v"})


def test_no_items_write_no_file_and_a_broken_file_reads_as_empty(tmp_path) -> None:
    blocks = tmp_path / "doc.blocks.jsonl"
    assert write_sidecar(blocks, "equations", {}) is None
    assert not (tmp_path / "doc.equations.json").exists()
    (tmp_path / "doc.drawings.json").write_text("{not json", encoding="utf-8")
    assert read_sidecar(blocks, "drawings") == {}
