"""Stage A for PDF: a page's glyphs -> segments, runs of glyphs on one baseline, with their
text, boxes and font.

Input: :class:`~lightrag_pchunk.pdf.glyphs.PageGlyphs` (a page's characters, read once).
Output: :class:`PageText`, the page's :class:`Segment` s. A segment ends where the next glyph
is not on its baseline, lies behind it, or lies more than a wide gap ahead of it (a column
gutter, a table cell's edge), or where a vertical rule stands between them; all of it is
decided for the whole page at once (``glyphs.goes_on_pairs``). Each segment's font size
and weight are read from PDFium at three of its glyphs (first, middle, last), the size at
each of its letters where those three differ (``fonts.run_size``).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from lightrag_pchunk.pdf.fonts import font_of, font_size, is_bold, run_size
from lightrag_pchunk.pdf.glyphs import (
    NO_BARRIERS,
    NO_GUTTERS,
    PageGlyphs,
    frame_box,
    goes_on_pairs,
    is_glyph_slanted,
    pair_gaps,
)
from lightrag_pchunk.pdf.letter_spacing import closing_pairs, tracked_spacing
from lightrag_pchunk.pdf.script_marks import raised_marks

#: A gap of this share of the height between two adjacent glyphs is a word space that
#: PDFium did not write.
SPACE_GAP = 0.22
#: What PDFium writes for a hyphen it found at a line end (the word goes on on the next
#: line): U+FFFE, or U+0002 in some fonts.
SOFT_HYPHENS = "\ufffe\x02"
#: A non-breaking hyphen, which no line may end in: where one ends a line all the same,
#: the producer printed its hyphenation break with it (a Word export: "ar\u2011" over
#: "chitects"), and it is read as a marked one.
NON_BREAKING_HYPHEN = "\u2011"
#: The hyphens a line can end in that may cut a word: a plain one or a marked one.
LINE_END_HYPHENS = ("-", NON_BREAKING_HYPHEN, *SOFT_HYPHENS)


def plain_hyphens(text: str) -> str:
    """``text`` with each marked hyphen (:data:`SOFT_HYPHENS`) a plain one (a replace for
    each costs far less than ``str.translate`` over text that is not ASCII)."""
    for mark in SOFT_HYPHENS:
        text = text.replace(mark, "-")
    return text


# What LightRAG strips from content, but the soft hyphens (the paragraph joiner needs them).
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROLS = re.compile("[\x00\x01\x03-\x08\x0b\x0c\x0e-\x1f\x7f\uffff]")


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of glyphs on one baseline.

    ``x0``, ``top``, ``x1``, ``bottom`` place it in the page's reading frame (y grows down
    the page); ``bbox`` is ``(left, bottom, right, top)`` in PDF user space (LightRAG's
    ``LEFTBOTTOM`` origin), for the blocks' positions. ``size`` is the font size in points
    of its middle glyph, or the one most of its letters are set at where its ends and middle
    differ (``fonts.run_size``: a drop cap or an inline formula does not set it), and
    ``bold`` whether its first and last glyphs are bold (a table's stand-in: its cells'
    median size, not bold), ``opens_bold`` whether its first is (a bold title's last words
    before its reference in the text's look), ``closes_bold`` whether its last is (a phrase
    set bold inside a paragraph, its weight running on at the next line); ``font`` the name
    and weight of its middle glyph's font (``fonts.font_of``; "" for a table's stand-in).
    ``first_char``,
    ``middle_char`` and ``last_char`` index the page's characters (PDFium's list).
    ``rotated``: its glyphs run at another angle than the page's text; ``slanted``: at a
    slant, neither upright nor at a right angle (a watermark drawn across the page; rotated
    too). ``table``: the key of the table this segment stands for (it was put in the place
    of the table's segments by ``tables.TableFinder``), "" for text.
    ``closes_up``: the page's glyph this segment's first glyph is set letter-spaced after,
    on its line, read without a space between (``letter_spacing``); -1: none.
    """

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    bbox: tuple[float, float, float, float]
    first_char: int
    middle_char: int
    last_char: int
    size: float = 0.0
    bold: bool = False
    opens_bold: bool = False
    closes_bold: bool = False
    font: str = ""
    rotated: bool = False
    slanted: bool = False
    table: str = ""
    closes_up: int = -1

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def width(self) -> float:
        return self.x1 - self.x0


