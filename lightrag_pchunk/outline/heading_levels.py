"""The levels of the lines the smart outline promoted to headings.

Numbered headings nest by family (:class:`~lightrag_pchunk.outline.numbering.FamilyStack`),
below the styled heading they sit under; a family a styled heading uses keeps that
heading's level. An unnumbered heading takes the level the table of contents lists it at,
else the level of the known headings in its look (a line set like the "Heading 1" a
printed contents named sits beside it, not below it; a document's title after the
collection's first, set like its styled or tagged chapters, too) or, where the known
headings are a printed contents' entries, set far larger than the known headings open
above it, the level of the shallowest of them (a part's title on a divider page closes
their sections), else the level that numbered headings of the same look have, else a
level by prominence (larger, bold, caps first); set below the look of a unit's numbered
heading open above it ("ITEM 3." in bold capitals, "Interest Rate Risk" in bold), inside it.

A document's title names the whole document: the headings after it are not its
sub-sections (a Word document's Title style is no heading level, and a PDF's bookmarks
seldom hang every chapter from one). It keeps level 1, opens nothing, and the looks of the
other headings are ranked without it (:func:`document_title`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from lightrag_pchunk.model import MAX_HEADING_LEVEL
from lightrag_pchunk.outline.appendices import appendices_inside
from lightrag_pchunk.outline.family_stack import FamilyStack
from lightrag_pchunk.outline.items import (
    LARGER_BY,
    InferredHeading,
    ItemKind,
    Look,
    OutlineItem,
    Promoted,
)
from lightrag_pchunk.outline.labels import Label, parse_label
from lightrag_pchunk.outline.look_tiers import set_below
from lightrag_pchunk.outline.unit_words import names_a_unit

_DECIMAL = frozenset({"decimal", "annex-decimal"})
#: A first line set twice as large as every other heading or more is set apart from them:
#: the document's title, wherever it stands on its line.
TITLE_SIZE_RATIO = 2.0


def _prominence(signature: tuple[float, bool, bool]) -> tuple[float, bool, bool]:
    size, bold, caps = signature
    return (-size, not bold, not caps)


def assign_levels(
    items: Sequence[OutlineItem],
    accepted: list[Promoted],
    *,
    listed: bool = False,
    in_gaps: frozenset[int] = frozenset(),
) -> list[InferredHeading]:
    """The level of each accepted line (see the module doc). ``listed``: the known headings
    are the entries of a printed table of contents, which names them down to the depth its
    author chose: a line set in the look of one level of them is a heading of that level.
    Headings a file states otherwise (styles, tags) leave out lines for reasons of their
    own, often deeper ones in a look alike. ``in_gaps``: the lines of the stretches the
    styles leave too long; a numbered one there may start the own parts of the heading
    found above it (``FamilyStack``'s ``restarts``: an appendix's "3." again)."""
    by_index = {candidate.index: candidate for candidate in accepted}
    # The labels of the styled headings, read once for both passes.
    styled = {
        i: parse_label(item.text) for i, item in enumerate(items) if item.kind is ItemKind.HEADING
    }
    # A family the styled headings use keeps their level (inferred "1. Einleitung" before a
    # styled "2. Umgang mit dem Tod" at level 1 is level 1 too).
    known: dict[tuple[str, int], int] = {}
    for index, label in styled.items():
        if label is not None:
            known.setdefault(label.key, items[index].level)
    # Pass 1: the levels numbered headings get, to learn which look goes with which level.
    seen: dict[tuple[float, bool, bool], Counter[int]] = {}
    stack = FamilyStack(known)
    for index, item in enumerate(items):
        if item.kind is ItemKind.HEADING:
            if not item.titles_nothing:
                stack.open_fixed(item.level, styled[index])
            continue
        candidate = by_index.get(index)
        if candidate is None or candidate.label is None:
            continue
        level = stack.place(candidate.label)
        if candidate.label.family in _DECIMAL:
            # Unnumbered headings are not placed in this pass: a decimal label with none of
            # its parents open ("9.2" under an unnumbered chapter) tells of a look as deep
            # as its numbers, not of one beside the chapters'.
            level = max(level, candidate.label.depth)
        if candidate.look is not None and candidate.look_score > 0:
            seen.setdefault(candidate.look.signature(), Counter())[level] += 1
    look_levels = {sig: counts.most_common(1)[0][0] for sig, counts in seen.items()}
    title = document_title(items, accepted)
    tiers = _look_tiers([c for c in accepted if c is not title], look_levels)
    known_looks = _known_look_levels(items, listed=listed)
    # Pass 2: every heading in order; unnumbered ones close the numbered levels below them.
    stack = FamilyStack(known)
    open_known: dict[int, float] = {}  # level -> size of the known heading open there
    unit: tuple[int, Look | None] | None = None  # the unit heading open: its level, look
    out: list[InferredHeading] = []
    for index, item in enumerate(items):
        if item.kind is ItemKind.HEADING:
            if not item.titles_nothing:  # a contents' title: nothing nests below it
                stack.open_fixed(item.level, styled[index])
                open_known = {**_above(open_known, item.level), item.level: _size(item.look)}
                if unit is not None and item.level <= unit[0]:
                    unit = None
            continue
        candidate = by_index.get(index)
        if candidate is None:
            continue
        if candidate is title:
            out.append(InferredHeading(index, 1, candidate.heading.title, candidate.heading.body))
            continue
        signature = candidate.look.signature() if candidate.look is not None else None
        # The level the table of contents lists it at says more than its look.
        toc_level = item.toc_level or None
        if candidate.label is not None:
            hint = toc_level or (tiers.get(signature) if candidate.look_score > 0 else None)
            # Set like the unnumbered heading open above it, a numbered one is its sibling
            # ("Abstract", then "1. Introduction"), however plain their look.
            if hint is None and signature is not None:
                hint = _open_look_level(stack, signature)
            level = stack.place(candidate.label, hint, restarts=index in in_gaps)
        elif toc_level is not None:
            level = stack.open_at(toc_level, ("toc", toc_level))
        elif (
            candidate.look_score > 0
            and signature in known_looks
            and (listed or _after_the_known_headings(items, index, known_looks[signature]))
            and not _numbered_on_across(items, styled, index, known_looks[signature])
        ):
            # Set like a known heading, it is one of that level: it may close the deeper
            # known headings before it, and what follows nests below it as below them.
            level = stack.open_at(known_looks[signature], ("look", signature), fixed=True)
            open_known = _above(open_known, level)
        elif listed and (outranked := _outranked_level(open_known, candidate)):
            # Set far larger than the listed headings open above it, it is no part of their
            # sections (a part's title on a divider page): it takes the place of the
            # shallowest of them, and what follows nests below it as below them.
            level = stack.open_at(outranked, ("look", signature), fixed=True)
            open_known = _above(open_known, level)
        else:
            tier = _below_prominent_looks(stack, tiers[signature], tiers)
            if unit is not None and set_below(candidate.look, unit[1]):
                tier = max(tier, unit[0] + 1)  # set below the unit open above: inside it
            level = stack.open_at(tier, ("look", signature))
        if candidate.label is not None and names_a_unit(candidate.label):
            unit = (level, candidate.look)
        elif unit is not None and level <= unit[0]:
            unit = None  # a heading beside the unit or above it closes it
        # A leaflet's many sizes make many tiers; a level past the deepest a heading has
        # (Word's nine) is that deepest one.
        shown = min(level, MAX_HEADING_LEVEL)
        out.append(InferredHeading(index, shown, candidate.heading.title, candidate.heading.body))
    return _with_appendices_inside(items, styled, by_index, out)


def _after_the_known_headings(items: Sequence[OutlineItem], index: int, level: int) -> bool:
    """Whether no known heading (styles, tags) of ``level`` or above follows line ``index``:
    the documents a collection prints after its first, set like its chapters. Before one, a
    line set like them may be a pull quote or a cover line inside a section that goes on;
    only a printed contents' entries say the look is a level throughout."""
    return not any(
        item.kind is ItemKind.HEADING and not item.titles_nothing and item.level <= level
        for item in items[index + 1 :]
    )


