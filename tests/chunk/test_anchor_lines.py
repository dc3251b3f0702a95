"""Lines the heading classifier reads as titles that name no part of a long block: no
anchor of stage C (``chunk/anchor_lines.py``)."""

from __future__ import annotations

import pytest

from lightrag_pchunk.chunk.anchor_split import is_anchor_candidate

from helpers import anchor_texts, char_context, make_block


def _anchors_around(lines: list[str]) -> list[str]:
    """The anchors stage C chooses in a long block: 700 characters, ``lines``, 300 more,
    the title "Imported names", 700 more."""
    ctx = char_context(1000)
    text = "## Part\n" + "x" * 700 + "\n" + "\n".join(lines) + "\n" + "y" * 300
    text += "\nImported names\n" + "z" * 700
    return anchor_texts(make_block(text, ctx.counter, heading="Part", level=2), ctx)


@pytest.mark.parametrize(
    "text",
    [
        "The potential impact is high if—",
        "And the wages are–",
        "(a) SINGLE person (including head of household)—",
    ],
)
def test_a_lead_in_ending_on_a_dash_glued_to_its_word_is_no_anchor(text: str) -> None:
    assert not is_anchor_candidate(text, 100)
    assert _anchors_around([text]) == ["Imported names"]


@pytest.mark.parametrize(
    "lines",
    [
        # A rule's examples, each under its run-in label, the labels said again.
        [
            "正例：MAX_STOCK_COUNT / CACHE_EXPIRED_TIME",
            "反例：MAX_COUNT / EXPIRED_TIME",
            "说明：三个条件如下",
            "正例：startTime / workQueue",
            "反例：startedAt / QueueOfWork",
            "说明：推荐使用工具类",
        ],
        # A lecture's proofs, each opening with its label.
        ["Beweis: Sei U offen in X", "Text of the proof.", "Beweis: Wegen Bemerkung 7 ist"],
    ],
)
def test_a_line_under_a_run_in_label_said_again_is_no_anchor(lines: list[str]) -> None:
    assert all(is_anchor_candidate(line, 100) for line in lines if ":" in line or "：" in line)
    assert _anchors_around(lines) == ["Imported names"]


def test_a_run_in_label_said_once_still_opens_an_anchor() -> None:
    title = "Architecture: Load Balancing and Training"
    assert title in _anchors_around([title])


def test_an_item_titled_in_capitals_after_its_bodys_label_stays_an_anchor() -> None:
    items = ["NIH: SECONDARY ANALYSIS OF DATA", "Text of the item.", "NIH: DATA SHARING GRANTS"]
    assert "NIH: SECONDARY ANALYSIS OF DATA" in _anchors_around(items)


@pytest.mark.parametrize(
    "text",
    [
        # A table's rows read as lines: three cells or more, a cell that is a number.
        "WD01, Rev03 | 2019-05-08 | Jane Roe | Incorporate fixes from the last draft",
        "Sender Action | Control Packet | Receiver Action",
        "162 | plotter 5.4",
        "Total Risks | 12.5%",
        # A row's piece, opening or closing on its rule.
        "| order <n>",
        "Colour Key |",
    ],
)
def test_a_table_row_read_as_a_line_is_no_anchor(text: str) -> None:
    assert not is_anchor_candidate(text, 100)
    assert _anchors_around([text]) == ["Imported names"]


def test_a_line_opening_with_the_rest_of_a_word_cut_in_capitals_is_no_anchor() -> None:
    lines = ["THE SOFTWARE IS PROVIDED AS IS, WITHOUT WARRANTY OF ANY KIND, INCLUD-"]
    lines.append("ING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY")
    assert is_anchor_candidate(lines[1], 100)
    assert _anchors_around(lines) == ["Imported names"]


def test_an_entry_of_a_reference_list_numbered_as_its_neighbours_is_no_anchor() -> None:
    entries = ["22.M. Levin, B. Morsey, and S. De Guise, “Non-coplanar"]
    entries.append("23.National Survey of Health and Nutrition (NHANES), Centers for")
    entries.append("24.E. N. Marieb, Human Anatomy and Physiology, Addison Wesley")
    assert is_anchor_candidate(entries[1], 100)
    assert _anchors_around(entries) == ["Imported names"]


def test_a_running_head_saying_a_heading_of_the_blocks_path_is_no_anchor() -> None:
    ctx = char_context(1000)
    text = "## 3.2 Tables\n" + "x" * 700 + "\nChapter 1 Samples\n" + "y" * 300
    text += "\nImported names\n" + "z" * 700
    block = make_block(text, ctx.counter, heading="3.2 Tables", parents=("Chapter 1 Samples",))
    assert anchor_texts(block, ctx) == ["Imported names"]


@pytest.mark.parametrize(
    "text",
    [
        # A line ending on a word a hyphen cuts, in capitals too.
        "FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN CONTRACT, TORT OR OTHER-",
        "Disregarded entities and qualified subchapter S sub-",
        # A reference list's entry: its number and an author in citation form.
        "22.M. Levin, B. Morsey, C. Mori, and S. De Guise, “Non-coplanar",
        "28.E. N. Marieb, Human Anatomy and Physiology, Addison Wesley",
        "36.S. G. Fisher and R. I. Fisher, “The epidemiology of lymphoma,”",
        "[7] A. B. Hill, “The environment and disease: association or causation?”",
        "W. R. Pearson (1991) Genomics",
        # An entry as GB/T 7714 writes it: the work's type code after its title.
        "阎真. 沧浪之水[M]. 北京: 人民文学出版社, 2001: 185-207",
        "Kocher C, Jaffe J, Jun B. Differential power analysis[C]//Wiener M. Lecture Notes",
        "Jeyakumar A R. Metamori: A library for file checkpointing[D]. Blacksburg",
        "Publishing Company, 1994: 112-125",
        # A field listing its values after a run-in label.
        "Keywords: storm, evacuate, coast, rain, hurricane",
        "Additional capabilities: PNG, JPEG, TIFF, NLS, cairo, ICU",
        "关键词：风暴、疏散、海岸、降雨",
        # An annotation of code alone.
        "@Override",
        "@SuppressWarnings(unchecked)",
    ],
)
def test_a_line_naming_no_part_alone_is_no_anchor(text: str) -> None:
    assert not is_anchor_candidate(text, 100)


@pytest.mark.parametrize(
    "text",
    [
        # A dash set apart, not glued to the last word.
        "Part 1 –",
        "Summary — Results",
        # Two things named apart by a rule.
        "AC-2 | Control Summary Information",
        "`--lof[=true|false]`",
        # A label of capitals and points, no author after it.
        "5. U.S. Federal Government Terms",
        "A. Background, Scope and Purpose",
        # Three things named, or a list in brackets.
        "Goal: Useful, consistent, tool supported comments",
        "线下：《三句半》（表演者：张茹霞、侯楠、张川、刘强）",
        # A name with an at sign, a routine's signature.
        "@Stake Inc",
        "YZero(bool extend=true)",
    ],
)
def test_a_title_beside_those_shapes_stays_an_anchor(text: str) -> None:
    assert is_anchor_candidate(text, 100)
