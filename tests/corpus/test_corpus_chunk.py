"""The P chunker over every real-world document of ../shared/corpus/docx at N = 500, 1200
and 2000, as parsed by our parser and by LightRAG 1.5.7's own native parser: no exception,
invariants hold.

Files LightRAG's parser itself cannot parse (it crashes on some corpus files) are not ours
to chunk here; tests/corpus/test_corpus.py covers them with our parser.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lightrag_pchunk.blockfile.jsonl import read_blocks
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.tokens import TokenCounter

from helpers import corpus_files
from invariants import check_output, compact_headers_of

FILES = [path.name for path in corpus_files("docx")]
SIZES = (500, 1200, 2000)

pytestmark = pytest.mark.skipif(
    not FILES, reason="../shared/corpus/docx is absent: the real-world corpus tests are skipped"
)


def check_chunks(blocks: Path, chunks_at: Callable[[int], list[dict]], tokenizer) -> None:
    """The chunks of ``blocks`` at N = 500, 1200 and 2000 keep every invariant."""
    contents = [row.content for row in read_blocks(blocks).rows if row.content.strip()]
    counter = TokenCounter(tokenizer)
    compact = compact_headers_of(blocks, contents)
    for size in SIZES:
        rows = chunks_at(size)
        check_output(
            contents,
            [r["content"] for r in rows],
            counter=counter,
            cap=size,
            tokens=[r["tokens"] for r in rows],
            compact_headers=compact,
        )
        assert [r["chunk_order_index"] for r in rows] == list(range(len(rows)))
        assert all("sidecar" in r and r["heading"]["level"] >= 1 for r in rows)


@pytest.mark.parametrize("name", FILES)
def test_corpus_document_chunks_keep_every_invariant(
    name, lightrag_parses, cl100k_tokenizer
) -> None:
    blocks = lightrag_parses.get(name)
    if blocks is None:
        pytest.skip(f"LightRAG 1.5.7's native parser cannot parse {name}")

    def chunks_at(size: int) -> list[dict]:
        return chunking_by_paragraph_semantic(
            cl100k_tokenizer, "", size, blocks_path=blocks, chunk_overlap_token_size=100
        )

    check_chunks(blocks, chunks_at, cl100k_tokenizer)


@pytest.mark.parametrize("name", FILES)
def test_corpus_document_parsed_by_us_chunks_keep_every_invariant(
    name, parsed_or_skip, corpus_chunks, cl100k_tokenizer
) -> None:
    blocks = parsed_or_skip(name).blocks_path
    check_chunks(blocks, lambda size: corpus_chunks(name, size), cl100k_tokenizer)
