"""A paper's last page: a table at the top of its left column, the right column's
references on the table's rows and below them. The references hang their first lines out
into the gutter their other lines leave (first lines at the column's edge, the rest
indented): the "table" the rows show across the page, the table's three columns and the
references as a fourth, is the page's columns, parted where the table's last column and the
references leave the gutter's middle free (``page_columns.is_page_columns``)."""

from __future__ import annotations

from lightrag_pchunk.pdf.page_columns import is_page_columns
from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.text_table_grid import TextTable

PITCH = 11.0


def _segment(text: str, x0: float, top: float, x1: float) -> Segment:
    return Segment(text, x0, top, x1, top + 9.0, (x0, 0.0, x1, 0.0), 0, 0, 0, 9.0)


def _page(hang: float) -> tuple[TextTable, list[Segment]]:
    """Sixty lines from 80 points down: the left column's first twelve a table's rows
    (dates, names, places), then prose from 72 to 299 points; the right column's lines to
    540 points, references whose first lines start ``hang`` points left of the others' 324."""
    segments = []
    for row in range(60):
        y = 80 + row * PITCH
        if row < 12:
            segments += [
                _segment(f"2005-10-{row + 10}", 100, y, 150),
                _segment("Wilma", 165, y, 195),
                _segment("Massachusetts", 215, y, 262),
            ]
        else:
            segments.append(_segment(f"Prose of the left column, line {row} of it", 72, y, 299))
        first = row % 3 == 0
        x0 = 324 - hang if first else 324
        segments.append(_segment(f"Reference line {row} with its authors, a title", x0, y, 540))
    table = TextTable(xs=[95, 160, 210, 290, 545], ys=[79, 80 + 12 * PITCH - 1])
    return table, segments


def test_references_hanging_into_the_gutter_beside_a_table_are_the_next_column() -> None:
    assert is_page_columns(*_page(hang=11))


def test_references_set_flush_beside_a_table_are_the_next_column() -> None:
    assert is_page_columns(*_page(hang=0))
