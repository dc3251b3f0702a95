"""Which retrieved chunks answer a question.

A chunk answers when its text (whitespace normalised) contains every piece of the
question's evidence. Within a token budget, the evidence may also be spread over chunks:
it counts as found when a run of consecutive chunks of one document, all retrieved within
the budget, holds it, each piece read in document order (a sentence cut at a chunk boundary,
a table row whose cells fell into two chunks).

The budget models what LightRAG puts in front of its LLM: the ``top_k`` best chunks,
kept in rank order while their tokens fit the budget (LightRAG keeps whole chunks only).
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: LightRAG's defaults for what a query may spend, read from the same variables.
_LIGHTRAG_LIMITS = {
    "MAX_TOTAL_TOKENS": 30000,
    "MAX_ENTITY_TOKENS": 6000,
    "MAX_RELATION_TOKENS": 8000,
    "CHUNK_TOP_K": 20,
}
#: Tokens of LightRAG's system prompt and the query, kept out of the chunks' budget.
PROMPT_ALLOWANCE = 2000


def _limit(env: Mapping[str, str], name: str) -> int:
    raw = env.get(name, "").strip()
    try:
        return int(raw) if raw else _LIGHTRAG_LIMITS[name]
    except ValueError:
        raise ValueError(f"{name} (env) must be an integer, got {raw!r}") from None


def default_budget(env: Mapping[str, str] | None = None) -> int:
    """The tokens of chunks LightRAG's mix query has room for with its settings:
    MAX_TOTAL_TOKENS - MAX_ENTITY_TOKENS - MAX_RELATION_TOKENS - 2000 (prompt and query);
    14000 with LightRAG's defaults."""
    env = os.environ if env is None else env
    room = (
        _limit(env, "MAX_TOTAL_TOKENS")
        - _limit(env, "MAX_ENTITY_TOKENS")
        - _limit(env, "MAX_RELATION_TOKENS")
        - PROMPT_ALLOWANCE
    )
    return max(room, 1)


def default_top_k(env: Mapping[str, str] | None = None) -> int:
    """How many chunks LightRAG retrieves before its budget cuts (CHUNK_TOP_K, 20)."""
    return max(_limit(os.environ if env is None else env, "CHUNK_TOP_K"), 1)


@dataclass(frozen=True, slots=True)
class CorpusChunks:
    """One contender's chunks of the whole corpus, in document order.

    ``texts`` are whitespace normalised; ``documents[i]`` is the index of chunk i's
    document, ``orders[i]`` its position within that document.
    """

    texts: tuple[str, ...]
    tokens: tuple[int, ...]
    documents: tuple[int, ...]
    orders: tuple[int, ...]

    def of_document(self, document: int) -> range:
        """The chunk indices of one document (they are contiguous)."""
        first = bisect_left(self.documents, document)
        return range(first, bisect_left(self.documents, document + 1))


def holds(text: str, evidence: Sequence[str]) -> bool:
    """Whether one chunk's text contains every piece of the evidence."""
    return all(piece in text for piece in evidence)


def first_answer(ranked: Sequence[int], chunks: CorpusChunks, evidence: Sequence[str]) -> int:
    """The 1-based rank of the first retrieved chunk that answers; 0 when none does."""
    for rank, index in enumerate(ranked, 1):
        if holds(chunks.texts[index], evidence):
            return rank
    return 0


def within_budget(
    ranked: Sequence[int], chunks: CorpusChunks, budget: int, top_k: int
) -> list[int]:
    """The retrieved chunks LightRAG would keep: the first of the ``top_k`` that fit."""
    kept: list[int] = []
    total = 0
    for index in ranked[:top_k]:
        total += chunks.tokens[index]
        if total > budget:
            break
        kept.append(index)
    return kept


def found_in(kept: Sequence[int], chunks: CorpusChunks, evidence: Sequence[str]) -> bool:
    """Whether the kept chunks hold the evidence, in one chunk or spread over a run."""
    if any(holds(chunks.texts[i], evidence) for i in kept):
        return True
    for run in _runs(kept, chunks):
        texts = [chunks.texts[i] for i in run]
        if all(_covered(piece, texts) for piece in evidence):
            return True
    return False


def _runs(kept: Sequence[int], chunks: CorpusChunks) -> list[list[int]]:
    """Maximal runs (of two chunks or more) of consecutive chunks of one document."""
    ordered = sorted(set(kept), key=lambda i: (chunks.documents[i], chunks.orders[i]))
    runs: list[list[int]] = []
    current: list[int] = []
    for index in ordered:
        if current and (
            chunks.documents[index] == chunks.documents[current[-1]]
            and chunks.orders[index] == chunks.orders[current[-1]] + 1
        ):
            current.append(index)
            continue
        if len(current) > 1:
            runs.append(current)
        current = [index]
    if len(current) > 1:
        runs.append(current)
    return runs


def _longest_prefix(needle: str, start: int, text: str) -> int:
    """The length of the longest prefix of ``needle[start:]`` found in ``text``."""
    lo, hi = 0, len(needle) - start
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if needle[start : start + mid] in text:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _covered(needle: str, texts: Sequence[str]) -> bool:
    """Whether ``needle`` reads through ``texts`` in order, piece by piece (each piece as
    long as possible, each from the same or a later chunk than the one before)."""
    position, first = 0, 0
    while position < len(needle):
        best, best_chunk = 0, first
        for index in range(first, len(texts)):
            length = _longest_prefix(needle, position, texts[index])
            if length > best:
                best, best_chunk = length, index
        if best == 0:
            return False
        position += best
        first = best_chunk
    return True


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one contender did on one question.

    ``rank``: 1-based rank of the first answering chunk among the retrieved ones (0: none);
    ``in_budget``: found within the budget (one chunk or spread); ``findable``: some chunk
    of the question's document holds the whole evidence at all.
    """

    rank: int
    in_budget: bool
    findable: bool


def score_question(
    ranked: Sequence[int],
    chunks: CorpusChunks,
    evidence: Sequence[str],
    document: int,
    *,
    budget: int,
    top_k: int,
) -> Outcome:
    """Score one question against one contender's ranking."""
    kept = within_budget(ranked, chunks, budget, top_k)
    return Outcome(
        rank=first_answer(ranked, chunks, evidence),
        in_budget=found_in(kept, chunks, evidence),
        findable=any(holds(chunks.texts[i], evidence) for i in chunks.of_document(document)),
    )
