"""Our parser and P chunker over every real-world document of ../shared/corpus at N = 500
and 1200 (issue 15's hard invariants): no text lost and the cap kept (grid tables), no
table row cut, every continuation slice of a data table repeats its header rows or its
compact header (a single row too big to share a slice with even the smallest compact
header aside), keyed tables within the cap too."""

from __future__ import annotations

import json
import re

import pytest

from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.tokens import TokenCounter

from helpers import corpus_files
from invariants import check_output, compact_headers_of

FILES = [path.name for path in corpus_files("docx")]

pytestmark = pytest.mark.skipif(
    not FILES, reason="../shared/corpus/docx is absent: the real-world corpus tests are skipped"
)

_TAG = re.compile(r"<table\b([^>]*)>(.*?)</table>", re.DOTALL)
_ID = re.compile(r'\bid="([^"]*)"')


def _headers(blocks_path) -> dict[str, list]:
    sidecar = blocks_path.with_name(blocks_path.name.replace(".blocks.jsonl", ".tables.json"))
    items = json.loads(sidecar.read_text())["tables"] if sidecar.exists() else {}
    return {k: json.loads(v.get("table_header") or "[]") for k, v in items.items()}


@pytest.mark.parametrize("name", FILES)
def test_corpus_tables_keep_rows_whole_and_headers_on_every_slice(
    name, corpus_parses, corpus_chunks, cl100k_tokenizer
):
    parsed = corpus_parses[name].parsed
    if parsed is None or not parsed.rows:  # refused files are covered by test_corpus.py
        return
    headers = _headers(parsed.blocks_path)
    compact = compact_headers_of(parsed.blocks_path, [row.content for row in parsed.rows])
    counter = TokenCounter(cl100k_tokenizer)
    for size in (500, 1200):
        grid = corpus_chunks(name, size)  # tables as grids: the default
        check_output(
            [row.content for row in parsed.rows],
            [r["content"] for r in grid],
            counter=counter,
            cap=size,
            tokens=[r["tokens"] for r in grid],
            compact_headers=compact,
        )
        seen: set[str] = set()
        for row in grid:
            for line in row["content"].split("\n"):
                match = _TAG.fullmatch(line.strip())
                assert match or ("<table" not in line and "</table>" not in line), line[:80]
                if match is None:
                    continue
                table_id = _ID.search(match.group(1)).group(1)
                header = headers.get(table_id) or []
                rows = json.loads(match.group(2))
                if table_id in seen and header:
                    forms = compact.get(table_id, [])
                    labelled = len(rows) > 1 and rows[0] in forms and rows[1] not in header
                    smallest = json.dumps(forms[-1:] + rows, ensure_ascii=False)
                    alone = len(rows) == 1 and (not forms or counter.count(smallest) > size)
                    assert rows[: len(header)] == header or labelled or alone, table_id
                seen.add(table_id)
        keyed = chunking_by_paragraph_semantic(
            cl100k_tokenizer, "", size, blocks_path=parsed.blocks_path, table_text="keyed"
        )
        assert all(r["tokens"] <= size for r in keyed)
        assert all(r["tokens"] == counter.count(r["content"]) for r in keyed)
