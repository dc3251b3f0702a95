"""Titles that end with a full stop, as some authors and codes end every title: read on
its text alone, such a line is a numbered sentence (or a unit's label and the first
sentence of its text), so each reader here names the other evidence its caller needs.

Input: one line of text. Output: the :class:`~lightrag_pchunk.outline.lines.HeadingText`
it gives as a title, or None.
"""

from __future__ import annotations

import re

from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.lines import (
    LEGAL_ARTICLES,
    HeadingText,
    ends_open,
    flat_text,
    heading_text,
    starts_lowercase,
)

#: Most words of a unit's title ending with a full stop: a title, not a sentence of text.
_MAX_UNIT_TITLE_WORDS = 12
#: A sentence ends inside the title: its text goes on after it.
_INNER_SENTENCE_END = re.compile(r"[.!?]\s")


def stopped_numbered_title(line: str) -> HeadingText | None:
    """The title ``line`` gives when it is a decimal-numbered title ending with one full
    stop ("3.1. Требования к программированию КСОБ объекта.", as some authors end every
    title) or leading in with a colon ("3.2.1. Документ … должен удовлетворять следующим
    требованиям:", the title without it); None for any other line. Such a line reads as a
    numbered sentence or lead-in too (a clause: "3.1.5. Не допускается объединение …."):
    the caller needs other evidence."""
    text = flat_text(line)
    if text[-1:] not in (".", ":") or text[-2:-1] in (".", ":"):
        return None
    title = heading_text(text[:-1], markdown=False)
    if title is None or title.label is None or title.label.family != "decimal" or title.body:
        return None
    return HeadingText(text if text.endswith(".") else text[:-1], "", title.label)


def stopped_unit_title(line: str) -> HeadingText | None:
    """The title ``line`` gives when it is a law's unit, its label and a short title
    ending with one full stop ("§ 1308.01 Scope of part 1308.", "§ 1308.23 Exemption of
    certain chemical preparations; application.", as a code of regulations titles its
    sections); None for any other line. On its text alone the line is the label and the
    first sentence of the unit's text (``heading_text``: "Article 5 Member States shall
    ensure compliance."): the caller needs the look, the whole line set as a heading."""
    text = flat_text(line)
    label = parse_label(text)
    if label is None or label.family not in LEGAL_ARTICLES:
        return None
    title = label.rest.strip()
    if not title.endswith(".") or title.endswith("..") or not _short_title(title[:-1]):
        return None
    return HeadingText(text, "", label)


def stopped_capitals_title(line: str) -> HeadingText | None:
    """The title ``line`` gives when it is numbered and set in capitals, a few words ending
    with one full stop ("IV. OBJETIVOS DE INTEGRACIÓN SOCIAL DE LA PNDU.", as some authors
    end every title); None for any other line. No sentence of text is typed in capitals:
    the caller still needs the look."""
    text = flat_text(line)
    label = parse_label(text)
    if label is None or not text.endswith(".") or text.endswith(".."):
        return None
    words = label.rest[:-1].strip()
    return HeadingText(text, "", label) if words.isupper() and _short_title(words) else None


def _short_title(words: str) -> bool:
    """Whether ``words`` (a title without its full stop) read as a title, not a sentence:
    a few words, no sentence ending inside them, none left open, none in lower case first."""
    return (
        bool(words)
        and not starts_lowercase(words)
        and not _INNER_SENTENCE_END.search(words)
        and not ends_open(words)
        and len(words.split()) <= _MAX_UNIT_TITLE_WORDS
    )
