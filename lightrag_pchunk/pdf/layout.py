"""Stage A for PDF: one page's segments -> printed lines in reading order.

Input: a :class:`~lightrag_pchunk.pdf.glyphs.PageText`. Output: :class:`Line` s in reading
order, each the segments of one column on one baseline.

Columns: between the gutters ``gutters`` finds. A row of text that crosses a gutter (a
title, a full-width table or figure caption) spans the columns. Reading order: rows from the top;
between two spanning rows, the first column top-down, then the next. Tables and single
columns have no gutter (their rows are short or cross it), so they read row by row.
Segments at another angle than the page's text are read last, one line each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from lightrag_pchunk.pdf.fonts import text_size
from lightrag_pchunk.pdf.glyphs import PageGlyphs
from lightrag_pchunk.pdf.gutters import Gutter, crosses, find_gutters, percentile
from lightrag_pchunk.pdf.letter_spacing import join_segments
from lightrag_pchunk.pdf.scripts import as_script, script_segments
from lightrag_pchunk.pdf.segments import PageText, Segment, cut_at_gutters, glyph_runs, page_text
from lightrag_pchunk.pdf.side_notes import side_strip

#: ``Line.role`` of the line that stands for a table in the reading order.
TABLE_ROLE = "Table"
#: The role of a line a tagged page marks as page furniture (a running header, a page
#: number): the line is left out.
ARTIFACT_ROLE = "Artifact"
#: A tagged page's structure role and element of the line a segment opens (``structure_tree``).
LineRole = Callable[[Segment], tuple[str, int]]


@dataclass(frozen=True, slots=True)
class Line:
    """A printed line: the segments of one column on one baseline, left to right.

    ``column`` numbers the line's column (0 for a single column or a spanning row);
    ``column_x0``, ``column_x1`` are the column's extent on the page, for indentation and
    centring. ``size`` is the font size most of its letters and digits are set at
    (``fonts.text_size``), ``bold`` true when every segment is.
    ``role`` and ``element`` come from a tagged document's structure tree: the role of the
    paragraph-level element the line's text belongs to (``P``, ``H2``, ``TD`` …) and a key
    of that element, unique on its page (0: untagged).
    """

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    bold: bool
    segments: tuple[Segment, ...]
    page: int
    column: int = 0
    column_x0: float = 0.0
    column_x1: float = 0.0
    role: str = ""
    element: int = 0

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def width(self) -> float:
        return self.x1 - self.x0


def read_segments(glyphs: PageGlyphs) -> PageText:
    """A page's segments. Where a segment crosses a gutter (two columns' lines
    printed close: a leader line running into the next column) the runs that reach over
    a gutter are cut again, the gutters ending them (``segments.cut_at_gutters``)."""
    runs = glyph_runs(glyphs)
    text = page_text(glyphs, runs)
    upright = [s for s in text.segments if not s.rotated]
    gutters = find_gutters(upright)
    if any(crosses(s, gutter) for gutter in gutters for s in upright):
        text = page_text(glyphs, cut_at_gutters(glyphs, runs, [g.middle for g in gutters]))
    kept = tuple((gutter.x0, gutter.x1, gutter.text_end) for gutter in gutters)
    return replace(text, gutters=kept)


def page_lines(page: PageText, role_of: LineRole | None = None) -> list[Line]:
    """The page's lines in reading order (see the module doc), each with the structure
    role and element ``role_of`` reads from its first segment (a tagged page), those of
    page furniture marked as such (:data:`ARTIFACT_ROLE`) left out."""
    upright = [s for s in page.segments if not s.rotated]
    rotated = [s for s in page.segments if s.rotated]
    gutters = _page_gutters(page, upright)
    # The page as a sequence of bands (segments by column) and spanning rows.
    pieces: list[list[list[Segment]] | list[Segment]] = []
    band: list[list[Segment]] | None = None
    for row in visual_rows(upright):
        columns = _split_row(row, gutters)
        if columns is None:  # the row crosses a gutter: it spans the columns
            pieces.append(row)
            band = None
            continue
        if band is None:
            band = [[] for _ in columns]
            pieces.append(band)  # type: ignore[arg-type]
        for index, part in enumerate(columns):
            band[index].extend(part)
    extents = _column_extents(pieces, len(gutters) + 1, page.frame)
    lines: list[Line] = []
    for piece in pieces:
        if piece and isinstance(piece[0], Segment):  # a spanning row
            frame = page.frame
            lines.append(make_line(piece, page.number, 0, frame[0], frame[2], role_of))  # type: ignore[arg-type]
            continue
        for index, segments in enumerate(piece):
            x0, x1 = extents[index]
            lines.extend(
                make_line(row, page.number, index, x0, x1, role_of) for row in visual_rows(segments)
            )  # type: ignore[arg-type]
    lines.extend(make_line([s], page.number, 0, s.x0, s.x1, role_of) for s in rotated)
    return [line for line in lines if line.role != ARTIFACT_ROLE]


def _page_gutters(page: PageText, upright: Sequence[Segment]) -> list[Gutter]:
    """The page's gutters, found on its text as it reads now; but where a table set inside
    one column (its stand-in crosses none of the gutters the page showed before its
    tables were taken, ``page.gutters``) left too little prose in that column to show
    one, the page's columns are those it showed before."""
    gutters = find_gutters(upright)
    before = [Gutter(*gutter) for gutter in page.gutters]
    if not gutters and not before and (strip := side_strip(upright, page.frame)):
        return [Gutter(*strip)]  # a column of notes in the margin
    if gutters or not before:
        return gutters
    tables = [s for s in upright if s.table]
    if any(not any(crosses(s, gutter) for gutter in before) for s in tables):
        return before
    return gutters


