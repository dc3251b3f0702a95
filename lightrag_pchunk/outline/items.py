"""The smart outline's input and output: the items of a document's body, their look, the
lines promoted to headings. Data only, shared by ``infer.py`` (which lines are headings),
``heading_levels.py`` (at which levels) and every parser that builds the items.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lightrag_pchunk.outline.labels import Label
from lightrag_pchunk.outline.lines import HeadingText

#: How much larger than the body text (points) a line must be to count as larger.
LARGER_BY = 1.0
#: What a PDF's scaled units may take from a size (13 pt drawn at 12.96 pt): a line this
#: much short of :data:`LARGER_BY` is still set larger. Word's sizes are half points.
SIZE_ROUNDING = 0.05


class ItemKind(enum.Enum):
    """What one item of the body is."""

    TEXT = "text"  # a body paragraph line: may become a heading
    HEADING = "heading"  # a heading already known (a style says so)
    OTHER = "other"  # body content that is not a candidate: tables, equations, boxes


# No slots: a PDF's reading crosses from its child process by pickle, and a frozen
# dataclass with slots pickles through state methods that look its fields up for every
# object (a quarter of the pickling time); without slots pickle copies the dict.
@dataclass(frozen=True)
class Look:
    """How a line is formatted: whole-line bold, its size in points (0 = unknown),
    centred, all capitals; whole-line italic, which no tier of looks weighs (two looks
    apart only by it compare equal): a title over an example's code reads it."""

    bold: bool = False
    size: float = 0.0
    centered: bool = False
    caps: bool = False
    italic: bool = field(default=False, compare=False)

    def signature(self) -> tuple[float, bool, bool]:
        """What makes two headings look alike: size (to half a point), bold, capitals."""
        return (round(self.size * 2) / 2, self.bold, self.caps)


@dataclass(slots=True)
class OutlineItem:
    """One item of the body in reading order.

    ``level`` is a HEADING's known level (1-9); ``look`` is set for TEXT lines when the
    parser can see formatting; ``is_list_item`` marks a line numbered by a Word list
    (its label was rendered by the list, not typed); ``in_toc`` marks a line the
    document's table of contents lists (``outline/toc_match.py: toc_listed``), at ``toc_level``
    when the table says (0: it does not); ``titles_nothing`` a line its parser knows heads
    no section (a cover's version line): its look counts among the document's looks (the
    tiers), it never becomes a heading; on a HEADING, one whose section is a table of
    contents: the headings after it do not nest below it.
    """

    kind: ItemKind
    text: str = ""
    level: int = 0
    look: Look | None = None
    is_list_item: bool = False
    in_toc: bool = False
    toc_level: int = 0
    titles_nothing: bool = False


@dataclass(frozen=True, slots=True)
class InferredHeading:
    """A line promoted to a heading: item ``index``, its ``level``, the heading ``title``
    and the ``body`` text that followed the title on the same line ("" when none)."""

    index: int
    level: int
    title: str
    body: str


@dataclass(slots=True)
class Promoted:
    """A line the smart outline takes for a heading, before it has a level: item
    ``index``, the heading it gives, its look and the score of that look."""

    index: int
    heading: HeadingText
    look_score: float
    look: Look | None

    @property
    def label(self) -> Label | None:
        return self.heading.label


def look_at(
    items: Sequence[OutlineItem], index: int, look_of: Callable[[int], Look | None] | None
) -> Look | None:
    """Item ``index``'s look: the one its parser gave, else the one ``look_of`` reads for
    it (a document whose looks are read only where a rule asks), else None."""
    look = items[index].look
    if look is None and look_of is not None:
        look = look_of(index)
    return look


def is_larger_than_text(look: Look | None, body_size: float) -> bool:
    """Whether ``look`` is set larger than text of ``body_size`` (by :data:`LARGER_BY` or
    more, less :data:`SIZE_ROUNDING`; an unknown body size makes nothing larger)."""
    return look is not None and body_size > 0 and look.size >= body_size + LARGER_BY - SIZE_ROUNDING


def look_score(look: Look | None, body_size: float) -> float:
    """Evidence from formatting: bold 1, larger 1 (+0.5 when 3 pt larger or more),
    capitals 0.5, centring 0.5 (only beside another sign: centred body text is common)."""
    if look is None:
        return 0.0
    score = 0.0
    larger = is_larger_than_text(look, body_size)
    if look.bold:
        score += 1.0
    if larger:
        score += 1.0 + (0.5 if look.size >= body_size + 3 else 0.0)
    if look.caps:
        score += 0.5
    if look.centered and score > 0:
        score += 0.5
    return score
