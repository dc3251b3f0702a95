"""The retrievers (``eval/retrieval.py``) and the aggregation (``eval/metrics.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from lightrag_pchunk.eval.metrics import cost, differences, metric_matrix, metric_names, scores
from lightrag_pchunk.eval.retrieval import (
    Bm25Retriever,
    Embedder,
    EmbeddingRetriever,
    lexical_terms,
)
from lightrag_pchunk.eval.scoring import Outcome


def test_terms_are_words_without_stop_words_and_cjk_bigrams() -> None:
    assert lexical_terms("The Pump of P-101, 35 m3/h") == ["pump", "p", "101", "35", "m3", "h"]
    assert lexical_terms("核电厂 safety 质量") == ["核电", "电厂", "safety", "质量"]
    assert lexical_terms("阀") == ["阀"]


def test_bm25_ranks_the_chunk_that_shares_the_query_words_first() -> None:
    texts = [
        "pump maintenance schedule and lubrication",
        "valve seat leakage test at rated pressure",
        "valve actuator wiring",
        "核电厂质量保证体系",
    ]
    retriever = Bm25Retriever(texts)
    ranked = retriever.rank_all(["valve seat leakage", "质量保证", "nothing matches"], 10)
    assert ranked[0][0] == 1 and set(ranked[0]) == {1, 2}
    assert ranked[1] == [3]
    assert ranked[2] == []


def test_bm25_breaks_ties_by_position() -> None:
    retriever = Bm25Retriever(["same words here", "other", "same words here"])
    assert retriever.rank_all(["same words"], 5) == [[0, 2]]
    assert Bm25Retriever([]).rank_all(["x"], 5) == [[]]


def test_embedding_retriever_accepts_an_async_embedding_function() -> None:
    vocabulary = ["pump", "valve", "seal"]

    async def embed(texts: list[str]) -> np.ndarray:
        return np.array([[t.count(w) for w in vocabulary] for t in texts], dtype=float)

    embedder = Embedder(embed, batch=2)
    try:
        retriever = EmbeddingRetriever(["pump pump", "valve", "seal seal valve"], embedder)
        assert retriever.rank_all(["valve", "seal"], 2) == [[1, 2], [2, 0]]
    finally:
        embedder.close()


def test_rates_per_metric() -> None:
    outcomes = [Outcome(1, True, True), Outcome(3, True, True), Outcome(0, False, False)]
    result = scores(outcomes, (1, 3)).values
    assert result["recall@1"] == pytest.approx(1 / 3)
    assert result["recall@3"] == pytest.approx(2 / 3)
    assert result["mrr@10"] == pytest.approx((1 + 1 / 3) / 3)
    assert result["budget"] == pytest.approx(2 / 3)
    assert scores([], (1,)).values["recall@1"] is None
    spend = cost([100, 600, 1200], 1200)
    assert (spend.chunks, spend.tokens, spend.median_fill) == (3, 1900, 0.5)


def test_bootstrap_interval_is_zero_for_equal_contenders_and_deterministic() -> None:
    rng = np.random.default_rng(0)
    outcomes = [Outcome(int(r), bool(r), True) for r in rng.integers(0, 4, 60)]
    names = metric_names((1, 3))
    matrix = metric_matrix(outcomes, (1, 3))
    documents = [i // 6 for i in range(60)]
    same = differences(matrix, matrix, documents, names, seed=1)
    assert all((d.value, d.low, d.high) == (0, 0, 0) for d in same.values())
    worse = matrix.copy()
    worse[:54, 0] = 0  # nine documents of ten lose their rank-1 hits
    first = differences(matrix, worse, documents, names, seed=1)
    assert first == differences(matrix, worse, documents, names, seed=1)
    d = first["recall@1"]
    assert d.value == pytest.approx(-(matrix[:54, 0].sum()) / 60)
    assert d.low <= d.value <= d.high <= 0 and d.is_clear
