"""Stage A for PDF: what a document says about its own outline, in order of trust.

1. The tagged structure tree (a tagged PDF, :mod:`~lightrag_pchunk.pdf.structure_tree`):
   heading elements give headings at their level (the classifier adds a numbered heading
   the tags left as text that continues their series, and reads long stretches without
   one).
2. Bookmarks: each entry is matched to the paragraph it names on the page it points at
   (:mod:`~lightrag_pchunk.pdf.bookmark_match`); a matched paragraph becomes a heading at
   the bookmark's depth, or, where every bookmark stands at one depth and their titles are
   numbered, at the depth their numbering gives (a flat list exported from headings whose
   styles set no outline level: "一、", "1、", "（1）" all at the top).
3. Otherwise the shared heading classifier decides from size, weight and numbering
   (``parse.outline_build.build_blocks``, as for a Word document without styles).

Input: the open document. Output: :class:`Outline`, the document's bookmarks, and how
titles and printed lines are compared (:func:`normalise`, :func:`similarity`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import pypdfium2 as pdfium

from lightrag_pchunk.outline.labels import Label, parse_label
from lightrag_pchunk.outline.numbering import levels_from_numbering
from lightrag_pchunk.pdf.scripts import without_tags
from lightrag_pchunk.pdf.structure_tree import OutlineMarks

_NOT_WORD = re.compile(r"[\W_]+")
#: Deepest bookmark level read (PDFium's reader stops a cycle; this bounds a deep tree).
_MAX_BOOKMARK_DEPTH = 9


@dataclass(frozen=True, slots=True)
class Bookmark:
    """One entry of the document's outline: its title, depth (1 = top) and 1-based page
    (None for an entry of a printed table of contents: it is looked for in order), and the
    height on the page it points at (user space; None when it names none)."""

    title: str
    level: int
    page: int | None
    y: float | None = None


@dataclass
class Outline:
    """The outline a document states: ``source`` says which (``"tagged"``, ``"bookmarks"``,
    ``"toc"`` for its printed table of contents, or ``"inferred"`` when none gives
    headings); ``warnings`` for the user; ``framed``: how many bookmarks were left out as
    naming a frame's title (``framed_titles``: a table's cell)."""

    source: str
    bookmarks: list[Bookmark] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    framed: int = 0


def read_bookmarks(document: pdfium.PdfDocument) -> list[Bookmark]:
    """The document's bookmarks that name a page, in order."""
    bookmarks: list[Bookmark] = []
    for item in document.get_toc(max_depth=_MAX_BOOKMARK_DEPTH):
        title = " ".join((item.get_title() or "").split())
        target = item.get_dest()
        page = target.get_index() if target is not None else None
        if title and page is not None:
            bookmarks.append(Bookmark(title, item.level + 1, page + 1, _view_top(target)))
    return _levelled(bookmarks)


def _levelled(bookmarks: list[Bookmark]) -> list[Bookmark]:
    """``bookmarks`` at the depths their numbering gives when they all stand at one depth
    (:func:`levels_from_numbering`: more than one numbered, at least half of them), else
    as they are: a flat list names every heading as a chapter, its numbers tell them
    apart."""
    if len(bookmarks) < 2 or len({bookmark.level for bookmark in bookmarks}) != 1:
        return bookmarks
    titles = [bookmark.title for bookmark in bookmarks]
    levels = levels_from_numbering(titles)
    if levels is None:
        return bookmarks
    levels = _parents_left_out(titles, levels)
    top = bookmarks[0].level - 1
    return [
        replace(bookmark, level=top + level)
        for bookmark, level in zip(bookmarks, levels, strict=True)
    ]


def _parents_left_out(titles: Sequence[str], levels: list[int]) -> list[int]:
    """``levels`` with a series that numbers again from its first under one heading raised
    to that heading's level, and the headings under it with it, up to the next heading as
    high as the series' was: the list left out the heading the new run belongs to ("1、"
    after "5、" under "十、", where a chapter's "十一、" has no bookmark), so the one
    over it is not its parent; the heading above that one is."""
    out: list[int] = []
    last: dict[int, Label] = {}  # the label read last at each level under its parent
    raised_from = 0  # the level of the raised run's first heading (0: none raised)
    for title, level in zip(titles, levels, strict=True):
        if level < raised_from:
            raised_from = 0
        label = parse_label(title)
        before = last.get(level)
        if (
            label is not None
            and before is not None
            and level > 1
            and (label.family, label.depth) == (before.family, before.depth)
            and label.ordinals[-1] == 1
        ):
            raised_from = raised_from or level
        for deeper in [at for at in last if at > level]:
            del last[deeper]
        if label is not None:
            last[level] = label
        out.append(level - 1 if raised_from and level >= raised_from else level)
    return out


def titles_by_page(bookmarks: Sequence[Bookmark]) -> dict[int, frozenset[str]]:
    """Each page's bookmarked titles, normalised (:func:`normalise`)."""
    found: dict[int, set[str]] = {}
    for bookmark in bookmarks:
        if bookmark.page is not None and (title := normalise(bookmark.title)):
            found.setdefault(bookmark.page, set()).add(title)
    return {page: frozenset(titles) for page, titles in found.items()}


def document_outline(marks: OutlineMarks, bookmarks: list[Bookmark]) -> Outline:
    """Which outline the document states (see the module doc), its pages' structure
    roles read into ``marks``."""
    if marks.tagged and marks.heading_lines:
        return Outline("tagged")
    return Outline("bookmarks" if bookmarks else "inferred", bookmarks)


#: PDFium's view modes whose position names a height: XYZ [left, top, zoom], FitH and
#: FitBH [top], FitR [left, bottom, right, top].
_VIEW_TOP = {1: 1, 3: 0, 7: 0, 5: 3}


def _view_top(target: object) -> float | None:
    mode, position = target.get_view()  # type: ignore[attr-defined]
    at = _VIEW_TOP.get(mode)
    return float(position[at]) if at is not None and at < len(position) else None


# Each bookmark's title is compared with the opening lines of every paragraph on its page:
# a line is normalised once.
@lru_cache(maxsize=4096)
def normalise(text: str) -> str:
    """Lower-case letters and digits only, a superscript's tags left out: how titles and
    printed lines are compared."""
    return _NOT_WORD.sub("", without_tags(text).lower())


def similarity(a: str, b: str) -> float:
    """Dice coefficient of the two texts' character pairs (1.0 for equal texts)."""
    if a == b:
        return 1.0
    if len(a) < 2 or len(b) < 2:
        return 0.0
    pairs_a = Counter(a[i : i + 2] for i in range(len(a) - 1))
    pairs_b = Counter(b[i : i + 2] for i in range(len(b) - 1))
    shared = sum((pairs_a & pairs_b).values())
    return 2 * shared / (len(a) - 1 + len(b) - 1)
