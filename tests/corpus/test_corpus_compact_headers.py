"""The compact header on the corpus file it was made for (issue 15): the Russian estimate
tables of ``poi__bug65649-ru-contract-huge-tables.docx``, whose header rows (up to 309
tokens) leave no room at N=500 beside their biggest rows. Every continuation slice then
carries the full header or one row of its column labels; the first slice keeps the full
header, the slices partition the data rows, every chunk keeps the cap, and ``.tables.json``
is left as the parser wrote it."""

from __future__ import annotations

import json
import re

import pytest

from lightrag_pchunk.blockfile.sidecars import read_table_items
from lightrag_pchunk.chunk.table_tags import dump_json_row
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.tokens import TokenCounter

from helpers import shared_dir
from invariants import compact_headers_of

SHARED = shared_dir()
NAME = "poi__bug65649-ru-contract-huge-tables.docx"
PATH = SHARED / "corpus" / "docx" / NAME if SHARED else None

pytestmark = pytest.mark.skipif(
    PATH is None or not PATH.is_file(),
    reason=f"../shared/corpus/docx/{NAME} is absent: the compact header corpus test is skipped",
)

_TAG = re.compile(r"<table\b([^>]*)>(.*?)</table>", re.DOTALL)
_ID = re.compile(r'\bid="([^"]*)"')


def _tables(text: str) -> list[tuple[str, list]]:
    """(id, rows) of every JSON table tag in ``text``, in order."""
    return [(_ID.search(m.group(1)).group(1), json.loads(m.group(2))) for m in _TAG.finditer(text)]


def _alone(table_id: str, row: list) -> str:
    return f'<table id="{table_id}" format="json">[{dump_json_row(row)}]</table>'


@pytest.fixture(scope="module")
def parsed(corpus_parses):
    return corpus_parses[NAME].parsed


def test_every_continuation_carries_the_full_or_compact_header(parsed, cl100k_tokenizer) -> None:
    sidecar = parsed.blocks_path.with_name(
        parsed.blocks_path.name.replace(".blocks.jsonl", ".tables.json")
    )
    recorded = sidecar.read_bytes()
    headers = read_table_items(parsed.blocks_path)[0]
    compact = compact_headers_of(parsed.blocks_path, [row.content for row in parsed.rows])
    whole = dict(_tables(parsed.content))
    counter = TokenCounter(cl100k_tokenizer)
    chunks = chunking_by_paragraph_semantic(
        cl100k_tokenizer, "", 500, blocks_path=parsed.blocks_path, table_text="grid"
    )
    assert all(c["tokens"] == counter.count(c["content"]) <= 500 for c in chunks)
    slices: dict[str, list[list]] = {}
    for chunk in chunks:
        for table_id, rows in _tables(chunk["content"]):
            slices.setdefault(table_id, []).append(rows)
    compact_seen = 0
    for table_id, parts in slices.items():
        header = json.loads(headers.get(table_id) or "[]")
        rows = whole[table_id]
        if not header or len(parts) == 1:
            assert parts == [rows] or not header
            continue
        data, forms = rows[len(header) :], compact[table_id]
        assert parts[0][: len(header)] == header, f"{table_id}: the first slice's header"
        got = parts[0][len(header) :]
        for part in parts[1:]:
            if part[: len(header)] == header:
                got += part[len(header) :]
                continue
            assert part[0] in forms and part[1:] and part[1] not in header, f"{table_id}: {part[0]}"
            compact_seen += 1
            got += part[1:]
        # A row over the cap even alone is cut by characters (spec §6.2), outside any slice.
        fits = [r for r in data if counter.count(_alone(table_id, r)) <= 500]
        assert got == fits, f"{table_id}: data rows lost, repeated or out of order"
    assert compact_seen > 0  # the tables that need it were sliced with the compact header
    assert sidecar.read_bytes() == recorded


def test_at_1200_every_header_fits_and_none_is_compact(parsed, cl100k_tokenizer) -> None:
    headers = read_table_items(parsed.blocks_path)[0]
    chunks = chunking_by_paragraph_semantic(
        cl100k_tokenizer, "", 1200, blocks_path=parsed.blocks_path, table_text="grid"
    )
    for chunk in chunks:
        for table_id, rows in _tables(chunk["content"]):
            header = json.loads(headers.get(table_id) or "[]")
            assert rows[: len(header)] == header, table_id


def test_keyed_rows_repeat_nothing_and_keep_the_cap(parsed, cl100k_tokenizer) -> None:
    counter = TokenCounter(cl100k_tokenizer)
    chunks = chunking_by_paragraph_semantic(
        cl100k_tokenizer, "", 500, blocks_path=parsed.blocks_path, table_text="keyed"
    )
    assert all(c["tokens"] == counter.count(c["content"]) <= 500 for c in chunks)
    keyed_slices = [rows for c in chunks for _, rows in _tables(c["content"]) if rows]
    keyed_slices = [rows for rows in keyed_slices if isinstance(rows[0], dict)]
    assert keyed_slices and all(all(isinstance(r, dict) for r in rows) for rows in keyed_slices)
