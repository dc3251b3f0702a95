"""Stage A for PDF: printed lines -> paragraphs, within a page and across page and column
breaks.

Input: each page's lines in reading order (furniture removed). Output:
:class:`~.printed_paragraph.PrintedParagraph` s in reading order, each with its lines, text
and look.

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
paragraph a page break or a column break cut is joined again (:mod:`.paragraph_breaks`).
"""

from __future__ import annotations

import itertools
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence

from lightrag_pchunk.pdf.bullets import (
    breaks_mid_phrase,
    ends_set_apart,
    hangs_in_item,
    is_bulleted,
    opens_reference,
)
from lightrag_pchunk.pdf.hyphens import keep_printed_hyphens, printed_words
from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line, reads_right_to_left
from lightrag_pchunk.pdf.line_ends import (
    bold_title_goes_on,
    cjk_word_goes_on,
    ends_early,
    ends_sentence,
    fills_its_column,
    number_goes_on,
    opens_lower,
    weight_runs_on,
)
from lightrag_pchunk.pdf.paragraph_breaks import join_across_columns, join_across_pages
from lightrag_pchunk.pdf.paragraph_look import centred_pair, is_centered
from lightrag_pchunk.pdf.printed_paragraph import (
    SIZE_TOLERANCE,
    PrintedParagraph,
    ends_entry,
    is_labelled,
    is_toc_entry,
    line_text,
    paragraph_of,
)
from lightrag_pchunk.pdf.segments import LINE_END_HYPHENS
from lightrag_pchunk.pdf.structure_tree import is_heading_role

#: More space above a line than this many times its size's usual leading starts a paragraph.
PARAGRAPH_SPACING = 1.35


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
        made = join_across_columns(made, printed)
        if found and made:
            join_across_pages(found, made, printed, text_size)
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
        line.bold != above.bold
        and not bold_title_goes_on(above, line)
        and not weight_runs_on(above, line)
    ):
        return False
    step = line.top - above.top
    usual = leading.get(round(above.size * 2) / 2, 1.25 * max(above.height, above.size))
    if step > PARAGRAPH_SPACING * usual:
        return False
    if ends_entry(line_text(above)) or is_toc_entry(line_text(line)):
        return False
    if is_bulleted(line.text):
        return False
    if is_labelled(line.text) and (
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
            and not is_labelled(line.text)
        )
    if centred and (breaks_mid_phrase(above.text) or _leads_in(group)):
        # A centred title broken after "and" (or anywhere in CJK text, which breaks lines
        # between any two characters), or under its lead-in ("Part One:") leaves room on
        # both sides; a numbered line after a numbered one is a heading of its own (第一章
        # over 第一節).
        return not (is_labelled(line.text) and is_labelled(group[0].text))
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
    return is_labelled(first) or is_bulleted(first) or opens_reference(first)


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
