"""Stage A for PDF: running lines that carry their page's number, found by the number.

A book's running header or footer prints the page's number at one end, set apart from a
title that changes with the chapter or section: "6    Chapter 2. Applying for an account" on
a left-hand page, "2.3. Registering an account    7" on a right-hand one. A short chapter
prints its title on one or two pages only, too few to make a running line by repetition
(:mod:`.furniture`). Its number gives it away: a document's page numbers run with its pages,
each the page's index plus one offset for the whole document (a cover and a front matter
unnumbered before them).

Such a line is furniture when it sits in the sheet's top or bottom band, it is the outermost
line of its page there (nothing printed between it and the sheet's edge), one of its ends is
a number alone set apart from the rest by a wide gap (a segment of its own) that is the
page's number in the sequence, the sequence holds on :data:`SEQUENCE_PAGES` pages or more,
the page prints no other number of that sequence (a page has one number: a table's
"Total    5" over the page's own "5" is the table's), and it is set no larger than the
sequence's lines (a chapter's heading, "3    Results" opening page 3, is larger).

A title set large with its page's number in the corner of its row, small and raised (a
designed report's banner "A2 Broken Authentication" with "8" at the row's end, read as
the title's superscript) is no running line: only its number goes (:func:`_without_mark`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from statistics import median

from lightrag_pchunk.pdf.layout import Line, make_line

#: Pages whose numbers must run in one sequence, at least, before it is trusted.
SEQUENCE_PAGES = 3
#: Digits of a page number, at most.
NUMBER_DIGITS = 4
#: A running line is set no larger than the sequence's lines (their median size), give or
#: take this many points: a chapter's heading whose number happens to be its page's is
#: larger.
SIZE_TOLERANCE = 0.5


def page_numbered_lines(
    pages: Sequence[Sequence[Line]], bands: Sequence[Sequence[Line]]
) -> tuple[list[set[int]], list[dict[int, Line]]]:
    """The ids, page by page, of the lines of ``pages`` that carry their page's number in
    the document's sequence at one end, beside other text (or alone: a page number, which
    :mod:`.furniture` drops in the sheet's bands anyway); and, page by page, the lines that
    carry it as a raised mark of their title (:func:`_without_mark`), each by its id with the
    line it is without the number. ``bands``: each page's lines in the sheet's bands (with
    their text as printed), in the page's order, and any other line to weigh as theirs
    (:func:`with_lowest_numbers`)."""
    numbers = [[(line, number) for line in band if (number := _end_number(line))] for band in bands]
    offset = _sequence_offset(numbers)
    if offset is None:
        return [set() for _ in pages], [{} for _ in pages]
    runs = [
        [line for line, number in found if number - index == offset]
        for index, found in enumerate(numbers)
    ]
    titles = [
        {id(line): rest for line in run if len(run) == 1 and (rest := _without_mark(line))}
        for run in runs
    ]
    sized = [
        line.size
        for run, marked in zip(runs, titles, strict=True)
        for line in run
        if id(line) not in marked
    ]
    size = median(sized or [0.0]) + SIZE_TOLERANCE
    whole = [
        {
            id(line)
            for line in run
            if len(run) == 1
            and id(line) not in marked
            and line.size <= size
            and _outermost(line, lines)
        }
        for lines, run, marked in zip(pages, runs, titles, strict=True)
    ]
    return whole, titles


def with_lowest_numbers(
    pages: Sequence[Sequence[Line]], bands: Sequence[Sequence[Line]]
) -> tuple[list[list[Line]], list[Line | None]]:
    """Each page's ``bands`` with the page's lowest line added where it prints a number
    alone, and those lines (None: none): a page number set right after the page's text,
    over a blank foot (a page printed from a web page, its height left to the sheet), which
    no band of the sheet holds; :func:`page_numbered_lines` weighs it with the bands' lines,
    by the document's sequence."""
    weighed: list[list[Line]] = []
    lowest: list[Line | None] = []
    for lines, band in zip(pages, bands, strict=True):
        low = max(lines, key=lambda line: line.bottom, default=None)
        low = low if low is not None and low.text.strip().isdigit() else None
        weighed.append([*band, low] if low is not None and low not in band else list(band))
        lowest.append(low)
    return weighed, lowest


def _without_mark(line: Line) -> Line | None:
    """``line`` without its page's number, when it prints it at one end as a raised mark
    of its text (the line reads ``<sup>8</sup>`` there, ``scripts.script_segments``): a
    title set large with its page's number small in the corner of its row; None when it
    prints none so (a running line sets its number as its text, on its baseline)."""
    parts = [segment.text.strip() for segment in line.segments]
    text = line.text.strip()
    if len(parts) < 2:
        return None
    first = parts[0].isdigit() and text.startswith(f"<sup>{parts[0]}</sup>")
    last = text.endswith(f"<sup>{parts[-1]}</sup>")
    if not (first or (last and parts[-1].isdigit())):
        return None
    kept = line.segments[:-1] if last else line.segments[1:]
    rest = make_line(kept, line.page, line.column, line.column_x0, line.column_x1)
    return replace(rest, role=line.role, element=line.element)


def _sequence_offset(numbers: Sequence[Sequence[tuple[Line, int]]]) -> int | None:
    """The offset of the page numbers (number minus page index) that the most pages agree
    on, if :data:`SEQUENCE_PAGES` pages do; None otherwise. Of offsets as many pages agree
    on, the one counted first: from the earliest page, the smallest of its offsets (sorted:
    a set of ints iterates in its table's layout, ``{8, 1}`` as 8 then 1, not by value)."""
    pages_by_offset: Counter[int] = Counter()
    for index, found in enumerate(numbers):
        pages_by_offset.update(sorted({number - index for _, number in found}))
    best = pages_by_offset.most_common(1)
    return best[0][0] if best and best[0][1] >= SEQUENCE_PAGES else None


def _end_number(line: Line) -> int | None:
    """The number ``line`` prints alone, or at one end in a segment of its own beside
    text; None for a table's stand-in or a line without such a number."""
    parts = [segment.text.strip() for segment in line.segments]
    if not parts or any(segment.table for segment in line.segments):
        return None
    for part in (parts[0], parts[-1]):
        if part.isdigit() and part.isascii() and len(part) <= NUMBER_DIGITS:
            return int(part)
    return None


def _outermost(line: Line, lines: Sequence[Line]) -> bool:
    """Whether nothing of its page is printed between ``line`` and the nearer edge of the
    sheet (``lines``: the page's): no line wholly above it, or none wholly below it."""
    others = [other for other in lines if other is not line]
    return not any(other.bottom <= line.top for other in others) or not any(
        other.top >= line.bottom for other in others
    )
