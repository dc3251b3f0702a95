"""Stage A for PDF: the grid of a table shown by its text's alignment, as the table finder
(``text_tables``) finds it and the page-columns check (``page_columns``) reads it.

A module of its own so that both import it and neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from lightrag_pchunk.pdf.segments import Segment

#: Column titles cut at a word space: each segment cut, with its pieces.
TitleCuts = tuple[tuple[Segment, tuple[Segment, ...]], ...]


@dataclass(frozen=True, slots=True)
class TextTable:
    """A table shown by its text's alignment: its column borders ``xs`` left to right and
    row borders ``ys`` top down, in the reading frame, its rows (by index between
    ``ys``) that title a group: one cell across every column, and its column titles cut
    at a word space (``cuts``): each segment cut with its pieces, which its cells
    hold in its place."""

    xs: list[float]
    ys: list[float]
    titles: frozenset[int] = frozenset()
    cuts: TitleCuts = ()
