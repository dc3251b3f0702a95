"""Stage A for PDF: printed lines -> paragraphs, within a page and across page breaks.

Input: each page's lines in reading order (furniture removed). Output:
:class:`PrintedParagraph` s in reading order, each with its lines, text and look.

A line continues the paragraph of the line above it in its column unless something says a
new one starts: more space above it than the text's leading, another size or weight, a
first-line indent, a bullet or a numbering label after a line that ended its sentence, or
room at the end of the line above for the line's first word (a line that ends early ended
its paragraph; this holds for justified and ragged text alike; not a title's line, bold or
set larger, broken inside a phrase over a line opening in lower case: broken by hand). A
table-of-contents entry (a page number after leaders or a wide gap) is a paragraph of its
own.

Joining lines (``line_ends.join_lines``): a hyphen PDFium marked as a line-end break
(U+FFFE, U+0002) is dropped before a lower-case continuation ("com-" "pile" -> "compile")
and kept otherwise; a real hyphen stays without a space ("well-" "known": the document
prints "well-known" inside a line elsewhere), one the document shows to cut a word is
dropped (see :mod:`.hyphens`); CJK text joins without a space; anything else with one. A
paragraph cut by a page break (the page's last line full, not set to the column's far side,
no sentence end) goes on with the next page's first paragraph of the same look; footnotes
set between them (text at the foot of the page set smaller than the document's text: body
text set smaller than a title is no footnote, nor is a bulleted item: a slide's points
under a title set large, where a footnote opens with its number or an asterisk) follow the
joined paragraph.
"""

from __future__ import annotations

import functools
import itertools
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from lightrag_pchunk.outline.infer import Look
from lightrag_pchunk.outline.numbering import parse_label
from lightrag_pchunk.outline.page_references import is_toc_line
from lightrag_pchunk.pdf.bullets import (
    breaks_mid_phrase,
    ends_set_apart,
    hangs_in_item,
    is_bulleted,
    opens_reference,
    plain_bullet,
)
from lightrag_pchunk.pdf.hyphens import PrintedWords, keep_printed_hyphens, printed_words
from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line, reads_right_to_left
from lightrag_pchunk.pdf.line_ends import (
    bold_title_goes_on,
    cjk_word_goes_on,
    ends_early,
    ends_sentence,
    fills_its_column,
    join_lines,
    number_goes_on,
    opens_lower,
)
from lightrag_pchunk.pdf.paragraph_look import centred_pair, is_centered, paragraph_look
from lightrag_pchunk.pdf.scripts import SCRIPT_SIZE, without_tags
from lightrag_pchunk.pdf.segments import LINE_END_HYPHENS
from lightrag_pchunk.pdf.structure_tree import is_heading_role

#: More space above a line than this many times its size's usual leading starts a paragraph.
PARAGRAPH_SPACING = 1.35
#: Sizes within this many points are one look.
SIZE_TOLERANCE = 0.6
#: A paragraph joined across page breaks stops growing at this many printed lines (a page
#: holds about fifty): past it, each page's first line starts a paragraph, and a file of
#: thousands of one-line pages costs linear time, not quadratic.
MAX_JOINED_LINES = 150
#: A gap this many ems before a trailing page number makes a table-of-contents entry.
TOC_GAP_EMS = 1.5
#: A front matter's page number in lower-case roman numerals ("xii"), a well-formed one up
#: to 399; a word of the same letters ("did", "mix") is none.
ROMAN_PAGE = r"(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
#: A page number printed alone: arabic, or a roman one written in one case ("xii", "IV").
PAGE_NUMBER = re.compile(rf"^(?:\d{{1,4}}|{ROMAN_PAGE}|{ROMAN_PAGE.upper()})$")


@dataclass(frozen=True, slots=True)
class PrintedParagraph:
    """A paragraph as printed: its ``lines`` (on one page or more), its ``text`` and where
    each line starts in it (``starts``), its ``look``; ``is_toc_entry`` for a line of a
    printed table of contents."""

    text: str
    lines: tuple[Line, ...]
    starts: tuple[int, ...]
    look: Look
    is_toc_entry: bool = False

    @property
    def pages(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(line.page for line in self.lines))

    @property
    def role(self) -> str:
        """The structure role of its first line (tagged documents; "" otherwise)."""
        return self.lines[0].role


