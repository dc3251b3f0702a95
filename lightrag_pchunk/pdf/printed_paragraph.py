"""Stage A for PDF: a paragraph as printed, and the text of its lines.

Input: a page's lines (``layout``). Output: :class:`PrintedParagraph` s made of them, each
with its text (lines joined by ``line_ends.join_lines``), where each line starts in it and
its look; a line's text with a table-of-contents entry's page number set off by a tab.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from lightrag_pchunk.outline.infer import Look
from lightrag_pchunk.outline.numbering import parse_label
from lightrag_pchunk.outline.page_references import is_leaders_to_page, is_toc_line
from lightrag_pchunk.pdf.bullets import plain_bullet
from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line
from lightrag_pchunk.pdf.line_ends import join_lines
from lightrag_pchunk.pdf.paragraph_look import paragraph_look
from lightrag_pchunk.pdf.scripts import SCRIPT_SIZE, without_tags

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


# A line is checked as the next line and again as the line above, against each line of its
# paragraph, and as its paragraph's last: its text is read once.
@functools.lru_cache(maxsize=4096)
def is_toc_entry(text: str) -> bool:
    return is_toc_line(text)


@functools.lru_cache(maxsize=4096)
def ends_entry(text: str) -> bool:
    """Whether a line ends a table-of-contents entry: the entry whole, or the leaders and
    page number alone that end one whose title wrapped (:func:`is_leaders_to_page`)."""
    return is_toc_line(text) or is_leaders_to_page(text)


@functools.lru_cache(maxsize=4096)
def is_labelled(text: str) -> bool:
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
        is_toc_entry=_is_entry(texts),
    )


def _is_entry(texts: Sequence[str]) -> bool:
    """Whether a paragraph of lines ``texts`` is a table-of-contents entry: it ends on a page
    reference, over more lines than one perhaps on the leaders and page number alone."""
    if len(texts) > 1:
        return ends_entry(texts[-1])
    return bool(texts) and is_toc_entry(texts[0])
