"""Headings that only their place shows: a short title standing alone between paragraphs.

A document that lost its heading styles and formatting (converted, pasted, typed plain)
still shows its headings by where they stand: a short line that reads as a title, after
a paragraph (or a table, or a heading) and before a paragraph of body text. The smart
outline takes such a line for a heading when nothing speaks against it; these helpers
say whether a line stands so. A title the document's headings share heads its section
wherever its words stand so, in any look (:func:`recurring_titles`). Place also shows the
reverse: the lines of a cover page before a table of contents title nothing
(:func:`cover_lines_before_contents`). Pure functions of the items.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence

from lightrag_pchunk.outline.items import ItemKind, Look, OutlineItem, Promoted, is_larger_than_text
from lightrag_pchunk.outline.lines import (
    MAX_PLAIN_WORDS,
    count_text_words,
    flat_text,
    heading_text,
)
from lightrag_pchunk.outline.look_tiers import followed_by_content
from lightrag_pchunk.outline.non_titles import reads_as_code_or_data

#: Items after a recurring line that, the same at each of its places, show a passage the
#: document repeats rather than a run-in label over text of its own.
_PASSAGE_ITEMS = 2
#: Longest title placed by its position alone, in words.
MAX_PLACED_WORDS = 8
#: A paragraph of body text is at least this long (characters) and ends as a sentence.
MIN_PARAGRAPH_CHARS = 60
#: A paragraph a column's or a page's end may cut is at least this long, ending anywhere.
MIN_CUT_PARAGRAPH_CHARS = 160
_PARAGRAPH_ENDS = frozenset('.!?。！？:：;；)）»”"')
#: A title ending on a dash leads into what follows ("The impact is high if—").
_LEAD_DASHES = ("—", "–", "-")


def recurring_lines(items: Sequence[OutlineItem]) -> frozenset[str]:
    """The text lines that occur twice or more in the document (casefolded): a title that
    recurs ("Informative comment", "Additional Requirements") is a run-in label. Not a line
    that stands twice, both times with the same :data:`_PASSAGE_ITEMS` items after it: a
    passage written twice (a converter wrote a section twice), whose titles are titles. A
    box's title over the same text at three places or more ("Warning" over the same two
    paragraphs) is the label of a box the document repeats."""
    lines = [
        flat_text(item.text).casefold() if item.kind is ItemKind.TEXT else None for item in items
    ]
    counts = Counter(line for line in lines if line is not None)
    after: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for index, line in enumerate(lines):
        if line is not None and counts[line] > 1:
            following = items[index + 1 : index + 1 + _PASSAGE_ITEMS]
            after[line].add(tuple(flat_text(other.text) for other in following))
    return frozenset(line for line, places in after.items() if len(places) > 1 or counts[line] > 2)


def _holds_address(text: str) -> bool:
    """A web address or a file path ("visit http://…", "src/samples/docx4j/Convert.java")."""
    return "://" in text or "www." in text or any(word.count("/") >= 2 for word in text.split())


def is_paragraph(item: OutlineItem, *, cut: bool = False) -> bool:
    """A paragraph of body text: not a list item, long, ending as a sentence, no title.
    ``cut``: it may end anywhere past :data:`MIN_CUT_PARAGRAPH_CHARS` (a paper's paragraph
    the column's end cuts, a figure set between its halves)."""
    text = flat_text(item.text)
    ends = text[-1:] in _PARAGRAPH_ENDS or (cut and len(text) >= MIN_CUT_PARAGRAPH_CHARS)
    return (
        item.kind is ItemKind.TEXT
        and not item.is_list_item
        and len(text) >= MIN_PARAGRAPH_CHARS
        and ends
        and heading_text(text, markdown=False) is None
    )


def stands_under_content(items: Sequence[OutlineItem], index: int) -> bool:
    """Whether line ``index`` stands right under content that is no text line (a table,
    an equation, a box), where a line is as often that content's footnote."""
    return index > 0 and items[index - 1].kind is ItemKind.OTHER


def stands_between_paragraphs(
    items: Sequence[OutlineItem],
    index: int,
    title: str,
    recurring: frozenset[str],
    *,
    after_heading: bool = False,
    cut_below: bool = True,
) -> bool:
    """Whether line ``index`` (an unnumbered title) stands alone between paragraphs: short,
    not a list item, not a recurring line, not a lead-in, after a paragraph, a table or a
    heading (``after_heading``: the line before it is one the outline takes), and before a
    paragraph, which a column's or a page's end may cut (``cut_below``; where its place is
    a line's only evidence, both paragraphs are whole)."""
    item = items[index]
    if item.is_list_item or len(title.split()) > MAX_PLACED_WORDS:
        return False
    if flat_text(item.text).casefold() in recurring or title.endswith(_LEAD_DASHES):
        return False
    if not title[:1].isalpha() or _holds_address(title):
        return False  # code ("//Prefer …"), a link or a path: a line of content
    # The text under a title may run on past a column's end; the text before it ends as a
    # sentence (a line between two halves of one paragraph is a figure's or a table's).
    if index + 1 >= len(items) or not is_paragraph(items[index + 1], cut=cut_below):
        return False
    if index == 0 or after_heading:
        return True
    before = items[index - 1]
    return before.kind is not ItemKind.TEXT or is_paragraph(before)


def over_text(items: Sequence[OutlineItem], index: int) -> bool:
    """Whether line ``index`` stands over text: the next item is a line of more words than
    a title has, not a list's item (a paper pasted as text: its paragraphs may break
    anywhere, at a column's or a page's end)."""
    following = items[index + 1] if index + 1 < len(items) else None
    return (
        following is not None
        and following.kind is ItemKind.TEXT
        and not following.is_list_item
        and count_text_words(following.text) > MAX_PLAIN_WORDS
    )


def titles_code(items: Sequence[OutlineItem], index: int, look: Look | None) -> bool:
    """Whether line ``index`` (in ``look``) is an example's title over its code: set whole
    in italic, not bold (a specification's "Basic TCP Network Traffic"), over a line that
    reads as code or data ("{", "x = f(a);")."""
    if look is None or not look.italic or look.bold or index + 1 >= len(items):
        return False
    below = items[index + 1]
    first = below.text.split("\n", 1)[0].strip()
    return below.kind is ItemKind.TEXT and reads_as_code_or_data(first, None)


def cover_lines_before_contents(items: Sequence[OutlineItem], contents_at: int) -> list[int]:
    """The lines of a cover page that title nothing: where a document opens with lines and
    no paragraph of body text before its table of contents (``contents_at``: the position
    of the table among ``items``), those lines after the first (the document's name, which
    may head it) are its issuer, subtitle, number and dates (a standard's "NB" set large
    above its name, "Part 1: General Requirements" under it). Not when a known heading
    stands among them: the author's outline starts there."""
    before = items[:contents_at]
    lines = [i for i, item in enumerate(before) if item.kind is ItemKind.TEXT]
    if any(i.kind is ItemKind.HEADING or is_paragraph(i) for i in before):
        return []
    return lines[1:]


def titled_front_matter(
    items: Sequence[OutlineItem], look_of: Callable[[int], Look | None], body_size: float
) -> bool:
    """Whether the lines before the first known heading title parts of their own: one past
    the first (the document's name) is set larger than the text (``look_of`` its look)."""
    first = next((i for i, item in enumerate(items) if item.kind is ItemKind.HEADING), len(items))
    lines = [i for i in range(first) if items[i].kind is ItemKind.TEXT][1:]
    return any(is_larger_than_text(look_of(i), body_size) for i in lines)


#: Headings that must share a title before a line of the same words in another look heads
#: its section too.
MIN_RECURRING_TITLES = 3


def recurring_titles(
    items: Sequence[OutlineItem],
    candidates: dict[int, Promoted],
    accepted: Sequence[Promoted],
) -> list[Promoted]:
    """Lines with the title that :data:`MIN_RECURRING_TITLES` accepted headings share (a
    specification's "Properties" under each type it defines), standing as a line of their
    own over content where the rules left them as text: the same section of a deeper unit,
    set in a smaller look ("Properties" in the text's look over a table). Unnumbered
    lines only, never a list's item."""
    taken = {c.index for c in accepted}
    shared = Counter(flat_text(items[c.index].text).casefold() for c in accepted if c.label is None)
    titles = {title for title, count in shared.items() if count >= MIN_RECURRING_TITLES}
    if not titles:
        return []
    return [
        candidate
        for index, candidate in candidates.items()
        if index not in taken
        and candidate.label is None
        and not items[index].is_list_item
        and flat_text(items[index].text).casefold() in titles
        and followed_by_content(items, candidates, index)
    ]
