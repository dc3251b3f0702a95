"""The breadcrumb contract: what a chunk's heading fields promise, and one check of it.

A chunk declares a path: its ``parent_headings`` and its ``heading`` without ``[part n]``.
LightRAG hands that path to its language model (``content_headings``) and users cite it, so
against the outline of the document (its content rows) it must hold that:

- **path**: the declared path is a path of the outline; or one followed by headings that
  are lines of that section's text (a stage C anchor; a heading the smart outline found
  where the outline checked against has body text); or, for a chunk holding several
  sibling sections, their common parent with the span of its children the chunk holds,
  ``4 权责 (4.1–4.3)`` (``chunk_headings.py``), and at the top, where they have no common
  parent, the span alone: ``1 目的 – 3 职责``. And no heading it adds to the outline lies
  below one of its own numbering level (``CHAPTER 7 > … > CHAPTER 1``, ``2.1 > 2.2``);
- **first**: the chunk's first paragraph lies in the declared section (or below it);
- **spans**: every section the chunk holds text of lies in the declared section;
- **part**: ``[part n]`` counts the consecutive chunks of one declared path 1, 2, 3 … with
  no gap, and a path of one chunk has no number.

Front matter (the untitled preface, a table of contents) belongs to no section: it may open
or join any chunk. :func:`check_breadcrumbs` is a pure function of rows and chunks: the
tests, the corpus benchmark and ``inspect`` use it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lightrag_pchunk.chunk.chunk_headings import SPAN_DASH, short_name, span_end, without_bullet
from lightrag_pchunk.chunk.part_numbers import strip_part_suffix
from lightrag_pchunk.model import PREFACE_HEADING, TOC_SESSION, BlockRow, Chunk
from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.lines import flat_text, is_series_label

PATH, FIRST, SPANS, PART = "path", "first", "spans", "part"
RULES = (PATH, FIRST, SPANS, PART)

_PART = re.compile(r"\[part (\d+)\]\s*$")
_HEADING_MARKS = re.compile(r"#{1,6}[ \t]+")
_TABLE_OPEN = re.compile(r"<table\b[^>]*>")
#: Characters of a line used to find it in the document (long enough to be unique).
_KEY_CHARS = 64
#: How far back (characters) a chunk may start before the end of the one before it: the
#: overlap of R pieces and the text shared between two sliced tables (stage B.1).
_BACKOFF = 8000


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken promise: chunk ``order`` (its heading as written) breaks ``rule``."""

    order: int
    heading: str
    rule: str
    reason: str

    def describe(self) -> str:
        """``chunk 12 '4.2 Scope [part 2]': part: … `` for a report."""
        return f"chunk {self.order} {self.heading!r}: {self.rule}: {self.reason}"


def part_number(heading: str) -> int | None:
    """The ``n`` of a heading's ``[part n]``, or None."""
    match = _PART.search(heading)
    return int(match.group(1)) if match else None


def declared_path(chunk: Chunk) -> tuple[str, ...]:
    """The path a chunk declares: its parents and its heading without ``[part n]``."""
    heading = strip_part_suffix(chunk.heading)
    return (*chunk.parent_headings, heading) if heading else tuple(chunk.parent_headings)


def _normalize(line: str) -> str:
    """A line as titles are made of it (:func:`flat_text`), without Markdown's marks."""
    text = line.strip()
    if text.startswith("#"):
        text = _HEADING_MARKS.sub("", text, count=1)
    return flat_text(text)


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


class _Outline:
    """The outline of a document's rows: its paths, which rows hold which section, and the
    rows' text in one string to find a chunk's lines in."""

    def __init__(self, rows: Sequence[BlockRow]) -> None:
        self.paths: set[tuple[str, ...]] = set()
        self.row_paths: list[tuple[str, ...] | None] = []  # None: front matter
        self.preface: list[int] = []  # the untitled rows (tables of contents are not)
        self._lines_below: dict[tuple[str, ...], list[str]] = {}
        self.rows_of: dict[tuple[str, ...], list[int]] = {}
        self.lines: list[list[str]] = []
        starts, pieces, offset = [], ["\n"], 1
        for index, row in enumerate(rows):
            untitled = not row.parent_headings and row.heading.strip() in ("", PREFACE_HEADING)
            neutral = untitled or row.extra.get("session_type") == TOC_SESSION
            if untitled:
                self.preface.append(index)
            path = (*row.parent_headings, row.heading.strip()) if row.heading.strip() else ()
            if path:
                for end in range(1, len(path) + 1):
                    self.paths.add(path[:end])
                self.rows_of.setdefault(path, []).append(index)
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


