"""Stage A for PDF: bookmarks that name the title of a frame of one cell, which head nothing.

A table's cell is no section: the Word parser keeps a table whole, and a heading style in
one of its cells heads nothing. A page prints a table of one cell (a box, a sidebar: "Box
2: Governance issues …" over the box's text, "INSTRUCTIONS" over a form's notes) as four
rules framing its text, which the table finder takes for no table (a grid has two cells at
least), while the file's bookmarks may still name the title the cell opens with (a
producer writes one for every paragraph with an outline level, in a cell too). A bookmark
whose title is the first line inside such a frame, over lines of the frame's own, names a
cell's title: it is left out of the outline, and the frame's text is text. Not a frame as
tall as most of the page (a page's border, a box the page's text runs on in), nor one around
its title alone, on one line or wrapped over several (a heading set in a box of its own).

Input: a page's bookmarks, rules and lines. Output: the bookmarks that name a frame's title.
"""

from __future__ import annotations

from collections.abc import Sequence

from lightrag_pchunk.pdf.bookmark_match import MATCH_SIMILARITY, line_top, points_at
from lightrag_pchunk.pdf.layout import Line
from lightrag_pchunk.pdf.outline import Bookmark, normalise, similarity
from lightrag_pchunk.pdf.rules import Rule

#: Rules closer than this (points) meet at a corner.
CORNER = 2.0
#: A frame at most this share of the page's height: a taller one is the page's border, or
#: a box whose text runs on over the page.
FRAME_SHARE = 2 / 3

Box = tuple[float, float, float, float]  # left, bottom, right, top (user space)


def framed_titles(
    bookmarks: Sequence[Bookmark], rules: Sequence[Rule], lines: Sequence[Line], height: float
) -> set[int]:
    """The indexes of ``bookmarks`` (of one page, ``height`` points high) that name the
    title a frame of one cell opens with (see the module doc)."""
    # Each frame's first line's top, that line's text and the frame's whole text
    # (normalised), read once for all the page's bookmarks; an empty frame is none.
    framed_lines: list[tuple[float, str, str]] = []
    for box in _frames(rules):
        if box[3] - box[1] > FRAME_SHARE * height:
            continue
        inside = sorted(
            (line for line in lines if _inside(line, box)), key=lambda line: -line_top(line)
        )
        if inside:
            first = inside[0]
            framed = normalise(" ".join(line.text for line in inside))
            framed_lines.append((line_top(first), normalise(first.text), framed))
    named: set[int] = set()
    for number, bookmark in enumerate(bookmarks):
        if bookmark.y is None or not (title := normalise(bookmark.title)):
            continue
        for top, first_text, framed in framed_lines:
            if not points_at(bookmark.y, top) or similarity(title, first_text) < MATCH_SIMILARITY:
                continue
            # A title in a box of its own, on one line or wrapped over several, holds no
            # line of the frame's own: the frame's text is the title's.
            if similarity(title, framed) < MATCH_SIMILARITY:
                named.add(number)
                break
    return named


def _frames(rules: Sequence[Rule]) -> list[Box]:
    """The rectangles four of ``rules`` close with no other rule inside them or touching
    their sides: a frame of one cell, not a grid's."""
    horizontal = sorted(
        (r for r in rules if abs(r.y1 - r.y0) < 1.0 and abs(r.x1 - r.x0) >= 1.0),
        key=lambda r: -r.y0,
    )
    vertical = [r for r in rules if abs(r.x1 - r.x0) < 1.0 and abs(r.y1 - r.y0) >= 1.0]
    frames: list[Box] = []
    for number, top in enumerate(horizontal):
        # The frame's bottom is the nearest rule of the same span below its top (a rule
        # between them would cut it into cells).
        bottom = next(
            (r for r in horizontal[number + 1 :] if r.y0 < top.y0 - CORNER and _same_span(top, r)),
            None,
        )
        if bottom is None:
            continue
        box = (min(top.x0, top.x1), bottom.y0, max(top.x0, top.x1), top.y0)
        sides = [v for v in vertical if _closes(v, box)]
        edges = (top, bottom, *sides)
        if len(sides) == 2 and not any(
            _crosses(r, box) for r in rules if not any(r is edge for edge in edges)
        ):
            frames.append(box)
    return frames


def _same_span(a: Rule, b: Rule) -> bool:
    return (
        abs(min(a.x0, a.x1) - min(b.x0, b.x1)) <= CORNER
        and abs(max(a.x0, a.x1) - max(b.x0, b.x1)) <= CORNER
    )


def _closes(rule: Rule, box: Box) -> bool:
    """Whether vertical ``rule`` is the left or right side of ``box``."""
    left, bottom, right, top = box
    low, high = min(rule.y0, rule.y1), max(rule.y0, rule.y1)
    at_side = abs(rule.x0 - left) <= CORNER or abs(rule.x0 - right) <= CORNER
    return at_side and low <= bottom + CORNER and high >= top - CORNER


def _crosses(rule: Rule, box: Box) -> bool:
    """Whether ``rule`` runs inside ``box`` or meets its sides (the box is then a cell of
    a larger grid, or a grid itself)."""
    left, bottom, right, top = box
    x_low, x_high = min(rule.x0, rule.x1), max(rule.x0, rule.x1)
    y_low, y_high = min(rule.y0, rule.y1), max(rule.y0, rule.y1)
    return (
        x_high >= left - CORNER
        and x_low <= right + CORNER
        and y_high >= bottom - CORNER
        and y_low <= top + CORNER
    )


def _inside(line: Line, box: Box) -> bool:
    left, bottom, right, top = box
    boxes = [s.bbox for s in line.segments]
    middle_x = (min(b[0] for b in boxes) + max(b[2] for b in boxes)) / 2
    middle_y = (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2
    return left < middle_x < right and bottom < middle_y < top
