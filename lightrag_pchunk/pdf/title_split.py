"""Stage A for PDF, before bookmarks are matched: a title printed on one line with other
text is split from it.

A heading may share its baseline with text that is not its own: a sidebar's first line
printed beside it ("1.2 Related Documents" | "Refer to the Guide to"), a web page's
buttons after it ("Create Basic Shapes" | "Online Help"). The line then reads as neither
the title nor anything else, and the bookmark naming the heading finds no paragraph. Where
the first segments of a line on the page a bookmark points at read exactly as its title
and words follow them, the line is cut after them: the title becomes a line of its own,
the rest the next line of the paragraph.
Not where another bookmark points at the same height: that line is a row of cells.

Input: the paragraphs in reading order and the bookmarks. Output: the paragraphs, the
lines holding a title cut.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line, make_line
from lightrag_pchunk.pdf.outline import Bookmark, normalise
from lightrag_pchunk.pdf.paragraphs import PrintedParagraph, join_lines, line_text


def split_title_lines(
    found: Sequence[PrintedParagraph], bookmarks: Sequence[Bookmark]
) -> list[PrintedParagraph]:
    """``found`` with each line that starts with a bookmark's title, at a segment
    boundary, cut after it (see the module doc). Of several such lines on the page, the
    one nearest below the height the bookmark points at, else the first."""
    by_page: dict[int, list[tuple[int, int]]] = {}  # page -> (paragraph, line) on it
    for index, paragraph in enumerate(found):
        if paragraph.role != TABLE_ROLE:
            for number, line in enumerate(paragraph.lines):
                by_page.setdefault(line.page, []).append((index, number))
    # Bookmarks pointing at one height name the cells of a row (a table's header the file
    # bookmarks), not a title with text beside it.
    heights = Counter((b.page, round(b.y)) for b in bookmarks if b.y is not None)
    cuts: dict[tuple[int, int], int] = {}  # (paragraph, line) -> segments of the title
    for bookmark in bookmarks:
        title = normalise(bookmark.title)
        if bookmark.page is None or not title:
            continue
        if bookmark.y is not None and heights[(bookmark.page, round(bookmark.y))] > 1:
            continue
        best: tuple[float, tuple[int, int], int] | None = None
        for place in by_page.get(bookmark.page, ()):
            line = found[place[0]].lines[place[1]]
            count = _title_segments(line, title)
            if not count:
                continue
            distance = 0.0 if bookmark.y is None else bookmark.y - _top(line)
            rank = distance if distance >= -2 else 1e6
            if best is None or rank < best[0]:
                best = (rank, place, count)
        if best is not None:
            cuts[best[1]] = best[2]
    if not cuts:
        return list(found)
    result = []
    for index, paragraph in enumerate(found):
        lines: list[Line] = []
        for number, line in enumerate(paragraph.lines):
            count = cuts.get((index, number))
            lines += [line] if count is None else _cut(line, count)
        if len(lines) == len(paragraph.lines):
            result.append(paragraph)
            continue
        text, starts = join_lines([line_text(line) for line in lines])
        result.append(
            PrintedParagraph(text, tuple(lines), starts, paragraph.look, paragraph.is_toc_entry)
        )
    return result


def _title_segments(line: Line, title: str) -> int:
    """How many of the line's first segments read exactly as ``title`` (normalised),
    when words follow them; 0 when none do (marks after a title, "Back cover ®", are
    no text of their own: the line reads as the title)."""
    printed = normalise(line.text)
    if len(line.segments) < 2 or printed == title or not printed.startswith(title):
        return 0
    read = ""
    for count, segment in enumerate(line.segments[:-1], start=1):
        read += normalise(segment.text)
        if read == title:
            return count
        if len(read) >= len(title):
            return 0
    return 0


def _top(line: Line) -> float:
    return max(segment.bbox[3] for segment in line.segments)


def _cut(line: Line, count: int) -> list[Line]:
    """The line as two: its first ``count`` segments, then the rest."""
    return [
        _with_tags(make_line(part, line.page, line.column, line.column_x0, line.column_x1), line)
        for part in (line.segments[:count], line.segments[count:])
    ]


def _with_tags(part: Line, line: Line) -> Line:
    """``part`` with the structure role and element of the line it was cut from."""
    return replace(part, role=line.role, element=line.element)
