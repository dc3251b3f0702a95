"""The P strategy from content rows to chunks: stage A input, stages B-D in spec order,
stage E rendering, and the final exact measurement of every chunk.

Stages are pure functions ``(Sequence[Block], Context) -> list[Block]``; ``STAGES`` lists
them in order so ``inspect`` can show the output of each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from lightrag_pchunk.chunk.anchor_split import anchor_split
from lightrag_pchunk.chunk.blocks import (
    has_big_table_line,
    joiner_for,
    make_paragraph,
    paragraphs_and_text,
    row_level,
    split_paragraphs,
)
from lightrag_pchunk.chunk.bridge import bridge
from lightrag_pchunk.chunk.chunk_headings import chunk_label, edges, with_end_parts
from lightrag_pchunk.chunk.context import PACK, Context
from lightrag_pchunk.chunk.heading_glue import heading_glue
from lightrag_pchunk.chunk.merge import merge
from lightrag_pchunk.chunk.pages import with_pages
from lightrag_pchunk.chunk.part_numbers import numbered_parts, render_heading
from lightrag_pchunk.chunk.preface import is_untitled_row, preface_is_section
from lightrag_pchunk.chunk.table_slices import table_slices
from lightrag_pchunk.chunk.table_text import KEYED, keyed_tables
from lightrag_pchunk.model import TOC_SESSION, Block, BlockRow, Chunk, Paragraph
from lightrag_pchunk.tokens import TokenCounter, TokenStarts

Stage = Callable[[Sequence[Block], Context], list[Block]]
#: Told each stage's name and output, after stage A and after each of ``STAGES``
#: (``inspect`` shows them).
StageObserver = Callable[[str, Sequence[Block]], None]
#: The name under which the observer sees stage A's output.
STAGE_A = "A: blocks"

#: The stages in spec order; stage E (:func:`to_chunks`) labels the chunks and numbers their
#: parts last, on the final blocks.
STAGES: tuple[tuple[str, Stage], ...] = (
    ("table_slices", table_slices),
    ("bridge", bridge),
    ("anchor_split", anchor_split),
    ("heading_glue", heading_glue),
    ("merge", merge),
)


#: A row of up to this many UTF-8 bytes per token of target_max probably fits one chunk
#: (English prose runs at 4-5 bytes per cl100k token): it is encoded whole first.
_LIKELY_FITS_BYTES_PER_TOKEN = 4.5
#: A row under this many UTF-8 bytes per token of a size is probably under that size (even
#: CJK text runs at 2-3 bytes per token): it is encoded whole first.
_LIKELY_UNDER_BYTES_PER_TOKEN = 2


def to_blocks(rows: Sequence[BlockRow], ctx: Context) -> list[Block]:
    """Stage A: one block per content row with text, counted once (its tables written
    keyed first when ``ctx.table_text`` asks for it).

    A row that fits one chunk needs only its total: it is encoded whole, which gives an
    exact block count, and its lines are made into paragraphs only if something cuts it
    later (``Block.paragraphs`` is None until then). That is
    certain for a row within ``min(table_max, target_max)`` UTF-8 bytes (a byte-level BPE
    token covers at least one byte) and likely up to 4.5 bytes per token of target_max; a
    likely row that turns out bigger has its lines counted too. The whole rows are counted
    together (``TokenCounter.count_many``: one encode for all of them with tiktoken). Other
    rows are counted by their lines, all of them together likewise, the block count being
    derived from their counts. Rows
    whose content is blank are skipped (they hold no text). A row's paragraphs are its
    lines, or its runs of lines between blank lines (``chunk.blocks.paragraph_texts``).
    The untitled preface's blocks are marked when it has a body of its own
    (``chunk/preface.py``): a chunk that opens with it declares it.
    """
    th = ctx.thresholds
    small = min(th.table_max, th.target_max)
    likely = int(th.target_max * _LIKELY_FITS_BYTES_PER_TOKEN)
    # Stage D's pack may cut a section of at least twice small_tail_threshold tokens between
    # paragraphs: such a row is counted by its lines (_lines_to_count).
    cuttable = 2 * th.small_tail_threshold if ctx.fill == PACK else None
    counter = ctx.counter
    # Per row: None (counted whole below) or its paragraphs' texts (counted below, in one
    # batch with those of the other such rows).
    pending: list[tuple[int, BlockRow, str, list[str] | None]] = []
    keyed = ctx.table_text == KEYED
    preface_section = preface_is_section(rows)
    parent_levels = _parent_levels(rows)
    for index, row in enumerate(rows):
        raw = row.content
        if keyed:
            raw = keyed_tables(raw, ctx.table_headers, ctx.keyed_rows)
        size = len(raw) if raw.isascii() else len(raw.encode("utf-8", "surrogatepass"))
        texts, text = paragraphs_and_text(raw)  # the text: the row itself in the usual case
        if not text:
            continue
        fits = size <= small or (size <= likely and not has_big_table_line(text, small))
        # A row counted whole has its lines made only if a stage cuts it.
        how = _lines_to_count(texts, text, size, fits, cuttable, counter)
        pending.append((index, row, text, how))
    whole_counts = iter(counter.count_many([text for *_, text, how in pending if how is None]))
    lines = [line for *_, how in pending if how is not None for line in how]
    line_starts: dict[int, TokenStarts] = {}  # of the lines a stage may cut
    line_counts = iter(enumerate(counter.count_many(lines, line_starts)))
    blocks: list[Block] = []
    for index, row, content, how in pending:
        paragraphs: tuple[Paragraph, ...] | None
        if how is None:
            paragraphs, tokens, is_exact = None, next(whole_counts), True
            if tokens > th.target_max:  # a likely row that does not fit after all
                paragraphs = split_paragraphs(content, counter)
            elif cuttable is not None and tokens >= cuttable and "\n" in content:
                # A row probably too small for pack to cut that is not after all.
                paragraphs = split_paragraphs(content, counter)
                tokens, is_exact = _joined_count(paragraphs, counter)
        else:
            paragraphs = tuple(
                [_line_paragraph(line, counter, line_counts, line_starts) for line in how]
            )
            tokens, is_exact = _joined_count(paragraphs, counter)
        blocks.append(
            Block(
                heading=row.heading,
                parent_headings=row.parent_headings,
                level=row_level(row),
                paragraphs=paragraphs,
                content=content,
                tokens=tokens,
                is_exact=is_exact,
                source_row=index,
                block_ids=(row.blockid,) if row.blockid else (),
                is_title=row.is_title_block,
                is_toc=row.extra.get("session_type") == TOC_SESSION,
                topic_breaks=_topic_breaks(row),
                is_preface_section=preface_section and is_untitled_row(row),
                parent_levels=parent_levels[index],
            )
        )
    return blocks


def _parent_levels(rows: Sequence[BlockRow]) -> list[tuple[int, ...]]:
    """Per row, the levels of the headings of its parents: those of the last rows before
    it that they head; empty when one heads no row before it."""
    seen: dict[tuple[str, ...], int] = {}
    out: list[tuple[int, ...]] = []
    previous: tuple[str, ...] | None = None
    levels: tuple[int, ...] = ()
    for row in rows:
        parents = row.parent_headings
        # A row under the same parents as the row before has their levels: that row's own
        # heading, the only one seen since, is none of them.
        if parents != previous:
            found = [seen.get(parents[:end]) for end in range(1, len(parents) + 1)]
            levels = () if None in found else tuple(found)
            previous = parents
        out.append(levels)
        if row.heading:
            seen[(*parents, row.heading)] = row_level(row)
    return out


def _line_paragraph(
    line: str,
    counter: TokenCounter,
    counts: Iterator[tuple[int, int]],
    starts: dict[int, TokenStarts],
) -> Paragraph:
    """The paragraph of the next line counted in the batch, with where its tokens start."""
    index, tokens = next(counts)
    return make_paragraph(line, counter, tokens, starts.get(index))


def _lines_to_count(
    texts: list[str],
    text: str,
    size: int,
    fits: bool,
    cuttable: int | None,
    counter: TokenCounter,
) -> list[str] | None:
    """The paragraphs' texts (``texts``, those of the row's ``text``) of a row of ``size``
    UTF-8 bytes to count one by one, or None to count it whole: a row that ``fits`` one
    chunk and is too small for stage D to cut (under ``cuttable`` tokens) needs only its
    total.

    A row of fewer bytes than ``cuttable`` has fewer tokens. One of fewer than
    :data:`_LIKELY_UNDER_BYTES_PER_TOKEN` bytes per token of it is probably under it too,
    and is counted whole where its lines' counts would give the same total (every seam
    between them allows deriving it): if it turns out not to be, its lines are counted
    after all.
    """
    if not fits:
        return texts
    if cuttable is None or size < cuttable or "\n" not in text:
        return None
    probably_under = size < cuttable * _LIKELY_UNDER_BYTES_PER_TOKEN
    return None if probably_under and counter.joins_exactly(texts, joiner_for(texts)) else texts


def _joined_count(paragraphs: Sequence[Paragraph], counter: TokenCounter) -> tuple[int, bool]:
    """The count of a row from its paragraphs' counts, and whether it is exact."""
    texts = [p.text for p in paragraphs]
    return counter.join_counts(texts, [p.tokens for p in paragraphs], joiner_for(texts))


