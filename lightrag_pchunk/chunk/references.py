"""Optional removal of reference sections (LightRAG 1.5.4+ ``drop_references``) and of tables of
contents (``drop_toc``) before chunking.

A content row is dropped when it lies in the window (the last ``tail_n`` rows; every row
when ``tail_n`` is 0) and its heading starts with one of the prefixes: ASCII prefixes
case-insensitively and as a whole word ("References list" matches, "Referenced work"
does not), other prefixes literally ("参考文献列表" matches "参考文献"). When every row
with text would go, nothing is dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from lightrag_pchunk.model import TOC_SESSION, BlockRow

logger = logging.getLogger("lightrag.pchunk")


def is_reference_heading(heading: str, prefixes: Sequence[str]) -> bool:
    """Whether ``heading`` names a reference section (see module docstring)."""
    text = heading.strip()
    for prefix in prefixes:
        prefix = prefix.strip()
        if not prefix:
            continue
        if prefix.isascii():
            head = text[: len(prefix)]
            rest = text[len(prefix) :]
            if head.casefold() == prefix.casefold() and not (rest[:1].isalnum() or rest[:1] == "_"):
                return True
        elif text.startswith(prefix):
            return True
    return False


def drop_reference_rows(
    rows: Sequence[BlockRow], *, tail_n: int, prefixes: Sequence[str], doc_id: str = ""
) -> list[BlockRow]:
    """``rows`` without the reference sections in the window (see module docstring)."""
    window_start = 0 if tail_n <= 0 else max(len(rows) - tail_n, 0)
    dropped = [
        index
        for index in range(window_start, len(rows))
        if is_reference_heading(rows[index].heading, prefixes)
    ]
    if not dropped:
        return list(rows)
    kept = [row for i, row in enumerate(rows) if i not in set(dropped)]
    if not any(row.content.strip() for row in kept):
        logger.warning(
            "paragraph_semantic doc=%s: every content row is a reference section; none dropped",
            doc_id or "unknown",
        )
        return list(rows)
    logger.info(
        "paragraph_semantic doc=%s drop_references removed %d reference block(s): %s",
        doc_id or "unknown",
        len(dropped),
        ", ".join(repr(rows[i].heading) for i in dropped),
    )
    return kept


def drop_toc_rows(rows: Sequence[BlockRow], *, doc_id: str = "") -> list[BlockRow]:
    """``rows`` without the tables of contents (``session_type`` ``"toc"``), unless they are
    all the document holds."""
    kept = [row for row in rows if row.extra.get("session_type") != TOC_SESSION]
    if len(kept) == len(rows):
        return list(rows)
    if not any(row.content.strip() for row in kept):
        logger.warning(
            "paragraph_semantic doc=%s: the document is only a table of contents; kept",
            doc_id or "unknown",
        )
        return list(rows)
    logger.info(
        "paragraph_semantic doc=%s drop_toc removed %d table-of-contents block(s)",
        doc_id or "unknown",
        len(rows) - len(kept),
    )
    return kept
