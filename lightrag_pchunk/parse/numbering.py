"""List and heading numbers from ``word/numbering.xml`` (ECMA-376 Part 1 §17.9), as Word shows them.

``NumberingDefinitions.from_xml`` reads the definitions once; ``NumberingCounter`` is then fed
every numbered paragraph in document order and returns its label ("1.2.3", "第一章", "(a)",
"•"). Malformed input never raises: a definition that cannot be used yields no label.

Word semantics kept (Word's deviations from the standard per [MS-OI29500]):
- Counters belong to the resolved abstractNum, so every ``w:num`` that references it continues
  one sequence. The first paragraph of a ``w:num`` with a ``w:lvlOverride`` (``startOverride``
  or a replacement ``w:lvl``) restarts the overridden levels, and deeper ones, at the override.
- A level restarts when a shallower level is used; ``w:lvlRestart`` n restarts it only when
  level n-1 or shallower is used, 0 never. A level never used shows its start value (the
  current ``w:num``'s), and showing it as a parent does not consume it.
- ``%N`` renders level N-1 in its own ``numFmt``. With ``isLgl``, the previous levels render
  decimal and the current one keeps its own format ("Section 1.01"). A ``%N`` deeper than the
  paragraph's level makes Word drop the whole lvlText, so the label is ``None``.
- ``numFmt none`` renders its number as "" but keeps the literal text ("%1注：" -> "注：");
  a label that is empty after stripping is ``None``.
- Section breaks do not reset list numbering: Word continues a list across sections, and
  LightRAG's golden test ``sectpr_resets_numbering`` also shows "1. 2. | 3." across the break
  (its resolver only forgets which ``w:num`` came last). So the counter has no section hook.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise

from lxml import etree

from lightrag_pchunk.parse.equations import symbol_font_char
from lightrag_pchunk.parse.xml import NS, qn

logger = logging.getLogger("lightrag.pchunk")

#: A numbering style id -> the numId in its ``w:pPr/w:numPr`` (from styles.xml, by the caller).
StyleNumIds = Mapping[str, int] | Callable[[str], int | str | None]

_LEVELS = 9
_MAX_LINKS = 8  # numStyleLink hops followed before giving up (Word nests at most a few)
_MAX_INT = 2**31 - 1  # ST_DecimalNumber is a 32-bit int; bounds labels made from huge values
_PLACEHOLDER = re.compile(r"(%[1-9])")
_OFF = {"0", "false", "off"}
_MC = NS["mc"]


def _val(el: etree._Element | None, attr: str = "w:val") -> str | None:
    return None if el is None else el.get(qn(attr))


def _as_int(value: object) -> int | None:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return max(-_MAX_INT, min(_MAX_INT, number))


def _on(el: etree._Element | None) -> bool:
    return el is not None and (_val(el) or "1").lower() not in _OFF


# ---------------------------------------------------------------- number formats (ST_NumberFormat)


def _roman(n: int) -> str:
    if not 0 < n < 4000:
        return str(n)
    out = []
    for value, symbol in (
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
        (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ):  # fmt: skip
        count, n = divmod(n, value)
        out.append(symbol * count)
    return "".join(out)


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


def _custom_number(n: int, pattern: str) -> str | None:
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
        return _custom_number(value, custom) or str(value)
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


def _glyph(ch: str, font: str) -> str:
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


def _visible(text: str, font: str, *, is_bullet: bool) -> str:
    """Literal lvlText with symbol-font and private-use glyphs replaced by plain characters.

    Plain characters go through a symbol font in bullets only: a numbered level in Symbol
    would turn its letters Greek, which is not what the authors of "%1." mean.
    """
    if is_bullet:
        if text == "o" and font not in _SYMBOL_FONTS | {"symbol", "wingdings", "wingdings 2"}:
            return "◦"  # Word's level-2 default: "o" in Courier New, a hollow circle
        return "".join("-" if ch == "\u00ad" else _glyph(ch, font) for ch in text)
    return "".join(_glyph(ch, font) if 0xE000 <= ord(ch) <= 0xF8FF else ch for ch in text)


# ---------------------------------------------------------------- definitions


@dataclass(frozen=True, slots=True)
class Level:
    """One numbering level (``w:lvl``); defaults are the standard's for absent elements."""

    start: int = 0
    num_fmt: str = "decimal"
    custom: str = ""  # w14 numFmt "custom": the w:format sample
    text: str | None = None  # w:lvlText/@w:val; None when absent (Word shows nothing)
    restart: int | None = None  # w:lvlRestart/@w:val
    is_lgl: bool = False
    suffix: str = "tab"  # w:suff: tab | space | nothing
    pstyle: str | None = None
    font: str = ""  # lower-cased w:rPr/w:rFonts name, for symbol-font bullets
    is_picture: bool = False  # w:lvlPicBulletId: rendered "•"


