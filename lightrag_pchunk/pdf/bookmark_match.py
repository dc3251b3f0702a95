"""Bookmarks matched to the paragraphs they name.

Each entry is matched to the paragraph it names on the page it points at (the same
words, or nearly: character-bigram overlap), in document order; an entry of a printed
table of contents (no page) is looked for in order.

Input: bookmarks and each paragraph's line texts, pages and heights. Output: which
paragraph (and lines) each bookmark names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lightrag_pchunk.outline.lines import is_bullet_item, is_caption
from lightrag_pchunk.outline.numbering import Label, is_bare_label, parse_label
from lightrag_pchunk.pdf.layout import Line
from lightrag_pchunk.pdf.outline import Bookmark, Outline, normalise, similarity
from lightrag_pchunk.pdf.table_parts import PagePart

#: A bookmark matches a paragraph whose text is this similar (Dice over character pairs).
MATCH_SIMILARITY = 0.8
#: Lines of a paragraph a bookmark title may cover (a title wrapped over several lines).
_TITLE_LINES = 4


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
    into the paragraphs after it on its page (never into a list's item), or start on a
    later line of a paragraph where the bookmark points at that line (a heading set as
    close to the text before it as its lines); with or without its numbering label on
    either side, but where both carry one it is the same ("4.2" never names "4.2.1
    Findings"). Of the paragraphs that
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
            if is_bullet_item(texts[following][0]):
                break  # a list's item: a title never runs on into one
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
                    starts = _title_starts(bookmark, texts[index], tops[index] if tops else None)
                    for first in starts:
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


def line_top(line: Line) -> float:
    """The top of ``line``'s glyphs in user space, the height a bookmark points at."""
    return max(segment.bbox[3] for segment in line.segments)


def points_at(y: float, top: float) -> bool:
    """Whether a bookmark pointing at height ``y`` points at a line whose top is ``top``:
    at most :data:`POINTED_LINE` above it, or 2 points below it."""
    return -2 <= y - top <= POINTED_LINE


def _title_starts(
    bookmark: Bookmark, lines: Sequence[str], tops: Sequence[float] | None
) -> list[int]:
    """The lines of a paragraph (its ``lines``) a title may start on: its first, the
    second where the first is a label alone (a chapter's "CHAPTER 2" printed over its
    title, which the bookmark names without it and points above), and a later one the
    bookmark points at."""
    starts = [0, 1] if len(lines) > 1 and is_bare_label(lines[0]) else [0]
    if bookmark.y is None or tops is None:
        return starts
    pointed = (k for k in range(starts[-1] + 1, len(tops)) if points_at(bookmark.y, tops[k]))
    return [*starts, *pointed]


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


#: A note in parentheses closing a printed title ("3.3 Roles (Web Annex A)"): where more
#: is found, left out of the bookmark for it.
_CLOSING_NOTE = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")


#: A title opened by its unit's number alone, then a colon or a full stop: a bookmark
#: naming its chapter "3: Catalogs" or "12. Harms" where the page prints "CHAPTER THREE:
#: Catalogs" (no numbering label by itself: "3: 2" is a ratio in the text).
_BARE_NUMBER = re.compile(r"\d{1,3}[:.]\s+(?=\S)")


def _without_label(text: str) -> str:
    """``text`` without its numbering label (:func:`parse_label`) or its bare number."""
    label = parse_label(text)
    if label is not None and label.rest:
        return label.rest
    stripped = text.strip()
    bare = _BARE_NUMBER.match(stripped)
    return stripped[bare.end() :] if bare else text


def _opens_in(title: str, bare: str, line: str) -> bool:
    """Whether the title's (or its bare title's) first letters are printed in ``line``
    (after a caption's label: "Table C-14. Database Scans: …")."""
    return title[:4] in line or (bool(bare) and bare[:4] in line)


