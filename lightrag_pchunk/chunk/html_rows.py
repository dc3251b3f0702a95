"""Stage B: split an HTML table body into its own ``<tr>`` rows (spec §6.1; facts §5.3).

Rows remember their ``<thead>/<tbody>/<tfoot>`` wrapper and the text around them, so a slice
re-opens and closes the wrappers it needs (:meth:`HtmlRows.render`). One left-to-right pass
over the structure tags; nested tables inside a cell are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

#: The tags the HTML row scanner reacts to; anything else is cell content.
_STRUCTURE = re.compile(r"<(/?)(table|thead|tbody|tfoot|tr)(?=[\s>/])[^>]*>", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class HtmlGroup:
    """One ``<thead>/<tbody>/<tfoot>`` wrapper as written: its name and both tags."""

    name: str
    open_tag: str
    close_tag: str


@dataclass(frozen=True, slots=True)
class HtmlRow:
    """One ``<tr>...</tr>`` element at the table's own level.

    ``text`` also holds any text found inside the same wrapper just before the row (or
    after the last row of the wrapper), ``lead`` the text found outside every wrapper
    before it (a ``<caption>``, say), and ``group`` the index of its wrapper in
    :attr:`HtmlRows.groups` (None for a bare row).
    """

    text: str
    lead: str = ""
    group: int | None = None


@dataclass(frozen=True, slots=True)
class HtmlRows:
    """An HTML table body as rows; ``tail`` is the text after the last wrapper or row."""

    rows: tuple[HtmlRow, ...]
    groups: tuple[HtmlGroup, ...]
    tail: str = ""

    def render(self, rows: Sequence[HtmlRow], *, with_tail: bool) -> str:
        """The body for ``rows`` (in order), re-opening and closing their wrappers."""
        parts: list[str] = []
        current: int | None = None
        for row in rows:
            if row.group != current:
                if current is not None:
                    parts.append(self.groups[current].close_tag)
                parts.append(row.lead)
                if row.group is not None:
                    parts.append(self.groups[row.group].open_tag)
                current = row.group
            else:
                parts.append(row.lead)
            parts.append(row.text)
        if current is not None:
            parts.append(self.groups[current].close_tag)
        if with_tail:
            parts.append(self.tail)
        return "".join(parts)


class _HtmlScanner:
    """One left-to-right pass over an HTML body; nested ``<table>`` content is skipped."""

    def __init__(self, body: str) -> None:
        self.body = body
        self.rows: list[HtmlRow] = []
        self.groups: list[HtmlGroup] = []
        self.pos = 0  # start of text not yet given to a row
        self.outer = ""  # text outside any wrapper, waiting for the next row
        self.group: int | None = None  # the open wrapper
        self.group_rows = 0
        self.row_start: int | None = None

    def scan(self) -> HtmlRows:
        depth = 0
        for match in _STRUCTURE.finditer(self.body):
            closing, name = match.group(1) == "/", match.group(2).lower()
            if name == "table":
                depth = max(depth - 1, 0) if closing else depth + 1
            elif depth == 0:
                self._structure(match, name, closing)
        if self.row_start is not None:
            self._close_row(len(self.body))
        self._close_group(len(self.body), "")
        return HtmlRows(tuple(self.rows), tuple(self.groups), self.outer + self.body[self.pos :])

    def _structure(self, match: re.Match[str], name: str, closing: bool) -> None:
        if name == "tr":
            if not closing:
                # An unclosed <tr> ends where the next one starts (HTML implied end tag).
                if self.row_start is not None:
                    self._close_row(match.start())
                self.row_start = match.start()
            elif self.row_start is not None:
                self._close_row(match.end())
            return
        if self.row_start is not None:
            self._close_row(match.start())
        if closing:
            if self.group is not None and self.groups[self.group].name == name:
                self._close_group(match.start(), match.group(0))
                self.pos = match.end()
            return
        self._close_group(match.start(), "")
        self.outer += self.body[self.pos : match.start()]
        self.groups.append(HtmlGroup(name, match.group(0), f"</{name}>"))
        self.group, self.group_rows, self.pos = len(self.groups) - 1, 0, match.end()

    def _close_row(self, end: int) -> None:
        start = self.row_start if self.row_start is not None else self.pos
        if self.group is None:
            lead, text = self.outer + self.body[self.pos : start], self.body[start:end]
        else:
            lead, text = self.outer, self.body[self.pos : end]
        self.rows.append(HtmlRow(text=text, lead=lead, group=self.group))
        self.outer, self.pos, self.row_start = "", end, None
        self.group_rows += 1

    def _close_group(self, end: int, close_tag: str) -> None:
        """Close the open wrapper at ``end``; ``close_tag`` is its end tag ("" if implied)."""
        if self.group is None:
            return
        group = self.groups[self.group]
        if close_tag:
            self.groups[self.group] = replace(group, close_tag=close_tag)
        inner = self.body[self.pos : end]
        if self.group_rows:
            last = self.rows[-1]
            self.rows[-1] = replace(last, text=last.text + inner)
        else:
            # A wrapper without rows is kept as plain text before the next row.
            self.outer += group.open_tag + inner + close_tag
        self.pos, self.group = end, None


def html_rows(body: str) -> HtmlRows:
    """Split an HTML table body into rows at its own level (nested tables stay in cells)."""
    return _HtmlScanner(body).scan()
