"""Our parser over every real-world document of ../shared/corpus/docx: each file parses or is
refused with DocxParseError (nothing else), and what it writes is a well-formed blocks file."""

from __future__ import annotations

import json
import re

import pytest

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.document import parse_docx

from helpers import corpus_files

FILES = [path.name for path in corpus_files("docx")]

pytestmark = pytest.mark.skipif(
    not FILES, reason="../shared/corpus/docx is absent: the real-world corpus tests are skipped"
)

#: Files refused on purpose, with the reason code (docs/parser.md explains each).
REFUSED = {
    "poi__external-entity-in-text.docx": "dtd",  # a DOCTYPE declaring an external entity
    "poi__stress025-python-docx-valueerror.docx": "unsupported",  # an Office theme package
}
#: Files that hold no displayed text at all (Word shows an empty page, or an empty table).
EMPTY = {
    "mammoth__empty.docx",
    "poi__bug60341-no-paragraphs.docx",
    "poi__table-columns-empty-cells.docx",
}
_FLAGS = {"tables": "table_file", "equations": "equation_file", "drawings": "drawing_file"}
_TAG_ID = re.compile(r'id=\\?"((?:tb|eq|im)-[0-9a-f]+-\d{4})\\?"')


@pytest.mark.parametrize("name", FILES)
def test_corpus_file_parses_or_is_refused_cleanly(name, corpus_parses, tmp_path):
    entry = corpus_parses[name]
    if entry.error is not None:
        assert REFUSED.get(name) == entry.error.reason, f"unexpected refusal: {entry.error}"
        assert entry.error.detail and name in str(entry.error)
        with pytest.raises(DocxParseError):
            parse_docx(entry.source, tmp_path)
        assert not any(tmp_path.iterdir()), "a refused file must leave nothing behind"
        return
    parsed = entry.parsed
    assert name not in REFUSED, f"{name} was expected to be refused"
    lines = parsed.blocks_path.read_text(encoding="utf-8").splitlines()
    meta, rows = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert meta["blocks"] == len(rows) == parsed.blocks
    assert (parsed.blocks == 0) == (name in EMPTY)
    for row in rows:
        assert row["content"] and row["content"] == row["content"].strip()
        assert 1 <= row["level"] <= 9
        assert not any(0xE000 <= ord(ch) <= 0xF8FF for ch in row["heading"])
    # Every sidecar item is named by its block's content, and every tag id has its item.
    for kind in ("tables", "equations", "drawings"):
        path = parsed.parsed_dir / f"{parsed.blocks_path.name[:-13]}.{kind}.json"
        items = json.loads(path.read_text())[kind] if path.exists() else {}
        assert meta[
            {"tables": "table_file", "equations": "equation_file"}.get(kind, "drawing_file")
        ] == bool(items)
        by_block = {row["blockid"]: row["content"] for row in rows}
        for item_id, item in items.items():
            assert item_id in by_block[item["blockid"]]
    tagged = {m for row in rows for m in _TAG_ID.findall(row["content"])}
    assert len(tagged) == parsed.tables + parsed.equations + parsed.drawings
    for path in parsed.parsed_dir.rglob("*"):
        assert path.resolve().is_relative_to(parsed.parsed_dir.parent.resolve())
