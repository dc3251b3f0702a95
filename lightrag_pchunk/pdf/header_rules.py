"""Stage A for PDF: what a page's rules tell a table shown by its text's alignment.

Input: the page's rules in its reading frame and the rows of a run of text that may be a
table. Output: the free-standing horizontal rules (no vertical rule meets them: underlines,
not a box's edges), whether one underlines the run's header, whether two rows are enough
for a table there, and how far up its header's titles reach.

A table style may draw no rule but its header's underline: under it, two rows of cells are
a table (three are needed where nothing but alignment shows one), when each holds a cell in
every column, in print of one size (a heading over a footer's line is no table; the font's
size, not the glyphs' boxes: PDFium boxes a dash lower than a letter) and not
in a monospaced font (code aligned in columns between rules). Under an underlined header,
lines that follow one another at a line's spacing just above it, each over one column's
text at most, are its titles' upper lines (titles set at the header's foot).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

import numpy as np

from lightrag_pchunk.pdf.cell_wraps import row_gap
from lightrag_pchunk.pdf.grids import ONE_LINE, TOLERANCE
from lightrag_pchunk.pdf.segments import Segment

#: Characters whose advances differ by at most this share are one monospaced font's.
MONOSPACE_SLACK = 0.02
#: A header title's lines follow one another within this many line heights.
HEADER_LINE_GAP = 0.5


def free_rules(rules: np.ndarray | None) -> np.ndarray:
    """The horizontal rules among ``rules`` (frame rows ``x0, top, x1, bottom``) that no
    vertical rule meets: underlines, not the edges of a box (a code listing's frame)."""
    if rules is None or not len(rules):
        return np.zeros((0, 4))
    flat = rules[:, 3] - rules[:, 1] < 1.0
    horizontal, vertical = rules[flat & (rules[:, 2] - rules[:, 0] >= 1.0)], rules[~flat]
    meets = (
        (vertical[None, :, 0] >= horizontal[:, None, 0] - TOLERANCE)
        & (vertical[None, :, 0] <= horizontal[:, None, 2] + TOLERANCE)
        & (vertical[None, :, 1] <= horizontal[:, None, 1] + TOLERANCE)
        & (vertical[None, :, 3] >= horizontal[:, None, 1] - TOLERANCE)
    )
    return horizontal[~meets.any(axis=1)]


def joined_rules(rules: np.ndarray) -> np.ndarray:
    """Horizontal ``rules`` with the pieces that meet end to end (within
    ``grids.TOLERANCE``) on one height (within a point) joined into one: a rule a table
    style draws in pieces, one under each column."""
    heights: list[list[list[float]]] = []  # the pieces at each height, top down
    for piece in sorted(rules.tolist(), key=lambda r: r[1]):
        if heights and piece[1] - heights[-1][0][1] < 1.0:
            heights[-1].append(piece)
        else:
            heights.append([piece])
    joined: list[list[float]] = []
    for pieces in heights:
        start = len(joined)  # each height's pieces left to right, joined among themselves
        for x0, top, x1, bottom in sorted(pieces):
            if len(joined) > start and x0 <= joined[-1][2] + TOLERANCE:
                joined[-1][2] = max(joined[-1][2], x1)
            else:
                joined.append([x0, top, x1, bottom])
    return np.array(joined).reshape(-1, 4)


def is_underlined(rows: Sequence[Sequence[Segment]], lines: np.ndarray) -> bool:
    """Whether a horizontal rule runs across the whole width of the run ``rows`` just
    above its first row (within a line's height) or under it, above the second: a
    header's underline, the rule a table style draws under its titles."""
    if len(rows) < 2 or not len(lines):
        return False
    left = min(s.x0 for row in rows for s in row)
    right = max(s.x1 for row in rows for s in row)
    first = min(s.top for s in rows[0])
    height = max(s.height for s in rows[0])
    second = min(s.top for s in rows[1])
    across = (lines[:, 0] <= left + TOLERANCE) & (lines[:, 2] >= right - TOLERANCE)
    placed = (lines[:, 1] >= first - height) & (lines[:, 1] <= second)
    return bool((across & placed).any())


def alike_rows(rows: Sequence[Sequence[Segment]], columns: Sequence[tuple[float, float]]) -> bool:
    """Whether each of ``rows`` holds a cell in every one of ``columns``, in print of one
    size (a heading over a footer's line is no table's two rows; a row of dashes under
    titles is) and not in a monospaced font (code aligned in columns)."""
    sizes = [statistics.median(s.size or s.height for s in row) for row in rows]
    if min(sizes) < (1 - ONE_LINE) * max(sizes):
        return False
    if one_pitch([s for row in rows for s in row if s.text.strip()]):
        return False  # a listing set in code
    return all(any(a <= (s.x0 + s.x1) / 2 <= b for s in row) for row in rows for a, b in columns)


def one_pitch(segments: Sequence[Segment]) -> bool:
    """Whether every character of ``segments`` is as wide as the others (a segment's width
    over its characters, within :data:`MONOSPACE_SLACK`): a fixed-pitch font's print."""
    advances = [s.width / len(s.text) for s in segments]
    return bool(advances) and max(advances) <= (1 + MONOSPACE_SLACK) * min(advances)


def header_top(
    before: Sequence[Sequence[Segment]],
    run: Sequence[Sequence[Segment]],
    xs: Sequence[float],
    ys: Sequence[float],
    lines: np.ndarray,
    strips: Sequence[tuple[float, float]],
) -> float:
    """The top of a table's first row, taken up over the lines just above it that are
    its header cells' first lines: under a header underlined by a rule across the table
    (its second row border drawn), lines that follow one another at a line's spacing,
    each cell within a column, are the upper lines of titles set at the header's foot
    (a title wrapped in a narrow column, ``Relation`` / ``ship`` / ``Type``), each
    segment over the text of one column at most.
    ``before``: the rows above the run that no table took; ``strips``: the x spans of its
    columns' text."""
    if len(ys) < 3 or not _ruled_between(lines, xs, run[0], ys[1] + 0.5):
        return ys[0]
    top = ys[0]
    below = run[0]
    for row in reversed(before):
        gap = row_gap(row, below)
        if gap > HEADER_LINE_GAP * max(s.height for s in row):
            break
        if any(sum(s.x0 < b and s.x1 > a for a, b in strips) > 1 for s in row):
            break  # a line across columns: text above the table
        if not all(xs[0] <= s.x0 and s.x1 <= xs[-1] for s in row):
            break
        top, below = min(s.top for s in row) - 0.5, row
    return top


def _ruled_between(
    lines: np.ndarray, xs: Sequence[float], row: Sequence[Segment], y: float
) -> bool:
    """Whether a horizontal rule across the table (borders ``xs``) runs under ``row``,
    above ``y``."""
    return bool(
        (
            (lines[:, 0] <= xs[0] + TOLERANCE)
            & (lines[:, 2] >= xs[-1] - TOLERANCE)
            & (lines[:, 1] >= max(s.bottom for s in row))
            & (lines[:, 1] <= y)
        ).any()
    )
