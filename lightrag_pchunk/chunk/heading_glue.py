"""Heading glue (LightRAG 1.5.1+ HeadingGlue): a block that holds only heading lines is
joined forward to the deeper section that follows it, so a heading is never a chunk of
its own and never glued to the end of the previous section.

Input: blocks after stage C. Output: the same blocks, except that each
heading-only block is merged (``"\\n\\n"``) into the next block when that block is deeper
(level strictly greater), is not a middle or last table slice, and neither is a pinned
title block. The result keeps the heading block's identity (heading, parents, level)
and takes the next block's table role. Chains (``# 2``, ``## 2.4``, ``### 2.4.1``)
collapse into the shallowest heading. When the joined text would exceed ``target_max``
the next block is cut so that its first piece fits beside the headings; the rest keeps
the next block's identity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.chunk.block_runs import join_blocks
from lightrag_pchunk.chunk.blocks import (
    BLOCK_JOINER,
    build_block,
    counted,
    holds_table,
    is_heading_line,
    joiner_for,
    line_paragraphs,
)
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.paragraph_pack import PackPiece, pack_pieces
from lightrag_pchunk.model import Block, TableRole

_GLUABLE_ROLES = (TableRole.NONE, TableRole.FIRST)


def is_heading_only(block: Block) -> bool:
    """True when the block has a heading and every non-blank line is a Markdown heading.

    Decided on the content, whose non-blank lines are the block's paragraphs whether they
    are made or not (``Block.paragraphs`` may be None)."""
    content = block.content
    if not is_heading_line(content[content.rfind("\n") + 1 :]):
        return False  # the common case: the last line is body text
    return bool(block.heading.strip()) and _is_heading_lines(content)


def heading_glue(blocks: Sequence[Block], ctx: Context) -> list[Block]:
    """Glue every heading-only block forward into the deeper block after it."""
    # Right to left: the block after a heading is already glued, so chains collapse.
    out: list[Block] = []  # reversed output
    for block in reversed(blocks):
        if out and _can_glue(block, out[-1]):
            nxt = out.pop()
            out.extend(reversed(_glue(block, nxt, ctx)))
        else:
            out.append(block)
    out.reverse()
    return out


def _can_glue(heading: Block, nxt: Block) -> bool:
    return (
        is_heading_only(heading)
        and not heading.is_title
        and not nxt.is_title
        and heading.is_toc == nxt.is_toc
        and nxt.level > heading.level
        and nxt.role in _GLUABLE_ROLES
    )


def _glue(heading: Block, nxt: Block, ctx: Context) -> list[Block]:
    """``[glued]``, or ``[glued, rest...]`` when ``nxt`` had to be cut to fit the cap, or
    ``[heading, nxt]`` unchanged when not even a piece of ``nxt`` fits beside the heading."""
    counter = ctx.counter
    cap = ctx.thresholds.target_max
    # A glued block stage D's pack may cut (twice small_tail_threshold) keeps its lines, so
    # it is cut as the lines were written, whichever of them were counted.
    keep_lines = heading.tokens + nxt.tokens >= 2 * ctx.thresholds.small_tail_threshold
    glued = join_blocks(heading, nxt, cap, counter, role=nxt.role, keep_lines=keep_lines)
    if glued is not None:
        return [glued]
    room = cap - heading.tokens - counter.count(BLOCK_JOINER)
    pieces = _first_piece_within(nxt, room, ctx)
    if pieces is None:
        return [heading, nxt]
    first, rest = pieces
    glued = join_blocks(heading, first, cap, counter, role=first.role, keep_lines=keep_lines)
    if glued is None:
        return [heading, nxt]
    return [glued, *rest]


def _first_piece_within(block: Block, room: int, ctx: Context) -> tuple[Block, list[Block]] | None:
    """``block`` cut into a first piece of at most ``room`` tokens and the rest (each within
    ``target_max``), or None when no such piece holds text beyond the block's own heading
    lines (they do not fit, or its first paragraph of text is a table that does not)."""
    if room < 1:
        return None
    counter = ctx.counter
    block = counted(block, counter)
    if not block.paragraphs:
        return None
    paragraphs = list(block.paragraphs)
    # The block's own heading lines lead into its text: a first piece of heading lines only
    # would leave them without it, so the first paragraph of text is cut if need be.
    body = next((i for i, p in enumerate(paragraphs) if not _is_heading_lines(p.text)), 0)
    if holds_table(paragraphs[body]):  # a table is cut at its rows, never beside a heading
        body = 0
    lead = sum(p.tokens for p in paragraphs[:body])
    first = paragraphs[body]
    if lead + first.tokens > room and "\n" in first.text:  # several lines: cut at them first
        paragraphs[body : body + 1] = line_paragraphs(first, counter)
        block = replace(block, paragraphs=tuple(paragraphs))
    joiner = counter.count(joiner_for(p.text for p in paragraphs))
    holder = len(paragraphs) - 1 if block.role is TableRole.FIRST else body
    taken, total = 0, 0
    for paragraph in paragraphs:
        extra = paragraph.tokens + (joiner if taken else 0)
        if total + extra > room:
            break
        taken, total = taken + 1, total + extra
    pieces = [PackPiece(p, i == holder) for i, p in enumerate(paragraphs)]
    if taken < body:
        return None
    if taken == body:
        first_paragraph = paragraphs[body]
        left = room - total - (joiner if body else 0)
        if first_paragraph.is_table or left < 1:
            return None
        split = ctx.split_long_text(first_paragraph, room, counter, ctx.overlap, left)
        if len(split) < 2:
            return None
        head = [PackPiece(paragraph, holder == body, 0) for paragraph in split]
        pieces = [*pieces[:body], *head, *pieces[body + 1 :]]
        taken = body + 1
    head = pieces[:taken]
    first_role = block.role if any(p.holder for p in head) else TableRole.NONE
    first = build_block([p.paragraph for p in head], counter, like=block, role=first_role)
    # pack_pieces gives the role to the rest piece holding the slice, if the head did not.
    rest = pack_pieces(pieces[taken:], block, ctx, cap=ctx.thresholds.target_max)
    return first, rest


def _is_heading_lines(text: str) -> bool:
    """Whether every non-blank line of ``text`` is a Markdown heading."""
    return all(is_heading_line(line) for line in text.split("\n") if line.strip())
