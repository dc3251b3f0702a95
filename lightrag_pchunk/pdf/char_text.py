"""Stage A for PDF: a page's characters as text, one per PDFium character index, read as a
user searches them: compatibility ideographs as the ideographs they stand for, a no-break
space as the word space it prints, a quotation mark drawn as a kashida between two Arabic
letters the kashida it stands for, a blank glyph PDFium reads as a hyphen mark a space, a
lam-alef ligature lam first, a symbol font's private-use glyph the character it draws.

Input: PDFium's text page (and, for all but the first, the glyphs' boxes). Output: the page's
text, a character for each of PDFium's indexes (``glyphs`` reads their boxes by index).
"""

from __future__ import annotations

import ctypes
import math
import re
import unicodedata

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from lightrag_pchunk.pdf.fonts import font_size
from lightrag_pchunk.pdf.symbol_chars import plain_symbols

#: CJK compatibility ideographs to the ideographs they stand for (U+F961 to "率" U+7387: fonts
#: of Taiwanese documents map glyphs there, a user searches the unified one); only those whose
#: canonical form is one BMP character, so each character keeps its PDFium index.
_UNIFIED_IDEOGRAPHS = {
    code: unified
    for code in range(0xF900, 0xFB00)
    if len(unified := unicodedata.normalize("NFC", chr(code))) == 1
    and unified != chr(code)
    and ord(unified) < 0x10000
}
#: A no-break space (U+00A0) to the word space a user types: a page converted from the web
#: writes every word space as one ("1.\u00a0Scope"), which no title's label nor word
#: matches.
_READ_AS_TYPED = {**_UNIFIED_IDEOGRAPHS, 0xA0: " "}


#: Quotation marks between two letters of the Arabic script: the kashidas that stretch a
#: justified line, which some fonts map to '"' ("مس\"\"\"أله" for "مسأله"; PDFium reads
#: others' as U+0017), or real quotation marks ('گفت "نه"' set without spaces): the glyph
#: tells them apart (:func:`_drawn_as_kashida`).
_ARABIC_LETTER = "[\u0620-\u064a\u066e-\u06d3\u06fa-\u06ff]"
_KASHIDA_MARKS = re.compile(f'(?<={_ARABIC_LETTER})"+(?={_ARABIC_LETTER})')
#: What a kashida read as a quotation mark becomes: the control character PDFium reads for
#: the others, which joins the letters either side and is no text (``glyphs``).
_KASHIDA = "\x17"
#: A kashida's stroke lies on the baseline, where its glyph's origin is; a quotation mark
#: is drawn high above it (half an em in most fonts): its box is further than this share
#: of the font size from its origin.
_KASHIDA_REACH = 0.2


def page_chars(textpage: pdfium.PdfTextPage) -> str:
    """The page's characters, one per PDFium character index (a character outside the BMP
    takes two, its UTF-16 surrogates, as in PDFium's list), in unified ideographs, a
    no-break space a space (:data:`_READ_AS_TYPED`), a kashida read as a quotation mark as
    the kashida (:data:`_KASHIDA_MARKS`), a symbol font's private-use glyph as the
    character it draws (``symbol_chars``)."""
    count = textpage.count_chars()
    if count <= 0:
        return ""
    text = textpage.get_text_range(0, count)
    if len(text) != count:
        unicode_of = pdfium_c.FPDFText_GetUnicode
        text = "".join(chr(unicode_of(textpage.raw, i) or 0xFFFD) for i in range(count))
    text = text.translate(_READ_AS_TYPED)
    if '"' in text:
        text = _KASHIDA_MARKS.sub(lambda marks: _kashidas(textpage.raw, marks), text)
    return plain_symbols(textpage, text)


def _kashidas(raw: object, marks: re.Match[str]) -> str:
    """The quotation marks ``marks`` found between two Arabic letters, each drawn as a
    kashida read as the kashida (:data:`_KASHIDA`), the others kept."""
    return "".join(
        _KASHIDA if _drawn_as_kashida(raw, index) else '"' for index in range(*marks.span())
    )


