"""Word accounting between content rows and chunks: which words of the rows no chunk holds.

The guarantee it checks: every word of every content row appears in the chunks, as a
multiset (a word the rows hold k times, the chunks hold k times or more; copies made by R
overlap, bridge text or repeated table headers only add). A word is:

- one CJK character (Han, kana, Hangul, and the like): these scripts are written without
  spaces, so a character is the only unit both sides agree on;
- otherwise a maximal run of word characters (letters, digits, ``_``, combining marks) of
  at most :data:`MAX_WORD_CHARS` characters. A longer run is no word a reader knows (a hash,
  base64, a line typed without spaces): R cuts such a run between characters when it is over
  the cap, so its characters are counted one by one instead. A run that touches the start or
  end of a chunk may be the piece of such a cut: its characters count on the chunk side too.

Where consecutive chunks meet inside a stretch without spaces longer than
:data:`MAX_WORD_CHARS` (Ethiopic words between ``፡``, Tibetan syllables between ``་``, a
deeply nested HTML table), the text decides, not the word boundaries: R has to cut such a
stretch wherever the cap falls, often inside a word. A word of the rows that the chunks lack
is found at such a seam when the run ending one chunk is its start and the run opening the
next its end, together covering it (the two may share characters, as an overlap repeats
text): the seam holds the word once, instead of its two pieces. A word lost in truth still
counts: its text is at no seam, or a character of it is missing; and a word cut where a
space was at hand (``interop`` + ``erability`` after a space) is no seam R had to make. A
shorter stretch is cut the same way where the chunk before the seam holds no white space:
the cap, counted in tokens, fell inside its one stretch (a script whose characters take
several tokens each, such as Grantha or Shan, at a small N).

Chunks and rows are read as :func:`~lightrag_pchunk.chunk.shown_text.shown_text` shows them
(table bodies as their cells, JSON escapes decoded). Where R cut an escape between two chunks
(LaTeX's ``\\`` | ``biguplus``, which the row shows as a backspace and ``iguplus``), the first
word of the second chunk counts read with the escape whole too. Pure: no I/O, no
configuration; the caller passes the rows that were chunked, so rows a setting removes on
purpose (``CHUNK_P_DROP_REFERENCES``) are not counted as lost.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lightrag_pchunk.chunk.blocks import BLOCK_JOINER
from lightrag_pchunk.chunk.shown_text import escapes_cut, shown_text

#: Runs of word characters longer than this are counted character by character.
MAX_WORD_CHARS = 40
#: How far past its own length a text of the rows is looked for in the chunks: room for
#: what the chunker adds between texts (joiners, headings, bridge text, table headers).
_SLACK_CHARS = 4096
#: Characters the search reaches further per character of the rows not found since the
#: last text found.
_GROWTH = 4
#: Texts not found in a row after which the rest of the rows is counted whole.
_MAX_MISSES = 64

# Scripts written without spaces between words: each character is a word.
_CJK = (
    "\u1100-\u11ff\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3040-\u30ff\u3100-\u312f"
    "\u3130-\u318f\u31a0-\u31bf\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f"
    "\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f"
)


def _combining_marks(codes: range) -> str:
    """The combining marks among ``codes`` outside the CJK ranges (Unicode categories Mn, Mc,
    Me), as ranges of a character class. ``\\w`` leaves them out (it is ``str.isalnum``),
    which would cut 'किताब' into 'क', 'त', 'ब' and 'café' (with U+0301) into 'cafe': letters
    so common that a lost word would hide behind other words' copies."""
    cjk = re.compile(f"[{_CJK}]")
    ranges: list[str] = []
    first = last = -2
    for code in codes:
        character = chr(code)
        if unicodedata.category(character)[0] != "M" or cjk.match(character):
            continue
        if code != last + 1:
            if first >= 0:
                ranges.append(f"{chr(first)}-{chr(last)}")
            first = code
        last = code
    ranges.append(f"{chr(first)}-{chr(last)}")
    return "".join(ranges)


