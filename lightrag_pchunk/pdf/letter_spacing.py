"""Stage A for PDF: CJK text set letter-spaced read without the spaces between its characters.

A title or a justified line of Chinese or Japanese is often set with room between every
character ("經 濟 部 能 源 局"); PDFium writes a space into each such gap, and the gaps of a
distributed line are wide enough to part segments too. Chinese and Japanese put no space
between words, so a reader reads these characters as words ("經濟部能源局") and searches
them so.

The glyphs decide, not the text: a letter-spaced run is CJK characters each standing alone
(a gap, a punctuation mark or the line's end on both sides), in one font size, on one baseline,
their origins stepped alike, with no space character the author typed between them. The
spaces PDFium writes into gaps are generated; an ideographic space or a space typed to
leave a form's blank ("平成　　年　　月　　日") or to spread a title ("提　案　書") is
text, and so is the run's every space where a producer wrote some of them as gaps. Two
characters so set read as one word too ("前 言" set letter-spaced), when a few ems apart at
most (further, a form's "是" and "否" are two words). A step far wider than
the steps beside it is a word space: a label and its value ("氏 名    山 田 太 郎") are
two runs. Single digits so set are one number where they stand closer than a word space
past each one's advance (a cover's year, "中華民國 1 0 5 年" read "中華民國 105 年");
further apart they are numbers apart (a row of "1 2 3").

Input: the glyphs of a stretch of a page (``segments.make_segments``), which pairs the text
parts (a space or a segment's end between them) and their font sizes. Output: which of
those pairs close up; a segment starting after such a gap records the glyph it closes up
to (``Segment.closes_up``), so a line or a cell joins it to that glyph's segment without a
space (:func:`join_segments`). A space elsewhere stays: between two words ("第一节
重要提示"), and between a CJK character and a number or a Latin word ("以 15 分鐘",
"1990 年 4 月"). Hangul is no CJK character here: Korean parts its words with spaces, and
many are one syllable long.

Text in any script set with character spacing (PDF's ``Tc``, which the ``"`` operator sets)
stands every glyph apart by one width, and PDFium, which reads that spacing, writes no
space there: where every pair of letters of a segment side by side stands a word space
apart, that width is its letter spacing, and only a gap wider by a word space parts words
(:func:`tracked_spacing`; "D o u b l e" reads "Double").
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import pypdfium2.raw as pdfium_c


def _table(ranges: str) -> np.ndarray:
    """Whether each code point (to U+10FFFF) lies in one of ``ranges`` ("a-b" pairs)."""
    table = np.zeros(sys.maxunicode + 1, dtype=bool)
    for start, stop in zip(ranges[::3], ranges[2::3], strict=True):
        table[ord(start) : ord(stop) + 1] = True
    return table


#: Han ideographs (and the compatibility ones, and those past the BMP), kana, CJK
#: punctuation and the full-width signs, but the ideographic space and the full-width
#: digits and Latin letters: those are numbers and Latin words, spaced as typed, and single
#: digits one space apart are numbers apart ("１ ２ ３", a table's row).
_CJK = _table(
    "\u3001-\u303f\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff60\uffe0-\uffe6"
    "\U00020000-\U0003134f"
)
#: Punctuation, CJK and full-width signs too: a character beside one still stands alone
#: ("（經 濟 部）", "能 源 局。", a contents entry's leader "總 綱……3", where no gap parts
#: the mark).
_MARKS = _table(
    "!-/:-@[-`{-~\u2010-\u2027\u3001-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff60"
)
#: A step between origins this many times the narrower step beside it or wider is a word
#: space: a distributed line spreads its slack over its gaps, rounding some wider (up to
#: half as wide again), and a label's value stands further off than its letters.
WORD_STEP = 1.75
#: Two characters alone (no step beside theirs to measure a word space by) close up only
#: this many ems apart or closer: a title spread by letter spacing sets its two characters
#: a few ems apart; further off they are a form's or a table's words ("是" and "否", a
#: column apart).
PAIR_EMS = 5.0
#: ASCII and full-width digits: a run of single digits set closer than a word space is a
#: number letter-spaced ("1 0 5" on a cover); single digits further apart are numbers apart.
_DIGITS = _table("0-9\uff10-\uff19")
#: Two digits this share of an em apart or closer (past the first's advance) are letter
#: spaced: a word space is a quarter of an em or more.
DIGIT_GAP = 0.2
#: Two glyphs of this share of each other's font size or closer are in one size.
SAME_SIZE = 0.05
#: Origins this share of the font size apart across the text are on one baseline.
SAME_BASELINE = 0.25


class _Glyphs(Protocol):
    text: str
    raw: object


def closing_pairs(
    page: _Glyphs,
    glyphs: np.ndarray,
    parted: np.ndarray,
    frame: Callable[[np.ndarray], tuple[np.ndarray, ...]],
    size_of: Callable[[int], float],
) -> np.ndarray:
    """For each pair of successive ``glyphs`` (indexes into the page's characters, in text
    order), whether the space between them is letter spacing (see the module doc).
    ``parted``: whether the text parts the pair (a space or a segment's end between them);
    ``frame``: user-space boxes (rows of left, top, right, bottom) to the reading frame's
    ``x0, top, x1, bottom`` (``glyphs.frame_box``); ``size_of``: a glyph's font size."""
    closing = np.zeros(max(len(glyphs) - 1, 0), dtype=bool)
    if len(glyphs) < 2:
        return closing
    start = int(glyphs[0])  # ascending: the glyphs' span is encoded once
    span = page.text[start : int(glyphs[-1]) + 1].encode("utf-32-le", "surrogatepass")
    codes = np.frombuffer(span, dtype=np.uint32)[glyphs - start]
    cjk, marks, digits = _CJK[codes], _MARKS[codes], _DIGITS[codes]
    candidate = parted & ((cjk[:-1] & cjk[1:]) | (digits[:-1] & digits[1:]))
    if not candidate.any():
        return closing
    apart = np.concatenate(([True], parted, [True]))
    alone_left = apart[:-1] | np.concatenate(([False], marks[:-1]))
    alone_right = apart[1:] | np.concatenate((marks[1:], [False]))
    candidate &= alone_left[:-1] & alone_right[1:]
    steps: dict[int, float] = {}
    typed: set[int] = set()
    for k in np.flatnonzero(candidate).tolist():
        first, second = int(glyphs[k]), int(glyphs[k + 1])
        step = _step(page, first, second, frame, size_of)
        if digits[k]:
            closing[k] = step is not None and _digits_set_close(
                page, first, second, frame, size_of(first)
            )
        elif step is not None:
            steps[k] = step / size_of(first)  # in ems
            if _typed_between(page, first, second):
                typed.add(k)
    for chain in _chains(sorted(steps)):
        for k in _closing_in(chain, steps, typed):
            closing[k] = True
    return closing


def _step(
    page: _Glyphs,
    first: int,
    second: int,
    frame: Callable[[np.ndarray], tuple[np.ndarray, ...]],
    size_of: Callable[[int], float],
) -> float | None:
    """How far the origin of glyph ``second`` lies ahead of ``first``'s along the text,
    when both are in one size on one baseline with nothing but spaces between; else
    None."""
    size = size_of(first)
    if size <= 0 or abs(size_of(second) - size) > SAME_SIZE * size:
        return None
    if page.text[first + 1 : second].strip():
        return None
    x0, top, _, _ = frame(np.array([_origin(page.raw, first), _origin(page.raw, second)]))
    if abs(top[1] - top[0]) > SAME_BASELINE * size:
        return None
    step = float(x0[1] - x0[0])
    return step if step > 0 else None


def _digits_set_close(
    page: _Glyphs,
    first: int,
    second: int,
    frame: Callable[[np.ndarray], tuple[np.ndarray, ...]],
    size: float,
) -> bool:
    """Whether digit ``second`` stands less than :data:`DIGIT_GAP` of an em (``size``) past
    the advance of digit ``first``, no space typed between: one number, letter-spaced."""
    if _typed_between(page, first, second):
        return False
    pdfium_c.FPDFText_GetLooseCharBox(page.raw, first, _LOOSE)
    box = (_LOOSE.left, _LOOSE.top, _LOOSE.right, _LOOSE.bottom)
    _, _, ends, _ = frame(np.array([box, _origin(page.raw, second)]))
    return float(ends[1] - ends[0]) < DIGIT_GAP * size


_LOOSE = pdfium_c.FS_RECTF()


def _typed_between(page: _Glyphs, first: int, second: int) -> bool:
    """Whether a space between glyphs ``first`` and ``second`` is one the author typed
    (PDFium generates the ones it writes into gaps, and its line breaks)."""
    is_generated = pdfium_c.FPDFText_IsGenerated
    return any(
        char not in "\r\n" and is_generated(page.raw, index) != 1
        for index, char in enumerate(page.text[first + 1 : second], start=first + 1)
    )


_X, _Y = ctypes.c_double(), ctypes.c_double()


def _origin(raw: object, index: int) -> tuple[float, float, float, float]:
    """Glyph ``index``'s origin as a box without area (left, top, right, bottom): its
    advance places it (a glyph's box is its ink, and some fonts' boxes are not even
    that)."""
    pdfium_c.FPDFText_GetCharOrigin(raw, index, ctypes.byref(_X), ctypes.byref(_Y))
    return (_X.value, _Y.value, _X.value, _Y.value)


def _chains(pairs: list[int]) -> list[list[int]]:
    """``pairs`` (ascending) in runs of successive pairs, each sharing a glyph with the
    next."""
    chains: list[list[int]] = []
    for k in pairs:
        if chains and chains[-1][-1] == k - 1:
            chains[-1].append(k)
        else:
            chains.append([k])
    return chains


def _closing_in(chain: list[int], steps: dict[int, float], typed: set[int]) -> list[int]:
    """The pairs of ``chain`` that close: its runs between word spaces (a step
    :data:`WORD_STEP` times the narrower step beside it or wider), unless a space in the
    run was typed (the author spaced them so, and a producer may write some of those
    spaces as gaps: "提　案 書"; see the module doc); a lone pair only within
    :data:`PAIR_EMS` (``steps`` are in ems)."""
    if len(chain) == 1 and steps[chain[0]] > PAIR_EMS:
        return []
    runs: list[list[int]] = [[]]
    for index, k in enumerate(chain):
        beside = [steps[j] for j in chain[max(index - 1, 0) : index + 2] if j != k]
        if beside and steps[k] >= WORD_STEP * min(beside):
            runs.append([])
        else:
            runs[-1].append(k)
    return [k for run in runs if not typed.intersection(run) for k in run]


#: Pairs of adjacent letters a segment holds, at least, to read its letter spacing (two
#: letters set apart are as often two words).
TRACKED_PAIRS = 2


def tracked_spacing(
    text: str, glyphs: np.ndarray, starts: np.ndarray, gap: np.ndarray, wide: np.ndarray
) -> np.ndarray:
    """For each pair of successive ``glyphs`` (indexes into the page's ``text``, cut into
    segments at ``starts``), the letter spacing of the segment it is in: text set with
    character spacing (PDF's ``Tc``, the ``"`` operator) stands every glyph one width apart,
    which PDFium reads as no word space (it writes none there), so a segment whose every
    pair of letters side by side (:data:`TRACKED_PAIRS` at least) is ``wide`` apart (a
    word space's width) is set so, and the narrowest of those ``gap`` s is its spacing;
    0 elsewhere. Its word spaces are typed (segments of their own words) or wider still."""
    spacing = np.zeros(len(gap))
    adjacent = np.diff(glyphs) == 1
    candidates = np.flatnonzero(wide & adjacent)
    if len(candidates) < TRACKED_PAIRS:
        return spacing
    ends = np.append(starts[1:], len(glyphs))
    for segment in np.unique(np.searchsorted(starts, candidates, side="right") - 1).tolist():
        start, end = int(starts[segment]), int(ends[segment])
        letters = np.array([text[i].isalpha() for i in glyphs[start:end].tolist()])
        pairs = adjacent[start : end - 1] & letters[:-1] & letters[1:]
        if pairs.sum() >= TRACKED_PAIRS and wide[start : end - 1][pairs].all():
            spacing[start : end - 1] = gap[start : end - 1][pairs].min()
    return spacing


class _Joined(Protocol):
    text: str
    last_char: int
    closes_up: int


def join_segments(segments: Sequence[_Joined]) -> str:
    """The text of ``segments`` (in reading order), one space between two of them, none
    where a segment closes up to the last glyph of the one before it."""
    parts: list[str] = []
    previous = None
    for segment in segments:
        if parts and not (previous is not None and segment.closes_up == previous.last_char):
            parts.append(" ")
        parts.append(segment.text)
        previous = segment
    return "".join(parts)
