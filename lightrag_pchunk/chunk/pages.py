"""The pages a chunk's text is printed on, for documents whose rows know their pages (PDF).

Input: chunks and the content rows they were made from; a row's ``positions`` of type
``bbox`` (LightRAG's, ``lightrag/sidecar/ir.py: IRPosition``) give the page (``anchor``)
of each span of its content (``charspan``). Output: each chunk's :class:`PageSpan` s, the
spans of the chunk's own text on each page, so a chunk holding part of a row gets only the
pages of the text it holds, and a merged chunk the pages of all of its parts.

A chunk's text is found in its rows piece by piece (its lines in order; a table tag row by
row, since a sliced table is written again around its rows), each piece where the last one
ended or later. A piece found nowhere (a table written as keyed text) gets the pages of the
rows the chunk names. Pure functions; nothing here reads a file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from lightrag_pchunk.model import PAGE_POSITION, BlockRow, Chunk, PageSpan

#: A table tag's JSON body: ``<table …>[[…], …]</table>``.
_TABLE_TAG = re.compile(r"^<table\b[^>]*>(.*)</table>$", re.DOTALL)


def row_pages(row: BlockRow) -> list[tuple[int, int, int]]:
    """``(start, end, page)`` of each span of the row's content, from its bbox positions."""
    spans = []
    for position in row.positions:
        if not isinstance(position, Mapping) or position.get("type") != PAGE_POSITION:
            continue
        page = _page_number(position.get("anchor"))
        charspan = position.get("charspan")
        if page is None or not isinstance(charspan, list) or len(charspan) != 2:
            continue
        start, end = charspan
        if isinstance(start, int) and isinstance(end, int) and end > start:
            spans.append((start, end, page))
    return sorted(spans)


def with_pages(chunks: Sequence[Chunk], rows: Sequence[BlockRow]) -> list[Chunk]:
    """``chunks`` with their pages, when the rows know theirs (else unchanged)."""
    if not has_pages(rows):
        return list(chunks)
    finder = PageFinder(rows)
    return [replace(c, pages=finder.chunk_pages(c.content, c.block_ids)) for c in chunks]


def has_pages(rows: Iterable[BlockRow]) -> bool:
    """Whether any row says which page its text is on."""
    return any(row_pages(row) for row in rows)


def _page_number(anchor: object) -> int | None:
    if isinstance(anchor, int) and not isinstance(anchor, bool) and anchor > 0:
        return anchor
    if isinstance(anchor, str) and anchor.isdigit() and int(anchor) > 0:
        return int(anchor)
    return None


