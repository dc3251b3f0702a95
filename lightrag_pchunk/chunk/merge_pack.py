"""Stage D with ``CHUNK_P_FILL=pack`` (the default): the fewest chunks the structure allows.

Input: blocks after stage C and heading glue, each within ``target_max``.
Output: consecutive runs of them joined into chunks, as few as possible, each within
``target_max`` on its joined text. A run may hold only what the strategy's phases could
join (``chunk/merge.py``), without their size conditions:

- the table-role gates (a middle slice stands alone, a first slice starts a run);
- a pinned title as its first block, with its descendants only;
- a table of contents with the front matter before it (a cover, a notice), and with
  what follows it only when one side is a few lines (under small_tail_threshold);
- sections at most two heading levels below their deepest common parent inside one
  chapter, or the whole subtree of the run's first section (Phase B), or consecutive
  sibling sections from the start of the first one, each with its whole subtree; inside
  one chapter a leaf of a few lines (under small_tail_threshold, no subsection after it)
  is held to none of these, and the untitled preface joins what follows.

A section of text may also be cut between two of its paragraphs, but only where that
saves a chunk: two sections of 700 tokens under N=1200 are two chunks whole, and with
three such sections a cut lets the middle one end the first chunk and start the second
(two chunks, not three). Both pieces keep at least small_tail_threshold tokens of their
section (a piece stage C cut from it counts: a few lines the next piece goes on with are
no tail), a cut never separates a table from the paragraph before it nor a lead-in (a
heading line, a label in strong emphasis, a short line ending with a colon) from what
follows, and each piece obeys the run rules above as its section would. Among equally
few chunks the search makes the fewest cuts, then cuts before the shallowest headings
(so a chunk rather starts at "4" than at "3.4.2"), then before a short heading-like
paragraph (a stage C anchor, §8.1). The piece after a cut keeps its section's heading
(stage E numbers the parts, ``[part n]``): unlike a stage C anchor,
which heads a sub-block of an over-long section, the line a cut falls before is only a
preference, and promoting it would give a heading to any short line the classifier
accepts.
"""

from __future__ import annotations

import logging
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise

from lightrag_pchunk.chunk.anchor_split import is_anchor_candidate
from lightrag_pchunk.chunk.block_runs import heading_path
from lightrag_pchunk.chunk.blocks import (
    BLOCK_JOINER,
    build_block,
    counted,
    introduces,
    paragraphs_of,
)
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.pack_windows import (
    NO_SHAPE,
    PACK_WINDOW,
    LatestMinimum,
    lowest_firsts,
    open_runs,
)
from lightrag_pchunk.chunk.runs import (
    MAX_FILL_DEPTH,
    Item,
    add_to_run,
    built,
    is_small_leaf,
    is_untitled,
    last_run,
    may_precede,
    with_path,
)
from lightrag_pchunk.model import Block, TableRole

logger = logging.getLogger("lightrag.pchunk")

#: Tie-break weights of where a run starts: a heading's level (0-9) is preferred to a cut
#: inside a section, and a cut before a heading-like paragraph to any other cut.
_AT_ANCHOR, _INSIDE = 10, 11
#: Characters of a piece's last paragraph looked for in the next piece's first: found, R cut
#: one paragraph there and the pieces overlap.
_OVERLAP_PROBE = 40


@dataclass(frozen=True, slots=True)
class _Place:
    """Where a run may start or end: before paragraph ``paragraph`` of block ``block`` (0:
    the block's start; ``block`` = the number of blocks: the document's end). ``offset``
    estimates the tokens before it for a run that ends there, ``start`` for one that starts
    there: inside a block, by the counts of the paragraphs on the run's side (a line's
    count alone is no less than its part of the joined text), so that a planned run fits
    when joined; ``rank`` is how much a run should rather not start there (a heading's
    level, or a cut's weight)."""

    block: int
    paragraph: int
    offset: int
    rank: int
    start: int


def pack_fill(blocks: Sequence[Block], ctx: Context) -> list[Block]:
    """Stage D, ``pack``: the fewest runs the structure allows (see the module docstring).

    The plan counts the pieces of a cut section by their lines; where a run it planned
    proves over the cap when joined (a line's count plus a line break may exceed its part of
    the joined text, so the piece after it was counted short), it plans again with every
    piece counted by its own lines, and keeps the plan that makes fewer chunks."""
    if not blocks:
        return []
    out, fits = _pack(blocks, ctx, by_own_lines=False)
    if not fits:
        again, _ = _pack(blocks, ctx, by_own_lines=True)
        if len(again) < len(out):
            return again
    return out


