"""A paper's or report's standard section names as heading evidence: in a long stretch in
any look, elsewhere set as a title (bold capitals or larger type), not as a run-in label."""

from __future__ import annotations

import pytest

from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem, infer_outline, long_stretches
from lightrag_pchunk.outline.section_names import names_paper_section

BODY = Look(size=12)
TITLE = Look(bold=True, size=14)
PROSE = " ".join(["The serum samples were drawn within three days of delivery."] * 12)


def text(line: str, look: Look = BODY) -> OutlineItem:
    return OutlineItem(ItemKind.TEXT, line, look=look)


@pytest.mark.parametrize(
    "title",
    ["Introduction", "Materials and methods", "RESULTS", "Discussion", "Conclusions",
     "References", "Acknowledgments", "Acknowledgements", "Results and Discussion"],
)  # fmt: skip
def test_standard_section_names(title: str) -> None:
    assert names_paper_section(title)


@pytest.mark.parametrize(
    "title", ["Subjects", "Serum assays", "Results of the survey", "Our methods", "Summary"]
)
def test_other_titles_are_no_standard_section_names(title: str) -> None:
    assert not names_paper_section(title)


def _pasted_paper() -> list[OutlineItem]:
    """A styled document whose first part holds papers pasted as text: their titles in a
    larger bold look, their section names in the text's look between paragraphs, in a
    stretch the styles leave long."""
    return [
        OutlineItem(ItemKind.HEADING, "Breast cancer statistics", 1),
        text("Exposure to biphenyls and breast cancer", TITLE),
        text(PROSE),
        text("Introduction"),
        *[text(PROSE) for _ in range(3)],
        text("Subjects"),
        *[text(PROSE) for _ in range(3)],
        text("Results"),
        *[text(PROSE) for _ in range(3)],
        text("Discussion"),
        *[text(PROSE) for _ in range(3)],
        text("Plasma levels of biphenyls and lymphoma", TITLE),
        text(PROSE),
        OutlineItem(ItemKind.HEADING, "Review article", 1),
        text(PROSE),
    ]


def test_section_names_head_their_parts_in_a_long_stretch_of_a_styled_document() -> None:
    items = _pasted_paper()
    gaps = long_stretches(items, 800)
    assert gaps
    found = infer_outline(items, 12.0, within=gaps, long_gaps=gaps)
    # "Subjects", a title of the paper's own, has only its place: no heading.
    assert [h.title for h in found] == [
        "Exposure to biphenyls and breast cancer",
        "Introduction",
        "Results",
        "Discussion",
        "Plasma levels of biphenyls and lymphoma",
    ]


def test_section_names_in_a_short_stretch_are_left_to_the_styles() -> None:
    items = [*_pasted_paper()[:4], text("Results"), text(PROSE)]
    assert long_stretches(items, 800) == []
    assert infer_outline(items, 12.0, within=[], long_gaps=[]) == []


def _paper(abstract: Look) -> list[OutlineItem]:
    """An unstyled paper: its sections in bold capitals a step over the text, its abstract's
    name in ``abstract`` under a line of the title block that is no sentence."""
    section = Look(bold=True, size=11, caps=True)
    body = Look(size=9.5)
    return [
        text("Received on: (add date of submission), Accepted and Published on:", body),
        text("ABSTRACT" if abstract.caps else "Abstract", abstract),
        text(PROSE, body),
        text("INTRODUCTION", section),
        text(PROSE, body),
        text("ACKNOWLEDGMENTS", section),
        text(PROSE, body),
        text("REFERENCES", section),
        text(PROSE, body),
    ]


def test_a_section_name_in_bold_capitals_heads_its_part_below_the_sections_type() -> None:
    found = infer_outline(_paper(Look(bold=True, size=10, caps=True)), 9.5)
    assert [h.title for h in found] == ["ABSTRACT", "INTRODUCTION", "ACKNOWLEDGMENTS", "REFERENCES"]


def test_a_section_name_in_bold_at_the_texts_size_stays_a_run_in_label() -> None:
    found = infer_outline(_paper(Look(bold=True, size=9.5)), 9.5)
    assert [h.title for h in found] == ["INTRODUCTION", "ACKNOWLEDGMENTS", "REFERENCES"]
