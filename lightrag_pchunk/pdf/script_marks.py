"""Stage A for PDF: how small and how high a glyph is set to read as a superscript, and the
note's marks printed right against a CJK character or a word's last letter that part a run
of glyphs.

The shares are ``scripts``' (which tags a line's segments set small and raised ``<sup>``);
``segments`` asks :func:`raised_marks` where a mark printed against its character, with no
gap, starts a segment of its own, so that ``scripts`` can read it as one.
"""

from __future__ import annotations

import numpy as np

from lightrag_pchunk.pdf.cjk import is_cjk

#: A superscript is set at most this share of its line's text size (Word sets them at
#: about 0.65 of it) ...
SCRIPT_SIZE = 0.8
#: ... with its foot at least this share of the text's height above the text's foot (a
#: word set small on the baseline, small capitals, is no superscript) ...
SCRIPT_RAISE = 0.25


#: Letters of a word a note's number marks, at least.
WORD_LETTERS = 3


def raised_marks(
    top: np.ndarray, bottom: np.ndarray, goes_on: np.ndarray, text: str, glyphs: np.ndarray
) -> np.ndarray:
    """For each pair of successive ``glyphs`` (indexes into the page's ``text``; their
    boxes' ``top`` and ``bottom`` in the reading frame, y down; ``goes_on``: whether the
    second continues the first's segment), whether the second opens a note's mark printed
    against a CJK character at the segment's end ("產生辦法^@", "法律*"), or a note's number
    against a word's last letter (:func:`_ends_word`: "Privacy23", a title's footnote): it
    and every glyph after it in the segment smaller than the character by
    :data:`SCRIPT_SIZE`, their feet raised by :data:`SCRIPT_RAISE` of its height, no letter
    among them (after a word, digits only),
    nothing between it and the character in the text but a line end PDFium wrote. Such a
    pair parts the segment, so that the mark is a segment of its own
    (``scripts.script_segments``). CJK text sets its marks right against its characters;
    Latin text's other raised glyphs inside a run are as often a formula's part or a
    symbol's ("C#") and stay in their segment, as does a raised glyph with text after it on
    the baseline."""
    opens = np.zeros(len(goes_on), dtype=bool)
    height = bottom - top
    for pair in np.flatnonzero(goes_on & _raised_over(height, bottom)).tolist():
        cjk = is_cjk(text[int(glyphs[pair])])
        if not cjk and not _ends_word(text, glyphs, goes_on, pair):
            continue
        if text[int(glyphs[pair]) + 1 : int(glyphs[pair + 1])].strip("\r\n"):
            continue  # a space or another character between: no mark against its word
        small = SCRIPT_SIZE * height[pair]  # the glyph the mark is printed against
        raised = bottom[pair] - SCRIPT_RAISE * height[pair]
        glyph = pair + 1
        while height[glyph] <= small and bottom[glyph] <= raised:
            char = text[int(glyphs[glyph])]
            if char.isalpha() or not (cjk or char.isdigit()):
                break  # a letter: an index, no mark; after a word, a note's number only
            if glyph == len(goes_on) or not goes_on[glyph]:
                opens[pair] = True  # the segment's last glyph: the mark ends it
                break
            glyph += 1
    return opens


def _ends_word(text: str, glyphs: np.ndarray, goes_on: np.ndarray, pair: int) -> bool:
    """Whether glyph ``pair`` ends a word of :data:`WORD_LETTERS` letters at least, printed
    together in its segment: a title's or a sentence's, which a note marks. A formula's
    names are a letter or two ("x2", "bd0": a square, a prime), its indexes often stacked
    ("q" with "1" over "s"); their raised glyphs stay in their segment."""
    first = pair - WORD_LETTERS + 1
    if first < 0 or not goes_on[first:pair].all():
        return False
    letters = glyphs[first : pair + 1].astype(int).tolist()
    together = letters[-1] - letters[0] == WORD_LETTERS - 1  # no space between
    return together and all(text[i].isalpha() for i in letters)


def _raised_over(height: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """For each pair, whether the second glyph is set smaller and raised against the first."""
    return (
        (height[1:] > 0)
        & (height[1:] <= SCRIPT_SIZE * height[:-1])
        & (bottom[1:] <= bottom[:-1] - SCRIPT_RAISE * height[:-1])
    )
