"""The P chunker's invariants (spec §2, issue #2), checked on any document's output.

``check_output(row_contents, chunk_contents, ...)`` verifies that

- nothing is lost: every non-blank character of every content row reaches some chunk,
  in document order;
- text is copied only within one content row (R overlap, bridge text, repeated table
  headers), never across section boundaries (invariants 1-4);
- a table's caption is in its first slice's tag or, where it did not fit there, text of its
  own before the table;
- every table is whole: the rows of its slices, without the header rows each continuation
  slice repeats (or the one compact header row standing for them: a documented form of the
  header rows' labels by position, or of ``compact_headers`` given for that table), are
  exactly the table's rows in order; a row appears cut only as character pieces that
  rebuild it (a row over the cap, or a table that could not be sliced); every complete
  ``<table>`` tag is valid (JSON parses, HTML rows are whole);
- counts are exact and within the cap when ``counter``/``cap``/``tokens`` are given.

Prose is located by substring search in the document (tables replaced by placeholders),
always continuing where the text is not covered yet, so repeated phrases are matched in
place. Tables are matched by their ``id``.
"""

from __future__ import annotations

import functools
import json
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lightrag_pchunk.blockfile.sidecars import read_table_items
from lightrag_pchunk.chunk.compact_headers import (
    html_header_grid,
    html_label_row,
    json_column_labels,
    label_ladder,
    positional_labels,
)
from lightrag_pchunk.chunk.coverage import lost_words
from lightrag_pchunk.chunk.table_tags import table_caption

_TABLE = re.compile(r"<table(?P<attrs>\s[^>]*)?>(?P<body>.*)</table>", re.DOTALL | re.IGNORECASE)
_TR = re.compile(r"<tr\b.*?</tr>", re.DOTALL | re.IGNORECASE)
_ID = re.compile(r'\bid="([^"]*)"')
_SPACE = re.compile(r"\s+")


def table_id(line: str) -> str | None:
    """The ``id`` of a complete table tag, else None."""
    match = _TABLE.fullmatch(line.strip())
    if match is None:
        return None
    found = _ID.search(match.group("attrs") or "")
    return found.group(1) if found else None


def table_row_lines(line: str) -> list[str] | None:
    """The rows of a complete table tag as lines (None when ``line`` is not one)."""
    match = _TABLE.fullmatch(line.strip())
    if match is None:
        return None
    body = match.group("body")
    attrs = match.group("attrs") or ""
    is_html = 'format="html"' in attrs or (
        'format="json"' not in attrs and body.lstrip().startswith("<")
    )
    if not is_html:
        try:
            rows = json.loads(body)
        except ValueError:
            return None
        if not isinstance(rows, list):
            return None
        return [json.dumps(row, ensure_ascii=False) for row in rows]
    return _TR.findall(body) or None


def assert_valid_table_tags(content: str) -> None:
    """Every complete table tag in ``content`` parses (JSON) or has whole rows (HTML)."""
    for line in content.split("\n"):
        match = _TABLE.fullmatch(line.strip())
        if match is None:
            continue
        attrs = match.group("attrs") or ""
        body = match.group("body")
        if 'format="json"' in attrs:
            rows = json.loads(body)  # raises when a slice is not valid JSON
            assert isinstance(rows, list) and rows, line[:120]
        elif 'format="html"' in attrs:
            assert body.count("<tr") == body.count("</tr>"), line[:120]


def _bare(text: str) -> str:
    return _SPACE.sub("", text)


