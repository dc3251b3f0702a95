"""A paper's author list and copyright line read like titles and are none; names,
"and"-lists and copyright as a subject still may be titles."""

from __future__ import annotations

import pytest

from lightrag_pchunk.outline.front_matter import reads_as_front_matter
from lightrag_pchunk.outline.lines import heading_text


@pytest.mark.parametrize(
    "line",
    [
        "Ann Lee, Bo Chen, Cy Park‡ , Dee-ann Moss",  # one mark among several names
        "Ann Lee∗, Bo Chen† and Cy Park∗",
        "Ann Lee*, Bo Chen* & Cy Park",
        "Ann Lee¹, Bo Chen²",
        "Ann Lee1,2, Bo Chen3, Cy Park1",  # superscripts extracted as plain digits
        "Ann Lee (ann@example.org), Bo Chen (bo@example.org)",
        "J. R. Smith†, Maria van der Berg‡ and Li Wei†",
        "Ann Lee ∗ , Bo Chen ¨ ∗ , Cy Park† , Dee Moss,",  # accents set apart, a comma left
        "Copyright c 2031 ACM 978-0-00000-000-0/31/06",  # a font's "©" read as "c"
        "Copyright © 1998-2024 Example Press",
        "COPYRIGHT (C) 2019 THE AUTHORS",
        "© The Authors 2022",
        "(c) 2019 Acme Corp.",
    ],
)
def test_author_lists_and_copyright_lines_are_no_headings(line: str) -> None:
    assert reads_as_front_matter(line)
    assert heading_text(line) is None


@pytest.mark.parametrize(
    "line",
    [
        "Authors and Contributors",
        "Smith, Jones and Partners Agreement",  # names, no marks: a contract's title
        "Ann Lee, Bo Chen and Cy Park",  # no marks: may title a tribute, a section
        "Terms, Conditions and Definitions¹",  # one-word items with a note's mark
        "Risk Management* and Internal Control",  # two phrases, one mark
        "Copyright Notice",
        "Copyright and Related Rights Act 1988",  # the year does not follow the word
        "(c) Fees for 2021",  # a list item's label
        "Introduction*",
        "1 Introduction",
    ],
)
def test_titles_of_names_lists_and_copyright_stay_headings(line: str) -> None:
    assert not reads_as_front_matter(line)
    assert heading_text(line) is not None
