"""Stage A for PDF: paragraphs and tables -> the outline's events, then blocks that know
their pages.

Input: the document's paragraphs in reading order, its tables and its stated outline.
Output: the events :func:`~lightrag_pchunk.parse.outline_build.build_blocks` turns into
heading-scoped blocks (as for Word), then :class:`~lightrag_pchunk.parse.content_rows.
SourceBlock` s whose ``positions`` say where each piece of their text is printed.

Positions are LightRAG's own (``lightrag/sidecar/ir.py: IRPosition``, as its MinerU and
docling builders write them for a PDF): one per content line and page,
``{"type": "bbox", "anchor": "<page>", "range": [left, bottom, right, top],
"charspan": [start, end]}``, where ``anchor`` is the 1-based page number as a string,
``range`` the box in PDF points with the origin at the page's bottom left (the meta row's
``bbox_attributes``), and ``charspan`` the characters of the block's content printed there.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from lightrag_pchunk.model import MAX_HEADING_LENGTH
from lightrag_pchunk.outline.infer import MAX_PLAIN_WORDS, body_words
from lightrag_pchunk.outline.items import LARGER_BY, Look, is_larger_than_text
from lightrag_pchunk.outline.lines import heading_text
from lightrag_pchunk.outline.numbering import is_bare_label
from lightrag_pchunk.parse.content_rows import SourceBlock
from lightrag_pchunk.parse.outline_build import (
    Event,
    EventKind,
    RawBlock,
    markdown_heading_line,
)
from lightrag_pchunk.parse.outline_build import Line as EventLine
from lightrag_pchunk.pdf.bookmark_match import line_top, match_bookmarks, unmatched_warnings
from lightrag_pchunk.pdf.heading_labels import join_heading_labels
from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line
from lightrag_pchunk.pdf.line_ends import join_lines
from lightrag_pchunk.pdf.list_items import list_items
from lightrag_pchunk.pdf.outline import Outline
from lightrag_pchunk.pdf.printed_paragraph import PrintedParagraph, line_text
from lightrag_pchunk.pdf.printed_toc import MIN_ENTRIES, toc_bookmarks
from lightrag_pchunk.pdf.row_cells import row_cells
from lightrag_pchunk.pdf.table_parts import PagePart, RenderedTable
from lightrag_pchunk.pdf.tagged_levels import tagged_levels
from lightrag_pchunk.pdf.title_guards import (
    chart_titles,
    column_cells,
    continued_titles,
    cover_lines,
    reads_as_formula,
    repeated_numbers,
    running_titles,
    slanted_lines,
    table_titles,
    title_headers,
)
from lightrag_pchunk.pdf.title_split import split_title_lines

#: A bookmark naming more words than this, set in the body's look, names a passage.
PASSAGE_WORDS = 2 * MAX_PLAIN_WORDS
#: The meta row's ``bbox_attributes``: positions are in PDF points, origin bottom left.
BBOX_ATTRIBUTES = {"origin": "LEFTBOTTOM", "unit": "pt"}


# No slots: a PDF's reading crosses from its child process by pickle, and a frozen
# dataclass with slots pickles through state methods that look its fields up for every
# object (a quarter of the pickling time); without slots pickle copies the dict.
@dataclass(frozen=True)
class Unit:
    """A content line's source: its text and where each part of it is printed."""

    text: str
    parts: tuple[PagePart, ...]