def line_text(line: Line) -> str:
    """A line's text; a table-of-contents entry's page number is set off by a tab, as a
    word processor writes it (leaders or a wide gap before it on the page). A number set
    small and raised or lowered after its word is a script of the line ("CO" and its "2"),
    and one set smaller than a script's bound (``scripts.SCRIPT_SIZE`` of the line's size)
    is no entry's number either: an entry's number stands on the line's baseline at about
    its text's size. A symbol font's bullet opening it is read plain (``plain_bullet``)."""
    if line.role == TABLE_ROLE:
        return line.text  # the key of the table it stands for
    return plain_bullet(_text_of(line))


def _text_of(line: Line) -> str:
    segments = line.segments
    if line.text.endswith(("</sub>", "</sup>")):
        return line.text
    if len(segments) >= 2 and PAGE_NUMBER.match(segments[-1].text):
        before, number = segments[-2], segments[-1]
        if number.size < SCRIPT_SIZE * line.size:
            return line.text
        gap = number.x0 - before.x1
        if gap >= TOC_GAP_EMS * max(number.size, 1.0) or before.text.endswith(("..", "…")):
            head = " ".join(s.text for s in segments[:-1]).rstrip(" .…·")
            return f"{head}\t{number.text}"
    return line.text


def leadings(pages: Sequence[Sequence[Line]]) -> dict[float, float]:
    """The usual distance from one line's top to the next one's, per font size (rounded to
    half a point), from lines that follow each other in one column."""
    found: dict[float, list[float]] = defaultdict(list)
    for lines in pages:
        for above, below in itertools.pairwise(lines):
            step = below.top - above.top
            same = above.column == below.column and abs(above.size - below.size) < SIZE_TOLERANCE
            if same and 0 < step < 3 * max(above.height, 1.0):
                found[round(above.size * 2) / 2].append(step)
    return {size: statistics.median(steps) for size, steps in found.items() if len(steps) >= 2}


def paragraphs(pages: Sequence[Sequence[Line]]) -> list[PrintedParagraph]:
    """The paragraphs of the document (see the module doc)."""
    leading = leadings(pages)
    printed = printed_words(pages)
    sizes = Counter(round(line.size * 2) / 2 for lines in pages for line in lines)
    text_size = max(sizes, key=sizes.__getitem__, default=0.0)  # the size most lines have
    found: list[PrintedParagraph] = []
    for lines in pages:
        page_paragraphs: list[list[Line]] = []
        for line in lines:
            if page_paragraphs and _continues(page_paragraphs[-1], line, leading, text_size):
                page_paragraphs[-1].append(line)
            else:
                page_paragraphs.append([line])
        made = [paragraph_of(keep_printed_hyphens(group, printed)) for group in page_paragraphs]
        if found and made:
            _join_across_pages(found, made, printed, text_size)
        found.extend(made)
    return found


def _continues(
    group: list[Line], line: Line, leading: dict[float, float], text_size: float
) -> bool:
    """Whether ``line`` goes on with the paragraph whose lines are ``group``."""
    above = group[-1]
    if line.column != above.column or line.top <= above.top or line.page != above.page:
        return False
    if TABLE_ROLE in (line.role, above.role):
        return False  # a table
    if line.element != above.element and not _one_paragraph_across_tags(above, line):
        return False  # another structure element (tagged PDF)
    if line.element and line.element == above.element and is_heading_role(line.role):
        # One title, its lines however far apart, in any look (a label over it), but for text
        # under it: a producer that tags a whole page H1 tags its text with its title.
        return not _text_under_title(group[0], line, text_size)
    if abs(line.size - above.size) > SIZE_TOLERANCE or (
        line.bold != above.bold and not bold_title_goes_on(above, line)
    ):
        return False
    step = line.top - above.top
    usual = leading.get(round(above.size * 2) / 2, 1.25 * max(above.height, above.size))
    if step > PARAGRAPH_SPACING * usual:
        return False
    if _is_toc_entry(line_text(above)) or _is_toc_entry(line_text(line)):
        return False
    if is_bulleted(line.text):
        return False
    if _is_labelled(line.text) and (
        ends_sentence(above.text) or (_opens_item(group) and not number_goes_on(above, line))
    ):
        return False
    if opens_reference(line.text) and opens_reference(group[0].text):
        # The next entry of a list of references; in a paragraph of text a citation may
        # open a line, even after a full stop ("… was shown." over "[3] found that …").
        return False
    if ends_set_apart(above):
        return False
    if above.text.endswith(LINE_END_HYPHENS) and opens_lower(line.text):
        # A word broken at the line end goes on, however the next line is indented (a
        # heading's hanging indent: "§ 1308.24 Exempt chemical prepara-" over "tions.").
        return True
    if hangs_in_item(group, line):
        return True
    indent = line.x0 - above.x0
    if reads_right_to_left(line.segments):
        indent = above.x1 - line.x1
    centred = centred_pair(above, line) or _centred_across_widest(group, line)
    titled = above.bold or above.size > text_size + SIZE_TOLERANCE
    if indent > 1.2 * max(line.size, 1.0) and not centred and not _hangs_under_item(group, line):
        # A line at the margin, then an indented one: a new paragraph, unless a sentence
        # broken at a full line runs on (a note's hanging indent: "Note 1: One type test will
        # … cover a range" over "of different numbers of cylinders"; an answer's, "A：…又稱
        # …係最" over "近需量監視之潮流", CJK breaking between any two characters; "i. 神的来临"
        # opens one), or a title broken inside a phrase, its words capitalised ("… Networks
        # at the" over "Direction of Users": a hanging indent), where its next word won't fit.
        goes_on = opens_lower(line.text) or cjk_word_goes_on(above.text, line.text)
        title_goes_on = titled and not goes_on and breaks_mid_phrase(above.text)
        full = not ends_early(above, line) if title_goes_on else fills_its_column(above)
        return (
            (goes_on or title_goes_on)
            and full
            and not ends_sentence(above.text)
            and not _is_labelled(line.text)
        )
    if centred and (breaks_mid_phrase(above.text) or _leads_in(group)):
        # A centred title broken after "and" (or anywhere in CJK text, which breaks lines
        # between any two characters), or under its lead-in ("Part One:") leaves room on
        # both sides; a numbered line after a numbered one is a heading of its own (第一章
        # over 第一節).
        return not (_is_labelled(line.text) and _is_labelled(group[0].text))
    if titled and breaks_mid_phrase(above.text) and opens_lower(line.text):
        # A title broken by hand inside a phrase leaves room at its line's end ("… рейтинг
        # по" over "национальной шкале …"), and its next line, in its look, goes on with it.
        return True
    return not ends_early(above, line)


