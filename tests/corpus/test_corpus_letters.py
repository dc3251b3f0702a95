"""No chunk without text (issue 15): over every file of ../shared/corpus/docx and
../shared/corpus/md at N = 500 and 1200, a chunk with fewer than 12 letters outside markup
is only one that no chunker could fill, the way ``benchmarks/bench_tables.py`` judges it:
the whole of a document without letters, or mostly a piece of a stretch of the document
without a letter that is longer than N tokens (it must be cut somewhere).

Before stage C lent a paragraph's last sentences, the Russian press review
``poi__drawing-media-monitoring-ru.docx`` had, at N=500, a 358-token chunk of news-agency
logos alone: the paragraph before them was 97 tokens, too long to move whole."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from lightrag_pchunk.chunk.paragraph_pack import MIN_LETTERS, letters
from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.integration.chunker import chunking_by_paragraph_semantic
from lightrag_pchunk.markdown.document import parse_markdown
from lightrag_pchunk.parse.document import parse_docx

from helpers import shared_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bench_tables import in_letterless_stretch, letterless_stretches

SHARED = shared_dir()
CORPUS = SHARED / "corpus" if SHARED else None
FILES = (
    sorted(
        [p for p in (CORPUS / "docx").glob("*.docx")]
        + [p for p in (CORPUS / "md").glob("*.md") if p.name != "README.md"]
    )
    if CORPUS and CORPUS.is_dir()
    else []
)

pytestmark = pytest.mark.skipif(
    not FILES, reason="../shared/corpus is absent: the real-world corpus tests are skipped"
)

_MARKUP = re.compile(r"<[^>]*>")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_corpus_every_chunk_that_could_hold_text_does(path, tmp_path, cl100k_tokenizer) -> None:
    parse = parse_markdown if path.suffix == ".md" else parse_docx
    try:
        parsed = parse(path, tmp_path)
    except DocumentParseError:
        return  # refused files are covered by test_corpus.py
    text = parsed.content
    for size in (500, 1200):
        chunks = [
            chunk["content"]
            for chunk in chunking_by_paragraph_semantic(
                cl100k_tokenizer, text, size, blocks_path=parsed.blocks_path
            )
        ]
        if len(chunks) < 2 or letters(text) < MIN_LETTERS:
            continue  # a document without text is one chunk without text
        stretches = letterless_stretches(text, size, cl100k_tokenizer.encode)
        for index, content in enumerate(chunks):
            if sum(ch.isalpha() for ch in _MARKUP.sub("", content)) >= MIN_LETTERS:
                continue
            assert in_letterless_stretch(content, stretches), (
                f"{path.name} N={size}: chunk {index} has no text: {content[:200]!r}"
            )
