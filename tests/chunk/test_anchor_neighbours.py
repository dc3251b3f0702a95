"""Title-like lines that the paragraphs beside them make no anchor of stage C."""

from __future__ import annotations

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
