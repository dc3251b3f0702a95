"""Making paragraphs and blocks, and deciding whether text fits a cap, with the fewest
encodes: a paragraph is counted once when made, a block's count is estimated from its
paragraphs, and an exact count is taken only when an estimate is too close to a cap to
decide (spec §9.5)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import chain

from lightrag_pchunk.chunk.part_numbers import strip_part_suffix
from lightrag_pchunk.model import (
    PREFACE_HEADING,
    UNCOUNTED,
    Block,
    Paragraph,
    SectionRef,
    TableRole,
)
from lightrag_pchunk.tokens import TokenCounter, TokenStarts

#: Joiner between the paragraphs of one content row (as in ``.blocks.jsonl``).
PARAGRAPH_JOINER = "\n"
#: Joiner between two merged blocks (stage D and heading glue), and between paragraphs of
#: which one holds several lines (a Markdown list, code block or quote: see
#: :func:`paragraph_texts`).
BLOCK_JOINER = "\n\n"

_TABLE_OPEN = re.compile(r"<table(?:\s[^>]*)?>", re.IGNORECASE)


def is_table_text(text: str) -> bool:
    """True for one complete ``<table ...>...</table>`` tag (surrounding spaces allowed)."""
    if "</table>" not in text:  # most lines: decided without copying or a regex
        return False
    return text.rstrip().endswith("</table>") and _TABLE_OPEN.match(text.lstrip()) is not None


def has_big_table_line(content: str, limit: int) -> bool:
    """Whether a table line of ``content`` may exceed ``limit`` tokens, i.e. has more UTF-8
    bytes than ``limit`` (a byte-level BPE token covers at least one byte)."""
    if "<table" not in content:
        return False
    return any(
        line.lstrip().startswith("<table") and len(line.encode("utf-8", "surrogatepass")) > limit
        for line in content.split("\n")
    )


def make_paragraph(
    text: str, counter: TokenCounter, tokens: int | None = None, starts: TokenStarts | None = None
) -> Paragraph:
    """A paragraph with its exact token count (pass ``tokens`` when already known, and
    where its tokens start when the encode that counted it found them)."""
    return Paragraph(
        text=text,
        tokens=counter.count(text) if tokens is None else tokens,
        is_table=is_table_text(text),
        token_starts=starts,
    )


def paragraph_texts(content: str) -> list[str]:
    """The paragraphs of a content: its lines, or, when it has blank lines, the runs of
    lines between them.

    A content without a blank line (a .docx row) has one paragraph per line. In one with
    blank lines (a Markdown row) a blank line separates paragraphs, so a list, a code block
    or a quote written on several lines is one paragraph that is never cut while it fits a
    chunk; a ``<table>`` tag line is always a paragraph of its own (stage B slices it).
    Whitespace-only lines count as blank. See :func:`joiner_for` for the way back; a
    content that is one run of lines reads back as its lines, which cuts it only where it
    would be cut anyway (a paragraph alone over a cap is cut at its lines).
    """
    lines = content.split("\n")
    # str.strip removes what str.isspace calls whitespace: an empty result is a blank
    # line. Mapped in C, this decides the usual case (no blank line) without a loop.
    if all(map(str.strip, lines)):
        return lines
    texts: list[str] = []
    run: list[str] = []
    for line in lines:
        if not line or line.isspace():
            if run:
                texts.append(PARAGRAPH_JOINER.join(run))
                run = []
        elif "</table>" in line and is_table_text(line):
            if run:
                texts.append(PARAGRAPH_JOINER.join(run))
                run = []
            texts.append(line)
        else:
            run.append(line)
    if run:
        texts.append(PARAGRAPH_JOINER.join(run))
    return texts


def joiner_for(texts: Iterable[str]) -> str:
    """The joiner of paragraphs such that :func:`paragraph_texts` gives them back: a line
    break, or a blank line when one of them holds several lines."""
    return BLOCK_JOINER if any(PARAGRAPH_JOINER in text for text in texts) else PARAGRAPH_JOINER


def split_paragraphs(content: str, counter: TokenCounter) -> tuple[Paragraph, ...]:
    """The paragraphs of a content row (:func:`paragraph_texts`), each counted once."""
    return tuple([make_paragraph(text, counter) for text in paragraph_texts(content)])


def uncounted_paragraphs(content: str) -> tuple[Paragraph, ...]:
    """The paragraphs of ``content``, left :data:`~lightrag_pchunk.model.UNCOUNTED`."""
    texts = paragraph_texts(content)
    return tuple([Paragraph(text, UNCOUNTED, is_table_text(text)) for text in texts])


def line_paragraphs(paragraph: Paragraph, counter: TokenCounter) -> list[Paragraph]:
    """The lines of a paragraph written on several lines, each counted: how one that alone
    is over a cap is cut (at its lines before anything else)."""
    return [make_paragraph(line, counter) for line in paragraph.text.split(PARAGRAPH_JOINER)]


def without_blank_lines(content: str) -> str:
    """``content`` as the joined text of its paragraphs (:func:`paragraph_texts`): the
    text of a block whose paragraphs are made from it, blank lines dropped or, between
    paragraphs of several lines, made single."""
    texts = paragraph_texts(content)
    if len(texts) == content.count(PARAGRAPH_JOINER) + 1:
        return content  # every line is a paragraph: the content itself
    return joiner_for(texts).join(texts)


def paragraphs_of(block: Block) -> tuple[Paragraph, ...]:
    """``block``'s paragraphs; for a block whose lines are not made yet (``paragraphs is
    None``) they are made from its content, uncounted (see :func:`counted`)."""
    if block.paragraphs is not None:
        return block.paragraphs
    return uncounted_paragraphs(block.content)


def build_block(
    paragraphs: Sequence[Paragraph], counter: TokenCounter, *, like: Block, **changes: object
) -> Block:
    """A block of ``paragraphs`` joined with :func:`joiner_for`, copying ``like``'s other fields.

    The count is derived exactly from the paragraphs' counts where the tokenizer allows
    (``TokenCounter.join_counts``), else estimated.
    """
    paragraphs = tuple(paragraphs)
    texts = [p.text for p in paragraphs]
    joiner = joiner_for(texts)
    content = joiner.join(texts)
    tokens, is_exact = counter.join_counts(texts, [p.tokens for p in paragraphs], joiner)
    return replace(
        like,
        paragraphs=paragraphs,
        content=content,
        tokens=tokens,
        is_exact=is_exact,
        **changes,  # type: ignore[arg-type]
    )


def counted(block: Block, counter: TokenCounter) -> Block:
    """``block`` with every paragraph made and counted: a row that fits one chunk is counted
    whole and split into lines only when something cuts its block after all (rare: heading
    glue near the cap, a re-cut)."""
    paragraphs = block.paragraphs
    if paragraphs is not None and all(p.tokens != UNCOUNTED for p in paragraphs):
        return block
    paragraphs = tuple(
        p if p.tokens != UNCOUNTED else replace(p, tokens=counter.count(p.text))
        for p in paragraphs_of(block)
    )
    return replace(block, paragraphs=paragraphs)


def _joints(block: Block) -> int:
    """Joiners between the block's paragraphs (a merge's ``"\\n\\n"`` is one joint)."""
    if block.paragraphs is None:  # lines not made: no blank lines but the merge seams
        return block.content.count("\n") - block.content.count(BLOCK_JOINER)
    return max(len(block.paragraphs) - 1, 0)


def _lower_bound(estimate: int, joints: int) -> int:
    # Merging across a joiner can save a token or two per seam (".\n" is one token in
    # cl100k); below this bound an estimate cannot be the real count.
    return estimate - 2 * joints - 2


def _upper_bound(estimate: int, joints: int) -> int:
    # The mirror bound: a tokenizer we do not know may also spend a token or two more at
    # a seam. Within it an estimate is taken as fitting a cap without encoding.
    return estimate + 2 * joints + 2


def exact(block: Block, counter: TokenCounter) -> Block:
    """``block`` with an exact token count (encodes only if it is an estimate)."""
    if block.is_exact:
        return block
    return replace(block, tokens=counter.count(block.content), is_exact=True)


def exceeds(block: Block, cap: int, counter: TokenCounter) -> tuple[bool, Block]:
    """Whether ``block`` is over ``cap`` tokens, and the block (made exact if that was
    needed to decide: an estimate decides only when both bounds agree)."""
    if block.is_exact:
        return block.tokens > cap, block
    joints = _joints(block)
    if _upper_bound(block.tokens, joints) <= cap:
        return False, block
    if _lower_bound(block.tokens, joints) > cap:
        return True, block
    measured = exact(block, counter)
    return measured.tokens > cap, measured


class BlockRun:
    """Blocks to be joined with ``"\n\n"`` into one, keeping the first one's identity
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
        # Only the end of the run's text matters at its seam: its last block stands in.
        texts, counts = [self.last.content], [self.tokens]
        parts_exact = self.is_exact
        for block in blocks:  # one loop, no generators: merging calls this for every block
            texts.append(block.content)
            counts.append(block.tokens)
            parts_exact = parts_exact and block.is_exact
        if parts_exact:
            tokens, is_exact = counter.join_counts(texts, counts, BLOCK_JOINER)
        else:
            tokens, is_exact = counter.estimate(counts, BLOCK_JOINER), False
        if is_exact and tokens > cap:
            return False
        if not is_exact:
            # Joints are counted only for an estimate: it decides only when both of its
            # bounds fall on the same side of the cap, else the joined text is encoded.
            parts = [*self.blocks, *blocks]
            joints = sum(_joints(block) for block in parts) + len(parts) - 1
            if _lower_bound(tokens, joints) > cap:
                return False
            if _upper_bound(tokens, joints) > cap:
                text = BLOCK_JOINER.join([b.content for b in parts])
                tokens, is_exact = counter.count(text), True
                if tokens > cap:
                    return False
        self.blocks.extend(blocks)
        self.tokens, self.is_exact = tokens, is_exact
        return True

    def build(self, role: TableRole = TableRole.NONE, *, keep_lines: bool = False) -> Block:
        """The joined block (a run of one block is that block, unchanged).

        It keeps the identity block's heading, parents and level, unless its blocks come
        from different sections: then its heading is their deepest common parent (their own
        headings stay as lines in the content). These steer later merges; ``sections``
        records what it holds, from which stage E labels its chunk
        (``chunk/chunk_headings.py: chunk_label``).
        """
        if len(self.blocks) == 1:
            return self.blocks[0]
        identity = self.identity
        heading, parents, level = identity.heading, identity.parent_headings, identity.level
        paths = [heading_path(b) for b in self.blocks]  # once per block: both below read them
        common = _common_parent(self.blocks, paths, heading_path(identity))
        if common is not None:
            (*parent_list, heading), level = common
            parents = tuple(parent_list)
        return Block(
            heading=heading,
            parent_headings=parents,
            level=level,
            paragraphs=_merged_paragraphs(self.blocks, keep_lines),
            content=BLOCK_JOINER.join(b.content for b in self.blocks),
            tokens=self.tokens,
            is_exact=self.is_exact,
            role=role,
            source_row=identity.source_row,
            block_ids=_merged_ids(self.blocks),
            is_title=identity.is_title,
            oversize=next((b.oversize for b in self.blocks if b.oversize), ""),
            is_toc=identity.is_toc,
            sections=tuple(chain.from_iterable(map(_sections_of, self.blocks, paths))),
        )


