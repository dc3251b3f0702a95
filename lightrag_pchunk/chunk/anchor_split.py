"""Stage C (spec §8): re-split blocks still over ``target_max`` at short-paragraph anchors.

Input: blocks from stages B/B.1. Output: every block within ``target_max``, except a piece
that cannot be cut at all (recorded in ``Block.oversize``). A block is cut before anchor
paragraphs chosen near evenly spaced ideal positions; each anchor becomes the heading of
the sub-block it starts, and the original heading moves into that sub-block's
``parent_headings``. Without an anchor the block is packed greedily by paragraph
(``chunk/paragraph_pack.py``) and a single over-long paragraph split by R with the overlap
(§8.3), its first piece in the room left after the text before it when that saves a
piece: the only place P copies prose between chunks (invariant 2). A packed piece without
text (fewer than 12 letters outside tags) takes paragraphs from the piece before it where
they fit. Tables are not cut here: stage B left none over ``target_max``.

Which paragraphs are anchors is stricter than LightRAG's "any line of at most 100
characters": a line the one heading classifier takes for a title (:func:`is_anchor_candidate`),
not a line its neighbours make no title (an answer option, a listing's line, a count's row, a
dated log's entry, an entry of a list parting its items with ";": ``outline/line_runs.py``), a
line that recurs in the block (a running head, a form's label), one numbered as a sibling of a
heading on the block's path, nor, in a law's unit, a line that numbers no unit of a series
below it (the unit's points are its text). A cut before an anchor that follows lead-ins (a
heading line, a label in strong emphasis, a short line ending with a colon) is made before
them: they go with the text they introduce, and the first of them that reads as a title heads
the piece.
"""

from __future__ import annotations

import logging
import math
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache
from itertools import accumulate, pairwise

from lightrag_pchunk.chunk.anchor_lines import names_no_part, naming_no_part, repeats_its_path
from lightrag_pchunk.chunk.anchor_neighbours import (
    apart_from_their_series,
    inside_contents,
    introduces_equation,
    runs_on_below,
)
from lightrag_pchunk.chunk.blocks import (
    build_block,
    counted,
    exceeds,
    is_lead_in,
    line_paragraphs,
    without_heading_marks,
)
from lightrag_pchunk.chunk.chunk_headings import SeriesNumber, series_number
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.paragraph_pack import PackPiece, pack_pieces
from lightrag_pchunk.model import Block, Paragraph, TableRole
from lightrag_pchunk.outline.items import ItemKind, OutlineItem
from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.line_runs import no_title_by_neighbours
from lightrag_pchunk.outline.lines import (
    LEGAL_ARTICLES,
    MAX_HEADING_CHARS,
    flat_text,
    heading_text,
)
from lightrag_pchunk.outline.non_titles import reads_as_no_title, repeats_itself
from lightrag_pchunk.outline.placed import recurring_lines

logger = logging.getLogger("lightrag.pchunk")

#: Share of target_max the sub-blocks of an anchor split aim at: as full as the anchors'
#: irregular positions allow without pushing pieces over the cap (the spec's target_ideal,
#: 0.75, cost about 1% more chunks on the corpus; 0.95 no fewer).
_FILL = 0.85


def is_anchor_candidate(text: str, max_length: int) -> bool:
    """Whether a paragraph (not the first of its block) may start a sub-block as its heading.

    The lines the heading classifier of ``outline/`` accepts as headings on their text (at
    most ``max_length`` characters): not a bullet or list item, caption, table of contents
    entry, bare number, tag line, sentence or lead-in ending with a colon; nor a line it
    lets through that no reader takes for a title (``outline/non_titles.py``: text without
    words or a table's row of figures, code or data, a person's line, a date line, a
    sentence's first line), nor one that names no part (``chunk/anchor_lines.py``: a lead-in
    ending on a dash glued to its word, a table's row read as a line).
    """
    line = text.strip()
    if "\n" in line:
        return False  # a paragraph of several lines (a Markdown list or code) is no title
    if len(line) > max_length or heading_text(text, max_length) is None:
        return False
    # Inside a block a "#" mark may be a note's ("# 請參閱《…》(2010年…批准)", a footnote
    # printed with the sign) as well as a Markdown heading's: the line still reads as a title.
    title = without_heading_marks(line)
    if title != line and heading_text(title, max_length, markdown=False) is None:
        return False
    # A header row said again per column group: the outline may keep it as a title twice.
    if reads_as_no_title(title) or repeats_itself(title):
        return False
    return not names_no_part(title)


