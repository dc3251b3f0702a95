"""Stage A for PDF: a symbol font's private-use glyphs read as the characters they draw.

Word maps the glyphs of its symbol fonts to private use (U+F000 plus the font's code): a
bullet in Symbol is U+F0B7, Wingdings' small square U+F0A7, a tick U+F0FC, Symbol's lambda
U+F06C, which in Wingdings is a black circle. Neither a user nor a model reads a private-use
glyph, and the same code draws another character in another font: the font each glyph is
set in says which (``fonts.font_of``), as the Word parser reads a run's symbol by its font
(``parse.numfmt.plain_glyph``). Only a glyph whose font and code name a known character is
read so; an icon font's glyphs, and codes a symbol font's map does not know, stay.

Input: PDFium's text page and the page's characters (``char_text.page_chars``). Output: the
characters, one for one (each keeps its PDFium index).
"""

from __future__ import annotations

import re

import pypdfium2 as pdfium

from lightrag_pchunk.parse.latex_chars import symbol_font_char
from lightrag_pchunk.parse.numfmt import plain_glyph
from lightrag_pchunk.pdf.fonts import font_of

#: The codes Word maps a symbol font's glyphs to.
_SYMBOL_CODES = re.compile("[\uf021-\uf0ff]")
#: The symbol faces read, by their names lower-cased without spaces, dashes or a subset's
#: tag, longest first, and what may follow the name ("Wingdings-Regular", "SymbolMT"; not
#: "Symbola", a Unicode font, nor Wingdings 3, whose map is not known).
_FACES = (("wingdings2", "wingdings 2"), ("wingdings", "wingdings"), ("symbol", "symbol"))
_FACE_ENDS = frozenset({"", "mt", "regular", "mtregular", "ps"})


def symbol_face(font: str) -> str:
    """The symbol face a font's name (``fonts.font_of``: "SymbolMT/400") names, as
    ``plain_glyph`` knows it; "" for any other font (a text face, an icon font, Wingdings 3)."""
    name = font.rsplit("/", 1)[0].lower().replace(" ", "").replace("-", "")
    for prefix, face in _FACES:
        if name.startswith(prefix) and name[len(prefix) :] in _FACE_ENDS:
            return face
    return ""


def plain_symbols(textpage: pdfium.PdfTextPage, text: str) -> str:
    """``text`` (the characters of ``textpage``, one per PDFium index) with each private-use
    glyph of a symbol font whose character is known read as that character."""
    if not _SYMBOL_CODES.search(text):
        return text
    raw = textpage.raw
    fonts: dict[int, tuple[bool, str]] = {}
    chars = list(text)
    for found in _SYMBOL_CODES.finditer(text):
        index = found.start()
        face = symbol_face(font_of(raw, index, fonts)[1])
        if face and (char := _drawn(found.group(), face)):
            chars[index] = char
    return "".join(chars)


def _drawn(glyph: str, face: str) -> str | None:
    """The character ``glyph`` draws in the symbol ``face``, None where its map does not
    know it (``plain_glyph`` reads an unknown code as a bullet, as a list's symbol is;
    Wingdings' own bullet is U+F09F)."""
    if face == "symbol":
        return symbol_font_char("Symbol", f"{ord(glyph):X}")
    char = plain_glyph(glyph, face)
    return char if char != "•" or (face, glyph) == ("wingdings", "\uf09f") else None