@dataclass
class _Table:
    """A source table with an id, and what the chunks hold of it, in order."""

    table_id: str
    raw: str
    rows: list[str]
    placeholder: int  # position of its placeholder line in the source
    compact: tuple[str, ...] = ()  # compact header rows (JSON texts) given for this table
    label_forms: dict[int, set[str]] = field(default_factory=dict)  # by header row count
    entries: list[tuple[str, object]] = field(
        default_factory=list
    )  # ("slice", rows) | ("piece", s)
    raw_pos: int = 0  # how far into the bare raw tag the chunks have reached
    caption: tuple[int, int] = (0, 0)  # its caption's span in the source ((0, 0): none)

    @property
    def items(self) -> list[tuple[str, object]]:
        return self.entries

    @functools.cached_property
    def bare_raw(self) -> str:
        """The raw tag without whitespace, made once: a table tag may be megabytes long."""
        return _bare(self.raw)

    @property
    def slices(self) -> int:
        return sum(kind == "slice" for kind, _ in self.entries)

    def _advance(self, text: str) -> bool:
        bare = _bare(text)
        found = self.bare_raw.find(bare, self.raw_pos)
        if found < 0:
            return False
        self.raw_pos = found + len(bare)
        return True

    @functools.cached_property
    def rows_end(self) -> int:
        """Where its last row ends in the bare raw tag (its closing tags follow)."""
        last = _bare(self.rows[-1]) if self.rows else ""
        found = self.bare_raw.rfind(last) if last else -1
        return found + len(last) if found >= 0 else len(self.bare_raw)

    def continues_with(self, piece: str) -> bool:
        """Whether ``piece`` is a character piece of this table after what was met so far
        (starting right there, within its rows, or ending with its closing tag: a short line
        of prose such as ``a`` or ``b`` is not a piece of ``</tbody></table>``)."""
        bare, raw = _bare(piece), self.bare_raw
        found = raw.find(bare, self.raw_pos) if bare else -1
        if found < 0:
            return False
        return (
            found == self.raw_pos or found + len(bare) <= self.rows_end or bare.endswith("</table>")
        )

    def add_piece(self, piece: str) -> None:
        self.entries.append(("piece", piece))
        self._advance(piece)

    def add_slice(self, rows: list[str]) -> None:
        self.entries.append(("slice", rows))
        for row in rows:
            self._advance(row)

    def check(self) -> None:
        """The slices' rows (continuation slices without the header rows they repeat) and
        the character pieces rebuild exactly the table's rows, in order. The number of
        repeated header rows is whatever makes that true (it is the same for every slice)."""
        if not self.entries:
            return
        kinds = {kind for kind, _ in self.entries}
        if kinds == {"piece"}:
            pieces = "".join(str(text) for _, text in self.entries)
            if _bare(pieces) == self.bare_raw:
                return  # the whole tag was character-split
        first = next((rows for kind, rows in self.entries if kind == "slice"), [])
        error = ""
        for header in range(len(first) + 1):
            error = self._rebuild(header)
            if not error:
                return
        raise AssertionError(error)

    def _label_rows(self, header: int) -> set[str]:
        """The compact headers a continuation may repeat for ``header`` header rows: the
        given ones, and the forms of the header rows' labels by position."""
        if header not in self.label_forms:
            head = self.rows[:header]
            if all(row.lstrip().lower().startswith("<tr") for row in head):
                labels = positional_labels(html_header_grid(head))
                forms = [html_label_row(form) for form in label_ladder(labels) if any(labels)]
            else:
                try:
                    rows = [json.loads(row) for row in head]
                except ValueError:
                    rows = []
                labels = json_column_labels(rows, [], None) if rows else []
                forms = [json.dumps(f, ensure_ascii=False) for f in label_ladder(labels)]
            self.label_forms[header] = {*self.compact, *(forms if any(labels) else [])}
        return self.label_forms[header]

    def _rebuild(self, header: int) -> str:
        items: list[tuple[str, str]] = []
        seen_slice = False
        for kind, value in self.entries:
            if kind == "piece":
                items.append(("piece", str(value)))
                continue
            rows = list(value)  # type: ignore[call-overload]
            if seen_slice and rows[:header] == self.rows[:header]:
                rows = rows[header:]
            elif seen_slice and header and rows[:1] and rows[0] in self._label_rows(header):
                rows = rows[1:]  # one row of column labels stands for the header rows
            seen_slice = True
            items.extend(("row", row) for row in rows)
        index = 0
        for row in self.rows:
            if index < len(items) and items[index] == ("row", row):
                index += 1
                continue
            rebuilt, target = "", _bare(row)
            while index < len(items) and items[index][0] == "piece" and len(rebuilt) < len(target):
                rebuilt += _bare(items[index][1])
                index += 1
            if rebuilt != target:
                return f"table {self.table_id}: row {row[:80]!r} is missing, cut or out of order"
        if index != len(items):
            return f"table {self.table_id}: rows that are not its own"
        return ""


