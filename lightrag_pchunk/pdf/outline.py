"""Stage A for PDF: what a document says about its own outline, in order of trust.

1. The tagged structure tree (a tagged PDF): every line learns the role of the structure
   element its text belongs to (``H1``-``H6``, ``P``, ``TD`` …) and which element that is;
   ``Artifact`` content (running headers, page numbers marked as such) is dropped. Heading
   elements give headings at their level (the classifier adds a numbered heading the
   tags left as text that continues their series, and reads long stretches without one).
2. Bookmarks: each entry is matched to the paragraph it names on the page it points at
   (the same words, or nearly: character-bigram overlap), in document order; a matched
   paragraph becomes a heading at the bookmark's depth.
3. Otherwise the shared heading classifier decides from size, weight and numbering
   (``parse.outline_build.build_blocks``, as for a Word document without styles).

Input: the open document, then its paragraphs. Output: :class:`Outline` and the heading
level of each paragraph that the tree or the bookmarks name.
"""

from __future__ import annotations

import ctypes
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from lightrag_pchunk.outline.lines import is_bullet_item
from lightrag_pchunk.outline.numbering import Label, parse_label
from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line

#: Structure roles that hold a paragraph of their own (a Span or Link inside one belongs
#: to it).
BLOCK_ROLES = frozenset(
    "P H H1 H2 H3 H4 H5 H6 LI Lbl LBody TOCI TD TH Caption Note BlockQuote Title Figure"
    " Formula Code Quote".split()
)
_HEADING_ROLE = re.compile(r"^H([1-6])$")
#: A bookmark matches a paragraph whose text is this similar (Dice over character pairs).
MATCH_SIMILARITY = 0.8
#: Lines of a paragraph a bookmark title may cover (a title wrapped over several lines).
_TITLE_LINES = 4
_NOT_WORD = re.compile(r"[\W_]+")
_BUFFER = ctypes.create_string_buffer(1024)
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
    headings); ``warnings`` for the user."""

    source: str
    bookmarks: list[Bookmark] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class OutlineMarks:
    """The tagged structure tree, read page by page: each line's role and element."""

    def __init__(self, tagged: bool) -> None:
        self.tagged = tagged
        self.heading_lines = 0

    @classmethod
    def read(cls, document: pdfium.PdfDocument) -> OutlineMarks:
        return cls(bool(document.is_tagged()))

    def tag_lines(
        self, page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, lines: list[Line]
    ) -> list[Line]:
        """``lines`` with their structure role and element (tagged documents only);
        artifacts (page furniture marked as such) are left out."""
        if not self.tagged or not lines:
            return lines
        roles = _marked_content_roles(page)
        if not roles:
            return lines
        tagged: list[Line] = []
        for line in lines:
            if line.role == TABLE_ROLE:
                tagged.append(line)  # a table's stand-in keeps its role
                continue
            handle = pdfium_c.FPDFText_GetTextObject(textpage.raw, line.segments[0].first_char)
            if not handle:
                tagged.append(line)
                continue
            mcid = pdfium_c.FPDFPageObj_GetMarkedContentID(handle)
            if mcid < 0:
                if _is_artifact(handle):
                    continue
                tagged.append(line)
                continue
            role, element = roles.get(mcid, ("", 0))
            if _HEADING_ROLE.match(role):
                self.heading_lines += 1
            tagged.append(replace(line, role=role, element=element))
        return tagged


def _marked_content_roles(page: pdfium.PdfPage) -> dict[int, tuple[str, int]]:
    """Each marked-content id of the page -> (role of its paragraph-level element, a key
    of that element unique on the page)."""
    tree = pdfium_c.FPDF_StructTree_GetForPage(page.raw)
    if not tree:
        return {}
    roles: dict[int, tuple[str, int]] = {}
    counter = [0]

    def walk(element: object, role: str, key: int, depth: int) -> None:
        own = _element_type(element)
        if own in BLOCK_ROLES or _HEADING_ROLE.match(own):
            counter[0] += 1
            role, key = own, counter[0]
        # A kid is marked content or an element. PDFium gives the marked content of this
        # page only (an element running over pages holds the ids of other pages' content
        # too, which mean other text there).
        for index in range(pdfium_c.FPDF_StructElement_CountChildren(element)):
            mcid = pdfium_c.FPDF_StructElement_GetChildMarkedContentID(element, index)
            if mcid >= 0:
                roles[mcid] = (role, key)
            elif depth <= 64:  # a hostile tree: deeper elements keep the role found so far
                child = pdfium_c.FPDF_StructElement_GetChildAtIndex(element, index)
                if child:
                    walk(child, role, key, depth + 1)

    try:
        for index in range(pdfium_c.FPDF_StructTree_CountChildren(tree)):
            child = pdfium_c.FPDF_StructTree_GetChildAtIndex(tree, index)
            if child:
                walk(child, "", 0, 0)
    finally:
        pdfium_c.FPDF_StructTree_Close(tree)
    return roles


