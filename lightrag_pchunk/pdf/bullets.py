"""Stage A for PDF: bulleted lines, and the lines of a bulleted item wrapped under its text.

Read by ``paragraphs`` (which lines go on with an item) and by the table finders (a bullet
set apart opens a line of text, no cell).
"""

from __future__ import annotations

from collections.abc import Sequence

from lightrag_pchunk.pdf.cjk import is_cjk
from lightrag_pchunk.pdf.layout import Line, reads_right_to_left

#: A line ending with one of these ends its sentence.
SENTENCE_END = tuple(".!?:;。！？：；")
_BULLETS = frozenset("•◦▪▫‣⁃●○■□◆◇►▶▷➢➤➔→✓✔❖★☆·-–—*⦁")
_CJK_SENTENCE_END = frozenset("。！？；：")


def is_bullet_glyph(char: str) -> bool:
    """Whether a character is a bullet glyph, or a symbol font's (private use)."""
    return char in _BULLETS or "\ue000" <= char <= "\uf8ff"


def is_bulleted(text: str) -> bool:
    """Whether a line starts with a bullet: a bullet glyph, a symbol font's (private use),
    or Word's "o" of a second-level list."""
    if is_bullet_glyph(text[:1]):
        return True
    return text.startswith("o ") and text[2:3].isupper()


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
    (``paragraphs._ends_early``), so only the indent and the phrase tell an item's wrapped
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
    """Whether a line stops inside a phrase: on a lower-case word ("Results and") or a
    comma; in CJK text, on anything but the end of a sentence."""
    text = text.rstrip()
    if text and is_cjk(text[-1]):
        return text[-1] not in _CJK_SENTENCE_END
    words = text.rsplit(" ", 1)
    last = words[-1]
    return len(words) > 1 and (last[:1].islower() or last.endswith(","))
