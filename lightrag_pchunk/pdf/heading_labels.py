"""Stage A for PDF, after the stated headings are found: a heading's label printed on the
line above its title goes into the title.

Book producers (DocBook through dblatex, Debian's reference) print a chapter's label
("Chapter 2") on a line of its own above the chapter's title, which the bookmark names
alone. Left as it is, the label reads as the last line of the section before, or a heading
of its own over an empty section. Like a Word heading's number, it is the title's: the
heading's text is the label, a space, then the title ("Chapter 2 Package management").

A paragraph is taken for a label when it is one line that reads as a numbering label and
nothing else ("Chapter 2", "1.1.10", "附件一"), printed on the title's page right above
it, in the title's look or in a look of its own set apart from the text (bold, or larger):
a number in the text's look closing a paragraph ("42") stays text. A title printed with a
number of its own has its label: the number above it is another's (an equation's "(4)").

Input: the paragraphs and the heading level of each one the file states. Output: the
paragraphs, each such label joined to its title, and the levels by the new indexes.
"""

from __future__ import annotations

from collections.abc import Sequence

from lightrag_pchunk.outline.items import is_larger_than_text
from lightrag_pchunk.outline.numbering import parse_label
from lightrag_pchunk.pdf.bookmark_match import line_top
from lightrag_pchunk.pdf.layout import TABLE_ROLE
from lightrag_pchunk.pdf.paragraphs import PrintedParagraph

#: A label stands above its title by at most this many times the larger of their sizes
#: (baseline to baseline; a chapter's label and title are set with a wide gap).
LABEL_GAP = 3.0


def join_heading_labels(
    found: Sequence[PrintedParagraph], levels: dict[int, int], body_size: float
) -> tuple[list[PrintedParagraph], dict[int, int]]:
    """``found`` with each heading's label (see the module doc) joined to its title, and
    ``levels`` by the indexes of the result."""
    labels = {
        index - 1
        for index in levels
        if index > 0
        and index - 1 not in levels
        and _is_label_of(found[index - 1], found[index], body_size)
    }
    if not labels:
        return list(found), dict(levels)
    result: list[PrintedParagraph] = []
    new_levels: dict[int, int] = {}
    for index, paragraph in enumerate(found):
        if index in labels:
            continue
        if index - 1 in labels:
            paragraph = _with_label(found[index - 1], paragraph)
        if index in levels:
            new_levels[len(result)] = levels[index]
        result.append(paragraph)
    return result, new_levels


def _is_label_of(label: PrintedParagraph, title: PrintedParagraph, body_size: float) -> bool:
    """Whether ``label`` is the label of the heading ``title`` (see the module doc)."""
    if label.role == TABLE_ROLE or title.role == TABLE_ROLE or len(label.lines) != 1:
        return False
    printed = parse_label(label.text)
    if printed is None or printed.rest.strip():
        return False  # text, or a numbered line with words of its own
    if parse_label(title.text) is not None:
        return False  # the title has its number: the line above is another's ("(4)")
    if label.look.signature() != title.look.signature() and not (
        label.look.bold or is_larger_than_text(label.look, body_size)
    ):
        return False  # in the text's look: a number closing a paragraph
    line, first = label.lines[0], title.lines[0]
    if line.page != first.page:
        return False
    rise = line_top(line) - line_top(first)
    return 0 < rise <= LABEL_GAP * max(label.look.size, title.look.size)


def _with_label(label: PrintedParagraph, title: PrintedParagraph) -> PrintedParagraph:
    """The title's paragraph opened by its label's line, a space between them (not joined
    as a paragraph's lines are: a CJK title after its number reads "1.1.10 初心者…")."""
    shift = len(label.text) + 1
    return PrintedParagraph(
        f"{label.text} {title.text}",
        (*label.lines, *title.lines),
        (0, *(start + shift for start in title.starts)),
        title.look,
        title.is_toc_entry,
    )
