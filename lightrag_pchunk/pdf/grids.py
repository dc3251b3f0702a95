"""Stage A for PDF: the grids of a page's ruled tables, and which text lies in which cell.

Input: a page's rules in its reading frame (``rules.rules_in_frame``) and its segments.
Output: :class:`Grid` s, each a connected set of horizontal and vertical rules with at least
two columns or two rows between them (a table ruled by its rows and the one border between
its two columns, its sides open, is bordered by its rules' ends): its column and row
borders and its cells, the
rectangles the rules enclose (where the border between two neighbouring rectangles is
missing, they are one merged cell: ``regions``); then each cell's segments, those whose
middle lies in it. A cell over several rows whose text stands in separate rows, and a row
whose text stands in two bands, are cut into rows by ``sub_rows``.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lightrag_pchunk.pdf.bullets import is_bulleted, plain_bullet
from lightrag_pchunk.pdf.fonts import text_size
from lightrag_pchunk.pdf.layout import visual_rows
from lightrag_pchunk.pdf.letter_spacing import join_segments
from lightrag_pchunk.pdf.line_ends import join_lines
from lightrag_pchunk.pdf.regions import region_cells
from lightrag_pchunk.pdf.scripts import as_script, script_segments
from lightrag_pchunk.pdf.segments import Segment, plain_hyphens

#: Rules closer than this (points) meet, or are one border.
TOLERANCE = 2.0
#: A table at least this wide and high (points).
MIN_SIZE = 12.0
#: Lines of one printed row: their tops lie within this share of their height.
ONE_LINE = 0.3
#: A word space, in line heights (a line's next word would follow after it).
WORD_SPACE = 0.25
#: A grid whose borders stand within this share of the page's size from its four edges
#: reaches them (a background ruled to the paper's edge).
BACKGROUND_EDGE = 0.04


@dataclass(frozen=True, slots=True)
class Grid:
    """One ruled grid on a page: its column and row borders in the reading frame and its
    cells as ``(first row, last row, first column, last column)``."""

    xs: list[float]
    ys: list[float]
    cells: list[tuple[int, int, int, int]]
    open_sides: tuple[int, ...] = ()  # columns bordered by row rules' ends (``_open_sides``)

    @property
    def box(self) -> tuple[float, float, float, float]:
        return self.xs[0], self.ys[0], self.xs[-1], self.ys[-1]


def is_background(
    grid: Grid, owned: dict[int, list[Segment]], frame: tuple[float, float, float, float]
) -> bool:
    """Whether ``grid`` is the page's ruled background, not a table: it reaches the page's
    four edges, where a table leaves the margins, its rules stand at one pitch each way
    (:func:`_evenly_spaced`) and most of its cells hold no text (the squares of a copybook
    or graph paper, lines ruled under the text of a whole page). A form or a calendar
    ruled to the edges sets its rows and columns as wide as what they hold."""
    x0, top, x1, bottom = frame
    reach = BACKGROUND_EDGE * max(x1 - x0, bottom - top)
    gx0, gtop, gx1, gbottom = grid.box
    edges = (gx0 - x0, gtop - top, x1 - gx1, bottom - gbottom)
    empty = sum(not segments for segments in owned.values())
    return (
        all(edge <= reach for edge in edges)
        and 2 * empty > len(owned)
        and _evenly_spaced(grid.xs, x0, x1)
        and _evenly_spaced(grid.ys, top, bottom)
    )


def _evenly_spaced(borders: Sequence[float], start: float, end: float) -> bool:
    """Whether ``borders`` stand at one pitch (within :data:`TOLERANCE`), the first and last
    space shorter only where the paper's edge (``start``, ``end``) cuts it."""
    gaps = [b - a for a, b in itertools.pairwise(borders)]
    inner = gaps[1:-1] or gaps
    pitch = max(inner)
    if pitch - min(inner) > TOLERANCE:
        return False
    ends = ((gaps[0], borders[0] - start), (gaps[-1], end - borders[-1]))
    return all(
        abs(gap - pitch) <= TOLERANCE or (gap < pitch and edge <= TOLERANCE) for gap, edge in ends
    )


def find_grids(rules: np.ndarray) -> list[Grid]:
    """The ruled grids among a page's rules (frame rows ``x0, top, x1, bottom``), top down."""
    horizontal = rules[(rules[:, 3] - rules[:, 1] < 1.0) & (rules[:, 2] - rules[:, 0] >= 1.0)]
    vertical = rules[(rules[:, 2] - rules[:, 0] < 1.0) & (rules[:, 3] - rules[:, 1] >= 1.0)]
    if len(horizontal) < 2 or not len(vertical):
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
        if len(rows) < 2 or not columns:
            continue  # a lone rule (an underline): no grid
        grid = _grid(horizontal[rows], vertical[columns], horizontal)
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


