"""Which numbered paragraphs of a PDF are items of a list, not titles of sections.

A word processor knows its list paragraphs; a PDF prints only their numbers. What the page
still shows, for a numbered paragraph:

- indented from its column's edge (headings start at the margin), its first line by more
  than a first-line indent, or every line of it, as a list's hanging indent sets an item
  whose number stands a little in from the margin and its text further in;
- numbered on from a paragraph of its own numbering that reads as text, too long for a
  title ("75. In the management of domain names, the main actors are …" before "76. With
  the ccTLDs, issues include:"; a step "1. Select the text or picture that you want to
  show as the link." before "2. …" and "3. Do one of the following:"), or from such an
  item, unless it also numbers on from a title of its numbering (then it may be the next
  section: "2. Background" after "1. Introduction" and a list "1. …" inside it).

The classifier asks such an item for the look of a heading too (``is_list_item``): a bold
or larger numbered line still heads its section.

Input: the document's paragraphs in reading order. Output: the indexes of its list items.
"""

from __future__ import annotations

from collections.abc import Sequence

from lightrag_pchunk.outline.infer import MAX_PLAIN_WORDS, body_words
from lightrag_pchunk.outline.lines import heading_text
from lightrag_pchunk.outline.numbering import Label, parse_label
from lightrag_pchunk.pdf.layout import TABLE_ROLE
from lightrag_pchunk.pdf.paragraphs import PrintedParagraph

#: A numbered paragraph indented this far (points, at least) from its column's edge is a
#: list item.
LIST_INDENT = 12.0
#: A single line must stand further in than this many times its size (a paragraph's
#: first-line indent is about one em).
FIRST_LINE_EMS = 1.2


def list_items(found: Sequence[PrintedParagraph]) -> frozenset[int]:
    """Indexes of the numbered paragraphs of ``found`` that are list items (module doc)."""
    items: set[int] = set()
    # The last label of each numbering on an item or a sentence, and on a title.
    last_item: dict[tuple[str, int, str], Label] = {}
    last_title: dict[tuple[str, int, str], Label] = {}
    for index, paragraph in enumerate(found):
        if paragraph.role == TABLE_ROLE:
            continue
        label = parse_label(paragraph.text)
        if label is None:
            continue
        key = _numbering(label)
        if _is_indented(paragraph) or _numbers_on(label, last_item.get(key), last_title.get(key)):
            items.add(index)
            last_item[key] = label
        elif _is_text(paragraph.text):
            last_item[key] = label
        else:
            last_title[key] = label
    return frozenset(items)


def _numbering(label: Label) -> tuple[str, int, str]:
    """A label's numbering: its family and depth, and the mark after its number ("77."
    and a footnote's "14" are two numberings of one family)."""
    last = label.text.rstrip()[-1:]
    return (*label.key, "" if last.isalnum() else last)


def _is_text(text: str) -> bool:
    """A numbered paragraph of text: no title, and longer than an unnumbered title may be
    (a short numbered sentence may be a title ending in a full stop: "1）见“审查”修订为
    “评价”。")."""
    return heading_text(text, markdown=False) is None and body_words([text]) > MAX_PLAIN_WORDS


def _is_indented(paragraph: PrintedParagraph) -> bool:
    """Whether the paragraph stands in from its column's edge: its first line by more
    than a first-line indent, or (not centred) every line of it by :data:`LIST_INDENT`."""
    lines = paragraph.lines
    first = lines[0]
    indent = first.x0 - first.column_x0
    if indent > max(LIST_INDENT, FIRST_LINE_EMS * first.size):
        return True
    return (
        len(lines) >= 2
        and not paragraph.look.centered
        and all(line.x0 - line.column_x0 > LIST_INDENT for line in lines)
    )


def _numbers_on(label: Label, item: Label | None, title: Label | None) -> bool:
    """Whether ``label`` is the next number after the list item or sentence ``item``
    and not after the title ``title`` of its numbering."""
    if item is None or not label.follows(item):
        return False
    return title is None or not label.follows(title)
