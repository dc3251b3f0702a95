"""What stage D's two fills share: the table-role gates, the structure predicates and the
runs of blocks being joined.

Both the strategy's phases (``chunk/merge.py``) and ``pack`` (``chunk/merge_pack.py``) join
blocks into runs within target_max and keep the same rules about what may share a
chunk: a middle table slice stands alone, a first slice starts a run, a last slice ends
one (spec §9.1, §9.2); the untitled preface hands its identity to the section it joins.
"""

from __future__ import annotations

from collections.abc import Sequence

from lightrag_pchunk.chunk.block_runs import BlockRun
from lightrag_pchunk.chunk.blocks import common_path
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.part_numbers import label_path, strip_part_suffix
from lightrag_pchunk.model import PREFACE_HEADING, Block, TableRole

#: Blocks joined across sections lie no more than this many heading levels below their
#: common parent: siblings and cousins (children of one grandparent), never further.
MAX_FILL_DEPTH = 2

# A pass keeps plain blocks and wraps one in a BlockRun only when something joins it: most
# blocks never merge at a given level, and a document may have thousands of them.
Item = Block | BlockRun


# Role gates (§9.2 table). Phase B also lets a last slice absorb forward (§9.4).
def absorbs_forward(block: Block, *, cross_level: bool) -> bool:
    """Whether ``block`` may take the block after it into its run."""
    if block.role in (TableRole.NONE, TableRole.FIRST):
        return True
    return cross_level and block.role is TableRole.LAST


def can_be_absorbed(block: Block) -> bool:
    """Whether ``block`` may join the run before it (never a pinned title)."""
    return block.role in (TableRole.NONE, TableRole.LAST) and not block.is_title


def may_precede(block: Block, following: Block) -> bool:
    """The role and title gates between two neighbours of one run."""
    return absorbs_forward(block, cross_level=True) and can_be_absorbed(following)


def run_role(run: BlockRun) -> TableRole:
    """The role of a joined run: absorbable if its first block was, absorbing if its last
    block was; neither makes it locked (reported as ``middle``)."""
    absorbable = run.blocks[0].role in (TableRole.NONE, TableRole.LAST)
    absorbing = run.last.role in (TableRole.NONE, TableRole.FIRST)
    if absorbable and absorbing:
        return TableRole.NONE
    if absorbable:
        return TableRole.LAST
    return TableRole.FIRST if absorbing else TableRole.MIDDLE


def is_untitled(block: Block) -> bool:
    """The untitled preface: text before the first heading (a cover page)."""
    return not block.parent_headings and block.heading.strip() in ("", PREFACE_HEADING)


def is_descendant(shallow: Block, deep: Block) -> bool:
    """Whether ``deep`` lies in the subtree of ``shallow``'s heading (parent-path test);
    a block of merged children headed by their common parent (``shallow``'s own heading)
    counts too."""
    path = label_path(shallow.heading, shallow.parent_headings)
    return (*deep.parent_headings, strip_part_suffix(deep.heading))[: len(path)] == path


def is_small_leaf(block: Block, following: Block | None, small: int) -> bool:
    """A few lines (under ``small`` tokens) with no subsection after them: a leaf that may
    join a neighbour the hierarchy rules would otherwise keep it from."""
    return 0 < block.tokens < small and not (
        following is not None and is_descendant(block, following)
    )


def with_path(
    common: tuple[str, ...] | None, deepest: int, path: tuple[str, ...]
) -> tuple[tuple[str, ...], int]:
    """A run's common heading path and deepest path length once a block at ``path`` is in."""
    if common is None:
        common = path
    elif path[: len(common)] != common:
        common = common_path((common, path))
    return common, max(deepest, len(path))


def add_to_run(run: BlockRun, blocks: Sequence[Block], ctx: Context) -> bool:
    """Join ``blocks`` to ``run`` within target_max; the preamble hands over its identity."""
    if not run.try_add(blocks, ctx.thresholds.target_max, ctx.counter):
        return False
    if is_untitled(run.identity):
        run.identity = next((b for b in blocks if not is_untitled(b)), run.identity)
    if run.identity.is_toc:  # a few lines of contents before a section: named by the section
        run.identity = next(
            (b for b in blocks if not b.is_toc and not is_untitled(b)), run.identity
        )
    return True


def last_run(items: list[Item]) -> BlockRun:
    """The last item as a run (wrapping a plain block the first time it absorbs)."""
    last = items[-1]
    if isinstance(last, Block):
        last = items[-1] = BlockRun(last)
    return last


def built(
    items: list[Item], paths: Sequence[Sequence[tuple[str, ...]] | None] | None = None
) -> list[Block]:
    """Every item as a block: runs joined, plain blocks as they are. ``paths``: each item's
    blocks' heading paths, where the caller has them."""
    paths = paths if paths is not None else [None] * len(items)
    return [
        item.build(run_role(item), paths=path) if isinstance(item, BlockRun) else item
        for item, path in zip(items, paths, strict=True)
    ]
