"""Long blocks that hold heading-like lines: where the outline may have missed headings.

A block over :data:`LONG_BLOCK_FACTOR` times the chunk size is cut by size and by its short
lines (stage C's anchors), but its chunks all carry the block's one heading path. When its
text holds lines that the smart outline, reading the text alone, takes for headings, the
parser may have missed structure the breadcrumbs should show. The read is the text alone
(no look, no list numbering: a blocks file keeps neither), so a line the parser knew for a
list item or body text by its look may be counted: a pointer for a reader, not a verdict.
:func:`long_blocks` is a pure function of rows; the corpus benchmark (``bench_outline.py``)
counts them, and ``inspect`` warns of those with such lines (:func:`headed_long_blocks`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lightrag_pchunk.model import BlockRow
from lightrag_pchunk.outline.infer import ItemKind, OutlineItem, infer_outline
from lightrag_pchunk.outline.lines import continues_sentence
from lightrag_pchunk.tokens import TokenCounter

#: A block over this many times the chunk size is long.
LONG_BLOCK_FACTOR = 4
_MARKDOWN_LIST_ITEM = re.compile(r"\s*(?:[-*+]|\d{1,9}[.)])\s")


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
    for row in rows:
        # A token is at least one byte (not one character: CJK text has more tokens than
        # characters), so a row of at most that many bytes is not counted.
        if len(row.content.encode()) <= limit or (tokens := counter.count(row.content)) <= limit:
            continue
        lines = row.content.split("\n")[1:]
        # Markdown parts its paragraphs itself (blank lines); a Word row's line may be a
        # piece of a paragraph after a soft break.
        lines = [line for line in lines if line.strip()] if markdown else paragraph_lines(lines)
        items = [
            OutlineItem(ItemKind.OTHER, line)
            if line.startswith("<")
            else OutlineItem(
                ItemKind.TEXT, line, is_list_item=markdown and bool(_MARKDOWN_LIST_ITEM.match(line))
            )
            for line in lines
        ]
        titles = tuple(heading.title for heading in infer_outline(items))
        found.append(LongBlock(row.heading, row.line_number, tokens, titles))
    return found


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
