"""Stage A for PDF: the grids of a page's ruled tables, and which text lies in which cell.

Input: a page's rules in its reading frame (``rules.rules_in_frame``) and its segments.
Output: :class:`Grid` s, each a connected set of horizontal and vertical rules with at least
two columns or two rows between them: its column and row borders and its cells, the
rectangles the rules enclose (where the border between two neighbouring rectangles is
missing, they are one merged cell: ``regions``); then each cell's segments, those whose
middle lies in it.

A cell over several rows whose text stands in separate rows is several cells: where a row
border drawn in other columns runs through it, no line of its text crosses that border, the
first line below starts on a baseline of a cell that starts at that row and stands further
from the line above than a paragraph's lines do (not when it starts in lower case and its foot
follows at a paragraph's line spacing: the words go on, the low top of letters without
ascenders is no gap), or the line above stops where the first
word below would have fitted (the text broke there on purpose, it did not wrap), the rows
were split without a rule between them (a table's sub-rows), not merged. Likewise a row whose
text stands in two bands, an empty strip across the row between them, is two rows when the
strip parts the text of two cells or more, each line below it starting more than two line
heights below the one above it (further than a cell's wrapped lines follow), all on one
baseline: an item and its sub-row printed without a rule between them; or when it parts a
cell of two lines, the only text below it (a quantity, its unit set apart at the row's
foot).
"""

from __future__ import annotations

import bisect
import itertools
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from lightrag_pchunk.pdf.layout import visual_rows
from lightrag_pchunk.pdf.paragraphs import join_lines
from lightrag_pchunk.pdf.regions import region_cells
from lightrag_pchunk.pdf.segments import Segment, plain_hyphens

#: Rules closer than this (points) meet, or are one border.
TOLERANCE = 2.0
#: A table at least this wide and high (points).
MIN_SIZE = 12.0
#: Lines whose tops lie within this many points share a baseline.
BASELINE_SLACK = 2.0
#: Lines of one printed row: their tops lie within this share of their height.
ONE_LINE = 0.3
#: Text of a cell over several rows stands in separate rows when the space between them
#: is wider than this many line heights (a merged cell's text follows at its leading).
SUB_ROW_GAP = 0.5
#: The furthest a paragraph's next line stands under a line, foot to foot, in font sizes
#: (single spacing sets lines about 1.2 sizes apart; half a line more is a gap).
LINE_PITCH = 1.5
#: Lines of a row stand in separate rows when one starts more than this many line heights
#: below the top of the other (a cell's text wrapped over lines follows at its leading,
#: about 1.2 font sizes, and a line's glyphs are at most about one high).
SUB_ROW_PITCH = 2.0
#: ... and more than this many times the table's leading (the least distance between two
#: lines of a cell): text set at one and a half lines or more wraps further than two heights.
SUB_ROW_LEADINGS = 1.5
#: A word space, in line heights (a line's next word would follow after it).
WORD_SPACE = 0.25


@dataclass(frozen=True, slots=True)
class Grid:
    """One ruled grid on a page: its column and row borders in the reading frame and its
    cells as ``(first row, last row, first column, last column)``."""

    xs: list[float]
    ys: list[float]
    cells: list[tuple[int, int, int, int]]

    @property
    def box(self) -> tuple[float, float, float, float]:
        return self.xs[0], self.ys[0], self.xs[-1], self.ys[-1]


def find_grids(rules: np.ndarray) -> list[Grid]:
    """The ruled grids among a page's rules (frame rows ``x0, top, x1, bottom``), top down."""
    horizontal = rules[(rules[:, 3] - rules[:, 1] < 1.0) & (rules[:, 2] - rules[:, 0] >= 1.0)]
    vertical = rules[(rules[:, 2] - rules[:, 0] < 1.0) & (rules[:, 3] - rules[:, 1] >= 1.0)]
    if len(horizontal) < 2 or len(vertical) < 2:
        return []
    count = len(horizontal) + len(vertical)
    parent = list(range(count))
    meets = (
        (vertical[None, :, 0] >= horizontal[:, None, 0] - TOLERANCE)
        & (vertical[None, :, 0] <= horizontal[:, None, 2] + TOLERANCE)
        & (horizontal[:, None, 1] >= vertical[None, :, 1] - TOLERANCE)
        & (horizontal[:, None, 1] <= vertical[None, :, 3] + TOLERANCE)
    )
    for h, v in zip(*np.nonzero(meets), strict=True):
        parent[_root(parent, int(h))] = _root(parent, len(horizontal) + int(v))
    groups: dict[int, list[int]] = {}
    for i in range(count):
        groups.setdefault(_root(parent, i), []).append(i)
    grids = []
    for members in groups.values():
        rows = [i for i in members if i < len(horizontal)]
        columns = [i - len(horizontal) for i in members if i >= len(horizontal)]
        if len(rows) < 2 or len(columns) < 2:
            continue  # a lone rule (an underline) or a corner: no grid
        grid = _grid(horizontal[rows], vertical[columns])
        if grid is not None:
            grids.append(grid)
    return sorted(grids, key=lambda g: (g.ys[0], g.xs[0]))


