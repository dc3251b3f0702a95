"""No silent loss on real documents: for every file of ../shared/corpus/docx, every word of
every content row of its blocks file appears in its chunks, as a multiset, at N = 2000, 1200
and 500 (the default fill, ``pack``, which groups most), and no chunk is over N. The blocks
file is read here on its own ("\\n"-separated JSON lines), not with the package's reader, so
a reader that loses rows would be caught too. "Word" is defined in lightrag_pchunk/chunk/coverage.py
(CJK characters one by one, JSON table cells decoded, runs too long to be words counted by
character)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lightrag_pchunk.blockfile.jsonl import read_blocks

from helpers import corpus_files
from invariants import assert_no_word_lost

FILES = [path.name for path in corpus_files("docx")]

pytestmark = pytest.mark.skipif(
    not FILES, reason="../shared/corpus/docx is absent: the real-world corpus tests are skipped"
)


def content_rows(blocks: Path) -> list[str]:
    """The content of every row with text, read as JSON lines split on "\\n" only."""
    with blocks.open(encoding="utf-8", newline="") as handle:
        lines = handle.read().split("\n")
    rows = [json.loads(line) for line in lines if line.strip()]
    return [r["content"] for r in rows if r.get("type") != "meta" and str(r.get("content", ""))]


@pytest.mark.parametrize("name", FILES)
def test_every_word_of_the_blocks_reaches_the_chunks(name, parsed_or_skip, corpus_chunks) -> None:
    blocks = parsed_or_skip(name).blocks_path
    contents = content_rows(blocks)
    assert [r.content for r in read_blocks(blocks).rows] == contents  # the reader agrees
    for size in (2000, 1200, 500):
        rows = corpus_chunks(name, size)
        assert_no_word_lost(contents, [row["content"] for row in rows], f"N={size}")
        assert all(row["tokens"] <= size for row in rows)
