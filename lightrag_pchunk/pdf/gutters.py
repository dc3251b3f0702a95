"""Stage A for PDF: the gutters between a page's columns of prose.

Input: a page's segments. Output: :class:`Gutter` s, left to right (none for a page of one
column, a table or a slide of short points): vertical strips that the page's prose
(segments of a sentence's length, and a title's lines set large beside it: a slide's side
title, ``column_text``) does not cross, with prose on both sides, found from the prose's
coverage of x; 2- and 3-column pages get one or two. Full-width paragraphs above or below
the columns may cross a gutter; where they are as long as the columns (a paper's first
page: its title, authors and abstract over the introduction's two columns), the columns
under them, the page's block of text split in two, show it alone. ``layout`` reads the
page's lines in columns between them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lightrag_pchunk.pdf.column_text import column_text
from lightrag_pchunk.pdf.segments import Segment

#: Narrowest gutter between two columns, in points.
MIN_GUTTER = 4.0
#: A gutter may be crossed by this share of the prose that covers the columns beside it
#: (full-width paragraphs above or below the columns).
GUTTER_CROSSINGS = 0.4
#: A strip crossed by up to this share of it is a gutter where the lines crossing it stand
#: apart, all above the columns or all below them.
SPANNED_CROSSINGS = 0.75
#: ... and the columns under (or over) them reach the edges of those lines within this
#: share of their width.
BAND_EDGE = 0.02
#: ... each column holding this many lines of prose.
MIN_BAND_COLUMN_PROSE = 8
#: Prose segments each side of a gutter needs, in lines of prose (a title's large line
#: weighs more: ``column_text``) ...
MIN_COLUMN_PROSE = 3
#: ... and in segments: one large line alone (a cover's logo) is no column.
MIN_COLUMN_LINES = 2


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie, interpolated between the two
    nearest (numpy's default; numpy's own call costs more than a page's few hundred)."""
    ordered = sorted(values)
    position = share * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True, slots=True)
class Gutter:
    """The empty strip between two columns, from ``x0`` to ``x1``; ``text_end``: where the
    prose of the column on its left ends (inside the strip when that column's lines are
    ragged: the strip is where little prose lies, not none)."""

    x0: float
    x1: float
    text_end: float

    @property
    def middle(self) -> float:
        return (self.x0 + self.x1) / 2


def crosses(segment: Segment, gutter: Gutter) -> bool:
    """Whether a segment runs across a gutter, not merely into it (a leader line or a
    number may reach into the strip)."""
    return segment.x0 < gutter.x0 and segment.x1 > gutter.x1


def find_gutters(segments: Sequence[Segment]) -> list[Gutter]:
    """The gutters between columns of prose, left to right (see the module doc)."""
    prose, weights = column_text(segments)
    gutters, dips = _gutters(prose, weights)
    if gutters:
        return gutters
    # A page whose columns stand under a full-width part as long as they are (a paper's
    # first page: its title, authors and abstract over the introduction's two columns):
    # the part's lines cross the gutter as often as the columns' lines fill it. Below
    # (or above) the last line crossing it, the columns alone show their gutter.
    for x0, x1 in dips:
        crossing = [s for s in prose if s.x0 < x0 and s.x1 > x1]
        for kept in _beside_spanning_band(prose, crossing):
            part, part_weights = [prose[i] for i in kept], [weights[i] for i in kept]
            found, _ = _gutters(part, part_weights)
            if found and _text_block_split(part, part_weights, crossing, found):
                return found
    return []


def _text_block_split(
    columns: Sequence[Segment],
    weights: Sequence[float],
    band: Sequence[Segment],
    gutters: Sequence[Gutter],
) -> bool:
    """Whether the columns (their prose, weighed in lines: ``weights``) are the page's
    block of text split at ``gutters``, as the ``band`` of lines crossing them is set: they
    reach from its left edge to its right one, and each column holds a column's text, not
    a box's, a table's or a formula's few lines beside another's."""
    tolerance = BAND_EDGE * (max(s.x1 for s in band) - min(s.x0 for s in band))
    if abs(min(s.x0 for s in columns) - min(s.x0 for s in band)) > tolerance:
        return False
    if abs(max(s.x1 for s in columns) - max(s.x1 for s in band)) > tolerance:
        return False
    edges = [-math.inf, *(g.middle for g in gutters), math.inf]
    return all(
        sum(w for s, w in zip(columns, weights, strict=True) if a <= s.x0 and s.x1 <= b)
        >= MIN_BAND_COLUMN_PROSE
        for a, b in itertools.pairwise(edges)
    )