def _pack(blocks: Sequence[Block], ctx: Context, *, by_own_lines: bool) -> tuple[list[Block], bool]:
    """One plan of :func:`pack_fill` and its runs joined; False when a planned run did not
    fit the cap joined (it was cut where it went over)."""
    n = len(blocks)
    cap, small = ctx.thresholds.target_max, ctx.thresholds.small_tail_threshold
    joiner = ctx.counter.count(BLOCK_JOINER)
    # A block long enough to be cut has its lines counted, so whether it can be cut does not
    # depend on whether a stage before needed them (heading glue keeps a heading's line
    # uncounted).
    blocks = [counted(b, ctx.counter) if b.tokens >= 2 * small else b for b in blocks]
    # Per block, once: this search looks at each block up to PACK_WINDOW times.
    paths = [heading_path(block) for block in blocks]
    sizes = [block.tokens for block in blocks]
    tocs = [block.is_toc for block in blocks]
    titles = [block.is_title for block in blocks]
    untitled = [is_untitled(block) for block in blocks]
    loose = [is_small_leaf(a, b, small) for a, b in pairwise([*blocks, None])]
    links = [may_precede(a, b) for a, b in pairwise(blocks)]  # may blocks i, i+1 share?
    lowest = lowest_firsts(links)
    opens, shapes = open_runs(
        paths, loose, [toc or title for toc, title in zip(tocs, titles, strict=True)]
    )
    sizes_before = [0, *accumulate(sizes)]
    untitled_before = [0, *accumulate(untitled)]
    # The places a run may start or end, in document order: each block's start, the cuts
    # inside it, and the document's end.
    places: list[_Place] = []
    first_place: list[int] = []  # index in places of each block's start
    offset = 0
    before, after = _section_around(blocks, sizes)
    for index, block in enumerate(blocks):
        first_place.append(len(places))
        places.append(_Place(index, 0, offset, block.level, offset))
        around = before[index], after[index]
        places.extend(_cuts_inside(block, index, offset, ctx, around, by_own_lines))
        offset += sizes[index] + joiner
    first_place.append(len(places))
    places.append(_Place(n, 0, offset, 0, offset))
    offsets = [place.start for place in places]  # where the runs that start there begin
    last = len(places) - 1
    # best[k] ranks the best grouping of what lies before places[k]: runs first, then
    # cuts inside sections, then the summed ranks of the places that start a run, as one
    # integer (``(runs * cut_weight + cuts) * rank_weight + ranks``); start_cost[k] adds
    # the rank of places[k] as a run's start.
    rank_weight = _INSIDE * (last + 1) + 1
    cut_weight = last + 1
    run_cost = cut_weight * rank_weight
    best = [0] + [(last + 1) * run_cost * 2] * last
    start_cost = [0] * (last + 1)
    starts = [0] * (last + 1)  # where the last run before places[k] starts in best[k]
    cheapest = LatestMinimum(start_cost)
    for end in range(1, last + 1):
        cheapest.push(end - 1)
        stop = places[end]
        inside = stop.paragraph > 0
        final = stop.block if inside else stop.block - 1  # the run's last (part of a) block
        end_cost = run_cost + (rank_weight if inside else 0)
        # A run that starts at an offset below this does not fit (a run ending at a block
        # start leaves its joiner out).
        reach = stop.offset - (0 if inside else joiner) - cap
        best_end, best_start = best[end], 0
        open_first = max(opens[final], lowest[final])
        if open_first <= final:
            # Every start from open_first on passes the role gates and the structure rules:
            # the best of those that fit is one minimum (the latest of equals, as below).
            # Neither reach nor open_first ever moves back, so neither does lowest_place.
            lowest_place = min(max(bisect_left(offsets, reach), first_place[open_first]), end - 1)
            best_start = cheapest.latest_from(lowest_place)
            best_end = start_cost[best_start] + end_cost
        # The starts before open_first are judged one by one, scanning backwards from it
        # with the run open_first..final seen (none of it a table of contents).
        if open_first == opens[final] <= final:
            every, deepest_all, top, deepest = shapes[final]
            toc_tokens, after_toc = 0, sizes_before[final + 1] - sizes_before[open_first]
            after_untitled = untitled_before[final + 1] - untitled_before[open_first] == (
                final + 1 - open_first
            )
            scan_from = open_first - 1
        else:
            every, deepest_all, top, deepest = NO_SHAPE
            toc_tokens = after_toc = 0  # after_toc: text after the run's table of contents
            after_untitled = True
            scan_from = final if open_first > final else -1
        for first in range(scan_from, max(final - PACK_WINDOW, -1), -1):
            inner = first < final
            # The run may start at the block's start or at any cut inside it (the cuts
            # before ``end`` when the run lies inside one block).
            newest = end - 1 if first == final and inside else first_place[first + 1] - 1
            if inner and (not links[first] or offsets[newest] < reach):
                break  # a role gate, or not even the block's last piece fits beside the rest
            if tocs[first]:
                toc_tokens += sizes[first]
            elif not toc_tokens:  # scanning backwards: no contents seen yet, so this is after
                after_toc += sizes[first]
                after_untitled = after_untitled and untitled[first]
            if toc_tokens >= small and after_toc and not (after_untitled and after_toc < small):
                # The front matter before a table of contents (a cover, a notice) may share
                # its chunk; what follows it only when one side is a few lines.
                break
            path = paths[first]
            if path:
                every, deepest_all = with_path(every, deepest_all, path)
                if not loose[first]:
                    top, deepest = with_path(top, deepest, path)
            if titles[first] and inner and every != path:
                continue  # a pinned title takes its descendants only
            # Leaves of a few lines are measured only inside one chapter.
            shared, depth = (top, deepest) if every else (every, deepest_all)
            if inner and shared is not None and shared != path:
                # Not only the first block's subtree: consecutive sibling sections from the
                # start of the first ("3", "4", "5" with its 5.2.2 under the root), or
                # sections within two levels of their common parent inside one chapter (a
                # run that starts inside chapter 5 never takes chapter 6).
                siblings = len(path) == len(shared) + 1
                near = bool(shared) and depth - len(shared) <= MAX_FILL_DEPTH
                if not (siblings or near):
                    continue
            for begin in range(newest, first_place[first] - 1, -1):
                if begin < end - 1 and offsets[begin] < reach:
                    break  # starting earlier only adds text (a single piece always fits)
                candidate = start_cost[begin] + end_cost
                if candidate < best_end:
                    best_end, best_start = candidate, begin
        best[end], starts[end] = best_end, best_start
        start_cost[end] = best_end + stop.rank
    bounds: list[int] = []
    end = last
    while end > 0:
        bounds.append(end)
        end = starts[end]
    bounds.append(0)
    bounds.reverse()
    return _runs(blocks, paths, [places[k] for k in bounds], ctx)


