"""The top-level Markdown element the walk reads (:class:`Element`), and the small helpers
over the event stream (:func:`skip`) and the source bytes (:func:`offsets`, :func:`holds`)
that :mod:`lightrag_pchunk.markdown.walk` runs for every element.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator

from pyromark.event import Event, Range


class Element:
    """The top-level block being read: its kind, byte range and what its events told.

    ``parts`` holds what the kind needs: a paragraph's display-math spans, front matter's
    text, a table's rows of cells. ``replacements`` are the drawing tags of its ``data:``
    images, by source span. (A heading is read without one, unless it has an image.)
    """

    __slots__ = ("cell", "end", "kind", "parts", "replacements", "row_end", "start")

    def __init__(self, kind: str, start: int, end: int) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.parts: list = []
        self.replacements: list[tuple[int, int, str]] = []
        self.cell = -1  # start of the open table cell, then the end of the last one
        self.row_end = 0


def inside(events: Iterator[tuple[Event, Range]]) -> Iterator[tuple[Event, Range]]:
    """The events inside the element whose Start was just read, nested ones with their
    own Start and End; its End ends the iteration (consumed, not given)."""
    depth = 1
    for event, span in events:
        if type(event) is not str:  # "SoftBreak", "HardBreak": neither starts nor ends
            if "End" in event:
                depth -= 1
                if not depth:
                    return
            elif "Start" in event:
                depth += 1
        yield event, span


def skip(events: Iterator[tuple[Event, Range]]) -> None:
    """Consume the events inside a top-level element up to its End event, unread."""
    for _ in inside(events):
        pass


def offsets(raw: bytes, needle: bytes) -> list[int]:
    """Every offset of ``needle`` in ``raw`` (overlapping ones too), ascending."""
    found: list[int] = []
    at = raw.find(needle)
    while at >= 0:
        found.append(at)
        at = raw.find(needle, at + 1)
    return found


def holds(positions: list[int], first: int, last: int) -> bool:
    """Whether one of ``positions`` (ascending) lies in ``[first, last]``."""
    at = bisect_left(positions, first)
    return at < len(positions) and positions[at] <= last
