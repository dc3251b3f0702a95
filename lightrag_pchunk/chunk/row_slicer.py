"""Stage B: cut one table's rows into slices that fill their caps (spec §6.1-§6.3).

Slices are planned from the rows' cached costs (``chunk/table_rows.py: TableRows``) and each
re-wrapped slice is counted exactly, giving back rows while it is over its cap. Continuation
slices repeat the header ``chunk/slice_headers.py`` chooses; a single row over the cap even
alone is cut by characters (§6.2, §10). ``chunk/table_slices.py`` runs stage B over blocks.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from lightrag_pchunk.chunk.slice_headers import SliceHeaders
from lightrag_pchunk.chunk.table_rows import RepeatedHeader, TableRows
from lightrag_pchunk.chunk.text_split import split_counted
from lightrag_pchunk.tokens import TokenCounter

logger = logging.getLogger("lightrag.pchunk")


@dataclass(frozen=True, slots=True)
class Span:
    """Rows ``[start, end)`` of one slice, after ``header`` when one is repeated.

    The first slice always starts at row 0, so it holds the header rows naturally.
    """

    start: int
    end: int
    header: RepeatedHeader | None = None


@dataclass(frozen=True, slots=True)
class Piece:
    """One slice (or character piece) of a table, counted exactly."""

    text: str
    tokens: int
    span: Span | None = None  # None for a character-split piece (plain text)


class TableSlicer:
    """Fills slices greedily from cached row costs and verifies each re-wrapped slice
    with an exact count, giving back rows while it is over its cap (§6.1, §6.2)."""

    def __init__(
        self,
        rows: TableRows,
        counter: TokenCounter,
        cap: int,
        repeat: bool,
        keyed_rows: str | None = None,
    ) -> None:
        self.tag, self.rows, self.counter, self.cap = rows.tag, rows, counter, cap
        repeat = repeat and rows.header_count > 0 and rows.n - rows.header_count >= 2
        prefix, first = rows.prefix, rows.header_count
        smallest = min((prefix[i + 1] - prefix[i] for i in range(first, rows.n)), default=0)
        # Continuation slices of a data table always carry a header: the full one whenever
        # it leaves room for a row (a big header only makes the slices more numerous), else
        # its column labels.
        self.headers = SliceHeaders(rows, keyed_rows, cap, smallest, repeat)
        self.header = self.headers.table
        self.pinned = rows.header_count if self.header else 0
        self.scale = 1.0  # measured / estimated tokens of the last slice

    def estimate(self, span: Span) -> int:
        """The planned cost of a slice: wrapper (with the caption on the first), rows and
        the repeated header."""
        prefix = self.rows.prefix
        header = span.header.tokens if span.header else 0
        caption = self.rows.caption_cost if span.start == 0 else 0
        return self.rows.fixed + caption + header + prefix[span.end] - prefix[span.start]

    def has_room(self) -> bool:
        """Whether the smallest row fits a slice beside the ``<table>`` wrapper."""
        prefix = self.rows.prefix
        smallest = min(prefix[i + 1] - prefix[i] for i in range(self.rows.n))
        return self.rows.fixed + smallest <= self.cap

    def pieces(self, first_cap: int) -> tuple[list[Piece], bool]:
        """The slices in order, each as full as its cap allows (``first_cap`` for the
        first), a single row over the cap character-split; and whether the first slice
        needed a chunk of its own (not even the header and one row fit ``first_cap``)."""
        out: list[Piece] = []
        fresh = False
        start, n = 0, self.rows.n
        while start < n:
            cap = first_cap if start == 0 and not fresh else self.cap
            header = self.header if start > 0 else None
            first_row = self.pinned if start == 0 else start
            end = self._planned_end(start, header, cap, first_row + 1)
            piece = self._fitted(Span(start, end, header), cap, first_row)
            if piece is None and cap < self.cap:
                fresh = True  # retry the first slice in a chunk of its own
                continue
            if piece is None and start == 0 and self.pinned:
                # No data row fits beside the header rows: they are the first slice alone,
                # and the rows go on in continuation slices.
                out.extend(self._header_rows())
                start = self.pinned
                continue
            if piece is None:
                out.extend(self._oversized_row(first_row))
                start = first_row + 1
                continue
            out.append(piece)
            start = piece.span.end  # type: ignore[union-attr]
        return out, fresh

    def _planned_end(self, start: int, header: RepeatedHeader | None, cap: int, least: int) -> int:
        """The furthest row end whose estimated slice, scaled by the last measurement,
        stays within ``cap`` (at least ``least``)."""
        prefix = self.rows.prefix
        budget = cap / self.scale - self.estimate(Span(start, start, header))
        end = _bisect_right(prefix, prefix[start] + budget, start, self.rows.n + 1) - 1
        return max(end, min(least, self.rows.n))

    def _fitted(self, span: Span, cap: int, first_row: int) -> Piece | None:
        """The slice of ``span`` re-wrapped and counted, shortened row by row (in steps the
        measured excess suggests) until it fits ``cap``; None when one data row alone does
        not fit."""
        while True:
            text = self.rows.render(span.start, span.end, span.header)
            tokens = self.counter.count(text)
            estimated = max(self.estimate(span), 1)
            self.scale = max(tokens / estimated, 0.5)
            if tokens <= cap:
                return Piece(text, tokens, span)
            if span.end - first_row <= 1:
                return None
            target = self.rows.prefix[span.end] - (tokens - cap) / self.scale
            end = _bisect_right(self.rows.prefix, target, first_row + 1, span.end) - 1
            span = Span(span.start, max(min(end, span.end - 1), first_row + 1), span.header)

    def _header_rows(self) -> list[Piece]:
        """The header rows as a slice of their own (never fewer of them), else their
        character pieces."""
        head = self._fitted(Span(0, self.pinned), self.cap, self.pinned - 1)
        if head is not None:
            return [head]
        return self._characters(self.rows.render(0, self.pinned, None))

    def _oversized_row(self, row: int) -> list[Piece]:
        """One data row over the cap even alone with the table's header: the row alone
        after a shorter header if one fits (``slice_headers.py``), or alone if that fits,
        else its character pieces."""
        found = self.headers.beside(row, self.cap)
        if found is not None:
            header, text, tokens = found
            return [Piece(text, tokens, Span(row, row + 1, header))]
        alone = Span(row, row + 1)
        text = self.rows.render(row, row + 1, None)
        tokens = self.counter.count(text)
        if tokens <= self.cap:
            logger.debug(
                "table_slices table %s: row %d does not fit with the header; sliced alone",
                self.tag.table_id or "?",
                row,
            )
            return [Piece(text, tokens, alone)]
        logger.debug(
            "table_slices table %s: row %d alone has %d tokens > %d; character split",
            self.tag.table_id or "?",
            row,
            tokens,
            self.cap,
        )
        return self._characters(self.rows.row_text(row))

    def _characters(self, text: str) -> list[Piece]:
        return [Piece(t, n) for t, n in split_counted(text, self.cap, self.counter)]


def _bisect_right(prefix: Sequence[int], target: float, lo: int, hi: int) -> int:
    """The first index in ``[lo, hi)`` whose prefix exceeds ``target`` (``hi`` if none)."""
    while lo < hi:
        mid = (lo + hi) // 2
        if prefix[mid] <= target:
            lo = mid + 1
        else:
            hi = mid
    return lo


def even_out_last(
    pieces: list[Piece], slicer: TableSlicer, last_min: int, has_tail: bool
) -> list[Piece]:
    """A last slice under ``last_min`` with no text after it to join (§6.3): merged back
    into the slice before when the two fit one, else the two share their rows evenly."""
    if len(pieces) < 2 or has_tail:
        return pieces
    prev, last = pieces[-2], pieces[-1]
    if prev.span is None or last.span is None or last.tokens >= last_min:
        return pieces
    if prev.span.end != last.span.start:
        return pieces
    start, end, header = prev.span.start, last.span.end, prev.span.header
    text = slicer.rows.render(start, end, header)
    tokens = slicer.counter.count(text)
    if tokens <= slicer.cap:
        return [*pieces[:-2], Piece(text, tokens, Span(start, end, header))]
    prefix = slicer.rows.prefix
    first_row = slicer.pinned if start == 0 else start
    middle = _bisect_right(prefix, (prefix[first_row] + prefix[end]) / 2, first_row + 1, end) - 1
    middle = min(max(middle, first_row + 1), end - 1)
    left = slicer._fitted(Span(start, middle, header), slicer.cap, first_row)
    right = slicer._fitted(Span(middle, end, slicer.header), slicer.cap, middle)
    if left is None or right is None or left.span != Span(start, middle, header):
        return pieces
    if right.span != Span(middle, end, slicer.header):
        return pieces
    return [*pieces[:-2], left, right]
