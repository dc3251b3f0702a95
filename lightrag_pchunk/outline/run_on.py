"""Lines whose sentence runs on into the next paragraph: the first line of a paragraph a
page's layout broke apart ("(a) Any person seeking to have any" / "anabolic steroid product,
which …"), which the smart outline takes for no title. Pure functions of the outline's items.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lightrag_pchunk.outline.items import ItemKind, Look, OutlineItem, look_at
from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.lines import OPEN_ENDINGS, count_title_words, starts_lowercase

#: Marks that end a sentence or a clause: a line ending in one runs on into nothing.
CLAUSE_ENDS = frozenset(".:;!?。：；！？")
#: Fewest words, after its numbering label, on a line a page's layout broke off: such a line
#: fills its column, where a title may be a word or two ("1 Scope", "2.1 Configuration").
BROKEN_LINE_WORDS = 4
#: Words that open a sentence's subject rather than a title ("Any person seeking …", "An
#: application for …"), or leave a line open ("… quantities each" / "with a 5 ml. …"): a
#: numbered title names its topic first and last ("Limits of the flow rate").
_DETERMINERS = frozenset(
    "a an the any each every this these those such no some all its their our his her".split()
)
#: Words that make a clause of a line: a modal or auxiliary verb, a relative pronoun.
_CLAUSE_WORDS = frozenset(
    "shall should must may might will would can could cannot is are was were be been being "
    "has have had do does did that which who whom whose".split()
)
#: Words that leave a numbered line open at its end: those that leave any line open
#: (:data:`~lightrag_pchunk.outline.lines.OPEN_ENDINGS`) and more prepositions. A numbered
#: title may end on one where its own second line follows ("… scope of" / "the quality
#: guarantee"); over a paragraph such a line goes on into its sentence ("… comply with" /
#: "the standards …").
_OPEN_ENDS = OPEN_ENDINGS | frozenset(
    "for with to in on onto under over about between through per".split()
)
#: Words that join the next paragraph to the line's sentence ("… at rated speed" / "and the
#: head …"): under a title a paragraph starts its own sentence.
_JOINING_WORDS = frozenset("and or but nor".split())
_ENGLISH_WORD = re.compile(r"[A-Za-z]+")


def runs_on(items: Sequence[OutlineItem], index: int, title_words: float) -> bool:
    """Whether the sentence of line ``index`` runs on into the next paragraph as text: the
    line holds a column's words (:data:`BROKEN_LINE_WORDS`), no mark ends it, the next
    paragraph starts in lower case with no numbering label of its own, and reads as text:
    it ends a sentence, runs longer than ``title_words`` words, or runs on in turn. A short
    title stays one over a paragraph opening in lower case ("1 Scope" / "this standard
    applies to …"), and a short continuation before a new line is a title's own second line
    ("5. Requirements for the term and scope of" / "the quality guarantee"). Nor does a
    numbered line that names a topic (:func:`names_a_topic`): "4.2 Limits of the flow
    rate" titles the paragraph under it, "at rated speed, …", unless that paragraph opens
    with a word joining it to the line's sentence ("and the head …")."""
    line = items[index].text.strip()
    label = parse_label(line)
    if count_title_words(line if label is None else label.rest) < BROKEN_LINE_WORDS:
        return False
    if not _continues(items, index):
        return False
    following = items[index + 1].text.strip()
    joined = _ENGLISH_WORD.match(following)
    if label is not None and names_a_topic(label.rest):
        return joined is not None and joined.group() in _JOINING_WORDS
    return (
        following[-1:] in CLAUSE_ENDS
        or count_title_words(following) > title_words
        or _continues(items, index + 1)
    )


def names_a_topic(words: str) -> bool:
    """Whether ``words`` (a numbered line after its label) read as a title's noun phrase,
    in English: not led nor ended by an article or a determiner, not ended by a
    preposition or a conjunction (:data:`_OPEN_ENDS`), no full stop inside, and no modal
    or auxiliary verb nor relative pronoun. A paragraph's first line broken off is
    its sentence's subject ("Any person seeking to have any", "An application for any
    exclusion"), a clause ("The pump shall be designed for") or a sentence and the start of
    the next ("Reagent B. In one liter quantities each"). Other languages are not read so."""
    if not words.isascii() or ". " in words.strip():
        return False
    found = [word.lower() for word in _ENGLISH_WORD.findall(words)]
    return (
        bool(found)
        and found[0] not in _DETERMINERS
        and found[-1] not in _DETERMINERS
        and found[-1] not in _OPEN_ENDS
        and not any(word in _CLAUSE_WORDS for word in found)
    )


def in_its_look(
    items: Sequence[OutlineItem],
    index: int,
    look: Look | None,
    look_of: Callable[[int], Look | None] | None,
) -> bool:
    """Whether the paragraph after line ``index`` is set in the line's ``look`` (size, bold,
    capitals): a paragraph broken apart keeps its look, a title and its text do not."""
    if look is None or index + 1 >= len(items):
        return False
    after = look_at(items, index + 1, look_of)
    return after is not None and after.signature() == look.signature()


def _continues(items: Sequence[OutlineItem], index: int) -> bool:
    """Whether no mark ends line ``index`` and the next paragraph starts in lower case
    without a numbering label, nor opens a block of code (an interface's title over its
    code, "public interface Leave {"): the line's sentence goes on there."""
    if index + 1 >= len(items) or items[index + 1].kind is not ItemKind.TEXT:
        return False
    following = items[index + 1].text.strip()
    return (
        items[index].text.rstrip()[-1:] not in CLAUSE_ENDS
        and starts_lowercase(following)
        and parse_label(following) is None
        and following[-1:] != "{"
    )
