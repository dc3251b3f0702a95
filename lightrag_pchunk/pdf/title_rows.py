"""Stage A for PDF: the rows of a page that print a bookmarked title, which no table
shown by its text's alignment holds (``text_tables``).

Input: a page's segments and the titles its bookmarks name, normalised. Output: the
segments cut into the stretches those rows part, and the segments that print the titles.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from lightrag_pchunk.outline.items import LARGER_BY
from lightrag_pchunk.pdf.layout import visual_rows
from lightrag_pchunk.pdf.outline import normalise
from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.text_table_grid import TextTable


def between_titles(
    segments: Sequence[Segment], titles: frozenset[str]
) -> tuple[list[list[Segment]], list[Segment]]:
    """``segments`` without the rows that print one of ``titles`` in segments side by side
    set larger than most of ``segments`` (by ``outline.items.LARGER_BY`` at least), cut
    into the stretches those rows part, and the segments that print the titles."""
    if not segments:
        return [], []
    larger = statistics.median(s.height for s in segments) + LARGER_BY
    parts: list[list[Segment]] = [[]]
    printed: list[Segment] = []
    for row in visual_rows(segments):
        row = sorted(row, key=lambda s: s.x0)
        texts = [s.text for s in row]
        whole = normalise(" ".join(texts))
        spans = []
        if any(title in whole for title in titles):
            spans = [
                (i, j)
                for i in range(len(row))
                for j in range(i + 1, len(row) + 1)
                if normalise(" ".join(texts[i:j])) in titles
                and min(s.height for s in row[i:j]) >= larger
            ]
        if spans:
            parts.append([])
            printed += [s for i, j in spans for s in row[i:j]]
        else:
            parts[-1] += row
    return [part for part in parts if part], printed


def overlap(one: TextTable, other: TextTable) -> bool:
    """Whether the borders of two tables overlap."""
    return (
        one.xs[0] < other.xs[-1]
        and other.xs[0] < one.xs[-1]
        and one.ys[0] < other.ys[-1]
        and other.ys[0] < one.ys[-1]
    )
