"""Tiers of looks in the smart outline: which looks set headings apart from the text.

Where some headings are set larger than the text, the looks decide which lines can be
headings at all: a tier of larger bold lines, a tier of larger lines that are not bold
(Word's own heading styles), and a tier of bold titles set a step smaller than the text
(a book's sub-sections under its larger chapter titles). ``infer.py`` asks these
questions of its candidates; they read the document's items and never change them.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence

from lightrag_pchunk.outline.items import (
    LARGER_BY,
    ItemKind,
    Look,
    OutlineItem,
    Promoted,
    is_larger_than_text,
)
from lightrag_pchunk.outline.lines import count_text_words


def followed_by_content(
    items: Sequence[OutlineItem], candidates: dict[int, Promoted], index: int
) -> bool:
    """Whether body content follows line ``index``: text that cannot be a heading, a table,
    or a line numbered deeper or in another family (a sub-heading)."""
    if index + 1 >= len(items):
        return False
    nxt = items[index + 1]
    if nxt.kind is ItemKind.OTHER:
        return True
    if nxt.kind is ItemKind.HEADING:
        return False
    follower = candidates.get(index + 1)
    if follower is None:
        return True
    current = candidates[index]
    mine, theirs = current.label, follower.label
    if mine is None:
        # After an unnumbered line, another short unnumbered line is content when it looks
        # different (body text or a sub-heading); alike, the two are a run of such lines.
        return theirs is not None or follower.look != current.look
    return theirs is None or theirs.key != mine.key


def is_set_larger(candidate: Promoted, body_size: float) -> bool:
    return is_larger_than_text(candidate.look, body_size)


def tier_lines(
    items: Sequence[OutlineItem],
    candidates: dict[int, Promoted],
    larger: Sequence[Promoted],
    opening: int | None,
) -> list[Promoted]:
    """The ``larger`` candidates that tell the document's tiers of headings: all but its
    title. The title is the document's first line, in a look no other larger line has,
    centred or heading the line below it at once (the document's name over its first
    section, not a section of its own with text under it). Larger lines that all stand
    before the first paragraph of body text (at ``opening``: :func:`first_body_paragraph`),
    none heading text at once, are a title block (a journal's masthead over a paper's
    title and its authors): they tell no tier either.
    A title is set apart once; only looks that recur set headings apart from the text (a
    memo titled in large bold may head its sections in plain larger type, or in bold at the
    text's size). A cover's line, known to head nothing, is the template's look for its
    headings, and still tells the tiers."""
    first = next((i for i, item in enumerate(items) if item.kind is not ItemKind.OTHER), None)
    title = next((c for c in larger if c.index == first), None)
    if not (
        title is None
        or title.look is None
        or items[title.index].titles_nothing
        or not (title.look.centered or title.index + 1 in candidates)
        or any(c.look == title.look for c in larger if c is not title)
    ):
        larger = [c for c in larger if c is not title]
    if any(item.kind is ItemKind.HEADING for item in items):
        return list(larger)  # known headings (styles, tags) set the tiers, not a title block
    if opening is not None and all(
        c.index < opening and c.index + 1 in candidates and not items[c.index].titles_nothing
        for c in larger
    ):
        return []
    return list(larger)


#: A paragraph of body text has more words than this, or ends a sentence and has at least
#: the second number (CJK characters count two to a word).
_BODY_PARAGRAPH_WORDS = (12, 5)
_SENTENCE_ENDS = (".", "!", "?", "。", "！", "？")


def first_body_paragraph(
    items: Sequence[OutlineItem], candidates: dict[int, Promoted]
) -> int | None:
    """Index of the document's first paragraph of body text: a line no heading could be,
    longer than a title or a sentence (None when there is none)."""
    longest_title, shortest_sentence = _BODY_PARAGRAPH_WORDS
    for index, item in enumerate(items):
        if item.kind is ItemKind.TEXT and index not in candidates:
            text = item.text.strip()
            words = count_text_words(text)
            if words > longest_title or (
                words >= shortest_sentence and text.endswith(_SENTENCE_ENDS)
            ):
                return index
    return None


def stands_over_a_title(candidates: dict[int, Promoted], index: int, opening: int | None) -> bool:
    """Whether the unnumbered line ``index`` stands in the document's opening (before its
    first paragraph of body text, at ``opening``: :func:`first_body_paragraph`) right over
    a larger title (:func:`is_over_a_larger_title`): a journal's masthead over a paper's
    title, a kicker over a headline. It heads nothing; the title under it heads what
    follows."""
    return (
        candidates[index].label is None
        and opening is not None
        and index < opening
        and is_over_a_larger_title(candidates, index)
    )


def is_over_a_larger_title(candidates: dict[int, Promoted], index: int) -> bool:
    """Whether the line after ``index`` is a title set larger than it and apart from the
    text: what follows is that title's, not this line's."""
    below, candidate = candidates.get(index + 1), candidates[index]
    return (
        below is not None
        and below.look is not None
        and candidate.look is not None
        and below.look_score > 0
        and is_larger_than_text(below.look, candidate.look.size)
    )


#: Titles of one bold look set smaller than the text that make a tier of minor headings,
#: and the larger headings they must stand under between them.
_MINOR_TIER_TITLES = 3
_MINOR_TIER_SECTIONS = 2


def minor_tier_looks(
    items: Sequence[OutlineItem],
    candidates: dict[int, Promoted],
    listed: set[int],
    body_size: float,
    larger_at: Sequence[int],
) -> set[tuple[float, bool, bool]]:
    """The bold looks set a step smaller than the text that title sections of their own:
    :data:`_MINOR_TIER_TITLES` different titles or more in the look, each followed by body
    content, under :data:`_MINOR_TIER_SECTIONS` or more of the larger headings (their
    indexes ``larger_at``, in order). Emphasis inside the text keeps the text's size, and a
    run-in label set small repeats one word ("Note"); a book that sets its sub-sections
    small and bold under larger chapter titles prints such titles chapter after chapter,
    while a few bold lines inside one section (the parts of a reference list) are that
    section's own emphasis. A line with more digits than letters
    (a chart's axis: "21.12월 22.12월 23.12월") or ending in a colon (a form's "Send mail
    to:") titles nothing."""
    titles: dict[tuple[float, bool, bool], set[str]] = {}
    sections: dict[tuple[float, bool, bool], set[int]] = {}
    for index, candidate in candidates.items():
        look = candidate.look
        title = candidate.heading.title
        if (
            look is None
            or not look.bold
            or not 0 < look.size <= body_size - LARGER_BY
            or index in listed
            or items[index].text.strip()[-1:] in (":", "：")
            or sum(c.isdigit() for c in title) > sum(c.isalpha() for c in title)
            or not followed_by_content(items, candidates, index)
        ):
            continue
        titles.setdefault(look.signature(), set()).add(title)
        # The larger heading this title stands under (-1: before the first one).
        under = bisect.bisect_left(larger_at, index) - 1
        sections.setdefault(look.signature(), set()).add(under)
    return {
        look
        for look, found in titles.items()
        if len(found) >= _MINOR_TIER_TITLES and len(sections[look]) >= _MINOR_TIER_SECTIONS
    }


#: Larger lines of one look, not bold, that make a tier of headings (one is a title).
_PLAIN_TIER_LINES = 3


def has_plain_tier(
    items: Sequence[OutlineItem], candidates: dict[int, Promoted], larger: Sequence[Promoted]
) -> bool:
    """Whether the ``larger`` candidates make a tier of headings that are not bold:
    :data:`_PLAIN_TIER_LINES` or more of them share one look that is not bold; where some
    are bold, those not bold that outsize all of them, each standing apart from lines of
    its look (not a run of samples or a cover's lines), must outnumber them."""
    bold = [c.look.size for c in larger if c.look is not None and c.look.bold]
    above = max(bold, default=0.0)
    plain = [
        c.look.signature()
        for c in larger
        if c.look is not None
        and not c.look.bold
        and c.look.size > above
        and not (bold and same_look_run(items, candidates, c.index))
    ]
    tier = max(Counter(plain).values(), default=0) >= _PLAIN_TIER_LINES
    return tier and len(plain) > len(bold)


def same_look_run(
    items: Sequence[OutlineItem], candidates: dict[int, Promoted], index: int
) -> bool:
    """An unnumbered line next to another unnumbered candidate formatted the same way is
    part of a run of emphasised lines (a signature block, a list in bold), not a heading."""
    look = candidates[index].look
    for other in (index - 1, index + 1):
        neighbour = candidates.get(other)
        if neighbour is not None and neighbour.label is None and neighbour.look == look:
            return True
    return False


def ends_a_centred_title(
    items: Sequence[OutlineItem], candidates: dict[int, Promoted], index: int
) -> bool:
    """A numbered line set centred right under an unnumbered line of its own look is the
    last line of a title set on two ("核电厂定期安全评价" over "第1部分：通用要求",
    "Preparation of … for nuclear power plants—" over "Part 1: General Requirements", as a
    cover prints a standard's name): a heading's number leads its title, it does not come
    after it."""
    candidate, above = candidates[index], candidates.get(index - 1)
    return (
        candidate.label is not None
        and candidate.look is not None
        and candidate.look.centered
        and above is not None
        and above.label is None
        and above.look == candidate.look
    )


def set_below(look: Look | None, above: Look | None) -> bool:
    """Whether ``look`` is set below ``above`` (None: no such heading): no larger, bolder
    or more in capitals, and not the same (a line set as a unit's heading is its sibling)."""
    if look is None or above is None:
        return False
    mine, theirs = look.signature(), above.signature()
    return mine != theirs and all(m <= t for m, t in zip(mine, theirs, strict=True))
