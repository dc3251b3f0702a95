"""The rows of one table tag as stage B slices them (spec §6.1): each row serialised and
counted once, and the header rows a continuation slice repeats. JSON tables are a top-level
array of rows; HTML tables are whole ``<tr>`` elements that remember their ``<thead>/<tbody>/
<tfoot>`` wrapper, so a slice re-opens and closes the wrappers it needs (the row scanner is
``chunk/html_rows.py``; nested tables inside a cell are skipped).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import accumulate
from typing import Any

from lightrag_pchunk.chunk.compact_headers import (
    html_header_grid,
    html_label_row,
    json_column_labels,
    positional_labels,
)
from lightrag_pchunk.chunk.html_rows import HtmlRow, HtmlRows, html_rows
from lightrag_pchunk.chunk.table_tags import (
    TableTag,
    dump_json_row,
    join_json_rows,
    json_header_rows,
    json_rows,
)
from lightrag_pchunk.tokens import TokenCounter

logger = logging.getLogger("lightrag.pchunk")


@dataclass(frozen=True, slots=True)
class RepeatedHeader:
    """What a continuation slice repeats in front of its rows: the table's header rows, or
    one row of column labels (``compact``, ``chunk/compact_headers.py``).

    ``rows`` are in the table's own row form (JSON texts, or :class:`HtmlRow`); ``tokens``
    is their planned cost in a slice, counted like a row's weight.
    """

    rows: tuple[Any, ...]
    tokens: int
    compact: bool = False


class TableRows:
    """The rows of one recognised table, each serialised and counted once.

    ``prefix[i]`` is the summed weight of rows ``[0, i)``: a row's tokens plus its share
    of the body syntax (a ``", "`` separator, its wrapper's tags). Rows ``[a, b)`` re-wrapped
    cost about ``fixed + prefix[b] - prefix[a]``, plus the repeated header's ``tokens``
    (``header_cost`` for the first ``header_count`` rows, :attr:`header`), plus
    ``caption_cost`` for the first slice (the only one that carries the caption). Stage B plans
    with these sums and counts each re-wrapped slice exactly, so a row's own count may be
    an estimate (see :func:`table_rows`).
    """

    tag: TableTag
    counter: TokenCounter
    n: int
    prefix: list[int]
    fixed: int
    caption_cost: int
    header_count: int
    header_cost: int
    header: RepeatedHeader

    def render(self, start: int, end: int, header: RepeatedHeader | None) -> str:
        """The re-wrapped tag for rows ``[start, end)``, after ``header`` if given."""
        raise NotImplementedError

    def row_text(self, index: int) -> str:
        """The text of one row on its own (for the character split of an oversized row)."""
        raise NotImplementedError

    def caption_rides(self, cap: int) -> bool:
        """Whether the caption fits the first slice at its smallest (the header rows, or
        the first row of a table without them) within ``cap``; True without a caption."""
        if not self.caption_cost:
            return True
        first = self.render(0, max(self.header_count, 1), None)
        return self.counter.count(first) <= cap

    def column_labels(self, keyed_rows: str | None) -> list[str]:
        """The header rows as one label per column (``chunk/compact_headers.py``), aligned
        by ``keyed_rows`` (the table's ``keyed_rows`` in ``.tables.json``) when given."""
        raise NotImplementedError

    def label_header(self, labels: list[str]) -> RepeatedHeader:
        """A compact header: one row holding ``labels``, counted exactly."""
        raise NotImplementedError


RowCost = Callable[[str], int]


def _caption_cost(tag: TableTag, body: str, counter: TokenCounter) -> int:
    """Tokens the caption adds to the first slice's wrapper (0 without one)."""
    if not tag.has_caption:
        return 0
    return counter.count(tag.wrap(body)) - counter.count(tag.wrap(body, continued=True))


class _JsonTableRows(TableRows):
    def __init__(
        self,
        tag: TableTag,
        rows: list[Any],
        counter: TokenCounter,
        header_count: int,
        cost: RowCost,
    ) -> None:
        self.tag, self.counter, self.n, self.header_count = tag, counter, len(rows), header_count
        self.texts = [dump_json_row(row) for row in rows]
        self.separator = counter.count(", ")
        weights = (cost(text) + self.separator for text in self.texts)
        self.prefix = list(accumulate(weights, initial=0))
        # k rows need k-1 separators: the weights hold one too many.
        self.fixed = counter.count(tag.wrap("[]", continued=True)) - self.separator
        self.caption_cost = _caption_cost(tag, "[]", counter)
        self.header_cost = self.prefix[header_count]
        self.header = RepeatedHeader(tuple(self.texts[:header_count]), self.header_cost)

    def render(self, start: int, end: int, header: RepeatedHeader | None) -> str:
        head = list(header.rows) if header is not None else []
        body = join_json_rows(head + self.texts[start:end])
        return self.tag.wrap(body, continued=start > 0)

    def row_text(self, index: int) -> str:
        return self.texts[index]

    def column_labels(self, keyed_rows: str | None) -> list[str]:
        head = [json.loads(text) for text in self.texts[: self.header_count]]
        return json_column_labels(head, self.texts[self.header_count :], keyed_rows)

    def label_header(self, labels: list[str]) -> RepeatedHeader:
        text = dump_json_row(labels)
        return RepeatedHeader((text,), self.counter.count(text) + self.separator, compact=True)


class _HtmlTableRows(TableRows):
    def __init__(
        self,
        tag: TableTag,
        table: HtmlRows,
        counter: TokenCounter,
        header_count: int,
        cost: RowCost,
    ) -> None:
        self.tag, self.table, self.counter = tag, table, counter
        self.n, self.header_count = len(table.rows), header_count
        tag_costs = [counter.count(g.open_tag) + counter.count(g.close_tag) for g in table.groups]
        self.tag_costs = tag_costs
        weights: list[int] = []
        self.header_cost = 0
        previous: int | None = None
        for index, row in enumerate(table.rows):
            opens = row.group is not None and (index == 0 or row.group != previous)
            weight = cost(row.text) + (tag_costs[row.group] if opens else 0)  # type: ignore[index]
            if index < header_count:
                self.header_cost += weight  # repeated without its lead text
            weights.append(weight + (cost(row.lead) if row.lead else 0))
            previous = row.group
        self.prefix = list(accumulate(weights, initial=0))
        # A continuation slice may re-open its wrapper; the last one carries the tail.
        self.fixed = (
            counter.count(tag.wrap("", continued=True))
            + max(tag_costs, default=0)
            + counter.count(table.tail)
        )
        self.caption_cost = _caption_cost(tag, "", counter)
        head = tuple(replace(row, lead="") for row in table.rows[:header_count])
        self.header = RepeatedHeader(head, self.header_cost)

    def render(self, start: int, end: int, header: RepeatedHeader | None) -> str:
        head = list(header.rows) if header is not None else []
        body = self.table.render([*head, *self.table.rows[start:end]], with_tail=end == self.n)
        return self.tag.wrap(body, continued=start > 0)

    def row_text(self, index: int) -> str:
        row = self.table.rows[index]
        tail = self.table.tail if index == self.n - 1 else ""
        return row.lead + row.text + tail

    def column_labels(self, keyed_rows: str | None) -> list[str]:
        # HTML tables have no keyed rows: their spans say which column a cell covers.
        texts = [row.text for row in self.table.rows[: self.header_count]]
        return positional_labels(html_header_grid(texts))

    def label_header(self, labels: list[str]) -> RepeatedHeader:
        # The label row takes the first header row's wrapper (a <thead> stays a <thead>).
        group = self.table.rows[0].group
        row = HtmlRow(html_label_row(labels), group=group)
        tags = self.tag_costs[group] if group is not None else 0
        return RepeatedHeader((row,), self.counter.count(row.text) + tags, compact=True)


def table_rows(
    tag: TableTag,
    counter: TokenCounter,
    header: str | None = None,
    *,
    density: float | None = None,
) -> TableRows | None:
    """The sliceable rows of a table, or None when it is not recognised: unknown format,
    JSON that is not a list of at least 2 rows, HTML with fewer than 2 rows (spec §10).

    ``header`` is the table's ``table_header`` from ``.tables.json``; it names the header
    rows when the table starts with them (``"[]"``: the table has none), otherwise the
    first row (or a leading ``<thead>``) is the header; rows that are objects keyed by
    header have none. A header of the wrong format is ignored with a warning.
    With ``density`` (the whole table's tokens per character, already measured) a row's
    cost is estimated from its length instead of encoding every row: the costs only plan
    balanced slices, and every slice is counted exactly before it is accepted.
    """
    if density is None:
        cost: RowCost = counter.count
    else:

        def cost(text: str) -> int:
            return max(round(len(text) * density), 1)

    if tag.format == "json":
        rows = json_rows(tag.body)
        if rows is None or len(rows) < 2:
            return None
        return _JsonTableRows(tag, rows, counter, _json_header_count(tag, rows, header), cost)
    if tag.format == "html":
        table = html_rows(tag.body)
        if len(table.rows) < 2:
            return None
        return _HtmlTableRows(tag, table, counter, _html_header_count(tag, table, header), cost)
    return None


def _ignored_header(tag: TableTag, why: str) -> None:
    logger.warning(
        "table_slices table %s: table_header in .tables.json %s; header ignored",
        tag.table_id or "?",
        why,
    )


def _json_header_count(tag: TableTag, rows: list[Any], header: str | None) -> int:
    if isinstance(rows[0], dict):
        return 0  # rows keyed by header carry it in every row
    if not header or not header.strip():
        return 1
    if json_rows(header) == []:
        return 0  # the parser found no header row: none is repeated
    declared = None if header.lstrip().startswith("<") else json_header_rows(header)
    if declared is None:
        _ignored_header(tag, "is not a JSON row array but the table is JSON")
        return 1
    if len(declared) < len(rows) and rows[: len(declared)] == declared:
        return len(declared)
    logger.debug(
        "table_slices table %s: rows do not start with the declared header; first row used",
        tag.table_id or "?",
    )
    return 1


def _html_header_count(tag: TableTag, table: HtmlRows, header: str | None) -> int:
    rows = table.rows
    first = rows[0].group
    default = 1
    if first is not None and table.groups[first].name == "thead":
        leading = next((i for i, row in enumerate(rows) if row.group != first), len(rows))
        default = leading if leading < len(rows) else 1
    if not header or not header.strip():
        return default
    declared: list[str] = []
    if not header.lstrip().startswith("["):
        declared = [normalized_row(row.text) for row in html_rows(header).rows]
    if not declared:
        _ignored_header(tag, "has no HTML <tr> rows but the table is HTML")
        return default
    count = len(declared)
    if count < len(rows) and [normalized_row(r.text) for r in rows[:count]] == declared:
        return count
    logger.debug(
        "table_slices table %s: rows do not start with the declared header; default used",
        tag.table_id or "?",
    )
    return default


def normalized_row(text: str) -> str:
    """A row's text with whitespace runs collapsed, for comparing header rows."""
    return " ".join(text.split())
