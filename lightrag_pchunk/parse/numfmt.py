"""Number formats and bullet glyphs of list labels (ECMA-376 Part 1 §17.18.59 ST_NumberFormat).

:func:`format_number` renders one counter value in a ``w:numFmt`` (decimal, roman, letters,
Chinese/Japanese/Korean counting, Hebrew, Arabic, w14 ``custom`` samples ...); unknown formats
render decimal. :func:`plain_glyph` and :func:`plain_literal` turn symbol-font and private-use
characters (Symbol, Wingdings bullets) into the plain Unicode characters they display as, so
bullets never reach the blocks file as private-use glyphs. Pure functions, no XML.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from itertools import pairwise

from lightrag_pchunk.outline.numerals import to_roman
from lightrag_pchunk.parse.latex_chars import symbol_font_char


def _roman(n: int) -> str:
    return to_roman(n).upper() if 0 < n < 4000 else str(n)


def _letters(n: int, alphabet: str) -> str:
    # Word doubles, then triples the letter after z (aa, bb ... zz, aaa); 780 = zzz...z (30x).
    if not 0 < n <= 780:
        return str(n)
    return alphabet[(n - 1) % 26] * ((n - 1) // 26 + 1)


def _cycle(n: int, symbols: str | tuple[str, ...]) -> str:
    return symbols[(n - 1) % len(symbols)] if n > 0 else str(n)


def _digits(n: int, digits: str) -> str:
    return "".join(digits[int(d)] for d in str(n)) if n >= 0 else str(n)


def _enclosed(n: int, first: int, last: int, beyond: str) -> str:
    return chr(first + n - 1) if 0 < n <= last else beyond.format(n)


_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen")  # fmt: skip
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_ORDINAL_WORDS = {"one": "first", "two": "second", "three": "third", "five": "fifth",
                  "eight": "eighth", "nine": "ninth", "twelve": "twelfth"}  # fmt: skip


def _words(n: int) -> str:
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + (f"-{_ONES[n % 10]}" if n % 10 else "")
    if n < 1000:
        return f"{_ONES[n // 100]} hundred" + (f" {_words(n % 100)}" if n % 100 else "")
    return f"{_words(n // 1000)} thousand" + (f" {_words(n % 1000)}" if n % 1000 else "")


def _cardinal_text(n: int) -> str:
    if not 0 < n < 1_000_000:
        return str(n)
    text = _words(n)
    return text[0].upper() + text[1:]


def _ordinal_text(n: int) -> str:
    if not 0 < n < 1_000_000:
        return _ordinal(n)
    head, last = re.fullmatch(r"(.*?)([a-z]+)", _words(n)).groups()  # type: ignore[union-attr]
    last = _ORDINAL_WORDS.get(last) or (last[:-1] + "ieth" if last.endswith("y") else last + "th")
    text = head + last
    return text[0].upper() + text[1:]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _section(n: int, digits: str, units: str, zero: str, *, lead_one: bool, one: bool) -> str:
    """0 < n < 10000 in a CJK counting system; ``lead_one`` writes 一十 at the front, ``one``
    writes 一 before 十/百/千 elsewhere (Chinese does, Japanese and Korean do not)."""
    out: list[str] = []
    pending_zero = False
    for pos in (3, 2, 1, 0):
        digit = n // 10**pos % 10
        if digit == 0:
            pending_zero = pending_zero or bool(out)
            continue
        if pending_zero and zero:
            out.append(zero)
        pending_zero = False
        if pos == 0 or digit != 1 or (one and (pos > 1 or out or lead_one)):
            out.append(digits[digit])
        out.append(units[pos] if pos else "")
    return "".join(out)


def _counting(
    n: int, digits: str, units: str, myriad: str, zero: str, *, lead_one: bool, one: bool
) -> str:
    """Positional CJK counting with a 万/萬 group, up to 10**8 - 1; decimal outside."""
    if not 0 < n < 10**8:
        return str(n)
    high, low = divmod(n, 10_000)
    if not high:
        return _section(low, digits, units, zero, lead_one=lead_one, one=one)
    text = _section(high, digits, units, zero, lead_one=lead_one, one=one) + myriad
    if low:
        text += (zero if low < 1000 else "") + _section(
            low, digits, units, zero, lead_one=True, one=one
        )
    return text


def _cjk(
    digits: str, units: str, myriad: str, zero: str, *, lead_one: bool, one: bool
) -> Callable[[int], str]:
    """A counting formatter for one CJK numeral set (see ``_section``)."""
    return lambda n: _counting(n, digits, units, myriad, zero, lead_one=lead_one, one=one)


_CN = "〇一二三四五六七八九"


def _chinese_counting(n: int) -> str:
    # [MS-DOCX] numFmt extensions: chineseCounting/taiwaneseCounting count up to 99, then
    # spell digit by digit with U+25CB as zero (一○○); chineseCountingThousand keeps counting.
    if n >= 100:
        return _digits(n, "○一二三四五六七八九")
    return _counting(n, _CN, " 十百千", "万", "零", lead_one=False, one=True)


def _hebrew_numerals(n: int) -> str:
    if not 0 < n < 1000:
        return str(n)
    hundreds, rest = divmod(n, 100)
    out = "ת" * (hundreds // 4) + ("" if hundreds % 4 == 0 else "קרש"[hundreds % 4 - 1])
    if rest in (15, 16):  # written 9+6 / 9+7: 10+5 and 10+6 would spell the divine name
        return out + ("טו" if rest == 15 else "טז")
    tens, units = divmod(rest, 10)
    return out + " יכלמנסעפצ"[tens].strip() + " אבגדהוזחט"[units].strip()


def _korean_native(n: int) -> str:
    if not 0 < n < 100:
        return str(n)
    tens = ("", "열", "스물", "서른", "마흔", "쉰", "예순", "일흔", "여든", "아흔")
    ones = ("", "하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉")
    return tens[n // 10] + ones[n % 10]


_AIUEO = (
    "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲン"
)
_IROHA = (
    "イロハニホヘトチリヌルヲワカヨタレソツネナラムウヰノオクヤマケフコエテアサキユメミシヱヒモセス"
)
_STEMS = "甲乙丙丁戊己庚辛壬癸"
_BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
_GREEK = ("αβγδεζηθικλμνξοπρστυφχψω", "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ")

_FORMATS: dict[str, Callable[[int], str]] = {
    "decimal": str,
    "decimalHalfWidth": str,
    "decimalZero": lambda n: f"0{n}" if 0 <= n < 10 else str(n),
    "decimalFullWidth": lambda n: _digits(n, "０１２３４５６７８９"),
    "decimalFullWidth2": lambda n: _digits(n, "０１２３４５６７８９"),
    "upperRoman": _roman,
    "lowerRoman": lambda n: _roman(n).lower(),
    "upperLetter": lambda n: _letters(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    "lowerLetter": lambda n: _letters(n, "abcdefghijklmnopqrstuvwxyz"),
    "ordinal": _ordinal,
    "cardinalText": _cardinal_text,
    "ordinalText": _ordinal_text,
    "numberInDash": lambda n: f"- {n} -",
    "decimalEnclosedCircle": lambda n: _enclosed(n, 0x2460, 20, "{}"),
    "decimalEnclosedCircleChinese": lambda n: _enclosed(n, 0x2460, 20, "{}"),
    "decimalEnclosedParen": lambda n: _enclosed(n, 0x2474, 20, "({})"),
    "decimalEnclosedFullstop": lambda n: _enclosed(n, 0x2488, 20, "{}."),
    "ideographEnclosedCircle": lambda n: _enclosed(n, 0x3220, 10, "{}"),
    "chineseCounting": _chinese_counting,
    "taiwaneseCounting": _chinese_counting,
    "chineseCountingThousand": _cjk(_CN, " 十百千", "万", "零", lead_one=False, one=True),
    "taiwaneseCountingThousand": _cjk(_CN, " 十百千", "萬", "零", lead_one=False, one=True),
    "japaneseCounting": _cjk(_CN, " 十百千", "万", "", lead_one=False, one=False),
    "chineseLegalSimplified": _cjk(
        "零壹贰叁肆伍陆柒捌玖", " 拾佰仟", "万", "零", lead_one=True, one=True
    ),
    "ideographLegalTraditional": _cjk(
        "零壹貳參肆伍陸柒捌玖", " 拾佰仟", "萬", "零", lead_one=True, one=True
    ),
    "ideographDigital": lambda n: _digits(n, _CN),
    "taiwaneseDigital": lambda n: _digits(n, _CN),
    "japaneseDigitalTenThousand": lambda n: _digits(n, _CN),
    "koreanDigital2": lambda n: _digits(n, _CN),
    "ideographTraditional": lambda n: _cycle(n, _STEMS),
    "ideographZodiac": lambda n: _cycle(n, _BRANCHES),
    "ideographZodiacTraditional": lambda n: (
        _STEMS[(n - 1) % 10] + _BRANCHES[(n - 1) % 12] if n > 0 else str(n)
    ),
    "koreanDigital": lambda n: _digits(n, "영일이삼사오육칠팔구"),
    "koreanCounting": _cjk(" 일이삼사오육칠팔구", " 십백천", "만", "", lead_one=False, one=False),
    "koreanLegal": _korean_native,
    "ganada": lambda n: _cycle(n, "가나다라마바사아자차카타파하"),
    "chosung": lambda n: _cycle(n, "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ"),
    "aiueo": lambda n: _cycle(n, _AIUEO),
    "aiueoFullWidth": lambda n: _cycle(n, _AIUEO),
    "iroha": lambda n: _cycle(n, _IROHA),
    "irohaFullWidth": lambda n: _cycle(n, _IROHA),
    "hebrew1": _hebrew_numerals,
    "hebrew2": lambda n: _cycle(n, "אבגדהוזחטיכלמנסעפצקרשת"),
    "arabicAlpha": lambda n: _cycle(n, "أبتثجحخدذرزسشصضطظعغفقكلمنهوي"),
    "arabicAbjad": lambda n: _cycle(n, "أبجدهوزحطيكلمنسعفصقرشتثخذضظغ"),
    "hindiNumbers": lambda n: _digits(n, "०१२३४५६७८९"),
    "thaiNumbers": lambda n: _digits(n, "๐๑๒๓๔๕๖๗๘๙"),
    "bullet": lambda n: "•",
    "none": lambda n: "",
}


#: ST_NumberFormat values rendered natively (besides w14 "custom"); others render decimal.
SUPPORTED_FORMATS: frozenset[str] = frozenset(_FORMATS)


def custom_number(n: int, pattern: str) -> str | None:
    """A w14 ``numFmt custom`` from its sample ("001, 002, 003, ...", "α, β, γ, ..."); None if
    the sample is not one we can continue."""
    samples = [s.strip() for s in pattern.split(",") if s.strip() and s.strip() != "..."]
    if not samples:
        return None
    first = samples[0]
    if first.isascii() and first.isdigit():
        return str(n).zfill(len(first)) if n >= 0 else str(n)
    for alphabet in _GREEK:
        if first in alphabet and len(first) == 1:
            return _cycle(n, alphabet)
    codes = [ord(s) for s in samples[:3] if len(s) == 1]
    if len(codes) == len(samples[:3]) >= 2 and all(b - a == 1 for a, b in pairwise(codes)):
        char = chr(codes[0] + n - 1) if 0 < n < 0x110000 - codes[0] else ""
        if char and unicodedata.category(char) == unicodedata.category(first):
            return char
        return str(n)
    return None


def format_number(value: int, num_fmt: str, custom: str = "") -> str:
    """Render one counter value in an ST_NumberFormat; unknown formats render decimal."""
    if num_fmt == "custom":
        return custom_number(value, custom) or str(value)
    return _FORMATS.get(num_fmt, str)(value)


# ---------------------------------------------------------------- bullets: symbol fonts -> Unicode

# Wingdings code points (as U+F0xx or as the raw byte) that lists use, mapped to plain Unicode.
_WINGDINGS = {
    0x22: "✂", 0x3F: "✍", 0x41: "✌", 0x45: "☜", 0x46: "☞", 0x4A: "☺", 0x4C: "☹", 0x51: "✈",
    0x52: "☼", 0x54: "❄", 0x58: "✠", 0x5B: "☯", 0x6C: "●", 0x6D: "❍", 0x6E: "■", 0x6F: "□",
    0x70: "□", 0x71: "❑", 0x72: "❒", 0x73: "⬧", 0x74: "⧫", 0x75: "◆", 0x76: "❖", 0x77: "⬥",
    0x78: "⌧", 0x7A: "⌘", 0x7B: "❀", 0x7C: "✿", 0x9E: "·", 0x9F: "•", 0xA0: "▪", 0xA1: "○",
    0xA4: "◉", 0xA5: "◎", 0xA7: "▪", 0xA8: "◻", 0xAA: "✦", 0xAB: "★", 0xAC: "✶", 0xAD: "✴",
    0xAE: "✹", 0xAF: "✵", 0xB1: "⌖", 0xB2: "⟡", 0xD7: "◄", 0xD8: "➢", 0xD9: "▲", 0xDA: "▼",
    0xDF: "←", 0xE0: "→", 0xE1: "↑", 0xE2: "↓", 0xE7: "⬅", 0xE8: "➔", 0xE9: "⬆", 0xEA: "⬇",
    0xEF: "⇦", 0xF0: "⇨", 0xF1: "⇧", 0xF2: "⇩", 0xF3: "⬄", 0xF9: "▭", 0xFA: "▭", 0xFB: "✗",
    0xFC: "✓", 0xFD: "☒", 0xFE: "☑",
}  # fmt: skip
_WINGDINGS.update({0x80 + i: chr(0x24EA if i == 0 else 0x2460 + i - 1) for i in range(11)})
_WINGDINGS.update({0x8C + i: chr(0x2776 + i) for i in range(10)})
_WINGDINGS_2 = {0x4F: "✗", 0x50: "✓", 0x52: "☑"}
_SYMBOL_FONTS = {"wingdings 3", "webdings", "marlett", "zapf dingbats", "zapfdingbats", "mt extra"}
# A private-use glyph whose font we do not know: Word's bullet library is Symbol's U+F0B7,
# Symbol's dash and otherwise Wingdings.
_PUA_GUESS = {**_WINGDINGS, 0xB7: "•", 0x2D: "–"}


def plain_glyph(ch: str, font: str) -> str:
    """The plain Unicode character a (possibly symbol-font) character displays as."""
    code = ord(ch)
    low = code - 0xF000 if 0xF000 <= code <= 0xF0FF else (code if code <= 0xFF else None)
    if low is not None and not ch.isspace():
        if font == "symbol":
            return symbol_font_char("Symbol", f"{low:02X}") or "•"
        if font == "wingdings":
            return _WINGDINGS.get(low, "•")
        if font == "wingdings 2":
            return _WINGDINGS_2.get(low, "•")
        if font in _SYMBOL_FONTS:
            return "•"
    if 0xE000 <= code <= 0xF8FF:
        return _PUA_GUESS.get(low, "•") if low is not None else "•"
    return ch


def plain_literal(text: str, font: str, *, is_bullet: bool) -> str:
    """Literal lvlText with symbol-font and private-use glyphs replaced by plain characters.

    Plain characters go through a symbol font in bullets only: a numbered level in Symbol
    would turn its letters Greek, which is not what the authors of "%1." mean.
    """
    if is_bullet:
        if text == "o" and font not in _SYMBOL_FONTS | {"symbol", "wingdings", "wingdings 2"}:
            return "◦"  # Word's level-2 default: "o" in Courier New, a hollow circle
        return "".join("-" if ch == "\u00ad" else plain_glyph(ch, font) for ch in text)
    return "".join(plain_glyph(ch, font) if 0xE000 <= ord(ch) <= 0xF8FF else ch for ch in text)