def heading_path(block: Block) -> tuple[str, ...]:
    """The headings from the document's top down to ``block``'s own (no ``[part n]``);
    the untitled preface has none."""
    heading = strip_part_suffix(block.heading)
    if not block.parent_headings and heading in ("", PREFACE_HEADING):
        return ()
    return (*block.parent_headings, heading) if heading else block.parent_headings


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
        return (SectionRef(path, block.level),)
    return (PREFACE_SECTION,) if block.is_preface_section else ()


def common_path(paths: Sequence[tuple[str, ...]]) -> tuple[str, ...]:
    """The longest heading path that starts every one of ``paths``."""
    first = paths[0]
    length = len(first)
    for path in paths[1:]:
        length = min(length, len(path))
        while path[:length] != first[:length]:
            length -= 1
    return first[:length]


def _common_parent(
    blocks: Sequence[Block], paths: Sequence[tuple[str, ...]], own: tuple[str, ...]
) -> tuple[tuple[str, ...], int] | None:
    """``(path, level)`` of the deepest heading over all ``blocks`` (of heading ``paths``;
    the untitled preface aside) when it is above ``own``, the run identity's path; None
    when the identity already is it, or the blocks share no heading at all."""
    titled = [(b, path) for b, path in zip(blocks, paths, strict=True) if path]
    if len(titled) < 2 or not own:
        return None
    common = common_path([path for _, path in titled])
    if not common or common == own:
        return None
    level = min(b.level - (len(path) - len(common)) for b, path in titled)
    return common, max(level, 1)


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
    run = BlockRun(left)
    if not run.try_add([right], cap, counter):
        return None
    return run.build(role, keep_lines=keep_lines)