class _Source:
    """The document as one string (tables with an id replaced by placeholders), with the
    content row of every position."""

    def __init__(self, row_contents: Sequence[str], compact: Mapping[str, Sequence[list]]) -> None:
        parts: list[str] = []
        self.row_starts: list[int] = []
        self.tables: dict[str, _Table] = {}
        position = 0
        for content in row_contents:
            self.row_starts.append(position)
            for line in content.split("\n"):
                if not line.strip():
                    continue
                tid = table_id(line)
                rows = table_row_lines(line) if tid is not None else None
                if tid is not None and rows is not None and tid not in self.tables:
                    # The caption is a line of its own before the table: the chunks hold it
                    # there, or in the first slice's tag.
                    caption = table_caption(_TABLE.fullmatch(line.strip()).group("attrs") or "")
                    span = (position, position + len(caption)) if caption else (0, 0)
                    if caption:
                        parts.append(caption + "\n")
                        position += len(caption) + 1
                    text = f"\x00table {tid}\x00\n"
                    forms = tuple(json.dumps(f, ensure_ascii=False) for f in compact.get(tid, ()))
                    self.tables[tid] = _Table(
                        tid, line.strip(), rows, position, forms, caption=span
                    )
                else:
                    text = line.strip() + "\n"
                parts.append(text)
                position += len(text)
        self.text = "".join(parts)
        self.covered_by = [-1] * len(self.text)

    def row_of(self, index: int) -> int:
        return bisect_right(self.row_starts, index) - 1

    def _gap(self, lo: int) -> int:
        text, covered = self.text, self.covered_by
        gap = max(lo, 0)
        while gap < len(text) and (covered[gap] != -1 or text[gap].isspace()):
            gap += 1
        return gap

    def continues_at(self, line: str, lo: int) -> int:
        """The first uncovered position from ``lo`` if ``line`` starts there, else -1."""
        gap = self._gap(lo)
        return gap if self.text.startswith(line, gap) else -1

    def _occurrences(self, line: str, lo: int) -> list[int]:
        found: list[int] = []
        start = self.text.find(line, lo)
        while start >= 0 and len(found) < 64:
            found.append(start)
            start = self.text.find(line, start + 1)
        return found

    def _new_chars(self, line: str, at: int) -> list[bool]:
        text, covered = self.text, self.covered_by
        return [covered[i] == -1 for i in range(at, at + len(line)) if not text[i].isspace()]

    def continuation(self, line: str, lo: int) -> int:
        """Where ``line`` continues the text right after ``lo``: starting on the first
        uncovered character, or (an overlap copy) reaching it while covering the most new
        text (periodic text has several such places). -1 when it does neither."""
        gap = self._gap(lo)
        if self.text.startswith(line, gap):
            return gap
        # An overlap copy may start before ``lo`` (on text the previous chunk ended with).
        first = max(gap - len(line) + 1, 0)
        reaching = [at for at in self._occurrences(line, first) if at <= gap < at + len(line)]
        if reaching:
            return max(reaching, key=lambda at: (sum(self._new_chars(line, at)), -at))
        return -1

    def copy_behind(self, line: str, cursor: int) -> int:
        """A covered occurrence of ``line`` in the cursor's own row, at or before the
        cursor: the second copy of bridge text or of an R overlap. -1 if none."""
        if cursor < 0:
            return -1
        row_start = self.row_starts[self.row_of(cursor)]
        at = self.text.rfind(line, row_start, self._gap(cursor + 1))
        if at >= 0 and not any(self._new_chars(line, at)):
            return at
        return -1

    def ahead(self, line: str, lo: int) -> int:
        """The next place for ``line`` from ``lo``: the first occurrence starting on
        uncovered text, else the first covering anything new, else the first."""
        occurrences = self._occurrences(line, lo)
        for at in occurrences:
            flags = self._new_chars(line, at)
            if flags and flags[0]:
                return at
        for at in occurrences:
            if any(self._new_chars(line, at)):
                return at
        return occurrences[0] if occurrences else -1

    def cover(self, start: int, end: int, chunk: int, line: str) -> None:
        for i in range(start, end):
            owner = self.covered_by[i]
            if owner != -1 and owner != chunk and not self.text[i].isspace():
                # Copies across chunks stay within one content row (invariants 1-3).
                assert self.row_of(i) == self.row_of(start) == self.row_of(end - 1), (
                    f"chunk {chunk} copies text across a section boundary: {line[:80]!r}"
                )
            self.covered_by[i] = chunk


