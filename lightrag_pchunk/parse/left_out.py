"""Stage A, for a file that states its outline down to some depth (a PDF's bookmarks): which
of the headings the smart outline infers that outline left out.

Input: the events of the document (the stated headings marked at their level), the
headings the classifier inferred in its stretches, and the body text size. Output: the
inferred headings to keep (:func:`left_out_headings`).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.model import MAX_HEADING_LEVEL
from lightrag_pchunk.outline.infer import InferredHeading, long_stretches
from lightrag_pchunk.outline.items import ItemKind, OutlineItem, is_larger_than_text
from lightrag_pchunk.outline.labels import Label, parse_label
from lightrag_pchunk.outline.section_names import names_back_matter
from lightrag_pchunk.parse.outline_events import Event, EventKind

#: Dot leaders: a table-of-contents entry, never a heading.
_LEADERS = re.compile(r"\.{4,}|…{2,}")


def left_out_headings(
    events: Sequence[Event],
    inferred: dict[int, InferredHeading],
    body_size: float,
    bare_words: float | None = None,
) -> dict[int, InferredHeading]:
    """The inferred headings that the outline a file states down to some depth leaves out,
    set apart from the text (bold or larger), once in the document (a title printed again
    and again is a running title) and no table-of-contents entry:

    - every one in a stretch the stated outline leaves bare, more than ``bare_words``
      words of text without a stated heading (a book's front matter before its first
      bookmark: title page, preface, foreword; a chapter whose sections no bookmark
      names), nested below the stated heading over it in the order of the classifier's
      levels, as a styled Word document's long stretches are filled (None: no stretch
      is bare); one numbered on in a stated series ("2.2" after the stated "2.1") takes
      the series' level, and those after it nest below it;

    - numbered in a family none of its headings uses, below its headings (deeper levels)
      or after them ("AC-2" under bookmarks "1.0", "Access Control"; "Appendix A" after
      "3.1.1"), never before the first (a title page's "Part 1: General Requirements");
    - numbered in a family its headings use, at a depth they reach, where the number fills
      a gap of their series: it continues the member before it, and the stated member
      after it continues it ("2.2" between the bookmarks "2.1" and "3"; "III" after the
      last bookmark "II"). Any other line in the stated numbering is text (a numbered
      paragraph, a list; "2.1" under bookmarks that stop at "1" and "2": the author chose
      the headings of that numbering), and so is one that a later title numbered as it
      stands between it and that stated member (a contract's clause "1." before its
      annex's "1." that the bookmark "2." continues: the member nearest fills the gap; a
      list's item or a sentence opening on that number, in the text's look, is no title).

    A line numbered as the member read before it repeats that section's number: text.
    Outside a bare stretch an unnumbered line is never added: where the stated outline
    leaves one out among its headings, its author chose to (a news item's headline, a
    notice on the title page, a table's caption). Back matter is the exception: a paper's
    "References" or "Acknowledgements" after the first stated heading is a part of the
    whole document, at the stated outline's top level, wherever it stands (LaTeX's starred
    sections make no bookmark, so a paper's bookmarks end at its last numbered section).
    """
    stated = [index for index, event in enumerate(events) if event.level]
    if not stated:
        return inferred
    bare = _bare_stretches(events, bare_words) if bare_words is not None else []
    printed = Counter(" ".join(heading.title.split()) for heading in inferred.values())
    candidates: dict[int, InferredHeading] = {}
    for index, heading in inferred.items():
        look = events[index].look
        seen = look() if look is not None else None
        set_apart = seen is not None and (seen.bold or is_larger_than_text(seen, body_size))
        if (
            set_apart
            and printed[" ".join(heading.title.split())] == 1
            and not _LEADERS.search(heading.title)
        ):
            candidates[index] = heading
    labels = {i: label for i in stated if (label := parse_label(events[i].heading)) is not None}
    members: dict[str, list[int]] = {}
    depth: Counter[str] = Counter()  # the deepest stated member of each family
    for index in sorted(labels):
        members.setdefault(labels[index].family, []).append(index)
        depth[labels[index].family] = max(depth[labels[index].family], labels[index].depth)
    # The family's member read last, stated or kept, and its heading level.
    last: dict[str, tuple[Label, int]] = {}
    kept: dict[int, InferredHeading] = {}
    numbered = {
        i: label for i, h in candidates.items() if (label := parse_label(h.title)) is not None
    }
    for index in sorted(set(numbered) | set(labels)):
        if any(index in stretch for stretch in bare) and numbered[index].family not in members:
            continue  # kept below with every heading of its stretch
        if index in labels:
            last[labels[index].family] = (labels[index], events[index].level)
            continue
        label = numbered[index]
        before, before_level = last.get(label.family, (None, 0))
        if before is not None and label.repeats(before):
            # A line of that section ("CM-8 Control Requirement(s)" in "CM-8 System
            # Component Inventory"): a number names one section.
            continue
        family = members.get(label.family)
        if family is None and index < stated[0]:
            continue  # before the stated outline: a title page's line ("第 1 部分：通用要求")
        if family is not None:
            if label.depth > depth[label.family]:
                continue
            after = bisect.bisect(family, index)
            following = labels[family[after]] if after < len(family) else None
            if not _fills_gap(label, before, following):
                continue
            if following is not None and _numbered_again(numbered, label, index, family[after]):
                continue
            # A member of the stated series stands at its members' level, as deep below
            # the one read before it (or the stated one after it) as its number is.
            if before is not None:
                level = before_level + label.depth - before.depth
            else:
                level = events[family[after]].level + label.depth - following.depth
            candidates[index] = replace(candidates[index], level=max(level, 1))
        kept[index] = candidates[index]
        last[label.family] = (label, candidates[index].level)
    series = dict(kept)
    for stretch in bare:
        kept.update(_nested_below(events, stretch, candidates, series))
    top = min(events[index].level for index in stated)
    for index, heading in candidates.items():
        if index > stated[0] and index not in numbered and names_back_matter(heading.title):
            kept[index] = replace(heading, level=top)
    return dict(sorted(kept.items()))


def _nested_below(
    events: Sequence[Event],
    stretch: range,
    candidates: dict[int, InferredHeading],
    series: dict[int, InferredHeading],
) -> dict[int, InferredHeading]:
    """The candidates inside ``stretch``, nested below the heading over them: the stated
    one over the stretch (none before the first), or a member of a stated series inside it
    (``series``, at its series' level: "2.2" after the stated "2.1" is its sibling, not its
    child); the classifier's levels among them kept in their order, the shallowest one
    level below that heading, each deeper one a level further."""
    members = sorted(index for index in series if index in stretch)
    nested: dict[int, InferredHeading] = {}
    for start, stop in itertools.pairwise([stretch.start, *members, stretch.stop]):
        inside = {
            index: heading
            for index, heading in candidates.items()
            if start <= index < stop and index not in series
        }
        if start in series:
            over = series[start].level
        else:
            over = events[start - 1].level if start > 0 else 0
        steps = sorted({heading.level for heading in inside.values()})
        placed = {
            level: min(over + rank + 1, MAX_HEADING_LEVEL) for rank, level in enumerate(steps)
        }
        nested.update({index: replace(h, level=placed[h.level]) for index, h in inside.items()})
    return nested


def _bare_stretches(events: Sequence[Event], words: float) -> list[range]:
    """The stretches of ``events`` between stated headings (and before the first one) that
    hold more than ``words`` words of text (tables of contents and other lines not
    counted): the styles' long stretches (``long_stretches``), the stated headings for the
    styled ones."""
    return long_stretches([OutlineItem(_kind(event), event.line.text) for event in events], words)


def _kind(event: Event) -> ItemKind:
    """What ``event`` is to the outline: a stated heading, text, or another line."""
    if event.level:
        return ItemKind.HEADING
    return ItemKind.TEXT if event.kind is EventKind.PARAGRAPH else ItemKind.OTHER


def _fills_gap(label: Label, before: Label | None, after: Label | None) -> bool:
    """Whether ``label`` continues ``before``, the member of its family read before it
    (none: it is a first, 1 or 1.1), and ``after``, the stated member after it, continues
    it (none: it may go on past the stated outline's last member)."""
    if before is not None:
        if not label.follows(before):
            return False
    elif any(ordinal != 1 for ordinal in label.ordinals):
        return False
    return after is None or after.follows(label)


def _numbered_again(numbered: dict[int, Label], label: Label, start: int, end: int) -> bool:
    """Whether a candidate heading after event ``start`` and before event ``end`` is
    numbered (``numbered``: the candidates' labels) as ``label`` (the same family, series
    and numbers)."""
    return any(start < i < end and again.repeats(label) for i, again in numbered.items())
