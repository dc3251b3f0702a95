"""Stage A for PDF: table-of-contents entries wrapped over several printed lines.

A printed table of contents sets a long entry over several lines, the page number after
the last one only ("文件一 全國人民代表大會常務委員會關於" … "通過) ....... 79"). Each line
without the page number reads as a paragraph of its own, which ends the table of contents
early and turns the rest of it into headings. This joins such lines to the entry they
belong to. So does an entry whose leaders run on after its label and push its page number
onto a line of its own ("Attachment 4 ........ PTA/PIA", then "400"), and an entry whose
title fills its line, one space before the page number at the edge where the entries
around it end theirs: the number is set off by a tab, as a word processor writes it.

Input: the document's paragraphs (``paragraphs.paragraphs``). Output: the same, each
wrapped entry one paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line
from lightrag_pchunk.pdf.paragraphs import PARAGRAPH_SPACING
from lightrag_pchunk.pdf.printed_paragraph import (
    PAGE_NUMBER,
    SIZE_TOLERANCE,
    PrintedParagraph,
    paragraph_of,
)

#: Most lines a table-of-contents entry wraps over.
MAX_ENTRY_LINES = 8
#: Points a wrapped entry's line may start left of its first line (rounding of positions).
_ALIGN_TOLERANCE = 2.0
#: Dot leaders inside a line: a run of dots or ellipses.
_LEADERS = re.compile(r"(?:\.\s?){4,}|…{2,}")


def join_wrapped_entries(found: Sequence[PrintedParagraph]) -> list[PrintedParagraph]:
    """``found``, each wrapped entry of a table of contents one paragraph: after an entry,
    the paragraphs up to the next entry (a line with a page number), when their lines
    follow each other at a line's spacing on one page and column, in one size, none left
    of the first (a part's title centred between entries stays apart), at most
    :data:`MAX_ENTRY_LINES` lines in all."""
    joined: list[PrintedParagraph] = []
    index = 0
    while index < len(found):
        end = _entry_end(found, index) if joined and joined[-1].is_toc_entry else None
        if end is None:
            filled = _filled_entry(found, index, joined[-1]) if joined else None
            joined.append(filled or found[index])
            index += 1
            continue
        joined.append(_entry_of([line for p in found[index:end] for line in p.lines]))
        index = end
    return joined


def _entry_of(lines: list[Line]) -> PrintedParagraph:
    """The entry printed as ``lines``; one whose page number stands alone on its last line
    reads as an entry, the number set off by a tab."""
    entry = paragraph_of(lines)
    at = entry.starts[-1]
    alone = PAGE_NUMBER.match(entry.text[at:].strip()) is not None
    if entry.is_toc_entry or not alone or entry.text[at - 1 : at] != " ":
        return entry
    text = entry.text[: at - 1] + "\t" + entry.text[at:]
    return replace(entry, text=text, is_toc_entry=True)


def _filled_entry(
    found: Sequence[PrintedParagraph], index: int, before: PrintedParagraph
) -> PrintedParagraph | None:
    """Paragraph ``index`` as an entry when its title fills its line up to the page number,
    one space between them ("… How is it Implemented? 31"): a line between two entries,
    in their size, ending in a page number where the entry before it ends its own; None
    when it is not one."""
    paragraph = found[index]
    after = found[index + 1] if index + 1 < len(found) else None
    if not before.is_toc_entry or after is None or not after.is_toc_entry:
        return None
    if len(paragraph.lines) != 1 or paragraph.role == TABLE_ROLE or paragraph.is_toc_entry:
        return None
    title, _, number = paragraph.text.rpartition(" ")
    line, above = paragraph.lines[0], before.lines[-1]
    if (
        not PAGE_NUMBER.match(number)
        or not any(ch.isalpha() for ch in title)
        or (line.page, line.column) != (above.page, above.column)
        or abs(line.size - above.size) > SIZE_TOLERANCE
        or abs(line.x1 - above.x1) > _ALIGN_TOLERANCE
    ):
        return None
    return replace(paragraph, text=f"{title}\t{number}", is_toc_entry=True)


def _entry_end(found: Sequence[PrintedParagraph], start: int) -> int | None:
    """The end of the paragraphs from ``start`` that make one wrapped entry, or None."""
    first = found[start].lines[0]
    count = 0
    above = None
    for end in range(start, len(found)):
        paragraph = found[end]
        if paragraph.role == TABLE_ROLE:
            return None  # a table's stand-in is no line of an entry
        for line in paragraph.lines:
            if above is not None:
                spacing = PARAGRAPH_SPACING * 1.25 * max(above.height, above.size)
                if (
                    line.page != above.page
                    or line.column != above.column
                    or abs(line.size - first.size) > SIZE_TOLERANCE
                    or not 0 < line.top - above.top <= spacing
                    or line.x0 < first.x0 - _ALIGN_TOLERANCE
                ):
                    return None
            above = line
        count += len(paragraph.lines)
        if count > MAX_ENTRY_LINES:
            return None
        if paragraph.is_toc_entry or _wrapped_page_number(found, start, end):
            return end + 1 if end > start else None
    return None


def _wrapped_page_number(found: Sequence[PrintedParagraph], start: int, end: int) -> bool:
    """Whether paragraph ``end`` is a page number alone, after lines from ``start`` on
    that hold dot leaders: an entry's number pushed onto a line of its own."""
    return (
        end > start
        and PAGE_NUMBER.match(found[end].text.strip()) is not None
        and any(_LEADERS.search(p.text) for p in found[start:end])
    )
