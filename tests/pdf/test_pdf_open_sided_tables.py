"""Tables ruled by their rows and the one border between their columns, their sides open
(no vertical rule at the left or right edge): the row rules' ends border the outer
columns, and where the border between the columns runs on past the first or last row
rule (a slide's table without a rule over its first row or under its last), its ends
border those rows. A table ruled after its first column alone whose other side holds
several columns on a line is left to its text's alignment, which shows them."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import Page, Stroke, Text, parse_pages, tags_of

_ROWS = [
    ("Employment", "40"),
    ("Further studies (in higher education)", "15"),
    ("Dropping out", "15"),
    ("Staff development", "6"),
]
_LEFT, _BORDER, _RIGHT = 80.0, 330.0, 520.0


def _page(rows, *, top_rule: bool = True, bottom_rule: bool = True) -> Page:
    items: list = [Text(60, 740, "The indicators are weighted as the table below shows.", 10)]
    top = 720.0
    if top_rule:
        items.append(Stroke(_LEFT, top, _RIGHT, top))
    y = top
    for index, (label, value) in enumerate(rows):
        items += [Text(_LEFT + 6, y - 12, label, 9), Text(_BORDER + 80, y - 12, value, 9)]
        y -= 16
        if index < len(rows) - 1 or bottom_rule:
            items.append(Stroke(_LEFT, y, _RIGHT, y))
    items.append(Stroke(_BORDER, y, _BORDER, top))  # the one border between the columns
    items.append(Text(60, y - 30, "Source: the national board of education.", 9))
    return Page(items)


def test_a_table_ruled_by_its_rows_and_its_middle_border_alone_is_a_table(
    tmp_path: Path,
) -> None:
    result = parse_pages(tmp_path, [_page(_ROWS)])
    assert tags_of(result) == [[list(row) for row in _ROWS]]


def test_its_first_and_last_rows_beyond_the_rules_belong_to_it(tmp_path: Path) -> None:
    # No rule over the first row nor under the last: the middle border spans them.
    result = parse_pages(tmp_path, [_page(_ROWS, top_rule=False, bottom_rule=False)])
    assert tags_of(result) == [[list(row) for row in _ROWS]]
    assert not any(row.heading.startswith("Employment") for row in result.rows)


def test_columns_shown_by_alignment_beside_the_ruled_one_are_kept(tmp_path: Path) -> None:
    # A paper's table: a rule after its first column, then four columns of figures that
    # no rule parts. Read by their alignment, every figure keeps its column.
    rows = [
        ("", "Freq.", "Percent", "Mean Loss"),
        ("I/we kept the assets", "344", "75.2", "12196"),
        ("I/we sold some of the assets", "53", "11.6", "23518"),
        ("I/we sold all of them", "61", "13.2", "9187"),
        ("Total", "458", "100.0", "13153"),
    ]
    items: list = [Text(60, 740, "The households reacted to their losses as follows.", 10)]
    y = 720.0
    for cells in rows:
        items += [
            Text(x, y - 12, t, 9) for x, t in zip((86, 250, 330, 410), cells, strict=True) if t
        ]
        y -= 16
        items.append(Stroke(_LEFT, y, _RIGHT, y))
    items += [Stroke(_LEFT, 720, _RIGHT, 720), Stroke(240, y, 240, 720)]
    result = parse_pages(tmp_path, [Page(items)])
    assert tags_of(result) == [[list(cells) for cells in rows]]
