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

A hyphen PDFium leaves unmarked (a producer that wrote a space after it: "precur- sors") is
read on the same evidence: it is a cut one where the document prints the word joined
("precursors") and not hyphenated more often; so is a marked one before a capital where the
document prints the word joined in those very letters ("FED-" "ERAL" of "FEDERAL",
"Trace-" "Monkey" of "TraceMonkey"; "Er-" "Leben" stays, though "Erleben" is printed),
which the joining would keep (it drops a marked hyphen only before a lower-case letter).
Such a hyphen becomes :data:`CUT_HYPHEN`, which the joining drops.

Hangul text is broken between any two syllables by some producers, with no hyphen: a line
ending in a syllable over a line opening with one ("개" over "선과제에") cuts a word where the
document prints a word opening with the two joined ("개선과제" in a title); the line end is
marked :data:`CUT_WORD`, where the joining adds no space. Elsewhere Korean lines part words,
and the joining's space stays.

A word is cut only within one box: where the line below starts in another box (two captions
side by side read as one pair of lines: "Außenwin-" at the right one's end, "vgl. 61.c" at
the left one's start below it), its first word is no continuation, and the hyphen stays.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from lightrag_pchunk.pdf.layout import TABLE_ROLE, Line
from lightrag_pchunk.pdf.segments import LINE_END_HYPHENS, plain_hyphens

_HYPHENATED = re.compile(r"\b\w+(?:-\w+)+")
_WORD = re.compile(r"\w+")
#: A word and its hyphenated parts; read backwards it is one too, so the last word of a line
#: is matched at the start of the line reversed (a search anchored at the end would try every
#: start in a long run stopping short of it: quadratic in the run).
_FIRST_WORD = re.compile(r"\w+(?:-\w+)*")
#: A gap wider than this (in font sizes) inside a line parts two boxes side by side.
BOX_GAP = 2.0
#: A line-end hyphen the document shows to cut a word: the joining drops it (a soft
#: hyphen, which marks where a word may be cut).
CUT_HYPHEN = "\xad"
#: A line end the document shows to cut a Hangul word printed without a hyphen: the joining
#: adds no space there (a word joiner, which marks that no break parts the two).
CUT_WORD = "\u2060"
_HANGUL = re.compile("[\uac00-\ud7a3]")


@dataclass(frozen=True, slots=True)
class PrintedWords:
    """What the document prints inside its lines: in lower case, ``hyphenated``, the words
    with an inner hyphen printed more often than joined ("e-mail" more often than "email"),
    and ``words``, every word without a hyphen ("precursors"); ``spelled``, those words in
    their letters as printed ("TraceMonkey")."""

    hyphenated: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()
    spelled: frozenset[str] = frozenset()
    ordered: tuple[str, ...] = field(init=False)  # ``words`` sorted: the words opening alike

    def __post_init__(self) -> None:
        object.__setattr__(self, "ordered", tuple(sorted(self.words)))

    def prints_word_opening(self, start: str) -> bool:
        """Whether a word the document prints inside a line opens with ``start`` (in lower
        case)."""
        at = bisect.bisect_left(self.ordered, start.lower())
        return at < len(self.ordered) and self.ordered[at].startswith(start.lower())

    def prints_joined(self, first: str, then: str) -> bool:
        """Whether the document prints the word a line end cuts into ``first`` and
        ``then`` joined: in any case where ``then`` goes on in lower case, in those very
        letters where it opens on a capital or a digit ("TraceMonkey", not "Erleben" for
        "Er-" "Leben")."""
        joined = first + then
        return joined.lower() in self.words if then[:1].islower() else joined in self.spelled


def printed_words(pages: Sequence[Sequence[Line]]) -> PrintedWords:
    """The words the document prints inside its lines (see :class:`PrintedWords`)."""
    # The lines, one a line (no word runs over a line end), but a table's stand-in's key
    # (no printed text). A hyphen at a line's end is followed by no letter: no evidence.
    printed = "\n".join(
        line.text for line in itertools.chain.from_iterable(pages) if line.role != TABLE_ROLE
    )
    spelled = plain_hyphens(printed)
    text = spelled.lower()
    hyphenated = Counter(_HYPHENATED.findall(text))
    words = Counter(_WORD.findall(text))
    return PrintedWords(
        frozenset(
            word for word, count in hyphenated.items() if count > words[word.replace("-", "")]
        ),
        frozenset(words),
        frozenset(_WORD.findall(spelled)),
    )


def keep_printed_hyphens(lines: Sequence[Line], printed: PrintedWords) -> list[Line]:
    """``lines`` (one paragraph's, in order), each whose hyphen at its end cuts a word the
    document prints hyphenated (its last word, the hyphen, the next line's first word) with
    a plain hyphen there, which the joining keeps, and each whose hyphen cuts a word it
    prints joined with :data:`CUT_HYPHEN` there, which the joining drops."""
    kept = list(lines)
    for index, (line, below) in enumerate(itertools.pairwise(lines)):
        text = line.text.rstrip()
        if text and _HANGUL.match(text[-1]) and not _starts_another_box(line, below):
            if _cuts_hangul_word(text, below.text.lstrip(), printed):
                kept[index] = replace(line, text=text + CUT_WORD)
            continue
        if not text or text[-1] not in LINE_END_HYPHENS:
            continue
        if _starts_another_box(line, below):
            kept[index] = _with_end(line, "-")
            continue
        head = _FIRST_WORD.match(plain_hyphens(text[-2::-1]))
        tail = _FIRST_WORD.match(plain_hyphens(below.text.lstrip()))
        if not (head and tail):
            continue
        first, then = head[0][::-1], tail[0]
        if f"{first}-{then}".lower() in printed.hyphenated:
            kept[index] = _with_end(line, "-")
        elif printed.prints_joined(first, then):
            kept[index] = _with_end(line, CUT_HYPHEN)
    return kept


def _cuts_hangul_word(text: str, below: str, printed: PrintedWords) -> bool:
    """Whether the line ``text``, ending in a Hangul syllable, cuts a word that ``below``
    goes on with: it opens with one, and the document prints a word opening with the two
    pieces joined, up to the second syllable of the next line's ("확" over "진자는": the
    word "확진자가" is printed; a particle may follow the word elsewhere)."""
    if not _HANGUL.match(below[:1]):
        return False
    head = _FIRST_WORD.match(text[::-1])
    tail = _FIRST_WORD.match(below)
    return bool(head and tail) and printed.prints_word_opening(head[0][::-1] + tail[0][:2])


def _starts_another_box(line: Line, below: Line) -> bool:
    """Whether ``below`` starts in another box than the segment that ends ``line`` (the
    one its cut word is in): its first segment ends left of that segment and more than
    :data:`BOX_GAP` font sizes of space part it from the rest of ``below``."""
    if not line.segments or len(below.segments) < 2:
        return False
    cut, first, rest = line.segments[-1], below.segments[0], below.segments[1]
    return first.x1 < cut.x0 and rest.x0 - first.x1 > BOX_GAP * max(below.size, 1.0)


def _with_end(line: Line, hyphen: str) -> Line:
    """``line`` with its last hyphen (in its text and its last segment) ``hyphen``."""
    segments = line.segments
    if segments and segments[-1].text.rstrip()[-1:] in LINE_END_HYPHENS:
        last = segments[-1]
        segments = (*segments[:-1], replace(last, text=_ending(last.text, hyphen)))
    return replace(line, text=_ending(line.text, hyphen), segments=segments)


def _ending(text: str, hyphen: str) -> str:
    end = len(text.rstrip()) - 1
    return text[:end] + hyphen + text[end + 1 :]
