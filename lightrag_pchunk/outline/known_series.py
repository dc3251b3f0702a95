"""Known headings' numbered series: the members a producer left as text ("CHAPTER 2" tagged
as a paragraph between the headings "CHAPTER 1" and "CHAPTER 3") and the first members left
as text before a known heading numbered past the first ("一、项目概述" bold before the styled
"二、供应商资格"). Known headings tell what the series is, so these read the whole document,
however much of it the rest of the classifier reads."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lightrag_pchunk.outline.candidates import candidate_at
from lightrag_pchunk.outline.items import ItemKind, Look, OutlineItem, Promoted, look_score
from lightrag_pchunk.outline.labels import Label, parse_label
from lightrag_pchunk.outline.numbering import names_front_or_back_matter, roman_in_series


def continue_known_series(
    items: Sequence[OutlineItem],
    body_size: float,
    look_of: Callable[[int], Look | None] | None,
    taken: set[int],
) -> list[Promoted]:
    """Lines a known heading's numbered series needs where the document left them as text:
    after a known heading set apart from the body (bold or larger) whose label has numbers,
    a line before the next known heading that continues its label (:meth:`Label.follows`)
    in the same look (size, weight, capitals), on a line the text channel takes for a
    title. Only known headings whose look the parser gives count: a numbered list in the
    body's look after a numbered heading in it is no heading. The series stays open over
    the known headings under its members (no number: "Board of Directors" under "V.
    REPORTING") and over its own known members ("V." after "IV.", a lone letter read as the
    next roman numeral), so the member after them ("VI. RISK", tagged as text) continues
    it; a heading numbered otherwise, or naming a part outside the series ("Appendix",
    "Glossary"), ends it."""
    starts = {
        index: (label, item.look.signature())
        for index, item in enumerate(items)
        if item.kind is ItemKind.HEADING
        and item.look is not None
        and (label := parse_label(item.text)) is not None
        and label.ordinals
        and look_score(item.look, body_size) >= 1
    }
    added: list[Promoted] = []
    for start, (previous, signature) in starts.items():
        for index in range(start + 1, len(items)):
            item = items[index]
            if item.kind is ItemKind.HEADING:
                known = _read_after(previous, item.text)
                if known is None or not known.follows(previous):
                    if known is not None or names_front_or_back_matter(item.text):
                        break  # the next known heading takes the series over
                    continue
                if starts.get(index) == (known, signature):
                    break  # its own member goes on from here as this one would
                previous = known  # its own member: the series goes on after it
                continue
            if index in taken or item.kind is not ItemKind.TEXT:
                continue
            label = _read_after(previous, item.text)
            if label is None or not label.follows(previous):
                continue
            found = candidate_at(items, index, body_size, look_of)
            if found is None or found.look is None or found.look.signature() != signature:
                continue
            added.append(found)
            taken.add(index)
            previous = label
    return added + _opened_before(items, body_size, look_of, taken)


def _opened_before(
    items: Sequence[OutlineItem],
    body_size: float,
    look_of: Callable[[int], Look | None] | None,
    taken: set[int],
) -> list[Promoted]:
    """A known series' first members left as text before it: a known heading numbered
    past the first ("二、供应商资格" styled), whose earlier numbers stand as lines set apart
    (bold or larger; in its look, where the parser gives it) between it and the known
    heading before it, counting down to the first ("一、项目概述" bold over its text): each
    of them is a member (all, or none); none past a known member ("CP-7 (1)" styled)."""
    added: list[Promoted] = []
    for end, item in enumerate(items):
        known = parse_label(item.text) if item.kind is ItemKind.HEADING else None
        if known is None or known.ordinals[-1:] in ((), (1,)):
            continue
        if item.look is not None and look_score(item.look, body_size) < 1:
            continue
        start = next((i for i in range(end - 1, -1, -1) if items[i].kind is ItemKind.HEADING), -1)
        above = parse_label(items[start].text) if start >= 0 else None
        if above is not None and above.key == known.key:
            continue  # a member of its own stands before it: none is left to open it
        signature, members = item.look.signature() if item.look else None, []
        for index in range(end - 1, start, -1):
            if known.ordinals[-1] == 1:
                break
            label = parse_label(items[index].text) if items[index].kind is ItemKind.TEXT else None
            if index in taken or label is None or label.key != known.key:
                continue
            if not known.follows(label):
                break
            found = candidate_at(items, index, body_size, look_of)
            if found is None or found.look is None or found.look_score < 1:
                break
            if signature is not None and found.look.signature() != signature:
                break
            members.append(found)
            known = label
        if members and known.ordinals[-1] == 1:
            added += members
            taken.update(member.index for member in members)
    return added


def _read_after(previous: Label, text: str) -> Label | None:
    """The label ``text`` starts with, read after ``previous`` ("V." after "IV." is the
    roman five, not the letter V: ``roman_in_series``)."""
    return roman_in_series([previous, parse_label(text)])[1]
