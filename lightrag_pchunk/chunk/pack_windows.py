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


def _common(a: tuple[str, ...] | None, b: tuple[str, ...] | None) -> tuple[str, ...] | None:
    if a is None or a == b:
        return b
    return a if b is None else common_path((a, b))


def _joined(a: Shape, b: Shape) -> Shape:
    """The shape of two runs together."""
    return (_common(a[0], b[0]), max(a[1], b[1]), _common(a[2], b[2]), max(a[3], b[3]))


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
    does: two pointers over a window of shapes, each block added and dropped once."""
    opens: list[int] = []
    shapes: list[Shape] = []
    window = _ShapeWindow()
    first = 0
    for final, path in enumerate(paths):
        depth = len(path)
        if not path:
            window.push(NO_SHAPE)
        elif loose[final]:
            window.push((path, depth, None, 0))
        else:
            window.push((path, depth, path, depth))
        shape = window.shape()
        while first <= final and (barriers[final] or not _keeps_together(shape)):
            window.drop()
            first += 1
            shape = window.shape()
        opens.append(first)
        shapes.append(shape)
    return opens, shapes


class _ShapeWindow:
    """The shape of a window of blocks, added at the back and dropped at the front, each in
    amortised constant time: two stacks, the front one holding the shape of each block
    with all behind it in that stack."""

    def __init__(self) -> None:
        self._front: list[Shape] = []
        self._back: list[Shape] = []
        self._back_shape = NO_SHAPE

    def push(self, shape: Shape) -> None:
        self._back.append(shape)
        self._back_shape = _joined(self._back_shape, shape)

    def drop(self) -> None:
        if not self._front:
            behind = NO_SHAPE
            for shape in reversed(self._back):
                behind = _joined(shape, behind)
                self._front.append(behind)
            self._back, self._back_shape = [], NO_SHAPE
        self._front.pop()

    def shape(self) -> Shape:
        return _joined(self._front[-1], self._back_shape) if self._front else self._back_shape


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