def _drawn_as_kashida(raw: object, index: int) -> bool:
    """Whether the glyph at ``index`` is drawn as a kashida, a stroke on the baseline: its
    tight box reaches to within :data:`_KASHIDA_REACH` of the font size of its origin (the
    pen's point on the baseline), in any direction the text runs. A glyph whose box PDFium
    cannot give is kept as the quotation mark it reads as."""
    box = tight_box(raw, index)
    if box is None:
        return False
    x, y = ctypes.c_double(), ctypes.c_double()
    if not pdfium_c.FPDFText_GetCharOrigin(raw, index, ctypes.byref(x), ctypes.byref(y)):
        return False
    left, right, bottom, top = box
    across = max(left - x.value, 0.0, x.value - right)
    up = max(bottom - y.value, 0.0, y.value - top)
    return math.hypot(across, up) <= _KASHIDA_REACH * font_size(raw, index)


#: What PDFium writes for a hyphen at a line end in some fonts (``segments.SOFT_HYPHENS``),
#: and for a glyph of code 2 in a font that maps no text to its codes.
_HYPHEN_MARK = "\x02"
#: A glyph whose tight box is less tall than this (points) draws nothing: a hyphen's
#: stroke is several tenths of a point thick even in small type.
MIN_INK_HEIGHT = 0.1
#: What a blank glyph read as a space becomes beside a space PDFium wrote: a control
#: character, which the segments' text drops (one character per PDFium index stays).
DROPPED = "\x7f"


def tight_box(raw: object, index: int) -> tuple[float, float, float, float] | None:
    """The tight box PDFium gives glyph ``index`` (left, right, bottom, top, in user
    space), or None where it gives none."""
    box = [ctypes.c_double() for _ in range(4)]
    if not pdfium_c.FPDFText_GetCharBox(raw, index, *(ctypes.byref(v) for v in box)):
        return None
    left, right, bottom, top = (v.value for v in box)
    return left, right, bottom, top


def blank_marks_as_spaces(raw: object, text: str) -> str:
    """``text`` with each :data:`_HYPHEN_MARK` whose glyph draws nothing (its tight box is
    under :data:`MIN_INK_HEIGHT` tall; a hyphen's has its stroke's height) a space: a font
    without a text map whose code 2 is its word space, which would read as a hyphen
    between the words. Beside a space PDFium wrote, such a glyph adds none: it becomes
    a control character, which the segments' text drops (one character per PDFium index
    stays)."""
    if _HYPHEN_MARK not in text:
        return text
    chars = list(text)
    for index, char in enumerate(chars):
        if char != _HYPHEN_MARK or (box := tight_box(raw, index)) is None:
            continue
        _, _, bottom, top = box
        if top - bottom < MIN_INK_HEIGHT:
            beside = chars[index - 1 : index] + chars[index + 1 : index + 2]
            chars[index] = DROPPED if " " in beside else " "
    return "".join(chars)


#: The alefs a lam-alef ligature ends with (ا آ أ إ).
_ALEFS = frozenset("\u0627\u0622\u0623\u0625")
_LAM = "\u0644"


def ligatures_in_order(text: str, boxes: np.ndarray, rtl: np.ndarray) -> str:
    """``text`` with the letters of each lam-alef ligature in their order, lam first.

    Arabic and Persian set lam and alef as one glyph ("لا"), whose two characters PDFium
    lists with the glyph's box each; putting a right-to-left run in reading order it
    reverses them with the rest of the run inside a word, and "مشکلات" reads "مشکالت"
    (not where the glyph stands alone, letter-spaced). Such a pair, alef before lam on
    one box, is put back: the ligature is lam then alef whatever the font."""
    if not rtl.any():
        return text  # no Arabic or Persian on the page
    shared = rtl[:-1] & rtl[1:] & np.all(boxes[:-1] == boxes[1:], axis=1)
    if not shared.any():
        return text
    chars = list(text)
    for start in np.flatnonzero(shared).tolist():
        if chars[start] in _ALEFS and chars[start + 1] == _LAM:
            chars[start], chars[start + 1] = _LAM, chars[start]
    return "".join(chars)
