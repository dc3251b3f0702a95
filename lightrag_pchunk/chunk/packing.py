"""Greedy packing of paragraphs into blocks within a cap: stage C's no-anchor path
(spec §8.3) and heading glue use it. Every packed block is within the cap on its exact
count (or an estimate whose bounds agree), so no later stage needs to cut again."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from lightrag_pchunk.chunk.blocks import build_block, exceeds, joiner_for
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.model import Block, Paragraph, TableRole


@dataclass(frozen=True, slots=True)
class PackPiece:
    """A paragraph to pack, with ``holder`` set when it carries the block's table role and
    ``r_group`` >= 0 for the pieces of one R split (they overlap, so two of them never
    share a chunk)."""

    paragraph: Paragraph
    holder: bool = False
    r_group: int = -1


def pack_pieces(
    pieces: Sequence[PackPiece], block: Block, ctx: Context, *, cap: int
) -> list[Block]:
    """Greedy packing of ``pieces`` into blocks like ``block`` of at most ``cap`` tokens. A
    group is planned on the pieces' counts and verified when built: a group still over the
    cap gives its last piece to the next one. A single piece over ``cap`` stays alone and
    is marked ``oversize``."""
    counter = ctx.counter
    joiner = counter.count(joiner_for(p.paragraph.text for p in pieces))
    groups: list[list[PackPiece]] = []
    current: list[PackPiece] = []
    total = 0
    for piece in pieces:
        tokens = piece.paragraph.tokens
        if current:
            same_split = piece.r_group >= 0 and piece.r_group == current[-1].r_group
            if total + joiner + tokens <= cap and not same_split:
                current.append(piece)
                total += joiner + tokens
                continue
            groups.append(current)
        current, total = [piece], tokens
    if current:
        groups.append(current)
    holders = [i for i, group in enumerate(groups) if any(p.holder for p in group)]
    # One piece only keeps the role: the one holding the slice that defines it.
    role_group = (holders[-1] if block.role is TableRole.FIRST else holders[0]) if holders else -1
    out: list[Block] = []
    for index, group in enumerate(groups):
        role = block.role if index == role_group else TableRole.NONE
        out.extend(_within(group, block, ctx, cap, role))
    return out


def _within(
    group: list[PackPiece], block: Block, ctx: Context, cap: int, role: TableRole
) -> list[Block]:
    """``group`` as blocks within ``cap``: one block, unless its joined text is over the
    cap after all (seams), when trailing pieces move to a block of their own."""
    out: list[Block] = []
    pending = group
    while pending:
        take = len(pending)
        while True:
            paragraphs = [p.paragraph for p in pending[:take]]
            built = build_block(paragraphs, ctx.counter, like=block, role=TableRole.NONE)
            over, built = exceeds(built, cap, ctx.counter)
            if not over or take == 1:
                break
            take -= 1
        if take == 1 and paragraphs[0].tokens > cap:
            built = replace(built, oversize="unbreakable text")
        if role is not TableRole.NONE and any(p.holder for p in pending[:take]):
            built = replace(built, role=role)  # the piece holding the slice keeps the role
        out.append(built)
        pending = pending[take:]
    return out
