"""The CLI takes Markdown as it takes Word: parse, chunk and inspect a `.md` file."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.blockfile.jsonl import read_blocks
from lightrag_pchunk.cli.main import main
from lightrag_pchunk.model import PREFACE_HEADING

GUIDE = """---
title: Cold store guide
---
# 1 Scope

This guide covers cold stores below minus 18 degrees.

## 1.1 Terms

| Term | Meaning |
|---|---|
| CS | cold store |

# 2 Safety

Every door opens from the inside.
"""


@pytest.fixture(autouse=True)
def _clean_env(clean_p_env):
    yield


@pytest.fixture
def guide(tmp_path):
    path = tmp_path / "in" / "guide.md"
    path.parent.mkdir()
    path.write_text(GUIDE, encoding="utf-8")
    return path


def test_parse_writes_the_blocks_of_a_markdown_file(guide, tmp_path, capsys) -> None:
    assert main(["parse", str(guide), "-o", str(tmp_path / "out")]) == 0
    assert capsys.readouterr().out.startswith("guide.md: 4 blocks, 1 table, 0 equations")
    blocks = read_blocks(tmp_path / "out" / "guide.md.parsed" / "guide.blocks.jsonl")
    assert [(r.heading, r.parent_headings, r.level) for r in blocks.rows] == [
        (PREFACE_HEADING, (), 1),  # the front matter's text
        ("1 Scope", (), 1),
        ("1.1 Terms", ("1 Scope",), 2),
        ("2 Safety", (), 1),
    ]
    assert blocks.meta["doc_title"] == "Cold store guide"  # from the front matter
    assert blocks.rows[0].content == "title: Cold store guide"


def test_chunk_and_inspect_take_the_markdown_file_itself(guide, tmp_path, capsys) -> None:
    assert main(["chunk", str(guide), "--json", "--size", "60", "--overlap", "0"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    text = "\n".join(r["content"] for r in rows)
    for words in ("minus 18 degrees", '["CS", "cold store"]', "from the inside"):
        assert words in text  # the pipe table is a JSON table tag
    assert rows[0]["heading"]["heading"] == "1 Scope"
    assert main(["inspect", str(guide), "--no-html", "--size", "60", "--overlap", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("guide.md: P (")
    assert f"{len(rows)} chunks, no warnings." in out
