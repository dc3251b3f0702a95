"""Tables of contents written as plain lines: their title and their entries.

A .docx usually marks its table of contents (a TOC field, "toc N" styles, a content control;
``parse/toc_marks.py`` reads those). This module recognises the rest from the text alone,
by what makes a table of contents one: a run of entries (text, then leaders or a tab, then
a page number) under a Contents/目录 title, or a longer run of dot-leader entries without
one, or under such a title a run of title-like lines with no body text between them (a
table of contents without page numbers). Never a run of headings with text between them.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections.abc import Sequence

from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.lines import cjk_count, heading_text, starts_with_bullet
from lightrag_pchunk.outline.page_references import (
    is_toc_line,
    page_reference,
    strip_bare_leaders,
    strip_page_reference,
)

#: Fewest entries that make a run of page-referenced lines a table of contents.
MIN_TOC_LINES = 3
#: Without a title, a run of leader lines this long is a table of contents.
MIN_UNTITLED_TOC_LINES = 5
#: Without a title, the fewest leader lines that are a contents when the titles listed follow.
MIN_LISTED_TOC_LINES = 2

_TITLE = re.compile(
    r"^(?:table\s+of\s+contents|contents|content|toc|index|目\s*录|目\s*次|目\s*錄"
    r"|list\s+of\s+(?:figures|tables|illustrations|exhibits|charts|equations)"
    r"|inhalt(?:sverzeichnis)?|sommaire|table\s+des\s+matières|índice|indice|sommario"
    r"|содержание|оглавление|inhoud(?:sopgave)?|spis\s+treści|innehåll(?:sförteckning)?)"
    r"\s*[:：]?$",
    re.IGNORECASE,
)

#: The heading given to a table of contents that has no title line of its own.
DEFAULT_TOC_TITLE = "Table of Contents"

#: A contents' column headings, printed between its title and its entries: a word or two
#: naming the entries, then the page column's ("Section  Page", "Chapter Page", "页码").
_COLUMN_HEADINGS = re.compile(
    r"^(?:[^\W\d_]+\s+){0,2}(?:page|pg\.?|page\s+no\.?|seite|página|стр\.?|страница"
    r"|页码|页次|頁碼|页|頁)$",
    re.IGNORECASE,
)


def is_toc_title(line: str) -> bool:
    """A TOC's own title: ``Contents``, ``目录``, ``目 次``, ``List of Figures`` (Word's) …"""
    return _TITLE.match(line.strip().lstrip("#").strip()) is not None


def is_column_headings(line: str) -> bool:
    """A contents' column headings (:data:`_COLUMN_HEADINGS`): no entry, no title."""
    return _COLUMN_HEADINGS.match(" ".join(line.split())) is not None


def _title_above(lines: Sequence[str], start: int) -> int | None:
    """The index of the contents title above the entry at ``start`` (past column headings)."""
    above = start - 2 if start > 1 and is_column_headings(lines[start - 1]) else start - 1
    return above if above >= 0 and is_toc_title(lines[above]) else None


def literal_toc_runs(lines: Sequence[str]) -> list[tuple[int, int]]:
    """``(start, end)`` ranges of ``lines`` that form a table of contents written as text.

    A range is a run of at least :data:`MIN_TOC_LINES` entry lines right after a title
    line or its column headings (the title included at ``start``); without one, a run of
    :data:`MIN_UNTITLED_TOC_LINES` dot-leader entries, or one whose every title recurs
    after it in order: two or more dot-leader entries, or as many entries without leaders.
    Entries may be interrupted by single short lines without a page number (a part heading)."""
    runs: list[tuple[int, int]] = []
    at: dict[str, list[int]] | None = None  # where each line stands, read when first asked
    entry = [is_toc_line(line) for line in lines]  # each line asked once
    index = 0
    while index < len(lines):
        if not entry[index]:
            index += 1
            continue
        start = end = index
        entries = leaders = 0
        while end < len(lines):
            line = lines[end]
            if entry[end]:
                entries += 1
                leaders += 1 if _has_dot_leaders(line) else 0
            elif not (end + 1 < len(lines) and entry[end + 1] and len(line) <= 80):
                break
            end += 1
        title = _title_above(lines, start)
        listed = leaders >= MIN_UNTITLED_TOC_LINES
        fewest = MIN_LISTED_TOC_LINES if leaders == entries else MIN_UNTITLED_TOC_LINES
        if not listed and entries >= fewest:
            at = _key_positions(lines, entry) if at is None else at
            listed = _titles_recur([lines[i] for i in range(start, end) if entry[i]], at, end)
        if (title is not None and entries >= MIN_TOC_LINES) or listed:
            runs.append((start if title is None else title, end))
        index = max(end, index + 1)
    return _with_bare_runs(lines, runs)