def _section_around(blocks: Sequence[Block], sizes: Sequence[int]) -> tuple[list[int], list[int]]:
    """Per block, the tokens of its section in the blocks just before and just after it:
    stage C cut a section over target_max into pieces (same row, same heading; an anchor
    gives its piece a heading of its own), and a cut near a piece's end leaves no tail of
    the section when the next piece goes on with it. None across a cut R made inside one
    paragraph (its pieces repeat the overlap: two of them never share a chunk)."""
    n = len(blocks)
    before, after = [0] * n, [0] * n
    for index in range(1, n):
        if _pieces_of_one_section(blocks[index - 1], blocks[index]):
            before[index] = before[index - 1] + sizes[index - 1]
    for index in range(n - 2, -1, -1):
        if _pieces_of_one_section(blocks[index], blocks[index + 1]):
            after[index] = after[index + 1] + sizes[index + 1]
    return before, after


def _pieces_of_one_section(block: Block, following: Block) -> bool:
    """Whether ``following`` goes on with ``block``'s section: plain text pieces of one
    row under one heading, not parted inside a paragraph (R's pieces overlap: the last
    words of the first open the second)."""
    if not (
        block.source_row == following.source_row
        and block.heading == following.heading
        and block.parent_headings == following.parent_headings
        and block.role is TableRole.NONE
        and following.role is TableRole.NONE
        and block.paragraphs
        and following.paragraphs
    ):
        return False
    end = block.paragraphs[-1].text.rstrip()[-_OVERLAP_PROBE:]
    return end not in following.paragraphs[0].text


