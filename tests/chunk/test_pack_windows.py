"""The windows of stage D's pack search (chunk/pack_windows.py). :class:`LatestMinimum`
answers what a backward scan of the window answered (the least start cost, the latest of
equals) without reading the window at every end: over random values with many ties it
gives the scan's index, and stage D packs generated documents exactly as with the scan,
whose window start never moves back there. A run the search planned by estimate that goes
over the cap when joined starts anew."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lightrag_pchunk.chunk import merge_pack
from lightrag_pchunk.chunk.merge import merge
from lightrag_pchunk.chunk.pack_windows import LatestMinimum
from lightrag_pchunk.tokens import TokenCounter

from helpers import CharTokenizer, char_context, make_block


def scan_minimum(values: list[int], lowest: int, newest: int) -> int:
    """The plain scan: backwards from ``newest``, so the first least value met is the
    latest of equals."""
    return min(range(newest, lowest - 1, -1), key=values.__getitem__)


@settings(max_examples=400, deadline=None)
@given(
    values=st.lists(st.integers(0, 3), min_size=1, max_size=60),
    data=st.data(),
)
def test_latest_minimum_answers_as_the_backward_scan(values, data) -> None:
    queue = LatestMinimum(values)
    lowest = 0
    for newest in range(len(values)):
        queue.push(newest)
        # The window's start moves forwards by any step, or stays, never past the newest.
        lowest = data.draw(st.integers(lowest, newest))
        assert queue.latest_from(lowest) == scan_minimum(values, lowest, newest)


def test_the_latest_of_equal_values_wins() -> None:
    values = [1, 0, 2, 0, 0, 3]
    queue = LatestMinimum(values)
    for index in range(5):
        queue.push(index)
    assert queue.latest_from(0) == 4
    queue.push(5)
    assert queue.latest_from(2) == 4
    assert queue.latest_from(5) == 5


class _ScanMinimum:
    """:class:`LatestMinimum` as the scan it replaced, that also checks the queue's
    premise: the start of the window never moves back."""

    def __init__(self, values: list[int]) -> None:
        self._values, self._newest, self._lowest = values, -1, 0

    def push(self, index: int) -> None:
        assert index == self._newest + 1
        self._newest = index

    def latest_from(self, lowest: int) -> int:
        assert self._lowest <= lowest <= self._newest
        self._lowest = lowest
        return scan_minimum(self._values, lowest, self._newest)


@st.composite
def sections(draw):
    """Blocks of a small heading tree, of random sizes, some of them cut-able text."""
    ctx = char_context(120, fill="pack")
    blocks = []
    for index in range(draw(st.integers(1, 24))):
        depth = draw(st.integers(0, 3))
        parents = tuple(f"P{draw(st.integers(0, 2))}" for _ in range(depth))
        body = [
            f"{chr(97 + (index + i) % 26) * (size - 1)}."
            for i, size in enumerate(draw(st.lists(st.integers(2, 70), min_size=1, max_size=5)))
        ]
        heading = f"S{index}" if draw(st.integers(0, 5)) else ""
        text = "\n".join([f"## {heading}", *body] if heading else body)
        blocks.append(
            make_block(
                text,
                ctx.counter,
                heading=heading,
                parents=parents if heading else (),
                level=depth + 1,
                source_row=index,
            )
        )
    return ctx, blocks


@settings(max_examples=200, deadline=None)
@given(case=sections())
def test_pack_fill_packs_as_with_the_plain_scan(case) -> None:
    ctx, blocks = case
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(merge_pack, "LatestMinimum", _ScanMinimum)
        scanned = merge(blocks, ctx)
    assert merge(blocks, ctx) == scanned


class _SeamTokenizer(CharTokenizer):
    """One token per character, and one more where a sentence ends before a blank line: a
    joined text counts more than its parts and joiners, as no estimate expects."""

    def encode(self, content: str) -> list[int]:
        return super().encode(content) + [0] * content.count(".\n\n")


def test_a_planned_run_over_the_cap_after_all_starts_anew_with_its_own_identity() -> None:
    # Each seam costs a token the plan did not count: runs the plan fills to the cap go over
    # it, and the block that starts anew is named by its own first section.
    ctx = replace(char_context(40, fill="pack"), counter=TokenCounter(_SeamTokenizer()))
    blocks = [
        make_block(f"{chr(97 + i)}.", ctx.counter, heading=f"S{i}", parents=("Doc",),
                   level=2, source_row=i)
        for i in range(10)
    ]  # fmt: skip
    packed = merge(blocks, ctx)
    assert all(ctx.counter.count(block.content) <= 40 for block in packed)
    # Every block holds sections in order and is named from its own first one.
    assert [b.source_row for b in packed] == [int(b.block_ids[0][1:]) for b in packed]
    assert [i for b in packed for i in b.block_ids] == [f"b{i}" for i in range(10)]
