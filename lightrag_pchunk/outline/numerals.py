"""The values of numerals a numbering label may carry: Chinese (一, 十二, 两千) and roman
(iv, XII), roman numerals written out, and a list's token (:func:`token_value`); whether a
number is a quantity rather than a label (:func:`is_quantity`). Pure; ``labels.py`` reads
labels with them, ``parse/numfmt.py`` writes Word's roman list numbers with
:func:`to_roman`."""

from __future__ import annotations

import re

_CN_DIGITS = {
    "零": 0, "〇": 0, "○": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5,
    "六": 6, "七": 7, "八": 8, "九": 9,
}  # fmt: skip
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def chinese_number(text: str) -> int | None:
    """The value of a Chinese numeral (一, 十二, 二十三, 一百零五, 两千) or ASCII digits."""
    if text.isdigit():
        return int(text)
    total, current = 0, 0
    for ch in text:
        if ch in _CN_DIGITS:
            current = _CN_DIGITS[ch] if current == 0 else current * 10 + _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            total += max(current, 1) * _CN_UNITS[ch]
            current = 0
        else:
            return None
    value = total + current
    return value if value > 0 else None


def roman_number(text: str) -> int | None:
    """The value of a well-formed roman numeral (either case), else None."""
    values = [_ROMAN.get(ch) for ch in text.lower()]
    if not values or None in values:
        return None
    total = 0
    for i, value in enumerate(values):
        following = values[i + 1] if i + 1 < len(values) else 0
        total += -value if value < following else value
    if total <= 0 or to_roman(total) != text.lower():
        return None
    return total


def to_roman(n: int) -> str:
    """``n`` in lower-case roman numerals (4000 and more as a run of "m")."""
    out = []
    for value, symbol in (
        (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
        (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
    ):  # fmt: skip
        count, n = divmod(n, value)
        out.append(symbol * count)
    return "".join(out)


def token_value(token: str) -> tuple[str, int] | None:
    """``(kind, value)`` of one parenthesised or dotted token: arabic, roman, letter, cn."""
    if token.isdigit():
        return "arabic", int(token)
    if len(token) == 1 and token.isascii() and token.isalpha():
        # A single i/v/x... is read as a letter here; sequence context may say roman.
        return ("upper" if token.isupper() else "lower"), ord(token.lower()) - 96
    if token.isascii():
        value = roman_number(token)
        return (("roman-upper" if token.isupper() else "roman-lower"), value) if value else None
    value = chinese_number(token)
    return ("cn", value) if value else None


#: After a number's first digits, its further groups of three set apart by a space (SI,
#: Russian, French: "6 089 750,85 руб.", "12 345,00 €"): two groups or more, or one with a
#: decimal fraction. One group alone ("3 100 Years") may be a label before its title.
_DIGIT_GROUPS = re.compile(
    r"(?:[ \u00a0\u2009\u202f]\d{3}){2,}(?![\d])|[ \u00a0\u2009\u202f]\d{3}[,.]\d+(?![\d])"
)


#: What makes a whole number the start of a range of numbers: a word or dash and the
#: range's other end ("15 to 24", "15 – 24", "15 bis 24", "15 至 24"), or an open end
#: ("80 and over", "65 and older").
_RANGE_ON = re.compile(
    r"\s+(?:(?:to|through|bis|à)\s+\d|[-–—~至到]\s*\d|and\s+(?:over|older|above|more)\b)"
)


def is_quantity(text: str, end: int) -> bool:
    """Whether the whole number ending at ``end`` of ``text`` is a quantity, not a label: an
    amount in digit groups or the start of a range (see the patterns above)."""
    return bool(_DIGIT_GROUPS.match(text, end) or _RANGE_ON.match(text, end))