def _root(parent: list[int], i: int) -> int:
    """The representative of ``i``'s set in the union-find forest ``parent`` (paths
    halved on the way)."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def _borders(values: Sequence[float]) -> list[float]:
    """Positions closer than :data:`TOLERANCE` merged into one border."""
    borders: list[float] = []
    for value in sorted(values):
        if borders and value - borders[-1] <= TOLERANCE:
            continue
        borders.append(value)
    return borders


def _grid(hs: np.ndarray, vs: np.ndarray) -> Grid | None:
    xs = _borders(vs[:, 0].tolist())
    ys = _borders(hs[:, 1].tolist())
    if len(xs) < 2 or len(ys) < 2 or (len(xs) - 1) * (len(ys) - 1) < 2:
        return None
    if xs[-1] - xs[0] < MIN_SIZE or ys[-1] - ys[0] < MIN_SIZE:
        return None
    rows, columns = len(ys) - 1, len(xs) - 1

    def has_vertical(x: float, y: float) -> bool:
        near = vs[np.abs(vs[:, 0] - x) <= TOLERANCE]
        return bool(((near[:, 1] - TOLERANCE <= y) & (y <= near[:, 3] + TOLERANCE)).any())

    def has_horizontal(y: float, x: float) -> bool:
        near = hs[np.abs(hs[:, 1] - y) <= TOLERANCE]
        return bool(((near[:, 0] - TOLERANCE <= x) & (x <= near[:, 2] + TOLERANCE)).any())

    parent = list(range(rows * columns))
    for r in range(rows):
        middle_y = (ys[r] + ys[r + 1]) / 2
        for c in range(columns):
            middle_x = (xs[c] + xs[c + 1]) / 2
            if c + 1 < columns and not has_vertical(xs[c + 1], middle_y):
                parent[_root(parent, r * columns + c + 1)] = _root(parent, r * columns + c)
            if r + 1 < rows and not has_horizontal(ys[r + 1], middle_x):
                parent[_root(parent, (r + 1) * columns + c)] = _root(parent, r * columns + c)
    regions: dict[int, list[tuple[int, int]]] = {}
    for r in range(rows):
        for c in range(columns):
            regions.setdefault(_root(parent, r * columns + c), []).append((r, c))
    cells: list[tuple[int, int, int, int]] = []
    for places in regions.values():
        cells.extend(region_cells(places))
    return Grid(xs, ys, sorted(cells))


def cell_segments(grid: Grid, segments: Sequence[Segment]) -> dict[int, list[Segment]]:
    """Each cell's segments (by cell index), those whose middle lies in it."""
    x0, top, x1, bottom = grid.box
    where: dict[tuple[int, int], int] = {}
    for index, (r0, r1, c0, c1) in enumerate(grid.cells):
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                where[(r, c)] = index
    owned: dict[int, list[Segment]] = {index: [] for index in range(len(grid.cells))}
    for segment in segments:
        mx, my = (segment.x0 + segment.x1) / 2, (segment.top + segment.bottom) / 2
        if not (x0 < mx < x1 and top < my < bottom):
            continue
        column = bisect.bisect_right(grid.xs, mx) - 1
        row = bisect.bisect_right(grid.ys, my) - 1
        index = where.get((row, column))
        if index is not None:
            owned[index].append(segment)
    return owned


def split_stacked_cells(
    grid: Grid, owned: dict[int, list[Segment]]
) -> tuple[Grid, dict[int, list[Segment]]]:
    """The grid with each cell over several rows whose text stands in separate rows split
    at those rows' borders (see the module doc), and each cell's segments."""
    starts: dict[int, list[float]] = {}  # the tops of the lines of the cells starting a row
    for index, segments in owned.items():
        starts.setdefault(grid.cells[index][0], []).extend(s.top for s in segments)
    cells: list[tuple[int, int, int, int]] = []
    split: dict[int, list[Segment]] = {}
    for index, (r0, r1, c0, c1) in enumerate(grid.cells):
        segments = owned[index]
        cuts = _sub_rows(grid, (r0, r1, c0, c1), segments, starts) if r1 > r0 else [r0]
        borders = [grid.ys[row] for row in cuts[1:]]
        pieces: list[list[Segment]] = [[] for _ in cuts]
        for segment in segments:
            pieces[bisect.bisect_right(borders, (segment.top + segment.bottom) / 2)].append(segment)
        for start, end, piece in zip(cuts, [*cuts[1:], r1 + 1], pieces, strict=True):
            split[len(cells)] = piece
            cells.append((start, end - 1, c0, c1))
    return Grid(grid.xs, grid.ys, cells), split


