"""Stage A for PDF, before bookmarks are matched: a title printed on one line with other
text is split from it.

A heading may share its baseline with text that is not its own: a sidebar's first line
printed beside it ("1.2 Related Documents" | "Refer to the Guide to"), a web page's
buttons after it ("Create Basic Shapes" | "Online Help"), a narrow column's line before it
("[Email]" | "EDUCATION", where the columns are too short to be found). The line then
reads as neither the title nor anything else, and the bookmark naming the heading finds no
paragraph. Where segments of a line on the page a bookmark points at read exactly as its
title, the line is cut around them: the title becomes a line of its own between the words
before and after it, which stay in their paragraph. The title may follow other words only
on the line the bookmark points at. Not where another bookmark points at the same height:
that line is a row of cells. Words before the title that read as a numbering label alone
("1.1.10" set apart from "Suggested packages") are its number and stay with it.

Input: the paragraphs in reading order and the bookmarks. Output: the paragraphs, the
lines holding a title cut.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.outline.numbering import is_bare_label
from lightrag_pchunk.pdf.bookmark_match import line_top, points_at
from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line, make_line
from lightrag_pchunk.pdf.line_ends import join_lines
from lightrag_pchunk.pdf.outline import Bookmark, normalise
from lightrag_pchunk.pdf.printed_paragraph import PrintedParagraph, line_text
from lightrag_pchunk.pdf.segments import Segment


def split_title_lines(
    found: Sequence[PrintedParagraph], bookmarks: Sequence[Bookmark]
) -> list[PrintedParagraph]:
    """``found`` with each line that holds a bookmark's title between segment boundaries,
    beside other words, cut around it (see the module doc). Of several such lines on the
    page, the one nearest below the height the bookmark points at, else the first."""
    by_page: dict[int, list[tuple[int, int]]] = {}  # page -> (paragraph, line) on it
    for index, paragraph in enumerate(found):
        if paragraph.role != TABLE_ROLE:
            for number, line in enumerate(paragraph.lines):
                by_page.setdefault(line.page, []).append((index, number))
    # Bookmarks pointing at one height name the cells of a row (a table's header the file
    # bookmarks), not a title with text beside it.
    heights = Counter((b.page, round(b.y)) for b in bookmarks if b.y is not None)
    cuts: dict[tuple[int, int], tuple[int, int]] = {}  # (paragraph, line) -> title segments
    for bookmark in bookmarks:
        title = normalise(bookmark.title)
        if bookmark.page is None or not title:
            continue
        if bookmark.y is not None and heights[(bookmark.page, round(bookmark.y))] > 1:
            continue
        best: tuple[float, tuple[int, int], tuple[int, int]] | None = None
        for place in by_page.get(bookmark.page, ()):
            line = found[place[0]].lines[place[1]]
            top = line_top(line)
            distance = 0.0 if bookmark.y is None else bookmark.y - top
            pointed = bookmark.y is not None and points_at(bookmark.y, top)
            run = _title_run(line, title, pointed)
            if run is None:
                continue
            rank = distance if distance >= -2 else 1e6
            if best is None or rank < best[0]:
                best = (rank, place, run)
        if best is not None:
            cuts[best[1]] = best[2]
    if not cuts:
        return list(found)
    result = []
    for index, paragraph in enumerate(found):
        lines: list[Line] = []
        for number, line in enumerate(paragraph.lines):
            run = cuts.get((index, number))
            lines += [line] if run is None else _cut(line, *run)
        if len(lines) == len(paragraph.lines):
            result.append(paragraph)
            continue
        text, starts = join_lines([line_text(line) for line in lines])
        result.append(
            PrintedParagraph(text, tuple(lines), starts, paragraph.look, paragraph.is_toc_entry)
        )
    return result


def _title_run(line: Line, title: str, pointed: bool) -> tuple[int, int] | None:
    """The segments ``start:end`` of the line that read exactly as ``title``
    (normalised) beside other words; None when none do. A run after other words only
    where the bookmark points at the line. Marks next to the title ("Back cover ®") are
    no words of their own: they stay with it."""
    segments = line.segments
    printed = normalise(line.text)
    if len(segments) < 2 or printed == title or title not in printed:
        return None
    words = [normalise(segment.text) for segment in segments]
    for start in range(len(segments) if pointed else 1):
        if not words[start]:
            continue  # a run starts with the title's first word
        read, end = "", start
        while end < len(segments) and len(read) < len(title):
            read += words[end]
            end += 1
        if read != title:
            continue
        while start > 0 and not words[start - 1]:
            start -= 1
        while end < len(segments) and not words[end]:
            end += 1
        if start > 0 and _is_bare_label(segments[:start]):
            start = 0  # the title's number, set apart from it ("1.1.10" | "Suggested …")
        return (start, end) if (start, end) != (0, len(segments)) else None
    return None


def _is_bare_label(segments: Sequence[Segment]) -> bool:
    """Whether ``segments`` read as a numbering label and nothing else ("1.1.10",
    "Chapter 2"): a title's number, which stays with it as a Word heading's does."""
    return is_bare_label(" ".join(segment.text for segment in segments))


def _cut(line: Line, start: int, end: int) -> list[Line]:
    """The line as the parts before its segments ``start:end``, those, and after them."""
    parts = (line.segments[:start], line.segments[start:end], line.segments[end:])
    return [
        _with_tags(make_line(part, line.page, line.column, line.column_x0, line.column_x1), line)
        for part in parts
        if part
    ]


def _with_tags(part: Line, line: Line) -> Line:
    """``part`` with the structure role and element of the line it was cut from."""
    return replace(part, role=line.role, element=line.element)
