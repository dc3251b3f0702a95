"""Stage A for PDF: how a printed line ends and the next one begins, the tests
:mod:`.paragraphs` reads a paragraph's lines by: whether a line ends its sentence, whether
the next opens on a lower-case letter or goes on with a CJK word, and the room a line leaves
at its end (a line that left room for the next one's first word ended its paragraph); and
how a paragraph's lines join into its text (:func:`join_lines`).

Each reads the letters printed: a superscript's or subscript's ``<sup>``/``<sub>`` tags
(:mod:`.scripts`) are markup, not letters, and a note's mark set after a sentence's end
marks it: a line ending "… the end.<sup>1</sup>" ends on its period.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lightrag_pchunk.outline.numbering import is_bare_label
from lightrag_pchunk.pdf.bullets import SENTENCE_END, breaks_mid_phrase
from lightrag_pchunk.pdf.cjk import is_cjk
from lightrag_pchunk.pdf.hyphens import CUT_HYPHEN, CUT_WORD
from lightrag_pchunk.pdf.layout import Line, reads_right_to_left
from lightrag_pchunk.pdf.scripts import without_tags
from lightrag_pchunk.pdf.segments import NON_BREAKING_HYPHEN, SOFT_HYPHENS, plain_hyphens

#: The line ends that mark a break in a word: PDFium's marks, a non-breaking hyphen (a
#: producer's mark: ``segments.NON_BREAKING_HYPHEN``) and :data:`.hyphens.CUT_HYPHEN`.
_BREAK_MARKS = SOFT_HYPHENS + NON_BREAKING_HYPHEN + CUT_HYPHEN
#: The scripts a text ends on (a note's mark after a sentence), with the spaces before them.
_TRAILING_SCRIPTS = re.compile(r"(?:\s*<(su[bp])>[^<]*</\1>)+\s*$")


def ends_sentence(text: str) -> bool:
    """Whether ``text`` (a line's or a paragraph's) ends a sentence, before the scripts it
    ends on (a note's mark)."""
    if text.rstrip().endswith(("</sup>", "</sub>")):
        text = _TRAILING_SCRIPTS.sub("", text)
    return without_tags(text).rstrip().endswith(SENTENCE_END)


def number_goes_on(above: Line, line: Line) -> bool:
    """Whether the number ``line`` opens on goes on with the item's line above it, not the
    next item: the line above breaks a range ("pages 291–" over "300. ACM …"), or a list
    of numbers that ``line``'s number, alone, ends ("1, 2," over "6": a citation's pages)."""
    alone = is_bare_label(without_tags(line.text))
    text = without_tags(above.text).rstrip()
    return text.endswith(("-", "\u2013")) or (alone and text.endswith(","))


def bold_title_goes_on(above: Line, line: Line) -> bool:
    """Whether a bold line broken inside a phrase ("… Providing Caregiving for") goes on in
    its look on the next line, which then leaves it ("Children of … Women" bold, then its
    reference "(HHS-2004-…)" not): one title and what follows it, one paragraph, though
    the next line is not bold throughout."""
    return above.bold and breaks_mid_phrase(above.text) and line.segments[0].opens_bold


def weight_runs_on(above: Line, line: Line) -> bool:
    """Whether a phrase set bold inside a paragraph (or the text after it) runs on from
    ``above`` into ``line``: ``above`` ends in the weight ``line`` opens in, full to its
    column's end, no sentence ended ("… $50,000 or less. **Under the**" over "**monthly
    deposit schedule, deposit employment**"). A title stands on lines of its own: the text
    before it ends its line, and the weight changes at a line's start; a line wholly bold
    that ends early is read as one too (a title run on after a struck paragraph in a render
    of tracked changes, "… this chapter. **18.33.060**" over "**Conformance with …
    program.**")."""
    if above.segments[-1].closes_bold != line.segments[0].opens_bold:
        return False
    if line.bold and not fills_its_column(line):
        return False
    return fills_its_column(above) and not ends_sentence(above.text)


def opens_lower(text: str) -> bool:
    """Whether ``text`` opens on a lower-case letter, its scripts' tags aside."""
    return without_tags(text).lstrip()[:1].islower()


def cjk_word_goes_on(above: str, text: str) -> bool:
    """Whether a line ending on a CJK character, not a mark, goes on in ``text``, which
    opens on one: CJK text breaks its lines between any two characters."""
    last, first = without_tags(above).rstrip()[-1:], without_tags(text).lstrip()[:1]
    return last.isalpha() and is_cjk(last) and first.isalpha() and is_cjk(first)


def room_after(line: Line) -> float:
    """The room a line leaves at its end in its column: on the right, or on the left in
    Hebrew and Arabic."""
    if reads_right_to_left(line.segments):
        return line.x0 - line.column_x0
    return line.column_x1 - line.x1


def full_line_room(line: Line) -> float:
    """The most room a line that fills its column leaves at its end."""
    return max(0.05 * (line.column_x1 - line.column_x0), 2.0)


def fills_its_column(line: Line) -> bool:
    """Whether a line reaches its column's end (within :func:`full_line_room`)."""
    return room_after(line) <= full_line_room(line)


def ends_early(above: Line, line: Line) -> bool:
    """Whether the line above left room for ``line``'s first word: it ended its paragraph."""
    if fills_its_column(above):
        return False
    room = room_after(above)
    text = without_tags(line.text).strip()  # the letters printed: a script's tags take no room
    if not text:
        return False
    char_width = line.width / max(len(text), 1)
    word = text.split(" ", 1)[0]
    if is_cjk(word[:1]):
        word = word[:1]
    return room > (len(word) + 1.5) * char_width


def join_lines(texts: Sequence[str]) -> tuple[str, tuple[int, ...]]:
    """The lines' texts joined into a paragraph, and where each starts: a hyphen PDFium
    marked as a line-end break (or a non-breaking one ending a line: a producer's mark)
    dropped before a lower-case continuation and kept otherwise,
    one :mod:`.hyphens` shows to cut a word dropped (:data:`.hyphens.CUT_HYPHEN`); a plain
    one kept without a space; CJK text, and a Hangul word a line end cuts
    (:data:`.hyphens.CUT_WORD`), joined without a space; anything else with one."""
    text = ""
    starts: list[int] = []
    for piece in texts:
        piece = piece.strip()
        if not text:
            starts.append(0)
            text = piece
            continue
        if text[-1] in _BREAK_MARKS:
            cut = text[-1] == CUT_HYPHEN or piece[:1].islower()
            text, joiner = text[:-1] + ("" if cut else "-"), ""
        elif text[-1] == CUT_WORD:
            text, joiner = text[:-1], ""
        elif (
            (text.endswith("-") and len(text) > 1 and text[-2].isalpha())
            or is_cjk(text[-1])
            or is_cjk(piece[:1])
            or text[-1] in "，。、；：！？（）"
        ):
            joiner = ""
        else:
            joiner = " "
        text += joiner
        starts.append(len(text))
        text += piece
    text = text.removesuffix(CUT_WORD)
    if text.endswith(CUT_HYPHEN):
        # A paragraph parted after a line ending in a cut word (its next line opened the
        # next paragraph): the hyphen is printed, and the mark would be an invisible U+00AD.
        text = text[:-1] + "-"
    # A marked hyphen inside a line is a plain hyphen.
    return plain_hyphens(text), tuple(starts)