@dataclass(frozen=True, slots=True)
class PageText:
    """The segments of one page (1-based ``number``), the page's extent in its reading
    frame (``x0, top, x1, bottom``), how many characters PDFium read on it, the direction
    its text runs in (degrees counter-clockwise in user space) and its rules in the
    reading frame (rows of ``x0, top, x1, bottom``, see ``rules.rules_in_frame``).
    ``gutters``: the strips between its columns of text as read before any table was
    taken out of it (``layout.read_segments``: ``x0, x1`` and where the prose on the
    left ends)."""

    number: int
    segments: tuple[Segment, ...]
    frame: tuple[float, float, float, float]
    chars: int
    direction: int = 0
    rules: np.ndarray | None = None
    gutters: tuple[tuple[float, float, float], ...] = ()


def glyph_runs(glyphs: PageGlyphs, gutters: Sequence[float] = ()) -> list[Segment]:
    """The segments of the page's stretches in order, those of text at another angle placed
    in the page's frame, before :func:`page_text` keeps one of each printed twice. A
    vertical rule between two glyphs (a table's cell border) ends a segment however narrow
    the gap, and so does a column ``gutter`` (x in the reading frame) under an upright gap
    wider than a word space (:func:`cut_at_gutters` cuts the runs read without them)."""
    walls = np.array(sorted(gutters), dtype=np.float64)
    page_fonts: dict[int, tuple[bool, str]] = {}
    runs: list[Segment] = []
    for start, stop, own in glyphs.stretches:
        upright = own == glyphs.direction
        found = make_segments(
            glyphs,
            glyphs.ink[start:stop],
            own,
            glyphs.barriers if upright else NO_BARRIERS,
            walls if upright else NO_GUTTERS,
            page_fonts,
        )
        runs.extend(found if upright else (_placed(s, glyphs.direction) for s in found))
    return runs


def cut_at_gutters(
    glyphs: PageGlyphs, runs: list[Segment], gutters: Sequence[float]
) -> list[Segment]:
    """``runs`` (:func:`glyph_runs` without gutters) with each column ``gutter`` (x in the
    reading frame) ending the upright ones where their gap over it is wider than a word
    space: ``glyph_runs(glyphs, gutters)``, each pair of glyphs decided alone
    (``glyphs.goes_on_pairs``), so only a run that reaches over a gutter is cut again."""
    walls = np.array(sorted(gutters), dtype=np.float64)
    page_fonts: dict[int, tuple[bool, str]] = {}
    cut: list[Segment] = []
    for run in runs:
        reaches = ((run.x0 - 0.5 <= walls) & (walls <= run.x1 + 0.5)).any()
        if run.rotated or not reaches:
            cut.append(run)
            continue
        own = glyphs_of(glyphs, run)
        cut += make_segments(glyphs, own, glyphs.direction, glyphs.barriers, walls, page_fonts)
    return cut


def page_text(glyphs: PageGlyphs, runs: list[Segment]) -> PageText:
    """The page with the segments of ``runs`` that hold text, the same text printed twice a
    hair apart (fake bold) read once."""
    segments: list[Segment] = []
    seen: set[tuple[str, int, int]] = set()
    for segment in runs:
        key = (segment.text, round(segment.x0), round(segment.top))
        if segment.text and key not in seen:
            seen.add(key)
            segments.append(segment)
    return PageText(
        glyphs.number,
        tuple(segments),
        glyphs.frame,
        len(glyphs.text),
        glyphs.direction,
        glyphs.rules,
    )


def glyphs_of(glyphs: PageGlyphs, segment: Segment) -> np.ndarray:
    """The indexes of the page's glyphs with ink that ``segment`` holds (``glyphs.ink`` is
    in text order, so the segment's are one slice of it)."""
    ink = glyphs.ink
    start = np.searchsorted(ink, segment.first_char, side="left")
    stop = np.searchsorted(ink, segment.last_char, side="right")
    return ink[start:stop]


