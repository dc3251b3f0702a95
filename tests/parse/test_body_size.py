"""The body text size a document's looks are measured against."""

from __future__ import annotations

from lightrag_pchunk.outline.items import Look
from lightrag_pchunk.parse.body_size import BodySize
from lightrag_pchunk.parse.outline_events import Event, EventKind, Line


def paragraph(text: str, size: float) -> Event:
    return Event(Line(text), EventKind.PARAGRAPH, look=lambda: Look(size=size))


def test_the_text_sets_the_size_not_the_longer_code_listings():
    # A specification's examples are its longest paragraphs by characters: JSON set at 11 pt,
    # a short line to each soft break. Its text, at 12 pt, fills its lines.
    listing = "{\n" + "\n".join(f'  "property_{n}": "value {n}",' for n in range(40)) + "\n}"
    text = "The binary data type represents a sequence of bytes, encoded as base64 text. " * 2
    events = [paragraph(listing, 11) for _ in range(60)] + [paragraph(text, 12) for _ in range(60)]
    assert BodySize(events)() == 12


def test_text_typed_with_soft_breaks_still_sets_the_size():
    # Prose whose lines were broken by hand: its lines are still longer than its titles'.
    prose = "\n".join(["本办法规定了安全生产管理的职责、程序和要求，适用于公司各部门。"] * 4)
    events = [paragraph("第一章 总则", 16), paragraph(prose, 10.5), paragraph(prose, 10.5)]
    assert BodySize(events)() == 10.5
