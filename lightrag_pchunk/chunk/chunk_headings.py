"""What stage E writes in a chunk's heading fields: the path a block declares, and for a
chunk of several sections their common parent with the span of its children it holds.

A chunk that starts at a section and holds only what lies below it declares that section.
One joined from sibling sections declares their deepest common parent with the span,
``4 权责 (4.1–4.3)`` (labels where both ends are numbered in one series, else titles), at
the parent's level; sections at the top, with no common parent, the span alone:
``1.目的 – 3.职责``. The parent alone would claim the whole section; the first section's
heading would claim the chunk is that section; the span keeps the path one of the outline
and says where the text comes from. An end that holds one part of a section cut into
several says which: ``V2 (Requirements [part 2] – References)``.
``chunk/breadcrumbs.py`` checks what these promise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from lightrag_pchunk.chunk.blocks import common_path
from lightrag_pchunk.chunk.part_numbers import with_part
from lightrag_pchunk.model import Block
from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.lines import is_series_label

#: Between the two ends of a span: tight between labels of one word (4.1–4.3), spaced where
#: an end holds a space: titles, a part, a label of words ("Note 2 – Note 3").
SPAN_DASH = "–"
#: Longest title at one end of a span, in characters.
MAX_SPAN_END = 40
_BULLETS = frozenset("•◦▪▫‣⁃●○■□◆◇►▶▷➢➤")
#: A label that is all one pair of brackets: "(c)", "（三）".
_BRACKETED = re.compile(r"[(（][^()（）]+[)）]")


def short_name(heading: str) -> str:
    """How a span names a heading: its numbering label (``4.1``, ``第三条``, ``AC-2``, ``c``
    for ``c)``) when it has one, else the heading itself."""
    label = parse_label(without_bullet(heading))
    if label is None:
        return heading.strip()
    text = label.text.strip().rstrip(".．、:：").strip()
    if text[-1:] in (")", "）") and not any(mark in text for mark in "(（"):
        # "c)": the span's own parenthesis closes after its ends, so a label's lone closing
        # one would leave the span's open: "Works trials (c–f)".
        text = text[:-1].rstrip()
    elif _BRACKETED.fullmatch(text):
        # "(c)": inside the span's own parentheses a label in brackets doubles them,
        # "((c)–(e))"; "(c–e)" reads as the list's items c to e.
        text = text[1:-1].strip()
    return text or heading.strip()


#: Where a heading stands in a numbering series: its family, depth and series, then its
#: numbers (``("decimal", 2, ""), (6, 4)`` for ``6.4 Preemption``).
SeriesNumber = tuple[tuple[str, int, str], tuple[int, ...]]


def series_number(heading: str, lists: bool = False) -> SeriesNumber | None:
    """Where ``heading`` stands in a numbering series of the document's outline (a named
    unit, 2.1, AC-2), or None for a heading without such a label (a list's ``c)``, which
    ``lists`` takes too)."""
    label = parse_label(without_bullet(heading))
    if label is None or not (lists or is_series_label(label)):
        return None
    return (label.family, label.depth, label.series), label.ordinals


def without_bullet(heading: str) -> str:
    """``heading`` without a list glyph before its number ("■ 3.6.4 PUBACK" as some
    numbering definitions render heading labels)."""
    text = heading.strip()
    return text[1:] if text[:1] in _BULLETS and text[1:2].isspace() else text


def span_heading(
    parent: str | None, children: Sequence[str], parts: tuple[int, int] = (0, 0)
) -> str:
    """The heading of a chunk that holds text of the sections ``children`` (in order, one
    entry per block) of ``parent`` (None: sections at the top, with no common parent):
    ``4 权责 (4.1–4.3)``, ``Guide (Intro – Summary)``, ``1 目的 – 3 职责``. Labels name the
    ends where both have one of one series; at the top the titles do, as no parent gives
    the context.
    ``parts``: the part of its section each end holds, 0 for a section of one part
    (``part_numbers.numbered_parts``): ``Guide (Intro [part 2] – Summary)``."""
    first, last = children[0].strip(), children[-1].strip()
    if parent is None:
        if all(child.strip() == first for child in children):
            return first  # sections of one title, such as a repeated running head
        a, b = with_part(span_end(first), parts[0]), with_part(span_end(last), parts[1])
        return f"{a} {SPAN_DASH} {b}"
    if all(child.strip() == first for child in children):
        return f"{parent} ({with_part(span_end(first), parts[0] or parts[1])})"
    a, b = short_name(first), short_name(last)
    dash = SPAN_DASH
    if a == first or b == last or not _one_series(first, last):  # titles
        a, b, dash = span_end(first), span_end(last), f" {SPAN_DASH} "
    if any(parts) or any(ch.isspace() for ch in a + b):
        # "4.1 [part 2]–4.3" or "Note 2–Note 3" would read as one end: spaced
        dash = f" {SPAN_DASH} "
    return f"{parent} ({with_part(a, parts[0])}{dash}{with_part(b, parts[1])})"


def _one_series(first: str, last: str) -> bool:
    """Whether two labels count in one series, so that ``first–last`` reads as a range:
    ``4.1`` and ``4.3``, ``(a)`` and ``(e)``, ``6.1.4`` and ``6.2`` (the numbers show the
    levels), ``2.6.4`` and ``2.6.3`` (a changelog counts its versions down), not ``(h)``
    and ``A.``, ``2.`` and ``(a)``. Roman numerals count with the letters they are spelt in
    (``(i)`` may be either). Not one number twice, two lists' ``(i)`` or two headings that
    repeat their section's code (``CA-7``): ``(i–i)`` names one item, where the chunk holds
    two. Not a list's item down to one of the next list, ``(e–b)`` or ``(6–1)``: no list
    counts down, so that reads as a range backwards."""
    one, other = (parse_label(without_bullet(end)) for end in (first, last))
    if one is None or other is None:
        return False
    if (one.family.replace("roman-", ""), one.series) != (
        other.family.replace("roman-", ""),
        other.series,
    ):
        return False
    if one.family != other.family:  # "(i)" read as a letter, "(iv)" as a numeral
        return True
    if one.ordinals == other.ordinals:
        return False
    return one.ordinals < other.ordinals or min(len(one.ordinals), len(other.ordinals)) > 1


def span_end(title: str) -> str:
    """A title as a span's end: at most :data:`MAX_SPAN_END` characters, an ellipsis
    marking a cut (LightRAG caps each heading it shows its model at 80), without the list
    glyph a heading may open with ("• CWE-917: …", "● 6 Conformance"), as its label is."""
    title = without_bullet(title).strip()
    if len(title) <= MAX_SPAN_END:
        return title
    cut = title[: MAX_SPAN_END - 1]
    opened = cut.rfind("(")
    # Never leave a bracket open inside the span's own, unless the title opens with it:
    # "(наименование документа, …)" cut before its bracket would be no title at all.
    if cut.count("(") > cut.count(")") and cut[:opened].strip():
        cut = cut[:opened]
    return cut.rstrip() + "…"


@dataclass(frozen=True, slots=True)
class ChunkLabel:
    """What a block's chunk declares: its heading (no ``[part n]``), parents and level;
    for a span of sections (:func:`span_heading`), the paths of the sections it names,
    the children of their common parent it holds text of (empty for a chunk of one
    declared section, with what lies below it)."""

    heading: str
    parents: tuple[str, ...]
    level: int
    spanned: frozenset[tuple[str, ...]] = frozenset()
    #: A span's parent (None at the top) and children, to write it again with its ends'
    #: parts (:func:`with_end_parts`).
    parent: str | None = field(default=None, compare=False)
    children: tuple[str, ...] = field(default=(), compare=False)


def chunk_label(block: Block) -> ChunkLabel:
    """What a block's chunk declares.

    A block of one section declares that section. A block holding several declares the
    first one when the others lie below it, else their deepest common parent with the span
    of its children they hold (:func:`span_heading`), at the parent's level; sections at
    the top with no common parent, the span alone at their own level.
    """
    refs = block.sections
    if not refs:
        return ChunkLabel(block.heading, block.parent_headings, block.level)
    first = refs[0]
    paths = [ref.path for ref in refs]
    common = common_path(paths)
    if common == first.path:
        return ChunkLabel(first.path[-1], first.path[:-1], first.level)
    depth = len(common) + 1
    children = [path[len(common)] for path in paths if len(path) >= depth]
    # The parent's level as the outline gives it (at the top, the shallowest child's), not
    # counted up from a child's: a heading may lie levels below its parent, and a stage C
    # anchor lies at the level of the section it cuts.
    level = min(ref.level_at(max(len(common), 1)) for ref in refs)
    if common:
        heading, parents = span_heading(common[-1], children), common[:-1]
    else:
        heading, parents = span_heading(None, children), ()
    if (*parents, heading) in paths:
        return ChunkLabel(heading, parents, level)  # sections of one title: it names one
    spanned = frozenset(path[:depth] for path in paths if len(path) >= depth)
    parent = common[-1] if common else None
    return ChunkLabel(heading, parents, level, spanned, parent, tuple(children))


def edges(label: ChunkLabel) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The paths of the first and last sections a span names, or None (no span)."""
    if not label.children:
        return None
    parent = label.parents if label.parent is None else (*label.parents, label.parent)
    return (*parent, label.children[0]), (*parent, label.children[-1])


def with_end_parts(label: ChunkLabel, parts: tuple[int, int]) -> str:
    """``label``'s heading with the part of its section each end of its span holds."""
    if not label.children or not any(parts):
        return label.heading
    return span_heading(label.parent, label.children, parts)
