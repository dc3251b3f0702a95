"""The smart outline's series: numbered headings that a series of headings needs, where the
rules of ``infer.py`` left the line as text (第十六条 after 第十五条; 1.3 between 1.2 and
1.4). The series itself is the evidence; the series of known headings are
``known_series.py``'s."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from lightrag_pchunk.outline.candidates import candidate_at
from lightrag_pchunk.outline.items import (
    ItemKind,
    Look,
    OutlineItem,
    Promoted,
    look_at,
    look_score,
)
from lightrag_pchunk.outline.labels import APPENDIX_FAMILIES, Label, parse_label
from lightrag_pchunk.outline.lines import (
    MAX_PLAIN_WORDS,
    HeadingText,
    count_title_words,
    heading_text,
    is_series_label,
)
from lightrag_pchunk.outline.numbering import names_front_or_back_matter
from lightrag_pchunk.outline.unit_words import names_a_unit


def complete_series(
    items: Sequence[OutlineItem],
    candidates: dict[int, Promoted],
    accepted: Sequence[Promoted],
    within: Sequence[range] | None = None,
) -> list[Promoted]:
    """Lines that the rules left out but that a series of accepted headings needs: after a
    heading whose label is a series member (第十五条, 2.3, Article 4, AC-2), the line that
    starts with the member that continues it, up to the next accepted member of that
    series (第十六条 … 第三十一条 after 第十五条; 1.3 between 1.2 and 1.4). The evidence is
    the series itself: a line the text channel takes for a title (or, for a named unit,
    any line) that continues it is a heading however it looks. A known heading ends the
    series' reach, but for a named unit's, which runs on over the known headings of other
    units that group its members (:func:`_groups_members`: 第七十九條 after 第七十八條, past
    "第二節", wherever the rest of the classifier reads)."""
    allowed = None if within is None else {i for r in within for i in r}
    taken = {c.index for c in accepted}
    added: list[Promoted] = []
    for members in _families(accepted).values():
        for member, following in zip(members, [*members[1:], None], strict=True):
            previous = member.label
            if previous is None or not is_series_label(previous):
                continue
            unit = names_a_unit(previous)
            stop = following.index if following is not None else len(items)
            for index in range(member.index + 1, stop):
                item = items[index]
                if item.kind is ItemKind.HEADING:
                    if not unit or not _groups_members(item.text, previous):
                        break  # a known heading ends the series' reach
                    continue
                if item.kind is not ItemKind.TEXT or index in taken:
                    continue
                if allowed is not None and index not in allowed and not unit:
                    continue
                label = parse_label(item.text)
                if label is None or not is_series_label(label) or not label.follows(previous):
                    continue  # only a member of the series ("2" after "1.1" is a list's)
                found = candidates.get(index)
                if found is None and names_a_unit(label):
                    found = member_heading(index, item, label)  # a unit carries its text
                if found is None:
                    continue  # "2.2 million were…": a number, not a title
                added.append(found)
                taken.add(index)
                previous = label
    return added


def fill_between_accepted(
    items: Sequence[OutlineItem],
    accepted: Sequence[Promoted],
    body_size: float,
    look_of: Callable[[int], Look | None] | None,
    taken: set[int],
) -> list[Promoted]:
    """The numbered line between two accepted headings of one numbering set apart in one
    look that the first continues and the second goes on from ("4. XL Code Autoreview Bot
    (XLCRBot)." between "3. Wiki" and "5. Code documentation", all three larger than the
    text): the member the rules left out, a title however it ends. Both neighbours and the
    look are the evidence; a line in another look (a list's item) stays text, and a list
    numbered in the text's look before the member hides it not."""
    added: list[Promoted] = []
    numbered = sorted(
        ((c.index, c.label, c.look) for c in accepted if c.label is not None and c.look),
        key=lambda member: member[0],
    )
    for (start, first, look), (end, last, last_look) in pairwise(numbered):
        signature = look.signature()
        if last_look.signature() != signature or look_score(look, body_size) < 1:
            continue
        for index in range(start + 1, end):
            label = parse_label(items[index].text) if items[index].kind is ItemKind.TEXT else None
            if label is None or index in taken:
                continue
            line_look = look_at(items, index, look_of)
            if line_look is None or line_look.signature() != signature:
                continue  # a list's item in the text's look ("1. Install the bot") is text
            if label.follows(first) and last.follows(label):
                title = HeadingText(items[index].text.strip(), "", label)
                added.append(Promoted(index, title, look_score(line_look, body_size), line_look))
                taken.add(index)
            break  # the first numbered line in their look is the member, or there is none
    return added


#: A sentence's closing marks that a series' first member may end with.
_FULL_STOPS = frozenset(".。")


def open_series(
    items: Sequence[OutlineItem],
    accepted: Sequence[Promoted],
    body_size: float,
    look_of: Callable[[int], Look | None] | None,
    taken: set[int],
) -> list[Promoted]:
    """The first members of a series of accepted headings that the rules left out: where
    accepted headings of one numbering in one look go on from one another ("3）…",
    "4）…") and the first of them continues none before it, the numbered lines before
    it since the heading above it, in its look, that each the next continues back to
    the series' first number ("1）见“审查”修订为“评价”。", "2）引入差异项定义" over its text):
    a series opens at its first member, which heads its part as the later ones do,
    however it ends; a named unit's, in any look, over the known headings of other units
    (:func:`_opening_units`). A list's item the parser knows, a line in another look (a list set
    like the text before a titled "3."), a numbered paragraph longer than a title, or a
    run that does not reach its first number, stays text."""
    added: list[Promoted] = []
    order = sorted(accepted, key=lambda c: c.index)
    neighbours = _family_neighbours(order)
    for position, member in enumerate(order):
        label = member.label
        if label is None or not label.ordinals or label.ordinals[-1] <= 1:
            continue
        before, after = neighbours[member.index]
        if (before is not None and _runs_on(items, before, member)) or after is None:
            continue
        if not after.label.follows(label):  # type: ignore[union-attr]
            continue
        if names_a_unit(label):
            start = before.index if before is not None else -1
            opening = _opening_units(items, start, member, taken)
        elif member.look is None:
            continue
        else:
            start = order[position - 1].index if position > 0 else -1
            opening = _opening_members(items, start, member, body_size, look_of, taken)
        added += opening
        taken.update(c.index for c in opening)
    return added


def _families(accepted: Sequence[Promoted]) -> dict[str, list[Promoted]]:
    """The labelled headings of ``accepted`` by their label's family, each in document
    order."""
    families: dict[str, list[Promoted]] = {}
    for c in sorted(accepted, key=lambda c: c.index):
        if c.label is not None:
            families.setdefault(c.label.family, []).append(c)
    return families


def _family_neighbours(
    accepted: Sequence[Promoted],
) -> dict[int, tuple[Promoted | None, Promoted | None]]:
    """For each labelled heading of ``accepted`` (by its index), the headings of its family
    just before and just after it (None where there is none)."""
    neighbours: dict[int, tuple[Promoted | None, Promoted | None]] = {}
    for members in _families(accepted).values():
        around = [None, *members, None]
        for c, before, after in zip(members, around[:-2], around[2:], strict=True):
            neighbours[c.index] = (before, after)
    return neighbours


def _runs_on(items: Sequence[OutlineItem], before: Promoted, member: Promoted) -> bool:
    """Whether ``member`` goes on from the heading ``before``: its number follows and no
    known heading of their family numbers anew between them (a styled chapter's "一、")."""
    family = before.label.family  # type: ignore[union-attr]
    return (
        member.label.follows(before.label)
        and not any(  # type: ignore[union-attr,arg-type]
            item.kind is ItemKind.HEADING
            and (known := parse_label(item.text)) is not None
            and known.family == family
            for item in items[before.index + 1 : member.index]
        )
    )


def _opening_members(
    items: Sequence[OutlineItem],
    start: int,
    member: Promoted,
    body_size: float,
    look_of: Callable[[int], Look | None] | None,
    taken: set[int],
) -> list[Promoted]:
    """The lines between item ``start`` and ``member`` that open ``member``'s series
    (:func:`open_series`), first to last; none unless they reach its first number."""
    signature = member.look.signature()  # type: ignore[union-attr]
    found: list[Promoted] = []
    following = member.label
    for index in range(member.index - 1, start, -1):
        item = items[index]
        if item.kind is ItemKind.HEADING:
            return []
        label = parse_label(item.text) if item.kind is ItemKind.TEXT else None
        if label is None or following is None or label.family != following.family:
            continue
        if not following.follows(label) or index in taken or item.is_list_item:
            return []
        look = look_at(items, index, look_of)
        title = item.text.strip()
        if look is None or look.signature() != signature:
            return []
        heading = _opening_title(title, label)
        if heading is None:
            return []
        found.append(Promoted(index, heading, look_score(look, body_size), look))
        following = label
        if label.ordinals[-1] == 1:
            return found[::-1]
    return []


def _opening_units(
    items: Sequence[OutlineItem], start: int, member: Promoted, taken: set[int]
) -> list[Promoted]:
    """The lines between item ``start`` and ``member`` that open a named unit's series
    (第一條 … 第十一條 before 第十二條), first to last: each the next continues, back to
    the first number, over the known headings of other units that group them (a law's
    first chapter before its second: :func:`_groups_members`); none unless every line of the
    unit's family on the way is one of them (all, or none), nor past another heading."""
    found: list[Promoted] = []
    following = member.label
    for index in range(member.index - 1, start, -1):
        item = items[index]
        if item.kind is ItemKind.HEADING:
            if not _groups_members(item.text, following):  # type: ignore[arg-type]
                return []
            continue
        label = parse_label(item.text) if item.kind is ItemKind.TEXT else None
        if label is None or label.family != following.family:  # type: ignore[union-attr]
            continue
        if index in taken or not following.follows(label):  # type: ignore[union-attr]
            return []
        found.append(member_heading(index, item, label))  # a unit carries its text
        following = label
        if label.ordinals[-1] == 1:
            return found[::-1]
    return []


def _groups_members(heading: str, member: Label) -> bool:
    """Whether the known ``heading`` groups members of the named unit ``member`` numbers
    (a law's "第二節" or "Chapter 3" over its articles): a heading of another unit, not a
    part outside the series ("Annex 1", "Appendix A", a heading without a unit: its text
    may quote an article, "Article 12 of the Regulation applies")."""
    known = parse_label(heading)
    return (
        known is not None
        and known.family != member.family
        and names_a_unit(known)
        and known.family not in APPENDIX_FAMILIES
        and not names_front_or_back_matter(heading)
    )


def _opening_title(text: str, label: Label) -> HeadingText | None:
    """A series' first member as a title: what the text channel takes for one, or takes
    once its closing full stop is left off (the whole line the title), as short as an
    unnumbered title (:data:`MAX_PLAIN_WORDS`); None for a numbered paragraph or a line no
    title is (a list's number and a tab)."""
    if count_title_words(text) > MAX_PLAIN_WORDS:
        return None
    heading = heading_text(text, markdown=False)
    if heading is None and text[-1:] in _FULL_STOPS and heading_text(text[:-1], markdown=False):
        heading = HeadingText(text, "", label)
    return heading


def fill_between_known(
    items: Sequence[OutlineItem],
    body_size: float,
    look_of: Callable[[int], Look | None] | None,
    taken: set[int],
) -> list[Promoted]:
    """Lines a series needs between two known headings whatever their look: where the
    numbered lines between known headings A and B, in A's family, run on from A's label
    each continuing the one before, and B's label continues the last (6.1 … 6.1.1 … 6.1.2
    styled; 5.3 … 5.3.1, 5.3.2 … 5.4), those lines are the members the author left unstyled
    (a standard setting its titled clauses in the text's look, one of them styled); each that
    the text channel takes for a title is a heading. A numbered sentence in the run ("5.1.1
    一般而言，…：") is a clause, no heading, and still a member. Known headings on both sides
    are the evidence: a numbered list in the body's look breaks the run or never closes it."""
    known = [
        (i, label)
        for i, item in enumerate(items)
        if item.kind is ItemKind.HEADING
        and (label := parse_label(item.text)) is not None
        and label.ordinals
    ]
    added: list[Promoted] = []
    for (start, first), (end, last) in pairwise(known):
        for index in _members_between(items, start, end, first, last):
            found = None if index in taken else candidate_at(items, index, body_size, look_of)
            if found is not None:
                added.append(found)
                taken.add(index)
    return added


def _members_between(
    items: Sequence[OutlineItem], start: int, end: int, first: Label, last: Label
) -> list[int]:
    """The text lines between the known headings at ``start`` (labelled ``first``) and
    ``end`` (``last``) numbered in ``first``'s family, when they run on from ``first`` each
    continuing the one before and ``last`` continues the last of them; else none."""
    if any(items[i].kind is ItemKind.HEADING for i in range(start + 1, end)):
        return []  # an unnumbered known heading between them parts the run
    previous, members = first, []
    for index in range(start + 1, end):
        label = parse_label(items[index].text) if items[index].kind is ItemKind.TEXT else None
        if label is None or label.family != first.family:
            continue
        if not label.follows(previous):
            return []
        members.append(index)
        previous = label
    return members if members and last.follows(previous) else []


def member_heading(index: int, item: OutlineItem, label: Label) -> Promoted:
    """A series member the text channel did not take for a title (a long article): its
    label is the heading and the rest of the line its body."""
    title = item.text.strip()[: len(label.text)].strip()
    return Promoted(index, HeadingText(title, label.rest, label), 0.0, item.look)
