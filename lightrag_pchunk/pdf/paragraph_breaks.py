"""Stage A for PDF: paragraphs a page break or a column break cut, joined again.

Input: the paragraphs of a page as ``paragraphs`` makes them, and those before it. Output:
the paragraph the break cut as one. A paragraph cut by a page break (the page's last line
full, not set to the column's far side, no sentence end) goes on with the next page's first
paragraph of the same look; footnotes set between them (text at the foot of the page set
smaller than the document's text: body text set smaller than a title is no footnote, nor is
a bulleted item: a slide's points under a title set large, where a footnote opens with its
number or an asterisk) follow the joined paragraph. A paragraph of two lines or more whose
last line fills the foot of its column, no sentence ended, goes on with the first paragraph
of the next column when that opens in lower case (or goes on with a CJK word), in its look:
a paper's paragraph that runs from one column into the next.

Floats (tables and their captions) a layout sets at the top of the next column or page stand
between the two parts of such a paragraph: the part after them joins the paragraph when it
opens in lower case (or goes on with a CJK word), and the floats follow the joined paragraph,
as a reader reads past them.
"""

from __future__ import annotations

from collections.abc import Iterable

from lightrag_pchunk.outline.lines import is_caption
from lightrag_pchunk.pdf.bullets import is_bulleted
from lightrag_pchunk.pdf.hyphens import PrintedWords, keep_printed_hyphens
from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line, reads_right_to_left
from lightrag_pchunk.pdf.line_ends import (
    cjk_word_goes_on,
    ends_early,
    ends_sentence,
    fills_its_column,
    opens_lower,
)
from lightrag_pchunk.pdf.printed_paragraph import (
    MAX_JOINED_LINES,
    SIZE_TOLERANCE,
    PrintedParagraph,
    is_labelled,
    paragraph_of,
)


def _set_right(line: Line) -> bool:
    """Whether ``line`` starts past the middle of its column (ends short of it, read right
    to left): set to the far side, a signature's date ("2010年8月28日" under its issuer), no
    line of text the page break cut, whatever room it leaves."""
    middle = (line.column_x0 + line.column_x1) / 2
    return line.x1 < middle if reads_right_to_left(line.segments) else line.x0 > middle


def join_across_pages(
    found: list[PrintedParagraph],
    made: list[PrintedParagraph],
    printed: PrintedWords,
    text_size: float,
) -> None:
    """Join the new page's first paragraph (``made[0]``, or the first after the floats
    opening the page when it goes on in lower case) to the previous page's last body
    paragraph when a page break cut it; footnotes between them (smaller than it and than
    ``text_size``) move after it, and so do the floats (a hyphen at the break kept as
    :func:`.hyphens.keep_printed_hyphens` says)."""
    floats = _floats_opening(made)
    if floats == len(made):
        return
    first = made[floats]
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
    if tail.page != first.lines[0].page - 1 or not _may_join(last, first):
        return
    if floats and not (_goes_on(last, first) and _under_floats(made[floats - 1], first)):
        return
    if ends_early(tail, first.lines[0]) or first.text == last.text:
        return  # a paragraph's end, or a title printed again over its table's next page
    del found[index:]
    found.append(_joined(last, first, printed))
    found.extend(reversed(notes))
    del made[floats]


def join_across_columns(
    made: list[PrintedParagraph], printed: PrintedWords
) -> list[PrintedParagraph]:
    """``made`` (a page's paragraphs in reading order) with each paragraph a column break
    cut joined again (see the module doc)."""
    joined: list[PrintedParagraph] = []
    for paragraph in made:
        # The floats set at the top of ``paragraph``'s column, above it, stay where they are.
        floats = _floats_opening(reversed(joined), paragraph.lines[0].column)
        before = len(joined) - 1 - floats  # the paragraph before the floats
        if (
            before >= 0
            and (not floats or _under_floats(joined[-1], paragraph))
            and _goes_on_in_next_column(joined[before], paragraph)
        ):
            joined[before] = _joined(joined[before], paragraph, printed)
        else:
            joined.append(paragraph)
    return joined


def _is_float(paragraph: PrintedParagraph) -> bool:
    """Whether ``paragraph`` is a table or a caption, which a layout places where it fits."""
    return paragraph.role == TABLE_ROLE or is_caption(paragraph.text)


def _under_floats(last_float: PrintedParagraph, first: PrintedParagraph) -> bool:
    """Whether ``first`` stands apart under the floats, ``last_float`` the lowest: more
    than a line's height of space between them, as a layout leaves around a float (a
    caption's own next line, which opens in lower case, stands at the caption's leading)."""
    above, below = last_float.lines[-1], first.lines[0]
    return below.page != above.page or below.top - above.bottom > below.height


def _floats_opening(paragraphs: Iterable[PrintedParagraph], column: int | None = None) -> int:
    """How many floats open ``paragraphs`` (all set in ``column``, where one is given)."""
    count = 0
    for paragraph in paragraphs:
        if not _is_float(paragraph):
            break
        if column is not None and any(line.column != column for line in paragraph.lines):
            break
        count += 1
    return count


def _goes_on_in_next_column(last: PrintedParagraph, first: PrintedParagraph) -> bool:
    """Whether ``first``, opening the next column higher up the page, goes on with
    ``last``, which ends at the foot of the column before: a line full to its column's
    end, no sentence ended, and a next line in lower case."""
    tail, head = last.lines[-1], first.lines[0]
    if tail.column == head.column or head.top >= tail.top or len(last.lines) < 2:
        return False
    if reads_right_to_left(tail.segments):
        next_column = head.column_x0 < tail.column_x0
    else:
        next_column = head.column_x0 > tail.column_x0
    if not next_column or not fills_its_column(tail):
        return False
    return _goes_on(last, first) and _may_join(last, first)


def _goes_on(last: PrintedParagraph, first: PrintedParagraph) -> bool:
    """Whether ``first`` reads as the rest of ``last``'s sentence: it opens in lower case,
    or goes on with the CJK word ``last`` ends with."""
    return opens_lower(first.text) or cjk_word_goes_on(last.text, first.text)


def _may_join(last: PrintedParagraph, first: PrintedParagraph) -> bool:
    """Whether a break may have cut one paragraph into ``last`` and ``first``: body text of
    one look and one structure role, no contents entry, no sentence ended, ``last`` not
    set to its column's far side, ``first`` no list item."""
    if last.is_toc_entry or first.is_toc_entry:
        return False
    if len(last.lines) + len(first.lines) > MAX_JOINED_LINES:
        return False
    if TABLE_ROLE in (last.role, first.role) or last.role != first.role:
        return False
    if abs(last.look.size - first.look.size) > SIZE_TOLERANCE or last.look.bold != first.look.bold:
        return False
    if ends_sentence(last.text) or _set_right(last.lines[-1]):
        return False
    return not (is_bulleted(first.text) or is_labelled(first.text))


def _joined(
    last: PrintedParagraph, first: PrintedParagraph, printed: PrintedWords
) -> PrintedParagraph:
    """``last`` and ``first`` as one paragraph (a hyphen at the break kept as
    :func:`.hyphens.keep_printed_hyphens` says)."""
    return paragraph_of(keep_printed_hyphens((*last.lines, *first.lines), printed))