# A combining mark (planes 0, 1, 2 and 14 hold them all). Those past the BMP are looked up
# only for a character past it: a class reaching past the BMP is read range by range, one
# within it as a table.
_MARK = (
    f"(?:[{_combining_marks(range(0x10000))}]|(?=[\U00010000-\U0010ffff])"
    f"[{_combining_marks(range(0x10000, 0x30000))}{_combining_marks(range(0xE0000, 0xE1000))}])"
)
_LETTER = rf"[^\W{_CJK}]"  # a word character but a CJK one
# A run: letters with the combining marks among and around them (the two never overlap).
_RUN = re.compile(rf"{_MARK}*{_LETTER}+(?:{_MARK}+{_LETTER}*)*|{_MARK}+")
_TOKEN = re.compile(rf"[{_CJK}]|{_RUN.pattern}")
_STRETCH = re.compile(r"\S+")
#: The last white space of a stretch, where a part of a line found in the chunks may end.
_LAST_SPACE = re.compile(r".*\s", re.DOTALL)
_WORD_CHAR = re.compile(rf"\w|{_MARK}")


@dataclass(frozen=True, slots=True)
class WordShortfall:
    """Words of the rows that the chunks do not hold, with how many occurrences are missing."""

    missing: Counter[str]

    @property
    def total(self) -> int:
        """Occurrences missing in all (0: nothing lost)."""
        return sum(self.missing.values())

    def __bool__(self) -> bool:
        return bool(self.missing)

    def describe(self, examples: int = 5) -> str:
        """``"12 words (e.g. 'foo' x3, 'bar')"``, or ``"no word"``."""
        if not self.missing:
            return "no word"
        shown = ", ".join(
            repr(word) + (f" x{count}" if count > 1 else "")
            for word, count in self.missing.most_common(examples)
        )
        more = ", …" if len(self.missing) > examples else ""
        return f"{self.total} word{'s' if self.total != 1 else ''} (e.g. {shown}{more})"


def count_words(text: str, *, is_chunk: bool = False) -> Counter[str]:
    """The words of ``text`` as defined in the module docstring.

    ``is_chunk``: also count the characters of the first and last run (a possible piece of a
    long run R cut between characters).
    """
    shown = shown_text(text)
    counts = _word_counts([shown])
    if is_chunk:
        _add_edges(counts, shown)
    return counts


def lost_words(row_texts: Iterable[str], chunk_texts: Iterable[str]) -> WordShortfall:
    """The words of ``row_texts`` (the contents of the rows that were chunked) that
    ``chunk_texts`` (the contents of their chunks) do not hold often enough.

    Chunks that are the rows with text joined in order by blank lines (no row cut nor
    repeated: P's usual document) hold every word: one comparison of the whole text says
    so. Otherwise text of the rows the chunks hold verbatim (:func:`_held_verbatim`) holds
    its words there: only the rest of each side is counted word by word.
    """
    row_texts, chunk_texts = list(row_texts), list(chunk_texts)
    rows_with_text = [text for text in row_texts if text.strip()]
    if BLOCK_JOINER.join(rows_with_text) == BLOCK_JOINER.join(chunk_texts):
        return WordShortfall(Counter())
    shown = [shown_text(text) for text in chunk_texts]
    missing, outside = _held_verbatim([shown_text(text) for text in row_texts], shown)
    rows = _word_counts(missing)
    if not rows:  # every word of the rows is in text the chunks hold verbatim
        return WordShortfall(rows)
    chunks = _word_counts(outside)
    for text in shown:
        _add_edges(chunks, text)
    chunks.update(escape_cut_words(chunk_texts))
    lacking = rows - chunks
    if not lacking:
        return WordShortfall(lacking)
    # Only words the chunks lack are looked for at the seams (most documents lose none).
    seams = _seams(shown)
    if seams:
        _mend_seams(rows, chunks, seams)
        lacking = rows - chunks
    return WordShortfall(lacking)