def make_segments(
    page: PageGlyphs,
    glyphs: np.ndarray,
    direction: int,
    barriers: np.ndarray,
    gutters: np.ndarray,
    page_fonts: dict[int, tuple[bool, str]],
) -> list[Segment]:
    """The segments of ``glyphs`` (indexes into the page's characters) read in
    ``direction``'s frame, their extents computed for all of them at once; ``page_fonts``
    holds the page's fonts judged so far (``fonts.font_of``)."""
    if len(glyphs) == 0:
        return []
    text, boxes, raw = page.text, page.boxes, page.raw
    x0, top, x1, bottom = frame_box(direction, boxes[glyphs])
    rtl = page.rtl[glyphs]
    joining = page.joining[glyphs]
    goes_on = goes_on_pairs(x0, top, x1, bottom, rtl, barriers, gutters, joining)
    # A note's mark set small and raised against a CJK character (a note's number against a
    # letter) at the segment's end is a segment of its own (``script_marks``), closed up to
    # it where no space parts them.
    raised = raised_marks(top, bottom, goes_on, text, glyphs)
    goes_on &= ~raised
    starts = np.concatenate(([0], np.flatnonzero(~goes_on) + 1))
    # Word spaces PDFium did not write: adjacent glyphs of one segment with a gap wider
    # than its letter spacing by a word space.
    height = bottom - top
    gap = pair_gaps(x0, x1, rtl)[0]
    word_space = SPACE_GAP * np.maximum(height[1:], height[:-1])
    spacing = tracked_spacing(text, glyphs, starts, gap, goes_on & (gap > word_space))
    spaced = goes_on & (gap - spacing > word_space)
    spaced &= np.diff(glyphs) == 1
    spaced &= ~(joining[:-1] | joining[1:])
    parted = ~goes_on | spaced | (np.diff(glyphs) > 1)
    closing = closing_pairs(
        page, glyphs, parted, lambda b: frame_box(direction, b), lambda i: font_size(raw, i)
    )
    closing |= raised & (gap <= SPACE_GAP * np.minimum(height[1:], height[:-1]))
    spaced &= ~closing
    space_before = glyphs[np.flatnonzero(spaced) + 1].tolist()  # ascending
    closed_before = glyphs[np.flatnonzero(closing) + 1].tolist()  # ascending
    user = boxes[glyphs]
    extents = [
        np.minimum.reduceat(x0, starts).tolist(),
        np.minimum.reduceat(top, starts).tolist(),
        np.maximum.reduceat(x1, starts).tolist(),
        np.maximum.reduceat(bottom, starts).tolist(),
        *(
            np.round(reduce(column, starts), 2).tolist()
            for reduce, column in (
                (np.minimum.reduceat, user[:, 0]),
                (np.minimum.reduceat, user[:, 3]),
                (np.maximum.reduceat, user[:, 2]),
                (np.maximum.reduceat, user[:, 1]),
            )
        ),
    ]
    ends = np.concatenate((starts[1:], [len(glyphs)]))
    firsts = glyphs[starts].tolist()
    lasts = glyphs[ends - 1].tolist()
    middles = glyphs[(starts + ends) // 2].tolist()
    segments = []
    for k, (first, middle, last) in enumerate(zip(firsts, middles, lasts, strict=True)):
        # Slanted text forms lines of its own: it crosses the upright lines, never one of them.
        slanted = is_glyph_slanted(raw, first) and is_glyph_slanted(raw, last)
        opens_bold = is_bold(raw, first, page_fonts)
        closes_bold = is_bold(raw, last, page_fonts)
        segments.append(
            Segment(
                text=_span_text(text, first, last, space_before, closed_before),
                x0=extents[0][k],
                top=extents[1][k],
                x1=extents[2][k],
                bottom=extents[3][k],
                bbox=(extents[4][k], extents[5][k], extents[6][k], extents[7][k]),
                first_char=first,
                middle_char=middle,
                last_char=last,
                size=run_size(raw, text, glyphs[starts[k] : ends[k]].tolist()),
                bold=opens_bold and closes_bold,
                opens_bold=opens_bold,
                closes_bold=closes_bold,
                font=font_of(raw, middle, page_fonts)[1],
                rotated=slanted,
                slanted=slanted,
                closes_up=int(glyphs[starts[k] - 1])
                if starts[k] and closing[starts[k] - 1]
                else -1,
            )
        )
    return segments


def _span_text(
    text: str, first: int, last: int, space_before: list[int], closed_before: list[int]
) -> str:
    """The characters ``first``..``last``, with the word spaces found by geometry (before
    the characters ``space_before`` lists, ascending), without the spaces PDFium wrote
    into letter spacing (before the characters ``closed_before`` lists, ascending),
    PDFium's line breaks made spaces, and surrogate pairs made one character."""
    cuts = [(p, " ") for p in _inside(space_before, first, last)]
    cuts += [(p, "") for p in _inside(closed_before, first, last)]
    span = text[first : last + 1]
    if cuts:
        pieces, at = [], first
        for position, joiner in sorted(cuts):
            piece = text[at:position]
            pieces.append((piece.rstrip() if not joiner else piece) + joiner)
            at = position
        pieces.append(text[at : last + 1])
        span = "".join(pieces)
    if "\r" in span or "\n" in span:
        span = " ".join(span.replace("\r", " ").replace("\n", " ").split())
    if _SURROGATE.search(span):
        span = span.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return _CONTROLS.sub("", span).strip()


def _inside(positions: list[int], first: int, last: int) -> list[int]:
    """The ``positions`` (ascending) after ``first`` up to ``last``."""
    return positions[bisect.bisect_right(positions, first) : bisect.bisect_right(positions, last)]


def _placed(segment: Segment, direction: int) -> Segment:
    """A segment read in its own frame, placed by its box in the page's frame."""
    left, low, right, high = segment.bbox
    frame = frame_box(direction, np.array([[left, high, right, low]]))
    x0, top, x1, bottom = (float(v[0]) for v in frame)
    return replace(
        segment,
        x0=min(x0, x1),
        top=min(top, bottom),
        x1=max(x0, x1),
        bottom=max(top, bottom),
        rotated=True,
    )


@dataclass(frozen=True)
class WordCutter:
    """Cuts the upright segments of a page at their word spaces (a table's column titles
    printed one space apart are one segment), but segments holding right-to-left text.
    ``glyphs``: the page's, its text page open."""

    glyphs: PageGlyphs

    def spaces(self, segment: Segment) -> list[tuple[float, float]]:
        """The word spaces of ``segment``, left to right: where each starts and ends in the
        reading frame (a space PDFium wrote between two glyphs, or a gap as wide as one)."""
        _, lo, hi, spaced = self._spaces(segment)
        return [(float(lo[k]), float(hi[k])) for k in np.flatnonzero(spaced)]

    def cut(self, segment: Segment, at: Sequence[float]) -> list[Segment]:
        """``segment`` cut at each word space that holds one of ``at`` (x in the reading
        frame), left to right; ``[segment]`` when none does or the cut reads otherwise."""
        own, lo, hi, spaced = self._spaces(segment)
        cuts = [k + 1 for k in np.flatnonzero(spaced) if any(lo[k] <= x <= hi[k] for x in at)]
        if not cuts:
            return [segment]
        pieces = []
        for start, stop in itertools.pairwise([0, *cuts, len(own)]):
            found = make_segments(
                self.glyphs, own[start:stop], self.glyphs.direction, NO_BARRIERS, NO_GUTTERS, {}
            )
            if len(found) != 1:
                return [segment]
            pieces.append(found[0])
        if " ".join(piece.text for piece in pieces) != segment.text:
            return [segment]
        return pieces

    def _spaces(self, segment: Segment) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The segment's glyphs (their indexes), the start and end of the space after each
        but the last, and which of those spaces part words."""
        own = glyphs_of(self.glyphs, segment)
        if len(own) < 2 or self.glyphs.rtl[own].any():  # right to left: its words run back
            empty = np.zeros(0)
            return own, empty, empty, empty.astype(bool)
        x0, top, x1, bottom = frame_box(self.glyphs.direction, self.glyphs.boxes[own])
        gap, lo, hi = pair_gaps(x0, x1, self.glyphs.rtl[own])
        height = np.maximum((bottom - top)[1:], (bottom - top)[:-1])
        text = self.glyphs.text
        written = np.array(
            [not text[a + 1 : b].strip() and b > a + 1 for a, b in itertools.pairwise(own)]
        )
        return own, lo, hi, (gap > 0) & (written | (gap > SPACE_GAP * height))
