"""Stage A for PDF: a section's title that a tagged page marks as page furniture.

A Word author who sets a chapter's title in the header of the chapter's first page (a
"different first page" header) gets it exported as an artifact, as page numbers and running
heads are, and the title with it would be lost: the chapter's text would go on under the
section before it. A line marked as an artifact whose text the document names as a title
(a bookmark pointing at the page, an entry of a printed table of contents read before it),
or that the header sets larger than the page's text (:func:`larger_artifacts`: a title's
size, where running heads are set smaller than the text), is read as text where it stands
above the page's text (a header's place), once in the document, where no line of the
page's text already reads the same: a running head repeating a chapter's title over its
pages stays furniture, and so does a page all furniture (a copy of another page). A
bookmarked title is a heading at its bookmark's depth (as a tag ``H1``-``H6`` would say); a
title only a printed table of contents lists, or only its size, is left to the outline's
inference.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from lightrag_pchunk.pdf.fonts import text_size
from lightrag_pchunk.pdf.layout import ARTIFACT_ROLE, Line, LineRole, Segment
from lightrag_pchunk.pdf.outline import Bookmark, normalise

#: A header's line set this much larger than the page's text, or more, is a title's size.
TITLE_SIZE = 1.2
#: A title has this many words at most (a header's sentence is no title).
TITLE_WORDS = 12

#: The role a named title marked as an artifact has until ``restore_titles`` settles it.
NAMED_ARTIFACT = "Artifact-title"


def naming_titles(role_of: LineRole | None, named: frozenset[str]) -> LineRole | None:
    """``role_of`` (a tagged page's roles), but an artifact segment whose text is one of
    the ``named`` titles (normalised) has the role :data:`NAMED_ARTIFACT`."""
    if role_of is None or not named:
        return role_of

    def role(segment: Segment) -> tuple[str, int]:
        found = role_of(segment)
        if found[0] == ARTIFACT_ROLE and normalise(segment.text) in named:
            return NAMED_ARTIFACT, 0
        return found

    return role


def larger_artifacts(segments: Sequence[Segment], role_of: LineRole | None) -> frozenset[str]:
    """The texts (normalised) of a tagged page's ``segments`` marked as artifacts that are
    set larger than the page's text by :data:`TITLE_SIZE` (the size most of its other
    characters are set at): a title's size, with a letter and :data:`TITLE_WORDS` words at
    most. None on a page all furniture, or untagged."""
    if role_of is None:
        return frozenset()
    artifacts, text = [], []
    for segment in segments:
        (artifacts if role_of(segment)[0] == ARTIFACT_ROLE else text).append(segment)
    if not artifacts or not text:
        return frozenset()
    size = text_size([(s.size, s.text) for s in text])
    return frozenset(
        normalise(s.text)
        for s in artifacts
        if s.size >= TITLE_SIZE * size
        and any(ch.isalpha() for ch in s.text)
        and len(s.text.split()) <= TITLE_WORDS
    )


def restore_titles(
    lines: Sequence[Line], named: frozenset[str], restored: set[str], levels: dict[str, int]
) -> list[Line]:
    """The page's ``lines`` with each line marked as an artifact that is one of the
    ``named`` titles read as text when it stands above all of the page's text (a header's
    place; a page all furniture, a copy of another, restores nothing), its text was not
    ``restored`` on an earlier page (which it is added to) and no other line of the page
    reads the same; left out otherwise, as furniture is (a title run into a page number on
    its line too). Its role: a heading's at the depth ``levels`` gives its bookmark, else
    none. A page with no such line (most pages) is returned as it is, its lines not
    normalised."""
    if all(line.role != NAMED_ARTIFACT for line in lines):
        return list(lines)
    texts = [normalise(line.text) for line in lines]
    body = [line.top for line in lines if line.role != NAMED_ARTIFACT]
    kept: list[Line] = []
    for line, text in zip(lines, texts, strict=True):
        if line.role != NAMED_ARTIFACT:
            kept.append(line)
        elif (
            text in named
            and text not in restored
            and texts.count(text) == 1
            and body
            and line.top < min(body)
        ):
            restored.add(text)
            # A title named by its size only is a chapter's, at the bookmarks' top level.
            level = levels.get(text, min(levels.values(), default=0))
            kept.append(replace(line, role=f"H{min(level, 6)}" if level else ""))
    return kept


def bookmark_levels(bookmarks: Iterable[Bookmark]) -> dict[str, int]:
    """Each bookmarked title, normalised, and the depth of its first bookmark."""
    levels: dict[str, int] = {}
    for bookmark in bookmarks:
        levels.setdefault(normalise(bookmark.title), bookmark.level)
    return levels
