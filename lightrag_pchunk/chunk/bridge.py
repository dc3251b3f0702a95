"""Stage B.1 (spec §7): share the bridge text between two sliced tables of one row.

Input: stage B's blocks. Where a block X (role LAST: a table's last slice, then the
bridge text) is followed by a block Y (role FIRST: the next table's first slice) of the
same content row, the bridge becomes the post-text of X and the pre-text of Y within a
per-side budget; a bridge longer than both budgets leaves its middle as an ordinary
block between them. This is the only copy of text across paragraphs (invariant 3).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from lightrag_pchunk.chunk.blocks import (
    PARAGRAPH_JOINER,
    build_block,
    counted,
    exact,
    holds_table,
    joiner_for,
    paragraphs_of,
    split_paragraphs,
)
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.model import Block, Paragraph, TableRole
from lightrag_pchunk.tokens import TokenCounter

logger = logging.getLogger("lightrag.pchunk")

#: Characters after which a cut reads naturally (sentence and clause ends, Latin and CJK).
_CUT_AFTER = frozenset(".!?;:,。！？；：，、")


def bridge(blocks: Sequence[Block], ctx: Context) -> list[Block]:
    """Stage B.1 over every (LAST, FIRST) pair of the same row; all else passes through."""
    out: list[Block] = []
    for block in blocks:
        previous = out[-1] if out else None
        if previous is not None and _is_pair(previous, block):
            out[-1:] = _share(previous, block, ctx)
        else:
            out.append(block)
    return out


def _is_pair(left: Block, right: Block) -> bool:
    return (
        left.role is TableRole.LAST
        and right.role is TableRole.FIRST
        and left.source_row == right.source_row
        and bool(paragraphs := paragraphs_of(left))
        and paragraphs[0].is_table
        and not any(holds_table(p) for p in paragraphs[1:])
    )


def _budget(base_tokens: int, ctx: Context) -> int:
    """Room for bridge text beside ``base_tokens``: at most the overlap, the space left
    under target_max after a joiner, and half of target_max (spec §7)."""
    target_max = ctx.thresholds.target_max
    room = target_max - base_tokens - ctx.counter.count(PARAGRAPH_JOINER)
    return max(min(ctx.overlap, room, target_max // 2), 0)


def _share(left: Block, right: Block, ctx: Context) -> list[Block]:
    """``[X', (middle), Y']`` for the pair X = ``left``, Y = ``right``."""
    left, right = counted(left, ctx.counter), counted(right, ctx.counter)
    bridge_paragraphs = left.paragraphs[1:]
    if ctx.overlap <= 0 or not bridge_paragraphs:
        return [left, right]
    counter = ctx.counter
    last_slice = left.paragraphs[0]
    prev_budget = _budget(last_slice.tokens, ctx)
    next_budget = _budget(exact(right, counter).tokens, ctx)
    texts = [p.text for p in bridge_paragraphs]
    text = joiner_for(texts).join(texts)
    ids = counter.encode(text)
    if len(ids) <= prev_budget and len(ids) <= next_budget:
        shared = build_block([*bridge_paragraphs, *right.paragraphs], counter, like=right)
        _log(left, len(ids), 0, len(ids))
        return [left, shared]
    end = _prefix_end(text, ids, prev_budget, counter)
    start = _suffix_start(text, ids, next_budget, counter)
    # Whitespace at the cuts is dropped; prefix + middle + suffix is the bridge otherwise.
    prefix = split_paragraphs(text[:end].rstrip(), counter)
    suffix = split_paragraphs(text[start:].lstrip(), counter)
    middle = split_paragraphs(text[end:start].strip(), counter) if end < start else ()
    out = [build_block([last_slice, *prefix], counter, like=left)]
    if middle:
        out.append(build_block(middle, counter, like=left, role=TableRole.NONE))
    out.append(build_block([*suffix, *right.paragraphs], counter, like=right))
    _log(left, _tokens(prefix), _tokens(middle), _tokens(suffix))
    return out


def _tokens(paragraphs: Sequence[Paragraph]) -> int:
    return sum(p.tokens for p in paragraphs)


def _log(left: Block, prefix: int, middle: int, suffix: int) -> None:
    logger.debug(
        "bridge row=%d prefix=%d middle=%d suffix=%d tokens",
        left.source_row,
        prefix,
        middle,
        suffix,
    )


def _prefix_end(text: str, ids: list[int], budget: int, counter: TokenCounter) -> int:
    """Character end of the longest prefix of ``text`` within ``budget`` tokens, cut on a
    token boundary but never inside a character, then moved back to a word or sentence
    boundary so that no fragment of a word is copied."""
    take = budget
    while take > 0:
        decoded = counter.decode(ids[:take])
        end = _common_prefix(text, decoded)  # drops a U+FFFD of a split character
        end = _boundary_before(text, end)
        tokens = counter.count(text[:end].rstrip())
        if tokens <= budget:
            return end
        take -= tokens - budget  # re-encoding merged differently: shrink and retry
    return 0


def _suffix_start(text: str, ids: list[int], budget: int, counter: TokenCounter) -> int:
    """Character start of the longest suffix within ``budget`` tokens (mirror of
    :func:`_prefix_end`)."""
    take = budget
    while take > 0:
        decoded = counter.decode(ids[len(ids) - take :])
        start = len(text) - _common_suffix(text, decoded)
        start = _boundary_after(text, start)
        tokens = counter.count(text[start:].lstrip())
        if tokens <= budget:
            return start
        take -= tokens - budget
    return len(text)


def _common_prefix(text: str, other: str) -> int:
    limit = min(len(text), len(other))
    index = 0
    while index < limit and text[index] == other[index]:
        index += 1
    return index


def _common_suffix(text: str, other: str) -> int:
    limit = min(len(text), len(other))
    index = 0
    while index < limit and text[-1 - index] == other[-1 - index]:
        index += 1
    return index


def _is_cjk(ch: str) -> bool:
    # Kana, CJK ideographs, Hangul: scripts written without spaces between words.
    return "\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af"


def _is_boundary(text: str, position: int) -> bool:
    """True when a cut at ``position`` falls between words (or CJK characters) or after a
    sentence or clause mark."""
    if position <= 0 or position >= len(text):
        return True
    before, after = text[position - 1], text[position]
    return (
        before.isspace()
        or after.isspace()
        or before in _CUT_AFTER
        or (_is_cjk(before) and _is_cjk(after))
    )


def _has_boundary(text: str) -> bool:
    return any(_is_boundary(text, position) for position in range(1, len(text)))


def _boundary_before(text: str, end: int) -> int:
    """``end`` or the nearest boundary before it, so that no fragment of a word is copied;
    text without any boundary (one unbreakable run) keeps the token cut."""
    for position in range(end, 0, -1):
        if _is_boundary(text, position):
            return position
    return 0 if _has_boundary(text) else end


def _boundary_after(text: str, start: int) -> int:
    """``start`` or the nearest boundary after it (mirror of :func:`_boundary_before`)."""
    for position in range(start, len(text)):
        if _is_boundary(text, position):
            return position
    return len(text) if _has_boundary(text) else start
