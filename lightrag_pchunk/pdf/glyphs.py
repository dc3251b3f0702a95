"""Stage A for PDF: one page's characters -> segments, runs of glyphs on one baseline.

Input: a PDFium page and its text page. Output: :class:`PageText`, the page's
:class:`Segment` s in PDFium's character order, each with its box in the page's reading
frame and in PDF user space, its font size and weight. Nothing but geometry is read here: a
segment ends where the next glyph is not on its baseline, lies behind it, or lies more than
a wide gap ahead of it (a column gutter, a table cell's edge).

PDFium's own line breaks (``"\\r\\n"`` in its text) do not decide: in justified text set by
Word they fall in the middle of printed lines, and a hyphenated line is joined to the next
without one (the hyphen becomes U+FFFE or U+0002). The glyphs' boxes decide instead, read
once per character into an array and compared pairwise with numpy.

The reading frame: the direction most glyphs on the page run in (a landscape table set on
a portrait page runs upwards) becomes "left to right, top down", so later stages see every
page upright whatever its ``/Rotate`` and text matrices. Glyphs at another angle (a margin
label, an axis title) form segments of their own, read in their own frame, marked
``rotated``.
"""

from __future__ import annotations

import ctypes
import itertools
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from lightrag_pchunk.pdf.rules import Rule, rules_in_frame

