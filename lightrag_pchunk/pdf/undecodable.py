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
segment that is as undecodable, flagged letters counted ("IIIIII"), is left out. Its
decodable segments (a running header, a figure's labels set in another font) are read as
on any page. A page with a few such characters (a symbol font's bullets, an Arabic kashida
PDFium reads as U+0017) is read whole.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pypdfium2.raw as pdfium_c

from lightrag_pchunk.pdf.glyphs import PageGlyphs
from lightrag_pchunk.pdf.segments import PageText, glyphs_of

#: A page, or a segment on it, whose ink holds this share of characters that do not decode
#: is not read.
UNDECODABLE_SHARE = 0.5


def without_undecodable(glyphs: PageGlyphs, page: PageText) -> tuple[PageText, bool]:
    """``page`` without its segments that do not decode, and whether the page's text does
    not decode (see the module doc); ``glyphs``: the page's, its text page open."""
    undecodable = _undecodable_chars(glyphs)
    if undecodable is None:
        return page, False
    ink = glyphs.ink
    text = glyphs.text
    letters = np.fromiter((text[i].isalpha() for i in ink.tolist()), dtype=bool, count=len(ink))
    if (undecodable[ink] & ~letters).sum() < UNDECODABLE_SHARE * len(ink):
        return page, False
    kept = tuple(
        segment
        for segment in page.segments
        if undecodable[glyphs_of(glyphs, segment)].mean() < UNDECODABLE_SHARE
    )
    return replace(page, segments=kept), True


def _undecodable_chars(glyphs: PageGlyphs) -> np.ndarray | None:
    """Which of the page's characters do not decode; None when none is a control,
    private-use or replacement character, the sign of a font without a map (PDFium's flag
    is then not asked: a call for each character)."""
    codes = np.frombuffer(glyphs.text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    suspect = (
        ((codes < 0x20) & (codes != 0x09) & (codes != 0x0A) & (codes != 0x0D))
        | (codes == 0x7F)
        | ((codes >= 0xE000) & (codes <= 0xF8FF))
        | (codes >= 0xF0000)
        | (codes == 0xFFFD)
    )
    if not suspect[glyphs.ink].any():
        return None
    has_map_error = pdfium_c.FPDFText_HasUnicodeMapError
    for index in glyphs.ink[~suspect[glyphs.ink]].tolist():
        suspect[index] = has_map_error(glyphs.raw, index) == 1
    return suspect