def _held_verbatim(rows: Sequence[str], chunks: Sequence[str]) -> tuple[list[str], list[str]]:
    """The text of ``rows`` the ``chunks`` do not hold verbatim, and the text of the chunks
    outside what they hold verbatim: the two sides of the count, less the same words.

    The rows are looked for in order in the chunks joined by line breaks, each whole, else
    line by line, a line not found whole piece by piece (R cut it: :func:`_longest_piece`),
    from where the text found last ends. A text found there, with no word character just
    before or after it (it neither continues nor starts a word), holds exactly its own
    words, and no other row's (the places found never overlap): both sides leave it out,
    which changes no difference of their counts. The search is bounded to keep it linear:
    a text is looked for up to :data:`_SLACK_CHARS` past its length, plus :data:`_GROWTH`
    characters per character of the rows not found since the last found (the chunks may
    hold those longer: an R split repeats its overlap); after :data:`_MAX_MISSES` texts
    not found in a row, the rest of the rows is counted whole.
    """
    joined = "\n".join(chunks)
    missing: list[str] = []
    found: list[tuple[int, int]] = []
    cursor = behind = misses = 0  # end of the text found last; what was missed since
    for row in rows:
        if misses >= _MAX_MISSES:
            missing.append(row)
            continue
        start = _find_word_bounded(joined, row, cursor, behind)
        if start >= 0:
            found.append((start, start + len(row)))
            cursor, behind, misses = start + len(row), 0, 0
            continue
        for line in row.split("\n"):
            begin = 0
            while begin < len(line):
                start, end = _longest_piece(joined, line, begin, cursor, behind)
                if start < 0:
                    missing.append(line[begin:])
                    behind, misses = behind + len(line) - begin, misses + 1
                    break
                found.append((start, start + end - begin))
                cursor, behind, misses = start + end - begin, 0, 0
                # R strips the white space that starts a piece (it holds no word).
                begin = len(line) - len(line[end:].lstrip())
    ends = [0, *(bound for place in found for bound in place), len(joined)]
    outside = [joined[ends[i] : ends[i + 1]] for i in range(0, len(ends), 2)]
    return missing, outside


def _longest_piece(text: str, line: str, begin: int, cursor: int, behind: int) -> tuple[int, int]:
    """Where in ``text`` a part of ``line`` from ``begin`` on is held (as
    :func:`_find_word_bounded` finds it), and where the part ends in ``line``: the rest
    whole, else the longest part ending before a white space (not inside a word), of at
    least :data:`MAX_WORD_CHARS` characters (a shorter one may be found anywhere), where the
    text first holds its opening :data:`MAX_WORD_CHARS` characters; ``(-1, begin)`` if none.

    The opening is looked for once and the part grown from there: a search that fails reads
    the whole search window, which a search per candidate length would read again and again.
    """
    start = _find_word_bounded(text, line[begin:], cursor, behind)
    if start >= 0:
        return start, len(line)
    shortest = begin + MAX_WORD_CHARS
    if shortest >= len(line):
        return -1, begin
    start = _find_word_bounded(text, line[begin:shortest], cursor, behind, ends_word=False)
    if start < 0:
        return -1, begin
    held = _repeated_length(text, start, line, begin)
    end = begin + held + 1  # the white space closing the part may be where the two differ
    while True:
        space = _LAST_SPACE.match(line, shortest, end)
        if space is None:
            return -1, begin
        end = space.end() - 1  # the part ends before that white space
        # Inside what both hold, the text has the same white space there: only at their
        # parting may a word character follow the part in the text.
        if not _WORD_CHAR.match(text, start + end - begin):
            return start, end


def _repeated_length(text: str, start: int, line: str, begin: int) -> int:
    """How many characters of ``line`` from ``begin`` on ``text`` repeats from ``start``
    on (the search halves the candidates, each compared in one call)."""
    low, high = 0, min(len(line) - begin, len(text) - start)
    while low < high:
        middle = (low + high + 1) // 2
        if text.startswith(line[begin : begin + middle], start):
            low = middle
        else:
            high = middle - 1
    return low


def _find_word_bounded(
    text: str, part: str, cursor: int, behind: int, *, ends_word: bool = True
) -> int:
    """Where ``part`` occurs in ``text`` from ``cursor`` on, within the search bound of
    :func:`_held_verbatim`, with no word character just before it nor, if ``ends_word``,
    just after it; -1 if nowhere."""
    limit = cursor + len(part) + _SLACK_CHARS + _GROWTH * behind
    start = text.find(part, cursor, limit)
    while start >= 0:
        end = start + len(part)
        # No position before 0: matching there would read the text's first character.
        after_word = start > 0 and _WORD_CHAR.match(text, start - 1)
        if not after_word and not (ends_word and _WORD_CHAR.match(text, end)):
            return start
        start = text.find(part, start + 1, limit)
    return -1


