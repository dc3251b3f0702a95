"""A paper's front matter lines that read like titles but title nothing.

- An author list: several personal names apart by commas, "and" or "&", carrying the
  marks that tie them to their affiliations (∗ † ‡ § ¶, superscript digits) or an e-mail
  address ("Ledell Wu, Sergey Edunov, Danqi Chen‡ , Wen-tau Yih"). The marks decide, not
  the commas: "Smith, Jones and Partners Agreement" or "Authors and Contributors" may head
  a section; each name is two to four words of a capital (an initial, a particle "van",
  "de" between), so a list of one-word terms is no author list either.
- A copyright line: "Copyright" with a year at once after it (a "©", "(c)" or the "c" a
  font's "©" reads as, between), or a line opening with "©" or "(c)" holding a year
  ("Copyright c 2009 ACM 978-1-60558-392-1/09/06", "© Crown copyright 2020", "(c) 2019
  Acme"). A title
  naming copyright ("Copyright Notice", "Copyright and Related Rights Act 1988") has no
  year right after the word.

Input: one line of text. Output: whether it is such a line. Pure.
"""

from __future__ import annotations

import re

#: Marks that tie an author to an affiliation or a note (a font's asterisk operator too).
_AFFILIATION_MARKS = "∗†‡§¶⋆★*#⁎"
_SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_MARK = re.compile(
    rf"<sup>[^<]*</sup>|[{re.escape(_AFFILIATION_MARKS)}{_SUPERSCRIPT_DIGITS}]"
    r"|(?<=[^\W\d_])\d{1,2}(?:,\d{1,2})*(?![\w.])"  # "Smith1,2": superscripts read flat
)
_NAME_SEPARATOR = re.compile(r"\s*(?:[,;]|\band\b|&)\s*")
#: A name's word: capitalised, hyphenated parts allowed ("Wen-tau", "Jean-Luc", "O'Neil").
_NAME_WORD = re.compile(r"[^\W\d_a-z][^\W\d_]*(?:[-'’][^\W\d_]+)*\.?")
_INITIAL = re.compile(r"(?:[^\W\d_a-z]\.){1,3}")
#: Lower-case particles inside a personal name.
_PARTICLES = frozenset({"van", "von", "de", "der", "den", "da", "di", "del", "della", "du"})
_PARTICLES |= frozenset({"la", "le", "dos", "das", "bin", "ibn", "al", "ter", "zu"})
#: Words of a personal name, at least and at most.
NAME_WORDS = (2, 4)
#: Names an author list holds, at least.
AUTHOR_NAMES = 2
#: Names a list holds from which one mark among them tells an author list.
UNMARKED_NAMES_FROM = 3


def reads_as_front_matter(text: str) -> bool:
    """Whether ``text`` is a paper's author list or a copyright line (see the module doc):
    lines of a title page or a first page's notes, which head no section."""
    return _is_copyright_line(text) or _is_author_list(text)


_COPYRIGHT_WORD = re.compile(r"copyright\s*:?\s*(?:©|\(c\)|c\b)?\s*(?:19|20)\d\d\b", re.I)
# "(c)" alone also labels a list item ("(c) Fees for 2021"): only a year at once after it.
_COPYRIGHT_SIGN = re.compile(r"©.*\b(?:19|20)\d\d\b|\(c\)\s*(?:19|20)\d\d\b", re.I)


def _is_copyright_line(text: str) -> bool:
    text = text.strip()
    return bool(_COPYRIGHT_WORD.match(text) or _COPYRIGHT_SIGN.match(text))


def _is_author_list(text: str) -> bool:
    marked, addresses = _EMAIL.subn(" ", text)
    bare, marks = _MARK.subn(" ", marked)
    if not marks + addresses:
        return False  # no mark, no address: names and terms alike may title a section
    bare = re.sub(r"[(){}\[\]]|[˘¨´`ˆ˜¸˝˚]", " ", bare)  # brackets; accents set apart
    names = [part for part in _NAME_SEPARATOR.split(bare) if part.strip()]
    if len(names) < AUTHOR_NAMES or not all(_is_personal_name(name) for name in names):
        return False
    # Two capitalised phrases and a note's mark also make a title ("Risk Management* and
    # Internal Control"): a list of few names is an author list when each name is marked.
    return len(names) >= UNMARKED_NAMES_FROM or marks + addresses >= len(names)


def _is_personal_name(text: str) -> bool:
    words = text.split()
    low, high = NAME_WORDS
    if not low <= len(words) <= high or words[-1].lower() in _PARTICLES:
        return False
    return all(
        _NAME_WORD.fullmatch(word) or _INITIAL.fullmatch(word) or word in _PARTICLES
        for word in words
    ) and not all(_INITIAL.fullmatch(word) for word in words)