def _element_type(element: object) -> str:
    length = pdfium_c.FPDF_StructElement_GetType(element, _BUFFER, len(_BUFFER))
    # A slice copies the name alone (``.raw`` would copy the whole buffer, an element).
    return _BUFFER[: max(length - 2, 0)].decode("utf-16-le", "replace")


def _is_artifact(handle: object) -> bool:
    for index in range(pdfium_c.FPDFPageObj_CountMarks(handle)):
        mark = pdfium_c.FPDFPageObj_GetMark(handle, index)
        length = ctypes.c_ulong(0)
        buffer = (ctypes.c_ushort * 64)()
        if mark and pdfium_c.FPDFPageObjMark_GetName(mark, buffer, 128, ctypes.byref(length)):
            name = bytes(buffer)[: max(length.value - 2, 0)].decode("utf-16-le", "replace")
            if name == "Artifact":
                return True
    return False


def read_bookmarks(document: pdfium.PdfDocument) -> list[Bookmark]:
    """The document's bookmarks that name a page, in order."""
    bookmarks: list[Bookmark] = []
    for item in document.get_toc(max_depth=_MAX_BOOKMARK_DEPTH):
        title = " ".join((item.get_title() or "").split())
        target = item.get_dest()
        page = target.get_index() if target is not None else None
        if title and page is not None:
            bookmarks.append(Bookmark(title, item.level + 1, page + 1, _view_top(target)))
    return bookmarks


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


def tagged_levels(roles: Sequence[str]) -> dict[int, int]:
    """Paragraph index -> heading level for the heading roles among ``roles`` (one per
    paragraph), the shallowest role used becoming level 1 (a document tagged from H4 has
    its top headings at H4)."""
    found = {i: int(m.group(1)) for i, role in enumerate(roles) if (m := _HEADING_ROLE.match(role))}
    ranks = {level: rank + 1 for rank, level in enumerate(sorted(set(found.values())))}
    return {index: ranks[level] for index, level in found.items()}


def normalise(text: str) -> str:
    """Lower-case letters and digits only: how titles and printed lines are compared."""
    return _NOT_WORD.sub("", text.lower())


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


@dataclass(frozen=True, slots=True)
class BookmarkMatch:
    """Bookmark ``bookmark`` names the first ``lines`` lines from paragraph ``paragraph``
    on: more lines than it has when the title is printed as several paragraphs ("附 录 A",
    "（资料性附录）", "安全要素关联矩阵", one line each)."""

    bookmark: int
    paragraph: int
    lines: int
    first: int = 0  # the paragraph's line the title starts on


#: An entry of a printed table of contents is looked for among this many paragraphs after
#: the one the entry before it named.
TOC_WINDOW = 400


