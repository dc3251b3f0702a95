"""The headings a file's stated outline (a PDF's bookmarks) leaves out, which the classifier
adds: a member filling a gap of the stated series stands at its stated siblings' level."""

from __future__ import annotations

from lightrag_pchunk.outline.infer import InferredHeading
from lightrag_pchunk.outline.items import Look
from lightrag_pchunk.parse.left_out import left_out_headings
from lightrag_pchunk.parse.outline_events import Event, EventKind, Line

BOLD = Look(bold=True, size=11.0)
TEXT = "The plant is inspected every week by a competent person who records the result."


def _stated(title: str, level: int) -> Event:
    return Event(Line(title), level=level, heading=title, look=lambda: BOLD)


def _paragraph(text: str, look: Look) -> Event:
    return Event(Line(text), kind=EventKind.PARAGRAPH, look=lambda: look)


def test_a_member_filling_a_gap_takes_its_stated_siblings_level() -> None:
    # Read in the stretch of "A. Terms" (level 2), "II. Operation" came out nested below
    # it; it continues the stated "I. Scope" (level 1) and "III. Records" continues it: it
    # is their sibling, at level 1.
    events = [
        _stated("I. Scope", 1),
        _paragraph(TEXT, Look(size=11.0)),
        _stated("A. Terms", 2),
        _paragraph(TEXT, Look(size=11.0)),
        _paragraph("II. Operation", BOLD),
        _paragraph(TEXT, Look(size=11.0)),
        _stated("III. Records", 1),
    ]
    inferred = {4: InferredHeading(4, 3, "II. Operation", "")}
    kept = left_out_headings(events, inferred, 11.0)
    assert kept == {4: InferredHeading(4, 1, "II. Operation", "")}


def test_a_first_member_before_the_stated_one_takes_its_level() -> None:
    # "1. Subject" before the first stated member "2. Goals" (level 2): the gap's first
    # member, at its level 2.
    events = [
        _paragraph("1. Subject", BOLD),
        _paragraph(TEXT, Look(size=11.0)),
        _stated("2. Goals", 2),
        _paragraph(TEXT, Look(size=11.0)),
    ]
    inferred = {0: InferredHeading(0, 1, "1. Subject", "")}
    kept = left_out_headings(events, inferred, 11.0)
    assert kept == {0: InferredHeading(0, 2, "1. Subject", "")}
