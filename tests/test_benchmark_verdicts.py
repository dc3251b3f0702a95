"""The benchmark's verdicts: the bounds of a median and how a target line is judged.

The speed targets of the P chunker are judged by ``benchmarks/bench_chunk.py``; these tests
pin the statistics it judges them with, not any timing.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from bench_chunk import Ratio, judge, median_bounds


def _below_at_most(n: int, k: int) -> float:
    """P(at most k of n draws fall below the median)."""
    return sum(math.comb(n, i) for i in range(k + 1)) / 2**n


@pytest.mark.parametrize("n", [7, 11, 21, 41, 63])
def test_median_bounds_are_the_widest_ranks_that_hold_95_percent(n: int) -> None:
    values = [float(i) for i in range(n)]  # value i is the (i+1)-th smallest
    low, high = median_bounds(values)
    rank = int(low) + 1
    assert high == n - rank  # symmetric: the rank-th largest
    # The bound is wrong only when fewer than `rank` draws fall below the median ...
    assert _below_at_most(n, rank - 1) <= 0.05 or rank == 1
    # ... and the next rank would be wrong more often than 5%.
    assert _below_at_most(n, rank) > 0.05


def test_median_bounds_of_21_and_7_runs() -> None:
    assert median_bounds([float(i) for i in range(21)]) == (6.0, 14.0)
    assert median_bounds([3.0, 1.0, 2.0, 7.0, 5.0, 4.0, 6.0]) == (1.0, 7.0)
    assert median_bounds([2.5]) == (2.5, 2.5)


def test_median_bounds_cover_the_true_median_about_95_percent_of_the_time() -> None:
    rng = random.Random(7)
    trials, misses_low, misses_high = 4000, 0, 0
    for _ in range(trials):
        low, high = median_bounds([rng.gauss(2.0, 0.1) for _ in range(21)])
        misses_low += low > 2.0
        misses_high += high < 2.0
    # Each side errs with probability 0.039 at n=21 (binomial); 4000 trials keep the
    # observed rate within about 0.01 of it.
    assert 0.025 < misses_low / trials < 0.055
    assert 0.025 < misses_high / trials < 0.055


@pytest.mark.parametrize(
    ("value", "limit", "at_least", "expected"),
    [
        (Ratio(1.95, 1.9, 1.90, 2.05), 2.0, False, "target met"),
        (Ratio(2.03, 2.1, 1.97, 2.09), 2.0, False, "target met within noise"),
        (Ratio(2.12, 2.1, 2.04, 2.20), 2.0, False, "TARGET MISSED"),
        (Ratio(3.40, 3.3, 3.10, 3.70), 3.0, True, "target met"),
        (Ratio(2.95, 3.1, 2.70, 3.05), 3.0, True, "target met within noise"),
        (Ratio(2.70, 2.6, 2.50, 2.90), 3.0, True, "TARGET MISSED"),
        (Ratio(None, None), 2.0, False, "TARGET MISSED"),
        (Ratio(2.0, 2.0, 1.9, 2.1), 2.0, False, "target met"),  # the limit itself meets it
    ],
)
def test_judge(value: Ratio, limit: float, at_least: bool, expected: str) -> None:
    assert judge(value, limit, at_least=at_least) == expected
