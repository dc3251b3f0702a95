"""A table style that draws its column borders in the header row alone and rules each body
row with a rule in pieces, one under each column (a report's coloured header, white lines
between its titles): the pieces under the inner columns meet no vertical rule, but each
still parts two rows, and each row's values stand in the header's columns. Lines that pair
up across the columns in a body ruled as one cell are read row by row; two texts side by
side whose lines do not pair are two cells."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from lightrag_pchunk.pdf.header_rules import joined_rules

from pdf_builders import Page, Stroke, Text, parse_pages, tags_of

#: The column borders, and the left edge of each column's text.
_XS = (85.0, 170.0, 255.0, 340.0)
_LEFTS = tuple(x + 4 for x in _XS[:-1])
_TITLES = ("Country", "Domestic", "Imported")
_ROWS = [("Austria", "86.2", "13.8"), ("Belgium", "0", "100.0"), ("Cyprus", "81.0", "15.2")]
#: The header's top; the body starts 20 points lower.
_TOP = 720.0


def _pieces(y: float) -> list[Stroke]:
    """A row rule drawn in pieces, one under each column, overlapping by a point."""
    return [Stroke(x0 - 0.5, y, x1 + 0.5, y) for x0, x1 in itertools.pairwise(_XS)]


def _row(y: float, cells) -> list[Text]:
    return [Text(x, y, text, 9) for x, text in zip(_LEFTS, cells, strict=True) if text]


def _header() -> list:
    """A sentence, then the header row: ruled above and below, column borders between."""
    items: list = [Text(60, 740, "The cases by country are given in the table below.", 10)]
    items += _pieces(_TOP) + _pieces(_TOP - 20)
    items += [Stroke(x, _TOP - 20, x, _TOP) for x in _XS]
    return items + _row(_TOP - 14, _TITLES)


def _sides(top: float, bottom: float) -> list[Stroke]:
    return [Stroke(_XS[0], bottom, _XS[0], top), Stroke(_XS[-1], bottom, _XS[-1], top)]


def test_rows_ruled_in_pieces_under_a_header_with_column_borders_are_a_table(
    tmp_path: Path,
) -> None:
    items, y = _header(), _TOP - 20
    for cells in _ROWS:
        items += _sides(y, y - 14) + _pieces(y - 14) + _row(y - 10, cells)
        y -= 14
    items.append(Text(60, y - 30, "The shares are of the cases whose origin is known.", 10))
    result = parse_pages(tmp_path, [Page(items)])
    assert tags_of(result) == [[list(_TITLES), *map(list, _ROWS)]]


def test_pieces_of_a_rule_at_heights_a_fraction_apart_join_left_to_right() -> None:
    # One rule drawn in pieces whose heights differ by a fraction of a point: the last
    # piece, a little higher, must not take the place of the others.
    pieces = np.array(
        [
            [70.9, -640.35, 138.2, -640.35],
            [139.2, -640.35, 178.7, -640.35],
            [364.0, -640.53, 525.5, -640.53],
        ]
    )
    assert joined_rules(pieces)[:, [0, 2]].tolist() == [[70.9, 178.7], [364.0, 525.5]]


def _one_cell_body(lines) -> list:
    """The header, then a body ruled as one cell (no rule between its lines)."""
    bottom = _TOP - 20 - 12 * len(lines) - 4
    items = _header() + _sides(_TOP - 20, bottom) + _pieces(bottom)
    for index, cells in enumerate(lines):
        items += _row(_TOP - 32 - 12 * index, cells)
    return items


def test_lines_pairing_across_a_body_ruled_as_one_cell_are_read_row_by_row(
    tmp_path: Path,
) -> None:
    result = parse_pages(tmp_path, [Page(_one_cell_body(_ROWS))])
    text = "\n".join(row.content for row in result.rows)
    assert all(" ".join(cells) in text for cells in _ROWS)


def test_texts_side_by_side_whose_lines_do_not_pair_are_two_cells(tmp_path: Path) -> None:
    # Two notes under two columns, the second a line longer: each is one cell's text.
    lines = [
        ("", "Counted where", "Counted where"),
        ("", "the case was", "the case was"),
        ("", "reported.", "acquired"),
        ("", "", "abroad."),
    ]
    result = parse_pages(tmp_path, [Page(_one_cell_body(lines))])
    text = "\n".join(row.content for row in result.rows)
    assert "Counted where the case was reported." in text
    assert "Counted where the case was acquired abroad." in text
