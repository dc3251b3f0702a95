"""Chinese and Japanese characters, as the joining of a paragraph's lines reads them.

Chinese and Japanese put no space between words, so none goes where a line of theirs breaks
(``paragraphs.join_lines``), and a line of theirs may break anywhere in a phrase. The set:
CJK punctuation, kana, the ideographs (those past the BMP and the compatibility ones too)
and the full-width digits and letters, since a number set in full-width digits breaks as
text does ("新台幣１" / "２３元"); not the full-width signs, which stand as bullets
("＊ Fever") and open asides ("（Seleucids）") in text whose words are spaced. Letter
spacing (``letter_spacing.py``) reads a narrower set: full-width digits one space apart are
numbers apart there.
"""

from __future__ import annotations

_CJK_RANGES = (
    ("\u3000", "\u30ff"),
    ("\u31f0", "\u31ff"),
    ("\u3400", "\u9fff"),
    ("\uf900", "\ufaff"),
    ("\uff10", "\uff19"),
    ("\uff21", "\uff3a"),
    ("\uff41", "\uff5a"),
    ("\U00020000", "\U0003134f"),
)


def is_cjk(char: str) -> bool:
    """Whether ``char`` (one character, or "" for none) is Chinese or Japanese text."""
    return bool(char) and any(low <= char <= high for low, high in _CJK_RANGES)
