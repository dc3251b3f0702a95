"""Blocks joined into one with ``"\\n\\n"`` (heading glue and stage D): whether the joined
text stays within a cap, counted from the parts' counts (spec §9.5), and the joined block,
made once, with the identity, the common parent and the sections it holds."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from lightrag_pchunk.chunk.blocks import (
    BLOCK_JOINER,
    common_path,
    estimate_is_over,
    joints,
    paragraphs_of,
)
from lightrag_pchunk.chunk.part_numbers import label_path
from lightrag_pchunk.model import PREFACE_HEADING, Block, Paragraph, SectionRef, TableRole
from lightrag_pchunk.tokens import TokenCounter


def count_joined(
    run: Sequence[Block],
    tokens: int,
    is_exact: bool,
    blocks: Sequence[Block],
    cap: int,
    counter: TokenCounter,
) -> tuple[int, bool] | None:
    """The count of ``run`` (its joined text of ``tokens`` tokens, exact or not) with
    ``blocks`` joined after it, and whether it is exact; None when it is over ``cap``.

    The count is derived from the parts' counts; only when an estimate cannot decide are
    all the blocks read: their joints then bound the estimate, and if the bounds straddle
    the cap the joined text is encoded.
    """
    # Only the end of the run's text matters at its seam: its last block stands in.
    texts, counts = [run[-1].content], [tokens]
    parts_exact = is_exact
    for block in blocks:  # one loop, no generators: merging calls this for every block
        texts.append(block.content)
        counts.append(block.tokens)
        parts_exact = parts_exact and block.is_exact
    if parts_exact:
        tokens, is_exact = counter.join_counts(texts, counts, BLOCK_JOINER)
    else:
        tokens, is_exact = counter.estimate(counts, BLOCK_JOINER), False
    if is_exact:
        return None if tokens > cap else (tokens, True)
    parts = [*run, *blocks]
    over = estimate_is_over(tokens, sum(map(joints, parts)) + len(parts) - 1, cap)
    if over is None:
        tokens = counter.count(BLOCK_JOINER.join([b.content for b in parts]))
        return None if tokens > cap else (tokens, True)
    return None if over else (tokens, False)


class BlockRun:
    """Blocks to be joined with ``"\\n\\n"`` into one, keeping the first one's identity
    unless told otherwise. The joined count is estimated from the parts' counts and
    re-encoded only when the estimate cannot decide against a cap (spec §9.5); the joined
    text is built once, by :meth:`build`.
    """

    __slots__ = ("blocks", "identity", "is_exact", "tokens")

    def __init__(self, first: Block) -> None:
        self.blocks = [first]
        self.identity = first
        self.tokens = first.tokens
        self.is_exact = first.is_exact

    @property
    def last(self) -> Block:
        return self.blocks[-1]

    def try_add(self, blocks: Sequence[Block], cap: int, counter: TokenCounter) -> bool:
        """Append all of ``blocks`` if the joined text stays within ``cap``, else nothing."""
        counted = count_joined(self.blocks, self.tokens, self.is_exact, blocks, cap, counter)
        if counted is None:
            return False
        self.blocks.extend(blocks)
        self.tokens, self.is_exact = counted
        return True

    def build(
        self,
        role: TableRole = TableRole.NONE,
        *,
        keep_lines: bool = False,
        paths: Sequence[tuple[str, ...]] | None = None,
    ) -> Block:
        """The joined block (a run of one block is that block, unchanged): see
        :func:`joined_block`. ``paths``: its blocks' heading paths, where the caller has
        them (``heading_path`` of each otherwise)."""
        if len(self.blocks) == 1:
            return self.blocks[0]
        if paths is None:
            paths = [heading_path(b) for b in self.blocks]
        return joined_block(
            self.blocks, paths, self.identity, self.tokens, self.is_exact, role, keep_lines
        )


def joined_block(
    blocks: Sequence[Block],
    paths: Sequence[tuple[str, ...]],
    identity: Block,
    tokens: int,
    is_exact: bool,
    role: TableRole,
    keep_lines: bool = False,
) -> Block:
    """``blocks`` (of heading paths ``paths``) joined into one block of ``tokens`` tokens.

    It keeps the ``identity`` block's heading, parents and level, unless its blocks come
    from different sections: then its heading is their deepest common parent (their own
    headings stay as lines in the content). These steer later merges; ``sections``
    records what it holds, from which stage E labels its chunk
    (``chunk/chunk_headings.py: chunk_label``). ``keep_lines``: see :func:`join_blocks`.
    """
    heading, parents, level = identity.heading, identity.parent_headings, identity.level
    parent_levels = identity.parent_levels
    common = _common_parent(blocks, paths, heading_path(identity))
    if common is not None:
        (*parent_list, heading), (*level_list, level) = common
        parents, parent_levels = tuple(parent_list), tuple(level_list)
    return Block(
        heading=heading,
        parent_headings=parents,
        level=level,
        paragraphs=_merged_paragraphs(blocks, keep_lines),
        content=BLOCK_JOINER.join([b.content for b in blocks]),
        tokens=tokens,
        is_exact=is_exact,
        role=role,
        source_row=identity.source_row,
        block_ids=_merged_ids(blocks),
        is_title=identity.is_title,
        oversize=next((b.oversize for b in blocks if b.oversize), ""),
        is_toc=identity.is_toc,
        sections=tuple(chain.from_iterable(map(_sections_of, blocks, paths))),
        parent_levels=parent_levels,
    )


def heading_path(block: Block) -> tuple[str, ...]:
    """The headings from the document's top down to ``block``'s own (no ``[part n]``);
    the untitled preface has none."""
    path = label_path(block.heading, block.parent_headings)
    untitled = not block.parent_headings and path in ((), (PREFACE_HEADING,))
    return () if untitled else path


#: The section an untitled preface with a body of its own is (``chunk/preface.py``), as
#: LightRAG names it.
PREFACE_SECTION = SectionRef((PREFACE_HEADING,), 1)


def _sections_of(block: Block, path: tuple[str, ...]) -> tuple[SectionRef, ...]:
    """The sections ``block`` (of heading path ``path``) holds text of: those it was merged
    from, else its own: the preface's section for a preface with a body of its own; none
    for a preface of only the title or a table of contents, which belong to no section."""
    if block.sections:
        return block.sections
    if block.is_toc:
        return ()
    if path:
        return (_section_ref(block, path),)
    return (PREFACE_SECTION,) if block.is_preface_section else ()


def _section_ref(block: Block, path: tuple[str, ...]) -> SectionRef:
    return SectionRef(path, block.level, block.parent_levels)


def _common_parent(
    blocks: Sequence[Block], paths: Sequence[tuple[str, ...]], own: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
    """The path of the deepest heading over all ``blocks`` (of heading ``paths``; the
    untitled preface aside) and the levels of its headings, when it is above ``own``, the
    run identity's path; None when the identity already is it, or the blocks share no
    heading at all."""
    titled = [(b, path) for b, path in zip(blocks, paths, strict=True) if path]
    if len(titled) < 2 or not own:
        return None
    common = common_path([path for _, path in titled])
    if not common or common == own:
        return None
    refs = [_section_ref(b, path) for b, path in titled]
    levels = tuple(min(ref.level_at(depth) for ref in refs) for depth in range(1, len(common) + 1))
    return common, levels


def _merged_paragraphs(blocks: Sequence[Block], keep_lines: bool) -> tuple[Paragraph, ...] | None:
    """The paragraphs of ``blocks`` in order, those not made yet uncounted; None (not made)
    when no block has made its own, unless ``keep_lines``: the joined text read back would
    run each block's lines together (blank lines separate the blocks)."""
    if not keep_lines and all(block.paragraphs is None for block in blocks):
        return None
    return tuple(chain.from_iterable(paragraphs_of(block) for block in blocks))


def _merged_ids(blocks: Sequence[Block]) -> tuple[str, ...]:
    """Every block id of ``blocks`` in order, without duplicates (pieces of one row share)."""
    ids = [block_id for block in blocks for block_id in block.block_ids]
    return tuple(ids) if len(set(ids)) == len(ids) else tuple(dict.fromkeys(ids))


def join_blocks(
    left: Block,
    right: Block,
    cap: int,
    counter: TokenCounter,
    *,
    role: TableRole = TableRole.NONE,
    keep_lines: bool = False,
) -> Block | None:
    """``left`` + ``"\n\n"`` + ``right`` keeping ``left``'s identity, or None if over ``cap``.

    The joined text is re-encoded only when the estimate cannot decide (spec §9.5).
    Block ids are concatenated without duplicates. ``keep_lines``: the block keeps both
    blocks' lines (uncounted where not made), so a later cut reads them as they were.
    """
    joined = count_joined((left,), left.tokens, left.is_exact, (right,), cap, counter)
    if joined is None:
        return None
    tokens, is_exact = joined
    paths = (heading_path(left), heading_path(right))
    return joined_block((left, right), paths, left, tokens, is_exact, role, keep_lines)
