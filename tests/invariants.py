"""The P chunker's invariants (spec §2, issue #2), checked on any document's output.

``check_output(row_contents, chunk_contents, ...)`` verifies that

- nothing is lost: every non-blank character of every content row is covered by a line of
  some chunk, and chunks come in document order;
- text is only copied within one content row (R overlap, bridge text, repeated table
  headers), never across section boundaries (invariants 1-4);
- every complete ``<table>`` tag in a chunk is valid: JSON bodies parse as a row array,
  HTML bodies hold whole ``<tr>`` rows;
- counts are exact and within the cap when a ``counter`` and ``cap`` are given.

Tables are compared row by row: both the source and the chunks are normalised so that a
table tag becomes one line per row, which makes every table slice, repeated header and
character piece a substring of the normalised source.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Sequence

_TABLE = re.compile(r"<table(?P<attrs>\s[^>]*)?>(?P<body>.*)</table>", re.DOTALL | re.IGNORECASE)
_TR = re.compile(r"<tr\b.*?</tr>", re.DOTALL | re.IGNORECASE)
_ID = re.compile(r'\bid="([^"]*)"')


def table_id(line: str) -> str | None:
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
    rows_html = _TR.findall(body)
    return rows_html or None


def normalise(
    text: str,
    tables: dict[str, list[str]] | None = None,
    seen: set[str] | None = None,
) -> list[str]:
    """Non-blank lines of ``text``, each table tag expanded into its row lines.

    With ``tables`` (source rows by table id) and ``seen`` (ids already met in earlier
    slices), a continuation slice's leading rows that repeat the table's first rows (the
    repeated header) are left out; ``tables`` is filled when ``seen`` is None (the source).
    """
    out: list[str] = []
    for line in text.split("\n"):
        if not line.strip():
            continue
        rows = table_row_lines(line)
        if rows is None:
            out.append(line.strip())
            continue
        tid = table_id(line)
        if tables is not None and tid is not None:
            if seen is None:
                tables.setdefault(tid, rows)
            elif tid in seen:
                source_rows = tables.get(tid, [])
                k = 0
                while k < min(len(rows) - 1, len(source_rows)) and rows[k] == source_rows[k]:
                    k += 1
                rows = rows[k:]
            else:
                seen.add(tid)
        out.extend(rows)
    return out


def assert_valid_table_tags(content: str) -> None:
    """Every complete table tag in ``content`` parses (JSON) or has whole rows (HTML)."""
    for line in content.split("\n"):
        stripped = line.strip()
        match = _TABLE.fullmatch(stripped)
        if match is None:
            continue
        attrs = match.group("attrs") or ""
        body = match.group("body")
        if 'format="json"' in attrs:
            rows = json.loads(body)  # raises when a slice is not valid JSON
            assert isinstance(rows, list) and rows, stripped[:120]
        elif 'format="html"' in attrs:
            assert body.count("<tr") == body.count("</tr>"), stripped[:120]


class _RawTable:
    """A source table tag kept as raw text: a table that is character-split (too small a
    cap for its wrapper, or not sliceable) reaches the chunks as pieces of this text."""

    def __init__(self, text: str, start: int, end: int) -> None:
        self.text, self.start, self.end = text, start, end
        self.covered = [False] * len(text)
        self.cursor = 0

    def take(self, piece: str) -> bool:
        covered = [0 if c else -1 for c in self.covered]
        found = _find_uncovered(self.text, piece, max(self.cursor - len(piece), 0), covered)
        if found < 0:
            return False
        for i in range(found, found + len(piece)):
            self.covered[i] = True
        self.cursor = max(self.cursor, found + len(piece))
        return True

    @property
    def started(self) -> bool:
        return self.cursor > 0

    @property
    def complete(self) -> bool:
        return all(c or ch.isspace() for c, ch in zip(self.covered, self.text, strict=True))


def check_output(
    row_contents: Sequence[str],
    chunk_contents: Sequence[str],
    *,
    counter=None,
    cap: int | None = None,
    tokens: Sequence[int] | None = None,
    oversize: Sequence[bool] | None = None,
) -> None:
    """Assert the invariants above (see the module docstring)."""
    # The normalised source, with the content row each character belongs to.
    source_parts: list[str] = []
    row_starts: list[int] = []
    tables: dict[str, list[str]] = {}
    raw_tables: list[_RawTable] = []
    seen: set[str] = set()
    position = 0
    for content in row_contents:
        row_starts.append(position)
        for line in content.split("\n"):
            lines = normalise(line, tables)
            if not lines:
                continue
            text = "\n".join(lines) + "\n"
            if table_row_lines(line) is not None:
                raw_tables.append(_RawTable(line.strip(), position, position + len(text)))
            source_parts.append(text)
            position += len(text)
    source = "".join(source_parts)

    def row_of(index: int) -> int:
        return bisect_right(row_starts, index) - 1

    covered_by = [-1] * len(source)  # chunk index covering each character
    cursor = -1  # start of the last line found going forward
    for chunk_index, content in enumerate(chunk_contents):
        assert content == content.strip(), f"chunk {chunk_index} is not stripped"
        assert content, f"chunk {chunk_index} is empty"
        assert_valid_table_tags(content)
        if counter is not None and tokens is not None:
            assert tokens[chunk_index] == counter.count(content), f"chunk {chunk_index} tokens"
        if cap is not None and tokens is not None:
            is_oversize = bool(oversize and oversize[chunk_index])
            assert tokens[chunk_index] <= cap or is_oversize, (
                f"chunk {chunk_index} has {tokens[chunk_index]} tokens > {cap}"
            )
        for line in normalise(content, tables, seen):
            table = _take_raw_piece(raw_tables, line, cursor)
            if table is not None:
                # The table's rows count as covered; completeness is checked at the end.
                for i in range(table.start, table.end):
                    covered_by[i] = chunk_index if covered_by[i] == -1 else covered_by[i]
                cursor = max(cursor, table.start)
                continue
            start = _find_uncovered(source, line, cursor + 1, covered_by)
            if start < 0:
                # A repeated table header or an overlap copy lies before the cursor.
                start = source.rfind(line, 0, max(cursor, 0) + len(line))
                assert start >= 0, (
                    f"chunk {chunk_index} holds text not in the source: {line[:80]!r}"
                )
                _assert_same_row(row_of, start, max(cursor, 0), chunk_index, line)
            else:
                cursor = start
            end = start + len(line)
            for i in range(start, end):
                owner = covered_by[i]
                if owner != -1 and owner != chunk_index and not source[i].isspace():
                    # Copies across chunks stay within one content row (invariants 1-3).
                    assert row_of(i) == row_of(start) == row_of(end - 1), (
                        f"chunk {chunk_index} copies text across a section boundary: {line[:80]!r}"
                    )
                covered_by[i] = chunk_index
    for table in raw_tables:
        if table.started:
            assert table.complete, f"a character-split table lost text: {table.text[:80]!r}"
    missing = [i for i, ch in enumerate(source) if covered_by[i] == -1 and not ch.isspace()]
    if missing:
        first = missing[0]
        raise AssertionError(
            f"{len(missing)} characters lost, first in content row {row_of(first)}: "
            f"{source[max(first - 40, 0) : first + 40]!r}"
        )


def _find_uncovered(source: str, line: str, lo: int, covered_by: list[int]) -> int:
    """Where ``line`` continues the text from ``lo``: the first occurrence that starts on
    uncovered text, else the first that still covers something new (an overlap copy
    continuing), else the first occurrence (a repeated phrase is not matched twice)."""
    gap = lo
    while gap < len(source) and (covered_by[gap] != -1 or source[gap].isspace()):
        gap += 1
    if source.startswith(line, gap):
        return gap  # the usual case: the line continues right where the text is uncovered
    occurrences: list[int] = []
    start = source.find(line, lo)
    while start >= 0 and len(occurrences) < 64:
        occurrences.append(start)
        start = source.find(line, start + 1)
    if not occurrences:
        return -1

    def uncovered(at: int) -> list[bool]:
        return [covered_by[i] == -1 for i in range(at, at + len(line)) if not source[i].isspace()]

    # An overlap copy continuing the text: of the occurrences reaching the first uncovered
    # character, the one that covers the most new text (periodic text has several).
    reaching = [at for at in occurrences if at <= gap < at + len(line)]
    if reaching:
        return max(reaching, key=lambda at: (sum(uncovered(at)), -at))
    for at in occurrences:
        flags = uncovered(at)
        if flags and flags[0]:
            return at
    for at in occurrences:
        if any(uncovered(at)):
            return at
    return occurrences[0]


def _take_raw_piece(raw_tables: list[_RawTable], line: str, cursor: int) -> _RawTable | None:
    """The raw table tag ``line`` is a character piece of, if any: a table already being
    split, or one starting at or after the cursor."""
    for table in raw_tables:
        if table.started and not table.complete and table.take(line):
            return table
    for table in raw_tables:
        if table.end > cursor and not table.started and table.text.startswith(line):
            table.take(line)
            return table
    return None


def _assert_same_row(row_of, start: int, cursor: int, chunk_index: int, line: str) -> None:
    assert row_of(start) == row_of(max(cursor - 1, 0)) or row_of(start) == row_of(cursor), (
        f"chunk {chunk_index} repeats text of another section: {line[:80]!r}"
    )
