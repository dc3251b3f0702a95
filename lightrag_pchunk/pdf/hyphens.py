"""Line-end hyphens: which ones the document itself shows to be real hyphens.

PDFium marks every hyphen at the end of a line as a hyphenation break (U+FFFE or U+0002),
whether the word was cut there or was printed with its hyphen anyway ("non-" "governmental",
"well-" "known"). The joining of lines (``paragraphs.join_lines``) drops a marked hyphen
before a lower-case continuation. The document is the evidence against that: a word with an
inner hyphen printed whole inside a line somewhere ("non-governmental", case aside) keeps its
hyphen where a line end cuts it, unless the document prints the word joined
("nongovernmental") as often or more, which says the hyphen there is a cut one (a document
that prints a word both ways is counted, not trusted on one spelling: a report writing
"non-governmental" 28 times and "nongovernmental" once keeps the hyphen). A word the
document prints in neither form is taken to be cut ("infor-" "mation" -> "information").

A word is cut only within one box: where the line below starts in another box (two captions
side by side read as one pair of lines: "Außenwin-" at the right one's end, "vgl. 61.c" at
the left one's start below it), its first word is no continuation, and the hyphen stays.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line
from lightrag_pchunk.pdf.segments import SOFT_HYPHENS, plain_hyphens

_HYPHENATED = re.compile(r"\b\w+(?:-\w+)+")
_WORD = re.compile(r"\w+")
#: A word and its hyphenated parts; read backwards it is one too, so the last word of a line
#: is matched at the start of the line reversed (a search anchored at the end would try every
#: start in a long run stopping short of it: quadratic in the run).
_FIRST_WORD = re.compile(r"\w+(?:-\w+)*")
#: A gap wider than this (in font sizes) inside a line parts two boxes side by side.
BOX_GAP = 2.0


def printed_hyphenated(pages: Sequence[Sequence[Line]]) -> frozenset[str]:
    """The words with an inner hyphen the document prints inside its lines, in lower case,
    more often than it prints them joined ("e-mail" more often than "email")."""
    # The lines, one a line (no word runs over a line end), but a table's stand-in's key
    # (no printed text). A hyphen at a line's end is followed by no letter: no evidence.
    printed = "\n".join(
        line.text for line in itertools.chain.from_iterable(pages) if line.role != TABLE_ROLE
    )
    text = plain_hyphens(printed).lower()
    hyphenated = Counter(_HYPHENATED.findall(text))
    words = Counter(_WORD.findall(text))
    return frozenset(
        word for word, count in hyphenated.items() if count > words[word.replace("-", "")]
    )


def keep_printed_hyphens(lines: Sequence[Line], hyphenated: frozenset[str]) -> list[Line]:
    """``lines`` (one paragraph's, in order), each whose marked hyphen at its end cuts a word
    of ``hyphenated`` (its last word, the hyphen, the next line's first word) with a plain
    hyphen there instead, which the joining keeps."""
    kept = list(lines)
    for index, (line, below) in enumerate(itertools.pairwise(lines)):
        text = line.text.rstrip()
        if not text or text[-1] not in SOFT_HYPHENS:
            continue
        if _starts_another_box(line, below):
            kept[index] = _with_plain_end(line)
            continue
        head = _FIRST_WORD.match(plain_hyphens(text[-2::-1]))
        tail = _FIRST_WORD.match(plain_hyphens(below.text.lstrip()))
        if head and tail and f"{head[0][::-1]}-{tail[0]}".lower() in hyphenated:
            kept[index] = _with_plain_end(line)
    return kept


def _starts_another_box(line: Line, below: Line) -> bool:
    """Whether ``below`` starts in another box than the segment that ends ``line`` (the
    one its cut word is in): its first segment ends left of that segment and more than
    :data:`BOX_GAP` font sizes of space part it from the rest of ``below``."""
    if not line.segments or len(below.segments) < 2:
        return False
    cut, first, rest = line.segments[-1], below.segments[0], below.segments[1]
    return first.x1 < cut.x0 and rest.x0 - first.x1 > BOX_GAP * max(below.size, 1.0)


def _with_plain_end(line: Line) -> Line:
    """``line`` with its last marked hyphen (in its text and its last segment) a plain one."""
    segments = line.segments
    if segments and segments[-1].text.rstrip()[-1:] in tuple(SOFT_HYPHENS):
        last = segments[-1]
        segments = (*segments[:-1], replace(last, text=_plain_end(last.text)))
    return replace(line, text=_plain_end(line.text), segments=segments)


def _plain_end(text: str) -> str:
    end = len(text.rstrip()) - 1
    return text[:end] + "-" + text[end + 1 :]
