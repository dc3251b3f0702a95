"""The untitled preface (a document's text before its first heading) and the label of a
chunk that opens with it.

A preface with a body of its own (a cover page of several lines, a revision history or an
approval table, a contents page, an abstract) is a section at the top of the outline,
``Preface/Uncategorized`` as LightRAG names it: a chunk that opens with it declares it, alone
or as the first end of a span (``Preface/Uncategorized – 3 Terms``), so a cover page and a
contents page are not headed by the first section after them. A preface of no more than
the document's title and a line or two (a date, an issuer, one sentence: what LightRAG
shows as the document's title anyway) is no section: it joins the label of the section
after it, as a title page does in print.

The threshold is a count of lines and of UTF-8 bytes, so the chunker and the contract check
(``chunk/breadcrumbs.py``, which has no tokenizer) read the same rows the same way: at most
:data:`MAX_TITLE_LINES` lines and :data:`MAX_TITLE_BYTES` bytes, and no table.
"""

from __future__ import annotations

from collections.abc import Sequence

from lightrag_pchunk.chunk.blocks import is_table_text
from lightrag_pchunk.model import PREFACE_HEADING, BlockRow

#: A preface of the title and at most two lines more joins the first section's label.
MAX_TITLE_LINES = 3
#: ... and of at most this many UTF-8 bytes (about 120 cl100k tokens of English, 170
#: Chinese characters): two lines of a date, an issuer or a sentence, never an abstract.
MAX_TITLE_BYTES = 500


def is_untitled_row(row: BlockRow) -> bool:
    """A row of the untitled preface: no parents, and no heading or LightRAG's preface name
    (a pinned title block is the document's title, not its preface)."""
    return (
        not row.is_title_block
        and not row.parent_headings
        and row.heading.strip() in ("", PREFACE_HEADING)
    )


def preface_is_section(rows: Sequence[BlockRow]) -> bool:
    """Whether the untitled preface of ``rows`` has a body of its own (see the module doc):
    more than :data:`MAX_TITLE_LINES` lines of text, more than :data:`MAX_TITLE_BYTES`
    bytes, or a table. A document without a preface has none."""
    lines = [
        line.strip()
        for row in rows
        if is_untitled_row(row)
        for line in row.content.split("\n")
        if line.strip()
    ]
    if not lines:
        return False
    size = sum(len(line.encode("utf-8", "surrogatepass")) for line in lines)
    return (
        len(lines) > MAX_TITLE_LINES
        or size > MAX_TITLE_BYTES
        or any(is_table_text(line) for line in lines)
    )