class PageFinder:
    """Finds where pieces of chunk text come from in a document's rows."""

    def __init__(self, rows: Sequence[BlockRow]) -> None:
        self._rows = list(rows)
        self._spans = [row_pages(row) for row in self._rows]
        self._by_id = {row.blockid: i for i, row in enumerate(self._rows) if row.blockid}

    def chunk_pages(self, content: str, block_ids: Sequence[str]) -> tuple[PageSpan, ...]:
        """The pages of ``content``, a chunk made from the rows ``block_ids`` name."""
        rows = [self._by_id[b] for b in block_ids if b in self._by_id]
        if not rows:
            return ()
        found: list[PageSpan] = []
        cursor = (rows[0], 0)
        offset = 0
        for line in content.split("\n"):
            piece = line.strip()
            if piece:
                at = offset + line.find(piece)
                spans, cursor = self._locate(piece, rows, cursor)
                if not spans:
                    spans = self._fallback(rows)
                found.extend(
                    PageSpan(page, at + max(start, 0), at + min(end, len(piece)))
                    for start, end, page in spans
                )
            offset += len(line) + 1
        return _merged(found)

    def span_pages(self, start: int, end: int) -> tuple[PageSpan, ...]:
        """The pages of characters ``start``..``end`` of the rows' merged text (their
        contents joined with a blank line, LightRAG's document body), relative to
        ``start``: how an R chunk's ``_source_span`` maps to pages."""
        found: list[PageSpan] = []
        position = 0
        for row, spans in zip(self._rows, self._spans, strict=True):
            row_end = position + len(row.content)
            if row_end > start and position < end:
                for span_start, span_end, page in spans:
                    a, b = max(position + span_start, start), min(position + span_end, end)
                    if b > a:
                        found.append(PageSpan(page, a - start, b - start))
            position = row_end + 2
        return _merged(found)

    def block_ids(self, start: int, end: int) -> list[str]:
        """The blockids of the rows holding characters ``start``..``end`` of the merged
        text (see :meth:`span_pages`)."""
        found = []
        position = 0
        for row in self._rows:
            row_end = position + len(row.content)
            if row_end > start and position < end and row.blockid:
                found.append(row.blockid)
            position = row_end + 2
        return found

    def _locate(
        self, piece: str, rows: Sequence[int], cursor: tuple[int, int]
    ) -> tuple[list[tuple[int, int, int]], tuple[int, int]]:
        """The page spans of ``piece`` relative to its start, and where the next piece's
        search starts; nothing found leaves the cursor where it was."""
        table = _TABLE_TAG.match(piece)
        if table is not None:
            return self._locate_table(piece, table.group(1), rows, cursor)
        for row, start in _search_order(rows, cursor):
            at = self._rows[row].content.find(piece, start)
            if at >= 0:
                return _shifted(self._spans[row], at, at + len(piece)), (row, at + len(piece))
        return [], cursor

    def _locate_table(
        self, piece: str, body: str, rows: Sequence[int], cursor: tuple[int, int]
    ) -> tuple[list[tuple[int, int, int]], tuple[int, int]]:
        """A table tag's pages: those of its rows, each found in a source row's tag (a
        slice of a long table repeats its header rows: their page is in the chunk too)."""
        try:
            table_rows = json.loads(body.replace("<\\/table", "</table"))
        except ValueError:
            return [], cursor
        if not isinstance(table_rows, list):
            return [], cursor
        pages: list[int] = []
        for cells in table_rows:
            text = json.dumps(cells, ensure_ascii=False).replace("</table", "<\\/table")
            for row, start in _search_order(rows, cursor):
                at = self._rows[row].content.find(text, start)
                if at < 0:
                    continue
                pages.extend(p for _, _, p in _shifted(self._spans[row], at, at + len(text)))
                cursor = (row, at + len(text))
                break
        return [(0, len(piece), page) for page in sorted(set(pages))], cursor

    def _fallback(self, rows: Sequence[int]) -> list[tuple[int, int, int]]:
        pages = sorted({page for row in rows for _, _, page in self._spans[row]})
        return [(0, 1 << 30, page) for page in pages]


def _search_order(rows: Sequence[int], cursor: tuple[int, int]) -> list[tuple[int, int]]:
    """Where to look for the next piece: from the cursor on in its row, the rows after it,
    then the rows before it from their starts (a bridge text copied from before)."""
    row, start = cursor
    order = [(row, start)]
    later = [r for r in rows if r > row]
    earlier = [r for r in rows if r < row]
    order += [(r, 0) for r in later] + [(row, 0)] + [(r, 0) for r in earlier]
    return order


def _shifted(
    spans: Sequence[tuple[int, int, int]], start: int, end: int
) -> list[tuple[int, int, int]]:
    """The page spans of a row's characters ``start``..``end``, relative to ``start``."""
    found = []
    for span_start, span_end, page in spans:
        a, b = max(span_start, start), min(span_end, end)
        if b > a:
            found.append((a - start, b - start, page))
    return found


def _merged(spans: Sequence[PageSpan]) -> tuple[PageSpan, ...]:
    """Adjacent or overlapping spans on the same page made one, in text order."""
    merged: list[PageSpan] = []
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        if merged and merged[-1].page == span.page and span.start <= merged[-1].end + 2:
            last = merged[-1]
            merged[-1] = PageSpan(last.page, last.start, max(last.end, span.end))
        else:
            merged.append(span)
    return tuple(merged)