def _gutters(
    prose: Sequence[Segment], weights: Sequence[float]
) -> tuple[list[Gutter], list[tuple[float, float]]]:
    """The gutters of ``prose``, and where none is found, the strips its lines cross
    less than the columns beside fill them (x from, to)."""
    if len(prose) < 2 * MIN_COLUMN_PROSE:
        return [], []
    left = min(s.x0 for s in prose)
    right = max(s.x1 for s in prose)
    width = int(right - left) + 2
    if width <= 0 or width > 20_000:
        return [], []
    coverage = np.zeros(width)
    for segment, weight in zip(prose, weights, strict=True):
        # A difference array: the weight added where a segment starts, taken off after it.
        coverage[int(segment.x0 - left)] += weight
        coverage[int(segment.x1 - left) + 1] -= weight
    coverage = np.cumsum(coverage)
    crowd = percentile(coverage[coverage > 0].tolist(), 0.75) if coverage.any() else 0.0
    sparse = coverage <= GUTTER_CROSSINGS * crowd
    gutters: list[Gutter] = []
    for start, end in _strips(sparse):
        gutter = _inner_gutter(prose, weights, left, width, start, end, gutters)
        if gutter is None:
            # A column of few lines beside fuller ones is sparse throughout (a slide's
            # third box of short points, a column under a figure): the emptiest strip
            # before it is still a gutter, crossed only by what crosses the whole sparse
            # strip (a running header).
            strip = coverage[start:end]
            for inner_start, inner_end in _strips(strip <= strip.min()):
                inner = (start + inner_start, start + inner_end)
                gutter = _inner_gutter(prose, weights, left, width, *inner, gutters)
                if gutter is not None:
                    break
        if gutter is not None:
            gutters.append(gutter)
    if gutters:
        return gutters, []
    dips = _strips(coverage <= SPANNED_CROSSINGS * crowd)
    return [], [
        (left + start, left + end)
        for start, end in dips
        if end - start >= MIN_GUTTER and start > 0 and end < width - 1
    ]


def _beside_spanning_band(prose: Sequence[Segment], crossing: Sequence[Segment]) -> list[list[int]]:
    """Which of ``prose`` stand below the lines ``crossing`` a strip, and which above."""
    if not crossing:
        return []
    top, bottom = min(s.top for s in crossing), max(s.bottom for s in crossing)
    below = [i for i, s in enumerate(prose) if s.top >= bottom]
    above = [i for i, s in enumerate(prose) if s.bottom <= top]
    return [part for part in (below, above) if len(part) >= 2 * MIN_COLUMN_PROSE]


def _strips(flags: np.ndarray) -> list[tuple[int, int]]:
    """The runs of true ``flags``, each as its start and end (exclusive)."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], flags.astype(np.int8), [0]))))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


def _inner_gutter(
    prose: Sequence[Segment],
    weights: Sequence[float],
    left: float,
    width: int,
    start: int,
    end: int,
    gutters: Sequence[Gutter],
) -> Gutter | None:
    """The gutter over the strip ``start``..``end`` of x (from ``left``, of ``width``), or
    None when it is too narrow or touches the prose's edge (:func:`_gutter`)."""
    if end - start < MIN_GUTTER or start <= 0 or end >= width - 1:
        return None
    return _gutter(prose, weights, left + start, left + end, gutters)


def _gutter(
    prose: Sequence[Segment],
    weights: Sequence[float],
    x0: float,
    x1: float,
    gutters: Sequence[Gutter],
) -> Gutter | None:
    """The gutter from ``x0`` to ``x1``, with where the prose on its left ends, or None
    unless enough prose lies on each side of it, between it and the gutter found before it
    (a column needs prose of its own), counted in lines of prose (``weights``)."""
    previous = gutters[-1].middle if gutters else -1e9
    lines = list(zip(prose, weights, strict=True))
    left = [(s.x1, w) for s, w in lines if previous <= s.x0 and s.x1 <= x1]
    right = [w for s, w in lines if s.x0 >= x0]
    for side in ([w for _, w in left], right):
        if len(side) < MIN_COLUMN_LINES or sum(side) < MIN_COLUMN_PROSE:
            return None
    return Gutter(x0, x1, min(max(max(end for end, _ in left), x0), x1))