def _read_path(outline: _Outline, path: tuple[str, ...]) -> tuple[str, ...] | None:
    """The section a declared path names (the longest path of the outline it starts
    with), or None when it names none (see the module doc for the forms it may take)."""
    base = _section_of(outline, path)
    if base is not None or not path:
        return base
    *parents, heading = path
    # ``base (a–b)``: a parent and the span of its children the chunk holds.
    split = _split_parenthesis(heading)
    if split is not None:
        base = _section_of(outline, (*parents, split[0]))
        if base is not None and any(
            _names_children(outline, base, ends) for ends in _span_ends(split[1])
        ):
            return base
    # ``a – b`` at the top: sections without a common parent.
    if not parents and any(
        _names_children(outline, (), ends) for ends in _dash_splits(heading, f" {SPAN_DASH} ")
    ):
        return ()
    return None


def _section_of(outline: _Outline, path: tuple[str, ...]) -> tuple[str, ...] | None:
    """``path`` itself when the outline has it; else its longest prefix in the outline when
    the rest are headings made of lines of that section's own text; else None."""
    if not path or path in outline.paths:
        return path
    cut = len(path) - 1
    while cut > 0 and path[:cut] not in outline.paths:
        cut -= 1
    base = path[:cut]
    return base if all(outline.names_line(base, name) for name in path[cut:]) else None


def _split_parenthesis(heading: str) -> tuple[str, str] | None:
    """``("4 权责", "4.1–4.3")`` for ``"4 权责 (4.1–4.3)"``: the last balanced group."""
    if not heading.endswith(")"):
        return None
    depth = 0
    for index in range(len(heading) - 1, -1, -1):
        ch = heading[index]
        depth += ch == ")"
        depth -= ch == "("
        if depth == 0:
            before = heading[:index].rstrip()
            return (before, heading[index + 1 : -1]) if before else None
    return None


def _span_ends(inside: str) -> Iterable[tuple[str, str]]:
    """The ways ``inside`` reads as two ends (a title may hold a dash itself), or as one."""
    for dash in (f" {SPAN_DASH} ", SPAN_DASH):
        yield from _dash_splits(inside, dash)
    if inside.strip():
        yield inside.strip(), inside.strip()


def _dash_splits(text: str, dash: str) -> Iterable[tuple[str, str]]:
    start = text.find(dash)
    while start > 0:
        first, last = text[:start].strip(), text[start + len(dash) :].strip()
        if first and last:
            yield first, last
        start = text.find(dash, start + 1)


def _names_children(outline: _Outline, base: tuple[str, ...], ends: tuple[str, str]) -> bool:
    names = set()
    for child in outline.children(base):
        names.update((child[-1], short_name(child[-1]), span_end(child[-1])))
    return all(
        end in names
        or outline.names_line(base, end.rstrip("…"))
        or _names_deeper(outline, base, end.rstrip("…"))
        for end in ends
    )


def _names_deeper(outline: _Outline, base: tuple[str, ...], name: str) -> bool:
    """A span end that is a heading the smart outline found inside a child of ``base``."""
    return any(outline.names_line(child, name) for child in outline.children(base))


def _within(path: tuple[str, ...] | None, base: tuple[str, ...]) -> bool:
    return path is None or path[: len(base)] == base


