"""Stage A: the walk's events, made ready for the outline.

Input: the :class:`Event` s of one walk, in reading order (styled headings, body paragraphs,
other content lines, table-of-contents lines). What this module settles before headings
are built: which lines are a table of contents (:func:`mark_toc`), how a paragraph with
soft breaks is read (:func:`split_soft_breaks`), which styled headings only their
outline level made headings (:func:`styles_alone`), and which stand on a cover over the
contents (:func:`cover_headings`). The decisions are
the classifier's (``outline/``); this applies them to events.
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeAlias

from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem
from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.lines import ends_open, heading_text, soft_break_pieces
from lightrag_pchunk.outline.page_references import is_toc_line
from lightrag_pchunk.outline.placed import is_paragraph
from lightrag_pchunk.outline.section_names import names_paper_section
from lightrag_pchunk.outline.toc import MIN_TOC_LINES, listing_runs, literal_toc_runs, toc_end
from lightrag_pchunk.outline.toc_match import title_keys, toc_listed
from lightrag_pchunk.outline.unit_words import names_a_unit

#: A paragraph's text and its look on demand.
TextLook: TypeAlias = tuple[str, Callable[[], Look]]


class EventKind(enum.Enum):
    """What a line of the walk is, for the outline."""

    LINE = "line"  # content that is never a heading: tables, equations, boxes, notes
    PARAGRAPH = "paragraph"  # a body paragraph that the smart outline may promote
    TOC = "toc"  # a table-of-contents line


@dataclass(slots=True)
class Line:
    """One content line (it may hold soft breaks) and the paraIds it came from."""

    text: str
    start: str | None = None
    end: str | None = None


@dataclass(slots=True)
class Event:
    """One line of the body in reading order. ``level`` > 0 marks a styled heading (then
    ``line`` is its Markdown line and ``heading`` its text); ``look`` gives the look of a
    PARAGRAPH or a heading on demand (smart outline only); ``toc_level`` is the level of a
    table-of-contents entry when its style says (``toc 2`` -> 2), else 0; ``layout_table``
    numbers the layout table (a table read as text) a paragraph is in, from 1 (0: none);
    ``titles_nothing`` marks a PARAGRAPH its parser knows heads no section (a PDF's cover
    line), whose look the classifier still reads among the document's; ``cells`` gives the
    paragraphs of the table a LINE writes (their text and look on demand): text the body
    text size is learnt from (``parse/body_size.py``), never headings."""

    line: Line
    kind: EventKind = EventKind.LINE
    level: int = 0
    heading: str = ""
    is_list_item: bool = False
    look: Callable[[], Look] | None = None
    toc_level: int = 0
    layout_table: int = 0
    titles_nothing: bool = False
    cells: tuple[TextLook, ...] = ()


#: A field's name, then its blank to fill in ("电话：_____", "Name: ____").
_FIELD_BLANK = re.compile(r"[:：][ \t\u3000]*_{3,}")
#: Marks a title never ends on: it goes on in the next line ("技术及服务要求、").
_OPEN_MARKS = "、，,"
#: A table-of-contents entry is shorter than this (longer paragraphs are never checked).
_MAX_TOC_LINE = 300


def mark_toc(events: list[Event]) -> None:
    """Body paragraphs forming a table of contents written as text become TOC lines (a
    styled heading may be its title); a run of marked lines that turns into body text was
    no table of contents from there on (``_end_runaway_toc``)."""
    _end_runaway_toc(events)
    texts = []
    for event in events:
        text = event.heading if event.level else event.line.text
        # Nothing but a paragraph or a heading (which may be the title) can be an entry:
        # the others stand in as "not an entry". A long paragraph cannot be one either,
        # but it is body text, which tells a list of the sections' titles from the
        # sections (``listing_runs``): its start stands in for it.
        usable = event.kind is EventKind.PARAGRAPH or event.level
        texts.append(text[:_MAX_TOC_LINE] if usable else "")
    for start, end in sorted(literal_toc_runs(texts) + listing_runs(texts)):
        first = start + 1 if events[start].level else start
        # Only a run of paragraphs: a heading inside it breaks it, unless it titles a list
        # of its own (``_between_titles``); a line of print between its pages (a running
        # footer the page furniture kept) does not. A table inside it (two entries read as
        # one) stays a table and parts it: the entries on either side are the contents still.
        stretches = _between_tables(events, first, end)
        for lo, hi in (part for s, e in stretches for part in _between_titles(events, s, e)):
            entries = range(lo, hi)
            if all(
                events[i].kind is EventKind.PARAGRAPH or _printed_line(events[i]) for i in entries
            ):
                for i in entries:
                    events[i].kind = EventKind.TOC


def cover_headings(events: list[Event]) -> int:
    """How many styled headings stand on the document's cover: before its first table of
    contents, which lists none of them (a title and a subtitle set in heading styles over
    the contents); 0 when it lists one (a contents at the end lists the headings above it)
    or a paragraph of body text stands before it (no cover: sections)."""
    first = next((i for i, event in enumerate(events) if event.kind is EventKind.TOC), None)
    if first is None or any(
        event.kind is EventKind.PARAGRAPH
        and is_paragraph(
            OutlineItem(ItemKind.TEXT, event.line.text, is_list_item=event.is_list_item)
        )
        for event in events[:first]
    ):
        return 0
    cover = [event.heading for event in events[:first] if event.level]
    end = next((i for i in range(first, len(events)) if events[i].kind is not EventKind.TOC), None)
    table = [event.line.text for event in events[first:end]]
    listed = toc_listed(table, title_keys(cover))
    return 0 if any(entry is not None for entry in listed) else len(cover)


def _between_tables(events: list[Event], start: int, end: int) -> list[tuple[int, int]]:
    """The stretches of ``events[start:end]`` between the tables among them (the lines
    that write a table), each as a ``(start, end)`` range, empty ones left out."""
    cuts = [i for i in range(start, end) if _is_table(events[i])]
    return [(lo, hi) for lo, hi in _parted(start, end, cuts) if lo < hi]


def _between_titles(events: list[Event], start: int, end: int) -> list[tuple[int, int]]:
    """``events[start:end]`` parted at each heading that titles a list of its own inside
    the run (a list of figures after the contents): :data:`MIN_TOC_LINES` entries or more
    on either side of it, each part a list; the run whole where any heading inside it has
    fewer (a heading among the entries: the run is no table of contents)."""
    cuts = [i for i in range(start, end) if events[i].level]
    bounds = _parted(start, end, cuts)
    entries = [sum(is_toc_line(e.line.text) for e in events[lo:hi]) for lo, hi in bounds]
    if not cuts or min(entries) < MIN_TOC_LINES:
        return [(start, end)]
    return bounds


def _parted(start: int, end: int, cuts: list[int]) -> list[tuple[int, int]]:
    """``range(start, end)`` parted at ``cuts`` (indexes in it, in order, each left out of
    both parts): the ``(start, end)`` ranges between them."""
    return list(zip([start, *(i + 1 for i in cuts)], [*cuts, end], strict=True))


def _is_table(event: Event) -> bool:
    """Whether ``event`` is the line that writes a table (never a heading nor an entry)."""
    return event.kind is EventKind.LINE and event.line.text.lstrip().startswith("<table")


#: A line of print inside a table of contents is no longer than this (characters).
_MAX_PRINTED_LINE = 80


def _printed_line(event: Event) -> bool:
    """A short line of plain text that is no paragraph (set small: a page's running footer,
    its number), neither a heading nor a table, an equation or another tagged line."""
    text = event.line.text
    return (
        event.kind is EventKind.LINE
        and not event.level
        and not event.cells
        and len(text) <= _MAX_PRINTED_LINE
        and "\n" not in text
        and not text.lstrip().startswith(("<", "$"))
    )


def _end_runaway_toc(events: list[Event]) -> None:
    """Lines marked as a table of contents that turn into body text were none from there
    on (a TOC field whose end was lost takes the rest of the document with it): their
    marks are taken back (``outline/toc.py: toc_end``), and so are the marks of every later
    line without a page reference (the same field). Tables and other lines between the
    marked lines do not end a table of contents; a paragraph or a heading does."""
    index = 0
    runaway = False
    while index < len(events):
        if events[index].kind is not EventKind.TOC:
            index += 1
            continue
        end = index
        while end < len(events) and events[end].kind in (EventKind.TOC, EventKind.LINE):
            end += 1
        run = [e for e in events[index:end] if e.kind is EventKind.TOC]
        if runaway:
            cut = next((i for i, e in enumerate(run) if not is_toc_line(e.line.text)), len(run))
        else:
            cut = toc_end([e.line.text for e in run])
        for event in run[cut:]:
            if runaway and is_toc_line(event.line.text):
                continue  # an entry of a later table of contents
            event.kind = EventKind.PARAGRAPH
        runaway = runaway or cut < len(run)
        index = end


#: A layout table that holds at least this share of a document's text frames its page (a
#: web page or a form saved as a document): its paragraphs are the document's text.
PAGE_FRAME_SHARE = 0.5


def layout_paragraphs(events: list[Event], page_words: float | None) -> None:
    """Paragraphs of a layout table stay outline items only where the table frames the
    document's page (:data:`PAGE_FRAME_SHARE` of its paragraphs' words); a smaller one is a
    box, a framed note or one form of many beside the text, whose bold lines are its labels
    and titles, not the document's sections: they become lines that are never headings.
    One that holds a page of text all the same (more than ``page_words`` words: a paper
    pasted into one cell of a web page's layout) keeps its paragraphs as text that titles
    nothing but a paper's standard section names (``outline/section_names.py``): those
    head the parts of a stretch its styles leave too long, as in the body (``page_words``
    None: the document's styles give no outline, and no such table keeps its lines)."""
    if not any(event.layout_table for event in events):
        return  # no layout table: no paragraph's words need counting
    words: Counter[int] = Counter()
    for event in events:
        if event.kind is EventKind.PARAGRAPH:
            words[event.layout_table] += len(event.line.text.split())
    least = PAGE_FRAME_SHARE * sum(words.values())
    for event in events:
        if not event.layout_table or words[event.layout_table] >= least:
            continue
        is_page = page_words is not None and words[event.layout_table] > page_words
        if event.kind is EventKind.PARAGRAPH and is_page:
            event.titles_nothing = event.titles_nothing or not names_paper_section(event.line.text)
        else:
            event.kind = EventKind.LINE


def split_soft_breaks(events: list[Event]) -> list[Event]:
    """``events`` with each body paragraph that holds soft breaks cut where the classifier
    reads several pieces (``outline/lines.py: soft_break_pieces``: a series member on a line
    of its own, a numbered title over its text); the pieces keep the paragraph's ids and
    look, and their lines read as the paragraph's did."""
    out: list[Event] = []
    for event in events:
        text = event.line.text
        if event.kind is not EventKind.PARAGRAPH or "\n" not in text:
            out.append(event)
            continue
        for piece in soft_break_pieces(text):
            out.append(replace(event, line=replace(event.line, text=piece)))
    return out


def styles_alone(events: list[Event], is_heading: Callable[[Event], bool]) -> None:
    """Styled headings that only an outline level made headings become body paragraphs:
    list items (a bullet, a list number) that ``is_heading`` does not confirm, as a list
    style's level makes no heading by itself; a form's line of fields to fill in ("电  话：
    ______  传  真：___", a level set on it by hand), as a blank after a field's name titles
    nothing ("关于______的通知", a title with a blank, stays)."""
    for event in events:
        if not event.level:
            continue
        if (event.is_list_item and not is_heading(event)) or _FIELD_BLANK.search(event.heading):
            event.kind, event.level = EventKind.PARAGRAPH, 0
            event.line = replace(event.line, text=event.heading)


def join_split_titles(events: list[Event]) -> list[Event]:
    """``events`` where a body paragraph that is a unit's label alone ("第一篇", "Chapter 3")
    and the body paragraph right after it that reads as a title without a label
    ("基本制度和行为规范", "Results") are one paragraph over two lines, as a soft break would
    write them ("第一章" over "总则"): the outline reads one title, its label with its name
    (the label alone would head the section, its name left as the section's first line).
    Not where a third such title follows: a label over a block of title lines (an
    appendix's name over the title of the form it holds) is read as it stands. A styled
    heading left open ("第三章 总体要求、技术及服务要求、", "Terms and") goes on in such a
    paragraph after it ("商务和其它要求"): one heading, as a soft break in it would be."""
    out: list[Event] = []
    for index, event in enumerate(events):
        head = out[-1] if out else None
        after = events[index + 1] if index + 1 < len(events) else None
        if head is None or not _goes_on(head, event):
            out.append(event)
        elif _left_open(head):  # a styled heading's title: it goes on in its line
            rest = event.line.text.strip()
            sep = "" if head.heading[-1] in _OPEN_MARKS else " "
            head.heading = f"{head.heading}{sep}{rest}"
            head.line = Line(f"{head.line.text}{sep}{rest}", head.line.start, event.line.end)
        elif after is None or not _titles_on(head, after):  # a label over its name
            line = f"{head.line.text}\n{event.line.text}"
            head.line = Line(line, head.line.start, event.line.end)
        else:
            out.append(event)
    return out


def _goes_on(head: Event, event: Event) -> bool:
    """Whether the title of ``head``, which cannot end where it stands (a bare label, a
    styled heading left open: most events are neither), goes on in ``event``."""
    return (_left_open(head) or _is_bare_unit(head)) and _titles_on(head, event)


def _left_open(event: Event) -> bool:
    """A styled heading whose title stops where it must go on: on an enumeration's comma
    ("…技术及服务要求、"), on "and" or "of" (``outline/lines.py: ends_open``)."""
    title = event.heading.strip()
    return bool(event.level and title) and (title[-1] in _OPEN_MARKS or ends_open(title))


def _one_line_body(event: Event) -> str | None:
    """The text of ``event`` when it is a body paragraph on one line that may title
    something (not one its parser knows heads no section); else None."""
    text = event.line.text.strip()
    if event.kind is not EventKind.PARAGRAPH or event.titles_nothing or "\n" in text:
        return None
    return text


def _is_bare_unit(event: Event) -> bool:
    """A body paragraph that is a unit's label alone, nothing after it ("第二篇", "PART II")."""
    text = _one_line_body(event)
    label = parse_label(text) if text is not None else None
    return label is not None and not label.rest and names_a_unit(label)


def _titles_on(head: Event, event: Event) -> bool:
    """Whether ``event``, a paragraph after ``head`` (a bare label, a styled heading left
    open), may carry its title on: a body paragraph of the same table (or none) that reads
    as a title with no label of its own and no text after it, on one line and not an entry
    of a table of contents."""
    text = _one_line_body(event)
    if text is None or event.layout_table != head.layout_table or is_toc_line(text):
        return False
    title = heading_text(text, markdown=False)
    return title is not None and title.label is None and not title.body


def mark_toc_listed(events: list[Event], items: list[OutlineItem]) -> None:
    """Mark the lines the document's tables of contents list (``in_toc``, ``toc_level``);
    styled headings take their entries too, so that the entries stay in step. Each table
    (a run of TOC lines) is matched on its own: a list of tables after the contents must
    not carry the matching past the headings."""
    tables: list[list[Event]] = []
    for index, event in enumerate(events):
        if event.kind is EventKind.TOC:
            if index == 0 or events[index - 1].kind is not EventKind.TOC:
                tables.append([])
            tables[-1].append(event)
    if not tables:
        return
    keys = title_keys(item.text if item.kind is not ItemKind.OTHER else None for item in items)
    for table in tables:
        listed = toc_listed([e.line.text for e in table], keys)
        for item, entry in zip(items, listed, strict=True):
            if entry is not None and item.kind is ItemKind.TEXT and not item.in_toc:
                item.in_toc, item.toc_level = True, table[entry].toc_level