def paragraph_parts(paragraph: PrintedParagraph) -> tuple[PagePart, ...]:
    """Where each page's share of a paragraph's text is printed."""
    parts: list[PagePart] = []
    lines, starts = paragraph.lines, paragraph.starts
    begin = 0
    for index in range(1, len(lines) + 1):
        if index < len(lines) and lines[index].page == lines[begin].page:
            continue
        end = starts[index] if index < len(lines) else len(paragraph.text)
        boxes = [s.bbox for line in lines[begin:index] for s in line.segments]
        bbox = (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
        parts.append(PagePart(lines[begin].page, starts[begin], end, bbox))
        begin = index
    return tuple(parts)


def events_of(
    found: Sequence[PrintedParagraph],
    tables: dict[str, RenderedTable],
    outline: Outline,
) -> tuple[list[Event], dict[str, Unit]]:
    """The outline's events for the paragraphs (headings the document states marked at
    their level), and each event line's source by its id."""
    found = list(found)
    levels: dict[int, int] = {}
    # A running header printing the chapter's title over the title itself heads nothing, and
    # no stated heading is looked for in it; kept by identity, as the titles' lines are split.
    headers = {id(found[index]) for index in title_headers(found)}
    if outline.source == "tagged":
        levels = tagged_levels([p.role for p in found], [p.text for p in found])
    elif outline.bookmarks:
        found = split_title_lines(found, outline.bookmarks)
        printed_tables = [part for table in tables.values() for part in table.parts]
        found, levels = _bookmark_headings(found, outline, headers, cells=printed_tables)
        # A cell of a table printed without rules heads nothing, as in Word (``row_cells``).
        cells = row_cells(found, levels)
        levels = {index: level for index, level in levels.items() if index not in cells}
    else:
        entries, after = toc_bookmarks(found)
        if entries:
            printed = Outline("toc", entries)
            found, levels = _bookmark_headings(found, printed, headers, after)
            if len(levels) >= MIN_ENTRIES:
                outline.source = "toc"
            else:
                found, levels = list(found), {}
    body_size = _body_size(found)
    found, levels = join_heading_labels(found, levels, body_size)
    events: list[Event] = []
    units: dict[str, Unit] = {}
    looks: dict[Look, Callable[[], Look]] = {}
    running = running_titles(found) | continued_titles(found) | chart_titles(found)
    running |= column_cells(found) | table_titles(found) | slanted_lines(found)
    running |= {index for index, paragraph in enumerate(found) if id(paragraph) in headers}
    titles_nothing = cover_lines(found, levels, tables, body_size) | repeated_numbers(found, levels)
    items = list_items(found)
    in_tables = _text_in_tables(found, tables)
    for index, paragraph in enumerate(found):
        unit_id = f"p{index}"
        text = paragraph.text
        if paragraph.role == TABLE_ROLE:
            table = tables[text]
            look = _look_of(paragraph.look, looks)
            cells = tuple((cell, look) for cell in table.cells) if in_tables else ()
            for number, line in enumerate(table.lines):
                line_id = f"{unit_id}.{number}"
                parts = table.parts if number == table.tag_index else table.text_parts(number)
                units[line_id] = Unit(line, parts)
                events.append(Event(EventLine(line, line_id, line_id), cells=cells))
                cells = ()
            continue
        units[unit_id] = Unit(text, paragraph_parts(paragraph))
        level = levels.get(index)
        if level is not None and outline.source == "bookmarks":
            level = level if _titles_section(paragraph, body_size) else None
        if level is not None:
            title = " ".join(text.split())
            line = EventLine(markdown_heading_line(level, title), unit_id, unit_id)
            # Its look lets the classifier continue its numbered series where the file
            # left a member as text (``outline.known_series.continue_known_series``).
            events.append(
                Event(line, level=level, heading=title, look=_look_of(paragraph.look, looks))
            )
            continue
        if index in running or reads_as_formula(text):
            # A running, continued, table or chart title, a cell, a title of a table, a
            # slanted stamp, an equation: no section's.
            kind = EventKind.LINE
        elif 0 < paragraph.look.size <= body_size - LARGER_BY and not _is_small_title(
            paragraph, body_size
        ):
            # Set smaller than the text: a footnote, a caption, a figure's label; never a
            # heading, but a line of a table of contents (often set small) still counts.
            kind = EventKind.PARAGRAPH if paragraph.is_toc_entry else EventKind.LINE
        else:
            kind = EventKind.PARAGRAPH
        events.append(
            Event(
                EventLine(text, unit_id, unit_id),
                kind=kind,
                is_list_item=index in items,
                look=_look_of(paragraph.look, looks),
                # A cover's line, a line numbered as its section: its look still tells the
                # document's tiers of looks.
                titles_nothing=index in titles_nothing,
            )
        )
    return events, units


#: Lines of a bold paragraph set smaller than the text that may be a heading, at most.
SMALL_TITLE_LINES = 2
#: The smallest size of such a heading, as a share of the text's size: a step below it
#: (a figure's labels and a table's notes are set smaller still).
SMALL_TITLE_SHARE = 0.85


def _is_small_title(paragraph: PrintedParagraph, body_size: float) -> bool:
    """A paragraph of a line or two in bold, set a step smaller than the text: a heading
    of a document whose headings are small and bold (footnotes are not bold in whole; the
    classifier still judges it)."""
    return (
        paragraph.look.bold
        and len(paragraph.lines) <= SMALL_TITLE_LINES
        and paragraph.look.size >= SMALL_TITLE_SHARE * body_size
    )


def _titles_section(paragraph: PrintedParagraph, body_size: float) -> bool:
    """Whether the paragraph a bookmark names reads as a section's title. Not when it is a
    bare label ("3.": the number of a heading without text, which Word does not count), nor
    when it is a passage: more than ``MAX_HEADING_LENGTH`` characters (LightRAG's limit on a
    heading's text, by which a Word heading paragraph that long is kept as body text), or
    more than :data:`PASSAGE_WORDS` words set in the body's look that do not read as a title (a
    bookmark to a paragraph a reader may jump to, which a heading path of fifty words
    would only hide)."""
    text = paragraph.text
    if is_bare_label(text):
        return False
    if len(" ".join(text.split())) > MAX_HEADING_LENGTH:
        return False
    look = paragraph.look
    if look.bold or is_larger_than_text(look, body_size):
        return True
    return heading_text(text, markdown=False) is not None or body_words([text]) <= PASSAGE_WORDS


#: The tables hold the document's text when their cells hold this many times the
#: characters of the paragraphs outside them, or more (two thirds of the text).
TABLES_HOLD_TEXT = 2


def _text_in_tables(found: Sequence[PrintedParagraph], tables: dict[str, RenderedTable]) -> bool:
    """Whether the tables hold the document's text (:data:`TABLES_HOLD_TEXT`): then their
    cells' text, in their size (the median of each table's runs), is text the body size is
    learnt from (``Event.cells``), as a Word table's cells are (a form, rich cells under
    each title: the titles outside are no text). Not otherwise: a PDF's cell is read
    without its lines, so a code listing in a cell reads as one long line, which the body
    size's sample (the longest lines) would rank above the prose; and a line introducing a
    small table ("Pressure limits:") is text, not a title over it."""
    in_cells = outside = 0
    for paragraph in found:
        if paragraph.role == TABLE_ROLE:
            in_cells += sum(len(cell) for cell in tables[paragraph.text].cells)
        else:
            outside += len(paragraph.text)
    return in_cells >= TABLES_HOLD_TEXT * max(outside, 1)


def _body_size(found: Sequence[PrintedParagraph]) -> float:
    """The size most of the document's text is set in (points), by characters."""
    sizes: dict[float, int] = {}
    for paragraph in found:
        if paragraph.role != TABLE_ROLE:
            size = round(paragraph.look.size * 2) / 2
            sizes[size] = sizes.get(size, 0) + len(paragraph.text)
    return max(sizes, key=lambda size: sizes[size]) if sizes else 0.0


def _look_of(look: Look, known: dict[Look, Callable[[], Look]]) -> Callable[[], Look]:
    """The event's look, asked for on demand (picklable: events cross from the reading's
    process). Equal looks share one callable, kept in ``known``: a document has a few
    looks, and the pipe then sends each once instead of once an event."""
    if look not in known:
        known[look] = partial(_same, look)
    return known[look]


def _same(look: Look) -> Look:
    return look


def _bookmark_headings(
    found: list[PrintedParagraph],
    outline: Outline,
    headers: Collection[int],
    start: int = 0,
    cells: Sequence[PagePart] = (),
) -> tuple[list[PrintedParagraph], dict[int, int]]:
    """The paragraphs, each one a bookmark names split after its title lines when text
    follows them in the same paragraph (or joined with the paragraphs after it that its
    title runs on into), and the heading level of each named one (looked for from
    paragraph ``start`` on; ``cells``: where the tables are printed, which the bookmarks
    naming no line may point into; ``headers``: the running headers printing a title over
    it, by identity)."""
    # A table's stand-in has no lines of text, and a running header repeats a title: no
    # title is looked for in either.
    texts = [
        [] if p.role == TABLE_ROLE or id(p) in headers else [line_text(line) for line in p.lines]
        for p in found
    ]
    pages = [p.lines[0].page for p in found]
    tops = [[line_top(line) for line in p.lines] for p in found]
    matches = match_bookmarks(outline.bookmarks, texts, pages, start, tops)
    if outline.source == "bookmarks":
        outline.warnings += unmatched_warnings(outline, {m.bookmark for m in matches}, cells)
    # A paragraph may hold several titles (a title page's lines set as close as a
    # paragraph's): each bookmark names its own lines of it, in order.
    named: dict[int, list[tuple[int, int, int]]] = {}
    for m in matches:
        level = outline.bookmarks[m.bookmark].level
        named.setdefault(m.paragraph, []).append((m.first, m.lines, level))
    result: list[PrintedParagraph] = []
    levels: dict[int, int] = {}
    index = 0
    while index < len(found):
        rest: PrintedParagraph | None = found[index]
        titles = named.get(index, [])
        index += 1
        read = 0  # lines of the paragraph the titles before took, with the text before them
        for first, lines, level in titles:
            if rest is None:
                break  # the title before took the paragraph's lines (the matcher avoids it)
            if first > read:
                # The title starts on a later line: the lines before it are text.
                result.append(_sub_paragraph(rest, 0, first - read))
                rest = _sub_paragraph(rest, first - read, len(rest.lines))
            read = first + lines
            levels[len(result)] = level
            if lines > len(rest.lines):
                # The title runs on into the paragraphs after it: one paragraph of them.
                title_lines = list(rest.lines)
                while (
                    len(title_lines) < lines
                    and index < len(found)
                    and found[index].role != TABLE_ROLE
                ):
                    title_lines += found[index].lines
                    index += 1
                rest = _joined(rest, title_lines)
            if lines >= len(rest.lines):
                result.append(rest)
                rest = None
                break
            result.append(_sub_paragraph(rest, 0, lines))
            rest = _sub_paragraph(rest, lines, len(rest.lines))
        if rest is not None:
            result.append(rest)
    return result, levels


def _joined(first: PrintedParagraph, lines: list[Line]) -> PrintedParagraph:
    text, starts = join_lines([line_text(line) for line in lines])
    return PrintedParagraph(text, tuple(lines), starts, first.look, first.is_toc_entry)


def _sub_paragraph(paragraph: PrintedParagraph, start: int, end: int) -> PrintedParagraph:
    lines = paragraph.lines[start:end]
    text, starts = join_lines([line_text(line) for line in lines])
    return PrintedParagraph(text, lines, starts, paragraph.look, paragraph.is_toc_entry)


def source_blocks(raw_blocks: Sequence[RawBlock], units: dict[str, Unit]) -> list[SourceBlock]:
    """The blocks with their positions (see the module doc) and our row keys."""
    blocks: list[SourceBlock] = []
    for block in raw_blocks:
        texts = [line.text for line in block.lines]
        positions: list[dict[str, Any]] = []
        offset = 0
        for line, text in zip(block.lines, texts, strict=True):
            unit = units.get(line.start or "")
            if unit is not None:
                positions.extend(_line_positions(text, unit, offset))
            offset += len(text) + 1
        blocks.append(
            SourceBlock(
                block.heading, block.level, block.parents, texts, tuple(positions), block.row_keys()
            )
        )
    return blocks


def _line_positions(text: str, unit: Unit, offset: int) -> list[dict[str, Any]]:
    """The positions of one content line made from ``unit``: exact where the line holds
    the unit's text (at ``shift``), else the whole line on each of the unit's pages."""
    shift = text.find(unit.text) if unit.text else -1
    positions = []
    for part in unit.parts:
        if shift >= 0:
            start, end = offset + shift + part.start, offset + shift + part.end
        else:
            start, end = offset, offset + len(text)
        positions.append(
            {
                "type": "bbox",
                "anchor": str(part.page),
                "range": [round(v, 2) for v in part.bbox],
                "charspan": [start, end],
            }
        )
    return positions