def _numbered_on_across(
    items: Sequence[OutlineItem], styled: dict[int, Label | None], index: int, level: int
) -> bool:
    """Whether the known headings number on across line ``index``: the first one after it,
    set deeper than ``level``, continues the last one of its family before it ("2.2" after
    "2.1"). The line then stands inside their section (a pull quote set like the chapters)
    and is no heading of ``level``: that would close a section its own numbering goes on."""
    after = next((i for i in styled if i > index), None)
    label = styled[after] if after is not None else None
    if label is None or items[after].level <= level:
        return False
    before = [
        other for i, other in styled.items() if i < index and other and other.key == label.key
    ]
    return bool(before) and label.follows(before[-1])


def _with_appendices_inside(
    items: Sequence[OutlineItem],
    styled: dict[int, Label | None],
    by_index: dict[int, Promoted],
    out: list[InferredHeading],
) -> list[InferredHeading]:
    """``out`` with the inferred appendices that the body's numbering resumes after moved
    inside the unit they interrupt (:func:`appendices_inside`); styled headings stay."""
    order = sorted([*((i, None) for i in styled), *((h.index, h) for h in out)])
    labels = [styled[i] if h is None else by_index[i].label for i, h in order]
    levels = [items[i].level if h is None else h.level for i, h in order]
    moved = appendices_inside(labels, levels, [h is not None for _, h in order])
    return [
        replace(h, level=level) for (_, h), level in zip(order, moved, strict=True) if h is not None
    ]


