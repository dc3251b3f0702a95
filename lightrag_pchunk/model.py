"""The typed data shared by every stage: block rows, paragraphs, blocks, chunks, thresholds.

Data only: no I/O, no tokenizer, no lightrag. Every type is frozen: stages build new
objects with ``dataclasses.replace`` and may share the blocks they pass through.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lightrag_pchunk.tokens import TokenStarts

#: Maximum length (characters) of a paragraph that may become an anchor (spec §4, §8.1).
MAX_ANCHOR_CANDIDATE_LENGTH = 100

#: The smallest chunk_token_size P accepts. A character is at most 4 tokens in a byte-level
#: BPE (tiktoken's cl100k and o200k: one per UTF-8 byte at worst), so from 4 tokens on every
#: piece of text can be cut to fit and no chunk is ever over N; below it a single character
#: (a CJK ideograph is 1-3 cl100k tokens, 𝑅 four) could not fit any chunk.
MIN_CHUNK_TOKEN_SIZE = 4

#: ``Paragraph.tokens`` of a line not counted on its own: its block was counted whole, and
#: the line is counted if a stage cuts that block after all (``chunk.blocks.counted``).
UNCOUNTED = -1

#: LightRAG's limit on a heading's text (``lightrag.constants.MAX_HEADING_LENGTH``, which the
#: parsers cannot import): a longer "heading" is a passage, kept as body text; one number for
#: every parser, which tests/integration keeps in step with LightRAG's.
MAX_HEADING_LENGTH = 200

#: The deepest heading level a block carries (Word's outline levels 1-9): a level any parser
#: computes deeper (a numbering nested further, a heading below the deepest) is set here.
MAX_HEADING_LEVEL = 9

#: Heading given to text that precedes the first heading of a document (LightRAG's name).
PREFACE_HEADING = "Preface/Uncategorized"

#: ``session_type`` of a content row that holds a table of contents (LightRAG's is "body").
TOC_SESSION = "toc"

#: ``type`` of a row's position that places (part of) its text on a page: ``anchor`` is the
#: page, ``charspan`` the characters of the content printed there (a PDF's rows).
PAGE_POSITION = "bbox"


class TableRole(str, Enum):
    """Role of a block with respect to a sliced table (spec §6.4, ``table_chunk_role``)."""

    NONE = "none"
    FIRST = "first"
    MIDDLE = "middle"
    LAST = "last"


@dataclass(frozen=True, slots=True)
class BlockRow:
    """One ``type == "content"`` row of a ``.blocks.jsonl`` file, as written on disk.

    ``line_number`` is the 1-based line of the file it came from (0 when built in memory).
    ``positions`` holds only those of :data:`PAGE_POSITION` in the chunker's reading.
    ``extra`` keeps keys we do not interpret (``table_header``, ``session_type`` ...) so a
    read/write round trip loses nothing.
    """

    content: str
    heading: str = ""
    parent_headings: tuple[str, ...] = ()
    level: int = 1
    blockid: str = ""
    positions: tuple[dict[str, Any], ...] = ()
    is_title_block: bool = False
    line_number: int = 0
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class Paragraph:
    """One line of a block's content (or, in Markdown, a run of lines between blank lines),
    with its token count, measured once.

    ``is_table`` is true only for a complete single-line ``<table ...>...</table>`` tag.
    ``tokens`` is :data:`UNCOUNTED` for the lines of a row that was counted as a whole;
    they are counted if that block is cut after all (``chunk.blocks.counted``).
    ``is_piece`` marks a piece of a line cut by characters (a table row too long for any
    chunk): no line of the document, so never an anchor. ``token_starts``: where its tokens
    start, kept from the encode that counted a line over the chunk size, so that cutting
    it counts its pieces without encoding them again.
    """

    text: str
    tokens: int
    is_table: bool = False
    is_piece: bool = False
    token_starts: TokenStarts | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class SectionRef:
    """A section a merged block holds text of: its heading path (no ``[part n]``), the
    level of its heading and those of its parents' (``Block.parent_levels``)."""

    path: tuple[str, ...]
    level: int
    parent_levels: tuple[int, ...] = ()

    def level_at(self, depth: int) -> int:
        """The level of ``path[depth - 1]`` (1: the top): ``level`` for its own heading, else
        its parent's in ``parent_levels``; when those are not known (not one per parent),
        one level per heading above its own."""
        if depth >= len(self.path):
            return self.level
        if len(self.parent_levels) == len(self.path) - 1:
            return self.parent_levels[depth - 1]
        return max(self.level - (len(self.path) - depth), 1)