def _title_score(
    title: str, bare: str, label: Label | None, lines: Sequence[str], listed: bool = False
) -> tuple[float, int]:
    """How well the first of ``lines`` read as ``title`` (numbered ``label``; ``listed``:
    an entry of a printed table of contents, whose number a line may leave out only when it
    prints the title itself), and how many lines."""
    best = (0.0, 0)
    opening = normalise(" ".join(lines[:2]))
    if title[:4] not in opening and bare[:4] not in opening:
        return best  # most paragraphs: not even the title's first letters
    first = normalise(lines[0])
    if (
        first[:4] not in title
        and first[:4] not in bare
        and not _opens_in(title, bare, first)
        and not _keyword_left_out(title, lines)
    ):
        return best  # the title starts on a later line: another paragraph's ("type: string")
    if listed and is_bullet_item(lines[0]):
        return best  # a bulleted item is no entry's section (a bookmark may point at one)
    if listed and label is not None and is_caption(lines[0]):
        return best  # a caption ("Table 4. …") is no numbered entry's section
    printed = parse_label(lines[0]) if label is not None else None
    if (
        printed is not None
        and label is not None
        and printed.family == label.family
        and printed.ordinals != label.ordinals
    ):
        return best  # another number: a sibling or a child of the section named
    joined = ""
    for count, line in enumerate(lines[:_TITLE_LINES], start=1):
        joined += normalise(line)
        shown = " ".join(lines[:count])
        candidates = {joined, normalise(_without_label(shown))}
        if not listed:
            # A bookmark's page is its title's; a printed contents entry is looked for
            # over many paragraphs, where a line less its note matches by chance.
            candidates.add(normalise(_CLOSING_NOTE.sub("", shown)))
        named = (title, bare) if bare else (title,)
        score = max(
            (similarity(a, b) for a in named for b in candidates if _within_reach(a, b)),
            default=0.0,
        )
        if score > best[0]:
            best = (score, count)
        if len(joined) > 2 * len(title) + 8:
            break
    if listed and label is not None and printed is None and best[0] < 1.0:
        # A numbered entry on a line without its number: its very title, or another line
        # ("example1:" is near "6.3.3.3 Examples" but a key of the code below it).
        return 0.0, 0
    return best


def _keyword_left_out(title: str, lines: Sequence[str]) -> bool:
    """Whether the first of ``lines`` is a unit's label alone ("Part II") whose number,
    without its word, opens ``title`` (normalised), the rest of the title opening the
    line after it: a book's bookmark "II Plotting styles" names the part printed "Part
    II" over "Plotting styles"."""
    label = parse_label(lines[0])
    if len(lines) < 2 or label is None or not label.family.startswith("keyword-"):
        return False
    number = normalise(label.text.split()[-1])
    rest = title[len(number) :]
    return (
        not label.rest
        and bool(number)
        and title.startswith(number)
        and bool(rest)
        and normalise(lines[1]).startswith(rest[:4])
    )


def _within_reach(title: str, text: str) -> bool:
    """Whether ``title`` and ``text`` are near enough in length for their similarity to
    reach :data:`MATCH_SIMILARITY`: the two share at most the fewer of their character
    pairs, so their Dice is at most twice the fewer over the sum (most lines that open a
    paragraph are far longer or shorter than a title, and are not compared)."""
    pairs, text_pairs = len(title) - 1, len(text) - 1
    return title == text or 2 * min(pairs, text_pairs) >= MATCH_SIMILARITY * (pairs + text_pairs)


def unmatched_warnings(outline: Outline, matched: set[int], cells: Sequence[PagePart]) -> list[str]:
    """What the user is told of the bookmarks that name no paragraph (``matched``: the
    indexes of those that do): those pointing into a table printed at ``cells`` (its
    parts by page) and those left out as a frame's title name a table's cell, which heads
    no section (a producer writes a bookmark for every paragraph with an outline level,
    in a cell too, and the Word parser keeps a table whole, a heading style in a cell
    heading nothing); the others name no line on their page."""
    total = len(outline.bookmarks) + outline.framed
    in_cells, elsewhere = outline.framed, 0
    for number, bookmark in enumerate(outline.bookmarks):
        if number in matched:
            continue
        if any(_points_into(bookmark, part) for part in cells):
            in_cells += 1
        else:
            elsewhere += 1
    warnings = []
    if in_cells:
        warnings.append(
            f"{in_cells} of {total} bookmarks name a line in a table's cell (a framed box"
            " too), kept whole: they head no section"
        )
    if elsewhere:
        warnings.append(f"{elsewhere} of {total} bookmarks name no line on their page")
    return warnings


def _points_into(bookmark: Bookmark, part: PagePart) -> bool:
    """Whether ``bookmark`` points at a height of ``part``'s page its box spans (or at
    most :data:`POINTED_LINE` above it: a producer points a little above a line)."""
    _, bottom, _, top = part.bbox
    return (
        bookmark.page == part.page
        and bookmark.y is not None
        and bottom - 2 <= bookmark.y <= top + POINTED_LINE
    )