#: How many times a known heading's size a line is set in, at least, to stand beside it
#: rather than below it (a part's title on a divider page; a section heading may be set
#: a little larger than its chapter's).
FAR_LARGER = 1.5


def _outranked_level(open_known: dict[int, float], candidate: Promoted) -> int | None:
    """The shallowest level of the open known headings (their sizes by level) that the
    candidate is set far larger than (:data:`FAR_LARGER`), it and every deeper one; None
    when it is set far larger than none (or its size is unknown)."""
    size = _size(candidate.look)
    found = None
    for level in sorted(open_known, reverse=True):
        known = open_known[level]
        if not known or size < FAR_LARGER * known:
            break
        found = level
    return found


def _above(open_known: dict[int, float], level: int) -> dict[int, float]:
    """The known headings that stay open above a heading opened at ``level``."""
    return {lvl: size for lvl, size in open_known.items() if lvl < level}


def _size(look: Look | None) -> float:
    """A line's size in points, 0.0 where its look is unknown: no size to compare."""
    return look.size if look is not None else 0.0


def document_title(items: Sequence[OutlineItem], accepted: Sequence[Promoted]) -> Promoted | None:
    """The accepted line that is the document's title, or None: the document's first line
    (its cover's lines known to title nothing aside: subtitle, date, version), unnumbered,
    in a look more prominent than every other accepted heading's (set larger, or as large
    in bold or capitals), centred, over its cover's other lines or set far larger than
    every other (:data:`TITLE_SIZE_RATIO`), in a document whose own headings (styles, tags,
    bookmarks) are none. Numbered, where another heading shares
    its look, or at the margin over a section of its own, it may be a chapter: it nests
    what follows."""
    if len(accepted) < 2 or any(item.kind is ItemKind.HEADING for item in items):
        return None
    first = next(
        (
            i
            for i, item in enumerate(items)
            if item.kind is not ItemKind.OTHER and not item.titles_nothing
        ),
        None,
    )
    title = min(accepted, key=lambda c: c.index)
    if title.index != first or title.label is not None or title.look is None:
        return None
    cover = title.index + 1 < len(items) and items[title.index + 1].titles_nothing
    rank = _prominence(title.look.signature())
    others = [c.look.signature() for c in accepted if c is not title and c.look is not None]
    if any(_prominence(signature) <= rank for signature in others):
        return None
    # Twice as large as sizes known on every other heading: an unknown size (0) says nothing.
    sizes = [size for size, _, _ in others]
    set_apart = bool(sizes) and all(
        0 < TITLE_SIZE_RATIO * size <= title.look.size for size in sizes
    )
    return title if title.look.centered or cover or set_apart else None


def _known_look_levels(
    items: Sequence[OutlineItem], *, listed: bool
) -> dict[tuple[float, bool, bool], int]:
    """The level of each look the known headings have, where a look says their level:
    every known heading of that look is at that level, and (``listed``: the entries of a
    printed table of contents) every one at that level is in that look, else (styles,
    tags) at least :data:`_LOOK_CONVENTION` of them share it. A look at two levels says
    nothing of a line's level, nor does a level in several looks in a flat table of
    contents listing chapters and sections alike; a document's other headings (styles,
    tags) may set one level in several looks (a title, chapters), each its own."""
    levels: dict[tuple[float, bool, bool], set[int]] = {}
    counts: Counter[tuple[float, bool, bool]] = Counter()
    looks: dict[int, set[tuple[float, bool, bool]]] = {}
    for item in items:
        if item.kind is ItemKind.HEADING and item.look is not None:
            signature = item.look.signature()
            levels.setdefault(signature, set()).add(item.level)
            counts[signature] += 1
            looks.setdefault(item.level, set()).add(signature)
    said: dict[tuple[float, bool, bool], int] = {}
    for signature, found in levels.items():
        level = next(iter(found))
        if len(found) == 1 and (
            len(looks[level]) == 1 if listed else counts[signature] >= _LOOK_CONVENTION
        ):
            said[signature] = level
    return said


