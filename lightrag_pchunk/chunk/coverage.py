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

Table tags are read as what they show: the caption (its attribute's value: attribute names and
ids are markup, not words, so a caption the chunker moves out of the tag counts the same) and
the body; the body of a ``format="json"`` tag is decoded and its cell strings are counted, so
JSON escaping (``\\"``, ``\\n``, ``\\u4e2d``, ``<\\/table``) never makes or breaks a word and a
slice re-serialised by the chunker counts the same. Pure: no I/O,
no configuration; the caller passes the rows that were chunked, so rows a setting removes on
purpose (``CHUNK_P_DROP_REFERENCES``) are not counted as lost.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from lightrag_pchunk.chunk.table_tags import table_caption

#: Runs of word characters longer than this are counted character by character.
MAX_WORD_CHARS = 40

# Scripts written without spaces between words: each character is a word.
_CJK = (
    "\u1100-\u11ff\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3040-\u30ff\u3100-\u312f"
    "\u3130-\u318f\u31a0-\u31bf\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f"
    "\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f"
)
_TOKEN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+")
_TABLE = re.compile(r"<table\b(?P<attrs>[^>]*)>(?P<body>.*?)</table>", re.DOTALL | re.IGNORECASE)
_ESCAPE = re.compile(r'\\(["\\/bfnrt]|u[0-9a-fA-F]{4})')
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


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
    counts: Counter[str] = Counter()
    _add(counts, _shown_text(text), is_chunk)
    return counts


def lost_words(row_texts: Iterable[str], chunk_texts: Iterable[str]) -> WordShortfall:
    """The words of ``row_texts`` (the contents of the rows that were chunked) that
    ``chunk_texts`` (the contents of their chunks) do not hold often enough."""
    rows: Counter[str] = Counter()
    for text in row_texts:
        _add(rows, _shown_text(text), False)
    chunks: Counter[str] = Counter()
    for text in chunk_texts:
        _add(chunks, _shown_text(text), True)
    return WordShortfall(rows - chunks)


def _add(counts: Counter[str], text: str, is_chunk: bool) -> None:
    tokens = _TOKEN.findall(text)
    long_runs = [t for t in tokens if len(t) > MAX_WORD_CHARS]
    if long_runs:
        tokens = [t for t in tokens if len(t) <= MAX_WORD_CHARS]
        for run in long_runs:
            counts.update(run)  # a str iterates over its characters
    counts.update(tokens)
    if is_chunk and tokens:
        edges = (tokens[0], tokens[-1]) if len(tokens) > 1 else (tokens[0],)
        for run in edges:
            if len(run) > 1:
                counts.update(run)


def _shown_text(text: str) -> str:
    """``text`` as a reader sees it: each JSON table body replaced by its cell strings, one per
    line, and JSON string escapes decoded everywhere else (the pieces of a table row R cut
    between characters are raw JSON)."""
    if "<table" not in text and "<TABLE" not in text:
        return _unescape(text)
    out: list[str] = []
    position = 0
    for match in _TABLE.finditer(text):
        out.append(_unescape(text[position : match.start()]))
        out.append(_decoded_table(match))
        position = match.end()
    out.append(_unescape(text[position:]))
    return "".join(out)


def _decoded_table(match: re.Match[str]) -> str:
    attrs, body = match.group("attrs"), match.group("body")
    caption = table_caption(attrs)
    if "html" in attrs.lower() or body.lstrip()[:1] != "[":
        return f"\n{caption}\n{_unescape(body)}\n"
    try:
        rows = json.loads(body)
    except ValueError:  # not a whole JSON array: read as raw JSON text
        return f"\n{caption}\n{_unescape(body)}\n"
    cells: list[str] = []
    _cells(rows, cells)
    return f"\n{caption}\n" + "\n".join(cells) + "\n"


def _unescape(text: str) -> str:
    return _ESCAPE.sub(_unescaped, text) if "\\" in text else text


def _unescaped(match: re.Match[str]) -> str:
    code = match.group(1)
    if code[0] == "u":
        return chr(int(code[1:], 16))
    return _ESCAPES[code]


def _cells(value: object, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, list):
        for item in value:
            _cells(item, out)
    elif value is not None:
        out.append(str(value))
