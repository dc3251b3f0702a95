"""Stage C (spec §8.3): pack paragraphs into blocks within a cap, for stage C's no-anchor
path and heading glue.

As few blocks as greedy packing by paragraph makes, or fewer, with no needless one:

- a paragraph over the cap is split by R here; its first piece takes the room left in the
  block before it when that makes fewer blocks (a short lead-in then shares its chunk with
  the paragraph's start instead of being one of its own);
- a block left without text (fewer than 12 letters outside markup: the end of an XML
  sample, a run of pictures) takes the last paragraphs of the block before it where they
  fit; where the last one is too long to move whole, its last sentences: a section no
  longer ends in a tail of tags that no neighbour can take.

Every packed block is within the cap on its exact count (or an estimate whose bounds agree),
so no later stage needs to cut again.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import accumulate, islice, pairwise

from lightrag_pchunk.chunk.blocks import (
    build_block,
    exceeds,
    introduces,
    joiner_for,
    make_paragraph,
)
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.model import Block, Paragraph, TableRole
from lightrag_pchunk.tokens import TokenCounter

logger = logging.getLogger("lightrag.pchunk")

#: A sentence end where a paragraph may be cut to lend its last sentences (R's sentence
#: separators: a CJK mark, or a Latin one before a space); the mark stays with its sentence.
_SENTENCE_END = re.compile(r"[。！？]|[.!?](?= )")
#: A chunk with fewer letters than this outside markup holds no text to speak of (only tags,
#: numbers or punctuation): an entity extraction call that finds nothing.
MIN_LETTERS = 12

_MARKUP = re.compile(r"<[^>]*>")


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
    """``pieces`` packed into blocks like ``block`` of at most ``cap`` tokens, in order.

    A piece over the cap is split by R first (:func:`_split_over_cap`). Groups are planned
    on the pieces' counts (:func:`_planned_groups`) and verified when built: a group still
    over the cap gives its last piece to the next one. A single piece over ``cap`` that R
    cannot cut stays alone and is marked ``oversize``.
    """
    joiner = ctx.counter.count(joiner_for(p.paragraph.text for p in pieces))
    groups = _planned_groups(pieces, joiner, block, ctx, cap)
    holders = [i for i, group in enumerate(groups) if any(p.holder for p in group)]
    # One piece only keeps the role: the one holding the slice that defines it.
    role_group = (holders[-1] if block.role is TableRole.FIRST else holders[0]) if holders else -1
    out: list[Block] = []
    for index, group in enumerate(groups):
        role = block.role if index == role_group else TableRole.NONE
        out.extend(_within(group, block, ctx, cap, role))
    return out


def _planned_groups(
    pieces: Sequence[PackPiece], joiner: int, block: Block, ctx: Context, cap: int
) -> list[list[PackPiece]]:
    """Greedy groups of the pieces, those over the cap split by R (:func:`_greedy`), then no
    group without text where its neighbours can lend some (:func:`lend_text`).

    An R split's first piece takes the room left in the group before it only when that
    makes fewer groups of the whole block: shifting the split's text forward may also leave
    it a shorter tail, and the text before it, a group of its own, may still join what
    precedes it in stage D (on the Word corpus at N=500, filling on a tie cost chunks).
    """
    splits: dict[tuple[int, int], list[PackPiece]] = {}  # R splits the two plans share
    flat, starts, filled = _greedy(pieces, joiner, block, ctx, cap, splits, fill=True)
    if filled:
        plain, plain_starts, _ = _greedy(pieces, joiner, block, ctx, cap, splits, fill=False)
        if len(plain_starts) <= len(starts):
            flat, starts = plain, plain_starts
    if len(starts) > 1:
        starts = lend_text(flat, starts, joiner, cap)
        starts = keep_lead_ins(flat, starts, joiner, cap)
        flat, starts = lend_sentences(flat, starts, joiner, cap, ctx.counter)
    return [flat[a:b] for a, b in pairwise([*starts, len(flat)])]


def _greedy(
    pieces: Sequence[PackPiece],
    joiner: int,
    block: Block,
    ctx: Context,
    cap: int,
    splits: dict[tuple[int, int], list[PackPiece]],
    *,
    fill: bool,
) -> tuple[list[PackPiece], list[int], bool]:
    """The pieces (those over the cap split by R) and where each greedy group begins; with
    ``fill``, an R split's first piece takes the room left in the group before it (the
    flag says whether any did). ``splits`` keeps each R split by piece index and first cap."""
    flat: list[PackPiece] = []
    starts: list[int] = []  # index in ``flat`` where each group begins
    total = 0  # tokens of the open group
    filled = False
    next_group = max((p.r_group for p in pieces), default=-1) + 1
    for index, piece in enumerate(pieces):
        parts = [piece]
        if piece.paragraph.tokens > cap:
            room = cap - total - joiner if starts and fill else 0
            first_cap = room if ctx.overlap < room < cap else cap
            key = (index, first_cap)
            if key not in splits:
                splits[key] = _split_over_cap(piece, first_cap, next_group, block, ctx, cap)
            parts = splits[key]
            filled = filled or first_cap < cap
            next_group += 1
        for part in parts:
            tokens = part.paragraph.tokens
            if starts:
                same_split = part.r_group >= 0 and part.r_group == flat[-1].r_group
                if total + joiner + tokens <= cap and not same_split:
                    flat.append(part)
                    total += joiner + tokens
                    continue
            starts.append(len(flat))
            flat.append(part)
            total = tokens
    return flat, starts, filled


def _split_over_cap(
    piece: PackPiece, first_cap: int, r_group: int, block: Block, ctx: Context, cap: int
) -> list[PackPiece]:
    """A paragraph over the cap as the pieces of one R split with the overlap (§8.3), the
    first within ``first_cap``: the room left in the open group before it when that is
    more than the overlap (a smaller first piece would be repeated whole by the next one),
    else ``cap``."""
    counter = ctx.counter
    split = ctx.split_long_text(piece.paragraph, cap, counter, ctx.overlap, first_cap)
    logger.debug(
        "anchor_split row=%d: a %d-token paragraph has no paragraph boundary; "
        "fallback to recursive_character gives %d pieces (the first within %d)",
        block.source_row,
        piece.paragraph.tokens,
        len(split),
        first_cap,
    )
    if not split:
        return [piece]
    return [PackPiece(paragraph, piece.holder, r_group) for paragraph in split]


def letters(text: str, enough: int = MIN_LETTERS) -> int:
    """The letters of ``text`` outside markup tags, counted up to ``enough``."""
    if "<" in text:
        text = _MARKUP.sub("", text)
    return len(list(islice(filter(str.isalpha, text), enough)))


def holds_text(texts: Sequence[str]) -> bool:
    """Whether ``texts`` joined by line breaks hold :data:`MIN_LETTERS` letters outside tags.

    Read text by text, stopping at enough letters; each text's letters bound the joined
    text's (a tag may span lines, an XML element written over several, and take letters a
    text alone counts), so the joined text is read only when a tag opens before enough.
    """
    found, tagged = 0, False
    for text in texts:
        found += letters(text)
        tagged = tagged or "<" in text
        if found >= MIN_LETTERS:
            return not tagged or letters("\n".join(texts)) >= MIN_LETTERS
    return False


def lend_text(
    pieces: Sequence[PackPiece], starts: Sequence[int], joiner: int, cap: int
) -> list[int]:
    """``starts`` (where each greedy group of ``pieces`` begins) moved so that no group is
    left without text (fewer than :data:`MIN_LETTERS` letters) where the group before it can
    lend some.

    Such a group (the end of an XML sample, a run of pictures or of section numbers) takes
    the last pieces of the group before it, as few as give it text: only within the cap,
    while the lender keeps text of its own, and never across the cut between two pieces of
    one R split. The number of groups is kept. (The group after cannot lend: greedy packing
    already left it nothing that fits.)
    """
    positions = list(accumulate((p.paragraph.tokens + joiner for p in pieces), initial=0))
    texts = [p.paragraph.text for p in pieces]
    own: dict[int, int] = {}

    def letters_of(index: int) -> int:
        if index not in own:
            own[index] = letters(texts[index])
        return own[index]

    bounds = [*starts, len(pieces)]
    for m in range(len(starts) - 1, 0, -1):
        first, end, lender = bounds[m], bounds[m + 1], bounds[m - 1]
        if pieces[first].r_group >= 0 and pieces[first - 1].r_group == pieces[first].r_group:
            continue
        if holds_text(texts[first:end]):
            continue
        gained = sum(letters_of(index) for index in range(first, end))  # the pieces alone
        for cut in range(first - 1, lender, -1):  # the lender keeps at least its first piece
            if positions[end] - positions[cut] - joiner > cap:
                break
            gained += letters_of(cut)
            if gained >= MIN_LETTERS and holds_text(texts[cut:end]):
                if holds_text(texts[lender:cut]):
                    bounds[m] = cut
                break
    return bounds[:-1]


def keep_lead_ins(
    pieces: Sequence[PackPiece], starts: Sequence[int], joiner: int, cap: int
) -> list[int]:
    """``starts`` moved so that a group ending with lead-ins (heading lines, labels in strong
    emphasis, short lines ending with a colon, any line ending with one before a list:
    :func:`~lightrag_pchunk.chunk.blocks.introduces`)
    gives them to the group they introduce, where that one can take them within the cap and
    the giver keeps a piece that is none. The number of groups is kept."""
    positions = list(accumulate((p.paragraph.tokens + joiner for p in pieces), initial=0))
    bounds = [*starts, len(pieces)]
    for m in range(1, len(starts)):
        first, end, giver = bounds[m], bounds[m + 1], bounds[m - 1]
        cut = first
        while (
            cut > giver
            and pieces[cut - 1].r_group < 0
            and introduces(pieces[cut - 1].paragraph.text, pieces[cut].paragraph.text)
        ):
            cut -= 1
        if giver < cut < first and positions[end] - positions[cut] - joiner <= cap:
            bounds[m] = cut
    return bounds[:-1]


def lend_sentences(
    pieces: Sequence[PackPiece], starts: Sequence[int], joiner: int, cap: int, counter: TokenCounter
) -> tuple[list[PackPiece], list[int]]:
    """Groups still without text after :func:`lend_text` take, with the pieces before them
    that fit whole, the last sentences of the first paragraph that does not.

    The shortest tail of whole sentences (cut after a sentence end of
    ``_SENTENCE_END``) that holds :data:`MIN_LETTERS` letters and fits the cap moves;
    the paragraph's head stays where it was and, with the rest of its group, keeps text.
    A paragraph without a sentence end, a piece of an R split or a table never lends: a
    word is never cut, text never repeated, the number of groups kept. Returns the pieces
    (the lending paragraph as its head and tail) and where each group begins.
    """
    out, bounds = list(pieces), [*starts, len(pieces)]
    for m in range(len(starts) - 1, 0, -1):
        first, end, lender = bounds[m], bounds[m + 1], bounds[m - 1]
        if holds_text([p.paragraph.text for p in out[first:end]]):
            continue
        total = sum(p.paragraph.tokens for p in out[first:end]) + (end - first - 1) * joiner
        cut = first  # the pieces from ``cut`` on move whole
        while cut - 1 > lender and total + joiner + out[cut - 1].paragraph.tokens <= cap:
            cut -= 1
            total += joiner + out[cut].paragraph.tokens
        splitting = out[cut - 1]
        # Pieces of an R split overlap: none moves, so two never share a group.
        if splitting.holder or splitting.paragraph.is_table:
            continue
        if any(p.r_group >= 0 for p in out[cut - 1 : end]):
            continue
        split = _sentence_tail(splitting.paragraph.text, cap - total - joiner, counter)
        if split is None:
            continue
        head, tail = split
        if not holds_text([*(p.paragraph.text for p in out[lender : cut - 1]), head.text]):
            continue
        out[cut - 1 : cut] = [PackPiece(head), PackPiece(tail)]
        bounds[m] = cut
        bounds[m + 1 :] = [bound + 1 for bound in bounds[m + 1 :]]
    return out, bounds[:-1]


def _sentence_tail(
    text: str, room: int, counter: TokenCounter
) -> tuple[Paragraph, Paragraph] | None:
    """``text`` as a head and its shortest tail of whole sentences that holds
    :data:`MIN_LETTERS` letters within ``room`` tokens; None where there is none. A cut
    is never inside a tag (a caption may hold a full stop)."""
    for end in reversed([match.end() for match in _SENTENCE_END.finditer(text)]):
        tail = text[end:].strip()
        if not tail or text.rfind("<", 0, end) > text.rfind(">", 0, end):
            continue
        tokens = counter.count(tail)
        if tokens > room:
            return None  # a longer tail only grows
        if letters(tail) >= MIN_LETTERS:
            head = text[:end].rstrip()
            return (make_paragraph(head, counter), make_paragraph(tail, counter, tokens))
    return None


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
