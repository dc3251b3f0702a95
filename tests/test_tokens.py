"""The counter never hands the tokenizer a piece larger than the count needs: with a ceiling
(P's chunk size), a text past :data:`WHOLE_CHARS` is counted by a prefix that shows it is
over the ceiling. A line of millions of letters without a space is one pre-token to tiktoken,
which takes about 60 bytes per character to encode (a 50 MB line: 2.4 GB, SIGABRT under a
2 GiB limit)."""

from __future__ import annotations

import json
import random
import string

from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.tokens import WHOLE_CHARS, TokenCounter

from invariants import assert_no_word_lost


class Recording:
    """A tokenizer that remembers the longest text it was handed."""

    def __init__(self, inner) -> None:
        self.inner, self.longest = inner, 0

    def encode(self, content: str) -> list[int]:
        self.longest = max(self.longest, len(content))
        return self.inner.encode(content)

    def decode(self, tokens: list[int]) -> str:
        return self.inner.decode(tokens)


def letters(n: int, seed: int = 7) -> str:
    return "".join(random.Random(seed).choices(string.ascii_letters, k=n))


def test_a_counter_with_a_ceiling_counts_a_huge_text_by_a_prefix(cl100k_tokenizer) -> None:
    tokenizer = Recording(cl100k_tokenizer)
    counter = TokenCounter(tokenizer, ceiling=1200)
    text = letters(2 * WHOLE_CHARS + 5)
    count = counter.count(text)
    assert tokenizer.longest == WHOLE_CHARS  # one prefix, never the whole
    exact = len(cl100k_tokenizer.encode(text))
    assert count > 1200 and abs(count - exact) < 0.02 * exact  # in proportion to length
    assert counter.count_many(["short", text]) == [counter.count("short"), count]


class Sparse:
    """A tokenizer of one token per 100,000 characters: its first MiB is under any cap."""

    def encode(self, content: str) -> list[int]:
        return [0] * -(-len(content) // 100_000)

    def decode(self, tokens: list[int]) -> str:
        return ""


def test_a_prefix_grows_until_it_passes_the_ceiling_and_counts_stay_exact_below() -> None:
    tokenizer = Recording(Sparse())
    text = "x" * 20_000_000
    estimate = -(-168 * len(text) // (16 * WHOLE_CHARS))  # 168 tokens in its first 16 MiB
    assert TokenCounter(tokenizer, ceiling=50).count(text) == estimate == 201
    assert tokenizer.longest == 16 * WHOLE_CHARS  # 1, 4, then 16 MiB
    assert TokenCounter(tokenizer, ceiling=500).count(text) == 200  # exact: never over
    assert TokenCounter(tokenizer).count(text) == 200  # no ceiling: exact


def test_a_line_of_millions_of_letters_is_chunked_without_encoding_it_whole(
    tmp_path, cl100k_tokenizer
) -> None:
    size, blob = 1200, letters(4_000_000)
    rows = [
        {"type": "meta", "format": "lightrag"},
        {"type": "content", "content": f"# Blob\n{blob}", "heading": "Blob", "level": 1},
    ]
    path = tmp_path / "blob.blocks.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")
    tokenizer = Recording(cl100k_tokenizer)
    chunks = chunking_by_paragraph_semantic(tokenizer, "", size, blocks_path=path)
    assert tokenizer.longest <= WHOLE_CHARS
    assert all(chunk["tokens"] <= size for chunk in chunks)
    contents = [chunk["content"] for chunk in chunks]
    assert all(content in rows[1]["content"] for content in contents)  # nothing made up
    assert rows[1]["content"].startswith(contents[0]) and blob.endswith(contents[-1])
    assert_no_word_lost([rows[1]["content"]], contents)