def check_output(
    row_contents: Sequence[str],
    chunk_contents: Sequence[str],
    *,
    counter=None,
    cap: int | None = None,
    tokens: Sequence[int] | None = None,
    oversize: Sequence[bool] | None = None,
    compact_headers: Mapping[str, Sequence[list]] | None = None,
) -> None:
    """Assert the invariants above (see the module docstring). ``compact_headers`` maps a
    table id to the compact headers its continuations may repeat (see
    :func:`compact_headers_of`)."""
    source = _Source(row_contents, compact_headers or {})
    cursor = -1  # start of the last text found going forward
    current: _Table | None = None  # the table the previous line belonged to
    for chunk, content in enumerate(chunk_contents):
        # Stripped, but for the indentation of a first line cut from inside a row.
        assert content.strip() and content == content.rstrip(), f"chunk {chunk} is empty"
        assert content.split("\n", 1)[0].strip(), f"chunk {chunk} starts with a blank line"
        assert_valid_table_tags(content)
        if counter is not None and tokens is not None:
            assert tokens[chunk] == counter.count(content), f"chunk {chunk}: wrong token count"
        if cap is not None and tokens is not None:
            is_oversize = bool(oversize and oversize[chunk])
            assert tokens[chunk] <= cap or is_oversize, f"chunk {chunk}: {tokens[chunk]} > {cap}"
        for raw_line in content.split("\n"):
            line = raw_line.strip()
            if not line:
                continue
            tid = table_id(line)
            table = source.tables.get(tid) if tid is not None else None
            if table is not None:
                table.add_slice(table_row_lines(line) or [])
                if "caption=" in line and table.caption != (0, 0):
                    source.cover(*table.caption, chunk, line)
                current = _enter(source, table, chunk, cursor)
                cursor = max(cursor, table.placeholder)
                continue
            if current is not None and current.continues_with(line):
                current.add_piece(line)  # a character piece of this table
                if "caption=" in line and current.caption != (0, 0):
                    source.cover(*current.caption, chunk, line)
                continue
            current = None
            start = source.continuation(line, cursor + 1)
            if start < 0:
                copy = source.copy_behind(line, cursor)
                if copy >= 0:
                    source.cover(copy, copy + len(line), chunk, line)
                    continue
                start = source.ahead(line, cursor + 1)
            if start < 0:
                fresh = _table_starting_with(source, line, cursor)
                if fresh is not None:
                    fresh.add_piece(line)
                    if "caption=" in line and fresh.caption != (0, 0):
                        source.cover(*fresh.caption, chunk, line)
                    current = _enter(source, fresh, chunk, cursor)
                    cursor = max(cursor, fresh.placeholder)
                    continue
                # A repeated phrase or overlap copy lies before the cursor, in its row.
                start = source.text.rfind(line, 0, max(cursor, 0) + len(line))
                assert start >= 0, f"chunk {chunk} holds text not in the source: {line[:80]!r}"
                assert source.row_of(start) == source.row_of(max(cursor, 0)), (
                    f"chunk {chunk} repeats text of another section: {line[:80]!r}"
                )
            else:
                cursor = start
            source.cover(start, start + len(line), chunk, line)
    for table in source.tables.values():
        table.check()
    text = source.text
    missing = [i for i, ch in enumerate(text) if source.covered_by[i] == -1 and not ch.isspace()]
    if missing:
        first = missing[0]
        raise AssertionError(
            f"{len(missing)} characters lost, first in content row {source.row_of(first)}: "
            f"{text[max(first - 40, 0) : first + 40]!r}"
        )


