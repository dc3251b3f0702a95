"""Stage A for PDF: a printed table of contents as the document's stated outline.

A PDF without bookmarks or tags often still prints its outline: a table of contents whose
entries name the headings, indented by level, with their page numbers. Its entries are read
as bookmarks (title and level, no page: printed page numbers are not PDFium's page indexes)
and matched, in order, to the paragraphs after the table of contents, as bookmarks are.

Input: the document's paragraphs. Output: :class:`~lightrag_pchunk.pdf.outline.Bookmark` s
and the index of the first paragraph after the table of contents. Entries that cannot be
headings (a list of figures or tables: captions) are left out.

While the pages are read, a page's lines give the titles its table of contents lists
(:func:`listed_titles`): the pages after it lay some sections out in boxes, which the
table finder tells from tables by the titles they open with, as it does by bookmarks.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from lightrag_pchunk.model import MAX_HEADING_LEVEL
from lightrag_pchunk.outline.lines import heading_text
from lightrag_pchunk.outline.numbering import levels_from_numbering, parse_label
from lightrag_pchunk.outline.page_references import is_toc_line, strip_page_reference
from lightrag_pchunk.outline.toc import is_column_headings, is_toc_title, literal_toc_runs
from lightrag_pchunk.pdf.outline import Bookmark, normalise
from lightrag_pchunk.pdf.printed_paragraph import SIZE_TOLERANCE, PrintedParagraph

#: Entries indented within this many points of each other are one level.
INDENT_TOLERANCE = 4.0
#: Fewest usable entries that make a printed table of contents an outline.
MIN_ENTRIES = 3


def toc_bookmarks(found: Sequence[PrintedParagraph]) -> tuple[list[Bookmark], int]:
    """The entries of the document's printed tables of contents as bookmarks (``page`` None),
    and the index of the first paragraph after the last one (0 when there is none)."""
    texts = [p.text if len(p.text) <= 300 else "" for p in found]
    entries: list[PrintedParagraph] = []
    after = 0
    for start, end in literal_toc_runs(texts):
        for paragraph in found[start:end]:
            if is_toc_title(paragraph.text) or is_column_headings(paragraph.text):
                continue
            if _entry_title(paragraph.text):
                entries.append(paragraph)
        after = max(after, end)
    if len(entries) < MIN_ENTRIES:
        return [], 0
    titles = [" ".join(strip_page_reference(p.text).split()) for p in entries]
    shifts = _page_shifts(entries)
    indents = [p.lines[0].x0 - shifts[p.lines[0].page] for p in entries]
    levels = _levels(indents, titles, [p.lines[0].size for p in entries])
    return [Bookmark(t, level, None) for t, level in zip(titles, levels, strict=True)], after


def listed_titles(texts: Sequence[str]) -> frozenset[str]:
    """The titles, normalised, of the entries with a page number of the printed tables of
    contents among ``texts`` (a page's lines in reading order)."""
    titles = set()
    for start, end in literal_toc_runs(texts):
        for text in texts[start:end]:
            if is_toc_line(text) and (title := _entry_title(text)):
                titles.add(normalise(title))
    return frozenset(titles - {""})


def _entry_title(text: str) -> str:
    """A table of contents entry's title, its page reference stripped, or "" when it
    can title no section."""
    title = strip_page_reference(text).strip()
    if title and heading_text(title, markdown=False, lowercase=True) is not None:
        return title
    return ""


def _page_shifts(entries: Sequence[PrintedParagraph]) -> dict[int, float]:
    """How far right of the contents' first page each of its pages sets its entries: a book
    sets its left and right pages' margins apart, so a contents over facing pages moves
    every entry by the difference. A page is shifted only where two looks of entry (size
    and weight: a chapter's and a section's) both moved by one distance; one look that
    moved may be a page of deeper entries alone."""
    looks_at: dict[tuple[int, bool], float] = {}  # each look's indentation, first page's frame
    shifts: dict[int, float] = {}
    for page, on_page in itertools.groupby(entries, key=lambda p: p.lines[0].page):
        lefts: dict[tuple[int, bool], float] = {}
        for entry in on_page:
            first = entry.lines[0]
            look = (round(first.size), first.bold)
            lefts[look] = min(lefts.get(look, first.x0), first.x0)
        moves = [left - looks_at[look] for look, left in lefts.items() if look in looks_at]
        moved = (
            len(moves) >= 2
            and max(moves) - min(moves) <= INDENT_TOLERANCE
            and abs(moves[0]) > INDENT_TOLERANCE
        )
        shifts[page] = moves[0] if moved else 0.0
        for look, left in lefts.items():
            looks_at.setdefault(look, left - shifts[page])
    return shifts


def _levels(indents: Sequence[float], titles: Sequence[str], sizes: Sequence[float]) -> list[int]:
    """Each entry's level: its indentation's rank (a decimal entry below the entry its
    number names as its parent, however the table indents it: a deep level set at its
    parent's indentation), or, where every entry starts at one indentation, what their
    numbering says, or where it says nothing the rank of their type's size (a contents
    setting its chapters larger than their sections; 1 when all are set alike)."""
    levels = _ranks(indents, INDENT_TOLERANCE)
    if max(levels) > 1:
        return _below_decimal_parents(levels, titles)
    numbered = levels_from_numbering(list(titles))
    if numbered:
        return [min(level, MAX_HEADING_LEVEL) for level in numbered]
    return _ranks([-size for size in sizes], SIZE_TOLERANCE)  # the largest size first


def _ranks(values: Sequence[float], tolerance: float) -> list[int]:
    """Each value's rank (1 up) among the steps of ``values``, smallest first: a value
    more than ``tolerance`` above the step below it starts a step, one within it is on it."""
    steps: list[float] = []
    for value in sorted(values):
        if not steps or value - steps[-1] > tolerance:
            steps.append(value)
    return [
        min(next(i for i, s in enumerate(steps) if value - s <= tolerance) + 1, MAX_HEADING_LEVEL)
        for value in values
    ]


def _below_decimal_parents(levels: list[int], titles: Sequence[str]) -> list[int]:
    """``levels`` with each decimal entry at least one level below the entry its number
    names as its parent ("3.2.1" below "3.2", where the table indents them alike)."""
    parents: dict[tuple[int, ...], int] = {}
    for index, title in enumerate(titles):
        label = parse_label(title)
        if label is None or label.family != "decimal":
            continue
        parent = parents.get(label.ordinals[:-1])
        if parent is not None and levels[index] <= parent:
            levels[index] = min(parent + 1, MAX_HEADING_LEVEL)
        parents[label.ordinals] = levels[index]
    return levels
