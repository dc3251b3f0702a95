"""Stage A for PDF: text set in fonts that do not decode, found on a page and not read.

Some PDFs set their text in fonts with no usable map from their glyphs to Unicode (no
ToUnicode map, a symbolic font whose codes are glyph numbers). PDFium reads such glyphs as
control characters, private-use code points or the ASCII their codes happen to be, and
flags many of them with its own "Unicode map error". Read as text, they make paragraphs
and headings of garbage ("%&(-./.)&" ! $ &").

Input: a page's :class:`~lightrag_pchunk.pdf.glyphs.PageGlyphs` and its
:class:`~lightrag_pchunk.pdf.segments.PageText`. Output: the page without the segments
that do not decode, and whether the page's text does not decode. A character does not
decode when it is a control character, a private-use or replacement character, or PDFium
flags its map. A page whose ink is at least :data:`UNDECODABLE_SHARE` such characters,
letters PDFium flags left out, does not decode: a font without a map is read by its codes,
which in a simple font are the ASCII of its letters (an old TeX font whose glyph names no
map knows, its ligatures read as control characters: its pages are read), in a CID font
glyph numbers reading as controls and punctuation ("%&(-./.)&"). On such a page every
segment that is as undecodable, flagged letters counted ("IIIIII"), is left out but for
its words that decode: a reference set in a font without a map around a journal's name set
in italics that has one ("&(-./)& MIS Quarterly13(;);-.D90&") keeps "MIS Quarterly", each
stretch of decodable characters from its first letter to its last (and a full stop after
it) that holds a word of :data:`MIN_WORD_LETTERS` letters, read as a segment of its own.
Its decodable segments (a running header, a figure's labels set in another font) are read
as on any page. A page with a few such characters (a symbol font's bullets, an Arabic
kashida PDFium reads as U+0017) is read whole, but for lines of replacement characters
only (U+FFFD, a note's icon that no map names): left out on any page.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pypdfium2.raw as pdfium_c

from lightrag_pchunk.pdf.glyphs import NO_GUTTERS, PageGlyphs
from lightrag_pchunk.pdf.layout import Line
from lightrag_pchunk.pdf.segments import PageText, Segment, glyphs_of, make_segments

#: A page, or a segment on it, whose ink holds this share of characters that do not decode
#: is not read.
UNDECODABLE_SHARE = 0.5
#: A stretch of decodable characters in an undecodable segment is read when it holds a word
#: of this many letters (a shorter one alone reads as nothing: a stray letter, "f" of "for").
MIN_WORD_LETTERS = 3
_WORD = re.compile(rf"[^\W\d_]{{{MIN_WORD_LETTERS},}}")


def without_undecodable(glyphs: PageGlyphs, page: PageText) -> tuple[PageText, bool]:
    """``page`` without its segments that do not decode, and whether the page's text does
    not decode (see the module doc); ``glyphs``: the page's, its text page open."""
    suspect = _suspect_chars(glyphs)
    if not suspect[glyphs.ink].any():
        return page, False
    ink = glyphs.ink
    text = glyphs.text
    letters = np.fromiter((text[i].isalpha() for i in ink.tolist()), dtype=bool, count=len(ink))
    if (~letters).sum() < UNDECODABLE_SHARE * len(ink):
        return page, False  # too few characters that are not letters to reach the share
    undecodable = _with_map_errors(glyphs, suspect)
    if (undecodable[ink] & ~letters).sum() < UNDECODABLE_SHARE * len(ink):
        return page, False
    kept: list[Segment] = []
    for segment in page.segments:
        own = glyphs_of(glyphs, segment)
        if undecodable[own].mean() < UNDECODABLE_SHARE:
            kept.append(segment)
        elif not segment.rotated:
            kept += _decodable_words(glyphs, own, undecodable[own])
    return replace(page, segments=tuple(kept)), True


def without_replacement_lines(lines: list[Line]) -> list[Line]:
    """``lines`` without those of replacement characters only (U+FFFD: a note's icon no
    map names, read as a line "��" of its own), on any page: they read as nothing. A
    replacement character beside text (an unmapped bullet, a formula's sign) stays."""
    return [line for line in lines if line.text.strip(" \ufffd")]


def _decodable_words(glyphs: PageGlyphs, own: np.ndarray, undecodable: np.ndarray) -> list[Segment]:
    """The stretches of a segment's glyphs ``own`` that decode and hold a word, each from
    its first letter to its last (a full stop after it kept), as segments; a word of fewer
    than :data:`MIN_WORD_LETTERS` letters at a stretch's end, set against an undecodable
    glyph without a space, is a word's piece ("f" of "for") and left out."""
    text = glyphs.text
    found: list[Segment] = []
    edges = np.flatnonzero(np.diff(np.concatenate(([1], undecodable.astype(np.int8), [1]))))
    for start, stop in zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True):
        stretch = own[start:stop].tolist()
        if start > 0:
            stretch = _without_piece(text, int(own[start - 1]), stretch)
        if stop < len(own) and stretch:
            stretch = _without_piece(text, int(own[stop]), stretch[::-1])[::-1]
        letters = [k for k, index in enumerate(stretch) if text[index].isalpha()]
        if not letters:
            continue
        end = letters[-1] + 1
        if end < len(stretch) and text[stretch[end]] == ".":
            end += 1
        words = stretch[letters[0] : end]
        if _WORD.search(text[words[0] : words[-1] + 1]):
            found += make_segments(
                glyphs, np.array(words), glyphs.direction, glyphs.barriers, NO_GUTTERS, {}
            )
    return found


def _without_piece(text: str, beside: int, stretch: list[int]) -> list[int]:
    """``stretch`` (glyph indexes, starting from its end next to glyph ``beside``, either
    way round) without its word there when that word is set against ``beside`` without a
    space and has fewer than :data:`MIN_WORD_LETTERS` letters."""
    if _spaced(text, beside, stretch[0]):
        return stretch
    for k in range(1, len(stretch)):
        if _spaced(text, stretch[k - 1], stretch[k]):
            word = stretch[:k]
            break
    else:
        word = stretch
    if sum(text[index].isalpha() for index in word) >= MIN_WORD_LETTERS:
        return stretch
    return stretch[len(word) :]


def _spaced(text: str, first: int, second: int) -> bool:
    """Whether the text holds a space or a line break between glyphs ``first`` and
    ``second`` (either order)."""
    low, high = min(first, second), max(first, second)
    return any(char in " \r\n\u00a0\u3000" for char in text[low + 1 : high])


def _suspect_chars(glyphs: PageGlyphs) -> np.ndarray:
    """Which of the page's characters are control, private-use or replacement characters,
    the sign of a font without a map."""
    codes = np.frombuffer(glyphs.text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    return (
        ((codes < 0x20) & (codes != 0x09) & (codes != 0x0A) & (codes != 0x0D))
        | (codes == 0x7F)
        | ((codes >= 0xE000) & (codes <= 0xF8FF))
        | (codes >= 0xF0000)
        | (codes == 0xFFFD)
    )


def _with_map_errors(glyphs: PageGlyphs, suspect: np.ndarray) -> np.ndarray:
    """Which of the page's characters do not decode: the ``suspect`` ones, and the glyphs
    with ink PDFium flags with a map error (asked only of a page that may not decode as a
    whole: a call for each character)."""
    undecodable = suspect.copy()
    has_map_error = pdfium_c.FPDFText_HasUnicodeMapError
    for index in glyphs.ink[~suspect[glyphs.ink]].tolist():
        undecodable[index] = has_map_error(glyphs.raw, index) == 1
    return undecodable
