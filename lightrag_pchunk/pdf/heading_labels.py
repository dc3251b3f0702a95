"""Stage A for PDF, after the stated headings are found: a heading's label printed on the
line above its title goes into the title.

Book producers (DocBook through dblatex, Debian's reference) print a chapter's label
("Chapter 2") on a line of its own above the chapter's title, which the bookmark names
alone; a collection of documents prints each one's label ("文件十五") above its title.
Left as it is, the label reads as the last line of the section before, or a heading of its
own over an empty section. Like a Word heading's number, it is the title's: the heading's
text is the label, a space, then the title ("Chapter 2 Package management").

A paragraph is taken for a label when it is one line that reads as a numbering label and
nothing else ("Chapter 2", "1.1.10", "附件一"), printed on the title's page right above
it, in the title's look or in a look of its own set apart from the text (bold, or larger),
or in the text's look where it names a unit by its word ("ARTICLE I" over a bold
"DEFINITIONS", as a contract centres them): a number in the text's look closing a
paragraph ("42") stays text. A line of a word of the document's own and a number
("文件十五") is a label in any look where such lines number on through the document,
three or more. A title printed with a number of its own has its label: the number above
it is another's (an equation's "(4)"). The title is one the file states, or a paragraph
set apart from the text (bold, or larger) that the classifier then judges with its label;
above such a title a label in the title's own look is left to the classifier: Word
documents set a heading ("APPENDIX B") over a subtitle in its look as often as a title's
two lines; nor is a number in parentheses, an equation's ("(1)"), the label of a line
found under it.

Input: the paragraphs and the heading level of each one the file states. Output: the
paragraphs, each such label joined to its title, and the levels by the new indexes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from lightrag_pchunk.model import MAX_HEADING_LENGTH
from lightrag_pchunk.outline.items import Look, is_larger_than_text
from lightrag_pchunk.outline.numbering import is_bare_label, parse_label
from lightrag_pchunk.outline.unit_words import CN_NUMBER, names_a_unit, numeral_value
from lightrag_pchunk.pdf.bookmark_match import line_top
from lightrag_pchunk.pdf.layout import TABLE_ROLE
from lightrag_pchunk.pdf.printed_paragraph import PrintedParagraph

#: A label stands above its title by at most this many times the larger of their sizes
#: (baseline to baseline; a chapter's label and title are set with a wide gap).
LABEL_GAP = 3.0
#: A label word and its number ("CHAPTER 2", "Part I") stand above their title by at most
#: this many times the larger size: a book's chapter opening sets them farther apart.
KEYWORD_LABEL_GAP = 6.0
_KEYWORD = "keyword-"
#: A word and a number alone on a line: "文件十五", "Document 3" (the word without a
#: numeral's characters: "十五" is a number, not the unit "十" numbered five).
_UNIT_LINE = re.compile(rf"(?P<word>[^\W\d_]+?)\s?(?P<n>\d{{1,3}}|{CN_NUMBER})")
_NUMERAL_CHARACTERS = frozenset(CN_NUMBER.strip("[]+"))
#: A word of two letters or more: a title has one ("( )" under a note's "32" has none).
_WORD = re.compile(r"[^\W\d_]{2,}")
#: Lines of a word and a number, numbering on, that make the word a unit of the document.
OWN_UNIT_LINES = 3


def join_heading_labels(
    found: Sequence[PrintedParagraph], levels: dict[int, int], body_size: float
) -> tuple[list[PrintedParagraph], dict[int, int]]:
    """``found`` with each heading's label (see the module doc) joined to its title, and
    ``levels`` by the indexes of the result."""
    own = own_unit_labels(found)
    labels: set[int] = set()
    for index in range(1, len(found)):
        title, label = found[index], index - 1
        if label in levels or label in labels:
            continue
        if index not in levels and not _set_apart(title, body_size):
            continue
        if _is_label_of(found[label], title, body_size, label in own, index in levels):
            labels.add(label)
    if not labels:
        return list(found), dict(levels)
    result: list[PrintedParagraph] = []
    new_levels: dict[int, int] = {}
    for index, paragraph in enumerate(found):
        if index in labels:
            continue
        if index - 1 in labels:
            paragraph = _with_label(found[index - 1], paragraph)
        if index in levels:
            new_levels[len(result)] = levels[index]
        result.append(paragraph)
    return result, new_levels


def own_unit_labels(found: Sequence[PrintedParagraph]) -> set[int]:
    """The paragraphs that are a line of a word and a number ("文件十五") where the
    document has :data:`OWN_UNIT_LINES` or more such lines of that word, their numbers
    rising in reading order: the labels of the document's own units."""
    by_word: dict[str, list[tuple[int, int]]] = {}
    for index, paragraph in enumerate(found):
        if paragraph.role == TABLE_ROLE or len(paragraph.lines) != 1:
            continue
        match = _UNIT_LINE.fullmatch(paragraph.text.strip())
        if match is None or _NUMERAL_CHARACTERS & set(match["word"]):
            continue
        value = numeral_value(match["n"])
        if value is not None:
            by_word.setdefault(match["word"], []).append((index, value))
    labels: set[int] = set()
    for lines in by_word.values():
        values = [value for _, value in lines]
        if len(lines) >= OWN_UNIT_LINES and all(a < b for a, b in pairwise(values)):
            labels.update(index for index, _ in lines)
    return labels


