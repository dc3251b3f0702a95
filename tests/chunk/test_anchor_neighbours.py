"""Title-like lines that the paragraphs beside them make no anchor of stage C."""

from __future__ import annotations

from functools import partial

from lightrag_pchunk.chunk.anchor_neighbours import apart_from_their_series
from lightrag_pchunk.chunk.anchor_split import is_anchor_candidate

from helpers import anchor_texts, char_context, make_block


def _anchors_around(heading: str, lines: list[str]) -> list[str]:
    """The anchors stage C chooses in a long block headed ``heading``: 700 characters,
    ``lines``, 300 more, the title "Imported names", 700 more."""
    ctx = char_context(1000)
    text = f"## {heading}\n" + "x" * 700 + "\n" + "\n".join(lines) + "\n" + "y" * 300 + "."
    text += "\nImported names\n" + "z" * 700
    return anchor_texts(make_block(text, ctx.counter, heading=heading, level=2), ctx)


def test_a_line_whose_sentence_runs_on_into_the_next_paragraph_is_no_anchor() -> None:
    # A lead-in going on in a line of code, then in text; a table's cell wrapped over lines.
    lead_in = ["You can install into another directory tree by using"]
    lead_in += ["make prefix=/path/to/here install", "at least with GNU make (but not others)."]
    cell = ["Government employment:", "State/local governments and political"]
    cell.append("subdivisions, employees of:")
    for lines in (lead_in, cell):
        assert is_anchor_candidate(lines[0 if lines is lead_in else 1], 100)
        assert _anchors_around("Installation", lines) == ["Imported names"]


def test_a_title_over_a_paragraph_opening_in_lower_case_stays_an_anchor() -> None:
    # A short title whose paragraph opens with a product's name in lower case.
    lines = ["Fonts and output", "docx4j can only use fonts which are available to it."]
    assert "Fonts and output" in _anchors_around("Output", lines)


def test_a_short_member_of_a_series_whose_siblings_read_as_text_is_no_anchor() -> None:
    # A list's items, the one before a paragraph long: the short one is no section's title.
    item = "4. Certain minimal value fringes (including an occasional cab ride when an employee"
    item += " must work overtime, and meals you provide at eating places you run)."
    lines = [item, "5. Qualified transportation fringes"]
    assert is_anchor_candidate(lines[1], 100)
    assert _anchors_around("Wages", lines) == ["Imported names"]


def test_members_of_a_series_of_titles_stay_anchors() -> None:
    ctx = char_context(1000)
    text = "4. Fringe benefits\n" + "y" * 300 + ".\n5. Transportation fringes\n" + "z" * 300
    block = make_block(text, ctx.counter, heading="Wages", level=2)
    is_title = partial(is_anchor_candidate, max_length=100)
    assert not apart_from_their_series(block.paragraphs, is_title)


def test_a_series_of_titles_stays_beside_a_list_of_the_same_labels() -> None:
    # Lettered titles after a paragraph lettered "(i)" of another list: no sibling of theirs.
    ctx = char_context(1000)
    item = "(i) Issues with technological aspects that, therefore, overlap to some extent with"
    item += " the management of critical Internet resources, and which are covered there."
    lines = [item, "(e) Council of Europe", "y" * 300 + ".", "(f) European Union", "z" * 300]
    block = make_block("\n".join(lines), ctx.counter, heading="Mechanisms", level=2)
    is_title = partial(is_anchor_candidate, max_length=100)
    assert not apart_from_their_series(block.paragraphs, is_title)
