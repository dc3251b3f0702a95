"""Levels from numbering: which family of labels sits at which level of an outline.

:func:`levels_from_numbering` gives the levels of a list of headings, placing their labels
(``labels.py``) one after the other in a :class:`FamilyStack` (``family_stack.py``). The
label functions are named here too, where every parser has imported them from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.model import MAX_HEADING_LEVEL
from lightrag_pchunk.outline.appendices import appendices_inside
from lightrag_pchunk.outline.family_stack import FamilyStack
from lightrag_pchunk.outline.labels import (
    KEYWORD_RANKS,
    LEGAL_RANKS,
    Label,
    chinese_number,
    parse_label,
    roman_number,
)

__all__ = [
    "KEYWORD_RANKS",
    "LEGAL_RANKS",
    "FamilyStack",
    "Label",
    "chinese_number",
    "is_bare_label",
    "levels_from_numbering",
    "parse_label",
    "roman_in_series",
    "roman_number",
]


def is_bare_label(text: str) -> bool:
    """Whether ``text`` is a numbering label and nothing else ("3.1", "Chapter 2", "第五条"):
    a heading's number printed apart from its title, or a heading without text."""
    label = parse_label(text)
    return label is not None and not label.rest.strip()


def roman_in_series(labels: Sequence[Label | None]) -> list[Label | None]:
    """``labels`` with a lone letter that is the next roman numeral of the roman series
    before it read as that numeral ("V." after "IV.", "x." after "ix."): read alone, "V." is
    the letter V, which would nest it below "IV."."""
    out: list[Label | None] = []
    last: dict[str, int] = {}  # the value of the last roman label of each case
    for label in labels:
        if label is not None and label.family in ("upper", "lower") and len(label.ordinals) == 1:
            letter = label.text.strip()[:1]
            value = roman_number(letter) if letter else None
            case = "roman-" + label.family
            if value is not None and last.get(case) == value - 1:
                label = replace(label, family=case, ordinals=(value,))
        if label is not None and label.family.startswith("roman-"):
            last[label.family] = label.ordinals[-1]
        out.append(label)
    return out


#: Headings that stand at the top of a numbered outline although they carry no number.
_TOP_LEVEL_WORDS = re.compile(
    r"(?:abstract|summary|executive summary|introduction|preface|foreword|contents"
    r"|table of contents|references|bibliography|acknowledge?ments?|appendix|appendices"
    r"|annex|glossary|index|notes|conclusions?|about|signatures?|signature page|exhibits"
    r"|exhibit index|摘要|前言|引言|目录|目次|参考文献|致谢|附录|附件|后记|索引|签字页|签署页"
    r"|подписи сторон)\b",
    re.IGNORECASE,
)


def names_front_or_back_matter(title: str) -> bool:
    """Whether ``title`` names a part that stands at the top of a numbered outline although
    it carries no number ("Abstract", "References", "附录", a filing's or a contract's
    "Signatures" after its last numbered part)."""
    return _TOP_LEVEL_WORDS.match(title.strip()) is not None


def levels_from_numbering(headings: Sequence[str]) -> list[int] | None:
    """Levels (1 = top) for a document's headings, decided by their numbering.

    None when the numbering cannot decide: fewer than two numbered headings, or fewer than
    half of the headings numbered. An unnumbered heading before the first numbered one,
    after the last, or named like front or back matter ("Abstract", "References", "附录")
    is level 1; another unnumbered heading sits one level below the numbered heading before
    it (a run-in title inside a numbered section).
    """
    labels: list[Label | None] = []
    unnumbered = 0
    for text in headings:
        label = parse_label(text)
        if label is None:
            unnumbered += 1
            if unnumbered * 2 > len(headings):
                return None  # fewer than half numbered: the rest need not be parsed
        labels.append(label)
    labels = roman_in_series(labels)
    numbered = [i for i, label in enumerate(labels) if label is not None]
    if len(numbered) < 2:
        return None
    first, last = numbered[0], numbered[-1]
    stack = FamilyStack()
    levels: list[int] = []
    previous_level = 1
    for index, (text, label) in enumerate(zip(headings, labels, strict=True)):
        if label is not None:
            previous_level = stack.place(label)
            levels.append(previous_level)
        elif index < first or index > last or names_front_or_back_matter(text):
            levels.append(1)
        else:
            levels.append(min(previous_level + 1, MAX_HEADING_LEVEL))
    levels = appendices_inside(labels, levels, [True] * len(levels))
    return [min(level, MAX_HEADING_LEVEL) for level in levels]