@dataclass(frozen=True, slots=True)
class Block:
    """A unit of work between stages: a whole content row, a slice of one, or a merge.

    ``content`` is the text that becomes the chunk; within one row it is the paragraphs
    joined with ``"\\n"``, and a merge joins two contents with ``"\\n\\n"``.
    ``paragraphs`` is None for a block whose lines were not made yet: a row that fits one
    chunk is counted whole, and its paragraphs (its non-blank lines) are made only when a
    stage cuts it (``chunk.blocks.paragraphs_of`` / ``counted``); a merge of such blocks
    stays None (heading glue's keeps their lines, uncounted), a merge with others has their
    lines uncounted.
    ``tokens`` is the count of ``content``: exact when ``is_exact`` is true, otherwise an
    estimate built from cached paragraph counts plus joiner costs (the token counter's
    ``estimate``); the final chunk is always measured exactly (spec §9.5).
    ``source_row`` is the index of the content row the block (or, after a merge, its
    left-most part) came from.
    ``block_ids`` lists every source blockid, in order, without duplicates.
    ``is_title`` marks a pinned title block (LightRAG ``is_title_block``, level 0).
    ``oversize`` records why a block may legitimately exceed ``target_max``
    (a single table row or unbreakable run that is larger than the cap by itself).
    ``is_toc`` marks a table of contents (its row's ``session_type`` is ``"toc"``): never
    cut at anchors, merged only with another table of contents. ``topic_breaks`` are the
    paragraph indexes where a language model saw a new topic start (the row's
    ``topic_breaks``): stage C cuts there first when the block is over ``target_max``.
    ``parent_levels`` are the levels of the headings of ``parent_headings`` as the outline
    gives them (a heading may lie several levels below its parent, and a stage C anchor keeps
    its block's level, so a path's length does not tell them); empty when not known.
    ``sections`` lists, in order, the sections a merged block holds text of (a table of
    contents and a preface of only the title left out), from which stage E labels its
    chunk; empty for a block of one section. ``is_preface_section`` marks (a piece of) an
    untitled preface with a body of its own (``chunk/preface.py``): the section
    ``Preface/Uncategorized`` that a chunk opening with it declares.
    """

    heading: str
    parent_headings: tuple[str, ...]
    level: int
    paragraphs: tuple[Paragraph, ...] | None
    content: str
    tokens: int
    is_exact: bool = False
    role: TableRole = TableRole.NONE
    source_row: int = 0
    block_ids: tuple[str, ...] = ()
    is_title: bool = False
    oversize: str = ""
    is_toc: bool = False
    topic_breaks: tuple[int, ...] = ()
    sections: tuple[SectionRef, ...] = ()
    is_preface_section: bool = False
    parent_levels: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PageSpan:
    """Characters ``start``..``end`` of a chunk's content are printed on ``page`` (1-based)."""

    page: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Chunk:
    """One output chunk (stage E), before it is shaped into a LightRAG row.

    ``heading`` already carries its ``[part n]`` suffix; ``parent_headings`` never does.
    ``tokens`` is an exact count of ``content``. ``pages``: where its text is printed, for
    a document whose rows know their pages (a PDF), in text order.
    """

    content: str
    tokens: int
    order: int
    heading: str
    parent_headings: tuple[str, ...]
    level: int
    block_ids: tuple[str, ...] = ()
    source_row: int = 0
    role: TableRole = TableRole.NONE
    oversize: str = ""
    pages: tuple[PageSpan, ...] = ()


def _scaled(n: int, ratio: float) -> int:
    # Truncate, never round, and never go below 1 token (spec §4; LightRAG facts §4.5).
    return max(int(n * ratio), 1)


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Every size limit of the P strategy, derived from N = chunk_token_size (spec §4)."""

    target_max: int
    target_ideal: int
    table_max: int
    table_ideal: int
    table_min_last: int
    small_tail_threshold: int
    max_anchor_candidate_length: int = MAX_ANCHOR_CANDIDATE_LENGTH

    @classmethod
    def from_chunk_size(cls, chunk_token_size: int) -> Thresholds:
        """Derive the thresholds for ``chunk_token_size`` tokens.

        Raises:
            ValueError: if ``chunk_token_size`` is not an integer >=
                :data:`MIN_CHUNK_TOKEN_SIZE`.
        """
        least = MIN_CHUNK_TOKEN_SIZE
        if isinstance(chunk_token_size, bool) or not isinstance(chunk_token_size, int):
            raise ValueError(
                f"chunk_token_size must be an integer >= {least}, got {chunk_token_size!r}"
            )
        if chunk_token_size < least:
            raise ValueError(f"chunk_token_size must be >= {least}, got {chunk_token_size}")
        n = chunk_token_size
        table_max = _scaled(n, 0.625)
        return cls(
            target_max=n,
            target_ideal=_scaled(n, 0.75),
            table_max=table_max,
            table_ideal=_scaled(n, 0.375),
            table_min_last=_scaled(table_max, 0.32),
            small_tail_threshold=_scaled(n, 0.125),
        )