def _num_fmt(lvl: etree._Element) -> tuple[str, str]:
    """(numFmt, custom sample), looking through mc:AlternateContent (Word 2010 custom formats)."""
    direct = lvl.find(qn("w:numFmt"))
    if direct is not None:
        return _val(direct) or "decimal", direct.get(qn("w:format")) or ""
    alt = lvl.find(f"{{{_MC}}}AlternateContent")
    if alt is None:
        return "decimal", ""
    for choice in alt.findall(f"{{{_MC}}}Choice"):
        el = choice.find(qn("w:numFmt"))
        fmt, custom = _val(el) or "", (el.get(qn("w:format")) if el is not None else "") or ""
        if fmt == "custom" and _custom_number(1, custom) is not None:
            return fmt, custom
        if fmt and fmt != "custom":
            return fmt, ""
    fallback = alt.find(f"{{{_MC}}}Fallback/{qn('w:numFmt')}")
    return _val(fallback) or "decimal", ""


def _parse_level(lvl: etree._Element) -> Level:
    fmt, custom = _num_fmt(lvl)
    text_el = lvl.find(qn("w:lvlText"))
    text = _val(text_el)
    if text_el is not None and text_el.get(qn("w:null"), "").lower() in {"1", "true", "on"}:
        text = ""
    fonts = lvl.find(f"{qn('w:rPr')}/{qn('w:rFonts')}")
    font = ""
    if fonts is not None:
        for attr in ("w:ascii", "w:hAnsi", "w:cs", "w:eastAsia"):
            if fonts.get(qn(attr)):
                font = fonts.get(qn(attr), "").strip().lower()
                break
    # Absent w:start means 0 (§17.9.26); a malformed one falls back to the usual 1.
    start_el = lvl.find(qn("w:start"))
    start = _as_int(_val(start_el)) if start_el is not None else 0
    restart_el = lvl.find(qn("w:lvlRestart"))
    return Level(
        start=1 if start is None else max(0, start),
        num_fmt=fmt,
        custom=custom,
        text=text,
        restart=_as_int(_val(restart_el)) if restart_el is not None else None,
        is_lgl=_on(lvl.find(qn("w:isLgl"))),
        suffix=(_val(lvl.find(qn("w:suff"))) or "tab"),
        pstyle=_val(lvl.find(qn("w:pStyle"))),
        font=font,
        is_picture=lvl.find(qn("w:lvlPicBulletId")) is not None,
    )


def _levels(parent: etree._Element) -> dict[int, Level]:
    levels: dict[int, Level] = {}
    for lvl in parent.findall(qn("w:lvl")):
        ilvl = _as_int(lvl.get(qn("w:ilvl")))
        if ilvl is not None and 0 <= ilvl < _LEVELS and ilvl not in levels:
            levels[ilvl] = _parse_level(lvl)
    return levels


@dataclass(frozen=True, slots=True)
class _Abstract:
    levels: dict[int, Level]
    num_style_link: str | None
    style_link: str | None


@dataclass(frozen=True, slots=True)
class _Instance:
    """A ``w:num`` resolved: whose counters it drives, and its levels with overrides applied."""

    key: str  # the resolved abstractNumId: owner of the counters
    levels: tuple[Level | None, ...]
    starts: tuple[int, ...]  # effective start per level (startOverride wins)
    overridden: frozenset[int]  # levels restarted when this w:num is first used


