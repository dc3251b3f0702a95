"""Stage A for PDF: what PDFium says of a character's font: the size it is printed at and
whether it is bold (``segments`` reads them for each segment, at its first, middle and last
glyphs; the size at each of its letters where those disagree).

Input: PDFium's text page (its raw handle) and a character index. Output: a size in points,
whether the font is bold, its name and weight.
"""

from __future__ import annotations

import ctypes
import math
import re
from collections import Counter

import pypdfium2.raw as pdfium_c

#: A font this heavy (CSS weight) or heavier is bold, up to the heaviest: a weight past it
#: says nothing (some fonts report 2140, roman and bold alike), and the name decides.
BOLD_WEIGHT, MAX_WEIGHT = 600, 1000
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demibold", "extrabold")
#: A weight named by its W-number at the end of a font's name, as Japanese foundries number
#: their faces' weights ("HiraginoSansGB-W3" the text, "-W6" its semibold headings, up to
#: W9): W6 and heavier is bold (PDFium reports such a face's weight from its stems, 545 for
#: a W6: below :data:`BOLD_WEIGHT`).
_W_WEIGHT = re.compile(r"[-_ ]w([0-9])$")
BOLD_W_NUMBER = 6
#: The tag naming a subset of a font embedded in the file ("ABCDEF+" before "Calibri"): one
#: face embedded twice, or once whole and once in part, carries two tags or one.
_SUBSET_TAG = re.compile(r"^[A-Z]{6}\+")

_MATRIX = pdfium_c.FS_MATRIX()


def font_size(raw: object, index: int) -> float:
    """The size character ``index`` is printed at, in points: its font size scaled by its
    text matrix (some producers set every font at 1 pt and scale the matrix)."""
    size = pdfium_c.FPDFText_GetFontSize(raw, index)
    if pdfium_c.FPDFText_GetMatrix(raw, index, _MATRIX):
        size *= math.hypot(_MATRIX.c, _MATRIX.d)
    return round(size, 2)


def run_size(raw: object, text: str, indexes: list[int]) -> float:
    """The size a run of glyphs (``indexes`` into the page's characters ``text``, in text
    order) is printed at: its capitals' in small capitals (:func:`small_capitals_size`),
    else its middle glyph's where its first, middle and last agree, else the size most of
    its letters (CJK characters too) are set at, so that a formula's symbols set large or
    small, or a drop cap, among the words of the text do not set it; the middle glyph's in
    a run without letters."""
    middle = font_size(raw, indexes[len(indexes) // 2])
    agree = font_size(raw, indexes[0]) == middle == font_size(raw, indexes[-1])
    # A run in capitals may be in small capitals, the three glyphs read all small ones.
    if agree and not text[indexes[0] : indexes[-1] + 1].isupper():
        return middle
    sizes = {i: font_size(raw, i) for i in indexes if text[i].isalpha()}
    if small_capitals := small_capitals_size(text, sizes):
        return small_capitals
    if agree:
        return middle
    letters = Counter(sizes.values())
    return max(letters, key=letters.__getitem__) if letters else middle


#: Small capitals drawn as capitals of a smaller size are this share of the capitals' size
#: or more, and less than all of it.
SMALL_CAPITALS = (0.6, 0.9)


def small_capitals_size(text: str, sizes: dict[int, float]) -> float | None:
    """The size of a run set in small capitals (``sizes``: its letters' sizes by index into
    ``text``), or None for any other run. Producers without a small-capitals face draw the
    lower-case letters as capitals of a smaller size ("TITLE I: WIPO TREATY": the T of
    Title, I and WIPO at the size set, the rest smaller): the run reads at its capitals'
    size, as its author set it; by its letters' count it would read smaller than the text
    it heads. A line's first run may open on a small capital ("OF REGISTRATION", the second
    line of a title); a drop cap is far larger than the letters after it. A title's label
    may be set at a third size between them ("I. INTRODUCTION": the I of the numeral a
    little smaller than the capitals, larger than the small ones)."""
    if len(set(sizes.values())) < 2 or not all(text[i].isupper() for i in sizes):
        return None
    large = max(sizes.values())
    smaller = set(sizes.values()) - {large}
    if not all(SMALL_CAPITALS[0] * large <= small < SMALL_CAPITALS[1] * large for small in smaller):
        return None
    return large


def text_size(runs: list[tuple[float, str]]) -> float:
    """The size a line of ``runs`` (each its size and text) is printed at: the size most of
    its letters and digits (CJK characters too) are set at, or most of its characters on a
    line without them, so that a formula's symbols, set larger or smaller than the words
    around them, do not set it. A line of one size is printed at it, its characters not
    counted (most lines: one segment, or several in the text's size)."""
    if len({size for size, _ in runs}) == 1:
        return runs[0][0]
    sizes: Counter[float] = Counter()
    for size, text in runs:
        sizes[size] += sum(c.isalnum() for c in text)
    if not any(sizes.values()):
        for size, text in runs:
            sizes[size] += len(text)
    return max(sizes, key=sizes.__getitem__)


_NAME_BUFFER = ctypes.create_string_buffer(256)


def is_bold(raw: object, index: int, fonts: dict[int, tuple[bool, str]]) -> bool:
    """Whether character ``index`` is set in a bold font (:func:`font_of`)."""
    return font_of(raw, index, fonts)[0]


def font_of(raw: object, index: int, fonts: dict[int, tuple[bool, str]]) -> tuple[bool, str]:
    """Whether character ``index`` is set in a bold font, and the font's name and weight
    ("Arial-ItalicMT/400", without a subset's tag: a heading set in the text's size and
    weight in another face is told from the text by it), each font of the page judged once
    (``fonts``, by PDFium's handle of it: a page sets its thousands of segments in a handful
    of fonts, and reading a font's name costs more than finding its handle)."""
    text_object = pdfium_c.FPDFText_GetTextObject(raw, index)
    font = pdfium_c.FPDFTextObj_GetFont(text_object) if text_object else None
    if not font:
        return _read_font(raw, index)
    key = ctypes.addressof(font.contents)
    facts = fonts.get(key)
    if facts is None:
        facts = fonts[key] = _read_font(raw, index)
    return facts


def _read_font(raw: object, index: int) -> tuple[bool, str]:
    """Whether the font of character ``index`` is bold: by its weight, else by its name
    (many embedded fonts report a regular weight and are called "…-Bold", or "…-W6":
    :data:`BOLD_W_NUMBER`); and its name and weight."""
    weight = pdfium_c.FPDFText_GetFontWeight(raw, index)
    flags = ctypes.c_int(0)
    length = pdfium_c.FPDFText_GetFontInfo(raw, index, _NAME_BUFFER, 256, ctypes.byref(flags))
    name = _SUBSET_TAG.sub("", _NAME_BUFFER.raw[: max(length - 1, 0)].decode("latin-1"))
    lowered = name.lower()
    numbered = _W_WEIGHT.search(lowered)
    bold = (
        BOLD_WEIGHT <= weight <= MAX_WEIGHT
        or any(word in lowered for word in _BOLD_NAMES)
        or (numbered is not None and int(numbered.group(1)) >= BOLD_W_NUMBER)
    )
    return bold, f"{name}/{weight}"
