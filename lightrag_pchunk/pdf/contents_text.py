"""Stage A for PDF: a printed table of contents as its block is written.

A Word contents field writes a tab between an entry's title and its page number; a PDF
prints leaders there (". . . . .", "………", "____"), which a reader's eye skips and which
cost a chunk more tokens than the entries themselves (each dot a token). In a block the
outline marked as a table of contents (``RawBlock.is_toc``), each entry's leaders are
written as one tab, as Word's are: its title and its page number stay, no word is lost,
and its positions follow the text.

Input: the blocks and each content line's source (``pages.Unit``). Output: the same with
the contents' leaders replaced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.outline.page_references import page_reference
from lightrag_pchunk.parse.heading_stack import RawBlock
from lightrag_pchunk.pdf.pages import Unit
from lightrag_pchunk.pdf.table_parts import PagePart

#: What an entry's leaders are written as: the tab a Word contents field writes there.
LEADER_TAB = "\t"


def contents_without_leaders(
    blocks: Sequence[RawBlock], units: dict[str, Unit]
) -> tuple[list[RawBlock], dict[str, Unit]]:
    """``blocks`` with each entry of a table of contents written with a tab for its leaders,
    and ``units`` with those entries' sources written alike (their parts' characters moved
    with the text)."""
    units = dict(units)
    result: list[RawBlock] = []
    for block in blocks:
        if not block.is_toc:
            result.append(block)
            continue
        lines = []
        for line in block.lines:
            unit = units.get(line.start or "")
            cut = _leaders(line.text)
            if cut is None or unit is None or unit.text != line.text:
                lines.append(line)
                continue
            start, end = cut
            text = line.text[:start] + LEADER_TAB + line.text[end:]
            units[line.start] = Unit(text, tuple(_moved(part, start, end) for part in unit.parts))
            lines.append(replace(line, text=text))
        result.append(replace(block, lines=lines))
    return result, units


def _leaders(text: str) -> tuple[int, int] | None:
    """Where an entry's printed leaders stand before its page number (``start, end``), or
    None when it has none (no page reference, or only white space before the number)."""
    found = page_reference(text)
    if found is None or not found[1].strip():
        return None
    start, leaders = found
    return start, start + len(leaders)


def _moved(part: PagePart, start: int, end: int) -> PagePart:
    """``part`` with its characters where they stand once the
    leaders at ``start:end`` are one tab."""

    def at(offset: int) -> int:
        if offset <= start:
            return offset
        return max(start + len(LEADER_TAB), offset - (end - start) + len(LEADER_TAB))

    return replace(part, start=at(part.start), end=at(part.end))