def _enter(source: _Source, table: _Table, chunk: int, cursor: int) -> _Table:
    """Mark the table's placeholder covered; a table met for the first time must not lie
    behind the text already found (document order)."""
    end = table.placeholder + len(f"\x00table {table.table_id}\x00")
    if source.covered_by[table.placeholder] == -1:
        assert table.placeholder > cursor or cursor < 0, (
            f"chunk {chunk}: table {table.table_id} is out of document order"
        )
    source.cover(table.placeholder, end, chunk, f"<table {table.table_id}>")
    return table


def _table_starting_with(source: _Source, line: str, cursor: int) -> _Table | None:
    """The next table not met yet after the cursor, when ``line`` starts it as a character
    piece: of the whole tag, or of its first row (too big for a slice of its own)."""
    upcoming = [t for t in source.tables.values() if not t.items and t.placeholder > cursor]
    if not upcoming:
        return None
    table = min(upcoming, key=lambda t: t.placeholder)
    piece = _bare(line)
    starts = [_bare(table.raw), *(_bare(row) for row in table.rows[:1])]
    return table if any(text.startswith(piece) for text in starts) else None


def compact_headers_of(blocks_path: Path, row_contents: Sequence[str]) -> dict[str, list]:
    """{table id: its compact headers, richest first} for the JSON tables of
    ``row_contents`` that ``.tables.json`` next to ``blocks_path`` gives a header, labelled
    as stage B labels them (by the sidecar's keyed rows where they fit the cells)."""
    headers, keyed = read_table_items(blocks_path)
    out: dict[str, list] = {}
    for content in row_contents:
        for line in content.split("\n"):
            tid, rows = table_id(line), table_row_lines(line)
            declared = headers.get(tid or "", "")
            if rows is None or tid in out or not declared.startswith("["):
                continue
            head = json.loads(declared)
            if not head or not all(isinstance(row, list) for row in head):
                continue
            labels = json_column_labels(head, rows[len(head) :], keyed.get(tid))
            out[str(tid)] = label_ladder(labels) if any(labels) else []
    return out


def assert_no_word_lost(rows: Iterable[str], chunks: Iterable[str], where: str = "") -> None:
    """Every word of the rows' text (``chunk/coverage.py``'s words: CJK characters one by
    one, table cells decoded) is in the chunks' text, as a multiset: no silent loss."""
    shortfall = lost_words(rows, chunks)
    assert not shortfall, f"{where}: {shortfall.describe()}" if where else shortfall.describe()


def assert_text_in_order(rows: Iterable[str], chunks: Iterable[str], where: str = "") -> None:
    """Every character of the rows' text (white space aside) is in the chunks' text, in
    document order (copies only add): no loss where R had to cut words without a space at
    hand, which the word check counts as lost (at a handful of tokens per chunk)."""
    text = "".join("".join(row.split()) for row in rows)
    held = iter("".join("".join(chunk.split()) for chunk in chunks))
    for index, character in enumerate(text):
        if character not in held:  # consumes the chunks' text up to the match
            raise AssertionError(f"{where}: text lost from {text[index : index + 60]!r}")
