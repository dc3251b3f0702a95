"""Stage A for PDF: the segments of a printed line set as superscripts.

A superscript is printed smaller than its line's text with its foot raised off the line's
baseline: a footnote's mark, a link back to the contents after a title ("FUNDING
OPPORTUNITIES TOP", the word set small and raised), an ordinal's ending. The Word parser
marks such runs ``<sup>…</sup>`` from their ``w:vertAlign``; a PDF says nothing of it, so
the glyphs' size and place decide, and the line's text carries the same markup: the
outline's classifier then reads the title without its mark (``outline.toc``), and the
line's look (bold) is its text's, not the mark's.

Input: the segments of one printed line (``layout.make_line``). A segment is the unit: a
mark set apart from its word by a gap is a segment of its own; one printed against its
word shares the word's segment and stays plain text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.pdf.segments import Segment

#: A superscript is set at most this share of its line's text size (Word sets them at
#: about 0.65 of it) ...
SCRIPT_SIZE = 0.8
#: ... with its foot at least this share of the text's height above the text's foot (a
#: word set small on the baseline, small capitals, is no superscript) ...
SCRIPT_RAISE = 0.25
#: ... and one word of at most this many characters (a mark, "TOP", "σ2007"): words apart
#: raised over a line are a fraction's numerator ("−b ± √b² − 4ac" over "2a"), a label.
MAX_SCRIPT_CHARS = 12
#: A raised segment that shares more than this share of its width across with another of
#: its line's segments set off the line's baseline is stacked with it, not beside the
#: text: a fraction's numerator over its denominator, a sum's limit, a matrix's entries.
#: (A mark inside the span of a segment on the baseline, as PDFium may cut a
#: right-to-left line around one, still marks it.)
STACKED_SHARE = 0.5
#: The tags :func:`as_superscript` writes (and a subscript's): markup, no printed letters.
_TAGS = re.compile(r"</?su[bp]>")


def raised_segments(segments: Sequence[Segment], text_size: float) -> list[bool]:
    """For each of a line's ``segments``, whether it is set as a superscript: one short word
    (:data:`MAX_SCRIPT_CHARS`) smaller than the line's text (``text_size``: the size most
    of its characters are set at) by :data:`SCRIPT_SIZE`, its foot raised by :data:`SCRIPT_RAISE`
    of the text's height, and not stacked with a segment set off the line's baseline
    (:data:`STACKED_SHARE`). A line of one segment has none, nor one whose other segments
    hold no letter or digit (a mark needs a word to mark)."""
    if len(segments) < 2:
        return [False] * len(segments)
    text = [s for s in segments if s.size == text_size and not s.table]
    if not text or text_size <= 0:
        return [False] * len(segments)
    foot = max(s.bottom for s in text)
    height = max(s.height for s in text)
    raised = [
        not segment.table
        and 0 < segment.size <= SCRIPT_SIZE * text_size
        and segment.bottom <= foot - SCRIPT_RAISE * height
        and len(segment.text) <= MAX_SCRIPT_CHARS
        and not any(ch.isspace() for ch in segment.text)
        and not _stacked(segment, segments, foot, SCRIPT_RAISE * height)
        for segment in segments
    ]
    words = (s.text for s, up in zip(segments, raised, strict=True) if not up)
    if not any(ch.isalnum() for text in words for ch in text):
        return [False] * len(segments)
    return raised


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


def as_superscript(segment: Segment) -> Segment:
    """``segment`` with its text in ``<sup>`` tags, as the Word parser marks a raised run."""
    return replace(segment, text=f"<sup>{segment.text}</sup>")


def without_tags(text: str) -> str:
    """``text`` as printed: a superscript's letters without its tags (a title in capitals
    with its raised "<sup>TOP</sup>" is still in capitals; a line compared to a bookmark's
    title has no "sup" in it)."""
    return _TAGS.sub("", text) if "<su" in text else text
