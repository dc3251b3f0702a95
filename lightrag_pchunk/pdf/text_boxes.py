"""Stage A for PDF: text boxes side by side (a slide's, a résumé's) whose lines align as
rows of cells by chance, told from a table shown by its text's alignment (``text_tables``).

A title set large in a box of its own beside a box of text in body type (a slide's side
title, a résumé's name beside the contact lines) shares baselines with the text often
enough to read as a first column of labels; labels share their values' type (a property
table's names, a form's fields), a title's type stands a heading's step above it, and the
text beside it is one box, one column, where a table's labels set large head several.
A label stands on its value's baseline row after row (its box set off from the value's by
the same amount each time), where a title's lines meet the text's at any height.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from lightrag_pchunk.pdf.layout import TITLE_TYPE_RATIO
from lightrag_pchunk.pdf.paragraphs import is_bullet_glyph
from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.table_runs import text_columns

#: Boxes whose bottoms are set off by the same amount within this many points stand on
#: baselines the same way (a font's box reaches the same depth under every baseline).
BASELINE_TOLERANCE = 1.0


def titles_beside_text(rows: Sequence[Sequence[Segment]]) -> bool:
    """Whether the first cells of ``rows`` (segments on one baseline, left to right; rows
    of one cell aside) are set in type ``layout.TITLE_TYPE_RATIO`` times the median size of
    the cells beside them or larger, and those cells, their bullets aside, stand in one
    column: one box of text (a table's row labels set large beside several columns of
    cells, a figure's matrix, are a table's), nor on the baselines of the cells beside
    them (a table's labels set large beside their values)."""
    if _labels_on_value_baselines(rows):
        return False
    firsts = [row[0].size for row in rows if len(row) >= 2]
    others = [s for row in rows if len(row) >= 2 for s in row[1:]]
    if not firsts or not others or min(firsts) <= 0:
        return False
    if statistics.median(firsts) < TITLE_TYPE_RATIO * statistics.median(s.size for s in others):
        return False
    return len(text_columns([s for s in others if any(c.isalnum() for c in s.text)])) == 1


def _labels_on_value_baselines(rows: Sequence[Sequence[Segment]]) -> bool:
    """Whether two thirds of the rows of two cells or more (a bullet's aside), and two at
    least, set their first cell off from the cell beside it by the same amount
    (:data:`BASELINE_TOLERANCE`): labels printed on their values' baselines, not a title's
    lines meeting a text's by chance."""
    offsets = sorted(
        row[1].bottom - row[0].bottom
        for row in rows
        if len(row) >= 2 and not is_bullet_glyph(row[0].text.strip())
    )
    most = max(
        (sum(1 for b in offsets if a <= b <= a + BASELINE_TOLERANCE) for a in offsets), default=0
    )
    return most >= 2 and 3 * most >= 2 * len(offsets)
