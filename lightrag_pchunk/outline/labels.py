"""Numbering labels at the start of a line: which family, how deep, which ordinal.

Input: one line of text (a paragraph, a Markdown heading). Output: the :class:`Label` it
starts with (``第三章``, ``1.2.1``, ``（一）``, ``Article 5``, ``§ 12``, ``A.2``, ``A1.2``,
``iv)`` ...) or None. Pure functions shared by every parser and the anchors;
``numbering.py`` turns the labels of a document's headings into levels.

Families nest by a fixed rank where the convention is known (Chinese legal 编 > 章 > 节 > 条
> 款 > 项; Part > Chapter > Section > Article > Clause; the GB/T 9704 sequence 一、 > （一） >
1. > （1） > ①); decimal labels nest by their depth (``1`` > ``1.1`` > ``1.1.1``); others
in the order a document opens them (``family_stack.FamilyStack``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from lightrag_pchunk.outline.numerals import (
    chinese_number,
    is_quantity,
    roman_number,
    token_value,
)
from lightrag_pchunk.outline.unit_words import (
    CN_NUMBER,
    KEYWORD_RANKS,
    KEYWORD_SYNONYMS,
    LEGAL_RANKS,
    LEGAL_UNITS,
    ROMAN_CHARS,
    TRADITIONAL_UNITS,
    follows_a_days_number,
    lone_roman_readings,
    match_unit_word,
    numeral_value,
    unit_number,
)

#: Full-width digits and punctuation read as their ASCII forms (not NFKC: that would also
#: turn ① into 1 and lose the family).
_FULL_WIDTH = str.maketrans(
    "０１２３４５６７８９．（）：ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ",
    "0123456789.():ABCDEFGHIJKLMNOPQRSTUVWXYZ",
)

#: Units that stand after a document's body, beside its top units (an appendix, an annex).
APPENDIX_FAMILIES = frozenset(
    f"keyword-{word}"
    for word in ("annex", "appendix", "schedule", "attachment", "exhibit", "附录", "附件")
)
_REQUIREMENT_MARKS = frozenset("★☆▲△")  # a tender's: "★" binds, "▲" weighs most
#: GB/T 9704 document numbering, below the legal units.
_GB_RANKS = {"cn-enum": 10, "paren-cn": 11, "arabic-dun": 12, "paren-arabic": 13, "circled": 14}

_LEGAL = re.compile(rf"第\s*(?P<n>{CN_NUMBER}|\d{{1,4}}|{ROMAN_CHARS})\s*(?P<unit>{LEGAL_UNITS})")
#: The section sign of statutes and regulations: "§ 1308.11", "§ 3" (a section), "§ 3a" (one
#: inserted after § 3).
_SECTION_SIGN = re.compile(
    r"§\s?(?P<n>\d{1,4}(?:\.\d{1,4})*)(?P<letter>[a-z](?![a-z]))?(?![\d.]\d)\.?"
)
_ANNEX_DECIMAL = re.compile(r"(?P<letter>[A-Z])\.(?P<n>\d{1,2}(?:\.\d{1,2})*)(?![\d])\.?")
_DECIMAL = re.compile(r"(?P<n>\d{1,3}(?:\.\d{1,3})*)(?P<dot>\.?)(?![\d.])")
#: A space, then the mark of a year, a month or a day (after a decimal number: a title).
_SPACED_DATE_MARK = re.compile(r"\s+[年月日]")
_ARABIC_DUN = re.compile(r"(?P<n>\d{1,3})\s*、")
_CN_ENUM = re.compile(rf"(?P<n>{CN_NUMBER})\s*[、.]")
_PAREN = re.compile(r"\((?P<n>\d{1,3}|[a-zA-Z]|[ivxlcdm]{1,6}|" + CN_NUMBER + r")\)")
_RPAREN = re.compile(r"(?P<n>\d{1,3}|[a-zA-Z]|[ivxlcdm]{1,6})\)")
_CAPS = re.compile(r"[A-Z]{3,}(?![a-z])")  # a title in capitals: no word of text opens so
#: A letter or roman numeral takes a dot before a space (two roman letters, before _CAPS too:
#: "IV.CONCLUSION"), or a CJK ideographic space alone ("Ａ　异象"), no word's in running text.
_ROMAN_DOT = re.compile(
    rf"(?P<n>[IVXLCDM]{{1,7}}|[ivxlcdm]{{1,7}})(?:\.(?=\s|{_CAPS.pattern})|(?=\u3000))"
)
_LETTER_DOT = re.compile(r"(?P<n>[A-Za-z])(?:\.(?=\s)|(?=\u3000))")
_ROMAN_CHAR = re.compile(r"(?P<n>[\u2160-\u216b\u2170-\u217b])[.、)\s]?")
_CIRCLED = re.compile(r"(?P<n>[\u2460-\u2473\u2776-\u277f\u24eb-\u24f4])")
_PAREN_DIGIT = re.compile(r"(?P<n>[\u2474-\u2487])")
#: A catalogue identifier: AC-2, IA-2(1), SC-28 (1), REQ-012.
_CODE = re.compile(
    r"(?P<series>[A-Z]{2,4})-(?P<n>\d{1,3})(?:[ \t]?\((?P<sub>\d{1,2})\))?(?![\w.\-])"
)
#: A label and its separator fit in this many characters ("第一百二十三条 ", "Appendix XVIII.").
_LABEL_SPAN = 48
#: A capital letter, a number dotted on, a space: a report's items ("A1 注入", "A10.5 Scope").
_LETTERED = re.compile(r"(?P<series>[A-Z])(?P<n>[1-9]\d?(?:\.\d{1,2})*)(?=[ \t\u3000]|$)")
_QUOTED_TITLE = re.compile(r"[《〈「『“][^》〉」』”]+[》〉」』”][ \u3000]*[^\W\d_]")
_REST_START = re.compile(r"[ \t\u3000]*[、:：．.]?[ \t\u3000]*")


@dataclass(frozen=True, slots=True)
class Label:
    """A numbering label at the start of a line.

    ``family`` names the numbering scheme (``decimal``, ``legal-章``, ``keyword-article``,
    ``cn-enum``, ``paren-arabic`` ...); ``depth`` is the number of components of a decimal
    label (``1.2.3`` -> 3), else 1; ``ordinals`` are its numbers (``(1, 2, 3)``, ``(3,)`` for
    第三条); ``text`` is the label as written and ``rest`` the line after it and its separator.
    A unit inserted after the one of its number by an amendment ("Section 2A", "§ 3a",
    between 2 and 3) carries its letter as one more ordinal than its depth (``(2, 1)`` at
    depth 1): it is a sibling of 2 and 3.
    ``rank`` orders families with a conventional nesting (None: the document decides).
    ``series`` names the sequence within a family whose members count on their own (the
    ``AC`` of the catalogue identifier ``AC-2``; "" for the other families).
    """

    family: str
    depth: int
    ordinals: tuple[int, ...]
    text: str
    rest: str
    rank: int | None = None
    series: str = ""

    @property
    def inserted(self) -> int:
        """The letter of an inserted unit as a number ("Section 2B": 2), 0 for none."""
        return self.ordinals[self.depth] if len(self.ordinals) > self.depth else 0

    @property
    def key(self) -> tuple[str, int]:
        """What one outline level is made of: the family at one depth."""
        return (self.family, self.depth)

    def repeats(self, previous: Label) -> bool:
        """Whether this label is ``previous``'s number printed again (the same family,
        series and numbers): a line of that section, as a number names one section."""
        return (
            previous.family == self.family
            and previous.series == self.series
            and previous.ordinals == self.ordinals
        )

    def follows(self, previous: Label) -> bool:
        """Whether this label continues ``previous`` of the same family: the next sibling
        (1.2 -> 1.3, 第三条 -> 第四条), a first child (1.2 -> 1.2.1) or, for a decimal label,
        the next item of a shallower level (1.2.3 -> 1.3, 1.2.3 -> 2). A new series of a
        family (AU-1 after AC-22) starts at 1. An inserted unit follows the unit of its
        number or the one inserted before it, and is followed by the next number (2 -> 2A
        -> 2B -> 3; 7B -> 8A). A unit's lone I, V or X, read as a letter, continues or is
        continued as a roman numeral too (Chapter I -> II, IV -> V)."""
        if previous.family != self.family:
            return False
        if previous.series != self.series:
            return self.ordinals == (1,)
        if (readings := lone_roman_readings(self, previous)) is not None:
            return any(mine == theirs + 1 for mine, theirs in readings)
        mine, theirs = self.ordinals[: self.depth], previous.ordinals[: previous.depth]
        if self.depth == previous.depth and (self.inserted or previous.inserted):
            if mine == theirs:
                return self.inserted == previous.inserted + 1
            return mine[:-1] == theirs[:-1] and mine[-1] == theirs[-1] + 1 and self.inserted <= 1
        if len(mine) == len(theirs) + 1:
            return mine[:-1] == theirs and mine[-1] == 1
        if len(mine) <= len(theirs):
            return mine[:-1] == theirs[: len(mine) - 1] and mine[-1] == theirs[len(mine) - 1] + 1
        return False


# Rules ask one line's label several times (title, list item, series member): read it once.
@lru_cache(maxsize=4096)
def parse_label(line: str) -> Label | None:
    """The numbering label ``line`` starts with, or None.

    The label must be followed by a separator (space, 、, ：, a dot) or by CJK text, so
    ``2019年`` or ``3rd`` are not labels; a decimal number needs a space or a dot after it
    unless CJK text follows (``1.目的``, ``1 Scope``). Full-width digits and brackets count.
    """
    original = line.lstrip()
    if original[:1] in _REQUIREMENT_MARKS:  # "★一、技术要求": the label of a binding term
        marked = parse_label(original[1:]) if not original[1:2].isspace() else None
        return replace(marked, text=original[0] + marked.text) if marked else None
    # One character for one: positions in ``text`` are positions in ``original``. A label
    # and its separator lie in the first characters: the rest needs no translation, nor
    # does ASCII (no full-width form is).
    head = original[:_LABEL_SPAN]
    text = original if head.isascii() else head.translate(_FULL_WIDTH) + original[_LABEL_SPAN:]
    if not text:
        return None
    for parse in _PARSERS:
        label = parse(text)
        if label is not None:
            if text is not original and text != original:
                start = len(label.text)
                rest_at = len(text) - len(label.rest) if label.rest else len(text)
                label = replace(label, text=original[:start], rest=original[rest_at:].strip())
            return label
    return None


def _rest(text: str, end: int) -> str:
    match = _REST_START.match(text, end)
    return text[match.end() if match else end :].strip()


def _separated(text: str, end: int) -> bool:
    """A label ends at a separator, the end, CJK or punctuation; after ")", a capital too."""
    ch = text[end : end + 1]
    if not ch or (ch.isupper() and text[end - 1] == ")"):
        return True
    return ch in " \t\u3000、:：.．)）" or "\u3400" <= ch <= "\u9fff" or not ch.isalnum()


def _legal(text: str) -> Label | None:
    match = _LEGAL.match(text)
    if match is None:
        return None
    value = numeral_value(match["n"])
    if value is None:
        return None
    unit = TRADITIONAL_UNITS.get(match["unit"], match["unit"])
    return Label(
        f"legal-{unit}", 1, (value,), match[0], _rest(text, match.end()), LEGAL_RANKS[unit]
    )


def _keyword(text: str) -> Label | None:
    match = match_unit_word(text)
    if match is None or not _separated(text, match.end()):
        return None
    word = match["word"].lower()
    word = KEYWORD_SYNONYMS.get(word, word)
    number = unit_number(match)
    if number is None:
        return None
    depth, ordinals = number
    # Its title after a dash: "Note 12 – Leases", "Artículo 1.- Objeto".
    rest = _rest(text, match.end()).lstrip("-–—").lstrip()
    return Label(f"keyword-{word}", depth, ordinals, match[0], rest, KEYWORD_RANKS[word])


def _section_sign(text: str) -> Label | None:
    """A section numbered with the section sign ("§ 1308.11 Schedule I."), ranked as the
    word "Section" is."""
    match = _SECTION_SIGN.match(text)
    # A citation's section ("(20 U.S.C. § 1232g), and …" broken at its sign) is no label.
    if match is None or not _separated(text, match.end()) or text[match.end() :][:1] in (",", ")"):
        return None
    numbers = tuple(int(part) for part in match["n"].split("."))
    letter = match["letter"]
    ordinals = (*numbers, *((ord(letter) - 96,) if letter else ()))
    rest = _rest(text, match.end())
    return Label("keyword-§", len(numbers), ordinals, match[0], rest, KEYWORD_RANKS["section"])


def _annex_decimal(text: str) -> Label | None:
    match = _ANNEX_DECIMAL.match(text)
    if match is None or not _separated(text, match.end()):
        return None
    ordinals = (ord(match["letter"]) - 64, *(int(p) for p in match["n"].split(".")))
    return Label("annex-decimal", len(ordinals), ordinals, match[0], _rest(text, match.end()))


def _decimal(text: str) -> Label | None:
    match = _DECIMAL.match(text)
    if match is None:
        return None
    end = match.end()
    # A year's, a month's or a day's number is whole: "4.1 年度…" is section 4.1's title.
    titled = "." in match["n"] and _SPACED_DATE_MARK.match(text, end) is not None
    if not titled and follows_a_days_number(text, end):
        return None  # a date ("29 March 2024", "3月"), not a section number
    if not match["dot"] and "." not in match["n"] and is_quantity(text, end):
        return None  # an amount ("12 345,00 €") or a range ("15 to 24"), no section number
    if end < len(text):
        spaced = (ch := text[end]) in " \t\u3000"
        cjk = "\u3400" <= ch <= "\u9fff" or _QUOTED_TITLE.match(text, end) is not None
        # "1 Scope", "1.目的", "1.2.3Scope"? no: a decimal label needs a space or a dot, or
        # CJK after a dot ("1.目的", "2.《函》送达"); "1目的", "12kg", "2.《函》" are no labels.
        capitals = match["dot"] and _CAPS.match(text, end) is not None
        if not (spaced or capitals or (cjk and (match["dot"] or "." in match["n"]))):
            return None
    ordinals = tuple(int(part) for part in match["n"].split("."))
    if any(value == 0 for value in ordinals[:1]):
        return None
    return Label("decimal", len(ordinals), ordinals, match[0], _rest(text, end))


def _arabic_dun(text: str) -> Label | None:
    match = _ARABIC_DUN.match(text)
    if match is None:
        return None
    rest = _rest(text, match.end())
    return Label("arabic-dun", 1, (int(match["n"]),), match[0], rest, _GB_RANKS["arabic-dun"])


def _cn_enum(text: str) -> Label | None:
    match = _CN_ENUM.match(text)
    if match is None:
        return None
    value = chinese_number(match["n"])
    if value is None:
        return None
    return Label("cn-enum", 1, (value,), match[0], _rest(text, match.end()), _GB_RANKS["cn-enum"])


def _parenthesised(text: str) -> Label | None:
    match = _PAREN.match(text)
    family_prefix = "paren"
    if match is None:
        match = _RPAREN.match(text)
        family_prefix = "rparen"
    if match is None or not _separated(text, match.end()):
        return None
    kind_value = token_value(match["n"])
    if kind_value is None:
        return None
    kind, value = kind_value
    family = f"{family_prefix}-{kind}"
    rest = _rest(text, match.end())
    return Label(family, 1, (value,), match[0], rest, _GB_RANKS.get(family))


def _dotted_letter(text: str) -> Label | None:
    match = _ROMAN_DOT.match(text)
    if match is not None and len(match["n"]) > 1:
        value = roman_number(match["n"])
        if value is not None:
            kind = "roman-upper" if match["n"].isupper() else "roman-lower"
            return Label(kind, 1, (value,), match[0], _rest(text, match.end()))
    match = _LETTER_DOT.match(text)
    if match is None:
        return None
    letter = match["n"]
    if letter in "Ii":  # "I." opens a roman list far more often than a ninth letter
        kind = "roman-upper" if letter == "I" else "roman-lower"
        return Label(kind, 1, (1,), match[0], _rest(text, match.end()))
    kind = "upper" if letter.isupper() else "lower"
    return Label(kind, 1, (ord(letter.lower()) - 96,), match[0], _rest(text, match.end()))


def _roman_char(text: str) -> Label | None:
    """Ⅰ Ⅱ Ⅲ … (one code point each, common in CJK documents)."""
    match = _ROMAN_CHAR.match(text)
    if match is None or not _separated(text, match.end()):
        return None
    code = ord(match["n"])
    upper = code <= 0x216B
    value = code - (0x2160 if upper else 0x2170) + 1
    kind = "roman-upper" if upper else "roman-lower"
    return Label(kind, 1, (value,), match[0], _rest(text, match.end()))


def _circled(text: str) -> Label | None:
    match = _CIRCLED.match(text) or _PAREN_DIGIT.match(text)
    if match is None:
        return None
    ch = match["n"]
    code = ord(ch)
    if 0x2460 <= code <= 0x2473:
        value, family = code - 0x2460 + 1, "circled"
    elif 0x2776 <= code <= 0x277F:
        value, family = code - 0x2776 + 1, "circled"
    elif 0x24EB <= code <= 0x24F4:
        value, family = code - 0x24EB + 11, "circled"
    else:
        value, family = code - 0x2474 + 1, "paren-arabic"
    return Label(family, 1, (value,), ch, _rest(text, match.end()), _GB_RANKS[family])


def _code(text: str) -> Label | None:
    """A catalogue identifier (AC-2, IA-2(1)): the series' letters, its number, and an
    enhancement number one level down."""
    match = _CODE.match(text)
    if match is None or not _separated(text, match.end()):
        return None
    ordinals = (int(match["n"]), *((int(match["sub"]),) if match["sub"] else ()))
    rest = _rest(text, match.end())
    return Label("code", len(ordinals), ordinals, match[0], rest, series=match["series"])


def _lettered(text: str) -> Label | None:
    """A lettered item ("A1", "A1.2"): its letter is the series, its numbers nest. Before
    a lower-case word it is a sentence's symbol ("P2 ein Tetraeder", "T1 and T2 …")."""
    match = _LETTERED.match(text)
    rest = _rest(text, match.end()) if match is not None else ""
    if match is None or rest[:1].islower():
        return None
    ordinals = tuple(int(part) for part in match["n"].split("."))
    return Label("lettered", len(ordinals), ordinals, match[0], rest, series=match["series"])


_PARSERS = (
    _legal,
    _keyword,
    _section_sign,
    _annex_decimal,
    _code,
    _lettered,
    _arabic_dun,
    _cn_enum,
    _parenthesised,
    _circled,
    _roman_char,
    _decimal,
    _dotted_letter,
)
