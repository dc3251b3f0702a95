"""Token counting: the only place that calls ``tokenizer.encode`` / ``tokenizer.decode``.

Tokenization is the whole cost of chunking, so every piece of text is counted once and
the count travels with the object that holds the text (``Paragraph.tokens``,
``Block.tokens``). Short strings that recur (joiners, headings, table wrappers) are
cached by value. ``TokenCounter.stats`` feeds the benchmarks.

The tokenizer is never handed a piece larger than the count needs. A counter made with a
``ceiling`` (P's chunk size: no stage needs to know more than whether a text passes it)
encodes a text whole only up to :data:`WHOLE_CHARS` characters (or 16 per token of the
ceiling, if more); a longer one is counted by its first characters, and when those pass the
ceiling its count is an estimate above it, in proportion to its length. A 50 MB line
without spaces is one pre-token to tiktoken, which takes about 60 bytes of memory per
character to encode it: 3 GB, where its first MiB shows it is over any chunk.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Protocol

import numpy as np

from lightrag_pchunk.token_seams import (
    SeamRule,
    encode_array,
    seam_rule_for,
    tiktoken_encoding_of,
    token_byte_lengths,
)

#: Strings up to this many characters are cached by value; longer ones are counted once
#: by whoever makes them and the count is stored on the object.
_CACHEABLE_CHARS = 64
_CACHE_ENTRIES = 8192

#: What :meth:`TokenCounter.count_many` joins texts with (newlines only: token_seams), and
#: how many characters it encodes at once at most (bounds its token arrays).
_BATCH_JOINER = "\n\n"
_BATCH_CHARS = 4_000_000
#: Fewer texts than this are encoded one by one: a batch's fixed cost (its token arrays)
#: outweighs the calls it saves (a sentence's parts cost 1.5x as much batched).
_MIN_BATCH = 16
#: With a ceiling, a text up to this many characters is encoded whole (exact counts plan
#: table slices and anchor cuts); beyond it, a prefix decides (module doc). The longest
#: line of the corpora has 316,401 characters.
WHOLE_CHARS = 1 << 20
#: Characters per token no text exceeds in practice (long runs of one symbol aside).
_CHARS_PER_TOKEN_BOUND = 16
#: Tokens a prefix may have gained by cutting a token in two.
_PREFIX_MARGIN = 1


class TokenizerLike(Protocol):
    """What we need of LightRAG's ``Tokenizer`` (or any tokenizer): encode and decode."""

    def encode(self, content: str) -> list[int]: ...

    def decode(self, tokens: list[int]) -> str: ...


#: Where the tokens of a counted text start, as one encode of it found them: their UTF-8
#: byte offsets from the text's start, in order (an array: no objects for the garbage
#: collector to scan). The tokens of a final run of punctuation that took the newlines after
#: it in a batch (:meth:`TokenCounter.count_many`) are left out, as they are not the text's
#: own; only letters follow a cut that the seam rule decides, so none lies in that run.
TokenStarts = np.ndarray


@dataclass(slots=True)
class CounterStats:
    """How much tokenizer work a counter did (benchmarks report these)."""

    encode_calls: int = 0
    encoded_chars: int = 0
    decode_calls: int = 0