def _cuts_inside(
    block: Block,
    index: int,
    offset: int,
    ctx: Context,
    around: tuple[int, int],
    by_own_lines: bool,
) -> list[_Place]:
    """Where ``block`` may be cut between paragraphs: plain text of a section (no table
    role, no title, no table of contents) with at least small_tail_threshold tokens of
    its section on each side (``around``: those in its pieces before and after it), never
    right before a table nor right after a heading line. ``by_own_lines``: the piece after
    a cut is counted by its lines, not as the block's count less the piece before it."""
    small = ctx.thresholds.small_tail_threshold
    before, after = around
    paragraphs = block.paragraphs
    if (
        block.tokens < 2 * small
        or paragraphs is None  # counted whole: too small to cut (stage A, ``to_blocks``)
        or len(paragraphs) < 2
        or block.role is not TableRole.NONE
        or block.is_title
        or block.is_toc
    ):
        return []
    max_anchor = ctx.thresholds.max_anchor_candidate_length
    seam = ctx.counter.count("\n")
    cuts: list[_Place] = []
    head = -seam
    tails = list(accumulate((p.tokens + seam for p in reversed(paragraphs)), initial=-seam))
    for at in range(1, len(paragraphs)):
        head += paragraphs[at - 1].tokens + seam
        if before + head < small:
            continue
        if after + block.tokens - head - seam < small:
            break
        following, preceding = paragraphs[at], paragraphs[at - 1]
        if following.is_table or introduces(preceding.text, following.text):
            continue  # a table keeps the text before it, a lead-in the text after it
        if preceding.text.lstrip().startswith("#"):
            continue  # as does a note printed with the sign ("#(一) …" over its list)
        anchor = is_anchor_candidate(following.text, max_anchor)
        rank = _AT_ANCHOR if anchor else _INSIDE
        end = offset + head + seam
        start = max(offset + block.tokens - tails[len(paragraphs) - at], offset)
        cuts.append(_Place(index, at, end, rank, start if by_own_lines else end))
    return cuts


def _runs(
    blocks: Sequence[Block],
    paths: Sequence[tuple[str, ...]],
    bounds: Sequence[_Place],
    ctx: Context,
) -> tuple[list[Block], bool]:
    """Cut the blocks (of heading paths ``paths``: a piece has its block's) at the chosen
    places inside them, then join each run; False when a run did not fit the cap joined."""
    cut_at: dict[int, list[int]] = {}
    for place in bounds:
        if place.paragraph:
            cut_at.setdefault(place.block, []).append(place.paragraph)
    pieces: list[Block] = []
    piece_paths: list[tuple[str, ...]] = []
    piece_of: dict[tuple[int, int], int] = {}  # (block, paragraph) -> index in pieces
    for index, block in enumerate(blocks):
        piece_of[(index, 0)] = len(pieces)
        if index not in cut_at:
            pieces.append(block)
            piece_paths.append(paths[index])
            continue
        paragraphs = paragraphs_of(block)
        limits = [0, *cut_at[index], len(paragraphs)]
        for begin, end in pairwise(limits):
            piece_of[(index, begin)] = len(pieces)
            pieces.append(build_block(paragraphs[begin:end], ctx.counter, like=block))
            piece_paths.append(paths[index])
    piece_of[(len(blocks), 0)] = len(pieces)
    if cut_at:
        logger.debug("merge pack: %d section(s) cut between paragraphs to save chunks", len(cut_at))
    out: list[Block] = []
    fits = True
    for begin, end in pairwise(bounds):
        first, stop = piece_of[(begin.block, begin.paragraph)], piece_of[(end.block, end.paragraph)]
        items: list[Item] = [pieces[first]]
        item_paths = [[piece_paths[first]]]
        for index in range(first + 1, stop):
            # The plan counted joints by estimate; a joined text over the cap starts anew.
            if add_to_run(last_run(items), [pieces[index]], ctx):
                item_paths[-1].append(piece_paths[index])
            else:
                items.append(pieces[index])
                item_paths.append([piece_paths[index]])
                fits = False
        out.extend(built(items, item_paths))
    logger.debug("merge pack: %d blocks -> %d chunks", len(blocks), len(out))
    return out, fits