def anchor_heading(text: str) -> str:
    """The heading an anchor paragraph gives its sub-block: the classifier's title (Markdown
    ``#`` marks removed, a numbered line's body after its colon left out)."""
    found = heading_text(text, max(len(text), MAX_HEADING_CHARS))
    return found.title if found is not None else text.strip()


def anchor_split(blocks: Sequence[Block], ctx: Context) -> list[Block]:
    """Stage C over every block; blocks within ``target_max`` pass through unchanged."""
    cap = ctx.thresholds.target_max
    sections = frozenset((*block.parent_headings, block.heading) for block in blocks)
    out: list[Block] = []
    for block in blocks:
        over, block = exceeds(block, cap, ctx.counter)
        out.extend(_split_long_block(block, ctx, sections) if over else [block])
    return out


def _split_long_block(block: Block, ctx: Context, sections: frozenset[tuple]) -> list[Block]:
    """Cut at anchors until every piece fits, without recursion (a block may be huge);
    ``sections``: the paths of the document's sections, which no anchor may declare."""
    cap = ctx.thresholds.target_max
    block = counted(block, ctx.counter)

    @cache
    def no_anchors_in_block() -> frozenset[str]:
        # Read over the whole block, once and only when a line reads as a title: a piece
        # cut from it may hold one place of a running head, or a row without the row
        # beside it that tells it is one.
        return _no_anchor_lines(block.paragraphs, ctx.thresholds.max_anchor_candidate_length)

    done: list[Block] = []
    pending = [block]  # a stack: the next block to look at is last
    while pending:
        current = pending.pop()
        over, current = exceeds(current, cap, ctx.counter)
        current = counted(current, ctx.counter)
        if not over:
            done.append(current)
            continue
        breaks = _before_lead_ins(current.paragraphs, current.topic_breaks)
        if breaks:
            # Where a language model saw the topic change (CHUNK_P_LLM_BOUNDARIES=long): cut
            # there first; the pieces keep the heading and are cut further if still too long.
            pieces = cut_at_anchors(replace(current, topic_breaks=()), breaks, ctx, headed=False)
            logger.debug(
                "anchor_split row=%d %r: topic breaks %s", current.source_row, current.heading,
                breaks,
            )  # fmt: skip
            pending.extend(reversed(pieces))
            continue
        # A table of contents is packed by lines: its entries name sections, not its parts.
        cuts = [] if current.is_toc else choose_anchors(current, ctx, no_anchors_in_block, sections)
        if not cuts:
            logger.debug(
                "anchor_split row=%d %r: ~%d tokens > %d and no anchor paragraph; packing",
                current.source_row,
                current.heading,
                current.tokens,
                cap,
            )
            done.extend(split_without_anchors(current, ctx))
            continue
        pieces = cut_at_anchors(current, cuts, ctx)
        logger.debug(
            "anchor_split row=%d %r: anchors %s",
            current.source_row,
            current.heading,
            [pieces[i + 1].heading for i in range(len(cuts))],
        )
        pending.extend(reversed(pieces))
    return done


