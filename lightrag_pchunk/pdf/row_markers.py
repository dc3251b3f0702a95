"""What the first cells of a run of text rows say it is (``pdf/text_tables.py``): a list's
markers (bullets, bare numbering labels), a program listing's line numbers, or the labels of a
table's rows (a grade, its name and its marks), and whether a cell beside them is a figure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lightrag_pchunk.outline.numbering import parse_label
from lightrag_pchunk.outline.numerals import roman_number
from lightrag_pchunk.pdf.bullets import is_bullet_glyph
from lightrag_pchunk.pdf.segments import Segment

#: Median characters of a cell in a table of three columns or more.
MAX_CELL_CHARS = 30
#: Share of first cells that are bullets or bare numbering labels that make a run a list.
MARKER_SHARE = 0.7
#: Share of rows whose last cell is a page number that makes them a list's or a contents'
#: entries, not a table's rows.
PAGED_SHARE = 0.7
#: A cell that is a figure: digits and the marks numbers carry, or a dash for none.
_FIGURE = re.compile(r"[\d\s.,:/%+()$€£¥±×−–—-]*")
#: A line's number at the start of a row: ``1500`` before its code.
_LEADING_NUMBER = re.compile(r"(\d+)(?:\s|$)")
#: A contents entry's page number in arabic numerals.
_PAGE_DIGITS = re.compile(r"\d{1,4}")


def numbered_lines(rows: Sequence[Sequence[Segment]]) -> list[bool]:
    """Which ``rows`` start with a whole number one more than the row above's or one less
    than the row below's: a listing's line numbers, however large ("1500" reads as no
    numbering label: a year)."""
    numbers = [_LEADING_NUMBER.match(row[0].text) for row in rows]
    values = [int(number.group(1)) if number else None for number in numbers]
    return [
        value is not None
        and (
            (index > 0 and values[index - 1] == value - 1)
            or value + 1 in values[index + 1 : index + 2]
        )
        for index, value in enumerate(values)
    ]


def no_figure(text: str) -> bool:
    """Whether ``text`` beside a label is what a list's item or a listing's line holds, not
    a figure (digits and the marks of numbers: ``1,234.5``, ``-7%``, ``—``): words, or code
    (a brace alone on its numbered line, ``{#2}``); a number beside figures is a table's
    first column."""
    return _FIGURE.fullmatch(text.strip()) is None


def labelled_short_cells(rows: Sequence[Sequence[Segment]]) -> bool:
    """Whether rows of cells, each numbered by a label in its first, read as a table's: no
    bullet, every cell short (:data:`MAX_CELL_CHARS`), the last cells no page numbers (a
    grade, its name and its marks), not a list's items (a label, its text, at most a page
    number)."""
    if any(is_bullet_glyph(row[0].text[:1]) for row in rows):
        return False
    if any(len(s.text) > MAX_CELL_CHARS for row in rows for s in row):
        return False
    paged = sum(_is_page_number(row[-1].text.strip()) for row in rows)
    return paged < PAGED_SHARE * len(rows)


def _is_page_number(text: str) -> bool:
    """A contents entry's page number: arabic, or a roman numeral written in one case
    ("xii", "IV"); a word of the same letters ("Mild", "mid", "Civil") is none."""
    if _PAGE_DIGITS.fullmatch(text):
        return True
    return (text.islower() or text.isupper()) and roman_number(text) is not None


def is_marker(text: str) -> bool:
    """A bullet (a symbol alone, or Word's "o"), or a numbering label with nothing after
    it (``1.``, ``(a)``, ``B.``, ``IV.``)."""
    if is_bullet_glyph(text[:1]) or text == "o" or (len(text) == 1 and not text.isalnum()):
        return True
    # A letter's or roman numeral's dot is a label's before the space its title takes
    # (``parse_label`` reads "B." alone as no label: an initial, a sentence's end); in a
    # cell of its own, the title stands in the next.
    label = parse_label(f"{text} ")
    return label is not None and not label.rest
