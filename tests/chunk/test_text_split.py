"""The R splitter of one over-long text (chunk/text_split.py): pieces within the cap, nothing
lost, and linear work: every character is encoded about once, a huge text never whole."""

from __future__ import annotations

import itertools
import random
import re
import unicodedata

import pytest

from lightrag_pchunk.chunk.text_split import split_text
from lightrag_pchunk.tokens import TokenCounter

rng = random.Random(5)
BLOB = "".join(rng.choice("abcdefghij0123456789") for _ in range(300_000))  # no separator
WORDS = " ".join(rng.choice(["alpha", "beta", "gamma", "数据", "x1"]) for _ in range(60_000))
CJK = "".join(chr(0x4E00 + rng.randrange(3000)) for _ in range(60_000))


class RecordingTokenizer:
    """cl100k, remembering the longest text it was asked to encode."""

    def __init__(self, tokenizer) -> None:
        self.tokenizer = tokenizer
        self.longest = 0

    def encode(self, text: str) -> list[int]:
        self.longest = max(self.longest, len(text))
        return self.tokenizer.encode(text)

    def decode(self, ids: list[int]) -> str:
        return self.tokenizer.decode(ids)


def bare(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize(
    ("name", "text", "max_encoded"),
    [("blob", BLOB, 1.3), ("cjk", CJK, 1.3), ("words", WORDS, 1.3),
     ("lines", WORDS.replace(" gamma", "\n"), 2.5)],
)  # fmt: skip
def test_pieces_fit_lose_nothing_and_cost_one_pass(name, text, max_encoded, cl100k_tokenizer):
    tokenizer = RecordingTokenizer(cl100k_tokenizer)
    counter = TokenCounter(tokenizer)
    pieces = split_text(text, 500, counter, overlap=0)
    check = TokenCounter(cl100k_tokenizer)
    assert all(check.count(piece) <= 500 for piece in pieces)
    assert all(piece == piece.strip() for piece in pieces)
    assert bare("".join(pieces)) == bare(text)  # every character, in order
    assert counter.stats.encoded_chars <= max_encoded * len(text)  # was 4.1x for a blob
    assert tokenizer.longest <= 16 * 500  # never the whole text at once


def test_the_overlap_repeats_trailing_pieces_only(cl100k_tokenizer) -> None:
    counter = TokenCounter(cl100k_tokenizer)
    text = " ".join(f"word{i}" for i in range(3000))
    pieces = split_text(text, 200, counter, overlap=40)
    assert all(counter.count(piece) <= 200 for piece in pieces)
    for left, right in itertools.pairwise(pieces):
        shared = right.split()[0]
        assert shared in left.split()  # the next piece starts inside the previous one
    seen = [w for piece in pieces for w in piece.split()]
    assert sorted(set(seen), key=lambda w: int(w[4:])) == text.split()


def test_a_text_whose_seams_cost_more_than_its_cut_saves_is_cut_finer(cl100k_tokenizer) -> None:
    # Cut after "。", "中文。" and "'s中文。" count less than their join: there "。'" is one
    # run of punctuation and "s" a letter piece, where "'s" alone is one token. Re-cut one
    # token under the cap, the pieces pack back into the same text, over the cap again.
    counter = TokenCounter(cl100k_tokenizer)
    text = "中文。's" * 4
    assert counter.count(text) == 20
    pieces = split_text(text, 19, counter, overlap=0)
    assert all(counter.count(piece) <= 19 for piece in pieces)
    assert "".join(pieces) == text


def test_a_character_over_the_cap_stays_alone(chars) -> None:
    assert split_text("ab" * 3, 1, chars) == ["a", "b", "a", "b", "a", "b"]
    assert split_text("   ", 5, chars) == []


@pytest.mark.parametrize("text", [BLOB, CJK, "😀é" * 20_000], ids=["ascii", "cjk", "astral"])
def test_a_text_too_long_to_count_is_cut_by_utf8_length_uncounted(
    text, monkeypatch, cl100k_tokenizer
) -> None:
    from lightrag_pchunk.chunk import character_split

    monkeypatch.setattr(character_split, "_BYTE_BOUND_CHARS", 10_000)  # 4 MiB characters by default
    counter = TokenCounter(cl100k_tokenizer)
    pieces = split_text(text, 500, counter, overlap=50)
    assert "".join(pieces) == text
    assert all(len(piece.encode("utf-8")) <= 500 for piece in pieces)  # bytes bound tokens
    check = TokenCounter(cl100k_tokenizer)
    assert max(check.count(piece) for piece in pieces) <= 500
    # Encoded: the prefix that shows the text is over the cap, and the first piece (a check).
    assert counter.stats.encoded_chars <= 17 * 500


def test_a_tokenizer_that_breaks_the_byte_bound_gets_counted_pieces(monkeypatch, chars) -> None:
    from lightrag_pchunk.chunk import character_split

    class TwoPerCharacter:
        def encode(self, text: str) -> list[int]:
            return [0] * (2 * len(text))

        def decode(self, ids: list[int]) -> str:
            return ""

    monkeypatch.setattr(character_split, "_BYTE_BOUND_CHARS", 1_000)
    counter = TokenCounter(TwoPerCharacter())
    pieces = split_text("a" * 5_000, 100, counter)
    assert "".join(pieces) == "a" * 5_000 and max(map(len, pieces)) <= 50


@pytest.mark.parametrize(
    "text",
    ["n\u0303a\u0301" * 400, "क्षत्रिय" * 150, "ร้านค้าที่นี่" * 80, "e\u0301\u0323\u0304o" * 300],
    ids=["latin-decomposed", "devanagari", "thai", "stacked-marks"],
)
def test_a_character_cut_never_opens_a_piece_with_a_combining_mark(text, cl100k_tokenizer):
    # Text without spaces is cut on characters; a piece that opened with the accent or
    # vowel sign of the letter that closed the piece before would show it on no letter.
    for cap in (7, 16, 64):
        pieces = split_text(text, cap, TokenCounter(cl100k_tokenizer))
        assert "".join(pieces) == text
        assert not [p for p in pieces if unicodedata.category(p[0]).startswith("M")]
        assert max(TokenCounter(cl100k_tokenizer).count(p) for p in pieces) <= cap


def test_a_letter_with_more_marks_than_a_piece_holds_is_still_cut(chars) -> None:
    text = "a" + "\u0301" * 20 + "b"
    pieces = split_text(text, 8, chars)
    assert "".join(pieces) == text and max(map(len, pieces)) <= 8


# --- A first piece within the room left (first_cap) ---------------------------------------


def test_first_cap_bounds_the_first_piece_only(chars) -> None:
    text = " ".join(f"w{i:03d}" for i in range(60))  # 299 characters
    pieces = split_text(text, 100, chars, overlap=10, first_cap=42)
    # "w000 … w007" (eight words of five characters with their spaces; a ninth makes 45 >
    # 42), then pieces of at most 100 that start with up to 10 tokens of the one before.
    assert pieces[0] == " ".join(f"w{i:03d}" for i in range(8))
    assert all(len(piece) <= 100 for piece in pieces[1:])
    assert pieces[1].split()[:2] == ["w006", "w007"]  # the overlap: two words, not eight
    seen = [w for piece in pieces for w in piece.split()]
    assert list(dict.fromkeys(seen)) == text.split()


def test_first_cap_at_or_over_the_cap_changes_nothing(chars) -> None:
    text = " ".join(f"w{i:03d}" for i in range(60))
    plain = split_text(text, 100, chars, overlap=10)
    assert split_text(text, 100, chars, overlap=10, first_cap=100) == plain
    assert split_text(text, 100, chars, overlap=10, first_cap=500) == plain


def test_a_first_piece_never_repeats_whole_in_the_next(chars) -> None:
    text = " ".join(f"w{i:03d}" for i in range(60))
    pieces = split_text(text, 100, chars, overlap=50, first_cap=12)  # two words fit
    assert pieces[0] == "w000 w001"
    assert pieces[1].split()[0] == "w001"  # the first word is not repeated


def test_a_first_piece_ends_at_a_separator_never_inside_a_word(chars) -> None:
    text = "x" * 30 + " " + "y" * 30
    # Ten characters of "x…" would fill the room, but only by cutting the word: no room.
    assert split_text(text, 40, chars, first_cap=10) == split_text(text, 40, chars)
    assert split_text(text, 40, chars, first_cap=35) == ["x" * 30, "y" * 30]
