"""Stage A for PDF: page furniture, the running headers, footers and page numbers.

Input: every page's lines in reading order. Output: the same lines without the furniture.
A line is furniture when it sits in the top or bottom band of its page (:data:`BAND` of the
sheet at its edges) and

- its text, digits written as ``#`` and a page number at either end moved to the end, is
  printed at about the same height on three pages or more, or at one height on odd pages
  and another on even ones (a running header or footer: "Federal Register / Vol. 85 …",
  "Page 3 of 12", a section's title over its pages; "18 REPORT" on left-hand pages and
  "REPORT 19" on right-hand ones are one running footer), or
- its letters are nearly those of a running line at its height, the two together printed
  on half the pages (a scan's running header as text recognition reads it, a letter
  misread here and there: "THE SIEGE OP VICKSBURG", ``repeats.misread_repeats``), or
- it is a bare page number ("12", "- 12 -", "iv", "Page 12", "12 | Report title"), or
- one of its parts set apart by a wide gap is a page number marked by a word ("Page 1 of
  14", "第3页"; a bare number may be a heading's, "3 / 12" a citation's) and the others are
  a few words each: a footer whose other part is printed on one page only (a first page's
  "Page 1 of 14    Template: August 23, 2017" where the later pages print "Page 2 of 14"
  alone) repeats on no other page.

A page printed small in the middle of the sheet (a journal's or a register's page set on a
letter sheet) prints its running lines outside those bands, at the edge of its print: there
a line is furniture when it is its page's first or last row, at the height where half the
pages begin or end their print, set apart from the text by half a line, and its text, as
printed, runs through the document (on half the pages of one parity at least). Body text
begins there on every page, so the evidence asked is stronger: no digits set aside but
those of a page number alone (a book's numbers printed under its text, above the band), no
title that opens a few pages, no line a tagged document's structure holds. Such a running
line printed a little higher on some pages, inside the band, is furniture there too.

A running header of such pages may carry the number of the section its page holds at the
other end of its row ("Drug Enforcement Administration, Justice    § 1308.11"): the row is
furniture when one of its parts set apart by a wide gap, a title of some words, runs
through the document so and the others are short numbers or labels with a digit (a
section, a page); a line of such a label alone, in the row of a running line (the row
read as two lines over two columns), goes with it. A numbered heading opening each page
with its number set apart ("3.    Handling the brine") has no title that runs through.

A ruled box that holds a running header (a banner with the document's title, printed
on every page) was read as a table: its stand-in line counts by the text of its cells when
the table is laid out as text lines (``tables``: no data table, which keeps its place and
its record whatever repeats).

A line a bookmark points at (on its page, at its height or at none, with its title) is a
heading, never furniture: a section that starts each chapter on a new page ("Exercises"),
and numbered sections opening pages ("9.4 Rationale …", "10.4 Rationale …"), repeat.

Text repeated in the middle of pages (a table's header row on every page of a long table)
is not in the bands and is kept, and so are a data table at the top or foot of pages and a
paragraph's last line in a band, at its spacing under the same line wherever it repeats (a
note box at the pages' foot). A one-page document has no running lines; its page number goes.

Running lines frame the text of their pages: a running line whose pages hold no other text
(a document that prints one line on every page) is that text, kept once, on its first page.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence

from lightrag_pchunk.pdf.bookmark_match import MATCH_SIMILARITY, line_top, points_at
from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line
from lightrag_pchunk.pdf.outline import Bookmark, normalise, similarity
from lightrag_pchunk.pdf.page_sequence import page_numbered_lines, with_lowest_numbers
from lightrag_pchunk.pdf.printed_edges import at_printed_edge, printed_edges
from lightrag_pchunk.pdf.printed_paragraph import ROMAN_PAGE
from lightrag_pchunk.pdf.repeats import (
    RUNNING_PAGES,
    as_printed,
    misread_repeats,
    repeats_on_facing_pages,
    runs_through,
)
from lightrag_pchunk.pdf.scripts import SCRIPT_SIZE

#: The bands, as a share of the page's height from its top and bottom edges.
BAND = 0.09
#: Words of a running label printed beside a running title ("§ 1308.11", "Chapter 3").
RUNNING_LABEL_WORDS = 3
#: Lines of one printed row: their tops within this many points.
ROW_TOLERANCE = 2.0
#: Words of a part printed beside a page number in a footer ("Template: August 23, 2017").
FOOTER_PART_WORDS = 6
#: A mark set small beside a line's text stands this many of the text's ems from it at most.
MARK_GAP_EMS = 2.0
_DIGITS = re.compile(r"\d+")
#: A page number at the start or end of a running line (its side alternates on facing pages).
_END_NUMBER = re.compile(r"^(?:#[\s|.·•]*)+(?=\S)|(?<=\S)(?:[\s|.·•]*#)+$")
_SPACES = re.compile(r"\s+")
_ROMAN_PAGE = re.compile(ROMAN_PAGE)
#: A page number marked by a word: "Page 3", "3 of 12", "第3页".
_MARKED_PAGE_NUMBER = re.compile(r"(?:\bpage\b|\bpg\b|\bp\.|\bof\b|页|第|共)", re.IGNORECASE)
_PAGE_NUMBER = re.compile(
    r"^[\s\-–—|.·•]*(?:(?:page|p\.|pg\.?|页|第)\s*)?"
    rf"(?:\d{{1,4}}|(?-i:{ROMAN_PAGE}|{ROMAN_PAGE.upper()}))"
    r"(?:\s*(?:of|/|页|共)\s*\d{1,4})?\s*页?[\s\-–—|.·•]*$",
    re.IGNORECASE,
)


def furniture_key(text: str) -> str:
    """The text a running line keeps from page to page: lower case, digits (and a
    lower-case roman page number at either end) as ``#``, spaces collapsed, a number at
    either end written once at the end (a line without one stays apart: a footnote
    repeated on a few pages is no running footer)."""
    words = text.split()
    for end in {0, len(words) - 1} if words else ():
        if _ROMAN_PAGE.fullmatch(words[end]):  # "Annual Report    iv" on front matter
            words[end] = "#"
    text = " ".join(words)
    key = _SPACES.sub(" ", _DIGITS.sub("#", text.lower())).strip()
    bare = _END_NUMBER.sub("", key).strip()
    return f"{bare} #" if bare != key else key


def is_page_number(text: str) -> bool:
    """A page number alone, or with "Page", "of N", dashes or a bar around it: arabic, or
    roman as :data:`~.paragraphs.PAGE_NUMBER` reads it (well formed, in one case), so a
    word of roman letters ending a paragraph low on a page ("did.", "civil.") stays text."""
    return bool(_PAGE_NUMBER.match(text.strip())) and any(ch.isalnum() for ch in text)


def drop_furniture(
    pages: Sequence[Sequence[Line]],
    frames: Sequence[tuple[float, float, float, float]],
    bookmarks: Sequence[Bookmark] = (),
    laid_out: Mapping[str, str] | None = None,
) -> list[list[Line]]:
    """``pages`` without their running headers, footers and page numbers (the lines
    ``bookmarks`` point at kept). ``laid_out``: the text of each table laid out as text
    lines, by its key (a table's line counts by it; any other table is never furniture)."""
    pointed: dict[int, list[Bookmark]] = defaultdict(list)
    for bookmark in bookmarks:
        if bookmark.page is not None:
            pointed[bookmark.page].append(bookmark)
    inners = [
        [line for line in lines if not in_sheet_band(line, frame)]
        for lines, frame in zip(pages, frames, strict=True)
    ]
    edges = printed_edges(inners, frames)
    # Each page's lines in its bands: (line, its text, whether in the sheet's band).
    banded: list[list[tuple[Line, str, bool]]] = []
    for lines, inner, frame in zip(pages, inners, frames, strict=True):
        banded.append(
            [
                (line, text, sheet)
                for line in lines
                if (
                    (sheet := in_sheet_band(line, frame))
                    or at_printed_edge(line, inner, frame, edges)
                )
                and (text := _printed_text(line, laid_out or {})) is not None
            ]
        )
    # Where each key appears in the sheet's bands, and at the printed edge: (page index,
    # height of its line); neither counts the other's (a heading that opens a few pages
    # makes no running footer of a line of the contents that reads the same).
    seen: dict[tuple[str, bool], list[tuple[int, float]]] = defaultdict(list)
    titles: dict[str, list[tuple[int, float]]] = defaultdict(list)  # at the printed edge
    aboves: dict[tuple[str, bool], set[str]] = defaultdict(set)  # see _text_above
    keys: dict[int, tuple[str, bool]] = {}  # each line's place key, by its id
    for index, edge in enumerate(banded):
        for line, text, sheet in edge:
            keys[id(line)] = key = _place_key(text, sheet)
            seen[key].append((index, line.top))
            aboves[key].add(_text_above(line, inners[index]) if sheet else "")
            if not sheet:
                for title in _running_titles(line):
                    titles[title].append((index, line.top))
    boxed = {key for key, found in aboves.items() if len(found) == 1 and "" not in found}
    # A scan's running line, its letters read differently on some pages.
    in_bands = [
        (index, line, text) for index, e in enumerate(banded) for line, text, sheet in e if sheet
    ]
    found = misread_repeats([(index, line.top, text) for index, line, text in in_bands], len(pages))
    misread = {id(in_bands[k][1]) for k in found}
    bands, lowest = with_lowest_numbers(pages, [[ln for ln, _, s in e if s] for e in banded])
    numbered, marked = page_numbered_lines(pages, bands)
    dropped: list[set[int]] = []
    count = len(pages)
    for index, (lines, edge) in enumerate(zip(pages, banded, strict=True)):
        furniture = {
            id(line)
            for line, text, sheet in edge
            if keys[id(line)] not in boxed
            if _is_furniture(text, sheet, seen[keys[id(line)]], index, line.top, count)
            # In the band: the running line of the pages that print it just below the band.
            or (sheet and runs_through(seen.get(_place_key(text, False), ()), line.top, count))
            or (not sheet and _is_titled_row(line, titles, count))
            or (sheet and (_is_numbered_footer(line) or id(line) in misread))
            or id(line) in numbered[index]
        }
        furniture |= {id(lowest[index])} & numbered[index]  # by the sequence alone
        furniture |= _labels_beside(edge, furniture)
        furniture -= {id(line) for line, *_ in edge if _is_pointed_at(line, pointed[line.page])}
        dropped.append(_marks_with_their_text(lines, edge, furniture))
    texts = {id(line): text for edge in banded for line, text, _ in edge}
    alone = _alone_on_their_pages(pages, dropped, texts)
    return [
        [
            marks.get(id(line), line)
            for line in lines
            if id(line) not in furniture or id(line) in alone
        ]
        for lines, furniture, marks in zip(pages, dropped, marked, strict=True)
    ]


def _alone_on_their_pages(
    pages: Sequence[Sequence[Line]], dropped: Sequence[set[int]], texts: Mapping[int, str]
) -> set[int]:
    """The ids of the running lines of ``pages`` (``dropped``: each page's furniture, its
    ``texts`` as :func:`drop_furniture` read them, by the line's id) kept as text, once: a
    running line (by :func:`furniture_key`) whose pages hold no other text is the text of
    those pages, not furniture framing it (a document that prints one line on every page,
    a set of plates titled alike). Its first line stays, on its page: the same
    words again on each page would add nothing a reader or a search needs. A page number
    alone holds no words and goes."""
    firsts: dict[str, Line] = {}
    pages_of: dict[str, set[int]] = defaultdict(set)
    bodied: set[int] = set()
    for index, (lines, furniture) in enumerate(zip(pages, dropped, strict=True)):
        for line in lines:
            if id(line) not in furniture:
                bodied.add(index)
            elif not is_page_number(text := texts.get(id(line)) or line.text):
                firsts.setdefault(key := furniture_key(text), line)
                pages_of[key].add(index)
    return {id(line) for key, line in firsts.items() if not pages_of[key] & bodied}


def _text_above(line: Line, inner: Sequence[Line]) -> str:
    """The text of the line of ``inner`` (inside the sheet's bands) ``line`` stands under in
    its column and size, closer than half a line ("": none). Under the same text wherever it
    repeats, it ends a note box printed again (a running footer follows other lines)."""
    near = (o for o in inner if o.column == line.column and abs(o.size - line.size) <= 0.5)
    return next((o.text for o in near if 0 <= line.top - o.bottom < line.height / 2), "")


def _is_numbered_footer(line: Line) -> bool:
    """Whether ``line`` (in the sheet's band) prints a page number marked by a word ("Page
    1 of 14") as one of its parts set apart by a wide gap, beside parts of
    :data:`FOOTER_PART_WORDS` words at most: a footer, though its other parts are printed
    on this page only. A table's row is never one."""
    parts = line.segments
    if len(parts) < 2 or any(part.table for part in parts):
        return False
    numbers = [part for part in parts if _is_marked_page_number(part.text)]
    return len(numbers) == 1 and all(
        len(part.text.split()) <= FOOTER_PART_WORDS for part in parts if part is not numbers[0]
    )


def _is_marked_page_number(text: str) -> bool:
    """Whether ``text`` is a page number marked by a word ("Page 3", "3 of 12")."""
    return is_page_number(text) and bool(_MARKED_PAGE_NUMBER.search(text))


def _running_titles(line: Line) -> list[str]:
    """The parts of a line at the printed edge that may be a running header's title: its
    whole text, and where labels are set apart from the rest by a wide gap (segments of
    their own, each short and holding a digit), the rest, printed together."""
    whole = as_printed(line.text)
    if any(segment.table for segment in line.segments):
        return []
    rest = [s.text for s in line.segments if not _is_running_label(s.text)]
    if len(rest) == 1 and len(rest) < len(line.segments) and _is_title(rest[0]):
        return [whole, as_printed(rest[0])]
    return [whole] if _is_title(line.text) else []


def _is_running_label(text: str) -> bool:
    """A section's or page's number as a running header prints it: "§ 1308.11", "Pt. 1308",
    "81", "Chapter 3" (a few words, one holding a digit)."""
    words = text.split()
    return 0 < len(words) <= RUNNING_LABEL_WORDS and any(ch.isdigit() for ch in text)


def _is_title(text: str) -> bool:
    """Text that can title a document's running header: some words, not a label."""
    return len(text.split()) >= 2 and not _is_running_label(text)


def _is_titled_row(line: Line, titles: Mapping[str, list[tuple[int, float]]], pages: int) -> bool:
    """Whether ``line``, at the printed edge, is a running title with labels beside it (or
    alone): its title part runs through the document (:func:`runs_through`)."""
    found = _running_titles(line)  # the title part last
    return bool(found) and runs_through(titles[found[-1]], line.top, pages)


def _marks_with_their_text(
    lines: Sequence[Line], edge: Sequence[tuple[Line, str, bool]], furniture: set[int]
) -> set[int]:
    """``furniture`` (ids of a page's ``lines``, of its ``edge``) with each small mark of
    the edge going as the text it marks goes: a word set at most ``SCRIPT_SIZE`` of the
    size of a line it shares its row with, within :data:`MARK_GAP_EMS` of that line's end
    or start (a subscript lowered out of its line: "CO" and its "2" read as two lines) is
    that line's, a page number only where the line beside it is furniture."""
    kept = set(furniture)
    for line, text, _ in edge:
        if " " in text.strip():
            continue
        marked = next((other for other in lines if _marks(line, other)), None)
        if marked is not None:
            kept.discard(id(line))
            if id(marked) in furniture:
                kept.add(id(line))
    return kept


def _marks(mark: Line, line: Line) -> bool:
    """Whether ``mark`` is set small beside ``line``'s text, in its row
    (:func:`_marks_with_their_text`)."""
    if mark is line or line.role == TABLE_ROLE or mark.size > SCRIPT_SIZE * line.size:
        return False
    in_row = mark.top < line.bottom and line.top < mark.bottom
    gap = max(mark.x0 - line.x1, line.x0 - mark.x1)
    return in_row and gap <= MARK_GAP_EMS * line.size


def _labels_beside(edge: Sequence[tuple[Line, str, bool]], furniture: set[int]) -> set[int]:
    """The lines of running labels alone at the printed edge of a page whose running line
    (in ``furniture``) is printed in their row: a header row read as two lines."""
    rows = [line for line, _, sheet in edge if not sheet and id(line) in furniture]
    return {
        id(line)
        for line, text, sheet in edge
        if not sheet
        and _is_running_label(text)
        and any(abs(line.top - row.top) <= ROW_TOLERANCE for row in rows)
    }


def _place_key(text: str, sheet: bool) -> tuple[str, bool]:
    """How a line's text is matched with the others of its kind of place: in the sheet's
    bands by :func:`furniture_key` (a page number, a date may change); at the printed
    edge, where each page's body text begins, as printed (lower case, spaces collapsed): a
    numbered heading opening each page ("1 Results of run 1", "2 Results of run 2") is
    no running line. A page number alone is matched by its look there too: a book's page
    numbers printed under its text, above the sheet's band, are one running line."""
    printed = sheet or is_page_number(text)
    return (furniture_key(text) if printed else as_printed(text)), sheet


def in_sheet_band(line: Line, frame: tuple[float, float, float, float]) -> bool:
    """Whether ``line`` sits in the top or bottom :data:`BAND` of its sheet."""
    top, bottom = frame[1], frame[3]
    band = BAND * (bottom - top)
    return line.top < top + band or line.bottom > bottom - band


def _is_furniture(
    text: str,
    sheet: bool,
    places: Sequence[tuple[int, float]],
    page: int,
    top: float,
    pages: int,
) -> bool:
    """Whether a line of ``text`` printed at ``top`` on page index ``page`` of ``pages``,
    in the sheet's band (``sheet``) or else at the printed edge, is furniture: ``places``
    are where its key is printed in the same kind of place. In the sheet's band a page
    number, or a line printed on three pages (a section's running title lasts a few pages;
    a two-page document needs both); at the printed edge, where each page's body text
    begins, a line that runs through the document (:func:`runs_through`)."""
    if not sheet:
        return runs_through(places, top, pages)
    if is_page_number(text):
        return True
    needed = min(RUNNING_PAGES, pages)  # a two-page document: both pages
    return pages > 1 and repeats_on_facing_pages(places, page, top, needed)


def _is_pointed_at(line: Line, bookmarks: Sequence[Bookmark]) -> bool:
    """Whether one of ``bookmarks`` (of the line's page) points at ``line``, or at its page
    with no height (a view that fits the page's width), and reads as its text: a section
    opening its page at the height others do ("10.4 Rationale for the recommendations",
    as "9.4 …" opens another page) is no running header."""
    if not bookmarks or not line.segments:
        return False
    top = line_top(line)
    text = normalise(line.text)
    return any(
        (bookmark.y is None or points_at(bookmark.y, top))
        and similarity(normalise(bookmark.title), text) >= MATCH_SIMILARITY
        for bookmark in bookmarks
    )


def _printed_text(line: Line, laid_out: Mapping[str, str]) -> str | None:
    """The text ``line`` prints: its own, or for a table's stand-in (whose text is the
    table's key, "table-7") the text of a table laid out as lines; None for a data table."""
    table = next((segment.table for segment in line.segments if segment.table), "")
    if not table:
        return line.text
    return laid_out.get(table)
