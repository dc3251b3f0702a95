"""No silent loss on real documents: for every file of ../shared/corpus/docx, every word of
every content row of its blocks file appears in its chunks, as a multiset, at N = 2000, 1200
and 500, and with ``CHUNK_P_FILL=pack`` at 1200 and 500 (within N). The blocks file is read
here on its own ("\\n"-separated JSON lines), not with the package's reader, so a reader
that loses rows would be caught too. "Word" is defined in lightrag_pchunk/chunk/coverage.py
(CJK characters one by one, JSON table cells decoded, runs too long to be words counted by
character)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from lightrag_pchunk.blockfile.jsonl import read_blocks
from lightrag_pchunk.chunk.coverage import lost_words
from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.integration.chunker import chunking_by_paragraph_semantic
from lightrag_pchunk.parse.document import parse_docx

from helpers import shared_dir

SHARED = shared_dir()
CORPUS = SHARED / "corpus" / "docx" if SHARED else None
WORD_SUFFIXES = {".docx", ".docm", ".dotx", ".dotm"}
FILES = sorted(p.name for p in CORPUS.iterdir() if p.suffix in WORD_SUFFIXES) if CORPUS else []

pytestmark = pytest.mark.skipif(
    not FILES, reason="../shared/corpus/docx is absent: the real-world corpus tests are skipped"
)


@pytest.fixture(scope="module")
def parsed(tmp_path_factory) -> dict[str, Path]:
    """Blocks files our parser writes for the corpus (refused files are absent)."""
    out = tmp_path_factory.mktemp("corpus-words")
    found: dict[str, Path] = {}
    logging.getLogger("lightrag.pchunk").disabled = True
    try:
        for name in FILES:
            try:
                found[name] = parse_docx(CORPUS / name, out).blocks_path
            except DocxParseError:
                continue
    finally:
        logging.getLogger("lightrag.pchunk").disabled = False
    return found


def content_rows(blocks: Path) -> list[str]:
    """The content of every row with text, read as JSON lines split on "\\n" only."""
    with blocks.open(encoding="utf-8", newline="") as handle:
        lines = handle.read().split("\n")
    rows = [json.loads(line) for line in lines if line.strip()]
    return [r["content"] for r in rows if r.get("type") != "meta" and str(r.get("content", ""))]


@pytest.mark.parametrize("name", FILES)
def test_every_word_of_the_blocks_reaches_the_chunks(name, parsed, cl100k_tokenizer) -> None:
    blocks = parsed.get(name)
    if blocks is None:
        pytest.skip(f"our parser refuses {name} (tests/corpus/test_corpus.py checks why)")
    contents = content_rows(blocks)
    assert [r.content for r in read_blocks(blocks).rows] == contents  # the reader agrees
    for size in (2000, 1200, 500):
        rows = chunking_by_paragraph_semantic(
            cl100k_tokenizer, "", size, blocks_path=blocks, chunk_overlap_token_size=100
        )
        shortfall = lost_words(contents, [row["content"] for row in rows])
        assert not shortfall, f"N={size}: {shortfall.describe()}"
    for size in (1200, 500):  # the fill that groups most: nothing lost, nothing over N
        rows = chunking_by_paragraph_semantic(
            cl100k_tokenizer, "", size, blocks_path=blocks, chunk_overlap_token_size=100,
            fill="pack",
        )  # fmt: skip
        shortfall = lost_words(contents, [row["content"] for row in rows])
        assert not shortfall, f"N={size}, fill=pack: {shortfall.describe()}"
        assert all(row["tokens"] <= size for row in rows)
