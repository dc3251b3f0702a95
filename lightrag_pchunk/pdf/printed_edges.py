"""Stage A for PDF: where the print of pages printed small in the middle of the sheet begins
and ends (a journal's or a register's page set on a letter sheet), and which lines sit at
that edge: the place :mod:`.furniture` looks for their running lines, outside the sheet's
bands.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line
from lightrag_pchunk.pdf.repeats import HEIGHT_TOLERANCE, RUNNING_PAGES


def printed_edges(
    inners: Sequence[Sequence[Line]], frames: Sequence[tuple[float, float, float, float]]
) -> tuple[float | None, float | None]:
    """Where the print inside the sheet's bands (``inners``, by page) begins and ends, as
    distances from the top and the bottom of the sheet: the height of the first (last)
    row that half the pages share, three at least (None: no such height)."""
    printing = [(lines, frame) for lines, frame in zip(inners, frames, strict=True) if lines]
    firsts = [min(line.top for line in lines) - frame[1] for lines, frame in printing]
    lasts = [frame[3] - max(line.bottom for line in lines) for lines, frame in printing]
    return _shared(firsts), _shared(lasts)


def _shared(distances: Sequence[float]) -> float | None:
    """The distance that half of ``distances`` (three at least) are within
    :data:`HEIGHT_TOLERANCE` of, the most of them; None when there is none."""
    needed = max(RUNNING_PAGES, len(distances) / 2)
    ordered = sorted(distances)  # counted by bisection: n log n for a file of many pages
    best, count = None, 0
    for distance in distances:
        near = bisect_right(ordered, distance + HEIGHT_TOLERANCE) - bisect_left(
            ordered, distance - HEIGHT_TOLERANCE
        )
        if near > count:
            best, count = distance, near
    return best if count >= needed else None


def at_printed_edge(
    line: Line,
    inner: Sequence[Line],
    frame: tuple[float, float, float, float],
    edges: tuple[float | None, float | None],
) -> bool:
    """Whether ``line``, of a page's lines inside the sheet's bands (``inner``), is the
    page's first or last row at the document's printed edge (``edges``, see
    :func:`printed_edges`), over or under text it is set apart from by half a line at
    least (a paragraph's own lines are closer; a page's only row is its text). A line a
    tagged document's structure holds is content there: such a document marks its running
    lines as artifacts, which never reach this stage."""
    if line.role not in ("", TABLE_ROLE):
        return False
    apart = line.height / 2
    head, foot = edges
    if head is not None and abs(line.top - frame[1] - head) <= HEIGHT_TOLERANCE:
        below = [other for other in inner if other.top > line.bottom]
        first = all(other.top >= line.top - HEIGHT_TOLERANCE for other in inner)
        if first and below and all(other.top >= line.bottom + apart for other in below):
            return True
    if foot is not None and abs(frame[3] - line.bottom - foot) <= HEIGHT_TOLERANCE:
        above = [other for other in inner if other.bottom < line.top]
        last = all(other.bottom <= line.bottom + HEIGHT_TOLERANCE for other in inner)
        return last and bool(above) and all(other.bottom <= line.top - apart for other in above)
    return False
