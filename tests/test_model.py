"""Thresholds derived from N = chunk_token_size (spec §4; LightRAG facts §4.5)."""

from __future__ import annotations

import pytest

from lightrag_pchunk.model import MAX_ANCHOR_CANDIDATE_LENGTH, Thresholds


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (2000, (2000, 1500, 1250, 750, 400, 250)),
        (1200, (1200, 900, 750, 450, 240, 150)),
        (1000, (1000, 750, 625, 375, 200, 125)),
        (800, (800, 600, 500, 300, 160, 100)),
        (100, (100, 75, 62, 37, 19, 12)),
        (7, (7, 5, 4, 2, 1, 1)),
        (4, (4, 3, 2, 1, 1, 1)),
    ],
)
def test_thresholds_follow_the_spec_ratios_truncated(n, expected) -> None:
    th = Thresholds.from_chunk_size(n)
    assert (
        th.target_max,
        th.target_ideal,
        th.table_max,
        th.table_ideal,
        th.table_min_last,
        th.small_tail_threshold,
    ) == expected
    assert th.max_anchor_candidate_length == MAX_ANCHOR_CANDIDATE_LENGTH == 100


@pytest.mark.parametrize("bad", [0, -5, 1, 3, 1.5, "2000", True, None])
def test_a_size_that_is_not_an_integer_of_at_least_4_is_refused(bad) -> None:
    # Below 4 tokens one character may not fit any chunk (a CJK ideograph is 1-3 cl100k
    # tokens): the cap could not hold.
    with pytest.raises(ValueError, match="chunk_token_size"):
        Thresholds.from_chunk_size(bad)


@pytest.mark.parametrize("n", [8, 100, 1200, 2000, 8192])
def test_the_ratios_keep_their_order(n) -> None:
    th = Thresholds.from_chunk_size(n)
    assert th.table_ideal < th.table_max < th.target_ideal < th.target_max
    assert th.small_tail_threshold < th.target_ideal


def test_the_heading_limit_is_lightrags():
    """Every parser keeps a "heading" over LightRAG's limit as text; the parsers cannot import
    LightRAG, so this holds the one number in step when LightRAG changes it."""
    from lightrag.constants import MAX_HEADING_LENGTH as lightrags_limit

    from lightrag_pchunk.model import MAX_HEADING_LENGTH as ours

    assert ours == lightrags_limit
