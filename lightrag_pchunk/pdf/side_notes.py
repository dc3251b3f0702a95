"""Stage A for PDF: a narrow column of notes in the margin beside a page's body.

Input: a page's upright segments, where no gutter parts columns of prose. Output: the
strip of x between the body and its notes in the outer margin (``\\marginpar``: short
notes set beside the paragraph they comment on), which ``layout`` reads as a gutter: the
notes are a column of their own, read after the body's, never glued to the body's line
on their row, nor widening the body's column (its lines, short of the note's edge, would
each end a paragraph).

The body is set justified: :data:`MIN_EDGE_LINES` lines or more, each at least half the
page's width, end at one x (its right edge) and start at one. Notes lie wholly
beyond that edge by :data:`MIN_NOTE_GAP` at least, each at most :data:`NOTE_WIDTH` of the
body's width, and each holds letters (line numbers and page numbers in a margin, a
contents page's numbers beyond its entries, are no notes).
Notes in the left margin are not read so: a label hanging left of its text ("A.",
"(a)", "第二章") stands there alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lightrag_pchunk.pdf.segments import Segment

#: Lines of the body that must end (or start) at one x for it to be its edge.
MIN_EDGE_LINES = 3
#: Points between the body's edge and a note, at least.
MIN_NOTE_GAP = 4.0
#: A note's width, at most, as a share of the body's.
NOTE_WIDTH = 0.3


def side_strip(
    segments: Sequence[Segment], frame: tuple[float, float, float, float]
) -> tuple[float, float, float] | None:
    """The strip ``(x0, x1, text_end)`` between the body and the notes in its right
    margin (see the module doc), or None when the page sets no such notes."""
    wide = [s for s in segments if s.x1 - s.x0 >= 0.5 * (frame[2] - frame[0])]
    if len(wide) < MIN_EDGE_LINES:
        return None
    right, count = Counter(round(s.x1) for s in wide).most_common(1)[0]
    left, left_count = Counter(round(s.x0) for s in wide).most_common(1)[0]
    width = right - left
    if count < MIN_EDGE_LINES or left_count < MIN_EDGE_LINES or width <= 0:
        return None
    notes = [s for s in segments if s.x0 >= right + MIN_NOTE_GAP]
    if notes and _notes(notes, width) and not any(s.x0 < right + 1 < s.x1 for s in segments):
        start = max(s.x1 for s in segments if s.x1 <= right + 1)
        return (start, min(s.x0 for s in notes), start)
    return None  # the left margin's: a hanging label ("A.", "(a)", "第二章") reads so too


def _notes(segments: Sequence[Segment], width: float) -> bool:
    """Whether ``segments`` read as margin notes: narrow, each holding letters (a contents
    page's numbers beyond its entries' edge are none)."""
    return all(
        s.x1 - s.x0 <= NOTE_WIDTH * width and any(c.isalpha() for c in s.text) for s in segments
    )