def choose_anchors(
    block: Block,
    ctx: Context,
    no_anchors: Callable[[], frozenset[str]] | None = None,
    sections: frozenset[tuple[str, ...]] = frozenset(),
) -> list[int]:
    """Paragraph indexes to cut before, picked near evenly spaced ideal positions (§8.2).

    The block should become ``k = max(ceil(T / (0.85 max)), 2)`` sub-blocks of about
    ``T / k`` tokens; for each ideal cut position the nearest remaining anchor
    after the previous cut is taken (ties go to the earlier one). Positions are the
    summed paragraph counts before a paragraph (counted once, when the paragraph was made).
    A line that recurs in the block, or is no title by its neighbours, is no anchor
    (``no_anchors``: such lines of the block this one was cut from, read whole; None: this
    block's own), nor one saying a heading on the block's path again, nor one whose path
    is a section of the document's (``sections``): a headline printed in the text and
    again over a section of its own, one path that would name two places. A cut after
    lead-ins is moved before them (:func:`_before_lead_ins`).
    """
    th = ctx.thresholds
    paragraphs = block.paragraphs
    limit = th.max_anchor_candidate_length
    titles = [
        i
        for i in range(1, len(paragraphs))
        if not paragraphs[i].is_table
        and not paragraphs[i].is_piece
        and is_anchor_candidate(paragraphs[i].text, limit)
        and not introduces_equation(paragraphs, i)
        and not inside_contents(paragraphs, i)
        and not runs_on_below(paragraphs, i)
    ]
    if not titles:
        # Most blocks over the cap have no line that reads as a title: the numbers of their
        # headings and the units of law their lines open are then not read.
        return []
    refused = no_anchors() if no_anchors is not None else _no_anchor_lines(paragraphs, limit)
    titles = [i for i in titles if flat_text(paragraphs[i].text).casefold() not in refused]
    above = (*block.parent_headings, block.heading)
    path = [number for heading in above if (number := series_number(heading)) is not None]
    in_unit = _inside_units_of_law(block)
    candidates = [
        i
        for i in titles
        if not _numbered_beside(path, paragraphs[i].text)
        and not repeats_its_path(heading := anchor_heading(paragraphs[i].text), above)
        and (*above, heading) not in sections
        and (not in_unit[i] or series_number(heading) is not None)
    ]
    if not candidates:
        return []
    starts = list(accumulate((p.tokens for p in paragraphs), initial=0))
    total = starts[-1]
    k = max(math.ceil(total / (th.target_max * _FILL)), 2)
    step = total / k
    positions = [starts[i] for i in candidates]
    picks: list[int] = []
    lo = 0  # candidates before ``lo`` are used up or lie before the previous cut
    for m in range(1, k):
        if lo >= len(candidates):
            break
        target = m * step
        j = bisect_left(positions, target, lo)
        if j == len(positions) or (j > lo and target - positions[j - 1] <= positions[j] - target):
            j -= 1
        picks.append(candidates[j])
        lo = j + 1
    return _before_lead_ins(paragraphs, picks)


def _before_lead_ins(paragraphs: Sequence[Paragraph], cuts: Sequence[int]) -> list[int]:
    """The cuts inside ``paragraphs``, each moved before the lead-ins that end the piece
    before it (:func:`~lightrag_pchunk.chunk.blocks.is_lead_in`): they go with the text they
    introduce; a cut that would leave nothing before it is none."""
    moved: set[int] = set()
    for cut in cuts:
        if 0 < cut < len(paragraphs):
            while cut > 0 and is_lead_in(paragraphs[cut - 1].text):
                cut -= 1
            if cut:
                moved.add(cut)
    return sorted(moved)


def _no_anchor_lines(paragraphs: Sequence[Paragraph], limit: int) -> frozenset[str]:
    """The lines of a block (casefolded) that recur as the outline reads recurring lines
    (``outline/placed.py``: a running head pasted as text, "Breast Cancer Res Treat" on every
    page; a form's label at every entry, "☐ Inherited ☐ Partially Inherited"; a run-in
    label), none heading the text after one place more than the others; those no title by
    their neighbours (``outline/line_runs.py``), read before a cut parts them; and those that
    number a series' member whose siblings read as text (``chunk/anchor_neighbours.py``);
    and those whose run-in label opens another line too, or that open with the rest of a
    word cut at the line before (``chunk/anchor_lines.py``)."""
    items = [
        OutlineItem(ItemKind.OTHER if p.is_table else ItemKind.TEXT, p.text) for p in paragraphs
    ]
    lines = ["" if p.is_table else p.text for p in paragraphs]
    by_neighbours = {
        flat_text(line).casefold()
        for i, line in enumerate(lines)
        if line and "\n" not in line and no_title_by_neighbours(lines, i)
    }
    apart = apart_from_their_series(paragraphs, lambda text: is_anchor_candidate(text, limit))
    return recurring_lines(items) | by_neighbours | apart | naming_no_part(lines)


def _names_unit_of_law(text: str | None) -> bool:
    """Whether ``text`` starts with the label of a law's unit that carries its text (an
    article, a section "§ 1308.12 Schedule II.", "第四十八條 香港特別行政區行政長官行使
    下列職權：")."""
    label = parse_label(text or "")
    return label is not None and label.family in LEGAL_ARTICLES


def _inside_units_of_law(block: Block) -> list[bool]:
    """For each paragraph of ``block``, whether it stands inside a law's unit: the block's
    heading names one, or a paragraph before it opens one. The lines inside a unit are its
    points, lists and names ("(2) Any suppository dosage form containing:", "(五) 提名並報請
    中央人民政府任命下列主要官員"), no sections of their own; only a numbered unit of a series
    under it is one. A paragraph opens a unit only where its label opens a title, as the
    classifier reads it: a sentence citing one ("Article 5 of the Convention sets out …") opens
    none."""
    inside = _names_unit_of_law(block.heading)
    out: list[bool] = []
    for paragraph in block.paragraphs:
        out.append(inside)
        inside = inside or (
            _names_unit_of_law(paragraph.text) and heading_text(paragraph.text) is not None
        )
    return out


