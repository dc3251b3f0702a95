"""The headings a file's stated outline (a PDF's bookmarks) leaves out, which the classifier
adds: a member filling a gap of the stated series stands at its stated siblings' level."""

from __future__ import annotations

from lightrag_pchunk.outline.infer import InferredHeading
from lightrag_pchunk.outline.items import Look
from lightrag_pchunk.parse.left_out import left_out_headings
from lightrag_pchunk.parse.outline_events import Event, EventKind, Line

BOLD = Look(bold=True, size=11.0)
TEXT_LOOK = Look(size=11.0)
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


def test_a_papers_references_left_out_of_its_bookmarks_head_the_back_matter() -> None:
    # The bookmarks end at "7.2 Inference time" and leave out the bibliography (LaTeX's
    # starred sections make none): "References", bold over the list, is a part of the paper
    # at its top level, not a subsection of 7.2. A once-printed bold line of another name
    # there stays text (the author chose which lines head parts).
    events = [
        _stated("7. Appendix", 1),
        _stated("7.2. Inference time", 2),
        _paragraph(TEXT, Look(size=11.0)),
        _paragraph("References", BOLD),
        _paragraph("[1] M. Aiello. Bidimensional relations for reading order. 2003.", TEXT_LOOK),
        _paragraph("Further results", BOLD),
        _paragraph(TEXT, TEXT_LOOK),
    ]
    inferred = {
        3: InferredHeading(3, 3, "References", ""),
        5: InferredHeading(5, 3, "Further results", ""),
    }
    kept = left_out_headings(events, inferred, 11.0)
    assert kept == {3: InferredHeading(3, 1, "References", "")}