class NumberingDefinitions:
    """Every ``w:num`` of a numbering part, resolved through numStyleLink and lvlOverride."""

    def __init__(self, instances: dict[int, _Instance] | None = None):
        self._instances = instances or {}

    def _instance(self, num_id: object) -> _Instance | None:
        return self._instances.get(_as_int(num_id) or 0)

    @classmethod
    def from_xml(
        cls, root: etree._Element | None, style_num_ids: StyleNumIds | None = None
    ) -> NumberingDefinitions:
        """Read ``w:numbering`` (``None`` -> no numbering).

        ``style_num_ids`` maps a numbering style id to the numId of its ``w:numPr``
        (styles.xml); it resolves ``w:numStyleLink``. Without it, or when it has no answer,
        the abstractNum whose ``w:styleLink`` names the style is used.
        """
        if root is None:
            return cls()
        abstracts: dict[str, _Abstract] = {}
        for el in root.findall(qn("w:abstractNum")):
            aid = el.get(qn("w:abstractNumId"))
            if aid is not None and aid not in abstracts:
                abstracts[aid] = _Abstract(
                    _levels(el),
                    _val(el.find(qn("w:numStyleLink"))),
                    _val(el.find(qn("w:styleLink"))),
                )
        raw: dict[int, tuple[str, dict[int, int], dict[int, Level]]] = {}
        for el in root.findall(qn("w:num")):
            num_id = _as_int(el.get(qn("w:numId")))
            aid = _val(el.find(qn("w:abstractNumId")))
            if num_id is None or aid is None or num_id in raw:
                continue
            starts: dict[int, int] = {}
            replaced: dict[int, Level] = {}
            for override in el.findall(qn("w:lvlOverride")):
                ilvl = _as_int(override.get(qn("w:ilvl")))
                if ilvl is None or not 0 <= ilvl < _LEVELS:
                    continue
                start = _as_int(_val(override.find(qn("w:startOverride"))))
                if start is not None:
                    starts[ilvl] = max(0, start)
                lvl = override.find(qn("w:lvl"))
                if lvl is not None:
                    replaced[ilvl] = _parse_level(lvl)
            raw[num_id] = (aid, starts, replaced)
        resolver = _Resolver(abstracts, {n: r[0] for n, r in raw.items()}, style_num_ids)
        instances: dict[int, _Instance] = {}
        for num_id, (aid, starts, replaced) in raw.items():
            key = resolver.resolve(aid, frozenset())
            if key is None:
                continue
            base = abstracts[key].levels
            levels = tuple(replaced.get(i) or base.get(i) for i in range(_LEVELS))
            instances[num_id] = _Instance(
                key=key,
                levels=levels,
                starts=tuple(
                    starts.get(i, lvl.start if lvl else 0) for i, lvl in enumerate(levels)
                ),
                overridden=frozenset(starts) | frozenset(replaced),
            )
        used = {lvl.num_fmt for a in abstracts.values() for lvl in a.levels.values()}
        used |= {lvl.num_fmt for _, _, replaced in raw.values() for lvl in replaced.values()}
        unknown = sorted(used - SUPPORTED_FORMATS - {"custom"})
        if unknown:
            logger.warning("numbering: numFmt %s not supported, rendered as decimal", unknown)
        return cls(instances)

    def level(self, num_id: int, ilvl: int) -> Level | None:
        """The level definition a paragraph with this numId/ilvl uses, overrides applied."""
        inst = self._instance(num_id)
        ilvl = _as_int(ilvl)
        if inst is None or ilvl is None or not 0 <= ilvl < _LEVELS:
            return None
        return inst.levels[ilvl]

    def level_for_style(self, num_id: int, style_id: str) -> int | None:
        """The ilvl whose ``w:pStyle`` is ``style_id`` (a list linked to heading styles)."""
        inst = self._instance(num_id)
        if inst is None or not style_id:
            return None
        for ilvl, lvl in enumerate(inst.levels):
            if lvl is not None and lvl.pstyle == style_id:
                return ilvl
        return None


@dataclass
class _Resolver:
    """abstractNum -> the abstractNum that holds its levels, following numStyleLink."""

    abstracts: dict[str, _Abstract]
    num_abstract: dict[int, str]
    style_num_ids: StyleNumIds | None

    def resolve(self, aid: str, seen: frozenset[str]) -> str | None:
        abstract = self.abstracts.get(aid)
        if abstract is None or aid in seen or len(seen) > _MAX_LINKS:
            return None
        if abstract.num_style_link:
            target = self._linked(abstract.num_style_link, seen | {aid})
            if target is not None:
                return target
            logger.debug(
                "numbering: numStyleLink %r of abstractNum %s unresolved",
                abstract.num_style_link,
                aid,
            )
        return aid

    def _linked(self, style: str, seen: frozenset[str]) -> str | None:
        num_id = self._style_num_id(style)
        if num_id is not None and num_id in self.num_abstract:
            target = self.resolve(self.num_abstract[num_id], seen)
            if target is not None and target not in seen:
                return target
        for aid, abstract in self.abstracts.items():
            if abstract.style_link == style and aid not in seen and not abstract.num_style_link:
                return aid
        return None

    def _style_num_id(self, style: str) -> int | None:
        if self.style_num_ids is None:
            return None
        if isinstance(self.style_num_ids, Mapping):
            return _as_int(self.style_num_ids.get(style))
        return _as_int(self.style_num_ids(style))