def _set_apart(paragraph: PrintedParagraph, body_size: float) -> bool:
    """Whether ``paragraph`` may be a title the classifier finds: set apart from the
    text (bold, or larger), no longer than a heading may be, with a word."""
    return (
        paragraph.role != TABLE_ROLE
        and not paragraph.is_toc_entry
        and _stands_out(paragraph.look, body_size)
        and len(paragraph.text) <= MAX_HEADING_LENGTH
        and _WORD.search(paragraph.text) is not None
    )


def _stands_out(look: Look, body_size: float) -> bool:
    return look.bold or is_larger_than_text(look, body_size)


def _is_label_of(
    label: PrintedParagraph,
    title: PrintedParagraph,
    body_size: float,
    own_unit: bool,
    stated: bool,
) -> bool:
    """Whether ``label`` is the label of the heading ``title`` (see the module doc);
    ``own_unit``: a line of a unit of the document's own; ``stated``: a title the file
    states."""
    if label.role == TABLE_ROLE or title.role == TABLE_ROLE or len(label.lines) != 1:
        return False
    if label.is_toc_entry:
        return False
    if not own_unit:
        if not is_bare_label(label.text):
            return False  # text, or a numbered line with words of its own
        same_look = label.look.signature() == title.look.signature()
        unit = parse_label(label.text)
        names = unit is not None and names_a_unit(unit)
        if not ((same_look and stated) or names) and not _stands_out(label.look, body_size):
            return False  # in the text's look: a number closing a paragraph
        if same_look and not stated:
            return False  # a heading over a subtitle in its look ("APPENDIX B", "STANDARDS …")
        if not stated and label.text.lstrip().startswith("("):
            return False  # an equation's number ("(1)") over the equation's first line
    if parse_label(title.text) is not None:
        return False  # the title has its number: the line above is another's ("(4)")
    line, first = label.lines[0], title.lines[0]
    if line.page != first.page:
        return False
    rise = line_top(line) - line_top(first)
    read = parse_label(label.text)
    gap = KEYWORD_LABEL_GAP if read and read.family.startswith(_KEYWORD) else LABEL_GAP
    return 0 < rise <= gap * max(label.look.size, title.look.size)


def _with_label(label: PrintedParagraph, title: PrintedParagraph) -> PrintedParagraph:
    """The title's paragraph opened by its label's line, a space between them (not joined
    as a paragraph's lines are: a CJK title after its number reads "1.1.10 初心者…")."""
    shift = len(label.text) + 1
    return PrintedParagraph(
        f"{label.text} {title.text}",
        (*label.lines, *title.lines),
        (0, *(start + shift for start in title.starts)),
        title.look,
        title.is_toc_entry,
    )
