"""Stage A for PDF: where a text repeats across pages, at about one height: the evidence
that makes a line page furniture (:mod:`.furniture`) and a title printed on several pages a
running one (:mod:`.title_guards`).

A place is a (page index, height of the line's top) pair.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from lightrag_pchunk.pdf.outline import normalise, similarity

#: Pages a running line is printed on, at least.
RUNNING_PAGES = 3
#: "About the same height": within this many points.
HEIGHT_TOLERANCE = 6.0
#: A line read by text recognition is the running line it stands for when its letters are
#: this similar to the running line's (Dice over letter pairs: a letter misread in twenty
#: keeps 0.9 of them).
MISREAD_SIMILARITY = 0.8
#: Letters a running line holds, at least, to be matched so loosely.
MISREAD_LETTERS = 8
#: A misread line holds as many letters as the running line, give or take this share of
#: them (one read as two, "m" as "rn"): a line that holds the running title and a word
#: more is another line.
MISREAD_LENGTH = 0.1


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


def runs_through(places: Sequence[tuple[int, float]], top: float, pages: int) -> bool:
    """Whether ``places`` (page index, height) put a text at about ``top`` on
    :data:`RUNNING_PAGES` pages or more, making half the pages of one parity at least (of
    a document of ``pages``): the running line of pages printed small runs through the
    document, on every page or on every other one, not a title that opens a few of its
    pages ("Keynames" under several sections)."""
    at = _pages_near(places, top)
    if len(at) < RUNNING_PAGES:
        return False
    for parity in (0, 1):
        share = sum(1 for page in at if page % 2 == parity)
        if share and share >= (pages - parity + 1) // 2 / 2:
            return True
    return False


def misread_repeats(places: Sequence[tuple[int, float, str]], pages: int) -> set[int]:
    """Indexes of ``places`` (page index, height, text of a line in a page's band) that
    print one running line as text recognition (OCR) reads it, varying from page to page
    ("THE SIEGE OF VICKSBURG. 49", "50 THE SIEGE OF VICKSBUEG.", "THE SIEGE OP VICKSBURG
    53"): lines whose letters (digits, punctuation and spaces aside) are the same at about
    one height on :data:`RUNNING_PAGES` pages or more are a running line, and the lines at
    that height whose letters are :data:`MISREAD_SIMILARITY` like its, about as many
    (:data:`MISREAD_LENGTH`), go with it, where
    together they are printed on half the document's ``pages`` or more (a running line
    runs through the document; a body line in the band is far less like it)."""
    letters = [_letters(text) for _, _, text in places]
    same: dict[str, list[int]] = defaultdict(list)
    for index, form in enumerate(letters):
        if len(form) >= MISREAD_LETTERS:
            same[form].append(index)
    needed = max(RUNNING_PAGES, pages / 2)
    found: set[int] = set()
    for form, indexes in same.items():
        heights = {round(places[i][1]) for i in indexes}
        for top in heights:
            if _pages_at([places[i][:2] for i in indexes], top) < RUNNING_PAGES:
                continue
            near = [
                i
                for i, (_, height, _) in enumerate(places)
                if abs(height - top) <= HEIGHT_TOLERANCE
                and abs(len(letters[i]) - len(form)) <= max(1.0, MISREAD_LENGTH * len(form))
                and similarity(letters[i], form) >= MISREAD_SIMILARITY
            ]
            if _pages_at([places[i][:2] for i in near], top) >= needed:
                found.update(near)
    return found


def as_printed(text: str) -> str:
    """``text`` as a line repeated on each page is matched as printed: lower case, its
    spaces collapsed."""
    return " ".join(text.lower().split())


def _letters(text: str) -> str:
    """The letters of ``text``, lower case, without digits, punctuation and spaces."""
    return "".join(ch for ch in normalise(text) if not ch.isdigit())


def _pages_at(places: Sequence[tuple[int, float]], top: float) -> int:
    """How many pages ``places`` (page, height) put a text on at about ``top``."""
    return len(_pages_near(places, top))


def _pages_near(places: Sequence[tuple[int, float]], top: float) -> set[int]:
    """The pages ``places`` (page, height) put a text on at about ``top``."""
    return {page for page, height in places if abs(height - top) <= HEIGHT_TOLERANCE}
