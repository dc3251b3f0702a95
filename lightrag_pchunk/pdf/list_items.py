"""Which numbered paragraphs of a PDF are items of a list, not titles of sections.

A word processor knows its list paragraphs; a PDF prints only their numbers. What the page
still shows, for a numbered paragraph:

- indented from its column's edge (headings start at the margin), its first line by more
  than a first-line indent, or every line of it, as a list's hanging indent sets an item
  whose number stands a little in from the margin and its text further in; not a title
  alone on its line set in exactly as far as the text paragraph under it starts, whose
  next line goes back to the edge: that indent is the text's own first-line indent (a
  Chinese paragraph's two characters: "1、征求意见稿" over "2021 年 9 月 30 日，…");
- numbered on from a paragraph of its own numbering that reads as text, too long for a
  title ("75. In the management of domain names, the main actors are …" before "76. With
  the ccTLDs, issues include:"; a step "1. Select the text or picture that you want to
  show as the link." before "2. …" and "3. Do one of the following:"), or from such an
  item, unless it also numbers on from a title of its numbering (then it may be the next
  section: "2. Background" after "1. Introduction" and a list "1. …" inside it);
- the head of a nested list: followed at once by a short item (no sentence of text) of
  another numbering set further in than it ("1) This" over "a) Is" and "i) A multi"), the
  list going on a level down; not a title over numbered paragraphs of text set in ("(a)
  Governance mechanisms" over "57. Governance mechanisms operate at four levels: …").

The classifier asks such an item for the look of a heading too (``is_list_item``): a bold
or larger numbered line still heads its section.

Input: the document's paragraphs in reading order. Output: the indexes of its list items.
"""

from __future__ import annotations

from collections.abc import Sequence

from lightrag_pchunk.outline.infer import MAX_PLAIN_WORDS, body_words
from lightrag_pchunk.outline.lines import heading_text
from lightrag_pchunk.outline.numbering import Label, parse_label
from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line
from lightrag_pchunk.pdf.printed_paragraph import PrintedParagraph

#: A numbered paragraph indented this far (points, at least) from its column's edge is a
#: list item.
LIST_INDENT = 12.0
#: A single line must stand further in than this many times its size (a paragraph's
#: first-line indent is about one em).
FIRST_LINE_EMS = 1.2
#: Lines whose starts differ by no more than this (points) start at one place.
_SAME_X = 1.5


def list_items(found: Sequence[PrintedParagraph]) -> frozenset[int]:
    """Indexes of the numbered paragraphs of ``found`` that are list items (module doc)."""
    items: set[int] = set()
    labels: dict[int, Label] = {}  # each numbered paragraph's label
    # The last label of each numbering on an item or a sentence, and on a title.
    last_item: dict[tuple[str, int, str], Label] = {}
    last_title: dict[tuple[str, int, str], Label] = {}
    for index, paragraph in enumerate(found):
        if paragraph.role == TABLE_ROLE:
            continue
        label = parse_label(paragraph.text)
        if label is None:
            continue
        labels[index] = label
        key = _numbering(label)
        indented = _is_indented(paragraph) and not _at_text_indent(found, index)
        if indented or _numbers_on(label, last_item.get(key), last_title.get(key)):
            items.add(index)
            last_item[key] = label
        elif _is_text(paragraph.text):
            last_item[key] = label
        else:
            last_title[key] = label
    heads = [i for i in labels if _heads_nested_list(found, labels, i, items)]
    return frozenset(items.union(heads))


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


def _at_text_indent(found: Sequence[PrintedParagraph], index: int) -> bool:
    """Whether paragraph ``index``, a title alone, is set as the paragraph of text after
    it: its first line in as far as that paragraph's, any line after it back at the
    column's edge as that paragraph's second line is. That is the text's first-line
    indent, which the title takes (a Chinese document's "1、征求意见稿" over its text, both
    set in two characters). A list's item is followed by its sibling, or by text set under
    its own text; a run-in point ("一、名稱：…") carries its text."""
    title = found[index]
    after = found[index + 1] if index + 1 < len(found) else None
    if after is None or after.role == TABLE_ROLE or parse_label(after.text) is not None:
        return False
    heading = heading_text(title.text, markdown=False)
    if heading is None or heading.body or len(after.lines) < 2:
        return False
    first, opening = title.lines[0], after.lines[0]
    return (
        opening.column == first.column
        and abs(opening.x0 - first.x0) <= _SAME_X
        and opening.x0 - opening.column_x0 > _SAME_X
        and all(_at_edge(line) for line in (*title.lines[1:], after.lines[1]))
    )


def _heads_nested_list(
    found: Sequence[PrintedParagraph], labels: dict[int, Label], index: int, items: set[int]
) -> bool:
    """Whether numbered paragraph ``index`` (its label in ``labels``, parsed once by
    :func:`list_items`) heads a nested list: the next paragraph is a list item (``items``)
    of another numbering and no sentence of text, in its column, its first line set further
    in than this one's. A title over a list in its look is still one: the classifier asks
    an item for a heading's look."""
    if index in items or index + 1 not in items:
        return False
    paragraph, after = found[index], found[index + 1]
    if _numbering(labels[index + 1]) == _numbering(labels[index]) or _is_text(after.text):
        return False
    first, opening = paragraph.lines[0], after.lines[0]
    return opening.column == first.column and opening.x0 - first.x0 > LIST_INDENT


def _at_edge(line: Line) -> bool:
    return abs(line.x0 - line.column_x0) <= _SAME_X


def _numbers_on(label: Label, item: Label | None, title: Label | None) -> bool:
    """Whether ``label`` is the next number after the list item or sentence ``item``
    and not after the title ``title`` of its numbering."""
    if item is None or not label.follows(item):
        return False
    return title is None or not label.follows(title)