def _key_positions(lines: Sequence[str], entry: Sequence[bool]) -> dict[str, list[int]]:
    """Where each line but an entry (``entry``: which are) stands, by :func:`toc_key`."""
    at: dict[str, list[int]] = {}
    for index, line in enumerate(lines):
        if line.strip() and not entry[index]:
            at.setdefault(toc_key(line), []).append(index)
    return at


def _titles_recur(entries: Sequence[str], at: dict[str, list[int]], after: int) -> bool:
    """Whether the title of every one of ``entries`` stands as a line of its own after
    line ``after``, in their order (``at``: :func:`_key_positions`)."""
    last = after - 1
    for key in map(toc_key, entries):
        places = at.get(key, [])
        found = bisect.bisect_right(places, last)
        if not key or found == len(places):
            return False
        last = places[found]
    return True


def _with_bare_runs(lines: Sequence[str], runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``runs`` and the titled runs of entries without page numbers, in order."""
    taken = {start for start, _ in runs}
    for index, line in enumerate(lines):
        if index in taken or index + 1 in taken or not is_toc_title(line):
            continue
        end = bare_entries_end(lines, index + 1)
        if end - index - 1 >= MIN_TOC_LINES:
            runs.append((index, end))
    return sorted(runs)


def bare_entries_end(lines: Sequence[str], start: int) -> int:
    """Where a run of entries without page numbers that starts at ``start`` ends: title-like
    lines (the heading classifier's text channel) each followed by another one, up to body
    text, the line that heads it, or a line repeating the first entry (the document itself
    starting again at its first heading)."""
    first = _entry_key(lines[start]) if start < len(lines) else ""
    end = start
    while end < len(lines) and _is_bare_entry(lines[end]):
        if end > start and _entry_key(lines[end]) == first:
            break
        following = lines[end + 1] if end + 1 < len(lines) else None
        if following is not None and not _is_bare_entry(following):
            break  # this line heads body text: a heading of the document, not an entry
        end += 1
    return end


#: Body text is longer than any table-of-contents entry without a page number (characters;
#: CJK text is denser).
MIN_BODY_CHARS = 40
MIN_CJK_BODY_CHARS = 20
#: A sentence's last mark: a line ending so is text, no entry nor a table's cell.
SENTENCE_ENDS = frozenset(".!?。！？")
_MIN_SENTENCE_WORDS = 3


def is_body_text(line: str) -> bool:
    """A paragraph of text, which no table of contents holds: nothing the classifier takes for a
    title, no page reference, and longer than an entry or a sentence of a few words ("Write this
    section last."; a short entry that ends with a full stop is no body text by that alone)."""
    text = line.strip()
    if not text or is_toc_line(text) or heading_text(text, markdown=False) is not None:
        return False
    cjk = cjk_count(text) * 2 > len(text)
    if len(text) > (MIN_CJK_BODY_CHARS if cjk else MIN_BODY_CHARS):
        return True
    if parse_label(text) is not None:
        return False  # "4.1. Model architecture.": a numbered title may end with a stop
    words = cjk_count(text) / 2 if cjk else len(text.split())
    return text[-1] in SENTENCE_ENDS and words >= _MIN_SENTENCE_WORDS


def toc_end(lines: Sequence[str]) -> int:
    """Where a run of lines marked as a table of contents (by a TOC field) really ends,
    ``len(lines)`` when none of them is body text: after its last entry with a page
    reference before the first line of body text; without page references, at the
    title-like line that heads that text."""
    body = next((i for i, line in enumerate(lines) if is_body_text(line)), None)
    if body is None:
        return len(lines)
    last_entry = next((i for i in range(body - 1, -1, -1) if is_toc_line(lines[i])), None)
    if last_entry is not None:
        return last_entry + 1
    return body - 1 if body > 0 else body


def _is_bare_entry(line: str) -> bool:  # leaders typed with no page number are no title's
    return bool(line.strip()) and heading_text(strip_bare_leaders(line), markdown=False) is not None


def _entry_key(line: str) -> str:
    return " ".join(line.split()).casefold()


#: Dot leaders as contents set them: dots close or spaced (LaTeX's ". . ."), ellipses,
#: middle dots, a rule of underscores.
_DOT_LEADERS = ("...", ". . .", "……", "···", "____")


def _has_dot_leaders(line: str) -> bool:
    found = page_reference(line)
    return found is not None and any(mark in found[1] for mark in _DOT_LEADERS)


#: A short superscript or subscript after a space at a line's end: a link back to the
#: contents ("FUNDING OPPORTUNITIES <sup>TOP</sup>"), a note's mark; no part of the title.
_TRAILING_MARK = re.compile(r"\s+<(sup|sub)>[^<]{1,12}</\1>\s*$")


def toc_key(line: str) -> str:
    """A title as a table of contents and the body both write it: NFKC, case-folded, one
    space for any spacing, no page reference, no end punctuation, no mark after it
    (:data:`_TRAILING_MARK`, or an asterisk: a note's mark the contents leaves out; one
    leading a line is its bullet, and stays)."""
    text = _TRAILING_MARK.sub("", strip_page_reference(line))
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(text.split()).rstrip(" *").strip(" .:：。")


def toc_entry_key(entry: str) -> str:
    """An entry's :func:`toc_key`, past the bullet that may lead it (a list of links to the
    sections); a bulleted line of the body keeps its bullet, and matches no entry."""
    return toc_key(past_bullet(entry.strip()))


def past_bullet(text: str) -> str:
    return text[1:].strip() if starts_with_bullet(text) and text[1:2].isspace() else text


#: Fewest entries of a list of titles that must recur later for it to be a contents.
MIN_LISTING_ENTRIES = 3


def listing_runs(lines: Sequence[str]) -> list[tuple[int, int]]:
    """``(start, end)`` ranges of ``lines`` that list the titles of the sections after them:
    a contents without page numbers nor a title of its own (a newsletter's "In this issue",
    a list of links to its sections). A run of title-like lines (a bullet may lead each)
    is one when most of its entries, and at least :data:`MIN_LISTING_ENTRIES`, recur after
    it in its order, each where a section's title stands (:func:`_section_titles`) with
    body text between them. A line repeating an entry of the run ends it (the first
    section starting)."""
    # Each line read once: whether it may be an entry, its key if so, and body[i], the
    # lines of body text before line i.
    entries = [_is_listing_entry(line) for line in lines]
    keys = [toc_entry_key(line) if entries[i] else "" for i, line in enumerate(lines)]
    body = list(itertools.accumulate((is_body_text(line) for line in lines), initial=0))
    titles = _section_titles(lines, keys, entries, body)
    runs: list[tuple[int, int]] = []
    index = 0
    while index < len(lines):
        end, seen = index, set()
        while end < len(lines) and entries[end] and keys[end] not in seen:
            seen.add(keys[end])
            end += 1
        listed = keys[index:end]
        if len(listed) >= MIN_LISTING_ENTRIES and _recur_in_order(listed, titles, body, end):
            runs.append((index, end))
        index = max(end, index + 1)
    return runs


#: A section's title has body text this many lines after it at most (a title, then the
#: title of its first item, then text).
_TEXT_WITHIN = 2


def _section_titles(
    lines: Sequence[str], keys: Sequence[str], entries: Sequence[bool], body: Sequence[int]
) -> dict[str, list[int]]:
    """Where each title stands as a section's, by its key (``keys``): a title-like line
    (``entries``) that is no list item nor stands before one, with body text within
    :data:`_TEXT_WITHIN` lines after it (``body``: the count of body text lines before each
    line; a line of code, a slide's caption recur with no text after them)."""
    titles: dict[str, list[int]] = {}
    for index, line in enumerate(lines):
        within = min(index + 1 + _TEXT_WITHIN, len(lines))
        if (
            entries[index]
            and body[within] > body[index + 1]
            and not starts_with_bullet(lines[index + 1].strip())
            and not starts_with_bullet(line.strip())
        ):
            titles.setdefault(keys[index], []).append(index)
    return titles


def _is_listing_entry(line: str) -> bool:
    text = past_bullet(line.strip())
    return bool(text) and heading_text(text, markdown=False) is not None


def _recur_in_order(
    keys: Sequence[str], titles: dict[str, list[int]], body: Sequence[int], after: int
) -> bool:
    """Whether most of ``keys`` title sections after line ``after``, in order, with body
    text between each two (``body``: the count of body text lines before each line)."""
    matched, last = 0, None
    for key in keys:
        at = titles.get(key, [])
        found = bisect.bisect_left(at, after if last is None else last + 1)
        while found < len(at) and last is not None and body[at[found]] == body[last + 1]:
            found += 1  # no text since the last section's title: not a section of its own
        if found < len(at):
            matched, last = matched + 1, at[found]
    return matched >= MIN_LISTING_ENTRIES and 2 * matched > len(keys)
