"""The outline a chunk's breadcrumbs are checked against (``chunk/breadcrumbs.py``): a
document's rows as the paths of its outline and the levels of their headings, the section
each row lies in, and the rows' text in one string in which :func:`locate` finds the rows a
chunk's lines come from."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence

from lightrag_pchunk.chunk.blocks import row_level, without_heading_marks
from lightrag_pchunk.chunk.preface import is_untitled_row, preface_is_section
from lightrag_pchunk.model import PREFACE_HEADING, TOC_SESSION, BlockRow
from lightrag_pchunk.outline.lines import flat_text

_TABLE_OPEN = re.compile(r"<table\b[^>]*>")
#: Characters of a line used to find it in the document (long enough to be unique).
_KEY_CHARS = 64
#: How far back (characters) a chunk may start before the end of the one before it: the
#: overlap of R pieces and the text shared between two sliced tables (stage B.1).
_BACKOFF = 8000


def _normalize(line: str) -> str:
    """A line as titles are made of it (:func:`flat_text`), without Markdown's marks."""
    return flat_text(without_heading_marks(line.strip()))


def _keys(line: str) -> tuple[str, str]:
    """How a line is found in the document's text: as a whole line, or by its start when
    it is long (``"\n"`` marks line ends), else anywhere in a line (a piece of an R split
    starts inside one). A table tag is found by its opening: a table slice re-wraps rows,
    so only the tag's id is shared with the whole table."""
    if line.startswith("<table"):
        match = _TABLE_OPEN.match(line)
        if match:
            return "\n" + match.group(0), match.group(0)
    if len(line) <= _KEY_CHARS:
        return f"\n{line}\n", line
    return "\n" + line[:_KEY_CHARS], line[:_KEY_CHARS]


class RowOutline:
    """The outline of a document's rows: its paths, which rows hold which section, and the
    rows' text in one string to find a chunk's lines in."""

    def __init__(self, rows: Sequence[BlockRow]) -> None:
        self.paths: set[tuple[str, ...]] = set()
        # None: front matter of no section (a table of contents, a preface of only the
        # title); a preface with a body of its own is the section Preface/Uncategorized.
        self.row_paths: list[tuple[str, ...] | None] = []
        self.preface: list[int] = []  # the untitled rows (tables of contents are not)
        self._lines_below: dict[tuple[str, ...], list[str]] = {}
        self.rows_of: dict[tuple[str, ...], list[int]] = {}
        self.levels: dict[tuple[str, ...], set[int]] = {}  # the levels of a path's rows
        self.lines: list[list[str]] = []
        preface_section = preface_is_section(rows)
        starts, pieces, offset = [], ["\n"], 1
        for index, row in enumerate(rows):
            untitled = is_untitled_row(row)
            neutral = row.extra.get("session_type") == TOC_SESSION
            path = (*row.parent_headings, row.heading.strip()) if row.heading.strip() else ()
            if untitled:
                self.preface.append(index)
                neutral = neutral or not preface_section
                path = (PREFACE_HEADING,) if preface_section else path
            if path:
                for end in range(1, len(path) + 1):
                    self.paths.add(path[:end])
                self.rows_of.setdefault(path, []).append(index)
                self.levels.setdefault(path, set()).add(row_level(row))
            self.row_paths.append(None if neutral else path)
            lines = [n for n in map(_normalize, row.content.split("\n")) if n]
            self.lines.append(lines)
            text = "\n".join(lines) + "\n"
            starts.append(offset)
            pieces.append(text)
            offset += len(text)
        self.starts = starts
        self.text = "".join(pieces)

    def row_at(self, position: int) -> int:
        return bisect_right(self.starts, position) - 1

    def children(self, base: tuple[str, ...]) -> Iterable[tuple[str, ...]]:
        depth = len(base) + 1
        return (p for p in self.paths if len(p) == depth and p[: len(base)] == base)

    def section_lines(self, path: tuple[str, ...]) -> list[str]:
        """The lines of ``path``'s section and the sections below it (() : the whole
        document; the untitled preface: its own), tables of contents left out."""
        if path in self._lines_below:
            return self._lines_below[path]
        if path and path[0] == PREFACE_HEADING and len(path) == 1:
            rows = self.preface
        else:
            depth = len(path)
            rows = [
                i
                for i, row in enumerate(self.row_paths)
                if (row is not None and row[:depth] == path) or (not path and i in self.preface)
            ]
        lines = [line for index in rows for line in self.lines[index]]
        self._lines_below[path] = lines
        return lines

    def names_line(self, path: tuple[str, ...], name: str) -> bool:
        """Whether ``name`` is a heading made of a line of ``path``'s section (the line
        itself, or its start: a title before a colon, an article's label), or of lines
        that a soft break split (their text joined by a space)."""
        name = flat_text(name)
        if not name:
            return False
        lines = self.section_lines(path)
        for index, line in enumerate(lines):
            if line.startswith(name):
                return True
            if name.startswith(line):
                joined = line
                for following in lines[index + 1 :]:
                    joined = f"{joined} {following}"
                    if joined.startswith(name):
                        return True
                    if not name.startswith(joined):
                        break
        return False


def opens_with_overlap(content: str, before: str) -> bool:
    """Whether the first line of ``content`` is copied from the end of ``before`` (the
    chunk before it): some start of ``content`` at least that line long ends ``before``."""
    first = content.split("\n", 1)[0]
    if not first.strip() or not before:
        return False
    # Only a start ending in the last character of ``before`` can end it.
    ends = (k + 1 for k, char in enumerate(content[: len(before)]) if char == before[-1])
    return any(before.endswith(content[:k]) for k in ends if k >= len(first))


def locate(
    outline: RowOutline, content: str, cursor: int, overlapped: bool = False
) -> tuple[list[int], int]:
    """The rows that the lines of ``content`` come from, in order without repeats, and
    where the search for the next chunk starts (after the last line found). Each line is
    looked for after the one before; the first one also a little before ``cursor`` (the
    overlap of R pieces, text shared between two table slices) and then anywhere. A first
    line ``overlapped`` (copied from the end of the chunk before) is looked for before
    ``cursor`` first: a short one ("10", the end of "a10") may also occur further on."""
    text = outline.text
    lines = [n for n in map(_normalize, content.split("\n")) if n]
    window = 2 * len(content) + 10_000
    rows: list[int] = []
    end = -1  # where the last line found ends
    for line in lines:
        found = -1
        for key in _keys(line):
            if end < 0:
                found = -1 if overlapped else text.find(key, max(cursor - 1, 0))
                if found < 0:  # repeated by the overlap: the copy nearest the cursor
                    found = text.rfind(key, max(cursor - _BACKOFF, 0), cursor + len(key))
                if found < 0:
                    found = text.find(key)
            else:
                found = text.find(key, end - 1, end + window)
            if found >= 0:
                end = found + len(key.rstrip("\n"))
                found += key.startswith("\n")  # the line itself, not the break before it
                break
        if found < 0:
            continue  # a rewritten line (a compact table header)
        row = outline.row_at(found)
        if not rows or rows[-1] != row:
            rows.append(row)
    return rows, (end if end >= 0 else cursor)
