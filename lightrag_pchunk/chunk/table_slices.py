"""Stage B (spec §6): slice tables over ``table_max`` at row boundaries and give the
slices their ``table_chunk_role`` (first / middle / last).

Input: blocks from stage A. Output: the same blocks, except that a block holding an
oversized table becomes several: the first slice glued to the text before the table,
each middle slice alone, the last slice glued to the text after it (§6.4). Slices
partition the table's rows in order (invariant 4); the only repeated text is the
table's header row(s), which every continuation slice carries (as LightRAG 1.5.1+).
Every re-wrapped slice is counted exactly once and is at most the cap (``table_max``),
except a single row larger than that, which is kept whole as its own slice while it fits
``target_max`` (a chunk); only a row that alone exceeds ``target_max`` is character-split
(§6.2, §10). LightRAG cuts any row over ``table_max`` by characters, or the whole table.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass

from lightrag_pchunk.chunk.blocks import build_block, counted, has_big_table_line
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.table_tags import TableRows, TableTag, parse_table, table_rows
from lightrag_pchunk.chunk.text_split import split_text
from lightrag_pchunk.model import Block, Paragraph, TableRole
from lightrag_pchunk.tokens import TokenCounter

logger = logging.getLogger("lightrag.pchunk")


@dataclass(frozen=True, slots=True)
class _Span:
    """Rows ``[start, end)`` of one slice; ``with_header`` prepends the header rows.

    The first slice always starts at row 0, so it holds the header rows naturally.
    """

    start: int
    end: int
    with_header: bool = False


@dataclass(frozen=True, slots=True)
class _Piece:
    text: str
    tokens: int
    span: _Span | None = None  # None for a character-split piece (plain text)


@dataclass(frozen=True, slots=True)
class _Cut:
    pieces: list[Paragraph]
    is_structured: bool  # False: character pieces of an unrecognised table (§13.2)
    table_id: str = "?"


def slice_table(
    paragraph: Paragraph,
    ctx: Context,
    *,
    cap: int,
    ideal: int,
    last_min: int,
    repeat_header: bool = True,
    row_cap: int | None = None,
) -> list[Paragraph]:
    """The pieces of one table paragraph, in order, each with an exact token count.

    Slices aim at ``ideal`` and stay within ``cap``; a single row over ``cap`` stays whole
    up to ``row_cap`` (default ``cap``) and is character-split beyond it.

    A single-element list (the paragraph itself) means the table is kept whole.
    Pieces that are complete ``<table>`` tags have ``is_table=True``; character pieces
    (an unrecognised table, or one row over ``cap``) are plain text.
    """
    return _cut_table(
        paragraph,
        ctx,
        cap=cap,
        ideal=ideal,
        last_min=last_min,
        repeat_header=repeat_header,
        row_cap=row_cap,
    ).pieces


def table_slices(blocks: Sequence[Block], ctx: Context) -> list[Block]:
    """Stage B over every block; blocks without an oversized table pass through."""
    table_max = ctx.thresholds.table_max
    out: list[Block] = []
    for block in blocks:
        if block.paragraphs is None:
            # Lines not made: a table line of at most table_max bytes cannot need slicing.
            if not has_big_table_line(block.content, table_max):
                out.append(block)
                continue
            block = counted(block, ctx.counter)
        if any(p.is_table and p.tokens > table_max for p in block.paragraphs):
            out.extend(_slice_block(block, ctx))
        else:
            out.append(block)
    return out


def _slice_block(block: Block, ctx: Context) -> list[Block]:
    """Walk the paragraphs with an accumulator, gluing slices by role (§6.4)."""
    th = ctx.thresholds
    out: list[Block] = []
    acc: list[Paragraph] = []
    role = TableRole.NONE
    changed = False

    def flush() -> None:
        nonlocal acc, role
        if acc:
            out.append(build_block(acc, ctx.counter, like=block, role=role))
        acc, role = [], TableRole.NONE

    for paragraph in block.paragraphs:
        if not (paragraph.is_table and paragraph.tokens > th.table_max):
            acc.append(paragraph)
            continue
        cut = _cut_table(
            paragraph,
            ctx,
            cap=th.table_max,
            ideal=th.table_ideal,
            last_min=th.table_min_last,
            row_cap=th.target_max,
        )
        if len(cut.pieces) == 1:
            acc.append(paragraph)
            continue
        changed = True
        if not cut.is_structured:
            # Character pieces are ordinary text and take no role (§13.2).
            acc.extend(cut.pieces)
            continue
        first, *middles, last = cut.pieces
        if role is TableRole.LAST:
            # The previous table's last slice keeps its bridge text; stage B.1 shares it.
            flush()
        acc.append(first)
        role = TableRole.FIRST
        for middle in middles:
            flush()
            out.append(build_block([middle], ctx.counter, like=block, role=TableRole.MIDDLE))
        flush()
        acc, role = [last], TableRole.LAST
        logger.debug(
            "table_slices table_chunk_role table=%s row=%d slices=%d roles=first,%slast",
            cut.table_id,
            block.source_row,
            len(cut.pieces),
            "middle," * len(middles),
        )
    flush()
    return out if changed else [block]


def _cut_table(
    paragraph: Paragraph,
    ctx: Context,
    *,
    cap: int,
    ideal: int,
    last_min: int,
    repeat_header: bool = True,
    row_cap: int | None = None,
) -> _Cut:
    if paragraph.tokens <= cap:
        return _Cut([paragraph], True)
    tag = parse_table(paragraph.text)
    header = ctx.table_headers.get(tag.table_id) if tag and tag.table_id else None
    # The table's measured count gives a density to estimate its rows from (no row encodes).
    density = paragraph.tokens / len(paragraph.text) if paragraph.tokens > 0 else None
    rows = table_rows(tag, ctx.counter, header, density=density) if tag is not None else None
    if tag is None or rows is None:
        return _fallback(paragraph, ctx, cap, tag, "unrecognised table")
    row_cap = max(row_cap or cap, cap)
    pieces = _TableSlicer(rows, ctx.counter, cap, ideal, repeat_header, row_cap).pieces()
    if pieces is None:
        return _fallback(
            paragraph, ctx, row_cap, tag, "the <table> wrapper leaves no room for rows"
        )
    pieces = _swallow_last(pieces, rows, ctx.counter, cap, last_min)
    if len(pieces) == 1:
        return _Cut([paragraph], True)
    return _Cut(
        [Paragraph(p.text, p.tokens, is_table=p.span is not None) for p in pieces],
        any(p.span is not None for p in pieces),
        tag.table_id or "?",
    )


def _fallback(
    paragraph: Paragraph, ctx: Context, cap: int, tag: TableTag | None, reason: str
) -> _Cut:
    """Character split of the whole tag text (spec §10); nothing is dropped."""
    texts = split_text(paragraph.text, cap, ctx.counter, overlap=0)
    logger.debug(
        "table_slices table %s: %s (format=%s); character split into %d pieces",
        (tag.table_id if tag else None) or "?",
        reason,
        tag.format if tag else None,
        len(texts),
    )
    pieces = [Paragraph(text, ctx.counter.count(text), is_table=False) for text in texts]
    return _Cut(pieces or [paragraph], False)


class _TableSlicer:
    """Plans balanced row spans from cached row costs, then verifies each re-wrapped
    slice with one exact count, re-slicing any span still over the cap (§6.1, §6.2)."""

    def __init__(
        self,
        rows: TableRows,
        counter: TokenCounter,
        cap: int,
        ideal: int,
        repeat_header: bool,
        row_cap: int,
    ) -> None:
        self.tag, self.rows, self.counter, self.cap = rows.tag, rows, counter, cap
        self.row_cap = row_cap
        room = cap - rows.fixed
        repeat = repeat_header and rows.header_count > 0 and rows.n - rows.header_count >= 2
        if repeat and rows.header_cost > room / 2:
            logger.debug(
                "table_slices table %s: header of %d tokens is too big to repeat in a "
                "%d-token slice; slices are made without it",
                rows.tag.table_id or "?",
                rows.header_cost,
                cap,
            )
            repeat = False
        self.repeat = repeat
        # Pre-deduct the <table> wrapper and the repeated header from the budget so each
        # re-wrapped slice stays within the cap (§6.1).
        self.body_max = room - (rows.header_cost if repeat else 0)
        self.body_ideal = max(min(ideal, cap) - (cap - self.body_max), 1)
        self.pinned = rows.header_count if repeat else 0

    def pieces(self) -> list[_Piece] | None:
        """The slices in order, or None when not even one row fits beside the wrapper."""
        prefix, lo, hi = self.rows.prefix, self.pinned, self.rows.n
        smallest = min(prefix[i + 1] - prefix[i] for i in range(hi))
        if self.row_cap - self.rows.fixed < smallest:
            return None
        # Too small a cap for a row beside the wrapper: plan one row per slice (row_cap).
        self.body_max = max(self.body_max, 1)
        total = prefix[hi] - prefix[lo]
        k = max(math.ceil(total / self.body_ideal), math.ceil(total / self.body_max), 1)
        out: list[_Piece] = []
        pending = self._spans(_Span(0, hi), lo, k)[::-1]
        while pending:
            span = pending.pop()
            text = self.rows.render(span.start, span.end, span.with_header)
            tokens = self.counter.count(text)
            if tokens <= self.cap:
                out.append(_Piece(text, tokens, span))
                continue
            first_row = self.pinned if span.start == 0 else span.start
            if span.end - first_row < 2:
                out.extend(self._oversized_row(span, first_row, tokens))
                continue
            # Row-level recursion (§6.2): re-slice only this span, from cached costs.
            parts = max(2, math.ceil(tokens / self.cap))
            pending.extend(reversed(self._spans(span, first_row, parts)))
        return out

    def _spans(self, span: _Span, first_row: int, k: int) -> list[_Span]:
        """``span`` cut into ``k`` balanced spans over its data rows ``[first_row, end)``;
        the first keeps the span's start (and header), the others repeat the header."""
        bounds = self._bounds(first_row, span.end, k)
        spans = [_Span(span.start, bounds[1], span.with_header)]
        spans.extend(
            _Span(bounds[i], bounds[i + 1], self.repeat) for i in range(1, len(bounds) - 1)
        )
        return spans

    def _bounds(self, lo: int, hi: int, k: int) -> list[int]:
        """Row boundaries ``lo = b0 < ... < bk = hi`` cutting rows[lo:hi] into ``k`` runs of
        near-equal weight; a cut that would overfill its run moves back one row."""
        prefix = self.rows.prefix
        k = max(1, min(k, hi - lo))
        total = prefix[hi] - prefix[lo]
        bounds = [lo]
        for m in range(1, k):
            target = prefix[lo] + total * m / k
            first, last = bounds[-1] + 1, hi - (k - m)
            j = min(_bisect_left(prefix, target, first, last + 1), last)
            if j > first and (
                target - prefix[j - 1] <= prefix[j] - target
                or prefix[j] - prefix[bounds[-1]] > self.body_max
            ):
                j -= 1
            bounds.append(j)
        bounds.append(hi)
        return bounds

    def _oversized_row(self, span: _Span, row: int, tokens: int) -> list[_Piece]:
        """A span of one data row (``tokens`` with its header) over the cap: kept whole as
        its own slice within ``row_cap`` (with its header if that fits too, else the header
        goes its own way); character-split only if the row alone exceeds ``row_cap``."""
        if tokens <= self.row_cap:
            return [_Piece(self.rows.render(span.start, span.end, span.with_header), tokens, span)]
        out: list[_Piece] = []
        if span.start == 0 and self.pinned:
            out.extend(self._span_or_split(_Span(0, self.pinned)))
        logger.debug(
            "table_slices table %s: row %d does not fit with the header; sliced alone",
            self.tag.table_id or "?",
            row,
        )
        alone = _Span(row, row + 1)
        text = self.rows.render(row, row + 1, False)
        tokens = self.counter.count(text)
        if tokens <= self.row_cap:
            return [*out, _Piece(text, tokens, alone)]
        row_text = self.rows.row_text(row)
        texts = split_text(row_text, self.row_cap, self.counter, overlap=0)
        logger.debug(
            "table_slices table %s: row %d alone has %d tokens > %d; character split into "
            "%d pieces",
            self.tag.table_id or "?",
            row,
            tokens,
            self.row_cap,
            len(texts),
        )
        return out + [_Piece(t, self.counter.count(t)) for t in texts]

    def _span_or_split(self, span: _Span) -> list[_Piece]:
        text = self.rows.render(span.start, span.end, span.with_header)
        tokens = self.counter.count(text)
        if tokens <= self.row_cap:
            return [_Piece(text, tokens, span)]
        return [
            _Piece(t, self.counter.count(t))
            for t in split_text(text, self.row_cap, self.counter, overlap=0)
        ]


def _bisect_left(prefix: Sequence[int], target: float, lo: int, hi: int) -> int:
    while lo < hi:
        mid = (lo + hi) // 2
        if prefix[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _swallow_last(
    pieces: list[_Piece], rows: TableRows, counter: TokenCounter, cap: int, last_min: int
) -> list[_Piece]:
    """Merge a short last slice back into the previous one when it fits (§6.3)."""
    if len(pieces) < 2:
        return pieces
    prev, last = pieces[-2], pieces[-1]
    if prev.span is None or last.span is None or last.tokens >= last_min:
        return pieces
    if prev.span.end != last.span.start:
        return pieces
    span = _Span(prev.span.start, last.span.end, prev.span.with_header)
    text = rows.render(span.start, span.end, span.with_header)
    tokens = counter.count(text)
    if tokens > cap:
        return pieces
    return [*pieces[:-2], _Piece(text, tokens, span)]
