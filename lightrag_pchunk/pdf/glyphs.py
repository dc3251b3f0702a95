"""Stage A for PDF: one page's characters, read once, and how its glyphs follow each other.

Input: a PDFium page and its text page. Output: :class:`PageGlyphs`: the page's characters
(one per PDFium index), each one's box in user space (read once, into an array), which have
ink, which are right-to-left, the direction most of the page's text runs in, and the ranges
of glyphs read in another direction. :func:`goes_on_pairs` says, for every pair of
successive glyphs at once (numpy), whether the second continues the first's segment; the
segments themselves are made in ``segments``.

PDFium's own line breaks (``"\\r\\n"`` in its text) do not decide: in justified text set by
Word they fall in the middle of printed lines, and a hyphenated line is joined to the next
without one (the hyphen becomes U+FFFE or U+0002). The glyphs' boxes decide instead.

The reading frame: the direction most glyphs on the page run in (a landscape table set on
a portrait page runs upwards) becomes "left to right, top down", so later stages see every
page upright whatever its ``/Rotate`` and text matrices. Glyphs at another angle (a margin
label, an axis title) are read in their own frame.
"""

from __future__ import annotations

import ctypes
import itertools
import math
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from lightrag_pchunk.pdf.char_text import blank_marks_as_spaces, ligatures_in_order, page_chars
from lightrag_pchunk.pdf.rules import Rule, rules_in_frame
from lightrag_pchunk.pdf.tab_spaces import tabs_as_spaces

#: A gap ahead wider than this many times the glyphs' height ends a segment: word spaces
#: in justified text reach about 0.6 of it, column gutters and cell edges are wider.
WIDE_GAP = 0.9
#: Two glyphs share a baseline when their boxes overlap vertically by this share of the
#: smaller one (a superscript keeps its line, the next printed line does not).
SAME_LINE_OVERLAP = 0.5
#: Characters sampled to find the direction most of a page's text runs in.
_DIRECTION_SAMPLE = 48
#: A glyph turned more than this many degrees from a right angle is drawn at a slant (a
#: watermark across the page); a scan's text skewed a few degrees is upright.
SLANT_DEGREES = 15.0


def _code_table(codes: Sequence[int]) -> np.ndarray:
    """Whether each code point (to U+10FFFF) is one of ``codes``: a page's characters are
    looked up in it all at once (``np.isin`` sorts them for each page, a tenth of reading
    its glyphs)."""
    table = np.zeros(sys.maxunicode + 1, dtype=bool)
    table[list(codes)] = True
    return table


