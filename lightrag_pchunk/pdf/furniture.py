"""Stage A for PDF: page furniture, the running headers, footers and page numbers.

Input: every page's lines in reading order. Output: the same lines without the furniture.
A line is furniture when it sits in the top or bottom band of its page and

- its text, digits written as ``#`` and a page number at either end moved to the end, is
  printed at about the same height on three pages or more, or at one height on odd pages
  and another on even ones (a running header or footer: "Federal Register / Vol. 85 …",
  "Page 3 of 12", a section's title over its pages; "18 REPORT" on left-hand pages and
  "REPORT 19" on right-hand ones are one running footer), or
- it is a bare page number ("12", "- 12 -", "iv", "Page 12", "12 | Report title").

A line a bookmark points at (on its page, at its height, with its title) is a heading, never
furniture: a section that starts each chapter on a new page ("Exercises") prints its title
at the same height on many pages.

Text repeated in the middle of pages (a table's header row on every page of a long table)
is not in the bands and is kept, and so is a table at the top or foot of pages. A document
of one page has no running lines to recognise; its bare page number still goes.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from lightrag_pchunk.pdf.bookmark_match import MATCH_SIMILARITY, POINTED_LINE
from lightrag_pchunk.pdf.layout import Line
from lightrag_pchunk.pdf.outline import Bookmark, normalise, similarity

#: The bands, as a share of the page's height from its top and bottom edges.
BAND = 0.09
#: "About the same height": within this many points.
HEIGHT_TOLERANCE = 6.0
_DIGITS = re.compile(r"\d+")
#: A page number at the start or end of a running line (its side alternates on facing pages).
_END_NUMBER = re.compile(r"^(?:#[\s|.·•]*)+(?=\S)|(?<=\S)(?:[\s|.·•]*#)+$")
_SPACES = re.compile(r"\s+")
_PAGE_NUMBER = re.compile(
    r"^[\s\-–—|.·•]*(?:(?:page|p\.|pg\.?|页|第)\s*)?"
    r"(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s*(?:of|/|页|共)\s*\d{1,4})?\s*页?[\s\-–—|.·•]*$",
    re.IGNORECASE,
)


def furniture_key(text: str) -> str:
    """The text a running line keeps from page to page: lower case, digits as ``#``,
    spaces collapsed, a number at either end written once at the end (a line without
    one stays apart: a footnote repeated on a few pages is no running footer)."""
    key = _SPACES.sub(" ", _DIGITS.sub("#", text.lower())).strip()
    bare = _END_NUMBER.sub("", key).strip()
    return f"{bare} #" if bare != key else key


def is_page_number(text: str) -> bool:
    """A page number alone, or with "Page", "of N", dashes or a bar around it."""
    return bool(_PAGE_NUMBER.match(text.strip())) and any(ch.isalnum() for ch in text)


def drop_furniture(
    pages: Sequence[Sequence[Line]],
    frames: Sequence[tuple[float, float, float, float]],
    bookmarks: Sequence[Bookmark] = (),
) -> list[list[Line]]:
    """``pages`` without their running headers, footers and page numbers (the lines
    ``bookmarks`` point at kept)."""
    pointed: dict[int, list[Bookmark]] = defaultdict(list)
    for bookmark in bookmarks:
        if bookmark.page is not None and bookmark.y is not None:
            pointed[bookmark.page].append(bookmark)
    banded: list[list[tuple[Line, str]]] = []
    for lines, frame in zip(pages, frames, strict=True):
        top, bottom = frame[1], frame[3]
        band = BAND * (bottom - top)
        edge = [
            line
            for line in lines
            if (line.top < top + band or line.bottom > bottom - band) and not _is_table(line)
        ]
        banded.append([(line, furniture_key(line.text)) for line in edge])
    # Where each key appears: (page index, height of its line).
    seen: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for index, edge in enumerate(banded):
        for line, key in edge:
            seen[key].append((index, line.top))
    # Three pages make a running line (a section's running title lasts a few pages); a
    # two-page document needs both.
    needed = 3 if len(pages) > 2 else 2
    kept: list[list[Line]] = []
    for index, (lines, edge) in enumerate(zip(pages, banded, strict=True)):
        furniture = {
            id(line)
            for line, key in edge
            if is_page_number(line.text)
            or (len(pages) > 1 and repeats_on_facing_pages(seen[key], index, line.top, needed))
        }
        furniture -= {id(line) for line, _ in edge if _is_pointed_at(line, pointed[line.page])}
        kept.append([line for line in lines if id(line) not in furniture])
    return kept


def _is_pointed_at(line: Line, bookmarks: Sequence[Bookmark]) -> bool:
    """Whether one of ``bookmarks`` (of the line's page) points at ``line`` and reads as
    its text."""
    if not bookmarks or not line.segments:
        return False
    top = max(segment.bbox[3] for segment in line.segments)
    text = normalise(line.text)
    return any(
        -2 <= bookmark.y - top <= POINTED_LINE  # type: ignore[operator]
        and similarity(normalise(bookmark.title), text) >= MATCH_SIMILARITY
        for bookmark in bookmarks
    )


def _is_table(line: Line) -> bool:
    """Whether the line stands for a table: its text is the table's key ("table-7"), the
    same but for its number on every page, never a running line."""
    return any(segment.table for segment in line.segments)


def repeats_at(places: Sequence[tuple[int, float]], top: float, needed: float) -> bool:
    """Whether ``places`` (page, height) put a text at about ``top`` on ``needed`` pages or
    more."""
    return _pages_at(places, top) >= needed


def repeats_on_facing_pages(
    places: Sequence[tuple[int, float]], page: int, top: float, needed: float
) -> bool:
    """Whether ``places`` (page index, height) put a text at about ``top`` on ``needed``
    pages or more, or at about ``top`` on the pages of ``page``'s parity and at about one
    height on the others, each parity holding half the ``needed`` pages: the running line
    of facing pages may sit at one height on left-hand pages and at another on right-hand
    ones (a header 14 pt higher on odd pages). A line printed once where the running line
    is printed on the other pages (a table of contents' entry reading as a chapter's
    running header, a title page's title as the report's) is no running line."""
    if repeats_at(places, top, needed):
        return True
    same = _pages_at([(p, height) for p, height in places if p % 2 == page % 2], top)
    facing = [(p, height) for p, height in places if p % 2 != page % 2]
    across = max((_pages_at(facing, level) for level in {h for _, h in facing}), default=0)
    return min(same, across) >= needed / 2 and same + across >= needed


def _pages_at(places: Sequence[tuple[int, float]], top: float) -> int:
    """How many pages ``places`` (page, height) put a text on at about ``top``."""
    return len({page for page, height in places if abs(height - top) <= HEIGHT_TOLERANCE})
