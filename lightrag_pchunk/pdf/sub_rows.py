"""Stage A for PDF: a ruled grid's cells over several rows, and rows, whose text stands in
separate rows (``grids``: the grids and each cell's segments).

A cell over several rows whose text stands in separate rows is several cells: where a row
border drawn in other columns runs through it, no line of its text crosses that border, the
first line below starts on a baseline of a cell that starts at that row and stands further
from the line above than a paragraph's lines do, or another cell over these rows shows that
its text starts a sub-row there (a code and its sub-row's code: the description beside them
is cut there too, its lines following at their spacing), but not when that line starts in
lower case and its foot follows at a paragraph's line spacing (the words go on: the low top
of letters without ascenders is no gap); or where the line above stops where the first word
below would have fitted (the text broke there on purpose, it did not wrap). The rows were
split without a rule between them (a table's sub-rows), not merged. Likewise a row whose
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

from lightrag_pchunk.pdf.cell_wraps import starts_lower
from lightrag_pchunk.pdf.grids import ONE_LINE, TOLERANCE, WORD_SPACE, Grid, first_word_width
from lightrag_pchunk.pdf.layout import visual_rows
from lightrag_pchunk.pdf.segments import Segment

#: Lines whose tops lie within this many points share a baseline.
BASELINE_SLACK = 2.0
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
    shown: set[int] = set()  # the rows some cell's text shows starting a sub-row of their own
    for index, (r0, r1, c0, c1) in enumerate(grid.cells):
        if r1 > r0:
            shown.update(_sub_rows(grid, (r0, r1, c0, c1), owned[index], starts)[1:])
    for index, (r0, r1, c0, c1) in enumerate(grid.cells):
        segments = owned[index]
        cuts = _sub_rows(grid, (r0, r1, c0, c1), segments, starts, shown) if r1 > r0 else [r0]
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
    shown: set[int] | frozenset[int] = frozenset(),
) -> list[int]:
    """The rows where the text of ``cell`` (first row, last row, first column, last
    column) starts a sub-row of its own (see the module doc), after its first row.
    ``starts``: by row, the tops of the lines of the cells that start at it; ``shown``: the
    rows where another cell's text starts a sub-row."""
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
        apart = spans[first][0] - spans[last][1] > SUB_ROW_GAP * height
        # Set apart, or in a sub-row another cell's text shows: unless its words go on.
        opens = (apart or row in shown) and not _goes_on(lines[last], lines[first])
        if not (opens or _breaks_early(lines[last], lines[first], grid, cell)):
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
    if not starts_lower(below[0]):
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


def line_spans(segments: Sequence[Segment]) -> list[tuple[float, float]]:
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
        lines = sorted(line_spans(segments))
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
        (top, bottom, index) for index in inside for top, bottom in line_spans(owned[index])
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