def _column_extents(
    pieces: Sequence[object], count: int, frame: tuple[float, float, float, float]
) -> list[tuple[float, float]]:
    """Each column's extent over the whole page (the page's, when a column is empty): where
    its text starts and ends, a few outliers aside (a wide figure label, a drop cap)."""
    lefts: list[list[float]] = [[] for _ in range(count)]
    rights: list[list[float]] = [[] for _ in range(count)]
    for piece in pieces:
        if not piece or isinstance(piece[0], Segment):  # type: ignore[index]
            continue
        for index, segments in enumerate(piece):  # type: ignore[arg-type]
            for segment in segments:
                lefts[index].append(segment.x0)
                rights[index].append(segment.x1)
    extents = []
    for left, right in zip(lefts, rights, strict=True):
        if left:
            extents.append((percentile(left, 0.05), percentile(right, 0.95)))
        else:
            extents.append((frame[0], frame[2]))
    return extents


def visual_rows(segments: Sequence[Segment]) -> list[list[Segment]]:
    """Segments grouped by baseline, top to bottom: a segment joins the row it overlaps
    vertically by half its height (or the row's), else starts one."""
    rows: list[list[Segment]] = []
    bands: list[tuple[float, float]] = []
    for segment in sorted(segments, key=lambda s: (s.top + s.bottom) / 2):
        if segment.table or (rows and rows[-1][0].table):
            rows.append([segment])  # a table's stand-in is a row of its own
            bands.append((segment.top, segment.bottom))
            continue
        if rows:
            top, bottom = bands[-1]
            overlap = min(bottom, segment.bottom) - max(top, segment.top)
            if overlap >= 0.5 * min(segment.height, bottom - top):
                rows[-1].append(segment)
                bands[-1] = (min(top, segment.top), max(bottom, segment.bottom))
                continue
        rows.append([segment])
        bands.append((segment.top, segment.bottom))
    return rows


def _split_row(row: list[Segment], gutters: Sequence[Gutter]) -> list[list[Segment]] | None:
    """The row's segments by column (:func:`column_of`), or None when one crosses a gutter."""
    columns: list[list[Segment]] = [[] for _ in range(len(gutters) + 1)]
    for segment in row:
        if any(crosses(segment, gutter) for gutter in gutters):
            return None
        columns[column_of(segment, gutters)].append(segment)
    return columns


def column_of(segment: Segment, gutters: Sequence[Gutter]) -> int:
    """The column (0 the leftmost) a segment that crosses no gutter lies in: by its middle,
    but a segment starting inside a gutter past the prose on its left is the next
    column's (a short line indented in that column, ``Sec.`` over a list, whose middle may
    fall short of the gutter's where the next column's prose starts inside it)."""
    return sum(
        1
        for gutter in gutters
        if (segment.x0 + segment.x1) / 2 >= gutter.middle
        or segment.x0 >= max(gutter.x0, gutter.text_end)
    )


_RTL_LETTER = re.compile("[\u0590-\u08ff\ufb1d-\ufeff]")


def reads_right_to_left(segments: Sequence[Segment]) -> bool:
    """Whether most letters of the segments are Hebrew or Arabic (read from the right)."""
    if not any(_RTL_LETTER.search(s.text) for s in segments):
        return False
    letters = [ch for s in segments for ch in s.text if ch.isalpha()]
    rtl = sum(1 for ch in letters if _RTL_LETTER.match(ch))
    return bool(letters) and 2 * rtl > len(letters)


def make_line(
    segments: Sequence[Segment],
    page: int,
    column: int,
    column_x0: float,
    column_x1: float,
    role_of: LineRole | None = None,
) -> Line:
    """One line of ``segments`` (any order), in reading order: left to right, or right to
    left for Hebrew and Arabic; CJK characters set letter-spaced so far apart that each
    is a segment read closed up (``letter_spacing``); its structure role and element those
    of its first segment (``role_of``: a tagged page), a table's stand-in's
    :data:`TABLE_ROLE`."""
    ordered = sorted(segments, key=lambda s: s.x0)
    if len(ordered) == 1 and ordered[0].table:
        stand_in = ordered[0]
        return Line(
            text=stand_in.table,
            x0=stand_in.x0,
            top=stand_in.top,
            x1=stand_in.x1,
            bottom=stand_in.bottom,
            size=stand_in.size,
            bold=False,
            segments=(stand_in,),
            page=page,
            column=column,
            column_x0=column_x0,
            column_x1=column_x1,
            role=TABLE_ROLE,
        )
    if reads_right_to_left(ordered):
        ordered.reverse()
    size = text_size([(s.size, s.text) for s in ordered])
    scripts = script_segments(ordered, size)
    shown = [as_script(s, tag) if tag else s for s, tag in zip(ordered, scripts, strict=True)]
    role, element = role_of(ordered[0]) if role_of is not None else ("", 0)
    return Line(
        text=join_segments(shown),
        x0=min(s.x0 for s in ordered),
        top=min(s.top for s in ordered),
        x1=max(s.x1 for s in ordered),
        bottom=max(s.bottom for s in ordered),
        size=size,
        bold=all(s.bold for s, tag in zip(ordered, scripts, strict=True) if not tag),
        segments=tuple(ordered),
        page=page,
        column=column,
        column_x0=column_x0,
        column_x1=column_x1,
        role=role,
        element=element,
    )
