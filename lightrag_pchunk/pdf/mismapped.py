"""Stage A for PDF: CJK text set in a font whose map to Unicode is broken, found and named.

A font's ToUnicode map may be wrong for part of its glyphs (a producer's map off by a
constant over a range of codes): the ideographs of that range reach the text layer as
letters and marks of scripts no CJK text is set in, Lepcha, Vedic signs, Batak, phonetic
extensions ("背景" read as "背᱃", "服务" as "᳡务"). The text reads, in headings too, but a
user's search misses every word they are in, and the file says nothing of it: no check of
the characters' kind can set them right, an OCR of the page can.

Input: a page's :class:`~lightrag_pchunk.pdf.glyphs.PageGlyphs`. Output: how many of its
characters are strays of such a map (none where too few to tell). A stray is a character of
a script foreign to CJK text (:data:`_FOREIGN`: the scripts of South and South-East Asia,
Africa and the Americas, phonetic extensions, Latin and Greek extended, private use) set
against an ideograph, kana or a Hangul syllable, the character before or after it with no
space between, in that neighbour's very font: a bullet of a symbol font at a line's start,
a word of another script in a font of its own, are no strays. A page shows a broken map
when it holds :data:`MIN_STRAYS` strays and they are :data:`STRAY_SHARE` of its CJK
characters or more: a rare ideograph a font maps to private use, once in a page, is none.
The text is read as it is; the reader names the pages in a warning.
"""

from __future__ import annotations

import ctypes
import re

import pypdfium2.raw as pdfium_c

from lightrag_pchunk.pdf.glyphs import PageGlyphs

#: A page shows a broken map with this many strays, and at least this share of its CJK
#: characters (a broken map turns one ideograph in ten or twenty into a stray).
MIN_STRAYS = 3
STRAY_SHARE = 0.01

#: Ideographs (compatibility ones too), kana, Hangul syllables.
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3\uf900-\ufaff"
#: Scripts and blocks no CJK text font sets between its ideographs: Armenian to Georgian,
#: Ethiopic to the Vedic signs, the phonetic extensions, Latin and Greek extended, Lisu to
#: the Cherokee supplement (Hangul jamo, Yi, the symbol and punctuation blocks, Latin,
#: Greek and Cyrillic are CJK fonts' own), and private use.
_FOREIGN = "\u0530-\u10ff\u1200-\u1fff\ua4d0-\ua95f\ua980-\uabff\ue000-\uf8ff"
_FOREIGN_CHAR = re.compile(f"[{_FOREIGN}]")
#: A foreign character set against a CJK one, before or after it.
_BESIDE_CJK = re.compile(f"(?<=[{_CJK}])[{_FOREIGN}]|[{_FOREIGN}](?=[{_CJK}])")
_CJK_CHAR = re.compile(f"[{_CJK}]")


def count_strays(glyphs: PageGlyphs) -> int:
    """How many of the page's characters are strays of a broken map (see the module doc):
    0 where the page shows none."""
    text = glyphs.text
    if text.isascii() or not _FOREIGN_CHAR.search(text):  # most pages: at once
        return 0
    candidates = [found.start() for found in _BESIDE_CJK.finditer(text)]
    least = max(MIN_STRAYS, STRAY_SHARE * len(_CJK_CHAR.findall(text)))
    if len(candidates) < least:
        return 0
    raw = glyphs.raw
    strays = 0
    for index in candidates:
        own = _font(raw, index)
        neighbours = (
            n for n in (index - 1, index + 1) if 0 <= n < len(text) and _CJK_CHAR.match(text, n)
        )
        strays += own is not None and any(_font(raw, n) == own for n in neighbours)
    return strays if strays >= least else 0


def _font(raw: object, index: int) -> int | None:
    """PDFium's handle of the font character ``index`` is set in (one font, one handle on a
    page), or None."""
    text_object = pdfium_c.FPDFText_GetTextObject(raw, index)
    font = pdfium_c.FPDFTextObj_GetFont(text_object) if text_object else None
    return ctypes.addressof(font.contents) if font else None
