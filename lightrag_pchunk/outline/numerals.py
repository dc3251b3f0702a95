"""The values of numerals a numbering label may carry: Chinese (一, 十二, 两千) and roman
(iv, XII), roman numerals written out, and a list's token (:func:`token_value`). Pure;
``labels.py`` reads labels with them, ``parse/numfmt.py`` writes Word's roman list numbers
with :func:`to_roman`."""

from __future__ import annotations

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
