"""Stage A for PDF: watermarks, text drawn at a slant across the pages ("DRAFT",
"CONFIDENTIAL" set large at 45 degrees).

Input: every page's lines in reading order. Output: the same lines without the watermarks.
A line drawn at a slant (its segments ``slanted``: neither upright nor at a right angle) is
a watermark when it is set large, :data:`WATERMARK_SIZE` times the document's text or more,
and the same text is drawn at a slant at about the same place on
:data:`~lightrag_pchunk.pdf.repeats.RUNNING_PAGES` pages or more. Slanted text printed once
or twice (a stamp, a chart's label) stays the page's text, a line of its own; so does
slanted text set about as small as the text, however often it repeats (a table's column
titles set at a slant over its columns on every page, a chart's labels under its axis).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence

from lightrag_pchunk.pdf.layout import Line
from lightrag_pchunk.pdf.repeats import HEIGHT_TOLERANCE, RUNNING_PAGES, as_printed

#: A watermark is set this many times the size of the document's text, at least: it is
#: drawn to run across the page ("DRAFT" at 90 pt over 10 pt text).
WATERMARK_SIZE = 1.5


def is_slanted(line: Line) -> bool:
    """Whether ``line`` is drawn at a slant, every segment of it."""
    return bool(line.segments) and all(segment.slanted for segment in line.segments)


def drop_watermarks(pages: Sequence[Sequence[Line]]) -> list[list[Line]]:
    """``pages`` without their watermarks (see the module doc)."""
    upright = [line.size for lines in pages for line in lines if not is_slanted(line)]
    least = WATERMARK_SIZE * statistics.median(upright) if upright else 0.0
    places: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
    for index, lines in enumerate(pages):
        for line in lines:
            if _is_large_and_slanted(line, least):
                places[as_printed(line.text)].append((index, line.x0, line.top))
    if not places:
        return [list(lines) for lines in pages]
    return [
        [
            line
            for line in lines
            if not (_is_large_and_slanted(line, least) and _repeats(line, places))
        ]
        for lines in pages
    ]


def _is_large_and_slanted(line: Line, least: float) -> bool:
    """Whether ``line`` is drawn at a slant in a size of ``least`` points or more."""
    return is_slanted(line) and line.size >= least


def _repeats(line: Line, places: Mapping[str, Sequence[tuple[int, float, float]]]) -> bool:
    """Whether ``places`` (by a text as printed: page index, x0, top) put the line's text
    at about its place on :data:`RUNNING_PAGES` pages or more."""
    near = {
        page
        for page, x0, top in places[as_printed(line.text)]
        if abs(x0 - line.x0) <= HEIGHT_TOLERANCE and abs(top - line.top) <= HEIGHT_TOLERANCE
    }
    return len(near) >= RUNNING_PAGES
