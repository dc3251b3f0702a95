"""Tables of contents written as plain lines: their title and their entries.

A .docx usually marks its table of contents (a TOC field, "toc N" styles, a content control;
``parse/toc_marks.py`` reads those). This module recognises the rest from the text alone: a
run of entries (text, then leaders or a tab, then a page number) under a Contents/目录
title, or a longer run of dot-leader entries without one. Pure functions of lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lightrag_pchunk.outline.lines import is_toc_line, page_reference

#: Fewest entries that make a run of page-referenced lines a table of contents.
MIN_TOC_LINES = 3
#: Without a title, only a run of leader lines this long counts.
MIN_UNTITLED_TOC_LINES = 5

_TITLE = re.compile(
    r"^(?:table\s+of\s+contents|contents|content|toc|index|目\s*录|目\s*次|目\s*錄"
    r"|inhalt(?:sverzeichnis)?|sommaire|table\s+des\s+matières|índice|indice|sommario"
    r"|содержание|оглавление|inhoud(?:sopgave)?|spis\s+treści|innehåll(?:sförteckning)?)"
    r"\s*[:：]?$",
    re.IGNORECASE,
)

#: The heading given to a table of contents that has no title line of its own.
DEFAULT_TOC_TITLE = "Table of Contents"


def is_toc_title(line: str) -> bool:
    """``Contents``, ``Table of Contents``, ``目录``, ``目 次`` … (a TOC's own title)."""
    return _TITLE.match(line.strip().lstrip("#").strip()) is not None


def literal_toc_runs(lines: Sequence[str]) -> list[tuple[int, int]]:
    """``(start, end)`` ranges of ``lines`` that form a table of contents written as text.

    A range is a run of at least :data:`MIN_TOC_LINES` entry lines right after a title
    line (the title is included at ``start``), or a run of at least
    :data:`MIN_UNTITLED_TOC_LINES` dot-leader entries without one. Entries may be
    interrupted by single short lines without a page number (a part heading inside the TOC).
    """
    runs: list[tuple[int, int]] = []
    index = 0
    while index < len(lines):
        if not is_toc_line(lines[index]):
            index += 1
            continue
        start = end = index
        entries = leaders = 0
        while end < len(lines):
            line = lines[end]
            if is_toc_line(line):
                entries += 1
                leaders += 1 if _has_dot_leaders(line) else 0
            elif not (end + 1 < len(lines) and is_toc_line(lines[end + 1]) and len(line) <= 80):
                break
            end += 1
        titled = start > 0 and is_toc_title(lines[start - 1])
        if (titled and entries >= MIN_TOC_LINES) or leaders >= MIN_UNTITLED_TOC_LINES:
            runs.append((start - 1 if titled else start, end))
        index = max(end, index + 1)
    return runs


def _has_dot_leaders(line: str) -> bool:
    found = page_reference(line)
    return found is not None and any(mark in found[1] for mark in ("...", "……", "···", "____"))
