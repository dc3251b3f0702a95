"""Stage A for PDF: tab characters that a page prints as word spaces.

Some producers write every word space as a tab (Word for Mac through Quartz: a blank glyph
a space wide, read by PDFium as U+0009), and a title read "V1:<TAB>Architecture" is taken
for a table's row or a contents entry. A tab is read for what it is on the page: one that
draws nothing, between two glyphs of its line no further apart than a word space reaches
(:data:`TAB_SPACE`), is a space; one that opens a wider gap (a column, the way to a
contents entry's page number) or stands at a line's end stays the tab it is.

Input: the page's characters, their boxes and which have ink. Output: the text with those
tabs written as spaces, and their indexes (``glyphs.read_glyphs`` reads them as no ink).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from lightrag_pchunk.pdf.char_text import DROPPED, MIN_INK_HEIGHT, tight_box

#: The widest a tab's gap (from the glyph before it to the glyph after it) is as a word
#: space, times the taller glyph's height: a space is about 0.25 of it, justified text
#: stretches one to about 0.6 (``glyphs.WIDE_GAP``); a tab stop further away is a tab.
TAB_SPACE = 0.6

Frame = Callable[[np.ndarray], tuple[np.ndarray, ...]]


def tabs_as_spaces(
    raw: object, text: str, boxes: np.ndarray, ink: np.ndarray, frame: Frame
) -> tuple[str, np.ndarray]:
    """``text`` with each tab that is a word space a space (or dropped where PDFium wrote
    a space beside it), and the indexes of those tabs. A tab is a word space when it draws
    nothing (:func:`_blank`), and the gap between the glyphs with ink before and after it
    (``ink``: a flag per character; only spaces PDFium wrote between, no line end) is at
    most :data:`TAB_SPACE` of the taller one's height. Whether they share a line the
    segments decide (``glyphs.goes_on_pairs``): apart, the tab is at a segment's edge,
    where its text is stripped whatever it is. ``boxes``: the characters' loose boxes in
    user space; ``frame``: user-space boxes to the reading frame (``glyphs.frame_box``)."""
    found = [
        (tab.start(), *around)
        for tab in re.finditer("\t", text)
        if (around := _around(text, ink, tab.start()))
    ]
    if not found:
        return text, np.zeros(0, dtype=np.int64)
    tabs, before, after = (np.array(column, dtype=np.int64) for column in zip(*found, strict=True))
    x0, top, x1, bottom = frame(boxes[after])
    x0_before, top_before, x1_before, bottom_before = frame(boxes[before])
    gap = np.maximum(x0 - x1_before, x0_before - x1)  # between the boxes, in either order
    narrow = gap <= TAB_SPACE * np.maximum(bottom - top, bottom_before - top_before)
    chars = list(text)
    spaces = []
    for k in np.flatnonzero(narrow).tolist():
        tab = int(tabs[k])
        if _blank(raw, tab, frame):
            spaced = " " in text[before[k] + 1 : after[k]]
            chars[tab] = DROPPED if spaced else " "
            spaces.append(tab)
    return "".join(chars), np.array(spaces, dtype=np.int64)


def _around(text: str, ink: np.ndarray, index: int) -> tuple[int, int] | None:
    """The glyphs with ink either side of the tab at ``index`` with only spaces between
    (PDFium writes one where a gap is wide), or None (a line's end)."""
    before = index - 1
    while before >= 0 and text[before] == " ":
        before -= 1
    after = index + 1
    while after < len(text) and text[after] == " ":
        after += 1
    if before < 0 or after >= len(text) or not (ink[before] and ink[after]):
        return None
    return before, after


def _blank(raw: object, index: int, frame: Frame) -> bool:
    """Whether glyph ``index`` draws nothing: its tight box (PDFium's) is less than
    :data:`~lightrag_pchunk.pdf.char_text.MIN_INK_HEIGHT` tall across its line."""
    box = tight_box(raw, index)
    if box is None:
        return False
    left, right, low, high = box
    _, top, _, bottom = frame(np.array([[left, high, right, low]]))
    return abs(float(bottom[0] - top[0])) < MIN_INK_HEIGHT
