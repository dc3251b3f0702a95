"""Numbered lines that number no section: the items of a list, tested on a run of
siblings (lines of one numbering, the same label key, whose numbers follow each other
(1. 2. 3.), adjacent or parted by bulleted items only), and a name's initial read as a
letter label ("S. Radhakrishnan"). The smart outline's tests (``infer.py``); pure functions
of the outline items and the candidates. The reverse too: a numbered line over its own
first part numbers a section, where its numbers do not restart a list inside the section
it stands under (:func:`numbers_a_part`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from lightrag_pchunk.outline.items import ItemKind, OutlineItem, Promoted
from lightrag_pchunk.outline.labels import Label, parse_label
from lightrag_pchunk.outline.lines import continues_sentence, is_bullet_item


def _label_of(
    items: Sequence[OutlineItem], index: int, candidates: dict[int, Promoted]
) -> Label | None:
    candidate = candidates.get(index)
    if candidate is not None:
        return candidate.label
    item = items[index]
    return parse_label(item.text) if item.kind is ItemKind.TEXT else None


def list_items(items: Sequence[OutlineItem], candidates: dict[int, Promoted]) -> set[int]:
    """Indexes of numbered lines that are items of a list: a run of lines with the same
    label key whose numbers follow each other (1. 2. 3.), adjacent or parted by bulleted
    items only (a numbered step's sub-items), where a sibling is a sentence (not a
    candidate), where the short siblings carry no body of their own, or where siblings of
    one name carry their text after it (:func:`_named_steps`)."""
    listed: set[int] = set()
    labels = [_label_of(items, i, candidates) for i in range(len(items))]
    index = 0
    while index < len(items):
        run = [index]
        if labels[index] is not None:
            while (after := _next_member(items, labels, candidates, run[-1])) is not None:
                run.append(after)
        if len(run) >= 2:
            if any(i not in candidates for i in run):
                listed.update(i for i in run if i in candidates)
            else:
                listed.update(_short_items(run, candidates))
                listed.update(_named_steps(run, candidates))
        index = run[-1] + 1
    return listed


def _next_member(
    items: Sequence[OutlineItem],
    labels: Sequence[Label | None],
    candidates: dict[int, Promoted],
    member: int,
) -> int | None:
    """The line after ``member`` (past bulleted items, the short items of a list of another
    numbering nested in it ("1) 目的" under "a) 引言"), and the lower-case lines that go on
    with one) that continues its numbering."""
    after, in_item = member + 1, False
    previous = labels[member]
    while after < len(items) and items[after].kind is ItemKind.TEXT:
        text, label = items[after].text, labels[after]
        in_item = (
            is_bullet_item(text)
            or _is_nested_item(items[after], label, previous, after in candidates)
            or (in_item and not _numbered_like(label, previous) and continues_sentence(text))
        )
        if not in_item:
            break
        after += 1
    label = labels[after] if after < len(items) else None
    if label is None or previous is None or label.key != previous.key:
        return None
    return after if label.follows(previous) else None


def _is_nested_item(
    item: OutlineItem, label: Label | None, member: Label | None, is_candidate: bool
) -> bool:
    """Whether ``item`` (labelled ``label``) is an item of a list nested in the one whose
    ``member`` stands above it: a list item the parser knows, in another numbering, short
    (a candidate title, or a number alone that numbers the member's own part: "2.1" under
    "2"). Long numbered paragraphs between lettered lines are the text of their sections,
    and so are those whose number stands alone on its line ("136." under "(i) Spam")."""
    if not item.is_list_item or label is None or member is None or _numbered_like(label, member):
        return False
    return is_candidate or (not label.rest.strip() and label.follows(member))


def _numbered_like(label: Label | None, member: Label | None) -> bool:
    return label is not None and member is not None and label.key == member.key


def _short_items(run: Sequence[int], candidates: dict[int, Promoted]) -> list[int]:
    """Members of a run of numbered candidates that are items of a list of short lines:
    two or more members in a row with no body of their own and no look ("1. Apples",
    "2. Pears"). A single bare member among members with bodies ("4.职责：" after
    "3.定义：…") is a heading whose body follows."""
    bare = [_is_bare(candidates[i]) for i in run]
    return [
        i
        for k, i in enumerate(run)
        if bare[k] and ((k > 0 and bare[k - 1]) or (k + 1 < len(run) and bare[k + 1]))
    ]


def _named_steps(run: Sequence[int], candidates: dict[int, Promoted]) -> list[int]:
    """Members of a run of numbered candidates that are the steps of a list: two or more
    that carry their text after one name only their numbers tell apart ("1. Stufe: Das
    Individuum …", "2. Stufe: Jenes Handeln …"). Sections that carry their text so have
    names of their own ("1.目的：…", "2.范围：…")."""
    names = {i: _name(candidates[i]) for i in run if candidates[i].heading.body}
    counts = Counter(name for name in names.values() if name)
    return [i for i, name in names.items() if counts[name] >= 2]


def _name(candidate: Promoted) -> str:
    """A numbered title without its number ("1. Stufe" -> "stufe"); "" for a bare label."""
    label, title = candidate.label, candidate.heading.title
    if label is None or not title.startswith(label.text):
        return ""
    return title[len(label.text) :].strip().casefold()


def _is_bare(candidate: Promoted) -> bool:
    return not candidate.heading.body and candidate.look_score < 1


#: Letters that number a part in roman alone ("V. Marketing Plan" may be the fifth part);
#: L, C, D and M alone would be its 50th to 1000th: "M. Plumb" is an initial.
_ROMAN_LETTERS = frozenset("ivxIVX")
_INITIAL = re.compile(r"[A-Za-z]\.")


def is_initial(items: Sequence[OutlineItem], index: int, label: Label, continues: bool) -> bool:
    """Whether line ``index``'s letter label is a name's initial ("S. Radhakrishnan", the
    author under a quotation): a Latin letter and a full stop, not a letter that is a roman
    numeral too, past the first of its alphabet, that continues no member before it
    (``continues``) and that no later line continues (a series "B.", "C.", "D." whose "A."
    the outline left is one)."""
    if label.family not in ("upper", "lower") or continues or label.ordinals == (1,):
        return False
    if not _INITIAL.fullmatch(label.text.strip()) or label.text[:1] in _ROMAN_LETTERS:
        return False
    later = (
        parse_label(item.text) for item in items[index + 1 :] if item.kind is not ItemKind.OTHER
    )
    return not any(other is not None and other.follows(label) for other in later)


def opens_its_first_part(items: Sequence[OutlineItem], index: int, label: Label) -> bool:
    """Whether the text line after item ``index`` (labelled ``label``) opens its first
    part: "3.1. …" under "3. Требования к исходным данным.", "3.1.1. …" under "3.1. …". A
    list's item, or a clause, is followed by its sibling or by text; a section's title by
    its first sub-section."""
    following = next((item for item in items[index + 1 :] if item.kind is ItemKind.TEXT), None)
    part = parse_label(following.text) if following is not None else None
    return (
        part is not None
        and part.family == label.family
        and part.depth == label.depth + 1  # not a unit inserted after it ("2A" after "2")
        and part.ordinals == (*label.ordinals, 1)
    )


def first_part_of(label: Label, above: Label | None) -> bool:
    """Whether ``label`` numbers the first part of the heading labelled ``above``, a unit
    of another family numbered ``n``: "1.1 设计目标" under "第一章 引言", "2.1" under
    "Chapter 2" (one Word list numbering the chapters, then their sections)."""
    return (
        above is not None
        and above.family != label.family
        and above.depth == len(above.ordinals) == 1
        and label.family == "decimal"
        and label.depth == len(label.ordinals) == 2
        and label.ordinals == (above.ordinals[0], 1)
    )


def numbers_a_part(items: Sequence[OutlineItem], index: int, label: Label) -> bool:
    """Whether item ``index`` (labelled ``label``), a list's item or a numbered sentence by
    its look, numbers a section: it opens its own first part (:func:`opens_its_first_part`)
    and its numbers do not go back from those of the styled heading it stands under, unless
    a unit found since ("Appendix 4", a ranked label) numbers its own parts from 1 again.
    "1. Switch off the unit." over "1.1. …" under "9. Maintenance" is a procedure's step:
    a list numbered again inside the section, not the section's parts."""
    if not opens_its_first_part(items, index, label):
        return False
    for item in reversed(items[:index]):
        found = parse_label(item.text) if item.kind is not ItemKind.OTHER else None
        if item.kind is ItemKind.HEADING:
            return found is None or found.family != label.family or found.ordinals < label.ordinals
        if found is not None and found.rank is not None:
            return True
    return True


def titles_after(items: Sequence[OutlineItem], start: int, index: int, label: Label) -> bool:
    """Whether list item ``index`` (labelled ``label``), numbering on from the heading at
    ``start``, is that series' next title: the author typed some titles' labels and let
    the list number others ("(d) Norms" typed, "(e) Rules" numbered). Not when a line
    between them is numbered in its family (a list's "3." after its own "1." and "2.",
    though it numbers on from a chapter "2"), nor when it holds a colon (a clause leading
    in to its value: "5.1. Срок: 24 месяца …")."""
    if ":" in label.rest or "：" in label.rest:
        return False
    return not any(
        (other := parse_label(item.text)) is not None and other.family == label.family
        for item in items[start + 1 : index]
        if item.kind is ItemKind.TEXT
    )