def _seams(chunks: Sequence[str]) -> list[tuple[str, str]]:
    """The word runs on either side of each place where consecutive ``chunks`` meet inside
    a stretch without spaces longer than a word (which may run through whole chunks), or
    after a chunk that is one stretch without spaces."""
    closing = [len(_closing(_STRETCH, text)) for text in chunks]
    opening = [len(_opening(_STRETCH, text)) for text in chunks]
    back = list(closing)  # the stretch ending each chunk, through chunks without a space
    for i in range(1, len(chunks)):
        if closing[i] == len(chunks[i]):
            back[i] += back[i - 1]
    ahead = list(opening)  # the stretch opening each chunk, likewise
    for i in range(len(chunks) - 2, -1, -1):
        if opening[i] == len(chunks[i]):
            ahead[i] += ahead[i + 1]
    seams = []
    for i in range(1, len(chunks)):
        one_stretch = closing[i - 1] == len(chunks[i - 1])  # no space where R could cut
        if back[i - 1] and ahead[i] and (back[i - 1] + ahead[i] > MAX_WORD_CHARS or one_stretch):
            head, tail = _closing(_RUN, chunks[i - 1]), _opening(_RUN, chunks[i])
            # A word holding a piece of MAX_WORD_CHARS is longer: counted by its characters.
            if 0 < len(head) < MAX_WORD_CHARS and 0 < len(tail) < MAX_WORD_CHARS:
                seams.append((head, tail))
    return seams


def _opening(pattern: re.Pattern[str], text: str) -> str:
    """What ``pattern`` matches at the start of ``text`` ("" if nothing)."""
    match = pattern.match(text)
    return match.group() if match else ""


def _closing(pattern: re.Pattern[str], text: str) -> str:
    """What ``pattern`` (a run of one class of characters) matches at the end of ``text``,
    matched at the start of the reversed text: a search for it anchored at the end would try
    every start in a long run that stops short of the end (quadratic in the run)."""
    return _opening(pattern, text[::-1])[::-1]


def _mend_seams(rows: Counter[str], chunks: Counter[str], seams: list[tuple[str, str]]) -> None:
    """Count in ``chunks``, for each word the rows lack there, the seams whose two pieces
    spell it, in place of the pieces (no words of their own). A piece taken back may be a
    word then lacking in turn, which another seam may spell."""
    spelling: dict[str, list[int]] = {}  # a word -> the seams that may spell it
    for index, seam in enumerate(seams):
        for word in _seam_words(*seam):
            spelling.setdefault(word, []).append(index)
    used: set[int] = set()
    lacking = [word for word in spelling if rows[word] > chunks[word]]
    while lacking:
        word = lacking.pop()
        candidates = spelling.get(word, [])
        while candidates and rows[word] > chunks[word]:
            index = candidates.pop()
            if index in used:
                continue
            used.add(index)
            head, tail = seams[index]
            chunks.update({word: 1, head: -1, tail: -1} if head != tail else {word: 1, head: -2})
            lacking.extend((head, tail))


def _seam_words(head: str, tail: str) -> list[str]:
    """The words a seam may spell: ``head`` then ``tail``, the two sharing 0 characters (cut
    exactly) or more (the next chunk repeats the last characters before the cut)."""
    words = []
    for shared in range(min(len(head), len(tail)) + 1):
        if not shared or head[-shared:] == tail[:shared]:
            word = head + tail[shared:]
            if word not in (head, tail):
                words.append(word)
    return words


def _word_counts(texts: Sequence[str]) -> Counter[str]:
    """The words of ``texts`` (module doc: a run longer than a word counts its characters)."""
    counts = Counter(_TOKEN.findall("\n".join(texts)))
    for run in [word for word in counts if len(word) > MAX_WORD_CHARS]:
        times = counts.pop(run)
        for character in run:
            counts[character] += times
    return counts


def escape_cut_words(chunk_texts: Sequence[str]) -> Counter[str]:
    """The first word of each chunk read with the start of an escape the chunk before it
    ends inside (:func:`~lightrag_pchunk.chunk.shown_text.escapes_cut`), a word the row
    holding the escape whole shows: counted besides the chunk's own first word, as either
    reading may be the row's."""
    words: Counter[str] = Counter()
    for text in escapes_cut(chunk_texts):
        first = _TOKEN.search(text)
        if first:
            words.update(_word_counts([first[0]]))
    return words


def _add_edges(counts: Counter[str], text: str) -> None:
    """Count the characters of the first and last word of a chunk (one word: once), each
    a possible piece of a longer run R cut between characters."""
    first = next((m for m in _TOKEN.finditer(text) if len(m[0]) <= MAX_WORD_CHARS), None)
    if first is None:
        return
    if len(first[0]) > 1:
        counts.update(first[0])
    # The last word, found from the end: the runs of the reversed text are those of the
    # text, reversed.
    reverse = text[::-1]
    last = next(m for m in _TOKEN.finditer(reverse) if len(m[0]) <= MAX_WORD_CHARS)
    if len(text) - last.end() != first.start() and len(last[0]) > 1:
        counts.update(last[0][::-1])