def _topic_breaks(row: BlockRow) -> tuple[int, ...]:
    """The row's ``topic_breaks`` (content-line indexes), if it has valid ones."""
    raw = row.extra.get("topic_breaks")
    if not raw or not isinstance(raw, list):
        return ()
    return tuple(sorted({b for b in raw if type(b) is int and b > 0}))


def run_stages(
    blocks: Sequence[Block], ctx: Context, observe: StageObserver | None = None
) -> list[Block]:
    """Stages B to D over the blocks of one document."""
    current = list(blocks)
    for name, stage in STAGES:
        current = stage(current, ctx)
        if observe is not None:
            observe(name, current)
    return current


def to_chunks(blocks: Sequence[Block], ctx: Context) -> list[Chunk]:
    """Stage E: label each chunk with the heading path it declares (``chunk_label``: the
    breadcrumb contract of ``chunk/breadcrumbs.py``), number the parts of each declared
    heading (``[part n]``, ``part_numbers.numbered_parts``; on a span's end, the part of
    its section it holds) and measure every chunk exactly, once;
    nothing is cut.

    Stages B-D keep every block within ``target_max`` (a recorded single oversize row
    aside); :func:`over_cap` lists any chunk that is not, for the caller to report. A
    chunk's text is its block's, as the stages measured it: a piece that starts on an
    indented line keeps the indentation (stripping it may cost tokens: ``" Ziwei"`` is two
    cl100k tokens, ``"Ziwei"`` three, and a chunk at the cap would go over it).
    """
    counter = ctx.counter
    blocks = [block for block in blocks if block.content.strip()]
    labels = [chunk_label(block) for block in blocks]
    declared = [(label.heading, label.parents) for label in labels]
    spanned = [label.spanned for label in labels]
    parts, ends = numbered_parts(declared, spanned, [edges(label) for label in labels])
    chunks: list[Chunk] = []
    for block, label, part, end in zip(blocks, labels, parts, ends, strict=True):
        heading = render_heading(label.heading, part)
        if not part and any(end):  # a span's ends name the parts they hold
            heading = with_end_parts(label, end)
        content = _without_blank_edges(block.content)
        exact = block.is_exact and content == block.content
        chunks.append(
            Chunk(
                content=content,
                tokens=block.tokens if exact else counter.count(content),
                order=len(chunks),
                heading=heading,
                parent_headings=label.parents,
                level=label.level,
                block_ids=block.block_ids,
                source_row=block.source_row,
                role=block.role,
                oversize=block.oversize,
            )
        )
    return chunks


def _without_blank_edges(content: str) -> str:
    """``content`` without blank lines before its first line of text nor white space after
    its last (blocks made by the stages have neither: paragraphs are never blank)."""
    content = content.rstrip()
    first = content.find("\n")
    while first != -1 and not content[:first].strip():
        content = content[first + 1 :]
        first = content.find("\n")
    return content


def over_cap(chunks: Sequence[Chunk], cap: int) -> list[Chunk]:
    """The chunks over ``cap`` tokens that are not a recorded oversize piece: a bug in the
    stages that should have kept them within it."""
    return [chunk for chunk in chunks if chunk.tokens > cap and not chunk.oversize]


def chunk_rows(
    rows: Sequence[BlockRow], ctx: Context, *, observe: StageObserver | None = None
) -> list[Chunk]:
    """All of the P strategy for one document's content rows; chunks of a document whose
    rows know their pages (a PDF) carry the pages of their text. ``observe`` sees the
    output of every stage."""
    blocks = to_blocks(rows, ctx)
    if observe is not None:
        observe(STAGE_A, blocks)
    return with_pages(to_chunks(run_stages(blocks, ctx, observe), ctx), rows)
