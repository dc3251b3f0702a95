"""Stage B (spec §6): slice tables at row boundaries where a block does not fit a chunk,
and give the slices their ``table_chunk_role`` (first / middle / last).

Input: blocks from stage A. Output: the same blocks, except that a block over
``target_max`` holding a table over ``table_max`` becomes several: the first slice glued
to the text before the table, each middle slice alone, the last slice glued to the text
after it (§6.4). Slices partition the table's rows in order (invariant 4); the only
repeated text is the table's header row(s), which every continuation slice carries (as
LightRAG 1.5.1+) or, where they leave no room for its rows, one row of its column labels
(``chunk/slice_headers.py``); its caption stays with the first slice only, or, where it
does not fit a slice beside the table's header rows, is text of its own before the table.

Slices fill a chunk: the first takes the room left after the text before the table (the
table starts a fresh chunk when not even its header and one row fit there), the others
up to ``target_max``; a short last slice with no text after it shares the rows of the one
before (how one table's rows are cut: ``chunk/row_slicer.py``). (The spec aims slices
at ``table_ideal`` = 0.375 N; on table-heavy documents that costs two to three times the
LLM calls of R.) Every slice is counted exactly once it is planned and is at most
``target_max``; a single row larger than that is character-split (§6.2, §10). Stage B
leaves no table over ``target_max`` for a later stage to cut.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from lightrag_pchunk.chunk.blocks import (
    PARAGRAPH_JOINER,
    build_block,
    counted,
    exceeds,
    has_big_table_line,
    make_paragraph,
)
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.row_slicer import TableSlicer, even_out_last
from lightrag_pchunk.chunk.table_rows import table_rows
from lightrag_pchunk.chunk.table_tags import TableTag, parse_table
from lightrag_pchunk.chunk.text_split import split_counted
from lightrag_pchunk.model import Block, Paragraph, TableRole

logger = logging.getLogger("lightrag.pchunk")

#: Tokens kept free beside the first slice for the seam with the text before it.
_SEAM_MARGIN = 2


@dataclass(frozen=True, slots=True)
class TableCut:
    """The pieces of one table paragraph, in order, each counted exactly.

    A single piece that is the paragraph itself means the table is kept whole.
    ``is_structured`` is False for the character pieces of an unrecognised table (§13.2);
    ``fresh_start`` is True when the first slice did not fit the room it was offered and
    was planned for a chunk of its own. ``uncaptioned`` is set (and ``pieces`` is the
    paragraph) when the caption does not fit a slice beside the header rows: the table is
    to be sliced again as ``uncaptioned``, after ``caption``, the caption as text.
    """

    pieces: list[Paragraph]
    is_structured: bool = True
    table_id: str = "?"
    fresh_start: bool = False
    caption: tuple[Paragraph, ...] = ()
    uncaptioned: Paragraph | None = None


def slice_table(
    paragraph: Paragraph,
    ctx: Context,
    *,
    cap: int,
    first_cap: int | None = None,
    last_min: int = 0,
    has_tail: bool = False,
    repeat_header: bool = True,
) -> TableCut:
    """Cut one table paragraph into slices of at most ``cap`` tokens, the first at most
    ``first_cap`` (default ``cap``); a table within ``first_cap`` is kept whole.

    Pieces that are complete ``<table>`` tags have ``is_table=True``; character pieces
    (an unrecognised table, or one row over ``cap``) are plain text.
    """
    first_cap = cap if first_cap is None else min(first_cap, cap)
    if paragraph.tokens <= first_cap:
        return TableCut([paragraph])
    tag = parse_table(paragraph.text)
    header = ctx.table_headers.get(tag.table_id) if tag and tag.table_id else None
    # The table's measured count gives a density to estimate its rows from (no row encodes).
    density = paragraph.tokens / len(paragraph.text) if paragraph.tokens > 0 else None
    rows = table_rows(tag, ctx.counter, header, density=density) if tag is not None else None
    if tag is None or rows is None:
        return _fallback(paragraph, ctx, cap, tag, "unrecognised table")
    keyed = ctx.keyed_rows.get(tag.table_id) if tag.table_id else None
    slicer = TableSlicer(rows, ctx.counter, cap, repeat_header, keyed)
    if not slicer.has_room():
        return _fallback(paragraph, ctx, cap, tag, "the <table> wrapper leaves no room for rows")
    if not rows.caption_rides(cap):
        return _caption_apart(paragraph, tag, ctx, cap)
    pieces, fresh = slicer.pieces(first_cap)
    pieces = even_out_last(pieces, slicer, last_min, has_tail)
    if len(pieces) == 1 and pieces[0].tokens <= first_cap:
        return TableCut([paragraph])
    return TableCut(
        [
            Paragraph(p.text, p.tokens, is_table=p.span is not None, is_piece=p.span is None)
            for p in pieces
        ],
        any(p.span is not None for p in pieces),
        tag.table_id or "?",
        fresh,
    )


def table_slices(blocks: Sequence[Block], ctx: Context) -> list[Block]:
    """Stage B over every block; a block that fits a chunk, or holds no table over
    ``table_max``, passes through."""
    th = ctx.thresholds
    out: list[Block] = []
    for block in blocks:
        # Lines not made: a table line of at most table_max bytes cannot need slicing.
        if block.paragraphs is None and not has_big_table_line(block.content, th.table_max):
            out.append(block)
            continue
        over, block = exceeds(block, th.target_max, ctx.counter)
        if not over:
            out.append(block)
            continue
        block = counted(block, ctx.counter)
        if any(p.is_table and p.tokens > th.table_max for p in block.paragraphs):
            out.extend(_slice_block(block, ctx))
        else:
            out.append(block)
    return out


def _slice_block(block: Block, ctx: Context) -> list[Block]:
    """Walk the paragraphs with an accumulator, gluing slices by role (§6.4)."""
    th = ctx.thresholds
    counter = ctx.counter
    out: list[Block] = []
    acc: list[Paragraph] = []
    role = TableRole.NONE
    changed = False

    def flush() -> None:
        nonlocal acc, role
        if acc:
            out.append(build_block(acc, counter, like=block, role=role))
        acc, role = [], TableRole.NONE

    paragraphs = block.paragraphs
    for index, paragraph in enumerate(paragraphs):
        if not (paragraph.is_table and paragraph.tokens > th.table_max):
            acc.append(paragraph)
            continue
        has_tail = index + 1 < len(paragraphs)
        cut = _slice_after(paragraph, acc, role, ctx, has_tail)
        if cut.uncaptioned is not None:
            # The caption does not fit the table's first slice: it is text that opens the
            # table's chunk (the text before it stays in the chunk before when the first
            # slice cannot join it).
            caption, paragraph, changed = list(cut.caption), cut.uncaptioned, True
            cut = _slice_after(paragraph, [*acc, *caption], role, ctx, has_tail)
            if len(cut.pieces) > 1 and (role is TableRole.LAST or cut.fresh_start):
                flush()
                cut = _slice_after(paragraph, caption, role, ctx, has_tail)
            acc.extend(caption)
        if len(cut.pieces) == 1:
            acc.append(paragraph)
            continue
        changed = True
        if not cut.is_structured:
            # Character pieces are ordinary text and take no role (§13.2).
            acc.extend(cut.pieces)
            continue
        first, *middles, last = cut.pieces
        if role is TableRole.LAST or cut.fresh_start:
            # The previous table's last slice keeps its bridge text (stage B.1 shares it);
            # text with no room for the first slice is a chunk of its own.
            flush()
        acc.append(first)
        role = TableRole.FIRST
        for middle in middles:
            flush()
            out.append(build_block([middle], counter, like=block, role=TableRole.MIDDLE))
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


def _slice_after(
    paragraph: Paragraph, acc: Sequence[Paragraph], role: TableRole, ctx: Context, has_tail: bool
) -> TableCut:
    """Slice a table that follows ``acc`` (the text of the chunk being filled, after a
    table's last slice when ``role`` is LAST), its first slice in the room ``acc`` leaves."""
    th = ctx.thresholds
    joiner = ctx.counter.count(PARAGRAPH_JOINER)
    if role is TableRole.LAST:
        # After a table's last slice the first slice starts afresh, leaving room for
        # the bridge text stage B.1 copies in front of it (spec §7).
        bridge = sum(p.tokens + joiner for p in acc[1:])
        used = min(ctx.overlap, bridge, th.target_max // 2) + joiner
    else:
        used = _tail_tokens(acc, th.target_max, joiner) + (joiner if acc else 0)
    return slice_table(
        paragraph,
        ctx,
        cap=th.target_max,
        first_cap=th.target_max - used - _SEAM_MARGIN,
        last_min=th.table_min_last,
        has_tail=has_tail,
    )


def _caption_apart(paragraph: Paragraph, tag: TableTag, ctx: Context, cap: int) -> TableCut:
    """A table whose caption does not fit a slice beside its header rows: the caption as
    text (R's pieces when it is over ``cap`` alone) and the table without it, to slice."""
    caption: list[Paragraph] = []
    if tag.caption:
        tokens = ctx.counter.count(tag.caption)
        texts = [(tag.caption, tokens)]
        if tokens > cap:
            texts = split_counted(tag.caption, cap, ctx.counter, tokens=tokens)
        caption = [make_paragraph(text, ctx.counter, n) for text, n in texts]
    logger.debug(
        "table_slices table %s: caption does not fit a slice beside the header; kept as text",
        tag.table_id or "?",
    )
    table = make_paragraph(tag.without_caption().wrap(tag.body), ctx.counter)
    return TableCut([paragraph], table_id=tag.table_id or "?", caption=tuple(caption),
                    uncaptioned=table)  # fmt: skip


def _tail_tokens(paragraphs: Sequence[Paragraph], cap: int, joiner: int) -> int:
    """Tokens of the last chunk that packing ``paragraphs`` greedily within ``cap`` would
    fill: the text the first slice shares its chunk with."""
    total = 0
    for paragraph in paragraphs:
        grown = total + paragraph.tokens + (joiner if total else 0)
        total = grown if grown <= cap or not total else paragraph.tokens
    return total


def _fallback(
    paragraph: Paragraph, ctx: Context, cap: int, tag: TableTag | None, reason: str
) -> TableCut:
    """Character split of the whole tag text (spec §10); nothing is dropped."""
    texts = split_counted(paragraph.text, cap, ctx.counter)
    logger.debug(
        "table_slices table %s: %s (format=%s); character split into %d pieces",
        (tag.table_id if tag else None) or "?",
        reason,
        tag.format if tag else None,
        len(texts),
    )
    pieces = [Paragraph(text, tokens, is_piece=True) for text, tokens in texts]
    return TableCut(pieces or [paragraph], is_structured=False)
