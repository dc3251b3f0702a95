"""Stage A for PDF: which lines of a table shown by its text's alignment are the next lines
of the cells above them (cells wrapped over several lines in several columns at once), not
rows of their own.

Input: a run of rows (segments on one baseline, top down) that ``text_tables`` reads as a
table. Output: for each row, whether it goes on with the row above.

A row goes on with the one above in a table whose rows stand apart: it follows at the
table's line spacing (the smallest gap between two lines one above the other: a cell's
paragraph set a little lower than the lines beside it overlaps them at no spacing), not at
the wider one between its rows, and each of its lines lines
up with a line of the row above, which came so close to its column's far edge that the
line's first word would not have fitted beside it: a left-aligned cell's lines start at one
x, and the column's right edge is the widest reach of the table's lines starting there; a
right-aligned one's (a figure's column, its title over two lines) end at one x, the edge
the furthest left its lines start; a centred one's share their middle, the column as wide
as the widest of its lines (right-aligned and centred, words only: figures stand so, one
under another, and never wrap, nor does a figure under a whole one, however aligned; and
not starting where the line above starts: lines of justified text or with leaders start
and end alike, and are left-aligned). Beside the
first line, which wraps, a line under no text of the row above may stand (a cell set at
the foot of a header whose neighbours wrapped); where the rows stand apart through the body
(wider gaps than the lines' in two places at least, not under a header alone), the lines
beside it that start in lower case (a sentence going on) wrap where their first word would
have come within a line's height of the edge:
a word's width is estimated from its share of its line's characters, a few points short
for wide letters among narrow ones (``more`` in ``more illicit``), and the first line's
wrap already shows the row goes on; there a row at the line spacing that leaves the first
column empty, each of its lines words under a line of the row above, goes on too however
short its lines (values listed one under another, lines of code): a row of its own names
itself in its first cell (a row of figures under a group's label stands alone).
Where every line follows at the same spacing, nothing tells a wrapped line from a row:
none is taken as wrapped.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable, Sequence

from lightrag_pchunk.pdf.grids import WORD_SPACE, first_word_width
from lightrag_pchunk.pdf.segments import Segment

#: Lines of a table whose gap exceeds its smallest by at most this many line heights
#: follow at its line spacing (a wrapped cell's lines), the others start rows.
WRAP_GAP_SLACK = 0.3
#: Gaps wider than the line spacing that show a table's rows set apart (a header's is one).
APART_ROWS = 2
#: Lines starting (ending, centred) within this many points are aligned at one x.
ALIGN_SLACK = 1.5

#: Marks a value broken over two lines ends with.
_OPEN_ENDS = ("-", "‐", "–", ",", "/")

#: Where a segment is aligned: its left side, its right side, its middle.
_ALIGNMENTS: tuple[Callable[[Segment], float], ...] = (
    lambda s: s.x0,
    lambda s: s.x1,
    lambda s: (s.x0 + s.x1) / 2,
)


def wrapped_lines(rows: Sequence[Sequence[Segment]], first_column_end: float) -> list[bool]:
    """Which rows are the next lines of the cells of the row above (see the module doc);
    ``first_column_end``: where the table's first column ends (a line starting right of it
    leaves that column empty)."""
    goes_on = [False] * len(rows)
    if len(rows) < 2:
        return goes_on
    gaps = [row_gap(above, row) for above, row in itertools.pairwise(rows)]
    # The line spacing is measured between lines one above the other: a paragraph set a
    # little lower in its cell than the lines beside it stands at no line spacing.
    stacked = [
        line.top - upper.bottom
        for above, row in itertools.pairwise(rows)
        for line in row
        for upper in above
        if upper.x0 < line.x1 and line.x0 < upper.x1
    ]
    height = statistics.median(s.height for row in rows for s in row)
    tight = min(stacked, default=min(gaps)) + WRAP_GAP_SLACK * height
    if max(gaps) <= tight:
        return goes_on
    room = _Room([s for row in rows for s in row])
    # Rows set apart through the body, not a header's gap alone, leave the estimate's error.
    apart = sum(gap > tight for gap in gaps) >= APART_ROWS
    for index in range(1, len(rows)):
        if gaps[index - 1] <= tight:
            above = rows[index - 1]
            first, *others = rows[index]
            if (
                apart
                and first.x0 >= first_column_end
                and all(_over(above, line) and has_letters(line.text) for line in rows[index])
            ):
                goes_on[index] = True  # the first cell empty, the others' lines going on
                continue
            goes_on[index] = room.wraps(above, first) and all(
                room.wraps(above, line, line.height if apart and starts_lower(line) else 0.0)
                or not _over(above, line)
                for line in others
            )
    return goes_on


class _Room:
    """The room a table's columns give their lines, by how the lines are aligned."""

    def __init__(self, segments: Sequence[Segment]) -> None:
        self.segments = segments
        self.places = [sorted({round(at(s)) for s in segments}) for at in _ALIGNMENTS]
        self.edges: dict[tuple[int, int], float | None] = {}

    def wraps(self, above: Sequence[Segment], line: Segment, slack: float = 0.0) -> bool:
        """Whether ``line`` is the next line of a cell of the row ``above``, aligned with
        it one of the three ways (see the module doc); ``slack``: how far short of the
        column's edge the first word may still be taken not to have fitted (the error of
        its width estimated from its characters' share of the line)."""
        if not line.text.strip():
            return False
        word = line.text.split()[0]
        extra = WORD_SPACE * line.height + first_word_width(line) + slack
        for alignment, at in enumerate(_ALIGNMENTS):
            same = [s for s in above if abs(at(s) - at(line)) <= ALIGN_SLACK]
            edge = self._edge(alignment, at(line)) if same else None
            if edge is None:
                continue
            cell = same[0]
            if alignment and not (has_letters(cell.text) and has_letters(word)):
                continue  # figures stand right-aligned or centred, and never wrap
            if is_figure(cell.text) and is_figure(word):
                continue  # a figure under a whole figure, left-aligned too
            if alignment and abs(cell.x0 - line.x0) <= ALIGN_SLACK:
                continue  # left-aligned lines of one width (justified, leaders) end alike
            if alignment == 0 and cell.x1 + extra > edge + 0.5:
                return True
            if alignment == 1 and cell.x0 - extra < edge - 0.5:
                return True
            if alignment == 2 and cell.width + extra > edge + 0.5:
                return True
        return False

    def _edge(self, alignment: int, x: float) -> float | None:
        """The column's far edge for lines aligned at ``x``: left-aligned, the widest
        reach right of the lines starting there that stay clear of the next place where
        lines start; right-aligned, mirrored; centred, the widest such line's width."""
        key = (alignment, round(x))
        if key not in self.edges:
            at, places = _ALIGNMENTS[alignment], self.places[alignment]
            aligned = [s for s in self.segments if abs(at(s) - x) <= ALIGN_SLACK]
            if alignment == 0:
                later = [p for p in places if p > x + ALIGN_SLACK]
                limit = later[0] if later else float("inf")
                edge = max((s.x1 for s in aligned if s.x1 < limit), default=None)
            elif alignment == 1:
                earlier = [p for p in places if p < x - ALIGN_SLACK]
                limit = earlier[-1] if earlier else float("-inf")
                edge = min((s.x0 for s in aligned if s.x0 > limit), default=None)
            else:
                edge = max((s.width for s in aligned), default=None)
            self.edges[key] = edge
        return self.edges[key]


def row_gap(above: Sequence[Segment], row: Sequence[Segment]) -> float:
    """The space between two rows (from the lowest bottom above to the highest top)."""
    return min(s.top for s in row) - max(s.bottom for s in above)


def has_letters(text: str) -> bool:
    """Whether ``text`` holds a letter (words do; a figure does not)."""
    return any(character.isalpha() for character in text)


def is_figure(text: str) -> bool:
    """Whether ``text`` is figures, whole: digits, no letter, not left open at its end by a
    hyphen, a comma or a slash (``2018-08-`` goes on in ``10``)."""
    text = text.strip()
    return any(c.isdigit() for c in text) and not has_letters(text) and text[-1:] not in _OPEN_ENDS


def starts_lower(line: Segment) -> bool:
    """Whether ``line`` starts with a lower-case letter (a sentence going on)."""
    return line.text.lstrip()[:1].islower()


def _over(above: Sequence[Segment], line: Segment) -> bool:
    """Whether a segment of the row ``above`` stands over ``line`` (their x spans meet)."""
    return any(s.x0 < line.x1 and line.x0 < s.x1 for s in above)
