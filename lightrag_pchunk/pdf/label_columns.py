"""Whether a run of rows in two columns is a table of labels beside their values.

Input: the rows of a run (segments, left to right), the two columns their cells fall into
(``table_runs.text_columns``) and whether rules part the rows. Output: yes for a property
table, a glossary or a form; no for what only looks like one: two columns of prose, a
contents page beside a cover, a reference list, or a list whose bullets stand in a column
of their own.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence

from lightrag_pchunk.pdf.page_columns import PROSE_COLUMNS_RATIO
from lightrag_pchunk.pdf.row_markers import MARKER_SHARE, is_bullet
from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.table_runs import MAX_LABEL_CHARS

#: A reference list's number: ``[12]``.
_CITATION = re.compile(r"\[\d{1,4}\]")
#: A table-of-contents entry's leaders, dots spaced or not (``. . . .``, ``....``, ``…``),
#: and its page number.
_LEADERS = re.compile(r"(?:(?:\.\s?){4,}|…+)\s*\d+\s*$")


def labels_beside_text(
    rows: Sequence[Sequence[Segment]], columns: Sequence[tuple[float, float]], *, ruled: bool
) -> bool:
    """Whether ``rows`` (two cells or more in some) read as short labels in the first of
    ``columns`` beside longer text in the second. Only the rows whose first cell stands in
    the first column hold labels: a justified line that its wide word spaces part into
    several segments starts in the second. Where most labels are a bullet beside one cell
    of text, the rows are a list's items, unless rules part them (``ruled``)."""
    (left, middle), (start, end) = columns[0], columns[1]
    labelled = [row for row in rows if len(row) >= 2 and row[0].x1 <= middle + 0.5]
    labels = [len(row[0].text) for row in labelled]
    others = [len(s.text) for row in rows if len(row) >= 2 for s in row[1:]]
    label_chars = statistics.median(labels) if labels else math.inf
    if label_chars > MAX_LABEL_CHARS:
        return False
    if label_chars >= statistics.median(others):
        return False  # two columns alike: text in columns, not labels and values
    if middle - left >= PROSE_COLUMNS_RATIO * (end - start):
        return False  # as wide as the text beside it: a page's two columns of text
    if any(_LEADERS.search(s.text) for row in rows for s in row):
        return False  # a contents page beside a cover's or a sidebar's lines
    cited = sum(_CITATION.fullmatch(row[0].text) is not None for row in labelled)
    if cited >= MARKER_SHARE * len(labelled):
        return False  # a reference list: ``[12]`` beside each entry
    bulleted = sum(is_bullet(row[0].text) and len(row) == 2 for row in labelled)
    return ruled or bulleted < MARKER_SHARE * len(labelled)
