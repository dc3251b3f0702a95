"""The windows stage D's ``pack`` search slides over the blocks (``chunk/merge_pack.py``):
per block, where a run ending there may start by the structure rules (:func:`open_runs`,
with the shape of that run) and by the role gates and the search window
(:func:`lowest_firsts`); per place, the cheapest start among those a run may take
(:class:`LatestMinimum`)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from lightrag_pchunk.chunk.blocks import common_path
from lightrag_pchunk.chunk.runs import MAX_FILL_DEPTH

#: Blocks a packed run may hold at most: bounds the search on a document of thousands of
#: one-line sections (such a run is cut after this many blocks, still within the cap).
PACK_WINDOW = 256


#: The shape of a run, what the structure rules read (see :func:`_keeps_together`): the
#: common heading path of its titled blocks and their deepest path length, the same for
#: its titled blocks that are not loose leaves (None: the run has no such block).
Shape = tuple[tuple[str, ...] | None, int, tuple[str, ...] | None, int]
NO_SHAPE: Shape = (None, 0, None, 0)


def _keeps_together(shape: Shape) -> bool:
    """Whether a run of this shape passes the structure rules from any of its blocks: the
    sections its rules measure lie within two levels of their common parent inside one
    chapter, or it has none. A part of such a run has such a shape too."""
    every, deepest_all, top, deepest = shape
    shared, depth = (top, deepest) if every else (every, deepest_all)
    return shared is None or (bool(shared) and depth - len(shared) <= MAX_FILL_DEPTH)


def open_runs(
    paths: Sequence[tuple[str, ...]], loose: Sequence[bool], barriers: Sequence[bool]
) -> tuple[list[int], list[Shape]]:
    """Per block F: the first block f of the longest run f..F that keeps together with no
    barrier (a title, a table of contents) in it, and that run's shape; f = F + 1 when F
    is a barrier. Every part f'..F of it keeps together too, so f only moves forwards as F
    does: two pointers over the window f..F, each block added and left behind once."""
    opens: list[int] = []
    shapes: list[Shape] = []
    titled, kept = _PathWindow(paths), _PathWindow(paths)  # kept: titled, not loose leaves
    first = 0
    for final, path in enumerate(paths):
        if path:
            titled.add(final)
            if not loose[final]:
                kept.add(final)
        shape = (*titled.shape_from(first), *kept.shape_from(first))
        while first <= final and (barriers[final] or not _keeps_together(shape)):
            first += 1
            shape = (*titled.shape_from(first), *kept.shape_from(first))
        opens.append(first)
        shapes.append(shape)
    return opens, shapes


class _PathWindow:
    """The common heading path and the deepest path length of the blocks added (in order)
    from a first block that never moves back. The common path of paths in order is the
    first one cut to the least length any two neighbours share, so each path's length and
    the length it shares with the path added before it are found once, and kept in
    monotonic queues: adding a block and moving the first one on cost constant time,
    amortised."""

    def __init__(self, paths: Sequence[tuple[str, ...]]) -> None:
        self._paths = paths
        self._members: deque[int] = deque()  # the blocks added, from the first on
        self._shared: deque[tuple[int, int]] = deque()  # (block, length shared), rising
        self._depths: deque[tuple[int, int]] = deque()  # (block, path length), falling
        self._last = -1  # the block added last, left behind or not

    def add(self, index: int) -> None:
        path = self._paths[index]
        if self._last >= 0:
            shared = len(common_path((self._paths[self._last], path)))
            while self._shared and self._shared[-1][1] >= shared:
                self._shared.pop()
            self._shared.append((index, shared))
        while self._depths and self._depths[-1][1] <= len(path):
            self._depths.pop()
        self._depths.append((index, len(path)))
        self._members.append(index)
        self._last = index

    def shape_from(self, first: int) -> tuple[tuple[str, ...] | None, int]:
        """The common path and the deepest length of the blocks added from block ``first``
        on (None and 0: none)."""
        while self._members and self._members[0] < first:
            self._members.popleft()
        if not self._members:
            return None, 0
        front = self._members[0]
        # The length the front block shares with the one before it is not the window's.
        while self._shared and self._shared[0][0] <= front:
            self._shared.popleft()
        while self._depths[0][0] < front:
            self._depths.popleft()
        path = self._paths[front]
        length = min(len(path), self._shared[0][1]) if self._shared else len(path)
        return path[:length], self._depths[0][1]


def lowest_firsts(links: Sequence[bool]) -> list[int]:
    """Per block F: the earliest block a run ending at F may start at by the role gates
    (none in between refuses the block after it) and the search window."""
    lowest: list[int] = []
    after_gate = 0
    for final in range(len(links) + 1):
        lowest.append(max(after_gate, final - PACK_WINDOW + 1))
        if final < len(links) and not links[final]:
            after_gate = final + 1
    return lowest


class LatestMinimum:
    """The index of the least of ``values[lowest:]`` among the indexes pushed (in order), the
    latest of equals, for a ``lowest`` that never moves back: a monotonic queue, each index
    pushed and dropped once, where a scan of the window would read it at every end."""

    def __init__(self, values: Sequence[int]) -> None:
        self._values = values
        self._queue: deque[int] = deque()  # values strictly rising from the front

    def push(self, index: int) -> None:
        while self._queue and self._values[self._queue[-1]] >= self._values[index]:
            self._queue.pop()
        self._queue.append(index)

    def latest_from(self, lowest: int) -> int:
        while self._queue[0] < lowest:
            self._queue.popleft()
        return self._queue[0]
