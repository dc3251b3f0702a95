"""Stage A for PDF: lines that look like titles but title no section, which the heading
classifier never makes headings (their paragraphs stay text, whole).

- A running title: one line printed at one height on many pages, inside the text area
  where the page furniture leaves it (a title on alternate pages, a report's table title
  over each page of the table).
- A continued title: a title printed again on a later page with a mark that it goes on
  ("TABLES (Continued)", "Results (cont'd)", "附表（续）"): the section it names goes on.
- A displayed equation: an equation editor's operators and single-letter names, set
  large.
- Text drawn at a slant (a stamp across the page, a chart's slanted label): it crosses
  the page's lines and opens no section.
- A chart's title: a line over the numbers of an axis, each a line of its own, evenly
  stepped ("Chart Title" over "6", "5", "4", "3" …).
- A cell of a table's later column printed on a line of its own: it starts where lines
  around it have a later segment, their cells of that column ("Varies" beside its row's
  first cell broken over two lines).
- A table's title in a look that titles tables: most lines of their look stand right
  above a table (a statistics package's output, a sampler of tables: "Quartile
  Estimates", "Merging, empty cells" over each table).
- A cover page's lines but its title: subtitle, version, date, authors, publisher (their
  look still counts among the document's looks: ``titles_nothing``).
- A line numbered as the heading the file states before it in that numbering ("CA-2
  Additional FedRAMP Requirements and Guidance" in "CA-2 Security Assessments"): a line
  of that section, as a number names one section (``titles_nothing``).

Input: the document's paragraphs in reading order. Output: which of them are which.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from itertools import pairwise

from lightrag_pchunk.outline.infer import MAX_PLAIN_WORDS, Look, body_words
from lightrag_pchunk.outline.items import LARGER_BY
from lightrag_pchunk.outline.numbering import Label, is_bare_label, parse_label
from lightrag_pchunk.pdf.bullets import is_bulleted
from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line
from lightrag_pchunk.pdf.outline import normalise
from lightrag_pchunk.pdf.printed_paragraph import PAGE_NUMBER, SIZE_TOLERANCE, PrintedParagraph
from lightrag_pchunk.pdf.repeats import HEIGHT_TOLERANCE, repeats_at
from lightrag_pchunk.pdf.table_parts import RenderedTable
from lightrag_pchunk.pdf.watermarks import is_slanted

#: A line printed at about the same height on this many pages or more, in one look, is a
#: running title or the title of a table printed over pages, not as many sections.
RUNNING_TITLE_PAGES = 3


#: Distinct titles printed at fixed heights on the same pages, this many at least and at two
#: heights at least, are a page template's section titles.
TEMPLATE_TITLES = 3


def running_titles(found: Sequence[PrintedParagraph]) -> set[int]:
    """Indexes of the one-line paragraphs whose text, in one look, is printed at about the
    same height (``repeats.HEIGHT_TOLERANCE``) on :data:`RUNNING_TITLE_PAGES` pages or
    more, making half its printings at least, and of the other paragraphs with that text
    and look. The page furniture leaves such lines when they sit inside the text area: a
    running title on alternate pages, a report's table title printed again over each page
    of the table. A section title a document repeats ("Properties" under each of fifty
    objects) meets three of its printings at one height by chance, not half of them; the
    titles of a page template (:func:`_template_titles`) are sections' titles."""
    placed: dict[tuple[str, Look], list[int]] = defaultdict(list)
    for index, paragraph in enumerate(found):
        if paragraph.role != TABLE_ROLE and len(paragraph.lines) == 1:
            key = normalise(paragraph.text)
            if key:
                placed[(key, paragraph.look)].append(index)
    repeated: dict[tuple[str, Look], tuple[set[int], float]] = {}
    for group, indexes in placed.items():
        places = [(found[i].lines[0].page, found[i].lines[0].top) for i in indexes]
        needed = max(RUNNING_TITLE_PAGES, len(places) / 2)
        top = next((top for _, top in places if repeats_at(places, top, needed)), None)
        if top is not None:
            repeated[group] = ({page for page, _ in places}, top)
    template = _template_titles(repeated)
    return {i for group in repeated.keys() - template for i in placed[group]}


