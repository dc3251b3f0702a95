"""Long blocks that hold heading-like lines: where the outline may have missed headings.

A block over :data:`LONG_BLOCK_FACTOR` times the chunk size is cut by size and by its short
lines (stage C's anchors), but its chunks all carry the block's one heading path. When its
text holds lines that the smart outline, reading the text alone, takes for headings, the
parser may have missed structure the breadcrumbs should show. The read is the text alone
(no look, no list numbering: a blocks file keeps neither), so a line the parser knew for a
list item or body text by its look may be counted: a pointer for a reader, not a verdict.
:func:`long_blocks` is a pure function of rows; the corpus benchmark (``bench_outline.py``)
counts them, and ``inspect`` warns of those with such lines (:func:`headed_long_blocks`).

In a Markdown file that marks its outline (two ``#`` headings or more) a heading-like line
is one set all in bold or numbered, read by ``outline/markdown_units.py`` as the Markdown
parser reads it: a plain paragraph there is a sentence the converter parted, not a title
its author left unmarked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lightrag_pchunk.model import PREFACE_HEADING, BlockRow
from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem, infer_outline
from lightrag_pchunk.outline.lines import continues_sentence
from lightrag_pchunk.outline.markdown_units import markdown_unit
from lightrag_pchunk.tokens import TokenCounter

#: A block over this many times the chunk size is long.
LONG_BLOCK_FACTOR = 4
_BOLD = Look(bold=True)


@dataclass(frozen=True)
class LongBlock:
    """A long block (its row's heading, line in the blocks file and tokens) and the lines
    of its text that read as headings."""

    heading: str
    line_number: int
    tokens: int
    titles: tuple[str, ...]


def long_blocks(
    rows: Sequence[BlockRow], counter: TokenCounter, size: int, *, markdown: bool = False
) -> list[LongBlock]:
    """The blocks of ``rows`` over :data:`LONG_BLOCK_FACTOR` x ``size`` tokens, each with
    the lines of its text (past the heading line) that the smart outline takes for
    headings, read alone (most have none). ``markdown``: the rows are a Markdown file's (a
    list item is known by its marker)."""
    limit = LONG_BLOCK_FACTOR * size
    found = []
    marked = markdown and _marks_headings(rows)
    for row in rows:
        # A token is at least one byte (not one character: CJK text has more tokens than
        # characters), so a row of at most that many bytes is not counted.
        if len(row.content.encode()) <= limit or (tokens := counter.count(row.content)) <= limit:
            continue
        lines = row.content.split("\n")[1:]
        # Markdown parts its paragraphs itself (blank lines); a Word row's line may be a
        # piece of a paragraph after a soft break.
        lines = [line for line in lines if line.strip()] if markdown else paragraph_lines(lines)
        read = [_item(line, markdown=markdown, marked=marked) for line in lines]
        items = [item for item, _ in read]
        looks = {i: _BOLD for i, (_, bold) in enumerate(read) if bold}
        titles = tuple(heading.title for heading in infer_outline(items, 0.0, looks.get))
        found.append(LongBlock(row.heading, row.line_number, tokens, titles))
    return found


def _marks_headings(rows: Sequence[BlockRow]) -> bool:
    """Whether a Markdown file's rows mark two headings or more with ``#`` (not inferred)."""
    marked = (
        row
        for row in rows
        if row.heading != PREFACE_HEADING and row.extra.get("heading_source") != "inferred"
    )
    return next(marked, None) is not None and next(marked, None) is not None


def _item(line: str, *, markdown: bool, marked: bool) -> tuple[OutlineItem, bool]:
    """A line of a long block as the classifier reads it, and whether it is set all in
    bold: a tag is content; a Markdown line is read as the Markdown parser reads a unit
    (``outline/markdown_units.py``; an indented list item by its marker too)."""
    if line.startswith("<"):
        return OutlineItem(ItemKind.OTHER, line), False
    if not markdown:
        return OutlineItem(ItemKind.TEXT, line), False
    return markdown_unit(line.lstrip(), marked=marked)


def headed_long_blocks(
    rows: Sequence[BlockRow], counter: TokenCounter, size: int, *, markdown: bool = False
) -> list[LongBlock]:
    """The :func:`long_blocks` whose text holds lines that read as headings."""
    return [block for block in long_blocks(rows, counter, size, markdown=markdown) if block.titles]


def paragraph_lines(lines: Sequence[str]) -> list[str]:
    """A Word block's lines as the classifier reads them: a line that goes on with the
    sentence of the line above (a soft break inside a clause) joins it."""
    joined: list[str] = []
    for line in filter(str.strip, lines):
        if joined and not line.startswith("<") and continues_sentence(line):
            joined[-1] += "\n" + line
        else:
            joined.append(line)
    return joined
