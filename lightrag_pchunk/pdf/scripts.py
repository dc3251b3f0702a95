"""Stage A for PDF: the segments of a printed line set as superscripts or subscripts.

A superscript is printed smaller than its line's text with its foot raised off the line's
baseline: a footnote's mark, a link back to the contents after a title ("FUNDING
OPPORTUNITIES TOP", the word set small and raised), an ordinal's ending. A subscript is
printed smaller with its foot lowered under the line's: a chemical formula's count, an
index, a note's mark set below the line. The Word parser marks such runs
``<sup>…</sup>`` and ``<sub>…</sub>`` from their ``w:vertAlign``; a PDF says nothing of
it, so the glyphs' size and place decide, and the line's text carries the same markup:
the outline's classifier then reads the title without its mark (``outline.toc``; a small
"1" set below a title's line is no numbering label), and the line's look (bold) is its
text's, not the mark's.

Input: the segments of one printed line (``layout.make_line``). A segment is the unit: a
mark set apart from its word by a gap is a segment of its own; one printed against its
word shares the word's segment and stays plain text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.pdf.script_marks import SCRIPT_RAISE, SCRIPT_SIZE
from lightrag_pchunk.pdf.segments import Segment

#: A subscript is set as small, with its foot lowered under the text's foot by more than this
#: share of its own size. A segment's foot is its font's descent under its baseline (PDFium's
#: loose box, whatever its letters), so a smaller word on the text's baseline stands above the
#: text's foot; the margin keeps one in a font that descends deeper from reading as lowered.
SCRIPT_DROP = 0.25
#: A subscript is an index, a count or a note's mark: at most this many characters, a letter
#: or a digit among them (a word set small under a line is a label under a formula's brace;
#: a symbol, "™", may be placed anywhere on a slide).
MAX_SUBSCRIPT_CHARS = 4
#: A script is one word of at most this many characters (a mark, "TOP", "σ2007"): words apart
#: raised over a line are a fraction's numerator ("−b ± √b² − 4ac" over "2a"), a label.
MAX_SCRIPT_CHARS = 12
#: A raised segment that shares more than this share of its width across with another of
#: its line's segments set off the line's baseline is stacked with it, not beside the
#: text: a fraction's numerator over its denominator, a sum's limit, a matrix's entries.
#: (A mark inside the span of a segment on the baseline, as PDFium may cut a
#: right-to-left line around one, still marks it.)
STACKED_SHARE = 0.5
#: The tags :func:`as_script` writes: markup, no printed letters.
_TAGS = re.compile(r"</?su[bp]>")


def script_segments(segments: Sequence[Segment], text_size: float) -> list[str]:
    """For each of a line's ``segments``, the tag it is set as: "sup", "sub" or "" (neither).
    A script is one short word (:data:`MAX_SCRIPT_CHARS`) smaller than the line's text
    (``text_size``: the size most of its characters are set at) by :data:`SCRIPT_SIZE`, not
    stacked with a segment set off the line's baseline (:data:`STACKED_SHARE`): a
    superscript with its foot raised by :data:`SCRIPT_RAISE` of the text's height, a
    subscript (:data:`MAX_SUBSCRIPT_CHARS`) with its foot lowered by :data:`SCRIPT_DROP` of
    its size. A line of one segment has none, nor one whose other segments hold no letter or
    digit (a mark needs a word to mark), and a script has fewer letters and digits than the
    text it marks: a title set high beside its label set larger, of as many characters
    ("A1" over "注入"), is the line's text."""
    none = [""] * len(segments)
    if len(segments) < 2:
        return none
    text = [s for s in segments if s.size == text_size and not s.table]
    if not text or text_size <= 0:
        return none
    foot = max(s.bottom for s in text)
    height = max(s.height for s in text)
    tags = [_script_tag(segment, segments, text_size, foot, height) for segment in segments]
    if not any(tags):
        return none
    words = sum(_word_characters(s.text) for s in text)
    tags = [
        tag if _word_characters(s.text) < words else ""
        for s, tag in zip(segments, tags, strict=True)
    ]
    if not any(
        _has_word_character(s.text) for s, tag in zip(segments, tags, strict=True) if not tag
    ):
        return none
    return tags


def _script_tag(
    segment: Segment, segments: Sequence[Segment], text_size: float, foot: float, height: float
) -> str:
    """The tag ``segment`` is set as on a line whose text (``text_size``) has its foot at
    ``foot`` and is ``height`` high (:func:`script_segments`)."""
    if (
        segment.table
        or not 0 < segment.size <= SCRIPT_SIZE * text_size
        or len(segment.text) > MAX_SCRIPT_CHARS
        or any(ch.isspace() for ch in segment.text)
        or _stacked(segment, segments, foot, SCRIPT_RAISE * height)
    ):
        return ""
    if segment.bottom <= foot - SCRIPT_RAISE * height:
        return "sup"
    lowered = segment.bottom > foot + SCRIPT_DROP * segment.size
    if lowered and len(segment.text) <= MAX_SUBSCRIPT_CHARS and _has_word_character(segment.text):
        return "sub"
    return ""


def _has_word_character(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


def _word_characters(text: str) -> int:
    return sum(ch.isalnum() for ch in text)


def _stacked(segment: Segment, segments: Sequence[Segment], foot: float, off: float) -> bool:
    """Whether ``segment`` is stacked with another of ``segments`` set off the line's
    ``foot`` (by more than ``off``): the two share more than :data:`STACKED_SHARE` of its
    width across. A superscript stands after a word on the baseline."""
    width = segment.x1 - segment.x0
    return any(
        min(segment.x1, other.x1) - max(segment.x0, other.x0) > STACKED_SHARE * width
        and abs(other.bottom - foot) > off
        for other in segments
        if other is not segment
    )


def as_script(segment: Segment, tag: str) -> Segment:
    """``segment`` with its text in ``tag``'s tags (``"sup"`` or ``"sub"``), as the Word
    parser marks a raised or lowered run."""
    return replace(segment, text=f"<{tag}>{segment.text}</{tag}>")


def without_tags(text: str) -> str:
    """``text`` as printed: a script's letters without its tags (a title in capitals with
    its raised "<sup>TOP</sup>" is still in capitals; a line compared to a bookmark's title
    has no "sup" in it)."""
    return _TAGS.sub("", text) if "<su" in text else text