def _template_titles(
    repeated: Mapping[tuple[str, Look], tuple[set[int], float]],
) -> set[tuple[str, Look]]:
    """The groups of ``repeated`` (each text and look: its pages, the height it repeats
    at) that title a page template's sections: with others, :data:`TEMPLATE_TITLES` in
    all, printed on :data:`RUNNING_TITLE_PAGES` of its pages, at two heights at least
    (a designed report printing "Is it vulnerable?", "How to prevent" and "References" at
    their places on each chapter's page). A running title is one line over a page's text,
    a header and its other half beside it at its height."""
    template: set[tuple[str, Look]] = set()
    for group, (pages, top) in repeated.items():
        tops = [top] + [
            other_top
            for other, (other_pages, other_top) in repeated.items()
            if other != group and len(pages & other_pages) >= RUNNING_TITLE_PAGES
        ]
        if len(tops) >= TEMPLATE_TITLES and max(tops) - min(tops) > HEIGHT_TOLERANCE:
            template.add(group)
    return template


def title_headers(found: Sequence[PrintedParagraph]) -> set[int]:
    """Indexes of the one-line paragraphs that open their page, set smaller than the next
    paragraph, whose first line prints the same text: a running header repeating the
    chapter's title over the title itself ("Installation" atop a manual's page), which
    heads nothing."""
    headers: set[int] = set()
    for index, (paragraph, below) in enumerate(pairwise(found)):
        if TABLE_ROLE in (paragraph.role, below.role) or len(paragraph.lines) != 1:
            continue
        page = paragraph.lines[0].page
        if below.lines[0].page != page or (index and found[index - 1].lines[-1].page == page):
            continue
        if paragraph.look.size + SIZE_TOLERANCE < below.look.size and normalise(
            paragraph.text
        ) == normalise(below.lines[0].text):
            headers.add(index)
    return headers


#: A title's mark that it goes on from an earlier page, at its end.
_CONTINUED = re.compile(
    r"(?:[(\[（]\s*(?:continued|cont(?:'|’)?d|cont\.?|续)\s*[)\]）]"
    r"|[\s\-–—:,]+(?:continued|cont(?:'|’)?d))\.?\s*$",
    re.IGNORECASE,
)


def continued_titles(found: Sequence[PrintedParagraph]) -> set[int]:
    """Indexes of the one-line paragraphs that print an earlier page's one-line paragraph
    again, with a mark that it goes on: a section (or a list, a table) that carries on
    over a page break names itself again at the new page's top; a new section it is not."""
    earlier: dict[str, int] = {}
    continued: set[int] = set()
    for index, paragraph in enumerate(found):
        if paragraph.role == TABLE_ROLE or len(paragraph.lines) != 1:
            continue
        page = paragraph.lines[0].page
        mark = _CONTINUED.search(paragraph.text)
        if mark is not None and mark.start() > 0:
            named = normalise(paragraph.text[: mark.start()])
            if named and earlier.get(named, page) < page:
                continued.add(index)
                continue
        earlier.setdefault(normalise(paragraph.text), page)
    return continued


#: Evenly stepped numbers, each a line of its own, after a line: an axis under its chart's
#: title (three numbers are two equal steps).
AXIS_NUMBERS = 3
_AXIS_NUMBER = re.compile(r"^[-−–]?[$€£¥]?\d{1,3}(?:[,\s]\d{3})*(?:\.\d+)?\s*%?$")


def slanted_lines(found: Sequence[PrintedParagraph]) -> set[int]:
    """Indexes of the paragraphs drawn at a slant, every line of them."""
    return {i for i, paragraph in enumerate(found) if all(map(is_slanted, paragraph.lines))}


def chart_titles(found: Sequence[PrintedParagraph]) -> set[int]:
    """Indexes of the paragraphs followed at once by :data:`AXIS_NUMBERS` numbers or more,
    each a paragraph of its own and evenly stepped (6, 5, 4; 0%, 20%, 40%): the tick labels
    of a chart's axis, under the chart's title, which titles a figure, not a section."""
    titles: set[int] = set()
    for index, paragraph in enumerate(found[:-AXIS_NUMBERS]):
        if paragraph.role == TABLE_ROLE or _axis_value(paragraph.text) is not None:
            continue
        values = []
        for after in found[index + 1 : index + 1 + AXIS_NUMBERS]:
            value = _axis_value(after.text) if after.role != TABLE_ROLE else None
            if value is None:
                break
            values.append(value)
        steps = [b - a for a, b in pairwise(values)]
        if (
            len(values) == AXIS_NUMBERS
            and steps[0]
            and all(abs(step - steps[0]) <= 1e-6 * max(1.0, abs(steps[0])) for step in steps)
        ):
            titles.add(index)
    return titles


