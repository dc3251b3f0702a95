"""The smart outline: which unstyled lines of a document are headings, and at which level.

Input: the document's body as :class:`OutlineItem` s in reading order (paragraph lines with
their look, styled headings, and other content such as tables), and the body text size.
Output: one :class:`InferredHeading` per line promoted to a heading. Pure: the parsers
(.docx, Markdown) gather the items, this decides, and they build their blocks from it.

Evidence, per line that the text channel (:func:`~lightrag_pchunk.outline.lines.heading_text`)
allows at all:

- numbering: a label (第三章, 1.2, 一、, Article 5 …); sequence continuity with the previous
  heading of its family (1.1 -> 1.2, 第三条 -> 第四条) counts in its favour;
- the look: bold, larger than the body text, centred, all capitals;
- what follows: body text, a table or a deeper numbered line. A line followed by a sibling
  of its own list with no text between, or whose list siblings are sentences, is a list
  item, not a heading.

A numbered line needs its number plus one more piece of evidence (look, body after it, or
continuity); a Word list item also needs the look unless it names a unit (第X条, Article N).
An unnumbered line needs the look and body text after it, and at most 12 words; where some
headings are set larger than the text, a line only bold at the text's size is a label. The
decisions that rest on weak evidence alone may be put to a language model (``judge``).

Levels: numbered headings nest by family (:class:`~lightrag_pchunk.outline.numbering.
FamilyStack`), below the styled heading they sit under; an unnumbered heading takes the level
that numbered headings of the same look have, else a level by prominence (larger, bold, caps
first).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lightrag_pchunk.outline.judge import Candidate
from lightrag_pchunk.outline.labels import Label, parse_label
from lightrag_pchunk.outline.lines import HeadingText, cjk_count, heading_text, starts_lowercase
from lightrag_pchunk.outline.numbering import FamilyStack

#: How much larger than the body text (points) a line must be to count as larger.
LARGER_BY = 1.0
#: Longest unnumbered heading, in words (CJK characters count as half a word).
MAX_PLAIN_WORDS = 12
#: A whole-line bold or larger run counts as the look; centring and capitals add to it.
_LOOK_NEEDED = 1.0


class ItemKind(enum.Enum):
    """What one item of the body is."""

    TEXT = "text"  # a body paragraph line: may become a heading
    HEADING = "heading"  # a heading already known (a style says so)
    OTHER = "other"  # body content that is not a candidate: tables, equations, boxes


@dataclass(frozen=True, slots=True)
class Look:
    """How a line is formatted: whole-line bold, its size in points (0 = unknown),
    centred, all capitals."""

    bold: bool = False
    size: float = 0.0
    centered: bool = False
    caps: bool = False

    def signature(self) -> tuple[float, bool, bool]:
        """What makes two headings look alike: size (to half a point), bold, capitals."""
        return (round(self.size * 2) / 2, self.bold, self.caps)


@dataclass(slots=True)
class OutlineItem:
    """One item of the body in reading order.

    ``level`` is a HEADING's known level (1-9); ``look`` is set for TEXT lines when the
    parser can see formatting; ``is_list_item`` marks a line numbered by a Word list
    (its label was rendered by the list, not typed).
    """

    kind: ItemKind
    text: str = ""
    level: int = 0
    look: Look | None = None
    is_list_item: bool = False


@dataclass(frozen=True, slots=True)
class InferredHeading:
    """A line promoted to a heading: item ``index``, its ``level``, the heading ``title``
    and the ``body`` text that followed the title on the same line ("" when none)."""

    index: int
    level: int
    title: str
    body: str


@dataclass(slots=True)
class _Candidate:
    index: int
    heading: HeadingText
    look_score: float
    look: Look | None

    @property
    def label(self) -> Label | None:
        return self.heading.label


def look_score(look: Look | None, body_size: float) -> float:
    """Evidence from formatting: bold 1, larger 1 (+0.5 when 3 pt larger or more),
    capitals 0.5, centring 0.5 (only beside another sign: centred body text is common)."""
    if look is None:
        return 0.0
    score = 0.0
    larger = body_size > 0 and look.size >= body_size + LARGER_BY
    if look.bold:
        score += 1.0
    if larger:
        score += 1.0 + (0.5 if look.size >= body_size + 3 else 0.0)
    if look.caps:
        score += 0.5
    if look.centered and score > 0:
        score += 0.5
    return score


def _words(text: str) -> float:
    """Words of a title: space-separated tokens, a run of CJK characters counting two
    characters to a word instead of one token."""
    cjk = cjk_count(text)
    return len(text.split()) - (1 if cjk else 0) + cjk / 2


def infer_outline(
    items: Sequence[OutlineItem],
    body_size: float = 0.0,
    look_of: Callable[[int], Look | None] | None = None,
    judge: Judge | None = None,
) -> list[InferredHeading]:
    """The lines of ``items`` that are headings, with their levels (see the module doc).

    ``look_of(index)`` gives the look of a TEXT item whose ``look`` is None, asked only for
    lines the text channel allows (formatting is the costly part to read). ``judge`` gets
    the candidates the rules could not settle (weak evidence only) and returns verdicts by
    candidate key (item index) for those it has an opinion on.
    """
    candidates = _candidates(items, body_size, look_of)
    accepted = _accept(items, candidates, body_size, judge)
    return _assign_levels(items, accepted)


def _candidates(
    items: Sequence[OutlineItem],
    body_size: float,
    look_of: Callable[[int], Look | None] | None,
) -> dict[int, _Candidate]:
    found: dict[int, _Candidate] = {}
    for index, item in enumerate(items):
        if item.kind is not ItemKind.TEXT:
            continue
        heading = heading_text(item.text, markdown=False, lowercase=True)
        if heading is not None:
            look = item.look
            if look is None and look_of is not None:
                look = look_of(index)
            found[index] = _Candidate(index, heading, look_score(look, body_size), look)
    return found


def _label_of(
    items: Sequence[OutlineItem], index: int, candidates: dict[int, _Candidate]
) -> Label | None:
    candidate = candidates.get(index)
    if candidate is not None:
        return candidate.label
    item = items[index]
    return parse_label(item.text) if item.kind is ItemKind.TEXT else None


def _list_items(items: Sequence[OutlineItem], candidates: dict[int, _Candidate]) -> set[int]:
    """Indexes of numbered lines that are items of a list: a run of adjacent lines with the
    same label key whose numbers follow each other (1. 2. 3.), where a sibling is a sentence
    (not a candidate), or where the short siblings carry no body of their own."""
    listed: set[int] = set()
    labels = [_label_of(items, i, candidates) for i in range(len(items))]
    index = 0
    while index < len(items):
        end = index + 1
        if labels[index] is not None:
            while (
                end < len(items)
                and labels[end] is not None
                and labels[end].key == labels[index].key
                and labels[end].follows(labels[end - 1])
            ):
                end += 1
        run = range(index, end)
        if len(run) >= 2:
            if any(i not in candidates for i in run):
                listed.update(i for i in run if i in candidates)
            else:
                listed.update(_short_items(run, candidates))
        index = end
    return listed


def _short_items(run: range, candidates: dict[int, _Candidate]) -> list[int]:
    """Members of a run of numbered candidates that are items of a list of short lines:
    two or more adjacent ones with no body of their own and no look ("1. Apples",
    "2. Pears"). A single bare member among members with bodies ("4.职责：" after
    "3.定义：…") is a heading whose body follows."""
    bare = {i for i in run if not candidates[i].heading.body and candidates[i].look_score < 1}
    return [i for i in sorted(bare) if i - 1 in bare or i + 1 in bare]


def _followed_by_content(
    items: Sequence[OutlineItem], candidates: dict[int, _Candidate], index: int
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


def _is_larger(candidate: _Candidate, body_size: float) -> bool:
    look = candidate.look
    return look is not None and body_size > 0 and look.size >= body_size + LARGER_BY


Judge = Callable[[list[Candidate]], dict[int, bool]]


def _accept(
    items: Sequence[OutlineItem],
    candidates: dict[int, _Candidate],
    body_size: float,
    judge: Judge | None = None,
) -> list[_Candidate]:
    """The candidates that are headings. Decisions that rest on weak evidence alone are
    ambiguous; ``judge`` (a language model, when asked for) may overturn those."""
    listed = _list_items(items, candidates)
    # Where some headings are set larger than the text, a line that is only bold (or in
    # capitals) at the text's size is a run-in label ("Note", "Examples"), not a heading;
    # a document whose only emphasis is bold uses it for its headings.
    has_larger_tier = any(
        _is_larger(c, body_size) and c.look is not None and c.look.bold
        for i, c in candidates.items()
        if i not in listed
    )
    decisions: dict[int, bool] = {}
    ambiguous: list[int] = []
    last_by_family: dict[str, Label] = {}
    for index in sorted(candidates):
        candidate = candidates[index]
        label = candidate.label
        previous = last_by_family.get(label.family) if label is not None else None
        continues = previous is not None and label is not None and label.follows(previous)
        if index in listed and not (continues and _is_structural(label)):
            continue
        follows = _followed_by_content(items, candidates, index)
        score = candidate.look_score
        if label is not None:
            is_unit = label.family.startswith(("legal-", "keyword-"))
            strong = score >= _LOOK_NEEDED or bool(candidate.heading.body) or continues
            evidence = strong or follows
            if starts_lowercase(label.rest):
                # "a) the operator shall": usually a list item; an identifier after a
                # section number ("5.2.1 tosca_definitions") needs the look or continuity.
                evidence = strong = score >= _LOOK_NEEDED or continues
                if follows and not evidence:
                    ambiguous.append(index)
            if items[index].is_list_item and not is_unit and score < 1:
                evidence = strong = False
            if evidence and not strong:
                ambiguous.append(index)  # a number and body text after it, nothing else
        else:
            needed = _LOOK_NEEDED * (2 if starts_lowercase(candidate.heading.title) else 1)
            evidence = (
                score >= needed
                and follows
                and _words(candidate.heading.title) <= MAX_PLAIN_WORDS
                and not _same_look_run(items, candidates, index)
            )
            is_label = has_larger_tier and not (
                _is_larger(candidate, body_size) and candidate.look.bold  # type: ignore[union-attr]
            )
            if evidence and (is_label or score < 2 * _LOOK_NEEDED):
                ambiguous.append(index)  # bold (or capitals) at text size
            evidence = evidence and not is_label
        decisions[index] = evidence
        if evidence and label is not None:
            last_by_family[label.family] = label
    if judge is not None and ambiguous:
        questions = [_question(items, i, candidates[i]) for i in ambiguous]
        asked = set(ambiguous)
        for index, verdict in judge(questions).items():
            if index in asked:  # an answer about anything else is not the model's to give
                decisions[index] = verdict
    return [candidates[i] for i in sorted(decisions) if decisions[i]]


def _question(items: Sequence[OutlineItem], index: int, candidate: _Candidate) -> Candidate:
    before = items[index - 1].text if index > 0 else ""
    after = items[index + 1].text if index + 1 < len(items) else ""
    return Candidate(index, items[index].text, before, after)


def _is_structural(label: Label | None) -> bool:
    """A label whose numbers place it in the document's outline, not in a list: a decimal
    or annex number of two levels or more (2.1, A.3.2) or a named unit (第三条, Article 4)."""
    if label is None:
        return False
    if label.family in ("decimal", "annex-decimal"):
        return label.depth >= 2
    return label.family.startswith(("legal-", "keyword-"))


def _same_look_run(
    items: Sequence[OutlineItem], candidates: dict[int, _Candidate], index: int
) -> bool:
    """An unnumbered line next to another unnumbered candidate formatted the same way is
    part of a run of emphasised lines (a signature block, a list in bold), not a heading."""
    look = candidates[index].look
    for other in (index - 1, index + 1):
        neighbour = candidates.get(other)
        if neighbour is not None and neighbour.label is None and neighbour.look == look:
            return True
    return False


def _prominence(signature: tuple[float, bool, bool]) -> tuple[float, bool, bool]:
    size, bold, caps = signature
    return (-size, not bold, not caps)


def _assign_levels(
    items: Sequence[OutlineItem], accepted: list[_Candidate]
) -> list[InferredHeading]:
    by_index = {candidate.index: candidate for candidate in accepted}
    # Pass 1: the levels numbered headings get, to learn which look goes with which level.
    seen: dict[tuple[float, bool, bool], Counter[int]] = {}
    stack = FamilyStack()
    for index, item in enumerate(items):
        if item.kind is ItemKind.HEADING:
            stack.open_fixed(item.level, parse_label(item.text))
            continue
        candidate = by_index.get(index)
        if candidate is None or candidate.label is None:
            continue
        level = stack.place(candidate.label)
        if candidate.look is not None and candidate.look_score > 0:
            seen.setdefault(candidate.look.signature(), Counter())[level] += 1
    look_levels = {sig: counts.most_common(1)[0][0] for sig, counts in seen.items()}
    tiers = _look_tiers(accepted, look_levels)
    # Pass 2: every heading in order; unnumbered ones close the numbered levels below them.
    stack = FamilyStack()
    out: list[InferredHeading] = []
    for index, item in enumerate(items):
        if item.kind is ItemKind.HEADING:
            stack.open_fixed(item.level, parse_label(item.text))
            continue
        candidate = by_index.get(index)
        if candidate is None:
            continue
        signature = candidate.look.signature() if candidate.look is not None else None
        if candidate.label is not None:
            hint = tiers.get(signature) if candidate.look_score > 0 else None
            level = stack.place(candidate.label, hint)
        else:
            level = stack.open_at(tiers[signature], ("look", signature))
        out.append(InferredHeading(index, level, candidate.heading.title, candidate.heading.body))
    return out


def _look_tiers(
    accepted: list[_Candidate], look_levels: dict[tuple[float, bool, bool], int]
) -> dict[object, int]:
    """The level of each look of the headings: looks are ranked by prominence (larger,
    bold, capitals first) and each goes one level below the previous one, or to the level
    numbered headings of that look have where that agrees with the ranking (it is never
    shallower than a more prominent look's)."""
    signatures = {c.look.signature() for c in accepted if c.look is not None}
    tiers: dict[object, int] = {}
    level = 0
    for signature in sorted(signatures | set(look_levels), key=_prominence):
        known = look_levels.get(signature)
        level = known if known is not None and known >= level else level + 1
        tiers[signature] = level
    tiers[None] = max(tiers.values(), default=0) + 1
    return tiers
