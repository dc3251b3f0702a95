"""Stage C's packing over every long section of ../shared/corpus/docx at N = 500 and 1200: never
more pieces than greedy packing by paragraph (R pieces full), none over the cap, no word
lost, and no piece without text (fewer than 12 letters outside tags) where the piece before
it could have lent paragraphs, or a paragraph's last sentences, within the cap and kept text
of its own."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

import pytest

from lightrag_pchunk.chunk.anchor_split import split_without_anchors
from lightrag_pchunk.chunk.blocks import counted, exceeds, joiner_for
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.paragraph_pack import MIN_LETTERS, letters
from lightrag_pchunk.chunk.pipeline import STAGES, to_blocks
from lightrag_pchunk.chunk.text_split import split_text
from lightrag_pchunk.model import Block, Paragraph
from lightrag_pchunk.tokens import TokenCounter

from helpers import corpus_files

FILES = [path.name for path in corpus_files("docx")]

pytestmark = pytest.mark.skipif(
    not FILES, reason="../shared/corpus/docx is absent: the real-world corpus tests are skipped"
)

OVERLAP = 100
_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"[。！？]|[.!?] ")


def greedy_pieces(block: Block, ctx: Context) -> int:
    """How many pieces greedy packing by paragraph makes, an over-long paragraph cut by R
    into full pieces that never share one (stage C before issue 15's change)."""
    cap, counter = ctx.thresholds.target_max, ctx.counter
    sizes: list[tuple[int, int]] = []  # (tokens, R split or -1)
    for index, paragraph in enumerate(block.paragraphs):
        lines = paragraph.text.split("\n") if paragraph.tokens > cap else [paragraph.text]
        for line in lines:
            tokens = counter.count(line) if len(lines) > 1 else paragraph.tokens
            if tokens <= cap:
                sizes.append((tokens, -1))
                continue
            pieces = split_text(line, cap, counter, overlap=OVERLAP)
            sizes += [(counter.count(piece), index) for piece in pieces]
    joiner = counter.count(joiner_for(p.text for p in block.paragraphs))
    groups, total, last = 0, 0, None
    for tokens, split in sizes:
        if groups and total + joiner + tokens <= cap and not (split >= 0 and split == last):
            total += joiner + tokens
        else:
            groups, total = groups + 1, tokens
        last = split
    return groups


def could_have_lent(
    before: Block, short: Block, cap: int, joiner: int, counter: TokenCounter
) -> bool:
    """Whether ``before`` could give ``short`` its last paragraphs, or those that fit and
    the last sentences of the one before them, for text within ``cap`` and keep text of
    its own."""
    lent: list[Paragraph] = []  # the last paragraphs of ``before``, last first
    tokens = short.tokens
    for paragraph in reversed(before.paragraphs):
        if tokens + joiner + paragraph.tokens > cap or paragraph is before.paragraphs[0]:
            kept = before.paragraphs[: len(before.paragraphs) - len(lent) - 1]
            return could_lend_sentences(paragraph, kept, tokens, cap, joiner, counter)
        lent.append(paragraph)
        tokens += paragraph.tokens + joiner
        joined = "\n".join([*(p.text for p in reversed(lent)), short.content])
        if letters(joined) >= MIN_LETTERS:
            kept = before.paragraphs[: len(before.paragraphs) - len(lent)]
            return letters("\n".join(p.text for p in kept)) >= MIN_LETTERS
    return False


def could_lend_sentences(
    paragraph: Paragraph,
    kept: list[Paragraph],
    tokens: int,
    cap: int,
    joiner: int,
    counter: TokenCounter,
) -> bool:
    """Whether a tail of whole sentences of ``paragraph`` (outside tags) holds text and fits
    ``cap`` with ``tokens``, its head and ``kept`` keeping text."""
    if paragraph.is_table or "</table>" in paragraph.text:
        return False
    for match in _SENTENCE_END.finditer(paragraph.text):
        head, tail = paragraph.text[: match.end()], paragraph.text[match.end() :].strip()
        if head.count("<") > head.count(">") or letters(tail) < MIN_LETTERS:
            continue
        if tokens + joiner + counter.count(tail) <= cap:
            return letters("\n".join([*(p.text for p in kept), head])) >= MIN_LETTERS
    return False


@pytest.mark.parametrize("name", FILES)
def test_corpus_long_sections_pack_into_as_few_pieces_with_text(
    name, corpus_parses, cl100k_tokenizer
):
    parsed = corpus_parses[name].parsed
    if parsed is None:
        return  # refused files are covered by test_corpus.py
    counter = TokenCounter(cl100k_tokenizer)
    for size in (500, 1200):
        ctx = Context.create(counter, size, OVERLAP)
        blocks = to_blocks(parsed.rows, ctx)
        for _, stage in STAGES[:2]:  # tables sliced and bridged: stage C's input
            blocks = stage(blocks, ctx)
        for block in blocks:
            over, block = exceeds(block, size, counter)
            if not over:
                continue
            block = counted(block, counter)
            pieces = split_without_anchors(block, ctx)
            where = f"{name} N={size} row {block.source_row}"
            assert len(pieces) <= greedy_pieces(block, ctx), where
            assert all(p.tokens <= size or p.oversize for p in pieces), where
            missing = Counter(_WORD.findall(block.content)) - Counter(
                _WORD.findall("\n".join(p.content for p in pieces))
            )
            assert not missing, f"{where}: lost {list(missing)[:5]}"
            own = {p.text for p in block.paragraphs}
            joiner = counter.count(joiner_for(p.text for p in block.paragraphs))
            for before, piece in pairwise(pieces):
                if letters(piece.content) >= MIN_LETTERS or piece.paragraphs[0].text not in own:
                    continue  # text, or a piece of an R split that the cut inside it binds
                assert not could_have_lent(before, piece, size, joiner, counter), where