#: A gap ahead wider than this many times the glyphs' height ends a segment: word spaces
#: in justified text reach about 0.6 of it, column gutters and cell edges are wider.
WIDE_GAP = 0.9
#: Two glyphs share a baseline when their boxes overlap vertically by this share of the
#: smaller one (a superscript keeps its line, the next printed line does not).
SAME_LINE_OVERLAP = 0.5
#: A gap of this share of the height between two adjacent glyphs is a word space that
#: PDFium did not write.
SPACE_GAP = 0.22
#: A font this heavy (CSS weight) or heavier is bold.
BOLD_WEIGHT = 600
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demibold", "extrabold")
#: Characters sampled to find the direction most of a page's text runs in.
_DIRECTION_SAMPLE = 48
#: What PDFium writes for a hyphen it found at a line end (the word goes on on the next
#: line): U+FFFE, or U+0002 in some fonts.
SOFT_HYPHENS = "\ufffe\x02"
# What LightRAG strips from content, but the soft hyphens (the paragraph joiner needs them).
_CONTROLS = re.compile("[\x00\x01\x03-\x08\x0b\x0c\x0e-\x1f\x7f\uffff]")
_NOT_INK = (ord(" "), ord("\r"), ord("\n"), 0xA0, 0x3000)


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of glyphs on one baseline.

    ``x0``, ``top``, ``x1``, ``bottom`` place it in the page's reading frame (y grows down
    the page); ``bbox`` is ``(left, bottom, right, top)`` in PDF user space (LightRAG's
    ``LEFTBOTTOM`` origin), for the blocks' positions. ``size`` is the font size of its
    middle glyph in points (a footnote mark or a drop cap at one end does not set it) and
    ``bold`` whether its first and last glyphs are bold: both read by :func:`styled`, 0 and
    False until then. ``first_char``, ``middle_char`` and ``last_char`` index the page's
    characters (PDFium's list). ``rotated``: its glyphs run at another angle than the
    page's text. ``table``: the key of the table this segment stands for (it was put in
    the place of the table's segments by ``tables.TableFinder``), "" for text.
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
    rotated: bool = False
    table: str = ""

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
    reading frame (rows of ``x0, top, x1, bottom``, see ``rules.rules_in_frame``)."""

    number: int
    segments: tuple[Segment, ...]
    frame: tuple[float, float, float, float]
    chars: int
    direction: int = 0
    rules: np.ndarray | None = None


def page_chars(textpage: pdfium.PdfTextPage) -> str:
    """The page's characters, one per PDFium character index (a character outside the BMP
    takes two, its UTF-16 surrogates, as in PDFium's list)."""
    count = textpage.count_chars()
    if count <= 0:
        return ""
    text = textpage.get_text_range(0, count)
    if len(text) == count:
        return text
    unicode_of = pdfium_c.FPDFText_GetUnicode
    return "".join(chr(unicode_of(textpage.raw, i) or 0xFFFD) for i in range(count))


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


@dataclass(frozen=True, slots=True)
class PageGlyphs:
    """One page's characters, read once, before they are cut into segments: the text (one
    character per PDFium index), each character's box in user space, the indexes of the
    ones with ink, which are right-to-left (Arabic, Hebrew), the direction most text runs
    in and the ranges read in each direction,
    the page's extent and rules in the reading frame, and PDFium's text page (open while
    segments are made: their font sizes and weights are read from it)."""

    number: int
    text: str
    boxes: np.ndarray
    rtl: np.ndarray
    ink: np.ndarray
    direction: int
    stretches: tuple[tuple[int, int, int], ...]
    frame: tuple[float, float, float, float]
    rules: np.ndarray
    raw: object


def read_glyphs(
    page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, number: int, rules: Sequence[Rule] = ()
) -> PageGlyphs:
    """One page's characters and their boxes (see :class:`PageGlyphs`); the segments are
    cut by :func:`segment_page` and styled by :func:`styled`."""
    raw = textpage.raw
    text = page_chars(textpage)
    left, bottom, right, top = page.get_cropbox()
    page_box = np.array([[left, top, right, bottom]], dtype=np.float64)
    if not text:
        empty = np.zeros((0, 4))
        frame = _extent(frame_box(0, page_box))
        none = np.zeros(0, dtype=np.int64)
        return PageGlyphs(number, "", empty, none.astype(bool), none, 0, (), frame, empty, raw)
    boxes = _char_boxes(raw, len(text))
    _fix_broken_boxes(raw, boxes, (left, bottom, right, top))
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    has_area = (boxes[:, 2] > boxes[:, 0]) | (boxes[:, 1] > boxes[:, 3])
    is_low_surrogate = (codes >= 0xDC00) & (codes <= 0xDFFF)
    ink = np.flatnonzero(has_area & ~np.isin(codes, _NOT_INK) & ~is_low_surrogate)
    rtl = is_rtl(codes)
    step = max(len(ink) // _DIRECTION_SAMPLE, 1)
    votes = Counter(_direction(raw, int(i)) for i in ink[::step])
    direction = votes.most_common(1)[0][0] if votes else 0
    return PageGlyphs(
        number=number,
        text=text,
        boxes=boxes,
        rtl=rtl,
        ink=ink,
        direction=direction,
        stretches=tuple(_stretches(raw, boxes, rtl, ink, direction)),
        frame=_extent(frame_box(direction, page_box)),
        rules=rules_in_frame(list(rules), direction),
        raw=raw,
    )


def segment_page(glyphs: PageGlyphs, gutters: Sequence[float] = ()) -> PageText:
    """The page's segments (see the module doc). A vertical rule between two glyphs (a
    table's cell border) ends a segment however narrow the gap; a column ``gutter`` (x in
    the reading frame) ends one where the gap is wider than a word space."""
    rules = glyphs.rules
    barriers = rules[rules[:, 2] - rules[:, 0] < 1.0]
    walls = np.array(sorted(gutters), dtype=np.float64)
    segments: list[Segment] = []
    seen: set[tuple[str, int, int]] = set()
    for start, stop, own in glyphs.stretches:
        upright = own == glyphs.direction
        found = _segments(
            glyphs.text,
            glyphs.boxes,
            glyphs.rtl,
            glyphs.ink[start:stop],
            own,
            barriers if upright else _NO_BARRIERS,
            walls if upright else _NO_GUTTERS,
        )
        for segment in found:
            if not upright:
                segment = _placed(segment, glyphs.direction)
            # The same text printed twice a hair apart (fake bold) is read once.
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


def styled(page: PageText, glyphs: PageGlyphs) -> PageText:
    """The page with each segment's font size and weight read from PDFium (once per
    segment, on the segments a page ends with: reading them is most of a segment's cost)."""
    raw = glyphs.raw
    segments = tuple(
        replace(
            s,
            size=_font_size(raw, s.middle_char),
            bold=_is_bold(raw, s.first_char) and _is_bold(raw, s.last_char),
        )
        for s in page.segments
    )
    return replace(page, segments=segments)


def read_page(
    page: pdfium.PdfPage,
    textpage: pdfium.PdfTextPage,
    number: int,
    rules: Sequence[Rule] = (),
) -> PageText:
    """The segments of one page, read, cut and styled in one go (see :func:`segment_page`)."""
    glyphs = read_glyphs(page, textpage, number, rules)
    return styled(segment_page(glyphs), glyphs)


def _extent(frame: tuple[np.ndarray, ...]) -> tuple[float, float, float, float]:
    x0, top, x1, bottom = (float(v[0]) for v in frame)
    return min(x0, x1), min(top, bottom), max(x0, x1), max(top, bottom)


def _char_boxes(raw: object, count: int) -> np.ndarray:
    """Each character's loose box (PDFium's FS_RECTF: left, top, right, bottom)."""
    rects = (pdfium_c.FS_RECTF * count)()
    loose_box = pdfium_c.FPDFText_GetLooseCharBox
    for index in range(count):
        loose_box(raw, index, rects[index])
    return np.frombuffer(rects, dtype=np.float32).reshape(count, 4).astype(np.float64)


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
    goes_on = _goes_on(x0, top, x1, bottom, rtl_of[glyphs])
    cuts = [0, *(np.flatnonzero(~goes_on) + 1).tolist(), len(glyphs)]
    return list(itertools.pairwise(cuts))


_NO_BARRIERS = np.zeros((0, 4))
_NO_GUTTERS = np.zeros(0)
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


def _pair_gaps(
    x0: np.ndarray, x1: np.ndarray, rtl: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each pair of successive glyphs, the space between them (``lo`` to ``hi``) and
    its width: after the first glyph, or before it where either is right-to-left."""
    backwards = rtl[:-1] | rtl[1:]
    lo = np.where(backwards, x1[1:], x1[:-1])
    hi = np.where(backwards, x0[:-1], x0[1:])
    return hi - lo, lo, hi


def _goes_on(
    x0: np.ndarray,
    top: np.ndarray,
    x1: np.ndarray,
    bottom: np.ndarray,
    rtl: np.ndarray,
    barriers: np.ndarray = _NO_BARRIERS,
    gutters: np.ndarray = _NO_GUTTERS,
) -> np.ndarray:
    """For each pair of successive glyphs, whether the second continues the first's
    segment: on its baseline, not behind it (right-to-left glyphs go leftwards), not a
    wide gap ahead, no vertical rule between them (``barriers``: rows of ``x, top, x,
    bottom`` in the frame), no column gutter (x) in a gap wider than a word space."""
    height = bottom - top
    overlap = np.minimum(bottom[:-1], bottom[1:]) - np.maximum(top[:-1], top[1:])
    gap, lo, hi = _pair_gaps(x0, x1, rtl)
    tall = np.maximum(height[:-1], height[1:])
    # Ligature parts share one box, kerned glyphs overlap: only a glyph that starts
    # before the previous one started is behind it.
    forwards = np.where(
        rtl[:-1] | rtl[1:],
        x1[1:] <= x1[:-1] + 0.2 * tall,
        x0[1:] >= x0[:-1] - 0.2 * tall,
    )
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


def _segments(
    text: str,
    boxes: np.ndarray,
    rtl_of: np.ndarray,
    glyphs: np.ndarray,
    direction: int,
    barriers: np.ndarray,
    gutters: np.ndarray,
) -> list[Segment]:
    """The segments of ``glyphs`` read in ``direction``'s frame, their extents computed
    for all of them at once."""
    if len(glyphs) == 0:
        return []
    x0, top, x1, bottom = frame_box(direction, boxes[glyphs])
    rtl = rtl_of[glyphs]
    goes_on = _goes_on(x0, top, x1, bottom, rtl, barriers, gutters)
    starts = np.concatenate(([0], np.flatnonzero(~goes_on) + 1))
    # Word spaces PDFium did not write: adjacent glyphs of one segment with a gap.
    height = bottom - top
    gap = _pair_gaps(x0, x1, rtl)[0]
    spaced = goes_on & (gap > SPACE_GAP * np.maximum(height[1:], height[:-1]))
    spaced &= np.diff(glyphs) == 1
    space_before = set(glyphs[np.flatnonzero(spaced) + 1].tolist())
    user = boxes[glyphs]
    extents = [
        np.minimum.reduceat(x0, starts).tolist(),
        np.minimum.reduceat(top, starts).tolist(),
        np.maximum.reduceat(x1, starts).tolist(),
        np.maximum.reduceat(bottom, starts).tolist(),
        np.minimum.reduceat(user[:, 0], starts).tolist(),
        np.minimum.reduceat(user[:, 3], starts).tolist(),
        np.maximum.reduceat(user[:, 2], starts).tolist(),
        np.maximum.reduceat(user[:, 1], starts).tolist(),
    ]
    ends = np.concatenate((starts[1:], [len(glyphs)]))
    firsts = glyphs[starts].tolist()
    lasts = glyphs[ends - 1].tolist()
    middles = glyphs[(starts + ends) // 2].tolist()
    segments = []
    for k, (first, middle, last) in enumerate(zip(firsts, middles, lasts, strict=True)):
        left, low, right, high = (round(extent[k], 2) for extent in extents[4:])
        segments.append(
            Segment(
                text=_span_text(text, first, last, space_before),
                x0=extents[0][k],
                top=extents[1][k],
                x1=extents[2][k],
                bottom=extents[3][k],
                bbox=(left, low, right, high),
                first_char=first,
                middle_char=middle,
                last_char=last,
            )
        )
    return segments


def _span_text(text: str, first: int, last: int, space_before: set[int]) -> str:
    """The characters ``first``..``last``, with the word spaces found by geometry, PDFium's
    line breaks made spaces, and surrogate pairs made one character."""
    span = text[first : last + 1]
    inserted = [i for i in range(first + 1, last + 1) if i in space_before] if space_before else ()
    if inserted:
        pieces, at = [], first
        for position in inserted:
            pieces.append(text[at:position])
            at = position
        pieces.append(text[at : last + 1])
        span = " ".join(pieces)
    if "\r" in span or "\n" in span:
        span = " ".join(span.replace("\r", " ").replace("\n", " ").split())
    if any("\ud800" <= c <= "\udfff" for c in span):
        span = span.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return _CONTROLS.sub("", span).strip()


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


_MATRIX = pdfium_c.FS_MATRIX()


def _font_size(raw: object, index: int) -> float:
    """The size character ``index`` is printed at, in points: its font size scaled by its
    text matrix (some producers set every font at 1 pt and scale the matrix)."""
    size = pdfium_c.FPDFText_GetFontSize(raw, index)
    if pdfium_c.FPDFText_GetMatrix(raw, index, _MATRIX):
        size *= math.hypot(_MATRIX.c, _MATRIX.d)
    return round(size, 2)


_NAME_BUFFER = ctypes.create_string_buffer(256)


def _is_bold(raw: object, index: int) -> bool:
    """Whether character ``index`` is set in a bold font: by its weight, else by its name
    (many embedded fonts report a regular weight and are called "…-Bold")."""
    if pdfium_c.FPDFText_GetFontWeight(raw, index) >= BOLD_WEIGHT:
        return True
    flags = ctypes.c_int(0)
    length = pdfium_c.FPDFText_GetFontInfo(raw, index, _NAME_BUFFER, 256, ctypes.byref(flags))
    name = _NAME_BUFFER.raw[: max(length - 1, 0)].decode("latin-1").lower()
    return any(word in name for word in _BOLD_NAMES)
