"""Retrievers over one contender's chunks of the whole corpus (one index per contender).

``bm25``: BM25 (Lucene's variant, k1 = 1.5, b = 0.75) from ``bm25s``, a maintained,
numpy-only library (``rank-bm25`` has had no release since 2022). Terms: lower-cased words
of Latin, Cyrillic and other spaced scripts without English stop words, and overlapping
character bigrams of Chinese, Japanese and Korean runs (the Lucene CJK analyser's
approach: no dictionary, no model). ``embedding``: cosine similarity under the LightRAG
instance's own ``embedding_func``. Both rank ties by chunk position, so a run is
deterministic.
"""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

BM25, EMBEDDING = "bm25", "embedding"
RETRIEVERS = (BM25, EMBEDDING)

_CJK_CLASS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TERMS = re.compile(rf"[{_CJK_CLASS}]+|[^\W_{_CJK_CLASS}]+")
_CJK_RUN = re.compile(rf"[{_CJK_CLASS}]")
#: Texts embedded per call of the embedding function.
EMBED_BATCH = 32


def _stop_words() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN)


_STOP_WORDS = _stop_words()


def lexical_terms(text: str) -> list[str]:
    """The BM25 terms of ``text``: words, and character bigrams inside CJK runs."""
    terms: list[str] = []
    for match in _TERMS.finditer(text.lower()):
        run = match.group()
        if _CJK_RUN.match(run):
            terms.extend(run[i : i + 2] for i in range(max(len(run) - 1, 1)))
        elif run not in _STOP_WORDS:
            terms.append(run)
    return terms


def _ranked(scores: np.ndarray, depth: int, *, positive_only: bool) -> list[int]:
    """Indices of the ``depth`` best scores, ties broken by index."""
    candidates = np.flatnonzero(scores > 0) if positive_only else np.arange(len(scores))
    if len(candidates) == 0:
        return []
    order = np.lexsort((candidates, -scores[candidates]))
    return [int(i) for i in candidates[order[:depth]]]


class Bm25Retriever:
    """BM25 over chunk texts; a chunk sharing no term with the query is not retrieved."""

    def __init__(self, texts: Sequence[str]) -> None:
        import bm25s

        self._model: Any = None
        if texts:
            self._model = bm25s.BM25()
            self._model.index([lexical_terms(t) for t in texts], show_progress=False)

    def rank_all(self, queries: Sequence[str], depth: int) -> list[list[int]]:
        """The ``depth`` best chunks for each query, best first."""
        return [self._rank(query, depth) for query in queries]

    def _rank(self, query: str, depth: int) -> list[int]:
        if self._model is None:
            return []
        ids = self._model.get_tokens_ids(lexical_terms(query))
        if not ids:
            return []
        return _ranked(self._model.get_scores_from_ids(ids), depth, positive_only=True)


#: Embeds a batch of texts; LightRAG's ``EmbeddingFunc`` (async) or any plain function.
EmbedFunction = Callable[[list[str]], Any]


class Embedder:
    """Calls an embedding function (sync or async) in batches, on one private event loop.

    LightRAG's wrapped embedding functions bind their workers to the first loop that calls
    them, so every call of one evaluation goes through the same loop.
    """

    def __init__(self, func: EmbedFunction, batch: int = EMBED_BATCH) -> None:
        self._func = func
        self._batch = batch
        self._loop: asyncio.AbstractEventLoop | None = None

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        parts: list[np.ndarray] = []
        for start in range(0, len(texts), self._batch):
            result = self._func(list(texts[start : start + self._batch]))
            if inspect.isawaitable(result):
                if self._loop is None:
                    self._loop = asyncio.new_event_loop()
                result = self._loop.run_until_complete(result)
            parts.append(np.asarray(result, dtype=np.float32).reshape(-1, np.shape(result)[-1]))
        if not parts:
            return np.zeros((0, 1), dtype=np.float32)
        vectors = np.concatenate(parts)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)

    def close(self) -> None:
        """Stop what the embedding function left running (LightRAG's queue workers) and
        close the private event loop, if one was needed."""
        if self._loop is None:
            return
        loop, self._loop = self._loop, None
        pending = asyncio.all_tasks(loop)
        for task in pending:
            task.cancel()

        async def drain() -> None:
            await asyncio.gather(*pending, return_exceptions=True)
            await loop.shutdown_asyncgens()

        loop.run_until_complete(drain())
        loop.close()


class EmbeddingRetriever:
    """Cosine similarity between the query's vector and every chunk's."""

    def __init__(self, texts: Sequence[str], embed: Embedder) -> None:
        self._embed = embed
        self._vectors = embed(texts)

    def rank_all(self, queries: Sequence[str], depth: int) -> list[list[int]]:
        """The ``depth`` most similar chunks for each query, best first."""
        if len(self._vectors) == 0:
            return [[] for _ in queries]
        query_vectors = self._embed(queries)
        return [_ranked(self._vectors @ q, depth, positive_only=False) for q in query_vectors]
