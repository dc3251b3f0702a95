"""No chunk without text: over every file of ../shared/corpus/docx and ../shared/corpus/md
at N = 500 and 1200, a chunk with fewer than 12 letters outside markup is only one that no
chunker could fill: the whole of a document without letters, or mostly a piece of a stretch
of the document without a letter that is longer than N tokens (it must be cut somewhere).

Before stage C lent a paragraph's last sentences, the Russian press review
``poi__drawing-media-monitoring-ru.docx`` had, at N=500, a 358-token chunk of news-agency
logos alone: the paragraph before them was 97 tokens, too long to move whole."""

from __future__ import annotations

import re

import pytest

from lightrag_pchunk.chunk.paragraph_pack import MIN_LETTERS, letters

from helpers import corpus_files

FILES = [path.name for path in [*corpus_files("docx"), *corpus_files("md")]]

pytestmark = pytest.mark.skipif(
    not FILES, reason="../shared/corpus is absent: the real-world corpus tests are skipped"
)

_MARKUP = re.compile(r"<[^>]*>")


def _letterless_spans(text: str, longer_than: int = 0) -> list[tuple[int, int]]:
    """``(start, end)`` of the runs of ``text`` between two letters outside markup that are
    longer than ``longer_than`` characters."""
    # Tags blanked to the same length, so positions stay those of ``text``.
    masked = _MARKUP.sub(lambda m: " " * len(m.group()), text)
    spans, start = [], 0
    for position, character in enumerate(masked):
        if character.isalpha():
            if position - start > longer_than:
                spans.append((start, position))
            start = position + 1
    if len(text) - start > longer_than:
        spans.append((start, len(text)))
    return spans


def letterless_stretches(text: str, size: int, encode) -> list[str]:
    """The stretches of ``text`` without a letter outside markup that are longer than
    ``size`` tokens, whitespace collapsed: runs of tags or numbers more than a chunk long
    (a layout table of pictures, a paragraph of section-number mappings)."""
    # A token spans at least one character: a stretch of ``size`` characters is within it.
    return [
        " ".join(text[start:end].split())
        for start, end in _letterless_spans(text, size)
        if len(encode(text[start:end])) > size
    ]


def in_letterless_stretch(content: str, stretches: list[str]) -> bool:
    """Whether most of a chunk is one piece of such a stretch: a stretch over N tokens must
    be cut, and its pieces carry letters only where its ends meet text that fits beside
    them (or by copying text), so no chunker could give every chunk there 12 letters."""
    spans = _letterless_spans(content) if stretches else []
    if not spans:
        return False
    start, end = max(spans, key=lambda span: span[1] - span[0])
    piece = " ".join(content[start:end].split())
    return 2 * (end - start) >= len(content) and any(piece in s for s in stretches)


@pytest.mark.parametrize("name", FILES)
def test_corpus_every_chunk_that_could_hold_text_does(
    name, corpus_parses, corpus_chunks, cl100k_tokenizer
) -> None:
    parsed = corpus_parses[name].parsed
    if parsed is None:
        return  # refused files are covered by test_corpus.py
    text = parsed.content
    for size in (500, 1200):
        chunks = [chunk["content"] for chunk in corpus_chunks(name, size)]
        if len(chunks) < 2 or letters(text) < MIN_LETTERS:
            continue  # a document without text is one chunk without text
        stretches = letterless_stretches(text, size, cl100k_tokenizer.encode)
        for index, content in enumerate(chunks):
            if sum(ch.isalpha() for ch in _MARKUP.sub("", content)) >= MIN_LETTERS:
                continue
            assert in_letterless_stretch(content, stretches), (
                f"{name} N={size}: chunk {index} has no text: {content[:200]!r}"
            )
