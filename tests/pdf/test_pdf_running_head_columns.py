"""A "table" the text's alignment shows across a page's two columns (a column's lines
beside the next column's, a wide word space cutting those in two) is the page's columns,
though a running header crosses the gutter at the top of the page: columns of prose stand
between it and the rows. A line of prose across the gutter nearer the rows (text across
the page over a block set in two columns) still says the rows are a table's
(``page_columns.is_page_columns``)."""

from __future__ import annotations

from lightrag_pchunk.pdf.page_columns import is_page_columns
from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.text_table_grid import TextTable

PITCH = 11.0


def _segment(text: str, x0: float, top: float, x1: float, size: float = 9.0) -> Segment:
    return Segment(text, x0, top, x1, top + size, (x0, 0.0, x1, 0.0), 0, 0, 0, size)


def _page(across: tuple[str, float, float]) -> tuple[TextTable, list[Segment]]:
    """Two columns of prose from 60 to 280 and from 300 to 540 points, one line each
    :data:`PITCH` from 80 points down the page to 740; the right column's lines from 500
    to 560 points down cut in two at 470 points; ``across``: a line over both columns
    (text, size, top)."""
    text, size, top = across
    segments = [_segment(text, 60, top, 540, size)]
    for row in range(61):
        y = 80 + row * PITCH
        segments.append(_segment(f"Left column line {row} of the running prose", 60, y, 280))
        if 500 <= y <= 560:
            segments.append(_segment(f"Right column line {row} of the", 300, y, 450))
            segments.append(_segment("prose", 470, y, 540))
        else:
            segments.append(_segment(f"Right column line {row} of the running prose", 300, y, 540))
    rows = [80 + row * PITCH for row in range(61) if 500 <= 80 + row * PITCH <= 560]
    return TextTable(xs=[60, 290, 460, 540], ys=[rows[0] - 1, rows[-1] + 10]), segments


def test_a_running_header_across_the_columns_leaves_them_columns() -> None:
    header = ("256 P.N.J. Lane et al. / Journal of Hydrology 310 (2005) 253-265", 8.0, 40.0)
    assert is_page_columns(*_page(header))


def test_prose_across_the_gutter_next_to_the_rows_makes_them_a_table() -> None:
    prose = ("Text across the page over the block in two columns, set in the body type", 9.0, 488)
    assert not is_page_columns(*_page(prose))


def test_a_caption_of_a_float_across_the_columns_leaves_them_columns() -> None:
    # A paper's page opens with a table across both columns and its caption under it; the
    # columns of prose start below: rows aligned across the gutter further down are the
    # columns' lines, however the float's caption crosses the gutter.
    caption = ("Table 1. Comparison with different methods on the XFUN dataset", 9.0, 60.0)
    table, segments = _page(caption)
    float_rows = [_segment("Task", 60, 30, 80), _segment("0.8774 0.7761", 400, 30, 460)]
    assert is_page_columns(table, float_rows + segments)
    # A line across the gutter that is no caption, nearer the rows, still makes a table.
    prose = ("Text across the page over the block in two columns, set in the body type", 9.0, 488)
    assert not is_page_columns(*_page(prose))