def _sub_rows(
    grid: Grid,
    cell: tuple[int, int, int, int],
    segments: Sequence[Segment],
    starts: dict[int, list[float]],
) -> list[int]:
    """The rows where the text of ``cell`` (first row, last row, first column, last
    column) starts a sub-row of its own (see the module doc), after its first row.
    ``starts``: by row, the tops of the lines of the cells that start at it."""
    lines = [sorted(line, key=lambda s: s.x0) for line in visual_rows(segments)]
    if len(lines) < 2:
        return [cell[0]]
    spans = [(min(s.top for s in line), max(s.bottom for s in line)) for line in lines]
    height = statistics.median(bottom - top for top, bottom in spans)
    cuts = [cell[0]]
    for row in range(cell[0] + 1, cell[1] + 1):
        border, start = grid.ys[row], grid.ys[cuts[-1]]
        if any(top < border - TOLERANCE and bottom > border + TOLERANCE for top, bottom in spans):
            continue  # a line crosses the border: the cell's text runs over both rows
        above = [i for i, (top, _) in enumerate(spans) if start <= top < border]
        below = [i for i, (top, _) in enumerate(spans) if top >= border]
        if not above or not below:
            continue
        last, first = max(above, key=lambda i: spans[i][1]), min(below, key=lambda i: spans[i][0])
        apart = spans[first][0] - spans[last][1] > SUB_ROW_GAP * height and not _goes_on(
            lines[last], lines[first]
        )
        if not (apart or _breaks_early(lines[last], lines[first], grid, cell)):
            continue
        if any(abs(spans[first][0] - top) <= BASELINE_SLACK for top in starts.get(row, ())):
            cuts.append(row)
    return cuts


def _goes_on(line: Sequence[Segment], below: Sequence[Segment]) -> bool:
    """Whether ``below`` goes on with the words of ``line`` as a paragraph's next line: it
    starts with a lower-case letter and its foot stands at most :data:`LINE_PITCH` font sizes
    under the foot of ``line``. Glyph boxes are compared at their feet, not between them: a
    line of lower-case letters without ascenders (``машин`` under ``Экспл.``) has a lower
    top, which leaves a gap above it wider than half a line however closely it follows."""
    first = below[0].text.lstrip()[:1]
    if not first.islower():
        return False
    size = max(s.size for s in (*line, *below))
    return max(s.bottom for s in below) - max(s.bottom for s in line) <= LINE_PITCH * size


def _breaks_early(
    line: Sequence[Segment], below: Sequence[Segment], grid: Grid, cell: tuple[int, int, int, int]
) -> bool:
    """Whether ``line`` of a ruled cell ends where the first word of the line ``below``
    would have fitted after it, within the cell's right border less the space its text
    keeps from the left one: the text broke there on purpose (a new paragraph or a new
    row), it did not wrap."""
    if not below[0].text.strip() or not line[0].text.strip():
        return False
    word_width = first_word_width(below[0])
    padding = max(min(line[0].x0, below[0].x0) - grid.xs[cell[2]], 0.0)
    edge = grid.xs[cell[3] + 1] - padding
    return line[-1].x1 + WORD_SPACE * line[-1].height + word_width < edge


def first_word_width(segment: Segment) -> float:
    """The width of ``segment``'s first word, its share of the segment's characters (0.0
    when it holds none): how far a line's next word would reach (after a ``WORD_SPACE``)."""
    words = segment.text.split()
    return segment.width * len(words[0]) / len(segment.text) if words else 0.0


def split_banded_rows(
    grid: Grid, owned: dict[int, list[Segment]]
) -> tuple[Grid, dict[int, list[Segment]]]:
    """The grid with each row whose text stands in two bands or more cut between them
    (see the module doc), and each cell's segments."""
    leading = _leading(owned.values())
    bands = {row: _row_cuts(grid, owned, row, leading) for row in range(len(grid.ys) - 1)}
    if not any(bands.values()):
        return grid, owned
    ys: list[float] = []
    first: list[int] = []  # the new index of each old row's first band
    for row in range(len(grid.ys) - 1):
        first.append(len(ys))
        ys += [grid.ys[row], *bands[row]]
    first.append(len(ys))
    ys.append(grid.ys[-1])
    cells: list[tuple[int, int, int, int]] = []
    split: dict[int, list[Segment]] = {}
    for index, (r0, r1, c0, c1) in enumerate(grid.cells):
        segments = owned[index]
        top, bottom = first[r0], first[r1 + 1] - 1
        cuts = [y for y in ys[top + 1 : bottom + 1] if _parts(segments, y)]
        if r0 != r1 or not cuts:
            split[len(cells)] = segments
            cells.append((top, bottom, c0, c1))
            continue
        rows = [top] + [ys.index(y) for y in cuts] + [bottom + 1]
        for start, end in itertools.pairwise(rows):
            split[len(cells)] = [
                s for s in segments if ys[start] < (s.top + s.bottom) / 2 < ys[end]
            ]
            cells.append((start, end - 1, c0, c1))
    return Grid(grid.xs, ys, cells), split


