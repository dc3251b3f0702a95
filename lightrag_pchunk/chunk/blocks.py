"""Making paragraphs and blocks, and deciding whether text fits a cap, with the fewest
encodes: a paragraph is counted once when made, a block's count is estimated from its
paragraphs, and an exact count is taken only when an estimate is too close to a cap to
decide (spec §9.5)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.model import Block, Paragraph, TableRole
from lightrag_pchunk.tokens import TokenCounter

#: Joiner between the paragraphs of one content row (as in ``.blocks.jsonl``).
PARAGRAPH_JOINER = "\n"
#: Joiner between two merged blocks (stage D and heading glue).
BLOCK_JOINER = "\n\n"

_TABLE_OPEN = re.compile(r"<table(?:\s[^>]*)?>", re.IGNORECASE)


def is_table_text(text: str) -> bool:
    """True for one complete ``<table ...>...</table>`` tag (surrounding spaces allowed)."""
    stripped = text.strip()
    return (
        stripped.endswith("</table>")
        and _TABLE_OPEN.match(stripped) is not None
        and stripped.count("</table>") >= 1
    )


def make_paragraph(text: str, counter: TokenCounter, tokens: int | None = None) -> Paragraph:
    """A paragraph with its exact token count (pass ``tokens`` when already known)."""
    return Paragraph(
        text=text,
        tokens=counter.count(text) if tokens is None else tokens,
        is_table=is_table_text(text),
    )


def split_paragraphs(content: str, counter: TokenCounter) -> tuple[Paragraph, ...]:
    """The non-blank lines of a content row, each counted once."""
    return tuple(make_paragraph(line, counter) for line in content.split("\n") if line.strip())


def build_block(
    paragraphs: Sequence[Paragraph], counter: TokenCounter, *, like: Block, **changes: object
) -> Block:
    """A block of ``paragraphs`` joined with ``"\\n"``, copying ``like``'s other fields.

    The count is exact for a single paragraph and an estimate otherwise.
    """
    paragraphs = tuple(paragraphs)
    content = PARAGRAPH_JOINER.join(p.text for p in paragraphs)
    if len(paragraphs) == 1:
        tokens, is_exact = paragraphs[0].tokens, True
    else:
        tokens = counter.estimate((p.tokens for p in paragraphs), PARAGRAPH_JOINER)
        is_exact = False
    return replace(
        like,
        paragraphs=paragraphs,
        content=content,
        tokens=tokens,
        is_exact=is_exact,
        **changes,  # type: ignore[arg-type]
    )


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


def join_blocks(
    left: Block, right: Block, cap: int, counter: TokenCounter, **changes: object
) -> Block | None:
    """``left`` + ``"\\n\\n"`` + ``right`` keeping ``left``'s identity, or None if over ``cap``.

    The joined text is re-encoded only when the estimate cannot decide (spec §9.5).
    Block ids are concatenated without duplicates; the role becomes NONE unless
    ``changes`` say otherwise.
    """
    estimate = left.tokens + counter.count(BLOCK_JOINER) + right.tokens
    content = left.content + BLOCK_JOINER + right.content
    joints = _joints(left) + _joints(right) + 1
    tokens, is_exact = estimate, False
    if estimate > cap:
        if _lower_bound(estimate, joints) > cap:
            return None
        tokens, is_exact = counter.count(content), True
        if tokens > cap:
            return None
    ids = left.block_ids + tuple(i for i in right.block_ids if i not in left.block_ids)
    fields: dict[str, object] = {"role": TableRole.NONE, **changes}
    return replace(
        left,
        paragraphs=left.paragraphs + right.paragraphs,
        content=content,
        tokens=tokens,
        is_exact=is_exact,
        block_ids=ids,
        oversize=left.oversize or right.oversize,
        **fields,  # type: ignore[arg-type]
    )
