"""The words that name a document's units before their number, in the languages the outline
reads ("Chapter 3", "Приложение № 2", "Anexo B", "附录A", "Note 12 - Leases", "Artículo 1º"),
the patterns that find them at a line's start, and the numbers they carry
(:func:`unit_number`); ``labels.py`` reads the label they start.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Protocol

from lightrag_pchunk.outline.numerals import chinese_number, roman_number

#: Chinese numerals, as a pattern ("十二", "一百零五", "兩").
CN_NUMBER = "[零〇○一二三四五六七八九十百千两兩]+"
#: The units of Chinese statutes (第一编 > 第二章 > 第三节 > 第四条 > 第五款 > 第六项), and the
#: 篇 over them that books, handbooks and codes of practice part into (第一篇 over 第一部分 or
#: 第一章), as a pattern; their traditional forms (第一條, 第二節) name the same units.
LEGAL_UNITS = "篇|编|部分|章|节|条|款|项|編|節|條|項"
TRADITIONAL_UNITS = {"編": "编", "節": "节", "條": "条", "項": "项"}
#: Fixed ranks (smaller = shallower) of families whose nesting is a convention; a title
#: (Título, Titre) stands between a book and a chapter.
LEGAL_RANKS = {"篇": -1, "编": 0, "部分": 0, "章": 2, "节": 3, "条": 4, "款": 5, "项": 6}
KEYWORD_RANKS = {
    "part": 0, "book": 0, "title": 1, "chapter": 2, "annex": 2, "appendix": 2, "schedule": 2,
    "attachment": 2, "exhibit": 2, "附录": 2, "附件": 2, "section": 3, "article": 4,
    "clause": 5, "note": 3, "item": 2,
}  # fmt: skip
#: Months' names and their abbreviations (English, German, Dutch, French, Spanish,
#: Portuguese, Italian, Swedish): a number before one is a day's date ("29 March"), no label.
MONTH_NAMES = frozenset(
    "jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july"
    " august september october november december"
    " januar februar märz maerz mai juni juli oktober dezember"
    " januari februari maart mei augustus"
    " janvier février fevrier mars avril juin juillet août aout septembre octobre novembre"
    " décembre decembre"
    " enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre"
    " diciembre"
    " janeiro fevereiro março maio junho julho setembro outubro novembro dezembro"
    " gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre"
    " maj augusti".split()
)
#: The months' names as a pattern, longest first ("september" before "sep").
MONTH_PATTERN = "|".join(sorted(MONTH_NAMES, key=lambda name: (-len(name), name)))
#: Months' names that are also common words of another language the outline reads (the
#: French and Swedish "mars" is the planet in English, German, Dutch: "4 Mars missions"):
#: a day's month only with its year after it or alone after the day ("4 mars 2021", "4
#: mars"). The other names read as a month wherever they stand after a number ("12 May").
MONTHS_ALSO_WORDS = frozenset({"mars"})
#: A day's month, a whole word ("2.1 Market Stops" is a title; "29 March", "3月" dates).
_MONTH = re.compile(r"\s*(?:[年月日]|(?P<word>[^\W\d_]+)\.?(?:\s|,|$))")
#: What follows a month's name that is also a word, for it to name a month: a year, or
#: nothing more.
_YEAR_OR_END = re.compile(r"\s*(?:\d{4}\b|$)")


def follows_a_days_number(text: str, end: int) -> bool:
    """Whether ``text`` names a month right after ``end``, making the number before it a
    day's ("29 March 2024", "3月"), no section's number."""
    month = _MONTH.match(text, end)
    if month is None:
        return False
    word = month["word"]
    if word is None:
        return True
    name = word.casefold()
    if name in MONTHS_ALSO_WORDS:
        return _YEAR_OR_END.match(text, month.end()) is not None
    return name in MONTH_NAMES


#: Roman numerals set in their own characters (Ⅱ, Ⅻ, ⅳ: U+2160-217F), after a unit's word
#: as often as alone ("第Ⅳ章", "Anexo Ⅱ", "Part Ⅲ").
ROMAN_CHARS = "[\u2160-\u217f]{1,4}"
#: The largest number a unit's word carries as roman letters: a larger one is a word of the
#: sentence the unit's word opens (the Italian "di" of "Titolo di studio", "Sezione di Roma"
#: reads 501; the French "dix" 509), no code numbering its units that far in roman.
LARGEST_ROMAN_UNIT = 100

#: The same units named in other languages, by the English word whose rank they take.
#: Words in CJK scripts may stand right before their number ("附录A", "付録1").
KEYWORD_SYNONYMS = {
    "приложение": "appendix", "раздел": "section", "глава": "chapter", "статья": "article",
    "часть": "part", "anhang": "appendix", "anlage": "appendix", "kapitel": "chapter",
    "abschnitt": "section", "artikel": "article", "teil": "part", "annexe": "annex",
    "chapitre": "chapter", "partie": "part", "appendice": "appendix", "anexo": "annex",
    "apéndice": "appendix", "apêndice": "appendix", "capítulo": "chapter",
    "allegato": "annex", "bijlage": "appendix", "bilaga": "appendix", "załącznik": "annex",
    "附錄": "附录", "付録": "附录", "附属書": "annex", "附屬書": "annex",
    # Statutes and codes: book > title > chapter > section > article, in the words of each
    # language (Libro, Título, Capítulo, Sección, Artículo; Livre, Titre, Chapitre, Section,
    # Article; Titolo, Capo, Sezione, Articolo; Hoofdstuk, Afdeling; Artigo, Seção).
    "art.": "article", "artículo": "article", "sección": "section", "título": "title",
    "libro": "book", "livre": "book", "titre": "title", "articolo": "article",
    "capitolo": "chapter", "capo": "chapter", "sezione": "section", "titolo": "title",
    "hoofdstuk": "chapter", "afdeling": "section", "artigo": "article", "seção": "section",
    "secção": "section",
}  # fmt: skip
#: Numbers written out after a unit's word: English cardinals ("Chapter Twelve"), the
#: ordinals of Spanish, Italian and Portuguese codes ("Artículo primero", "Capitolo
#: secondo", "Capítulo único": the sole one), French "premier" ("Article premier", then
#: "Article 2").
SPELLED_NUMBERS = {
    word: value
    for words in (
        "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        " fifteen sixteen seventeen eighteen nineteen twenty",
        "primero segundo tercero cuarto quinto sexto séptimo octavo noveno décimo",
        "primera segunda tercera cuarta quinta sexta séptima octava novena décima",
        "primo secondo terzo quarto quinto sesto settimo ottavo nono decimo",
        "primeiro segundo terceiro quarto quinto sexto sétimo oitavo nono décimo",
        "primeira segunda terceira quarta quinta sexta sétima oitava nona décima",
        "premier",
        "première",
    )
    for value, word in enumerate(words.split(), start=1)
} | dict.fromkeys(("único", "única", "unico", "unica", "unique"), 1)
_CJK_WORDS = [w for w in ("附录", "附件", *KEYWORD_SYNONYMS) if "\u3400" <= w[0] <= "\u9fff"]
_OTHER_WORDS = "|".join(
    re.escape(word)
    # The longer word first where one starts another ("capitolo" before "capo").
    for word in sorted(KEYWORD_SYNONYMS, key=len, reverse=True)
    if word not in _CJK_WORDS
)
KEYWORD = re.compile(
    # No English "title": "Title 49 of the United States Code …" opens sentences of US
    # statutes' prose as often as it names a unit.
    r"(?P<word>part|book|chapter|annex|appendix|schedule|attachment|exhibit|section"
    r"|article|clause|" + _OTHER_WORDS + r")"
    # A number sign may stand before the number ("Приложение № 2", "Anlage Nr. 3", "Załącznik
    # nr 3", "Anexo Nº 1").
    r"\s+(?:(?:№|no\.|nr\.?|n[º°]\.?)\s*)?"
    # The number: digits, with the ordinal mark its writer types ("Artículo 1º", "Art. 2o",
    # "Article 1er", "Sección 1.ª") or the letter of a unit inserted after the one of that
    # number ("Section 2A", "Artikel 12a": between 2 and 3); a roman numeral; a number written
    # out. A lone letter is a capital ("Anexo A"): "Anexo a la Resolución", "part a of" are
    # words.
    r"(?P<n>(?P<digits>\d{1,3}(?:\.\d{1,3})*)"
    r"(?:\.?[º°ª]|(?:o|er|re|ère)(?!\w)|(?P<letter>[a-z]))?"
    rf"|(?P<spelled>{'|'.join(sorted(SPELLED_NUMBERS, key=len, reverse=True))})"
    rf"|[ivxlcdm]{{1,7}}|{ROMAN_CHARS}|(?-i:[A-Z]))(?!\w|\.\w)\.?",
    re.IGNORECASE,
)
#: A financial statement's note: "NOTE 3 - INITIAL PUBLIC OFFERING", "Note 12 – Leases"; only
#: before a dash (after a colon or a full stop it is as often a table's footnote).
NOTE = re.compile(r"(?P<word>note)\s+(?P<n>\d{1,2})(?=\s*[-–—]\s*\w)", re.IGNORECASE)
#: A filing's item: "ITEM 1A. RISK FACTORS", "Item 7. Management's Discussion"; only with the
#: full stop after its number and a title after it (a list's "Item 3" names a thing).
ITEM = re.compile(
    r"(?P<word>item)\s+(?P<n>(?P<digits>\d{1,2})(?P<letter>[a-c])?)\.(?=\s+\w)", re.IGNORECASE
)
#: The CJK words, right before their number or after a space; "附件一览表", "付録一覧" (the
#: list of the attachments) number nothing.
CN_KEYWORD = re.compile(
    rf"(?P<word>{'|'.join(_CJK_WORDS)})\s*"
    rf"(?P<n>[A-Z]|\d{{1,3}}|{CN_NUMBER}|{ROMAN_CHARS})(?![览覽覧])"
)


def match_unit_word(text: str) -> re.Match[str] | None:
    """The unit's word and its number opening ``text``: a keyword (:data:`KEYWORD`,
    :data:`CN_KEYWORD`), a statement's note (:data:`NOTE`) or a filing's item
    (:data:`ITEM`), tried in that order; None when none opens it."""
    for pattern in (KEYWORD, CN_KEYWORD, NOTE, ITEM):
        if (match := pattern.match(text)) is not None:
            return match
    return None


def numeral_value(numeral: str) -> int | None:
    """The value of the numeral a unit's word stands before, written in any of the ways
    the patterns here take: digits, Chinese, roman (letters or their own characters)."""
    if numeral.isascii():
        return int(numeral) if numeral.isdigit() else roman_number(numeral)
    if "\u2160" <= numeral[0] <= "\u217f":
        return roman_number(unicodedata.normalize("NFKC", numeral))
    return chinese_number(numeral)


def unit_number(match: re.Match[str]) -> tuple[int, tuple[int, ...]] | None:
    """The depth and ordinals of the number a match of :func:`match_unit_word` found:
    "Section 2.1" (2, (2, 1)); "Section 2A" (1, (2, 1)), an inserted unit's letter one
    ordinal past its depth; "Anexo B" (1, (2,)). None when the number has no value
    ("Part IIII")."""
    number = match["n"]
    digits = match.groupdict().get("digits")
    if digits:
        ordinals = tuple(int(part) for part in digits.split("."))
        letter = match["letter"]
        return len(ordinals), (*ordinals, *((ord(letter.lower()) - 96,) if letter else ()))
    if match.groupdict().get("spelled"):
        return 1, (SPELLED_NUMBERS[number.lower()],)
    if len(number) == 1 and number.isascii() and number.isalpha():
        # A single I, V, X... is read as a letter here; sequence context may say roman.
        return 1, (ord(number.lower()) - 96,)
    value = numeral_value(number)
    if value and number.isascii() and value > LARGEST_ROMAN_UNIT:
        return None
    return (1, (value,)) if value else None


class NumberedUnit(Protocol):
    """What the unit readings need of a label (``outline.labels.Label`` is one), named here
    so that this table of words does not import the reader that uses it."""

    family: str
    text: str
    ordinals: tuple[int, ...]


def names_a_unit(label: NumberedUnit) -> bool:
    """Whether ``label`` names a unit (第十七条, Article 4), whose label heads its text."""
    return label.family.startswith(("legal-", "keyword-"))


def lone_roman_readings(
    label: NumberedUnit, previous: NumberedUnit
) -> list[tuple[int, int]] | None:
    """The pairs of values ``label`` and ``previous``, two units of one word, may have when
    either number is a lone I, V or X ("Chapter V", read as the letter V: 22), which may be
    a roman numeral too (5); None when neither is."""
    if not label.family.startswith("keyword-") or len(label.ordinals) + len(previous.ordinals) > 2:
        return None
    mine, theirs = _unit_values(label), _unit_values(previous)
    return None if len(mine) == len(theirs) == 1 else [(m, t) for m in mine for t in theirs]


def _unit_values(label: NumberedUnit) -> list[int]:
    """The values of a unit's one number: its own, and a lone I, V or X's as a roman one."""
    words = label.text.rstrip(".").split()
    number = words[-1] if len(words) > 1 else ""
    roman = roman_number(number) if number in ("I", "V", "X", "i", "v", "x") else None
    return [label.ordinals[0], *([roman] if roman else [])]


#: Characters right after a Chinese unit's label that go on with a sentence ("第七條和附件二…",
#: "第二十四條第二款…", "第三条的规定"): the unit is cited, its label opens no title.
_CITATION_GOES_ON = frozenset("和及与與或的至第、")
#: A unit's label, as a citation goes on to one ("第二章和第三章", "第一章第二节").
_CITED_UNIT = re.compile(rf"第\s*(?:{CN_NUMBER}|\d{{1,4}})\s*(?:{LEGAL_UNITS})")


def cited_in_a_sentence(family: str, after: str) -> bool:
    """Whether a Chinese unit's label of ``family``, followed by ``after`` on its line, is a
    unit cited in a sentence. An article (条 款 项) carries its text after its label, never
    glued to a connective; a chapter's or a section's title may start with one ("第四章和平
    利用核能", "第六章第三方责任", "第二章及时报告"), so there only a connective going on
    to another unit ("第二章和第三章", "第七條和附件二") or 的 、 cite."""
    first = after[:1]
    if first not in _CITATION_GOES_ON:
        return False
    if first in "的、" or family in ("legal-条", "legal-款", "legal-项"):
        return True
    cited = after.lstrip("和及与與或至、").lstrip()
    return _CITED_UNIT.match(cited) is not None or CN_KEYWORD.match(cited) is not None
