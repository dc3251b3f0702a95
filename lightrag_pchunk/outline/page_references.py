"""Table-of-contents entries read from their text: a title, then leaders (dots, a tab, a run of
spaces) and a page number. The heading classifier refuses such lines as headings, the parsers
keep them as contents entries, and a heading taken from one loses its page reference.
"""

from __future__ import annotations

import re

#: What may stand between a table-of-contents entry's text and its page number.
_LEADER_CHARS = frozenset(" \t\u3000.…·_-/")
_ROMAN_CHARS = frozenset("ivxlcdmIVXLCDM")
#: Leaders that mark a page reference: a tab, dots (spaced, as LaTeX sets them), an ellipsis,
#: a run of underscores, hyphens or spaces, a slash set apart ("1/2", "and/or" hold none).
_LEADERS = re.compile(r"\t|\.\.|\. \. \.|…|··|___|---|   |\s/\s")
#: A section's number of two levels or more alone: "3.1", "3.1.2." (a number alone, "944",
#: may end a title wrapped onto the entry's line: "Forms 941 or" over "944 ..... 31").
_SECTION_NUMBER = re.compile(r"\d{1,3}(?:\.\d{1,3})+\.?")


def page_reference(line: str) -> tuple[int, str] | None:
    """Where a trailing table-of-contents page reference starts (leaders or a tab, then a
    page number: "Scope ........ 4", "AC-11 Device Lock\t52", "Preface   iv", a journal's
    "Imaginal Wars / 116", "Wien 2014 / 119"; an index's list of pages, "Factors . . . 17,
    57"), and its leaders; None when the line has none.
    After a number a larger one ends a range or a fraction ("2023 / 2024", "Page 1 / 12").
    Linear in the line's length: a regular expression for this backtracks badly on long
    runs of dots or underscores (forms to fill in)."""
    end = len(line.rstrip())
    start = end
    while start > 0 and line[start - 1].isdigit():
        start -= 1
    if start == end:
        while start > 0 and line[start - 1] in _ROMAN_CHARS:
            start -= 1
        if not 0 < end - start <= 6:
            return None
    elif end - start > 4:
        return None
    else:
        start = _listed_pages(line, start)
    number = start
    while start > 0 and line[start - 1] in _LEADER_CHARS:
        start -= 1
    leaders, page = line[start:number], line[number:end]
    first = line[len(line[:start].rstrip("0123456789")) : start]  # a number before leaders
    ranged = "/" in leaders and 0 < len(first) <= 4 and page.isdecimal() and int(page) > int(first)
    if start == 0 or ranged or not _LEADERS.search(leaders):
        return None
    return start, leaders


def _listed_pages(line: str, start: int) -> int:
    """Where the list of page numbers whose last starts at ``start`` begins: an index
    entry's pages, "17, 57" ("Factors . . . . 17, 57"); a comma without a space after it
    is a decimal comma ("822,98"), no list. Each character is read once: a line of
    thousands of numbers listed ("1, 2, 3, …") stays linear."""
    while True:
        comma = start
        while comma > 0 and line[comma - 1] == " ":
            comma -= 1
        if comma == start or comma == 0 or line[comma - 1] != ",":
            return start
        before = comma - 1
        digits = before
        while digits > 0 and line[digits - 1].isdigit():
            digits -= 1
        if not 0 < before - digits <= 4:
            return start
        start = digits


def is_toc_line(line: str) -> bool:
    """A table-of-contents entry: text, then leaders or a tab, then a page number; or a
    section's number alone before dot leaders and its page (the entry of a heading without
    text: "3.1 ........ 1", which a contents field lists as it lists the others)."""
    found = page_reference(line)
    if found is None:
        return False
    head = line[: found[0]]
    if any(ch.isalpha() for ch in head):
        return True
    dotted = ".." in found[1] or "…" in found[1]
    return dotted and _SECTION_NUMBER.fullmatch(head.strip()) is not None


#: A line of dot leaders and a page number alone ("……………… 158"): the end of an entry whose
#: title filled the line above it.
_LEADERS_TO_PAGE = re.compile(r"[.…·](?: ?[.…·]){2,} *(?:\d{1,4}|[ivxlcdm]{1,6}|[IVXLCDM]{1,6})")


def is_leaders_to_page(line: str) -> bool:
    """Whether ``line`` is dot leaders and a page number alone: the last line of a wrapped
    table-of-contents entry, which ends the entry as a page reference after its title does."""
    return _LEADERS_TO_PAGE.fullmatch(line.strip()) is not None


#: Dot leaders typed after an entry's title with no page number after them ("入所须知………").
_BARE_LEADER_MARKS = ("..", ". .", "…", "··")


def strip_bare_leaders(line: str) -> str:
    """``line`` without the dot leaders that end it where no page number follows them
    (a line's one closing full stop is kept); linear, as :func:`page_reference` is."""
    end = len(line.rstrip(" \t\u3000.…·"))
    tail = line[end:]
    return line[:end] if any(mark in tail for mark in _BARE_LEADER_MARKS) else line


def strip_page_reference(title: str) -> str:
    """``title`` without a trailing table-of-contents page reference (tab/leaders + number)."""
    found = page_reference(title)
    return title if found is None else title[: found[0]].rstrip(" \t.…·_-")


#: A list's column headings where nothing says it is a contents: what its entries are, then
#: the page column's ("Figure  Page" under a list of figures' title, "Section Page"). Only
#: words that name a contents' entries: "Title Page" and "Home Page" title sections of their
#: own (between a contents' title and its entries, ``toc.is_column_headings`` reads any words).
_ENTRY_COLUMNS = re.compile(
    r"^(?:(?:section|chapter|part|article|appendix|annex|exhibit|item|paragraph|topic|subject"
    r"|figure|table|illustration|chart|map|plate|abschnitt|kapitel|abbildung|tabelle"
    r"|sección|capítulo|figura|tabla|раздел|глава|рисунок|таблица)s?"
    r"(?:\s+(?:title|name|no\.?|number))?\s+)?"
    r"(?:page|pg\.?|page\s+no\.?|seite|página|стр\.?|страница|页码|页次|頁碼|页|頁)$",
    re.IGNORECASE,
)


def heads_entry_columns(line: str) -> bool:
    """A list's column headings (:data:`_ENTRY_COLUMNS`): no entry, no title."""
    return _ENTRY_COLUMNS.match(" ".join(line.split())) is not None


#: A glossary's cross-reference between terms it defines in capitals: the term, then the
#: one it is told under ("JOB (see POSITION)", "LEAVE (SEE ALSO ABSENCE)").
_TERM = r"[A-Z][A-Z&/' -]*[A-Z]"
_CROSS_REFERENCE = re.compile(rf"{_TERM} \((?:[Ss]ee|SEE)(?: also| ALSO)? {_TERM}\)")


def refers_on(title: str) -> bool:
    """Whether ``title`` is a glossary's cross-reference alone: it sends the reader on to
    another defined term and titles nothing (a title naming where more is told, "Scoring
    (see Annex B)", is written in mixed case)."""
    return _CROSS_REFERENCE.fullmatch(title.strip()) is not None
