"""Stage A for PDF: text boxes side by side (a slide's, a résumé's) whose lines align as
rows of cells by chance, told from a table shown by its text's alignment (``text_tables``).

A title set large in a box of its own beside a box of text in body type (a slide's side
title, a résumé's name beside the contact lines) shares baselines with the text often
enough to read as a first column of labels; labels share their values' type (a property
table's names, a form's fields), a title's type stands a heading's step above it, and the
text beside it is one box, one column, where a table's labels set large head several.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from lightrag_pchunk.pdf.layout import TITLE_TYPE_RATIO
from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.table_runs import text_columns


def titles_beside_text(rows: Sequence[Sequence[Segment]]) -> bool:
    """Whether the first cells of ``rows`` (segments on one baseline, left to right; rows
    of one cell aside) are set in type ``layout.TITLE_TYPE_RATIO`` times the median size of
    the cells beside them or larger, and those cells, their bullets aside, stand in one
    column: one box of text (a table's row labels set large beside several columns of
    cells, a figure's matrix, are a table's)."""
    firsts = [row[0].size for row in rows if len(row) >= 2]
    others = [s for row in rows if len(row) >= 2 for s in row[1:]]
    if not firsts or not others or min(firsts) <= 0:
        return False
    if statistics.median(firsts) < TITLE_TYPE_RATIO * statistics.median(s.size for s in others):
        return False
    return len(text_columns([s for s in others if any(c.isalnum() for c in s.text)])) == 1