def match_bookmarks(
    bookmarks: Sequence[Bookmark],
    texts: Sequence[Sequence[str]],
    pages: Sequence[int],
    start: int = 0,
    tops: Sequence[Sequence[float]] | None = None,
) -> list[BookmarkMatch]:
    """Each bookmark matched to a paragraph on its page, in document order, from paragraph
    ``start`` on.

    ``texts`` are each paragraph's line texts (none for a table: no title is looked for in
    it), ``pages`` its first page and ``tops`` the
    height of each of its lines (user space). A title may cover a paragraph's first lines
    only (a heading printed in the body's look runs into the text after it), or run on
    into the paragraphs after it on its page, or start on a later line of a paragraph
    where the bookmark points at that line (a heading set as close to the text before it
    as its lines); with or without its numbering label on either side, but where both
    carry one it is the same ("4.2" never names "4.2.1 Findings"). Of the paragraphs that
    read as the title, the one nearest below the height the bookmark points at wins (a
    running header may repeat the title above it), else the one that reads most alike. A
    bookmark without a page is the first paragraph that reads as it after the last match.
    """
    by_page: dict[int, list[int]] = {}
    for index, page in enumerate(pages):
        by_page.setdefault(page, []).append(index)
    matches: list[BookmarkMatch] = []
    after, resume = start - 1, None  # the last paragraph a title covers, its lines used

    def opening(index: int, first: int = 0) -> list[str]:
        """The lines a title starting at line ``first`` of paragraph ``index`` may cover."""
        lines = list(texts[index][first : first + _TITLE_LINES])
        following = index + 1
        while len(lines) < _TITLE_LINES and following < len(texts):
            if pages[following] != pages[index] or not texts[following]:
                break  # another page, or a table (no lines of text): no title runs on
            lines += texts[following][: _TITLE_LINES - len(lines)]
            following += 1
        return lines

    for number, bookmark in enumerate(bookmarks):
        title = normalise(bookmark.title)
        bare = normalise(_without_label(bookmark.title))
        label = parse_label(bookmark.title)
        if not title:
            continue
        best: tuple[float, int, int, int] | None = None
        if bookmark.page is None:
            for index in range(after + 1, min(after + 1 + TOC_WINDOW, len(texts))):
                if not texts[index]:
                    continue  # a table
                score, lines = _title_score(title, bare, label, opening(index), listed=True)
                if score >= MATCH_SIMILARITY:
                    best = (score, index, lines, 0)
                    break
        else:
            for page in (bookmark.page, bookmark.page + 1):
                for index in by_page.get(page, ()):
                    if index < after or not texts[index] or (index == after and not resume):
                        continue  # before the last match, or a table
                    for first in _title_starts(bookmark, tops[index] if tops else None):
                        if index == after and first < resume:  # type: ignore[operator]
                            continue  # a line the title before it covers
                        score, lines = _title_score(title, bare, label, opening(index, first))
                        if score < MATCH_SIMILARITY:
                            continue
                        if bookmark.y is not None and tops is not None:
                            # Nearer the height it points at (and not above it) ranks first.
                            distance = bookmark.y - tops[index][first]
                            score = 2.0 - (distance if distance >= -2 else 1e6) / 1e4
                        if best is None or score > best[0]:
                            best = (score, index, lines, first)
                if best is not None:
                    break
        if best is not None:
            _, index, lines, first = best
            matches.append(BookmarkMatch(number, index, lines, first))
            after, resume = _covered_to(texts, index, first + lines)
    return matches


#: A bookmark names a paragraph's later line when it points this near above its top
#: (points; PDF producers point a little above the line).
POINTED_LINE = 12.0


def _title_starts(bookmark: Bookmark, tops: Sequence[float] | None) -> list[int]:
    """The lines of a paragraph a title may start on: its first, and a later one the
    bookmark points at."""
    if bookmark.y is None or tops is None:
        return [0]
    return [0, *(k for k in range(1, len(tops)) if -2 <= bookmark.y - tops[k] <= POINTED_LINE)]


def _covered_to(texts: Sequence[Sequence[str]], index: int, lines: int) -> tuple[int, int | None]:
    """The last paragraph the first ``lines`` lines from paragraph ``index`` on reach into,
    and how many of its lines they take (None: all of them; a title the next bookmark
    names may start on a later line of a paragraph the title before it starts)."""
    last = index
    while lines > 0 and last < len(texts):
        if lines < len(texts[last]):
            return last, lines
        lines -= len(texts[last])
        last += 1
    return max(last - 1, index), None


def _without_label(text: str) -> str:
    label = parse_label(text)
    return label.rest if label is not None and label.rest else text


def _opens_in(title: str, bare: str, line: str) -> bool:
    """Whether the title's (or its bare title's) first letters are printed in ``line``
    (after a caption's label: "Table C-14. Database Scans: …")."""
    return title[:4] in line or (bool(bare) and bare[:4] in line)


def _title_score(
    title: str, bare: str, label: Label | None, lines: Sequence[str], listed: bool = False
) -> tuple[float, int]:
    """How well the first of ``lines`` read as ``title`` (numbered ``label``; ``listed``:
    an entry of a printed table of contents), and how many lines."""
    best = (0.0, 0)
    opening = normalise(" ".join(lines[:2]))
    if title[:4] not in opening and bare[:4] not in opening:
        return best  # most paragraphs: not even the title's first letters
    first = normalise(lines[0])
    if first[:4] not in title and first[:4] not in bare and not _opens_in(title, bare, first):
        return best  # the title starts on a later line: another paragraph's ("type: string")
    if listed and is_bullet_item(lines[0]):
        return best  # a bulleted item is no entry's section (a bookmark may point at one)
    printed = parse_label(lines[0]) if label is not None else None
    if printed is not None and printed.ordinals != label.ordinals:  # type: ignore[union-attr]
        return best  # another number: a sibling or a child of the section named
    joined = ""
    for count, line in enumerate(lines[:_TITLE_LINES], start=1):
        joined += normalise(line)
        candidates = {joined, normalise(_without_label(" ".join(lines[:count])))}
        score = max(similarity(title, c) for c in candidates)
        score = max(score, max(similarity(bare, c) for c in candidates) if bare else 0.0)
        if score > best[0]:
            best = (score, count)
        if len(joined) > 2 * len(title) + 8:
            break
    return best
