"""Aggregate outcomes: Recall@k, MRR@10, recall within the budget, findable; cost figures;
differences from ours with bootstrap intervals over documents.

Questions of one document are not independent (one badly parsed file sinks all of them),
so the 95% interval of a difference resamples whole documents: each resample draws the
corpus's documents with replacement and recomputes both contenders' rates on the same draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median
from typing import Any

import numpy as np

from lightrag_pchunk.eval.scoring import Outcome

#: MRR is cut at this rank.
MRR_DEPTH = 10
#: Bootstrap resamples of the corpus's documents.
BOOTSTRAP_RESAMPLES = 2000


def metric_names(ks: Sequence[int]) -> list[str]:
    """The per-question metrics, in report order."""
    return [*(f"recall@{k}" for k in ks), f"mrr@{MRR_DEPTH}", "budget", "findable"]


def metric_matrix(outcomes: Sequence[Outcome], ks: Sequence[int]) -> np.ndarray:
    """One row per question, one column per :func:`metric_names` entry."""
    rows = [
        [
            *(1.0 if 0 < o.rank <= k else 0.0 for k in ks),
            1.0 / o.rank if 0 < o.rank <= MRR_DEPTH else 0.0,
            float(o.in_budget),
            float(o.findable),
        ]
        for o in outcomes
    ]
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), len(ks) + 3)


@dataclass(frozen=True, slots=True)
class Scores:
    """One contender's rates over a set of questions (None when there is no question)."""

    questions: int
    values: dict[str, float | None]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able, rates rounded to 4 decimals."""
        return {
            "questions": self.questions,
            **{k: None if v is None else round(v, 4) for k, v in self.values.items()},
        }


def scores(outcomes: Sequence[Outcome], ks: Sequence[int]) -> Scores:
    """The mean of each metric over ``outcomes``."""
    names = metric_names(ks)
    if not outcomes:
        return Scores(0, dict.fromkeys(names))
    means = metric_matrix(outcomes, ks).mean(axis=0)
    return Scores(len(outcomes), {n: float(v) for n, v in zip(names, means, strict=True)})


@dataclass(frozen=True, slots=True)
class Cost:
    """What a contender's chunks cost: chunks (= LLM extraction calls), tokens, fill."""

    chunks: int
    tokens: int
    median_fill: float | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able."""
        fill = None if self.median_fill is None else round(self.median_fill, 4)
        return {"chunks": self.chunks, "tokens": self.tokens, "median_fill": fill}


def cost(tokens: Sequence[int], size: int) -> Cost:
    """Chunks, total tokens and the median chunk's share of N."""
    return Cost(len(tokens), int(sum(tokens)), median(tokens) / size if tokens else None)


@dataclass(frozen=True, slots=True)
class Difference:
    """A contender's rate minus ours, with its 95% bootstrap interval over documents."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        """JSON-able, rounded to 4 decimals."""
        values = {"diff": self.value, "low": self.low, "high": self.high}
        return {k: round(v, 4) for k, v in values.items()}

    @property
    def is_clear(self) -> bool:
        """The interval excludes zero."""
        return self.low > 0 or self.high < 0


def differences(
    ours: np.ndarray,
    other: np.ndarray,
    documents: Sequence[int],
    names: Sequence[str],
    *,
    seed: int,
    resamples: int = BOOTSTRAP_RESAMPLES,
) -> dict[str, Difference]:
    """``other - ours`` per metric (rows: questions, as :func:`metric_matrix`), with
    percentile intervals from resampling the questions' documents."""
    if len(documents) == 0:
        return {}
    present, per_question = np.unique(np.asarray(documents), return_inverse=True)
    counts = np.bincount(per_question, minlength=len(present)).astype(np.float64)
    delta = np.zeros((len(present), len(names)))
    np.add.at(delta, per_question, other - ours)
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(len(present), np.full(len(present), 1 / len(present)), resamples)
    samples = (draws @ delta) / (draws @ counts)[:, None]
    point = delta.sum(axis=0) / counts.sum()
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    return {
        name: Difference(float(point[i]), float(low[i]), float(high[i]))
        for i, name in enumerate(names)
    }