#: Spaces and line ends: never ink.
_NOT_INK = _code_table([ord(" "), ord("\r"), ord("\n"), 0xA0, 0x3000])
#: Glyphs that join the letters on either side, never a word's edge: the kashida (U+0640)
#: that stretches justified Arabic, which PDFium reads as a control character (U+0017)
#: from some producers. Their boxes stand apart from the letters they join.
_JOINING = _code_table([0x0640, *range(0x03, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])


def frame_box(direction: int, boxes: np.ndarray) -> tuple[np.ndarray, ...]:
    """User-space boxes (rows of left, top, right, bottom) in the reading frame of text
    running ``direction`` degrees counter-clockwise: ``x0, top, x1, bottom`` arrays, with
    x along the text and y down across it."""
    left, top, right, bottom = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    if direction == 0:
        return left, -top, right, -bottom
    if direction == 90:
        return bottom, left, top, right
    if direction == 180:
        return -right, bottom, -left, top
    return -top, -right, -bottom, -left


def _direction(raw: object, index: int) -> int:
    """The direction glyph ``index`` runs in: degrees counter-clockwise from "left to
    right" in user space, to the nearest 90 (PDFium measures its angle clockwise)."""
    angle = pdfium_c.FPDFText_GetCharAngle(raw, index)
    if angle < 0:
        return 0
    return round((360 - math.degrees(angle)) / 90) % 4 * 90


_MATRIX = pdfium_c.FS_MATRIX()


def is_glyph_slanted(raw: object, index: int) -> bool:
    """Whether glyph ``index``'s baseline runs at a slant: more than :data:`SLANT_DEGREES`
    from every right angle. Its matrix tells (the baseline runs along its x axis): a
    synthetic italic's skew leaves the baseline level, where PDFium's angle of the glyph
    reads the skew."""
    if not pdfium_c.FPDFText_GetMatrix(raw, index, _MATRIX):
        return False
    angle = math.degrees(math.atan2(_MATRIX.b, _MATRIX.a)) % 90
    return SLANT_DEGREES < angle < 90 - SLANT_DEGREES


@dataclass(frozen=True, slots=True)
class PageGlyphs:
    """One page's characters, read once, before they are cut into segments: the text (one
    character per PDFium index), each character's box in user space, the indexes of the
    ones with ink, which are right-to-left (Arabic, Hebrew), which join the letters on
    either side (a kashida), the direction most text runs in and the ranges read in each
    direction,
    the page's extent and rules in the reading frame (``barriers``: the vertical ones, which
    end segments), and PDFium's text page (open while segments are made: their font sizes
    and weights are read from it)."""

    number: int
    text: str
    boxes: np.ndarray
    rtl: np.ndarray
    joining: np.ndarray
    ink: np.ndarray
    direction: int
    stretches: tuple[tuple[int, int, int], ...]
    frame: tuple[float, float, float, float]
    rules: np.ndarray
    barriers: np.ndarray
    raw: object


def read_glyphs(
    page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, number: int, rules: Sequence[Rule] = ()
) -> PageGlyphs:
    """One page's characters and their boxes (see :class:`PageGlyphs`); the segments are
    cut by ``segments.glyph_runs``."""
    raw = textpage.raw
    text = page_chars(textpage)
    left, bottom, right, top = page.get_cropbox()
    if not (right > left and top > bottom):  # a box without area, or not a number: PDFium's
        left, bottom, right, top = page.get_bbox()  # own page box, where it places the text
    page_box = np.array([[left, top, right, bottom]], dtype=np.float64)
    if not text:
        empty = np.zeros((0, 4))
        frame = _extent(frame_box(0, page_box))
        none = np.zeros(0, dtype=np.int64)
        no = none.astype(bool)
        return PageGlyphs(number, "", empty, no, no, none, 0, (), frame, empty, empty, raw)
    text = blank_marks_as_spaces(raw, text)
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    is_low_surrogate = (codes >= 0xDC00) & (codes <= 0xDFFF)
    printable = ~_NOT_INK[codes] & ~is_low_surrogate
    boxes = _char_boxes(raw, len(text), np.flatnonzero(printable))
    _fix_broken_boxes(raw, boxes, (left, bottom, right, top))
    has_area = (boxes[:, 2] > boxes[:, 0]) | (boxes[:, 1] > boxes[:, 3])
    inked = has_area & printable & _on_page(boxes, (left, bottom, right, top))
    ink = np.flatnonzero(inked)
    rtl = is_rtl(codes)
    text = ligatures_in_order(text, boxes, rtl & has_area)
    step = max(len(ink) // _DIRECTION_SAMPLE, 1)
    # Slanted glyphs (a watermark) say nothing of the direction the page's text runs in.
    votes = Counter(
        _direction(raw, i) for i in ink[::step].tolist() if not is_glyph_slanted(raw, i)
    )
    direction = votes.most_common(1)[0][0] if votes else 0
    # Tabs printed as word spaces are spaces, no ink (``tab_spaces``).
    text, spaces = tabs_as_spaces(raw, text, boxes, inked, partial(frame_box, direction))
    if len(spaces):
        boxes[spaces] = 0.0
        ink = np.setdiff1d(ink, spaces)
    in_frame = rules_in_frame(list(rules), direction)
    return PageGlyphs(
        number=number,
        text=text,
        boxes=boxes,
        rtl=rtl,
        joining=_JOINING[codes],
        ink=ink,
        direction=direction,
        stretches=tuple(_stretches(raw, boxes, rtl, ink, direction)),
        frame=_extent(frame_box(direction, page_box)),
        rules=in_frame,
        barriers=in_frame[in_frame[:, 2] - in_frame[:, 0] < 1.0],
        raw=raw,
    )


def _extent(frame: tuple[np.ndarray, ...]) -> tuple[float, float, float, float]:
    x0, top, x1, bottom = (float(v[0]) for v in frame)
    return min(x0, x1), min(top, bottom), max(x0, x1), max(top, bottom)


def _char_boxes(raw: object, count: int, printable: np.ndarray) -> np.ndarray:
    """The loose box (PDFium's FS_RECTF: left, top, right, bottom) of each ``printable``
    character of the ``count``; the others' (spaces, line ends) stay empty: they are no ink
    (one PDFium call a character is most of reading a page's glyphs)."""
    rects = (pdfium_c.FS_RECTF * count)()
    loose_box = pdfium_c.FPDFText_GetLooseCharBox
    for index in printable.tolist():
        loose_box(raw, index, rects[index])
    return np.frombuffer(rects, dtype=np.float32).reshape(count, 4).astype(np.float64)


#: Points a glyph's middle may stand outside the crop box and still be read (a box drawn
#: to the paper's edge, a glyph half off it).
_CROP_SLACK = 1.0


def _on_page(boxes: np.ndarray, page: tuple[float, float, float, float]) -> np.ndarray:
    """Which glyphs stand on the page a reader sees, its crop box: their middle inside it.
    Text printed outside it is shown by no viewer (a proof's slug over a larger sheet, "Page
    13 of 48  Fileid: …  The type and rule above prints on all proofs"), and is no text of
    the document's."""
    left, bottom, right, top = page
    middle_x = (boxes[:, 0] + boxes[:, 2]) / 2
    middle_y = (boxes[:, 1] + boxes[:, 3]) / 2
    return (
        (middle_x >= left - _CROP_SLACK)
        & (middle_x <= right + _CROP_SLACK)
        & (middle_y >= bottom - _CROP_SLACK)
        & (middle_y <= top + _CROP_SLACK)
    )


def _fix_broken_boxes(
    raw: object, boxes: np.ndarray, page: tuple[float, float, float, float]
) -> None:
    """Glyphs whose loose box is far larger than the page (a font with a broken bounding
    box) get their tight box instead; one still off the page is not printed on it, and
    gets no area (it is read as no ink)."""
    left, bottom, right, top = page
    size = max(right - left, top - bottom)
    heights = boxes[:, 1] - boxes[:, 3]
    widths = boxes[:, 2] - boxes[:, 0]
    broken = np.flatnonzero((heights > size) | (widths > size))
    if not len(broken):
        return
    x0, x1, y0, y1 = (ctypes.c_double() for _ in range(4))
    for index in broken.tolist():
        pdfium_c.FPDFText_GetCharBox(raw, index, x0, x1, y0, y1)
        box = (x0.value, y1.value, x1.value, y0.value)
        inside = left - size <= box[0] <= right + size and bottom - size <= box[3] <= top + size
        boxes[index] = box if inside and box[1] - box[3] <= size else (0.0, 0.0, 0.0, 0.0)


def _stretches(
    raw: object, boxes: np.ndarray, rtl_of: np.ndarray, ink: np.ndarray, direction: int
) -> list[tuple[int, int, int]]:
    """``(start, stop, direction)`` ranges of ``ink`` read in one frame: the page's, and
    the runs of glyphs at another angle (found where the page's frame breaks them into
    segments of a few glyphs each)."""
    stretches: list[tuple[int, int, int]] = []
    done = 0  # ink before this is in a stretch already
    for start, end in _runs(boxes, rtl_of, ink, direction):
        if start < done or end - start > _ROTATED_PROBE:
            continue
        own = _direction(raw, int(ink[start]))
        if own == direction:
            continue
        stop = end
        while stop < len(ink) and _direction(raw, int(ink[stop])) == own:
            stop += 1
        if start > done:
            stretches.append((done, start, direction))
        stretches.append((start, stop, own))
        done = stop
    if done < len(ink):
        stretches.append((done, len(ink), direction))
    return stretches


#: A segment this short (glyphs) in the page's frame may be text at another angle, one
#: glyph per "line".
_ROTATED_PROBE = 3


def _runs(
    boxes: np.ndarray, rtl_of: np.ndarray, glyphs: np.ndarray, direction: int
) -> list[tuple[int, int]]:
    """``(start, end)`` ranges of ``glyphs`` (positions in it) that form one segment each,
    read in ``direction``'s frame."""
    if len(glyphs) == 0:
        return []
    x0, top, x1, bottom = frame_box(direction, boxes[glyphs])
    goes_on = goes_on_pairs(x0, top, x1, bottom, rtl_of[glyphs])
    cuts = [0, *(np.flatnonzero(~goes_on) + 1).tolist(), len(glyphs)]
    return list(itertools.pairwise(cuts))


NO_BARRIERS = np.zeros((0, 4))
NO_GUTTERS = np.zeros(0)
#: A gap across a column gutter this wide (times the glyphs' height) ends a segment: two
#: columns' lines printed close together; a title spanning the columns has word spaces only.
GUTTER_GAP = 0.6


def is_rtl(codes: np.ndarray) -> np.ndarray:
    """Which characters belong to a right-to-left script (Hebrew, Arabic and its
    presentation forms): their glyphs follow each other leftwards."""
    return (
        ((codes >= 0x0590) & (codes <= 0x08FF))
        | ((codes >= 0xFB1D) & (codes <= 0xFDFF))
        | ((codes >= 0xFE70) & (codes <= 0xFEFF))
    )


def pair_gaps(
    x0: np.ndarray, x1: np.ndarray, rtl: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each pair of successive glyphs, the space between them (``lo`` to ``hi``) and
    its width: after the first glyph, or before it where either is right-to-left."""
    backwards = rtl[:-1] | rtl[1:]
    lo = np.where(backwards, x1[1:], x1[:-1])
    hi = np.where(backwards, x0[:-1], x0[1:])
    return hi - lo, lo, hi


def goes_on_pairs(
    x0: np.ndarray,
    top: np.ndarray,
    x1: np.ndarray,
    bottom: np.ndarray,
    rtl: np.ndarray,
    barriers: np.ndarray = NO_BARRIERS,
    gutters: np.ndarray = NO_GUTTERS,
    joining: np.ndarray | None = None,
) -> np.ndarray:
    """For each pair of successive glyphs, whether the second continues the first's
    segment: on its baseline, not behind it (right-to-left glyphs go leftwards; a
    ``joining`` glyph, a kashida, goes either way), not a wide gap ahead, no vertical rule
    between them (``barriers``: rows of ``x, top, x, bottom`` in the frame), no column
    gutter (x) in a gap wider than a word space."""
    height = bottom - top
    overlap = np.minimum(bottom[:-1], bottom[1:]) - np.maximum(top[:-1], top[1:])
    gap, lo, hi = pair_gaps(x0, x1, rtl)
    tall = np.maximum(height[:-1], height[1:])
    # Ligature parts share one box, kerned glyphs overlap: only a glyph that starts
    # before the previous one started is behind it.
    forwards = np.where(
        rtl[:-1] | rtl[1:],
        x1[1:] <= x1[:-1] + 0.2 * tall,
        x0[1:] >= x0[:-1] - 0.2 * tall,
    )
    if joining is not None:
        forwards |= joining[:-1] | joining[1:]
    goes_on = (
        (overlap >= SAME_LINE_OVERLAP * np.minimum(height[:-1], height[1:]))
        & forwards
        & (gap <= WIDE_GAP * tall)
    )
    if len(barriers):
        pairs = np.flatnonzero(goes_on & (gap > 0))
        if len(pairs):
            middle = ((top[pairs] + bottom[pairs]) / 2)[:, None]
            walls = barriers[None, :, :]
            between = (lo[pairs][:, None] - 0.5 <= walls[..., 0]) & (
                walls[..., 0] <= hi[pairs][:, None] + 0.5
            )
            across = (walls[..., 1] <= middle) & (middle <= walls[..., 3])
            goes_on[pairs[(between & across).any(axis=1)]] = False
    if len(gutters):
        pairs = np.flatnonzero(goes_on & (gap >= GUTTER_GAP * tall))
        if len(pairs):
            inside = (lo[pairs][:, None] - 0.5 <= gutters[None, :]) & (
                gutters[None, :] <= hi[pairs][:, None] + 0.5
            )
            goes_on[pairs[inside.any(axis=1)]] = False
    return goes_on