def _parts(segments: Sequence[Segment], y: float) -> bool:
    """Whether a cell's text lies on both sides of ``y``."""
    middles = [(s.top + s.bottom) / 2 for s in segments]
    return any(m < y for m in middles) and any(m > y for m in middles)


def _line_spans(segments: Sequence[Segment]) -> list[tuple[float, float]]:
    """Each printed line of ``segments``: the top of its highest glyph, the bottom of its
    lowest."""
    return [
        (min(s.top for s in line), max(s.bottom for s in line)) for line in visual_rows(segments)
    ]


def _leading(cells: Iterable[Sequence[Segment]]) -> float:
    """The grid's leading: the least distance from a line's top to the next one's of the
    same height in a cell (0 when no cell holds two such lines)."""
    steps = []
    for segments in cells:
        lines = sorted(_line_spans(segments))
        steps += [
            below[0] - above[0]
            for above, below in itertools.pairwise(lines)
            if _alike(above[1] - above[0], below[1] - below[0])
        ]
    return min(steps, default=0.0)


def _alike(a: float, b: float) -> bool:
    """Whether two line heights are one text's (a paragraph's lines, not a symbol over
    its code in smaller print)."""
    return min(a, b) >= (1 - ONE_LINE) * max(a, b)


def _row_cuts(grid: Grid, owned: dict[int, list[Segment]], row: int, leading: float) -> list[float]:
    """Where the text of ``row`` stands in bands (see the module doc): the y of each empty
    strip across the row that parts the text of two cells or more, whose lines below it
    start on one baseline and stand apart from those above (:data:`SUB_ROW_PITCH`)."""
    inside = [
        index for index, (r0, r1, _, _) in enumerate(grid.cells) if r0 == r1 == row and owned[index]
    ]
    if len(inside) < 2:
        return []
    spans = sorted(
        (top, bottom, index) for index in inside for top, bottom in _line_spans(owned[index])
    )
    cuts = []
    reach = spans[0][1]
    for (_, bottom, _), (top, _, _) in itertools.pairwise(spans):
        reach = max(reach, bottom)
        if top <= reach:
            continue
        above: dict[int, float] = {}  # the top of each cell's last line above
        for t, b, i in spans:
            if b <= reach:
                above[i] = max(above.get(i, t), t)
        below: dict[int, tuple[float, float]] = {}  # each cell's first line below
        for t, b, i in spans:
            if t >= top and i not in below:
                below[i] = (t, b)
        parted = [i for i in below if i in above]
        lone = len(parted) == len(below) == 1 and sum(i == parted[0] for *_, i in spans) == 2
        if len(parted) < 2 and not lone:
            continue  # two cells parted, or one of two lines (a figure, its unit below)
        height = statistics.median(below[i][1] - below[i][0] for i in parted)
        least = max(SUB_ROW_PITCH * height, SUB_ROW_LEADINGS * leading)
        apart = all(below[i][0] - above[i] > least for i in parted)
        slack = max(BASELINE_SLACK, ONE_LINE * height)
        tops, bottoms = [below[i][0] for i in parted], [below[i][1] for i in parted]
        one_line = max(tops) - min(tops) <= slack or max(bottoms) - min(bottoms) <= slack
        if apart and one_line:
            cuts.append((reach + top) / 2)
    return cuts


def cell_text(segments: Sequence[Segment]) -> str:
    """A cell's text: its lines top down, joined as a paragraph's lines are, but a hyphen
    ending a line stays: cells are narrow and set ragged, without hyphenation, so a line
    breaks after a word's own hyphen (``open-`` / ``vocab``), which PDFium marks as it marks
    a hyphenation's."""
    rows = visual_rows(segments)
    texts = [" ".join(s.text for s in sorted(row, key=lambda s: s.x0)) for row in rows]
    texts = [plain_hyphens(text) for text in texts]
    return join_lines(texts)[0] if texts else ""