def check_breadcrumbs(rows: Sequence[BlockRow], chunks: Sequence[Chunk]) -> list[Violation]:
    """Every way ``chunks`` break the breadcrumb contract against the outline of ``rows``
    (see the module doc), in chunk order. ``rows`` are usually the rows the chunks were made
    from; any rows of the same text will do (a styled parse checks a smart one)."""
    outline = _Outline(rows)
    violations: list[Violation] = []
    cursor = 0
    for chunk in chunks:
        declared = declared_path(chunk)
        base = _read_path(outline, declared)
        nested = ""
        if base is not None and declared[: len(base)] == base:
            nested = _same_level_nesting(declared, len(base))
        if base is None or nested:
            reason = nested or _path_reason(outline, chunk)
            violations.append(Violation(chunk.order, chunk.heading, PATH, reason))
        found, cursor = _locate(outline, chunk.content, cursor)
        if base is None or not found:
            continue
        first = outline.row_paths[found[0]]
        if first is not None and not _within(first, base):
            violations.append(
                Violation(
                    chunk.order,
                    chunk.heading,
                    FIRST,
                    f"its first paragraph is in {_show(first)}, not in {_show(base)}",
                )
            )
        outside = [outline.row_paths[i] for i in found if not _within(outline.row_paths[i], base)]
        if outside:
            violations.append(
                Violation(
                    chunk.order,
                    chunk.heading,
                    SPANS,
                    f"it holds text of {len(outside)} section(s) outside {_show(base)}, "
                    f"such as {_show(outside[-1])}",
                )
            )
    violations.extend(_part_violations(chunks))
    violations.sort(key=lambda v: (v.order, RULES.index(v.rule)))
    return violations


def _same_level_nesting(path: tuple[str, ...], known: int) -> str:
    """Why the headings of ``path`` past its first ``known`` ones (those not in the outline
    checked against) are impossible by their numbers, or "": a member of a series (a named
    unit, 2.1, AC-2) below another member of its own level with another number (CHAPTER 1
    below CHAPTER 7, 2.2 below 2.1). A list restarts its numbers under any heading, and a
    line that names its own section's number ("AC-2 Assessment" below "AC-2 Account
    Management") is a part of it."""
    seen: dict[tuple[str, int, str], tuple[str, tuple[int, ...]]] = {}
    for position, heading in enumerate(path):
        label = parse_label(without_bullet(heading))
        if label is None or not is_series_label(label):
            continue
        key = (label.family, label.depth, label.series)
        if key in seen and position >= known and seen[key][1] != label.ordinals:
            return f"{heading!r} lies below {seen[key][0]!r}, of its own numbering level"
        seen.setdefault(key, (heading, label.ordinals))
    return ""


def _show(path: tuple[str, ...] | None) -> str:
    if not path:
        return "the document's top"
    return " > ".join(repr(p) for p in path)


def _path_reason(outline: _Outline, chunk: Chunk) -> str:
    path = declared_path(chunk)
    for cut in range(len(path) - 1, 0, -1):
        if path[:cut] in outline.paths:
            return f"{path[cut]!r} is no heading under {_show(path[:cut])}"
    return f"{path[0]!r} is no heading at the document's top"


def _locate(outline: _Outline, content: str, cursor: int) -> tuple[list[int], int]:
    """The rows that the lines of ``content`` come from, in order without repeats, and
    where the search for the next chunk starts (after the last line found). Each line is
    looked for after the one before; the first one also a little before ``cursor`` (the
    overlap of R pieces, text shared between two table slices) and then anywhere."""
    text = outline.text
    lines = [n for n in map(_normalize, content.split("\n")) if n]
    window = 2 * len(content) + 10_000
    rows: list[int] = []
    end = -1  # where the last line found ends
    for line in lines:
        found = -1
        for key in _keys(line):
            if end < 0:
                found = text.find(key, max(cursor - 1, 0))
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


def _part_violations(chunks: Sequence[Chunk]) -> list[Violation]:
    """``[part n]`` over each run of consecutive chunks with one declared path."""
    out: list[Violation] = []
    index = 0
    while index < len(chunks):
        path = declared_path(chunks[index])
        end = index + 1
        while end < len(chunks) and declared_path(chunks[end]) == path:
            end += 1
        run = chunks[index:end]
        numbers = [part_number(c.heading) for c in run]
        if any(n is not None for n in numbers):
            for position, (chunk, number) in enumerate(zip(run, numbers, strict=True), 1):
                reason = None
                if len(run) == 1:
                    reason = f"[part {number}] on the only chunk of its heading"
                elif number is None:
                    reason = f"no [part n] on part {position} of {len(run)} of its heading"
                elif number != position:
                    reason = f"[part {number}] is part {position} of {len(run)} of its heading"
                if reason:
                    out.append(Violation(chunk.order, chunk.heading, PART, reason))
        index = end
    return out
