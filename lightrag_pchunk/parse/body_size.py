"""The size of a document's body text (points), learnt from its paragraphs: what "set larger
than the text" is measured against (``outline/items.py: look_score``)."""

from __future__ import annotations

import heapq
from collections import Counter

from lightrag_pchunk.parse.outline_events import Event, EventKind

#: Paragraphs sampled to learn the body text size (those with the longest lines).
_BODY_SIZE_SAMPLE = 48


class BodySize:
    """The size of most body text (points), from the paragraphs with the longest lines
    (weighed by their characters); 0 when unknown. Prose fills its lines: a code listing
    or an address has short lines held by soft breaks, and a specification's longest
    paragraphs by characters are its examples, set smaller (STIX's JSON at 11 pt under
    text at 12 pt: every line of text would read as set larger). Read once, when first
    asked: it reads the look of up to :data:`_BODY_SIZE_SAMPLE` paragraphs."""

    def __init__(self, events: list[Event]) -> None:
        self.events = events
        self.value: float | None = None

    def __call__(self) -> float:
        if self.value is None:
            paragraphs = [
                e for e in self.events if e.kind is EventKind.PARAGRAPH and e.look is not None
            ]
            sizes: Counter[float] = Counter()
            longest = heapq.nlargest(_BODY_SIZE_SAMPLE, paragraphs, key=_longest_line)
            for event in longest:
                look = event.look()  # type: ignore[misc]
                if look.size:
                    sizes[look.size] += len(event.line.text)
            self.value = sizes.most_common(1)[0][0] if sizes else 0.0
        return self.value


def _longest_line(event: Event) -> int:
    return max(len(line) for line in event.line.text.split("\n"))