def _text_under_title(title: Line, line: Line, text_size: float) -> bool:
    """Whether ``line`` is set as the text (``text_size``, not bold) under a ``title`` set
    larger or bold."""
    in_text = abs(line.size - text_size) <= SIZE_TOLERANCE and not line.bold
    return in_text and (title.bold or title.size > text_size + SIZE_TOLERANCE)


def _opens_item(group: Sequence[Line]) -> bool:
    """Whether the paragraph whose lines are ``group`` opens a list item (a numbering
    label, a bullet, or a reference's number in brackets: "[4] IAEA SSG-25 …"), whose next
    label or indented line may go on with it."""
    first = group[0].text
    return _is_labelled(first) or is_bulleted(first) or opens_reference(first)


def _hangs_under_item(group: Sequence[Line], line: Line) -> bool:
    """Whether ``line`` hangs right of the first line of a list item ``group`` opens (see
    :func:`_opens_item`). Text opening on a citation ("[12] showed that …") wraps to the
    margin: the next paragraph's indented line starts where its first did, not right of it."""
    first = group[0]
    hang = first.x1 - line.x1 if reads_right_to_left(line.segments) else line.x0 - first.x0
    return _opens_item(group) and hang > 0.5 * max(line.size, 1.0)


def _centred_across_widest(group: Sequence[Line], line: Line) -> bool:
    """Whether ``line`` goes on a centred title across its widest line: the block opened
    centred, ``line`` is centred, and the line above it fills the column without ending a
    sentence (a title in a box of its own: its widest line sets the column's edges, no
    room either side, neither centred nor balanced; a justified paragraph's full line
    before the next one's indented start ends its sentence). A block that opens on a line
    reaching past both edges (a cover's title wider than the page's other lines, which set
    the column) opened centred when ``line`` stands on its middle."""
    above, first = group[-1], group[0]
    fills = above.x0 - above.column_x0 <= 2.0 and above.column_x1 - above.x1 <= 2.0
    past = first.x0 < first.column_x0 - 2.0 and first.x1 > first.column_x1 + 2.0
    width = line.column_x1 - line.column_x0
    on_middle = abs(first.x0 + first.x1 - line.x0 - line.x1) / 2 <= 0.05 * width
    return (
        fills
        and not ends_sentence(above.text)
        and (is_centered(first) or (past and on_middle))
        and is_centered(line)
    )


#: Structure roles whose elements sit side by side (table cells): never one paragraph.
_CELL_ROLES = frozenset({"TD", "TH"})


