"""Making paragraphs and blocks, and deciding whether text fits a cap, with the fewest
encodes: a paragraph is counted once when made, a block's count is estimated from its
paragraphs, and an exact count is taken only when an estimate is too close to a cap to
decide (spec §9.5)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from itertools import chain

from lightrag_pchunk.model import UNCOUNTED, Block, Paragraph, TableRole
from lightrag_pchunk.tokens import TokenCounter

#: Joiner between the paragraphs of one content row (as in ``.blocks.jsonl``).
PARAGRAPH_JOINER = "\n"
#: Joiner between two merged blocks (stage D and heading glue).
BLOCK_JOINER = "\n\n"

_TABLE_OPEN = re.compile(r"<table(?:\s[^>]*)?>", re.IGNORECASE)


def is_table_text(text: str) -> bool:
    """True for one complete ``<table ...>...</table>`` tag (surrounding spaces allowed)."""
    if "</table>" not in text:  # most lines: decided without copying or a regex
        return False
    return text.rstrip().endswith("</table>") and _TABLE_OPEN.match(text.lstrip()) is not None


def make_paragraph(text: str, counter: TokenCounter, tokens: int | None = None) -> Paragraph:
    """A paragraph with its exact token count (pass ``tokens`` when already known)."""
    return Paragraph(
        text=text,
        tokens=counter.count(text) if tokens is None else tokens,
        is_table=is_table_text(text),
    )


def split_paragraphs(
    content: str, counter: TokenCounter, *, lazy: bool = False
) -> tuple[Paragraph, ...]:
    """The non-blank lines of a content row, each counted once (or left
    :data:`~lightrag_pchunk.model.UNCOUNTED` when ``lazy``)."""
    lines = [line for line in content.split("\n") if line and not line.isspace()]
    if lazy:
        return tuple([Paragraph(line, UNCOUNTED, is_table_text(line)) for line in lines])
    return tuple([make_paragraph(line, counter) for line in lines])


def build_block(
    paragraphs: Sequence[Paragraph], counter: TokenCounter, *, like: Block, **changes: object
) -> Block:
    """A block of ``paragraphs`` joined with ``"\\n"``, copying ``like``'s other fields.

    The count is derived exactly from the paragraphs' counts where the tokenizer allows
    (``TokenCounter.join_counts``), else estimated.
    """
    paragraphs = tuple(paragraphs)
    texts = [p.text for p in paragraphs]
    content = PARAGRAPH_JOINER.join(texts)
    tokens, is_exact = counter.join_counts(texts, [p.tokens for p in paragraphs], PARAGRAPH_JOINER)
    return replace(
        like,
        paragraphs=paragraphs,
        content=content,
        tokens=tokens,
        is_exact=is_exact,
        **changes,  # type: ignore[arg-type]
    )


def counted(block: Block, counter: TokenCounter) -> Block:
    """``block`` with every paragraph counted: the lines of a small row are counted only
    when something cuts its block after all (rare: heading glue near the cap, a re-cut)."""
    if all(p.tokens != UNCOUNTED for p in block.paragraphs):
        return block
    paragraphs = tuple(
        p if p.tokens != UNCOUNTED else replace(p, tokens=counter.count(p.text))
        for p in block.paragraphs
    )
    return replace(block, paragraphs=paragraphs)


def _joints(block: Block) -> int:
    return max(len(block.paragraphs) - 1, 0)


def _lower_bound(estimate: int, joints: int) -> int:
    # Merging across a joiner can save a token or two per seam (".\n" is one token in
    # cl100k); below this bound an estimate cannot be the real count.
    return estimate - 2 * joints - 2


def exact(block: Block, counter: TokenCounter) -> Block:
    """``block`` with an exact token count (encodes only if it is an estimate)."""
    if block.is_exact:
        return block
    return replace(block, tokens=counter.count(block.content), is_exact=True)


def exceeds(block: Block, cap: int, counter: TokenCounter) -> tuple[bool, Block]:
    """Whether ``block`` is over ``cap`` tokens, and the block (made exact if that was
    needed to decide)."""
    if block.tokens <= cap:
        return False, block
    if block.is_exact or _lower_bound(block.tokens, _joints(block)) > cap:
        return True, block
    measured = exact(block, counter)
    return measured.tokens > cap, measured


class BlockRun:
    """Blocks to be joined with ``"\n\n"`` into one, keeping the first one's identity
    unless told otherwise. The joined count is estimated from the parts' counts and
    re-encoded only when the estimate cannot decide against a cap (spec §9.5); the joined
    text is built once, by :meth:`build`.
    """

    __slots__ = ("blocks", "identity", "is_exact", "joints", "tokens")

    def __init__(self, first: Block) -> None:
        self.blocks = [first]
        self.identity = first
        self.tokens = first.tokens
        self.is_exact = first.is_exact
        self.joints = _joints(first)

    @property
    def last(self) -> Block:
        return self.blocks[-1]

    def try_add(self, blocks: Sequence[Block], cap: int, counter: TokenCounter) -> bool:
        """Append all of ``blocks`` if the joined text stays within ``cap``, else nothing."""
        # Only the end of the run's text matters at its seam: its last block stands in.
        texts, counts = [self.last.content], [self.tokens]
        joints, parts_exact = self.joints, self.is_exact
        for block in blocks:  # one loop, no generators: merging calls this for every block
            texts.append(block.content)
            counts.append(block.tokens)
            joints += _joints(block) + 1
            parts_exact = parts_exact and block.is_exact
        if parts_exact:
            tokens, is_exact = counter.join_counts(texts, counts, BLOCK_JOINER)
        else:
            tokens, is_exact = counter.estimate(counts, BLOCK_JOINER), False
        if tokens > cap:
            if is_exact or _lower_bound(tokens, joints) > cap:
                return False
            text = BLOCK_JOINER.join(b.content for b in [*self.blocks, *blocks])
            tokens, is_exact = counter.count(text), True
            if tokens > cap:
                return False
        self.blocks.extend(blocks)
        self.tokens, self.is_exact, self.joints = tokens, is_exact, joints
        return True

    def build(self, role: TableRole = TableRole.NONE) -> Block:
        """The joined block (a run of one block is that block, unchanged)."""
        if len(self.blocks) == 1:
            return self.blocks[0]
        identity = self.identity
        return Block(
            heading=identity.heading,
            parent_headings=identity.parent_headings,
            level=identity.level,
            paragraphs=tuple(chain.from_iterable(b.paragraphs for b in self.blocks)),
            content=BLOCK_JOINER.join(b.content for b in self.blocks),
            tokens=self.tokens,
            is_exact=self.is_exact,
            role=role,
            source_row=identity.source_row,
            part=identity.part,
            block_ids=_merged_ids(self.blocks),
            is_title=identity.is_title,
            oversize=next((b.oversize for b in self.blocks if b.oversize), ""),
        )


def _merged_ids(blocks: Sequence[Block]) -> tuple[str, ...]:
    """Every block id of ``blocks`` in order, without duplicates (pieces of one row share)."""
    ids = [block_id for block in blocks for block_id in block.block_ids]
    return tuple(ids) if len(set(ids)) == len(ids) else tuple(dict.fromkeys(ids))


def join_blocks(
    left: Block, right: Block, cap: int, counter: TokenCounter, *, role: TableRole = TableRole.NONE
) -> Block | None:
    """``left`` + ``"\n\n"`` + ``right`` keeping ``left``'s identity, or None if over ``cap``.

    The joined text is re-encoded only when the estimate cannot decide (spec §9.5).
    Block ids are concatenated without duplicates.
    """
    run = BlockRun(left)
    return run.build(role) if run.try_add([right], cap, counter) else None
