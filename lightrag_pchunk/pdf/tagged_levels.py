"""The heading levels a tagged PDF states, read against the numbering its headings print.

The heading roles (``H1``-``H6``) give the levels, the shallowest used becoming level 1.
A Word document exported with its tags carries its styles' slips, which the printed
numbering shows up. Where the tagged headings number a clean decimal family (chapters 1,
2, 3 … one after another, each "8.2" after the "8" it belongs to), the numbering says the
level a reader sees wherever the tags disagree with it:

- every heading of one depth of the numbering takes the tag level most of them carry: a
  "9" tagged H4 after "8.2" (one paragraph given another style) stands beside "8" again;
- the chapters stand at the top: one unnumbered heading that all of them fall under (a
  preface tagged H1 over chapters tagged H2, a document's title) stands beside them, and
  every heading of the chapters comes up with them. Unnumbered headings that part the
  chapters among them (parts of a book) keep them, as does a labelled one ("Part I").

A heading role on a sentence or a passage is no heading: a paragraph whose text ends as a
sentence does (a CJK full stop, semicolon or comma, or a comma, semicolon or full stop
after more words than a title holds), or that holds a CJK full stop inside, or runs over
``MAX_HEADING_LENGTH`` characters (LightRAG's limit, over which the Word parser keeps a
heading paragraph as text), is text: a standard styles each numbered clause as a heading
("7.4.1 每批产品应…，方可出厂和销售。"), and a report a bulleted passage.

Input: each paragraph's structure role and text. Output: paragraph index -> level.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from lightrag_pchunk.model import MAX_HEADING_LENGTH
from lightrag_pchunk.outline.labels import Label, parse_label
from lightrag_pchunk.outline.lines import MAX_PLAIN_WORDS, count_title_words

#: A heading's structure role, its level in the group.
HEADING_ROLE = re.compile(r"^H([1-6])$")
#: Chapters a numbered family holds, at least, for its numbering to outweigh the tags.
MIN_CHAPTERS = 3
_DECIMAL = "decimal"
#: Marks that end a sentence or a clause of one; a CJK title never ends with them.
_CJK_SENTENCE_END = frozenset("。；，")
_SENTENCE_END = frozenset(".!;,")
#: A CJK full stop or semicolon inside the text: a sentence ending before another.
_INNER_FULL_STOP = re.compile(r"[。；](?=.)")


def tagged_levels(roles: Sequence[str], texts: Sequence[str]) -> dict[int, int]:
    """Paragraph index -> heading level for the heading roles among ``roles`` (one per
    paragraph, ``texts`` their texts), read against their numbering (see the module doc);
    the shallowest level used becomes level 1 (a document tagged from H4 has its top
    headings at H4)."""
    found = {
        index: int(match.group(1))
        for index, role in enumerate(roles)
        if (match := HEADING_ROLE.match(role)) and not reads_as_sentence(texts[index])
    }
    found = _numbered_levels(found, {index: parse_label(texts[index].strip()) for index in found})
    ranks = {level: rank + 1 for rank, level in enumerate(sorted(set(found.values())))}
    return {index: ranks[level] for index, level in found.items()}


def reads_as_sentence(text: str) -> bool:
    """Whether a tagged heading's ``text`` reads as a sentence or a passage (see the
    module doc)."""
    text = " ".join(text.split())
    if not text:
        return False
    if len(text) > MAX_HEADING_LENGTH:
        return True
    if text[-1] in _CJK_SENTENCE_END or _INNER_FULL_STOP.search(text):
        return True
    return text[-1] in _SENTENCE_END and count_title_words(text) > MAX_PLAIN_WORDS


def _numbered_levels(levels: dict[int, int], labels: dict[int, Label | None]) -> dict[int, int]:
    """``levels`` (tag levels by paragraph index, in order) with the numbering's say."""
    numbered = {i: label for i, label in labels.items() if label and label.family == _DECIMAL}
    if not _is_clean_family(list(numbered.values())):
        return levels
    tags: dict[int, Counter[int]] = {}
    for index, label in numbered.items():
        tags.setdefault(label.depth, Counter())[levels[index]] += 1
    # The level most headings of a depth carry; of levels carried as often, the shallowest.
    by_depth = {depth: min(c, key=lambda level: (-c[level], level)) for depth, c in tags.items()}
    depths = sorted(by_depth)
    if any(by_depth[a] >= by_depth[b] for a, b in pairwise(depths)):
        return levels  # the tags nest the depths otherwise: no slip to mend
    levels = dict(levels)
    for index, label in numbered.items():
        levels[index] = by_depth[label.depth]
    return _chapters_on_top(levels, labels, [i for i, lab in numbered.items() if lab.depth == 1])


def _chapters_on_top(
    levels: dict[int, int], labels: dict[int, Label | None], chapters: list[int]
) -> dict[int, int]:
    """``levels`` with the chapters and their headings beside the one unnumbered heading
    over all of them (see the module doc)."""
    top, first, last = levels[chapters[0]], chapters[0], chapters[-1]
    if any(first < index < last and level < top for index, level in levels.items()):
        return levels  # headings over some of the chapters part them
    over = [index for index, level in levels.items() if index < first and level < top]
    if not over or labels[over[-1]] is not None:
        return levels
    parent = levels[over[-1]]
    after = (i for i, level in levels.items() if i > last and level <= parent)
    end = next(after, None)
    # Every heading of the chapters comes up as far as they do, never over the parent.
    shift = top - parent
    return {
        index: max(level - shift, parent)
        if first <= index and (end is None or index < end)
        else level
        for index, level in levels.items()
    }


def _is_clean_family(labels: Sequence[Label]) -> bool:
    """Whether decimal ``labels`` (in order) number chapters one after another, at least
    :data:`MIN_CHAPTERS`, each deeper label after the label of its parent."""
    chapters = [label.ordinals[0] for label in labels if label.depth == 1]
    if len(chapters) < MIN_CHAPTERS:
        return False
    if any(b != a + 1 for a, b in pairwise(chapters)):
        return False
    last: dict[int, tuple[int, ...]] = {}  # the last label's numbers at each depth
    for label in labels:
        numbers = label.ordinals[: label.depth]
        if label.depth > 1 and last.get(label.depth - 1) != numbers[:-1]:
            return False
        last[label.depth] = numbers
    return True