def _one_paragraph_across_tags(above: Line, line: Line) -> bool:
    """Whether two lines of different structure elements of one role are one paragraph all
    the same (producers tag some files line by line): the line above runs to the column's
    end without ending its sentence (a line cut at its end), or both are lines of a centred
    title broken mid-phrase."""
    if line.role != above.role or line.role in _CELL_ROLES:
        return False
    text = above.text.rstrip()
    if not text or ends_sentence(text):
        return False
    room = above.column_x1 - above.x1
    if reads_right_to_left(above.segments):
        room = above.x0 - above.column_x0
    full = room <= max(0.05 * (above.column_x1 - above.column_x0), 2.0)
    return full or (centred_pair(above, line) and breaks_mid_phrase(text))


def _leads_in(group: Sequence[Line]) -> bool:
    """Whether a paragraph of one line is a title's lead-in: a few words ending in a colon
    ("Part One:"; a label alone, "APPENDIX B", may be a heading of its own)."""
    text = group[0].text.strip()
    return len(group) == 1 and text.endswith((":", "：")) and len(text.split()) <= _LEAD_IN_WORDS


#: Words of a lead-in line ending in a colon, at most.
_LEAD_IN_WORDS = 4


# A line is checked as the next line and again as the line above, against each line of its
# paragraph, and as its paragraph's last: its text is read once.
@functools.lru_cache(maxsize=4096)
def _is_toc_entry(text: str) -> bool:
    return is_toc_line(text)


@functools.lru_cache(maxsize=4096)
def _is_labelled(text: str) -> bool:
    """Whether ``text`` opens on a numbering label, a raised one too: a footnote's number
    is set as a superscript ("<sup>107</sup> Francis Crick: …") and opens its note as a
    printed "107" does."""
    return parse_label(without_tags(text)) is not None


def paragraph_of(lines: Sequence[Line]) -> PrintedParagraph:
    """The paragraph printed as ``lines``."""
    texts = [line_text(line) for line in lines]
    text, starts = join_lines(texts)
    return PrintedParagraph(
        text=text,
        lines=tuple(lines),
        starts=starts,
        look=paragraph_look(lines, text),
        is_toc_entry=len(lines) >= 1 and _is_toc_entry(texts[-1]),
    )


def _set_right(line: Line) -> bool:
    """Whether ``line`` starts past the middle of its column (ends short of it, read right
    to left): set to the far side, a signature's date ("2010年8月28日" under its issuer), no
    line of text the page break cut, whatever room it leaves."""
    middle = (line.column_x0 + line.column_x1) / 2
    return line.x1 < middle if reads_right_to_left(line.segments) else line.x0 > middle


def _join_across_pages(
    found: list[PrintedParagraph],
    made: list[PrintedParagraph],
    printed: PrintedWords,
    text_size: float,
) -> None:
    """Join ``made[0]`` (the new page's first paragraph) to the previous page's last body
    paragraph when a page break cut it; footnotes between them (smaller than it and than
    ``text_size``) move after it (a hyphen at the break kept as
    :func:`.hyphens.keep_printed_hyphens` says)."""
    first = made[0]
    index = len(found) - 1
    notes: list[PrintedParagraph] = []
    smaller = min(first.look.size, text_size) - SIZE_TOLERANCE
    while index >= 0 and found[index].look.size < smaller:
        if found[index].lines[-1].page != first.lines[0].page - 1:
            return
        if is_bulleted(found[index].text) and not found[index].text.startswith("*"):
            return  # a list's item under its title (a slide's points), not a footnote
        notes.append(found[index])
        index -= 1
    if index < 0 or len(notes) > 6:
        return
    last = found[index]
    tail = last.lines[-1]
    if tail.page != first.lines[0].page - 1 or last.is_toc_entry or first.is_toc_entry:
        return
    if len(last.lines) + len(first.lines) > MAX_JOINED_LINES:
        return
    if TABLE_ROLE in (last.role, first.role) or last.role != first.role:
        return
    if abs(last.look.size - first.look.size) > SIZE_TOLERANCE or last.look.bold != first.look.bold:
        return
    if ends_sentence(last.text) or ends_early(tail, first.lines[0]) or _set_right(tail):
        return
    if is_bulleted(first.text) or _is_labelled(first.text) or first.text == last.text:
        return  # an item, or a title printed again over its table's next page
    lines = tuple(keep_printed_hyphens((*last.lines, *first.lines), printed))
    text, starts = join_lines([line_text(line) for line in lines])
    joined = replace(last, text=text, lines=lines, starts=starts, look=paragraph_look(lines, text))
    del found[index:]
    found.append(joined)
    found.extend(reversed(notes))
    del made[0]
