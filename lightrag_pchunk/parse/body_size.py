"""The size of a document's body text (points), learnt from its paragraphs: what "set larger
than the text" is measured against (``outline/items.py: look_score``)."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable

from lightrag_pchunk.parse.outline_events import Event, EventKind, TextLook

#: Paragraphs sampled to learn the body text size (those with the longest lines).
_BODY_SIZE_SAMPLE = 48


def body_size(paragraphs: Iterable[TextLook]) -> float:
    """The size of most text (points) among ``paragraphs`` (text and look on demand), from
    the :data:`_BODY_SIZE_SAMPLE` with the longest lines, weighed by their characters; 0
    when unknown. Prose fills its lines: a code listing or an address has short lines held
    by soft breaks, and a specification's longest paragraphs by characters are its
    examples, set smaller (STIX's JSON at 11 pt under text at 12 pt: every line of text
    would read as set larger). Reads the look of the sample only."""
    sizes: Counter[float] = Counter()
    for text, look_of in heapq.nlargest(_BODY_SIZE_SAMPLE, paragraphs, key=_longest_line):
        look = look_of()
        if look.size:
            sizes[look.size] += len(text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


class BodySize:
    """The body text size of a walk's events (:func:`body_size`), read once, when first
    asked: their body paragraphs and the paragraphs of their tables' cells (``Event.cells``).
    Table text is text: a document that keeps it in tables (a form, rich cells under each
    heading) has few paragraphs outside them, its headings among them, whose size would
    pass for the text's; where prose surrounds the tables, its lines are as long as the
    cells' or longer and still count."""

    def __init__(self, events: list[Event]) -> None:
        self.events = events
        self.value: float | None = None

    def __call__(self) -> float:
        if self.value is None:
            self.value = body_size(_paragraphs(self.events))
        return self.value


def _paragraphs(events: list[Event]) -> Iterable[TextLook]:
    for event in events:
        if event.kind is EventKind.PARAGRAPH and event.look is not None:
            yield event.line.text, event.look
        yield from event.cells


def _longest_line(paragraph: TextLook) -> int:
    return max(len(line) for line in paragraph[0].split("\n"))
