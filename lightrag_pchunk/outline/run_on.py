"""Lines whose sentence runs on into the next paragraph: the first line of a paragraph a
page's layout broke apart ("(a) Any person seeking to have any" / "anabolic steroid product,
which …"), which the smart outline takes for no title. Pure functions of the outline's items.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lightrag_pchunk.outline.items import ItemKind, Look, OutlineItem
from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.lines import count_title_words, starts_lowercase

#: Marks that end a sentence or a clause: a line ending in one runs on into nothing.
CLAUSE_ENDS = frozenset(".:;!?。：；！？")
#: Fewest words, after its numbering label, on a line a page's layout broke off: such a line
#: fills its column, where a title may be a word or two ("1 Scope", "2.1 Configuration").
BROKEN_LINE_WORDS = 4


def runs_on(items: Sequence[OutlineItem], index: int, title_words: float) -> bool:
    """Whether the sentence of line ``index`` runs on into the next paragraph as text: the
    line holds a column's words (:data:`BROKEN_LINE_WORDS`), no mark ends it, the next
    paragraph starts in lower case with no numbering label of its own, and reads as text:
    it ends a sentence, runs longer than ``title_words`` words, or runs on in turn. A short
    title stays one over a paragraph opening in lower case ("1 Scope" / "this standard
    applies to …"), and a short continuation before a new line is a title's own second line
    ("5. Requirements for the term and scope of" / "the quality guarantee")."""
    line = items[index].text.strip()
    label = parse_label(line)
    if count_title_words(line if label is None else label.rest) < BROKEN_LINE_WORDS:
        return False
    if not _continues(items, index):
        return False
    following = items[index + 1].text.strip()
    return (
        following[-1:] in CLAUSE_ENDS
        or count_title_words(following) > title_words
        or _continues(items, index + 1)
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
    after = items[index + 1].look
    if after is None and look_of is not None:
        after = look_of(index + 1)
    return after is not None and after.signature() == look.signature()


def _continues(items: Sequence[OutlineItem], index: int) -> bool:
    """Whether no mark ends line ``index`` and the next paragraph starts in lower case
    without a numbering label: the line's sentence goes on there."""
    if index + 1 >= len(items) or items[index + 1].kind is not ItemKind.TEXT:
        return False
    following = items[index + 1].text.strip()
    return (
        items[index].text.rstrip()[-1:] not in CLAUSE_ENDS
        and starts_lowercase(following)
        and parse_label(following) is None
    )