class TokenCounter:
    """Counts tokens with a caller's tokenizer; never mutates it.

    Safe to share between threads: the cache is a plain dict whose single-key reads and
    writes are atomic, and a lost statistics increment only affects the benchmark figures.
    """

    def __init__(self, tokenizer: TokenizerLike, *, ceiling: int | None = None) -> None:
        """``ceiling``: counts above it need not be exact (module doc); None: all are."""
        if not callable(getattr(tokenizer, "encode", None)):
            raise TypeError(f"tokenizer must have an encode() method, got {tokenizer!r}")
        self._tokenizer = tokenizer
        self.ceiling = ceiling
        self._whole_chars = (
            None if ceiling is None else max(WHOLE_CHARS, _CHARS_PER_TOKEN_BOUND * ceiling)
        )
        self._cache: dict[str, int] = {}
        self._lock = threading.Lock()
        encoding = tiktoken_encoding_of(tokenizer)
        self._seams: SeamRule | None = seam_rule_for(encoding)
        # Many texts are counted with one encode only when the seams are known.
        self._batch_encoding: Any | None = encoding if self._seams is not None else None
        self._seam_costs: dict[tuple[str, str], int] = {}
        self.stats = CounterStats()

    @property
    def tokenizer(self) -> TokenizerLike:
        """The wrapped tokenizer (for handing to LightRAG functions such as R)."""
        return self._tokenizer

    def encode(self, text: str) -> list[int]:
        """Encode ``text``; with :meth:`_length`, the only call of ``tokenizer.encode``."""
        if not text:
            return []
        self.stats.encode_calls += 1
        self.stats.encoded_chars += len(text)
        return list(self._tokenizer.encode(text))

    def _length(self, text: str) -> int:
        # Counting needs no copy of the ids (encode() returns a fresh list).
        self.stats.encode_calls += 1
        self.stats.encoded_chars += len(text)
        return len(self._tokenizer.encode(text))

    def decode(self, tokens: Sequence[int]) -> str:
        """Decode ``tokens`` back to text."""
        if not tokens:
            return ""
        self.stats.decode_calls += 1
        return self._tokenizer.decode(list(tokens))

    def count(self, text: str) -> int:
        """Exact token count of ``text`` (above the ceiling, an estimate above it: module
        doc); short strings are cached by value."""
        if not text:
            return 0
        if len(text) > _CACHEABLE_CHARS:
            if self._whole_chars is not None and len(text) > self._whole_chars:
                return self._count_over(text, self._whole_chars)
            return self._length(text)
        cached = self._cache.get(text)
        if cached is not None:
            return cached
        value = self._length(text)
        self._remember(text, value)
        return value

    def _count_over(self, text: str, prefix: int) -> int:
        """The count of a text longer than the counter encodes whole: from the shortest of
        its prefixes (growing fourfold) that passes the ceiling, an estimate above the
        ceiling in proportion to its length; exact when no prefix does."""
        assert self.ceiling is not None
        while prefix < len(text):
            tokens = self._length(text[:prefix])
            if tokens > self.ceiling + _PREFIX_MARGIN:
                return max(self.ceiling + 1, -(-tokens * len(text) // prefix))
            prefix *= 4
        return self._length(text)

    def _remember(self, text: str, value: int) -> None:
        """Cache the count of a short text (the cache starts over when full)."""
        if len(self._cache) >= _CACHE_ENTRIES:
            with self._lock:
                self._cache.clear()
        self._cache[text] = value

    def count_many(
        self, texts: Sequence[str], starts: dict[int, TokenStarts] | None = None
    ) -> list[int]:
        """Exact counts of ``texts``, as :meth:`count` gives them, with one encode in all
        when the tokenizer's seams are known and they are :data:`_MIN_BATCH` or more.
        ``starts`` receives, by index, where the tokens start of each text counted in the
        batch that is over the counter's ceiling (one that may be cut: its pieces are
        counted from them, ``chunk/piece_counts.py``).

        The texts are joined with ``"\\n\\n"`` and encoded once; each text's count is the
        number of tokens that start inside it, found from the tokens' byte lengths. By the
        seam rule (:mod:`lightrag_pchunk.token_seams`) only a run of punctuation ending a text
        can share a piece with the newlines after it: that run's own count replaces the
        tokens of the shared piece. A text whose seam with the next is undecided is counted
        on its own. Many small texts cost about as much as one encode of their total, where
        one call each pays a fixed cost per call; a short text already counted is taken
        from the cache, the others are cached once counted.
        """
        rule = self._seams  # set only with a batch encoding
        if rule is None or len(texts) < _MIN_BATCH:
            return [self.count(text) for text in texts]
        counts = [0] * len(texts)
        members: list[int] = []  # indexes of texts joined into the batch, in order
        pieces: list[str] = []  # each member's piece that takes the next joiner
        for index, text in enumerate(texts):
            if not text:
                continue  # nothing to count
            if self._whole_chars is not None and len(text) > self._whole_chars:
                counts[index] = self.count(text)  # by a prefix, not in the batch
                continue
            if len(text) <= _CACHEABLE_CHARS and (cached := self._cache.get(text)) is not None:
                counts[index] = cached
                continue
            if members:
                piece = rule.joiner_piece(texts[members[-1]], text)
                if piece is None:
                    counts[index] = self.count(text)
                    continue
                pieces.append(piece)
            members.append(index)
        pieces.append("")  # the last member: nothing follows it
        # Groups of bounded size keep the token arrays small for a huge document.
        group: list[int] = []
        group_chars = 0
        for slot, index in enumerate(members):
            group.append(slot)
            group_chars += len(texts[index])
            if group_chars >= _BATCH_CHARS or slot == len(members) - 1:
                self._count_group(texts, members, pieces, group, counts, starts)
                group, group_chars = [], 0
        for index in members:
            if len(texts[index]) <= _CACHEABLE_CHARS:
                self._remember(texts[index], counts[index])
        return counts

    def _count_group(
        self,
        texts: Sequence[str],
        members: Sequence[int],
        pieces: Sequence[str],
        group: Sequence[int],
        counts: list[int],
        starts: dict[int, TokenStarts] | None,
    ) -> None:
        """Count ``texts[members[slot]]`` for every slot of ``group`` (consecutive slots)
        with one encode of their joined text, into ``counts`` (and ``starts``)."""
        chosen = [texts[members[slot]] for slot in group]
        # The group's last text has no joiner after it here, so it keeps its whole count.
        ends = [pieces[slot] for slot in group[:-1]] + [""]
        bounds = np.empty(2 * len(chosen), dtype=np.int64)
        offset = 0
        try:
            for position, (text, piece) in enumerate(zip(chosen, ends, strict=True)):
                end = offset + (len(text) if text.isascii() else len(text.encode("utf-8")))
                bounds[2 * position] = offset
                bounds[2 * position + 1] = end - len(piece.encode("utf-8"))
                offset = end + len(_BATCH_JOINER)
        except UnicodeEncodeError:  # lone surrogates: byte offsets would not line up
            for slot, text in zip(group, chosen, strict=True):
                counts[members[slot]] = self.count(text)
            return
        joined = _BATCH_JOINER.join(chosen)
        self.stats.encode_calls += 1
        self.stats.encoded_chars += len(joined)
        encoding = self._batch_encoding
        ids = encode_array(encoding, joined)
        lengths = token_byte_lengths(encoding)[ids]
        offsets = np.cumsum(lengths) - lengths  # byte offset where each token starts
        found = np.searchsorted(offsets, bounds).tolist()
        ceiling = self.ceiling if self.ceiling is not None else 0
        for position, (slot, piece) in enumerate(zip(group, ends, strict=True)):
            first, stop = found[2 * position], found[2 * position + 1]
            counts[members[slot]] = stop - first + self.count(piece)
            if starts is not None and counts[members[slot]] > ceiling:
                starts[members[slot]] = offsets[first:stop] - bounds[2 * position]

    def joined_count(
        self, left: str, left_tokens: int, joiner: str, right: str, right_tokens: int
    ) -> int | None:
        """Exact count of ``left + joiner + right`` from the exact counts of ``left`` and
        ``right``, without encoding them again, or None when it cannot be derived.

        Derived only for a joiner of newlines and a tokenizer whose pre-tokenizer is known
        (tiktoken cl100k/o200k, :mod:`lightrag_pchunk.token_seams`); ``left`` may be just
        the tail of the left text (its last block), as only its end is looked at.
        """
        rule = self._seams
        if rule is None or not left or not right or not joiner or joiner.strip("\n"):
            return None
        piece = rule.joiner_piece(left, right)
        if piece is None:
            return None
        key = (piece, joiner)
        cost = self._seam_costs.get(key)
        if cost is None:
            # What the joiner adds: its own tokens, or what it adds to the piece it joins.
            cost = self.count(piece + joiner) - self.count(piece)
            if len(self._seam_costs) < _CACHE_ENTRIES:
                self._seam_costs[key] = cost
        return left_tokens + cost + right_tokens

    def join_counts(
        self, texts: Sequence[str], counts: Sequence[int], joiner: str
    ) -> tuple[int, bool]:
        """Count of ``joiner.join(texts)`` from the parts' exact counts, and whether it is
        exact: derived seam by seam when every seam allows, else :meth:`estimate`. Only the
        end of a text is looked at for its seam, so ``texts[0]`` with ``counts[0]`` may stand
        for a longer text ending in it (a run of blocks and its total).
        A negative count (a line not counted yet) makes the result an estimate."""
        if not texts:
            return 0, True
        if min(counts) < 0:
            return self.estimate(counts, joiner), False
        total = counts[0]
        for index in range(1, len(texts)):
            joined = self.joined_count(texts[index - 1], total, joiner, texts[index], counts[index])
            if joined is None:
                return self.estimate(counts, joiner), False
            total = joined
        return total, True

    def space_seam_cost(self, left: str, right: str) -> int | None:
        """What ``left + right`` counts beyond ``left`` and ``right`` where the final space
        of ``left`` joins the first letters of ``right`` (``SeamRule.word_after_space``)."""
        word = self._seams.word_after_space(left, right) if self._seams else None
        return None if word is None else self.count(" " + word) - self.count(word) - self.count(" ")

    def count_without_final_space(self, text: str, tokens: int) -> int | None:
        """Exact count of ``text[:-1]`` from that of ``text`` ending in a space piece, or None."""
        rule = self._seams
        return tokens - self.count(" ") if rule and rule.ends_in_one_space(text) else None

    def joins_exactly(self, texts: Sequence[str], joiner: str) -> bool:
        """Whether :meth:`join_counts` derives the count of ``joiner.join(texts)`` exactly
        from exact counts of ``texts``: every seam allows it (known from the texts alone)."""
        rule = self._seams
        if rule is None or not joiner or joiner.strip("\n"):
            return len(texts) < 2
        return all(
            left and right and rule.joiner_piece(left, right) is not None
            for left, right in pairwise(texts)
        )

    def estimate(self, counts: Iterable[int], joiner: str = "\n") -> int:
        """Estimated count of pieces joined with ``joiner``: their counts plus one joiner each gap.

        BPE merges across a joiner usually make the real count a little smaller; the
        caller verifies with :meth:`count` before committing anything near a cap (§9.5).
        """
        total = 0
        pieces = 0
        for value in counts:
            total += value
            pieces += 1
        if pieces > 1:
            total += self.count(joiner) * (pieces - 1)
        return total
