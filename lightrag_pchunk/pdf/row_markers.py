"""What the first cells of a run of text rows say it is (``pdf/text_tables.py``): a list's
markers (bullets, bare numbering labels), a program listing's line numbers, or the labels of a
table's rows (a grade, its name and its marks), and whether a cell beside them is a figure.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from lightrag_pchunk.outline.non_titles import reads_as_code_or_data
from lightrag_pchunk.outline.numbering import parse_label
from lightrag_pchunk.outline.numerals import roman_number
from lightrag_pchunk.pdf.bullets import is_bullet_glyph
from lightrag_pchunk.pdf.header_rules import one_pitch
from lightrag_pchunk.pdf.printed_paragraph import PAGE_NUMBER
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
#: Characters of a segment whose width per character tells a fixed-pitch font.
_PITCH_CHARS = 4
#: Columns a header row names at least to make numbered rows under it a table's.
_NAMED_COLUMNS = 3
#: Words of a column's title in such a header, at most.
_TITLE_WORDS = 2
#: A page number's kind, roman ones (a front matter's) before arabic ones.
_ROMAN, _ARABIC = 0, 1


def numbered_lines(rows: Sequence[Sequence[Segment]]) -> list[bool]:
    """Which ``rows`` are a program listing's numbered lines: a run of rows each starting
    with a whole number one more than the row above's, however large ("1500" reads as no
    numbering label: a year), that holds what a listing has beside its numbers: code
    (``non_titles.reads_as_code_or_data``: a brace, a TeX command, an assignment) on one of
    its lines, or text set in a fixed-pitch font. A timeline's years ("2019 Founded …",
    "2020 Opened …") number no listing: they are a table's first column."""
    numbers = [_LEADING_NUMBER.match(row[0].text) for row in rows]
    values = [int(number.group(1)) if number else None for number in numbers]
    found = [False] * len(rows)
    start = 0
    for end in range(1, len(rows) + 1):
        if end < len(rows) and values[end] is not None and values[end - 1] == values[end] - 1:
            continue
        if end - start >= 2 and _holds_code(rows[start:end], numbers[start:end]):
            found[start:end] = [True] * (end - start)
        start = end
    return found


def _holds_code(rows: Sequence[Sequence[Segment]], numbers: Sequence[re.Match | None]) -> bool:
    """Whether the text beside the numbers of ``rows`` (:func:`numbered_lines`) is code on
    one row at least, or set in a fixed-pitch font (``header_rules.one_pitch``): its
    segments of :data:`_PITCH_CHARS` characters or more, two at least."""
    beside = [
        [s.text for s in row[1:]] + ([row[0].text[number.end() :]] if number else [])
        for row, number in zip(rows, numbers, strict=True)
    ]
    if any(reads_as_code_or_data(t, parse_label(t)) for texts in beside for t in texts if t):
        return True
    words = [s for row in rows for s in row[1:] if len(s.text) >= _PITCH_CHARS]
    return len(words) >= 2 and one_pitch(words)


def no_figure(text: str) -> bool:
    """Whether ``text`` beside a label is what a list's item or a listing's line holds, not
    a figure (digits and the marks of numbers: ``1,234.5``, ``-7%``, ``—``): words, or code
    (a brace alone on its numbered line, ``{#2}``); a number beside figures is a table's
    first column."""
    return _FIGURE.fullmatch(text.strip()) is None


def labelled_short_cells(rows: Sequence[Sequence[Segment]]) -> bool:
    """Whether rows of cells, each numbered by a label in its first, read as a table's: no
    bullet, every cell short (:data:`MAX_CELL_CHARS`), the last cells no column of page
    numbers (:func:`_pages_column`: a grade, its name and its marks), not a list's items (a
    label, its text, at most a page number)."""
    if any(is_bullet_glyph(row[0].text[:1]) for row in rows):
        return False
    if any(len(s.text) > MAX_CELL_CHARS for row in rows for s in row):
        return False
    return not _pages_column([row[-1].text.strip() for row in rows])


def names_columns(rows: Sequence[Sequence[Segment]]) -> bool:
    """Whether the first of ``rows`` names the columns of the rows of cells under it, which
    makes them a table's however they are numbered (a requirement's number, its text and
    its level: a list's items carry no header): :data:`_NAMED_COLUMNS` cells or more, each
    a title of :data:`_TITLE_WORDS` words at most without a digit, as many as every row of
    cells under it holds, each over the cells at its place (their spans overlap). A
    contents' entries under such a header are read as entries first (``text_tables``)."""
    head, below = rows[0], [row for row in rows[1:] if len(row) >= 2]
    if len(head) < _NAMED_COLUMNS or len(below) < 2 or any(len(r) != len(head) for r in below):
        return False
    for title in head:
        text = title.text.strip()
        if len(text.split()) > _TITLE_WORDS or any(c.isdigit() for c in text):
            return False
    return all(
        t.x0 <= c.x1 and c.x0 <= t.x1 for row in below for t, c in zip(head, row, strict=True)
    )


def _pages_column(cells: Sequence[str]) -> bool:
    """Whether ``cells``, a column top down, are a contents' page numbers: most of them
    (:data:`PAGED_SHARE`) a page number, and those never going down the rows (a front
    matter's roman numbers before the body's arabic ones). A rubric's points counting down
    ("A. | Excellent | 4", "B. | Good | 3") are none, nor a roman letter standing on every
    row: a checklist's mark ("X"); a contents lists several entries on one arabic page."""
    pages = [page for page in map(_page_number, cells) if page is not None]
    if len(pages) < PAGED_SHARE * len(cells):
        return False
    if len(pages) >= 2 and pages[0] == pages[-1] and pages[0][0] == _ROMAN:
        return False
    return all(a <= b for a, b in itertools.pairwise(pages))


def _page_number(text: str) -> tuple[int, int] | None:
    """A contents entry's page number (:data:`~.paragraphs.PAGE_NUMBER`: arabic, or a
    roman numeral up to 399 written in one case, "xii", "IV"; a word of the same letters,
    "Mild", "Civil", "mm", is none) as (kind, value), a roman one before an arabic one."""
    if PAGE_NUMBER.match(text) is None:
        return None
    roman = roman_number(text) if text.isalpha() else None
    return (_ROMAN, roman) if roman else (_ARABIC, int(text))


#: A paragraph's number after a dot (".1", ".12"), as MasterFormat specifications number
#: the paragraphs of an article.
_DOT_NUMBER = re.compile(r"\.[1-9]\d?")


def is_bullet(text: str) -> bool:
    """A bullet: a symbol alone, or Word's "o"."""
    return is_bullet_glyph(text[:1]) or text == "o" or (len(text) == 1 and not text.isalnum())


def is_marker(text: str) -> bool:
    """A bullet (a symbol alone, or Word's "o"), or a numbering label with nothing after
    it (``1.``, ``(a)``, ``B.``, ``IV.``, and a specification's paragraph numbered after a
    dot, ``.1``, as construction specifications number them under an article)."""
    if is_bullet(text):
        return True
    if _DOT_NUMBER.fullmatch(text):
        return True
    # A letter's or roman numeral's dot is a label's before the space its title takes
    # (``parse_label`` reads "B." alone as no label: an initial, a sentence's end); in a
    # cell of its own, the title stands in the next.
    label = parse_label(f"{text} ")
    return label is not None and not label.rest