def _axis_value(text: str) -> float | None:
    """The number ``text`` prints alone (a sign, a currency, thousands apart, a percent),
    or None."""
    text = text.strip()
    if not _AXIS_NUMBER.match(text):
        return None
    digits = re.sub(r"[^\d.]", "", text)
    value = float(digits)
    return -value if text[0] in "-−–" else value


#: A line starts in a column of cells when lines near it (:data:`CELL_NEIGHBOURS` either
#: way, on its page), above it and below it, have a cell starting where it starts ...
CELL_NEIGHBOURS = 4
#: ... within this many points.
CELL_ALIGN = 1.0


def column_cells(found: Sequence[PrintedParagraph]) -> set[int]:
    """Indexes of the one-line paragraphs that stand in a column of cells: lines near it
    (:data:`CELL_NEIGHBOURS` printed lines either way on its page), one above it and one
    below it at least, start further left and have a later cell starting where it starts
    (:data:`CELL_ALIGN`). A table without column rules read as text prints a later
    column's cell on a line of its own where its row's first cell wraps over two ("OMB
    Policy, Priorities," / "Varies" / "Shared Services"); such a cell titles no section.
    A cell is a segment after the line's first, which is no numbering label or bullet
    alone (a list item's text after its label's tab) and no page number (a table of
    contents' entry)."""
    placed = [
        (index, line)
        for index, paragraph in enumerate(found)
        if paragraph.role != TABLE_ROLE and not paragraph.is_toc_entry
        for line in paragraph.lines
    ]
    cells: set[int] = set()
    for at, (index, line) in enumerate(placed):
        if len(found[index].lines) != 1:
            continue
        sides = {
            other.top < line.top
            for _, other in placed[max(at - CELL_NEIGHBOURS, 0) : at + CELL_NEIGHBOURS + 1]
            if other.page == line.page
            and other.x0 < line.x0 - CELL_ALIGN
            and _has_cell_at(other, line.x0)
        }
        if sides == {True, False}:
            cells.add(index)
    return cells


def _has_cell_at(line: Line, x: float) -> bool:
    """Whether a segment of ``line`` after its first, a cell, starts at ``x``
    (:func:`column_cells`)."""
    first = line.segments[0].text.strip()
    if is_bulleted(first) or is_bare_label(first):
        return False
    return any(
        abs(s.x0 - x) <= CELL_ALIGN and not PAGE_NUMBER.match(s.text.strip())
        for s in line.segments[1:]
    )


#: A run of this many letters is a word a title may be made of (a formula's are single
#: letters and two-letter names: "x", "Xn", "dx").
TITLE_WORD_LETTERS = 3
_TITLE_WORD = re.compile(rf"[^\W\d_]{{{TITLE_WORD_LETTERS},}}")


def reads_as_formula(text: str) -> bool:
    """A line with a mathematical operator of an equation's font ("∑", "∩", "−": Unicode's
    ``Sm`` past Latin-1) and no word of :data:`TITLE_WORD_LETTERS` letters: a displayed
    equation as its glyphs read ("¿n=1¿m ( Xn∩Yn)"), which a heading never is. A value
    typed with the keyboard's "=" ("S2 (6) = 0.6687") may title a section."""
    if _TITLE_WORD.search(text):
        return False  # most lines: words, looked for before the symbols, char by char
    return any(ord(char) > 0xFF and unicodedata.category(char) == "Sm" for char in text)


#: A first page with at most this many words of text (its tables' included) is a cover
#: page when the document goes on after it: a title page holds a title and a few lines.
COVER_WORDS = 60


#: A look titles tables when this share of its unnumbered short paragraphs, two at least,
#: stand right above a table.
TABLE_TITLE_SHARE = 2 / 3
#: Lines of a table's title, at most.
TABLE_TITLE_LINES = 2


