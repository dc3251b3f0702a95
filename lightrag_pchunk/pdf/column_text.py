"""Stage A for PDF: the segments that show where a page's columns are (``layout``), and a
side title's lines told by their words (``layout``, ``text_boxes``).

Prose (segments of a sentence's length) shows the columns, and so do the lines of a title
set large beside it: a slide's title in a box of its own beside its text box is a column.
A side title set only a step above the text (bold, 17 over 14 points: under
:data:`TITLE_TYPE_RATIO`) is told by its lines: stacked at one left edge in one size, one
sentence wrapped over them, each line after the first going on in lower case, where
labels beside their values are items of their own.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence

from lightrag_pchunk.pdf.segments import Segment

#: A segment with this many characters is prose, and decides where the columns are.
PROSE_CHARS = 18
#: A line set in type this many times the size of the prose beside it is a title's (a
#: heading's step over body type: 14 over 10 points), and so is a first column of cells
#: beside one column of text (``text_boxes``: a slide's title box beside its text box).
TITLE_TYPE_RATIO = 1.4
#: ... and this many times, when the lines read as one sentence wrapped over them
#: (:func:`one_sentence`: a side title set bold a step above the text, 17 over 14 points).
WRAPPED_TITLE_RATIO = 1.15
_SENTENCE_ENDS = (".", ":", ";", "!", "?")


def column_text(segments: Sequence[Segment]) -> tuple[list[Segment], list[float]]:
    """The segments that show where the columns are, each with the weight of its line:
    prose (1), and the lines of a title set large (:data:`TITLE_TYPE_RATIO` times
    the prose's median size or more, :data:`WRAPPED_TITLE_RATIO` for lines that read as
    one sentence: :func:`wrapped_titles`) whose words wrap short, beside a line of prose (on
    its baselines, not above it: a heading over its text, in the margin or not, is no
    column): a slide's title in a box of its own beside its text box is a column. A
    title's line weighs its size over the prose's, the height of page it covers in lines
    of prose: its few large lines stand beside more lines of body type."""
    prose = [s for s in segments if len(s.text) >= PROSE_CHARS]
    body = statistics.median(s.size for s in prose) if prose else 0.0
    if body <= 0:  # no size read (a font PDFium sets at 0 points): no title told by its type
        return prose, [1.0] * len(prose)
    short = [s for s in segments if len(s.text) < PROSE_CHARS]
    wrapped = wrapped_titles([s for s in short if s.size >= WRAPPED_TITLE_RATIO * body])
    titles = [
        s
        for s in short
        if (s.size >= TITLE_TYPE_RATIO * body or id(s) in wrapped)
        and any(c.isalpha() for c in s.text)
        and any(p.top < s.bottom and s.top < p.bottom for p in prose)
    ]
    return prose + titles, [1.0] * len(prose) + [s.size / body for s in titles]


def wrapped_titles(segments: Sequence[Segment]) -> set[int]:
    """The ids of ``segments`` that stack at one left edge (to the point) in one size
    into one sentence wrapped over them (:func:`one_sentence`): a side title's lines."""
    stacks: dict[tuple[int, float], list[Segment]] = defaultdict(list)
    for segment in segments:
        stacks[round(segment.x0), segment.size].append(segment)
    found: set[int] = set()
    for stack in stacks.values():
        stack.sort(key=lambda s: s.top)
        if one_sentence([s.text for s in stack]):
            found |= {id(s) for s in stack}
    return found


def one_sentence(texts: Sequence[str]) -> bool:
    """Whether ``texts``, lines top down, read as one sentence wrapped over them: each
    after the first goes on in lower case, and none but the last ends a sentence."""
    return (
        len(texts) >= 2
        and all(text[:1].islower() for text in texts[1:])
        and not any(text.rstrip().endswith(_SENTENCE_ENDS) for text in texts[:-1])
    )
