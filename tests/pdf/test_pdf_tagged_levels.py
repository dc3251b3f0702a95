"""A tagged PDF's heading levels read against the numbering its headings print."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.pdf.tagged_levels import tagged_levels

from pdf_builders import BODY, BOLD, Page, Tag, Text, parse_pages, sections, wrap


def _tagged_document(headings: list[tuple[str, str]]) -> tuple[list[Page], list[Tag]]:
    """A page for each (role, heading), the heading over a paragraph of text."""
    pages, tags = [], []
    for number, (role, heading) in enumerate(headings):
        pages.append(
            Page([Text(72, 720, heading, 14, BOLD, mcid=0), *wrap(BODY, 72, 695, 400, mcid=1)])
        )
        tags += [Tag(role, number, (0,)), Tag("P", number, (1,))]
    return pages, tags


def test_the_printed_numbering_says_the_levels_the_tags_slip_on(tmp_path: Path) -> None:
    # The preface is tagged H1 and the chapters H2 under it; chapter 3 is tagged H4 (a
    # style slip) after 2.1. The chapters stand beside the preface and the annex, 3 beside
    # 2, and 3.1 under 3.
    headings = [
        ("H1", "Foreword"),
        ("H2", "1 Scope"),
        ("H2", "2 Requirements"),
        ("H3", "2.1 Raw material"),
        ("H4", "3 Storage and transport"),
        ("H3", "3.1 Storage"),
        ("H1", "Annex A Map of the area"),
        ("H2", "A.1 Area"),
    ]
    pages, tags = _tagged_document(headings)
    result = parse_pages(tmp_path, pages, tags=tags)
    assert sections(result) == [
        ("Foreword", 1),
        ("1 Scope", 1),
        ("2 Requirements", 1),
        ("2.1 Raw material", 2),
        ("3 Storage and transport", 1),
        ("3.1 Storage", 2),
        ("Annex A Map of the area", 1),
        ("A.1 Area", 2),
    ]
    assert [r.parent_headings for r in result.rows if r.heading == "3.1 Storage"] == [
        ("3 Storage and transport",)
    ]


def test_unnumbered_headings_that_part_the_chapters_keep_them() -> None:
    # Two parts tagged H1 hold chapters 1-2 and 3-4 (numbered on through the book): the
    # parts are real, and the tags agree with the numbering.
    texts = ["Getting started", "1 Install", "2 Configure", "Reference", "3 API", "4 Tools"]
    roles = ["H1", "H2", "H2", "H1", "H2", "H2"]
    assert tagged_levels(roles, texts) == {0: 1, 1: 2, 2: 2, 3: 1, 4: 2, 5: 2}


def test_a_labelled_unit_over_the_chapters_keeps_them() -> None:
    texts = ["Part I The plant", "1 Install", "2 Configure", "3 Run"]
    assert tagged_levels(["H1", "H2", "H2", "H2"], texts) == {0: 1, 1: 2, 2: 2, 3: 2}


def test_a_heading_among_the_chapters_comes_up_with_them_no_further() -> None:
    # The chapters, tagged H3 under a foreword at H1, come up beside it; "Notes", tagged
    # H2 after them, comes up as far as they do: beside them, never over the foreword.
    texts = ["Foreword", "1 Scope", "2 Terms", "3 Storage", "Notes"]
    roles = ["H1", "H3", "H3", "H3", "H2"]
    assert tagged_levels(roles, texts) == {0: 1, 1: 1, 2: 1, 3: 1, 4: 1}


def test_numbering_that_is_no_clean_family_leaves_the_tags() -> None:
    # Chapters skip a number (1, 2, 4): the numbering is no evidence; the tags stay.
    texts = ["Foreword", "1 Scope", "2 Terms", "4 Storage", "4.1 Rooms"]
    roles = ["H1", "H2", "H2", "H4", "H3"]
    assert tagged_levels(roles, texts) == {0: 1, 1: 2, 2: 2, 3: 4, 4: 3}


def test_a_heading_role_on_a_sentence_or_a_passage_is_no_heading() -> None:
    # A standard's clauses tagged as headings: the ones that are sentences are text; the
    # titles, short or ending with a stop, stay headings.
    texts = [
        "5 要求",
        "5.1 原料来源",
        "5.3.1 应有大米固有的自然清香味。",
        "下列术语和定义适用于本文件。术语见表 1",
        "5.3.2 米粒半透明，色泽乳白，蒸煮时应有固有的米饭香味，",
        "Operators shall keep the plant under supervision and record every reading of it.",
        "Scope of the rules.",
        # A bulleted passage of a report, tagged as a heading, longer than any heading.
        "\uf0a7 Ensure the provider can meet " + "the requirements of the act, " * 7 + "and",
    ]
    roles = ["H1", "H2", "H3", "H3", "H3", "H2", "H2", "H1"]
    assert tagged_levels(roles, texts) == {0: 1, 1: 2, 6: 2}
