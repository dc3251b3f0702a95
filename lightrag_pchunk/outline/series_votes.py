"""The smart outline's series decided together: the members of one numbering series (one
family and depth, numbers running on, under one parent) are all headings or none, as most
of them read. Where most read as text (sentences, long lines, a lead-in to a list) and the
rules took a lead-in for a title, the members they took for titles alone ("第十七条 劳动合同
应当具备以下条款:" among 95 articles of text; "a） 产品特性信息", "b）…作业指导书：" beside
"d）获得和使用…：温湿度表、…。") are no headings, or, a unit's, take the shape its accepted
siblings have (its label over its text);
where most read as titles, the members the rules left out ("a) 标识" before "b)搬运 c）贮存
…"; a manual's chapters "一、…作业指导书" … "九、…" set as list items) join them, unless
the line ends a sentence or runs on into the next paragraph. The series is the evidence
(``series.py`` completes a series of accepted headings; this is its other direction)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lightrag_pchunk.outline.items import ItemKind, OutlineItem, Promoted
from lightrag_pchunk.outline.labels import Label, parse_label
from lightrag_pchunk.outline.lines import MAX_PLAIN_WORDS, count_title_words, starts_lowercase
from lightrag_pchunk.outline.list_items import opens_its_first_part
from lightrag_pchunk.outline.run_on import runs_on
from lightrag_pchunk.outline.series import member_heading
from lightrag_pchunk.outline.unit_words import names_a_unit

#: Members a series needs for its reading to count.
MIN_MEMBERS = 3
#: Members a series needs to be evidence alone, where none of them is a heading yet.
MIN_ALONE = 4
#: Marks that end a lead-in to what follows ("…以下条款:"): it reads as text.
_LEAD_IN = (":", "：")
#: Marks that end a sentence: such a member never joins as a title.
_SENTENCE_ENDS = tuple("。.!?！？;；")


def settle_series(
    items: Sequence[OutlineItem],
    candidates: dict[int, Promoted],
    accepted: Sequence[Promoted],
    within: Sequence[range] | None = None,
) -> list[Promoted]:
    """``accepted`` with the members of each numbered series decided together (module doc):
    a series of :data:`MIN_MEMBERS` or more that most members read as text, one of them a
    lead-in the rules took for a title (:func:`_lead_in_taken`), keeps none of its titles
    (or gives them its run-in siblings' shape), but one over its own first part ("3." over
    "3.1.") or listed in the contents; one that most read as titles gains the members the
    text channel takes for a title, each standing apart from the next (a list's items one
    under another are a list), where one of them is a heading already, or else where all of
    :data:`MIN_ALONE` or more read as titles, the document has no known heading (its styles
    say what its headings are), no heading stands before the series (it is the document's
    outline, not a list inside a section: "a) 技术评价人员" under "5.4") and none of its
    family outside it (sections numbered alike: "2 Overview", "1. Day 0").
    ``within``: the lines the classifier reads (``infer_outline``); only they are members."""
    taken = {c.index: c for c in accepted}
    read = None if within is None else {i for stretch in within for i in stretch}
    styled = any(item.kind is ItemKind.HEADING for item in items)

    def titled(index: int) -> bool:
        return _reads_as_title(items, taken.get(index) or candidates.get(index))

    for series in _numbered_series(items, taken, titled, read):
        if len(series) < MIN_MEMBERS:
            continue
        titles = [i for i in series if titled(i)]
        if 2 * len(titles) > len(series):
            if not any(i in taken for i in series) and (
                styled
                or len(titles) < max(len(series), MIN_ALONE)
                or any(i < series[0] for i in taken)
                or _family_heads(items, taken, series)
            ):
                continue
            for index in titles:
                if index not in taken and _may_join(items, index, series):
                    taken[index] = candidates[index]
        elif 2 * len(titles) < len(series) and _lead_in_taken(items, taken, series):
            run_in = any(taken[i].heading.body for i in series if i in taken)
            for index in (i for i in series if i in taken and not taken[i].heading.body):
                label = _member_label(items, index)
                if items[index].in_toc or opens_its_first_part(items, index, label):
                    continue  # listed by the document's contents; over its own "3.1."
                if run_in and label.rest and names_a_unit(label):
                    taken[index] = member_heading(index, items[index], label)
                else:
                    del taken[index]
    return sorted(taken.values(), key=lambda c: c.index)


def _numbered_series(
    items: Sequence[OutlineItem],
    taken: dict[int, Promoted],
    titled: Callable[[int], bool],
    read: set[int] | None,
) -> list[list[int]]:
    """The numbered series of ``items``' text lines (``read``: those the classifier reads, or
    all), each as its members' indexes: lines of one family, depth and series whose numbers
    run on (one number may be missing: a member run into the line before), the outermost
    first. A list opened inside a member (its
    numbers from 1 again) is a series of its own, skipped by the one around it; a known or
    accepted heading between two members ends the series when it continues a heading
    before the series (its parent's next sibling: 7.5.2 after the a), b) of 7.5.1). A line
    that would go on from both the list inside and the series around it belongs to the one
    it reads like (``titled``: 五、…作业指导书 after a list's 四、…。 inside 四、…作业指导书)."""
    labels = {
        i: label
        for i, item in enumerate(items)
        if item.kind is ItemKind.TEXT
        and (read is None or i in read)
        and (label := parse_label(item.text)) is not None
    }
    headings = _headings(items, taken)
    by_key: dict[tuple, list[int]] = {}
    for index, label in labels.items():
        by_key.setdefault((label.family, label.depth, label.series), []).append(index)
    found: list[list[int]] = []
    for members in by_key.values():
        claimed: set[int] = set()
        for start, first in enumerate(members):
            if first in claimed:
                continue
            series = [first]
            claimed.add(first)
            position = start + 1
            while position < len(members):
                index = members[position]
                if index in claimed or _parted(headings, first, series[-1], index):
                    break
                label, last = labels[index], labels[series[-1]]
                if _goes_on(label, last):
                    series.append(index)
                    claimed.add(index)
                    position += 1
                elif label.ordinals[-1] == 1 and label.ordinals[:-1] == last.ordinals[:-1]:
                    # a list inside, skipped
                    position = _after_run(members, labels, position, series[-1], titled)
                else:
                    break
            found.append(series)
    return found


def _headings(
    items: Sequence[OutlineItem], taken: dict[int, Promoted]
) -> list[tuple[int, Label | None]]:
    """The known and accepted headings, with their labels, in document order."""
    known = [i for i, item in enumerate(items) if item.kind is ItemKind.HEADING]
    return [(i, parse_label(items[i].text)) for i in sorted({*known, *taken})]


def _parted(headings: list[tuple[int, Label | None]], first: int, last: int, index: int) -> bool:
    """Whether a heading between members ``last`` and ``index`` of the series that opens at
    ``first`` parts them: one with no label, or of a family a heading before ``first``
    numbers too (a list's own headings, opened inside a member, part nothing)."""
    before = {label.family for at, label in headings if at < first and label is not None}
    return any(
        label is None or label.family in before for at, label in headings if last < at < index
    )


def _goes_on(label: Label, last: Label) -> bool:
    """Whether ``label`` continues ``last`` at its depth, or would with one member between."""
    if label.depth != last.depth:
        return False
    if label.follows(last):
        return True
    return (
        label.family != "decimal"  # a section's number is never run into the line before
        and label.ordinals[:-1] == last.ordinals[:-1]
        and label.ordinals[-1] == last.ordinals[-1] + 2
        and not (label.inserted or last.inserted)
    )


def _after_run(
    members: list[int],
    labels: dict[int, Label],
    position: int,
    outer: int,
    titled: Callable[[int], bool],
) -> int:
    """The position after the run of members that opens at ``position``, inside a series
    whose last member is ``outer``: a member that goes on from ``outer``, its number written
    as ``outer``'s ("五、" after "四、", not "3." after "2") and reads like it, unlike the
    run's member before it, ends the run."""
    position += 1
    while position < len(members):
        index, before = members[position], members[position - 1]
        if not labels[index].follows(labels[before]):
            break
        ends = _goes_on(labels[index], labels[outer]) and _marks(labels[index]) == _marks(
            labels[outer]
        )
        if ends and titled(index) == titled(outer) != titled(before):
            break
        position += 1
    return position


def _lead_in_taken(
    items: Sequence[OutlineItem], taken: dict[int, Promoted], series: list[int]
) -> bool:
    """Whether the rules took a member of ``series`` that leads into a list with a colon
    for a heading: the sign that they read a list's sentences as titles. A series of
    sections ("1.目的：", "2.范围：…", "3.职责：") keeps its titles whatever most read as:
    a standard's untitled clauses stand beside its titled ones."""
    if _member_label(items, series[0]).family == "decimal":
        return False
    return any(i in taken and items[i].text.rstrip().endswith(_LEAD_IN) for i in series)


def _family_heads(
    items: Sequence[OutlineItem], taken: dict[int, Promoted], series: list[int]
) -> bool:
    """Whether a known or accepted heading outside ``series`` is numbered in its family."""
    family = _member_label(items, series[0]).family
    return any(
        label is not None and label.family == family
        for i, label in _headings(items, taken)
        if i not in series
    )


def _marks(label: Label) -> str:
    """The marks a label writes around its number ("、", ".", "()"), its number left out."""
    return "".join(ch for ch in label.text if not ch.isalnum() and not ch.isspace())


def _reads_as_title(items: Sequence[OutlineItem], candidate: Promoted | None) -> bool:
    """Whether a member reads as a title: the text channel takes it for one with no text
    of its own after it, and it leads into nothing with a colon, unless set apart from the
    text (bold, larger) as a title of a few words ("3、业务综合辅助服务：" over its parts)."""
    if candidate is None or candidate.heading.body:
        return False
    if not items[candidate.index].text.rstrip().endswith(_LEAD_IN):
        return True
    return candidate.look_score >= 1 and count_title_words(candidate.heading.title) <= (
        MAX_PLAIN_WORDS
    )


def _may_join(items: Sequence[OutlineItem], index: int, series: list[int]) -> bool:
    """Whether a member a series of titles needs may join it: it stands apart from the
    members next to it and its number goes on from the one before it or into the one after
    (one missing beside it leaves it in doubt), no sentence ends it nor does it start in
    lower case, it runs on into no paragraph, and its parser does not know it heads
    nothing."""
    item = items[index]
    if index - 1 in series or index + 1 in series or item.titles_nothing:
        return False
    if not _continued(items, index, series):
        return False  # "(b) Descriptiveness" after "(b)", before "(d)": which member?
    if item.text.strip().endswith(_SENTENCE_ENDS) or starts_lowercase(
        _member_label(items, index).rest
    ):
        return False
    return not runs_on(items, index, MAX_PLAIN_WORDS)


def _continued(items: Sequence[OutlineItem], index: int, series: list[int]) -> bool:
    """Whether member ``index`` of ``series`` goes on from the member before it or the one
    after it goes on from it, with no number missing between them."""
    at = series.index(index)
    label = _member_label(items, index)
    return (at > 0 and label.follows(_member_label(items, series[at - 1]))) or (
        at + 1 < len(series) and _member_label(items, series[at + 1]).follows(label)
    )


def _member_label(items: Sequence[OutlineItem], index: int) -> Label:
    """The label of a series' member ``index`` (each has one: :func:`_numbered_series`)."""
    return parse_label(items[index].text)  # type: ignore[return-value]