def _grid(hs: np.ndarray, vs: np.ndarray, pieces: np.ndarray) -> Grid | None:
    """The grid the connected rules ``hs`` and ``vs`` draw. A row border is drawn where
    any of the page's horizontal ``pieces`` runs: a table style that draws its row rules in
    pieces, one under each column, with column borders in its header alone, leaves the
    pieces under the inner columns meeting no other rule."""
    xs = _borders(vs[:, 0].tolist())
    open_sides: tuple[int, ...] = ()
    if len(xs) == 1:
        xs, open_sides = _open_sides(xs[0], hs)
    ys = _borders(hs[:, 1].tolist())
    if open_sides:
        ys = _open_ends(ys, vs)
    if open_sides and len(ys) < 4:
        return None  # a few rules crossing one line: a frame's corner, a header's cell
    if len(xs) < 2 or len(ys) < 2 or (len(xs) - 1) * (len(ys) - 1) < 2:
        return None
    if xs[-1] - xs[0] < MIN_SIZE or ys[-1] - ys[0] < MIN_SIZE:
        return None
    rows, columns = len(ys) - 1, len(xs) - 1

    def has_vertical(x: float, y: float) -> bool:
        near = vs[np.abs(vs[:, 0] - x) <= TOLERANCE]
        return bool(((near[:, 1] - TOLERANCE <= y) & (y <= near[:, 3] + TOLERANCE)).any())

    def has_horizontal(y: float, x: float) -> bool:
        near = pieces[np.abs(pieces[:, 1] - y) <= TOLERANCE]
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
    return Grid(xs, ys, sorted(cells), open_sides)


def _open_sides(border: float, hs: np.ndarray) -> tuple[list[float], tuple[int, ...]]:
    """The column borders of a table of two columns ruled by its rows and the ``border``
    between its columns alone, its sides open: where two row rules or more run on past
    that border by :data:`MIN_SIZE` or more, their ends border a column there; and which
    columns such ends border."""
    xs, sides = [border], []
    lefts = hs[hs[:, 0] <= border - MIN_SIZE, 0]
    rights = hs[hs[:, 2] >= border + MIN_SIZE, 2]
    if len(lefts) >= 2:
        xs, sides = [float(lefts.min()), *xs], [0]
    if len(rights) >= 2:
        xs, sides = [*xs, float(rights.max())], [*sides, len(xs) - 1]
    return xs, tuple(sides)


def _open_ends(ys: list[float], vs: np.ndarray) -> list[float]:
    """The row borders ``ys`` of a table with open sides, with its open ends: its first
    row over the first row rule and its last under the last, where the border between its
    columns runs on :data:`MIN_SIZE` or more past them."""
    top, bottom = float(vs[:, 1].min()), float(vs[:, 3].max())
    if top <= ys[0] - MIN_SIZE:
        ys = [top, *ys]
    if bottom >= ys[-1] + MIN_SIZE:
        ys = [*ys, bottom]
    return ys


def hides_columns(grid: Grid, owned: dict[int, list[Segment]]) -> bool:
    """Whether a column of ``grid`` that open sides border holds, on one line, text apart
    in two segments or more: columns its alignment shows that no rule draws (a paper's
    table ruled after its first column alone), which the text's alignment reads better."""
    return any(
        c0 == c1 and c0 in grid.open_sides and any(len(row) >= 2 for row in visual_rows(owned[i]))
        for i, (_, _, c0, c1) in enumerate(grid.cells)
    )


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


def first_word_width(segment: Segment) -> float:
    """The width of ``segment``'s first word, its share of the segment's characters (0.0
    when it holds none): how far a line's next word would reach (after a ``WORD_SPACE``)."""
    words = segment.text.split()
    return segment.width * len(words[0]) / len(segment.text) if words else 0.0


def cell_text(segments: Sequence[Segment]) -> str:
    """A cell's text: its lines top down, joined as a paragraph's lines are, but a hyphen
    ending a line stays: cells are narrow and set ragged, without hyphenation, so a line
    breaks after a word's own hyphen (``open-`` / ``vocab``), which PDFium marks as it marks
    a hyphenation's; letter-spaced CJK read closed up, as in a line (``letter_spacing``).
    A line opening on a bullet starts a line of the text: an item of the cell's list, on a
    line of its own as the Word parser writes a cell's paragraphs (a box of instructions
    read "Assessment Procedures: ● EXAMINE: … ● INTERVIEW: …" as one line), a symbol
    font's bullet read as the plain one it draws, as in a paragraph (``plain_bullet``)."""
    rows = visual_rows(segments)
    texts = [plain_hyphens(_row_text(sorted(row, key=lambda s: s.x0))) for row in rows]
    items: list[list[str]] = []
    for text in texts:
        if not items or _opens_item(text):
            items.append([])
            text = plain_bullet(text)
        items[-1].append(text)
    return "\n".join(join_lines(item)[0] for item in items)


#: Marks that open a list item only before a space and a word: a cell's wrapped line may
#: open on them as text ("-5", "*Note", a row of dashes for values not given, "– – –").
#: An em dash opens no item: a sentence wraps before its dash ("… intended effect" over
#: "— what the Threat Actor …").
_TEXT_MARKS = frozenset("-–*·")


def _opens_item(line: str) -> bool:
    """Whether a cell's line opens an item of a list on its bullet. Word's "o" of a second
    level is no bullet here: in Spanish or Portuguese a wrapped line opens on "or" ("… el
    Formulario I-94" over "o Formulario I-94A …")."""
    if line[:1] == "—" or line[:2] == "o ":
        return False
    if line[:1] in _TEXT_MARKS:
        return line[1:2] == " " and line[2:3].isalpha()
    return is_bulleted(line)


def _row_text(row: Sequence[Segment]) -> str:
    """A line of a cell, its superscripts and subscripts tagged as a line's are
    (``scripts``): a note's number printed against a cell's last word ("Questions75",
    "2021" and its "1") is no part of the word."""
    size = text_size([(s.size, s.text) for s in row])
    tags = script_segments(row, size)
    return join_segments(
        [as_script(s, tag) if tag else s for s, tag in zip(row, tags, strict=True)]
    )
