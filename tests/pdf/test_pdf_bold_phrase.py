"""A phrase set bold inside a paragraph, running over a line break, leaves the paragraph
whole: a line that ends in bold, full to its column's end with no sentence ended, goes on
with a line that opens in bold, and a bold line with the next that opens in it (the IRS
publication's "… or less. **Under the monthly deposit schedule, … by the 15th day of the
following month.** See also …" was cut in three). A bold line under a line that ends in the
text's weight opens a paragraph of its own, as a title does."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BOLD, REGULAR, Page, Text, parse_pages, printed_width

_SIZE = 10.0
_LEFT, _RIGHT = 72.0, 330.0


def _line(y: float, *pieces: tuple[str, str], full: bool = True) -> list[Text]:
    """A line of ``pieces`` (text, font) at baseline ``y``, one Text a word, its words
    spread to fill the column from x=72 to x=330 when ``full``."""
    words = [(word, font) for text, font in pieces for word in text.split()]
    widths = [printed_width(word, _SIZE, font) for word, font in words]
    space = 0.278 * _SIZE  # Helvetica's word space
    gap = (_RIGHT - _LEFT - sum(widths)) / (len(words) - 1) if full else space
    x, items = _LEFT, []
    for (word, font), width in zip(words, widths, strict=True):
        items.append(Text(x, y, word, _SIZE, font))
        x += width + gap
    return items


def _page(*lines: list[Text]) -> Page:
    return Page([item for line in lines for item in line])


def _paragraph_with(result, text: str) -> str:
    return next(p for row in result.rows for p in row.content.split("\n") if text in p)


def test_a_bold_phrase_over_two_line_breaks_leaves_one_paragraph(tmp_path: Path) -> None:
    page = _page(
        _line(700, ("You are a monthly schedule depositor for the year if", REGULAR)),
        _line(688, ("the total taxes on the form for the four quarters in", REGULAR)),
        _line(
            676, ("your lookback period were fifty thousand or less.", REGULAR), ("Under the", BOLD)
        ),
        _line(664, ("monthly deposit schedule, deposit the employment", BOLD)),
        _line(652, ("taxes on payments made during a month by the 15th", BOLD)),
        _line(
            640, ("day of the following month.", BOLD), ("See also the rule.", REGULAR), full=False
        ),
    )  # fmt: skip
    paragraph = _paragraph_with(parse_pages(tmp_path, [page]), "lookback")
    assert paragraph.startswith("You are a monthly schedule depositor")
    assert "or less. Under the monthly deposit schedule, deposit the employment taxes" in paragraph
    assert paragraph.endswith("by the 15th day of the following month. See also the rule.")


def test_a_bold_line_under_a_line_in_the_texts_weight_opens_a_paragraph(tmp_path: Path) -> None:
    page = _page(
        _line(700, ("You are a monthly schedule depositor for the year if", REGULAR)),
        _line(688, ("the total taxes on the form for the four quarters in", REGULAR)),
        _line(676, ("your lookback period were fifty thousand or less and", REGULAR)),
        _line(664, ("Monthly Deposit Schedule", BOLD), full=False),
        _line(652, ("Deposit the taxes on the payments made during a month", REGULAR)),
        _line(640, ("by the 15th day of the following month.", REGULAR), full=False),
    )  # fmt: skip
    result = parse_pages(tmp_path, [page])
    assert _paragraph_with(result, "lookback").endswith("fifty thousand or less and")
    assert "Monthly Deposit Schedule" not in _paragraph_with(result, "Deposit the taxes")


def test_a_short_bold_line_after_a_line_ending_in_bold_stays_apart(tmp_path: Path) -> None:
    # A render of tracked changes runs a section's number on after a struck paragraph: the
    # line ends in bold, and the title's bold line under it ends early, as a title does.
    page = _page(
        _line(700, ("You are a monthly schedule depositor for the year if", REGULAR)),
        _line(
            688, ("the total taxes on the forms were replaced in its", REGULAR), ("18.33.060", BOLD)
        ),
        _line(676, ("Conformance with the coastal program.", BOLD), full=False),
        _line(664, ("New accessory dwelling units shall conform to all the", REGULAR)),
        _line(652, ("requirements of the local coastal program.", REGULAR), full=False),
    )  # fmt: skip
    result = parse_pages(tmp_path, [page])
    assert "Conformance" not in _paragraph_with(result, "monthly schedule")