# ---------------------------------------------------------------- counters


def _restarts(lvl: Level | None, depth: int, used: int) -> bool:
    """Whether level ``depth`` restarts when level ``used`` (shallower) is numbered."""
    restart = lvl.restart if lvl is not None else None
    if restart == 0:
        return False
    if restart is None or not 0 < restart <= depth:  # absent, or out of range: the default
        return True
    return used < restart  # Word: the named level "or any higher level" [MS-OI29500]


class NumberingCounter:
    """Word's list counters, fed numbered paragraphs in document order.

    The walk writes ``label + separator + text``: ``separator`` is " " except for
    ``w:suff="nothing"`` (""), so "1. First", "第一章总则".
    """

    def __init__(self, definitions: NumberingDefinitions):
        self.definitions = definitions
        self._counts: dict[str, list[int | None]] = {}
        self._entered: set[int] = set()

    def label(self, num_id: int, ilvl: int) -> str | None:
        """Advance the counters for one numbered paragraph and return its label.

        ``None`` for numId 0, unknown ids, undefined levels (ilvl outside 0-8 included) and
        labels that render empty (numFmt none with no literal text).
        """
        num_id, ilvl = _as_int(num_id) or 0, _as_int(ilvl)
        inst = self.definitions._instance(num_id)
        if inst is None or ilvl is None or not 0 <= ilvl < _LEVELS or inst.levels[ilvl] is None:
            return None
        counts = self._counts.setdefault(inst.key, [None] * _LEVELS)
        if num_id not in self._entered:
            self._entered.add(num_id)
            if inst.overridden:  # first use of a restarting w:num: its levels start afresh
                for depth in range(min(inst.overridden), _LEVELS):
                    counts[depth] = None
        current = counts[ilvl]
        counts[ilvl] = inst.starts[ilvl] if current is None else min(current + 1, _MAX_INT)
        for depth in range(ilvl + 1, _LEVELS):
            if _restarts(inst.levels[depth], depth, ilvl):
                counts[depth] = None
        return _render(inst, ilvl, counts)

    def separator(self, num_id: int, ilvl: int) -> str:
        """What goes between the label and the text: "" for ``w:suff="nothing"``, else " "."""
        lvl = self.definitions.level(num_id, ilvl)
        if lvl is not None and lvl.suffix == "nothing" and not (lvl.text or "")[-1:].isspace():
            return ""
        return " "

    def level_for_style(self, num_id: int, style_id: str) -> int | None:
        """The ilvl linked to ``style_id`` by ``w:pStyle`` (see NumberingDefinitions)."""
        return self.definitions.level_for_style(num_id, style_id)


def _render(inst: _Instance, ilvl: int, counts: list[int | None]) -> str | None:
    lvl = inst.levels[ilvl]
    if lvl is None:
        return None
    if lvl.is_picture:
        return "•"
    if not lvl.text:
        return None
    parts = _PLACEHOLDER.split(lvl.text)
    if any(int(p[1]) > ilvl + 1 for p in parts[1::2]):
        return None  # Word ignores an lvlText that names a deeper level [MS-OI29500]
    is_bullet = lvl.num_fmt == "bullet"
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(_visible(part, lvl.font, is_bullet=is_bullet))
            continue
        ref = int(part[1]) - 1
        ref_lvl = inst.levels[ref]
        value = counts[ref]
        value = inst.starts[ref] if value is None else value
        fmt, custom = (ref_lvl.num_fmt, ref_lvl.custom) if ref_lvl else ("decimal", "")
        if lvl.is_lgl and ref < ilvl and fmt not in ("none", "bullet"):
            fmt, custom = "decimal", ""
        out.append(format_number(value, fmt, custom))
    label = "".join(out).strip()
    return label or None