def table_titles(found: Sequence[PrintedParagraph]) -> set[int]:
    """Indexes of the unnumbered paragraphs of a line or two that stand right above a table
    on their page, set no larger than its cells (by :data:`LARGER_BY` at most), in a look
    of which most such paragraphs do (:data:`TABLE_TITLE_SHARE`): the titles of the
    tables, not of sections. Left to the classifier: a heading set larger than the table
    it opens, a title over a table among titles of its look over text, titles of a look
    half of which have text after their table (:func:`_heads_text_after_table`: a report
    whose every section opens with its table), a numbered one ("AC-2 Account Management"
    over its control's table)."""
    by_look: defaultdict[tuple[float, bool, bool], list[int]] = defaultdict(list)
    above: set[int] = set()
    for index, paragraph in enumerate(found):
        if (
            paragraph.role == TABLE_ROLE
            or paragraph.is_toc_entry
            or len(paragraph.lines) > TABLE_TITLE_LINES
            or parse_label(paragraph.text) is not None
        ):
            continue
        by_look[paragraph.look.signature()].append(index)
        following = found[index + 1] if index + 1 < len(found) else None
        if (
            following is not None
            and following.role == TABLE_ROLE
            and following.lines[0].page == paragraph.lines[-1].page
            and paragraph.look.size <= following.look.size + LARGER_BY
        ):
            above.add(index)
    titles: set[int] = set()
    for members in by_look.values():
        over = [index for index in members if index in above]
        if len(over) < 2 or len(over) < TABLE_TITLE_SHARE * len(members):
            continue
        if 2 * sum(_heads_text_after_table(found, index) for index in over) < len(over):
            titles.update(over)
    return titles


def _heads_text_after_table(found: Sequence[PrintedParagraph], index: int) -> bool:
    """Whether the first paragraph after the tables under ``found[index]`` is text of a
    section: more than :data:`MAX_PLAIN_WORDS` words, set no smaller than the title by
    :data:`LARGER_BY` (a table's note is set smaller), not itself over a table (the next
    table's title or lead-in). A sampler's title is followed by the next title, or by
    nothing."""
    after = index + 1
    while after < len(found) and found[after].role == TABLE_ROLE:
        after += 1
    if after == len(found):
        return False
    paragraph = found[after]
    over_a_table = after + 1 < len(found) and found[after + 1].role == TABLE_ROLE
    return (
        not over_a_table
        and body_words([paragraph.text]) > MAX_PLAIN_WORDS
        and paragraph.look.size > found[index].look.size - LARGER_BY
    )


def cover_lines(
    found: Sequence[PrintedParagraph],
    named: Collection[int],
    tables: Mapping[str, RenderedTable],
    body_size: float,
) -> set[int]:
    """Indexes of a cover page's paragraphs that title no section. The document's first
    page, when it holds at most :data:`COVER_WORDS` words, no table-of-contents entry and
    one paragraph at most in the text's look (``body_size``, not bold: a short page of
    headings over a line of text each is no cover), and the document goes on after it,
    is its title page: its title (the paragraph a
    stated outline names there, else the first of its largest ones) may head the
    document; the other lines are its subtitle, version, date, authors and publisher
    ("Version 5.0", "May 2006", a translator's name), which headings would cut into
    sections of a line each. ``named``: the paragraphs the stated outline names (kept);
    ``tables``: the document's tables, by their stand-ins' text."""
    if not found:
        return set()
    page = found[0].lines[0].page
    cover = [i for i, p in enumerate(found) if p.lines[0].page == page]
    if len(cover) == len(found) or any(found[i].is_toc_entry for i in cover):
        return set()
    texts = [i for i in cover if found[i].role != TABLE_ROLE]
    words = body_words(found[i].text for i in texts)
    words += sum(
        body_words(tables[found[i].text].lines) if found[i].text in tables else 0.0
        for i in cover
        if i not in texts
    )
    in_text_look = sum(1 for i in texts if _in_text_look(found[i].look, body_size))
    if len(texts) < 2 or words > COVER_WORDS or in_text_look > 1:
        return set()
    titles = [i for i in texts if i in named]
    if not titles:
        titles = [max(texts, key=lambda i: (found[i].look.size, -i))]
    return set(texts) - set(titles)


def _in_text_look(look: Look, body_size: float) -> bool:
    return not look.bold and abs(look.size - body_size) < SIZE_TOLERANCE


def repeated_numbers(found: Sequence[PrintedParagraph], named: Collection[int]) -> set[int]:
    """Indexes of the numbered paragraphs whose number is that of the heading the stated
    outline names (``named``: tagged, bookmarked or listed in a printed table of contents)
    last in its numbering before them: a line of that section ("CA-2 Additional FedRAMP
    Requirements and Guidance" after "CA-2 Security Assessments"), which the classifier
    would take for a heading of its own."""
    last: dict[str, Label] = {}
    repeated: set[int] = set()
    for index, paragraph in enumerate(found):
        if paragraph.role == TABLE_ROLE or paragraph.is_toc_entry:
            continue
        label = parse_label(paragraph.text)
        if label is None:
            continue
        if index in named:
            last[label.family] = label
            continue
        before = last.get(label.family)
        if before is not None and label.repeats(before):
            repeated.add(index)
    return repeated
