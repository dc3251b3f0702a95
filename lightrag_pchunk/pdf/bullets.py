"""Stage A for PDF: bulleted lines, the lines of a bulleted item wrapped under its text, and
how a line ends (inside a phrase, or on a word set apart).

Read by ``paragraphs`` (which lines go on with an item, or with the line above) and by the
table finders (a bullet set apart opens a line of text, no cell).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from lightrag_pchunk.parse.numfmt import plain_glyph
from lightrag_pchunk.pdf.cjk import is_cjk
from lightrag_pchunk.pdf.layout import Line, reads_right_to_left

#: A line ending with one of these ends its sentence.
SENTENCE_END = tuple(".!?:;。！？：；")
_BULLETS = frozenset("•◦▪▫‣⁃●○■□◆◇►▶▷➢➤➔→✓✔❖★☆·-–—*⦁")
#: Arrows, geometric shapes, dingbats, supplemental arrows and shapes.
_SHAPE_BLOCKS = ((0x2190, 0x21FF), (0x25A0, 0x25FF), (0x2700, 0x27BF), (0x2B00, 0x2BFF))
_CJK_SENTENCE_END = frozenset("。！？；：")
#: A list of references' entry opens on its number in brackets ("[12] ", "［3］").
_REFERENCE_NUMBER = re.compile(r"[\[［]\d{1,3}[\]］]\s*\S")


#: The shapes Wingdings draws (``symbol_chars`` reads its glyphs so): arrows, geometric shapes,
#: dingbats, any of which a list may open on ("▭" a small square, "⇨").
_DRAWN_BULLETS = frozenset(
    char
    for char in map(plain_glyph, map(chr, range(0xF021, 0xF100)), ["wingdings"] * 0xDF)
    if any(low <= ord(char) <= high for low, high in _SHAPE_BLOCKS)
    and not unicodedata.category(char).startswith("N")  # "❶": a number, no bullet
)


def is_bullet_glyph(char: str) -> bool:
    """Whether a character is a bullet glyph, one a symbol font draws, or a symbol font's
    whose character is not known (private use)."""
    return char in _BULLETS or char in _DRAWN_BULLETS or "\ue000" <= char <= "\uf8ff"


#: The bullets of Word's bullet library as a symbol font maps them to private use (Symbol's
#: U+F0B7, Wingdings' square, arrowhead, tick, diamonds, black square and circle): the ones
#: read plain, as the Word parser reads them (``parse.numfmt.plain_glyph``).
_SYMBOL_BULLETS = frozenset("\uf0b7\uf0a7\uf0d8\uf0fc\uf076\uf06e\uf06c")


def plain_bullet(text: str) -> str:
    """``text`` with the symbol font's bullet it opens on (a private-use glyph before a
    space: Word's Symbol bullet is U+F0B7) read as the plain character it draws, as the
    Word parser writes a list's bullet: neither a user nor a model reads a private-use
    glyph. Other private-use glyphs (an icon font's telephone) stay. One character for
    one, so the positions of the text hold."""
    if text[:1] not in _SYMBOL_BULLETS or not text[1:2].isspace():
        return text
    return plain_glyph(text[0], "") + text[1:]


def is_bulleted(text: str) -> bool:
    """Whether a line starts with a bullet: a bullet glyph, a symbol font's (private use),
    or Word's "o" of a second-level list."""
    if is_bullet_glyph(text[:1]):
        return True
    return text.startswith("o ") and text[2:3].isupper()


def opens_reference(text: str) -> bool:
    """Whether a line opens an entry of a list of references on its number in brackets
    ("[4] IAEA SSG-25 …"): an item, as a bulleted line is."""
    return bool(_REFERENCE_NUMBER.match(text))


#: Where a bulleted item's text starts, right of its bullet, in ems of its size.
HANGING_INDENT = (0.3, 1.2)
#: Bullets typed as plain characters: they open code's items as often ("- url: …" in YAML,
#: "-- a comment" in SQL), whose next lines are indented alike and are no wrapped text.
_TYPED_BULLETS = "-*"


def hangs_in_item(group: Sequence[Line], line: Line) -> bool:
    """Whether ``line`` goes on with the bulleted item ``group`` opens: it starts where the
    item's text does, right of the bullet (a hanging indent), or where the item's line
    above it starts, and that line stops mid-phrase (or ``line`` starts lower-case). A
    slide's text box is narrower than its page: its lines end early by the page's measure
    (``line_ends.ends_early``), so only the indent and the phrase tell an item's wrapped
    lines ("▪ Basic information about the CSP and" over "CSO") from the next paragraph."""
    first, above = group[0], group[-1]
    bullet = first.text[:1]
    if not is_bullet_glyph(bullet) or bullet in _TYPED_BULLETS or not first.text[1:2].isspace():
        return False
    if above.text.rstrip().endswith(SENTENCE_END):
        return False
    if not (line.text[:1].islower() or breaks_mid_phrase(above.text)):
        return False  # "▪ Introduction" over a description set under its text
    if reads_right_to_left(line.segments):
        return False
    em = max(line.size, 1.0)
    if len(group) > 1:
        return abs(line.x0 - above.x0) <= 0.1 * em
    low, high = HANGING_INDENT
    return low * em <= line.x0 - first.x0 <= high * em


def breaks_mid_phrase(text: str) -> bool:
    """Whether a line stops inside a phrase: on a lower-case word ("Results and"), an
    ampersand ("Functions &") or a comma; in CJK text, on anything but the end of a
    sentence."""
    text = text.rstrip()
    if text and is_cjk(text[-1]):
        return text[-1] not in _CJK_SENTENCE_END
    words = text.rsplit(" ", 1)
    last = words[-1]
    return len(words) > 1 and (last[:1].islower() or last.endswith((",", "&")))


#: A line's last segment is set apart this many ems or more after the one before it (as a
#: table of contents' page number is), ...
SET_APART_EMS = 1.5
#: ... and holds this many characters at most (a word or two: a name, a role).
SET_APART_CHARS = 12


def ends_set_apart(line: Line) -> bool:
    """Whether a line of CJK text ends in a word set apart, which ends its paragraph as a
    line that ends early does (a cover's "經濟部能源局  指導" over "財團法人…基金會  編印": a
    name and its role, no phrase run on): a last segment of :data:`SET_APART_CHARS`
    characters at most, :data:`SET_APART_EMS` or more after the one before it and not
    closed up to it (letter-spaced characters are), CJK characters either side of the gap.
    CJK text puts no space between its words, so a gap is set on purpose; justified Latin
    text spaces its words as wide as the line needs."""
    segments = line.segments
    if len(segments) < 2 or segments[-1].closes_up >= 0:
        return False
    before, last = segments[-2], segments[-1]
    if len(last.text) > SET_APART_CHARS:
        return False
    if not (is_cjk(before.text.rstrip()[-1:]) and is_cjk(last.text[:1])):
        return False
    gap = before.x0 - last.x1 if reads_right_to_left(segments) else last.x0 - before.x1
    return gap >= SET_APART_EMS * max(last.size, 1.0)
