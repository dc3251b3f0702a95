"""The untitled preface (chunk/preface.py): one with a body of its own is the section
Preface/Uncategorized, which a chunk that opens with it declares and the contract checks; one
of only the title and a line or two joins the first section's label, the one case the
contract lets front matter of no section open a chunk (besides a table of contents).

Pipelines run with 1 char = 1 token (``char_context``).
"""

from __future__ import annotations

from dataclasses import replace

from lightrag_pchunk.chunk.breadcrumbs import FIRST, SPANS, check_breadcrumbs
from lightrag_pchunk.chunk.pipeline import chunk_rows
from lightrag_pchunk.chunk.preface import MAX_TITLE_BYTES, preface_is_section
from lightrag_pchunk.model import PREFACE_HEADING, Chunk

from helpers import char_context, make_row

SOP = [
    make_row("# 1.目的\n" + "规范冷库作业。" * 3, "1.目的", level=1, blockid="b0"),
    make_row("# 2.范围\n" + "适用于冷库。" * 3, "2.范围", level=1, blockid="b1"),
    make_row("# 3.职责\n" + "仓库主管负责。" * 3, "3.职责", level=1, blockid="b2"),
]
COVER = "Cold Store Manual\nRevision 3, 2024\nHarbour Authority\nApproved by the board"
TITLE = "Cold Store Manual\nRevision 3, 2024"


def preface(text: str):
    return make_row(text, PREFACE_HEADING, blockid="p0")


def contents():
    row = make_row("# Contents\n1.目的\t1\n2.范围\t1", "Contents", blockid="t0")
    return replace(row, extra={"session_type": "toc"})


def test_a_preface_of_the_title_and_two_lines_is_no_section_but_more_is() -> None:
    assert not preface_is_section([preface(TITLE), *SOP])
    assert not preface_is_section([preface("Title\nIssuer\n\n2024-05-01"), *SOP])  # 3 lines
    assert not preface_is_section(SOP)  # no preface at all
    assert preface_is_section([preface(COVER), *SOP])  # four lines: a cover page
    # Two lines, but an abstract's worth of text.
    assert preface_is_section([preface("Title\n" + "x" * MAX_TITLE_BYTES), *SOP])
    assert not preface_is_section([preface("Title\n" + "x" * (MAX_TITLE_BYTES - 5))])
    # A table (an approval or revision table) is a body, however short.
    table = '<table id="tb-1"><tr><td>Rev</td><td>Date</td></tr></table>'
    assert preface_is_section([preface(f"Title\n{table}"), *SOP])
    # Bytes of UTF-8, not characters: two lines of 172 Chinese characters are 516 bytes.
    assert preface_is_section([preface("标题\n" + "安" * 170), *SOP])
    assert not preface_is_section([preface("标题\n" + "安" * 164), *SOP])  # 498 bytes
    # A preface spread over rows is read whole.
    assert preface_is_section([preface(TITLE), make_row("Harbour\nBoard", ""), *SOP])


def test_a_chunk_that_opens_with_a_cover_page_declares_the_preface() -> None:
    rows = [preface(COVER), contents(), *SOP]
    (chunk,) = chunk_rows(rows, char_context(300, fill="pack"))
    assert chunk.content.startswith("Cold Store Manual")
    assert (chunk.heading, chunk.parent_headings, chunk.level) == (
        "Preface/Uncategorized – 3.职责",
        (),
        1,
    )
    assert check_breadcrumbs(rows, [chunk]) == []
    # The cover page and the contents alone: the preface, not the contents' title.
    (chunk,) = chunk_rows(rows[:2], char_context(300, fill="pack"))
    assert (chunk.heading, chunk.parent_headings) == (PREFACE_HEADING, ())
    assert check_breadcrumbs(rows[:2], [chunk]) == []


def test_a_chunk_that_opens_with_the_title_alone_is_labelled_by_its_sections() -> None:
    rows = [preface(TITLE), contents(), *SOP]
    (chunk,) = chunk_rows(rows, char_context(300, fill="pack"))
    assert chunk.content.startswith("Cold Store Manual")
    assert chunk.heading == "1.目的 – 3.职责"
    assert check_breadcrumbs(rows, [chunk]) == []
    # The title and section 1 alone: section 1.
    rows = [preface(TITLE), *SOP[:1]]
    (chunk,) = chunk_rows(rows, char_context(300, fill="pack"))
    assert (chunk.heading, check_breadcrumbs(rows, [chunk])) == ("1.目的", [])


def test_the_check_finds_a_cover_page_under_the_first_section_after_it() -> None:
    rows = [preface(COVER), contents(), *SOP]
    cover_and_contents = COVER + "\n\n# Contents\n1.目的\t1\n2.范围\t1"
    violations = check_breadcrumbs(rows, [Chunk(cover_and_contents, 40, 0, "Contents", (), 1)])
    assert [(v.rule, v.reason) for v in violations] == [
        (FIRST, "its first paragraph is in 'Preface/Uncategorized', not in 'Contents'"),
        (
            SPANS,
            "it holds text of 1 section(s) outside 'Contents', such as 'Preface/Uncategorized'",
        ),
    ]
    merged = cover_and_contents + "\n\n# 1.目的\n" + "规范冷库作业。" * 3
    violations = check_breadcrumbs(rows, [Chunk(merged, 80, 0, "1.目的", (), 1)])
    assert [v.rule for v in violations] == [FIRST, SPANS]


def test_the_check_reads_a_chunk_opening_with_the_title_from_its_first_section() -> None:
    # The title may open the chunk of the first section, and no other label.
    rows = [preface(TITLE), *SOP]
    opening = TITLE + "\n\n# 1.目的\n" + "规范冷库作业。" * 3
    assert check_breadcrumbs(rows, [Chunk(opening, 40, 0, "1.目的", (), 1)]) == []
    violations = check_breadcrumbs(rows, [Chunk(opening, 40, 0, "2.范围", (), 1)])
    assert [(v.rule, v.reason) for v in violations] == [
        (FIRST, "its first paragraph is in '1.目的', not in '2.范围'"),
        (SPANS, "it holds text of 1 section(s) outside '2.范围', such as '1.目的'"),
    ]
