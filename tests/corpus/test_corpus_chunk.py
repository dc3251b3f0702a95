"""The P chunker over every real-world document of ../shared/corpus, as parsed by LightRAG
1.5.7's own native parser, at N = 500, 1200 and 2000: no exception, invariants hold.

Files LightRAG's parser itself cannot parse (it crashes on some corpus files) are not ours
to chunk here; tests/corpus/test_corpus.py covers them with our parser.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lightrag_helpers import lightrag_native_blocks

from lightrag_pchunk.blockfile.jsonl import read_blocks
from lightrag_pchunk.integration.chunker import chunking_by_paragraph_semantic
from lightrag_pchunk.tokens import TokenCounter

from helpers import shared_dir
from invariants import check_output, compact_headers_of

SHARED = shared_dir()
CORPUS = SHARED / "corpus" / "docx" if SHARED else None
FILES = sorted(p.name for p in CORPUS.iterdir()) if CORPUS and CORPUS.is_dir() else []

pytestmark = pytest.mark.skipif(
    not FILES, reason="../shared/corpus/docx is absent: the real-world corpus tests are skipped"
)


def check_blocks_file(blocks: Path, tokenizer) -> None:
    """Chunk ``blocks`` at N = 500, 1200 and 2000 and check every invariant."""
    contents = [row.content for row in read_blocks(blocks).rows if row.content.strip()]
    counter = TokenCounter(tokenizer)
    compact = compact_headers_of(blocks, contents)
    for size in (500, 1200, 2000):
        rows = chunking_by_paragraph_semantic(
            tokenizer, "", size, blocks_path=blocks, chunk_overlap_token_size=100
        )
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


@pytest.fixture(scope="module")
def lightrag_parsed(tmp_path_factory) -> dict[str, Path]:
    """Blocks files LightRAG's native parser writes for the corpus (name -> path)."""
    return lightrag_native_blocks(
        [CORPUS / name for name in FILES], tmp_path_factory.mktemp("lightrag-corpus")
    )


@pytest.mark.parametrize("name", FILES)
def test_corpus_document_chunks_keep_every_invariant(
    name, lightrag_parsed, cl100k_tokenizer
) -> None:
    blocks = lightrag_parsed.get(name)
    if blocks is None:
        pytest.skip(f"LightRAG 1.5.7's native parser cannot parse {name}")
    check_blocks_file(blocks, cl100k_tokenizer)


@pytest.fixture(scope="module")
def our_parsed(tmp_path_factory) -> dict[str, Path]:
    """Blocks files our own parser writes for the corpus (refused files are absent)."""
    from lightrag_pchunk.errors import DocxParseError
    from lightrag_pchunk.parse.document import parse_docx

    out = tmp_path_factory.mktemp("our-corpus")
    parsed: dict[str, Path] = {}
    for name in FILES:
        try:
            parsed[name] = parse_docx(CORPUS / name, out).blocks_path
        except DocxParseError:
            continue
    return parsed


@pytest.mark.parametrize("name", FILES)
def test_corpus_document_parsed_by_us_chunks_keep_every_invariant(
    name, our_parsed, cl100k_tokenizer
) -> None:
    blocks = our_parsed.get(name)
    if blocks is None:
        pytest.skip(f"our parser refuses {name} (tests/corpus/test_corpus.py checks why)")
    check_blocks_file(blocks, cl100k_tokenizer)
