"""Stage D (spec §9): hierarchy-aware merging of small blocks, deepest level first.

Input: blocks after stage C and heading glue, each within ``target_max``.
Output: fewer, fuller blocks. For each level L, deepest first:

- Phase A (§9.2) merges adjacent peers at level L — same level, identical
  ``parent_headings`` — greedily left to right while the growing block is below
  ``target_ideal``; a block that reached ``target_ideal`` absorbs a following run of
  small peers in one go only when the run totals less than ``small_tail_threshold``
  (D.2, §9.3).
- Phase B (§9.4) lets a small block absorb the deeper blocks of its own subtree that
  follow it (shallow absorbs deep, never the reverse): a level-L block absorbs following
  descendants, and a shallower block absorbs a following small level-L descendant.

Every merge keeps the left block's identity (heading, parents, level; §9.5) and
all block ids, and must stay within ``target_max`` on the joined text (D.0, §9.5: an
estimate from cached counts, re-encoded whenever the estimate cannot decide). Table
roles gate merges by direction (§9.1, §9.2): a middle slice never merges, a first slice
is never absorbed by the block before it, a last slice absorbs nothing in Phase A.
Pinned title blocks (``is_title``) take part only as the absorbing side of Phase B; a table
of contents (``is_toc``) merges only with another one, except in Phase C when one side is a
few lines (a cover page, or a table of contents of a few lines before a section).

One deliberate difference from LightRAG: when the untitled preamble
(``Preface/Uncategorized``, no parents) merges with the titled section after it, the
merged block takes that section's identity instead of labelling the section "Preface"; its
chunk is labelled at stage E from the sections it holds, the preamble first when it has a
body of its own (``chunk/preface.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from lightrag_pchunk.chunk.block_runs import BlockRun, heading_path
from lightrag_pchunk.chunk.blocks import BLOCK_JOINER, common_path, is_heading_line, is_table_text
from lightrag_pchunk.chunk.context import CHAPTER, PACK, Context
from lightrag_pchunk.chunk.merge_pack import pack_fill
from lightrag_pchunk.chunk.runs import (
    MAX_FILL_DEPTH,
    Item,
    absorbs_forward,
    add_to_run,
    built,
    can_be_absorbed,
    is_descendant,
    is_small_leaf,
    is_untitled,
    last_run,
)
from lightrag_pchunk.model import Block

logger = logging.getLogger("lightrag.pchunk")

#: How often a level's two phases are repeated at most; greedy passes settle in one or two.
_MAX_ROUNDS = 4


def merge(blocks: Sequence[Block], ctx: Context) -> list[Block]:
    """Stage D: Phase A then Phase B for every level, deepest first; then Phase C. A
    block Phase C made (children headed by their parent) may meet a sibling of that
    parent, so the phases run again while Phase C merges anything. With
    ``CHUNK_P_FILL=pack`` the fewest runs are chosen at once instead (:func:`pack_fill`)."""
    if ctx.fill == PACK:
        return pack_fill(blocks, ctx)
    current = list(blocks)
    for _ in range(_MAX_ROUNDS):
        for level in sorted({block.level for block in current}, reverse=True):
            for _ in range(_MAX_ROUNDS):
                current = _peer_pass(current, level, ctx)
                before = len(current)
                current = _cross_level_pass(current, level, ctx)
                # One greedy Phase A pass settles its level; only Phase B merges can make
                # new neighbours for it (a block that absorbed its children meets its
                # next sibling).
                if len(current) == before:
                    break
        before = len(current)
        current = _fill_pass(current, ctx)
        if len(current) == before:
            break
    return current


def _is_small(tokens: int, ctx: Context) -> bool:
    return 0 < tokens < ctx.thresholds.target_ideal


def _are_peers(left: Block, right: Block, level: int) -> bool:
    return (
        left.level == level
        and right.level == level
        and not left.is_title
        and not right.is_title
        and left.is_toc == right.is_toc
        and left.parent_headings == right.parent_headings
    )


def _identity(item: Item) -> Block:
    return item.identity if isinstance(item, BlockRun) else item


def _last_block(item: Item) -> Block:
    return item.last if isinstance(item, BlockRun) else item


def _peer_pass(blocks: list[Block], level: int, ctx: Context) -> list[Block]:
    """Phase A and D.2 at ``level``: one greedy left-to-right pass."""
    items: list[Item] = []
    ideal = ctx.thresholds.target_ideal  # _is_small, inlined: this loop sees every block
    i, n = 0, len(blocks)
    while i < n:
        block = blocks[i]
        if items and block.level == level:
            acc = items[-1]
            identity = _identity(acc)
            small = 0 < acc.tokens < ideal
            if (
                small
                and _are_peers(identity, block, level)
                and absorbs_forward(_last_block(acc), cross_level=False)
                and can_be_absorbed(block)
                and add_to_run(last_run(items), [block], ctx)
            ):
                i += 1
                continue
            if identity.level == level and not small:
                end = _absorb_tail(items, blocks, i, level, ctx)
                if end > i:
                    i = end
                    continue
        items.append(block)
        i += 1
    return built(items)


def _absorb_tail(
    items: list[Item], blocks: list[Block], start: int, level: int, ctx: Context
) -> int:
    """D.2: the last item (at or above ideal) absorbs the run of small peers from ``start``
    when the run totals less than ``small_tail_threshold`` and the result fits. Returns the
    index after what was absorbed (``start`` when nothing was)."""
    acc = items[-1]
    identity = _identity(acc)
    if identity.is_title or not absorbs_forward(_last_block(acc), cross_level=False):
        return start
    threshold = ctx.thresholds.small_tail_threshold
    joiner = ctx.counter.count(BLOCK_JOINER)
    total, end = 0, start
    while end < len(blocks):
        block = blocks[end]
        if not (
            _are_peers(identity, block, level)
            and _is_small(block.tokens, ctx)
            and can_be_absorbed(block)
        ):
            break
        total += block.tokens + (joiner if end > start else 0)
        if total >= threshold:
            return start  # the run is big enough to stand on its own
        end += 1
    if end == start or not add_to_run(last_run(items), blocks[start:end], ctx):
        return start
    logger.debug(
        "merge tail: %r absorbed %d small block(s) of %d tokens",
        identity.heading,
        end - start,
        total,
    )
    return end


def _cross_level_pass(blocks: list[Block], level: int, ctx: Context) -> list[Block]:
    """Phase B at ``level``: a shallower block absorbs the deeper block after it."""
    items: list[Item] = []
    for block in blocks:
        if items and block.level >= level:
            acc = items[-1]
            shallow = _identity(acc)
            forward = shallow.level == level and block.level > level
            backward = (
                block.level == level and shallow.level < level and _is_small(block.tokens, ctx)
            )
            if (
                (forward or backward)
                and _is_small(acc.tokens, ctx)
                and absorbs_forward(_last_block(acc), cross_level=True)
                and can_be_absorbed(block)
                and shallow.is_toc == block.is_toc
                and is_descendant(shallow, block)
                and add_to_run(last_run(items), [block], ctx)
            ):
                continue
        items.append(block)
    return built(items)


def _fill_pass(blocks: list[Block], ctx: Context) -> list[Block]:
    """Phase C, after every level: what the hierarchy left too small joins a neighbour
    under the same grandparent, within target_max:

    - a block under small_tail_threshold joins the block before it, or else the block
      after it (so a run of such blocks merges too);
    - a block that is only a table under table_min_last joins the text before it (or, as
      the first of its run, takes the block after it);
    - the untitled preface (a cover page) below target_ideal joins the first section;
    - with ``CHUNK_P_FILL=chapter`` only: inside one chapter (a shared heading path, within
      the same depth limit), a block under target_ideal joins its neighbour, and a
      shallower block may join the deeper one before it ("6.4" after "6.3.3").

    A table of contents joins another one, a few lines of untitled front matter, or, being a
    few lines itself (under small_tail_threshold), anything. As in Phase B, a block never
    joins a deeper block before it, outside ``chapter`` fill (a new chapter does not end the
    previous one's last clause), except a block of the same chapter under
    small_tail_threshold with no subsection after it.
    """
    items: list[Item] = []
    for index, block in enumerate(blocks):
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        if (
            items
            and _fills(items[-1], block, following, ctx)
            and add_to_run(last_run(items), [block], ctx)
        ):
            continue
        items.append(block)
    return built(items)


def _members(item: Item) -> list[Block]:
    return item.blocks if isinstance(item, BlockRun) else [item]


def _fills(item: Item, block: Block, following: Block | None, ctx: Context) -> bool:
    """Whether Phase C joins ``block`` to the run ``item`` (see :func:`_fill_pass`);
    ``following`` is the block after ``block``."""
    th = ctx.thresholds
    members = _members(item)
    first = members[0]
    if (
        _identity(item).is_title
        or not absorbs_forward(_last_block(item), cross_level=True)
        or not can_be_absorbed(block)
    ):
        return False
    small = th.small_tail_threshold
    if _identity(item).is_toc != block.is_toc and not _toc_may_join(members, block, small):
        return False
    if len(members) == 1 and is_untitled(first) and first.tokens < th.target_ideal:
        return True  # the preface joins the first section
    paths = [heading_path(b) for b in [*members, block]]
    top = common_path(paths)
    chapter = ctx.fill == CHAPTER and bool(top)  # CHUNK_P_FILL=chapter, inside one chapter
    if any(len(path) - len(top) > MAX_FILL_DEPTH for path in paths):
        return False
    if block.level < members[-1].level and not chapter:
        # A shallower section never joins the deeper one before it (§9.4), unless it is a
        # few lines of the same chapter with nothing under it: "6.4 评价流程 … 参见附录A。"
        # before chapter 7 would otherwise be an LLM call of its own.
        return bool(top) and is_small_leaf(block, following, small)
    if 0 < block.tokens < small or all(0 < b.tokens < small for b in members):
        return True  # a small block joins its neighbour, the previous one first
    if chapter and (_is_small(block.tokens, ctx) or _is_small(item.tokens, ctx)):
        return True  # fill=chapter: under target_ideal, it fills up inside its chapter
    if _is_small_table(block, th.table_min_last):
        return True
    return len(members) == 1 and _is_small_table(first, th.table_min_last)


def _toc_may_join(members: Sequence[Block], block: Block, small: int) -> bool:
    """Whether a table of contents and other text may share a chunk: when either side is a
    few lines (under ``small``), the other side being untitled front matter (a cover page)
    if it is the table of contents that is long. A long table of contents never dilutes a
    section, nor a front-matter table (a revision history) its chunk."""
    joined = [*members, block]
    toc = sum(b.tokens for b in joined if b.is_toc)
    other = [b for b in joined if not b.is_toc]
    if toc < small:
        return True
    return all(is_untitled(b) for b in other) and sum(b.tokens for b in other) < small


def _is_small_table(block: Block, limit: int) -> bool:
    """A block that holds only table tags (and heading lines), under ``limit`` tokens."""
    if block.tokens >= limit or "<table" not in block.content:
        return False
    return all(
        is_table_text(line) or is_heading_line(line)
        for line in block.content.split("\n")
        if line.strip()
    )