def _numbered_beside(path: Sequence[SeriesNumber], text: str) -> bool:
    """Whether an anchor line is numbered as a sibling of a heading on its block's path
    (``path``: their :func:`series_number`): "6.5 Calling External Functions" in "6.4
    Preemption", whose outline missed it. As a heading below that one it would nest a
    section below its own sibling, a path no outline has (``chunk/breadcrumbs.py``)."""
    own = series_number(anchor_heading(text))
    return own is not None and any(
        series == own[0] and numbers != own[1] for series, numbers in path
    )


def cut_at_anchors(
    block: Block, cuts: Sequence[int], ctx: Context, *, headed: bool = True
) -> list[Block]:
    """The sub-blocks of ``block`` starting at paragraph 0 and at each cut (§8.2).

    The first keeps the heading and parents; each later one is headed by its anchor, with
    the original heading appended to its parents (``headed=False``: every piece keeps the
    block's heading, as at a topic break). The table role stays with the piece holding the
    table slice that defines it.
    """
    bounds = [0, *cuts, len(block.paragraphs)]
    limit = ctx.thresholds.max_anchor_candidate_length
    parents = block.parent_headings + ((block.heading,) if block.heading else ())
    # An anchor keeps its block's level (spec §1.2), a heading below the block's own.
    levels = block.parent_levels + ((block.level,) if block.heading else ())
    holder = _role_holder(block)
    pieces: list[Block] = []
    for start, end in pairwise(bounds):
        paragraphs = block.paragraphs[start:end]
        role = block.role if start <= holder < end else TableRole.NONE
        if start == 0 or not headed:
            pieces.append(build_block(paragraphs, ctx.counter, like=block, role=role))
        else:
            heading = anchor_heading(paragraphs[_anchor_at(paragraphs, limit)].text)
            pieces.append(
                build_block(
                    paragraphs,
                    ctx.counter,
                    like=block,
                    role=role,
                    heading=heading,
                    parent_headings=parents,
                    parent_levels=levels,
                )
            )
    return pieces


def _anchor_at(paragraphs: Sequence[Paragraph], limit: int) -> int:
    """The index of a piece's anchor: its first paragraph, or the first after the lead-ins
    that open the piece (:func:`_before_lead_ins`) that reads as a title."""
    for index, paragraph in enumerate(paragraphs):
        if is_anchor_candidate(paragraph.text, limit):
            return index
        if not is_lead_in(paragraph.text):
            break
    return 0


def _role_holder(block: Block) -> int:
    """Index of the paragraph that carries the block's table role: a FIRST block ends with
    the first slice, a LAST block starts with the last slice."""
    return len(block.paragraphs) - 1 if block.role is TableRole.FIRST else 0


def split_without_anchors(block: Block, ctx: Context) -> list[Block]:
    """The no-anchor fallback (§8.3): pack paragraphs greedily up to ``target_max``, and
    R-split a single paragraph that is still too long, its first piece in the room left
    after the text before it when that makes fewer pieces; a piece without text (tags,
    numbers) then takes paragraphs from the piece before it where they fit
    (``chunk/paragraph_pack.py``). Stage B left no table over the cap, so a paragraph this long is
    text (or an unrecognised table's character piece).

    Every piece keeps the block's heading and parents.
    """
    pieces = _expand(counted(block, ctx.counter), ctx)
    return pack_pieces(pieces, block, ctx, cap=ctx.thresholds.target_max)


def _expand(block: Block, ctx: Context) -> list[PackPiece]:
    """The block's paragraphs as pieces to pack; one of several lines over the cap is cut
    at its lines first (one still over the cap is left to the packer's R split)."""
    cap = ctx.thresholds.target_max
    holder = _role_holder(block)
    out: list[PackPiece] = []
    for index, whole in enumerate(block.paragraphs):
        is_long = whole.tokens > cap and "\n" in whole.text
        parts = line_paragraphs(whole, ctx.counter) if is_long else [whole]
        out.extend(PackPiece(paragraph, index == holder) for paragraph in parts)
    return out