#: Known headings (styles, tags) sharing a look, at least, for the look to say their level.
_LOOK_CONVENTION = 3


def _look_tiers(
    accepted: list[Promoted], look_levels: dict[tuple[float, bool, bool], int]
) -> dict[object, int]:
    """The level of each look of the headings: looks are ranked by prominence (larger,
    bold, capitals first) and each goes one level below the previous one, or to the level
    numbered headings of that look have where that agrees with the ranking (it is never
    shallower than a more prominent look's)."""
    signatures = {c.look.signature() for c in accepted if c.look is not None} | set(look_levels)
    steps = _size_steps(signature[0] for signature in signatures)

    def stepped_prominence(signature: tuple[float, bool, bool]) -> tuple[float, bool, bool, float]:
        size, bold, caps = signature
        return (-steps[size], not bold, not caps, -size)  # in a step: bold, capitals, size

    tiers: dict[object, int] = {}
    level = 0
    for signature in sorted(signatures, key=stepped_prominence):
        known = look_levels.get(signature)
        level = known if known is not None and known >= level else level + 1
        tiers[signature] = level
    tiers[None] = max(tiers.values(), default=0) + 1
    return tiers


def _size_steps(sizes: Iterable[float]) -> dict[float, float]:
    """Each size's step: sizes closer than :data:`LARGER_BY` to the next larger one share
    its step, as no line counts as set larger than text that close to its size (a heading
    in small capitals measures smaller than the text it heads); weight and capitals rank
    the looks of one step."""
    steps: dict[float, float] = {}
    larger: float | None = None
    for size in sorted(set(sizes), reverse=True):
        steps[size] = steps[larger] if larger is not None and larger - size < LARGER_BY else size
        larger = size
    return steps


def _open_look_level(stack: FamilyStack, signature: tuple[float, bool, bool]) -> int | None:
    """The level of the open unnumbered heading set in ``signature``, or None."""
    return next(
        (level for level, slot in stack.deepest_first() if slot.key == ("look", signature)), None
    )


def _below_prominent_looks(stack: FamilyStack, tier: int, tiers: dict[object, int]) -> int:
    """The level of a heading whose look ranks at ``tier``: that, or below the deepest
    heading of a more prominent look opened since the last styled heading. A styled
    heading pushes the looks under it below itself; their order among them stays."""
    for level, slot in stack.deepest_first():
        if slot.is_fixed:
            break
        key = slot.key
        if isinstance(key, tuple) and key[:1] == ("look",) and tiers.get(key[1], tier) < tier:
            return max(tier, level + 1)
    return tier


#: A title heading this many top-level sections of one document is a recurring label.
MIN_LABEL_REPEATS = 3


def recurring_labels(
    items: Sequence[OutlineItem], found: Sequence[InferredHeading], unnumbered: set[int]
) -> set[int]:
    """The unnumbered inferred headings whose title heads :data:`MIN_LABEL_REPEATS` or more
    sections at the top of the outline (no heading above them): a document's main sections
    do not share a name, so such lines are run-in labels that recur through it
    ("Examples", "Syntax", "Note") where its real headings went unseen. Deeper down a title
    may recur under parents the outline missed or flattened, so only the top counts. A
    line the table of contents lists is kept."""
    inferred = {h.index: h for h in found}
    open_levels: list[int] = []
    top: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        heading = inferred.get(index)
        if heading is not None:
            level, title = heading.level, heading.title
        elif item.kind is ItemKind.HEADING:
            level, title = item.level, item.text
        else:
            continue
        open_levels = [lvl for lvl in open_levels if lvl < level]
        if not open_levels:
            top.setdefault(" ".join(title.split()).casefold(), []).append(index)
        open_levels.append(level)
    return {
        i
        for indexes in top.values()
        if len(indexes) >= MIN_LABEL_REPEATS
        for i in indexes
        if i in unnumbered and not items[i].in_toc
    }
