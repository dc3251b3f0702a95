"""Questions made from the documents themselves, each with the exact evidence it needs.

No LLM and no labels: a question is a query built from the document's own words, and its
evidence is the text an answer must be read from (whitespace normalised):

* ``sentence``: a sentence; the query is a contiguous window of about 60% of its words
  (of its characters in Chinese or Japanese text);
* ``paragraph``: a whole paragraph of two sentences or more that fits a chunk; the query
  takes a few words from its first and its last sentence, and every other one is
  prefixed with its section heading (a user naming the section);
* ``table``: a fact of a table, row key + column header -> the cell's value; the query is
  "What is the <header> of <key>?" and the evidence is the three cells (the header only
  travels with a row when the chunker repeats it). The column header is the one the parse
  recorded (``table_header``); a table it found none in (a glossary, a form) gives no fact.

A document whose text fits in N tokens gets none (P keeps it whole; a contender that still
cuts it, e.g. R or F repeating the overlap, is named in the report), and neither does an
empty document or one whose text repeats another's; the report lists them all.
``--questions FILE.jsonl`` replaces all this with the user's own (question, evidence) pairs
(``user_questions.py``).
"""

from __future__ import annotations

import hashlib
import html
import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from lightrag_pchunk.blockfile.sidecars import read_table_headers
from lightrag_pchunk.chunk.table_tags import json_rows, parse_table
from lightrag_pchunk.eval.documents import ParsedText
from lightrag_pchunk.tokens import TokenCounter

SENTENCE, PARAGRAPH, TABLE, USER = "sentence", "paragraph", "table", "user"
#: The kinds of automatic questions, in report order.
AUTO_KINDS = (SENTENCE, PARAGRAPH, TABLE)

#: Most questions of one kind per document (a document gets one per N tokens of text).
DEFAULT_PER_KIND = 8

_HEADING_LINE = re.compile(r"^#{1,9}\s")
_TAG = re.compile(r"<(?:table|equation|drawing)\b", re.IGNORECASE)
_CJK_CLASS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_SENTENCE_END = re.compile(rf"(?<=[.!?])\s+(?=[\"'“‘(\[]?[A-Z0-9{_CJK_CLASS}])|(?<=[。！？；])")
_CJK = re.compile(f"[{_CJK_CLASS}]")
_WORD = re.compile(r"\S+")
#: Cell text that every rendering of a table keeps verbatim (JSON, HTML, Markdown).
_PLAIN_CELL = re.compile(r"[^\"\\<>&|\n\r\t]{2,120}")
_NUMBER = re.compile(r"[\d\s.,%+\-/:]+")
#: A value found more often in the document is boilerplate ("Click here to enter text.").
_MAX_VALUE_REPEATS = 3


def normalize(text: str) -> str:
    """Whitespace runs collapsed to one space, ends stripped: how evidence is compared."""
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Question:
    """One question: the query sent to the retriever and the evidence that answers it.

    ``evidence`` holds normalised texts that must all be read: a chunk answers when it
    contains every one of them. ``document`` is the name of the document it comes from.
    """

    qid: str
    document: str
    kind: str
    text: str
    evidence: tuple[str, ...]
    heading: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form (the ``--json`` output lists the questions)."""
        return {
            "id": self.qid,
            "document": self.document,
            "kind": self.kind,
            "question": self.text,
            "evidence": list(self.evidence),
            "heading": self.heading,
        }


@dataclass(slots=True)
class _Candidates:
    sentence: list[tuple[str, str]] = field(default_factory=list)  # (sentence, heading)
    paragraph: list[tuple[str, list[str], str]] = field(default_factory=list)
    table: list[tuple[str, str, str, str]] = field(default_factory=list)  # header,key,value,hd


def is_cjk(text: str) -> bool:
    """Mostly Chinese, Japanese or Korean characters (no spaces between words)."""
    letters = sum(1 for ch in text if ch.isalnum())
    return letters > 0 and len(_CJK.findall(text)) * 2 >= letters


def split_sentences(paragraph: str) -> list[str]:
    """The sentences of one paragraph (Latin and CJK end marks)."""
    return [s.strip() for s in _SENTENCE_END.split(paragraph) if s and s.strip()]


def _paragraphs(content: str) -> Iterator[str]:
    # Markdown separates paragraphs with blank lines (and hard-wraps inside them); Word
    # paragraphs are one line each.
    pieces = re.split(r"\n\s*\n", content) if re.search(r"\n\s*\n", content) else [content]
    for piece in pieces:
        lines = [line for line in piece.splitlines() if line.strip()]
        if len(pieces) > 1:
            yield from _unwrapped(lines)
        else:
            yield from lines


def _unwrapped(lines: list[str]) -> Iterator[str]:
    # Heading, list and table lines stand alone; other lines of one piece are one paragraph.
    prose: list[str] = []
    for line in lines:
        if _HEADING_LINE.match(line) or _TAG.search(line) or line.lstrip()[:2] in ("- ", "* "):
            if prose:
                yield " ".join(prose)
                prose = []
            yield line
        else:
            prose.append(line.strip())
    if prose:
        yield " ".join(prose)


def _sentence_fits(sentence: str) -> bool:
    if is_cjk(sentence):
        return 15 <= len(_CJK.findall(sentence)) <= 150
    return 8 <= len(_WORD.findall(sentence)) <= 60


def _table_facts(line: str, headers: dict[str, str]) -> Iterator[tuple[str, str, str]]:
    """(column header, row key, value) facts of one table tag; ``headers`` are the header
    rows the parse recorded (``table_header`` of ``.tables.json``) by table id."""
    tag = parse_table(line)
    if tag is None:
        return
    rows = json_rows(tag.body) if tag.format == "json" else _html_cells(tag.body)
    if not rows or not all(isinstance(r, list) for r in rows):
        return
    first = _data_start(tag.format, headers.get(tag.table_id or ""), rows)
    if first is None or len(rows) - first < 2:
        return
    header = [_cell_text(c) for c in rows[first - 1]]
    keys = [_cell_text(r[0]) if r else "" for r in rows[first:]]
    # Counted once: a table of thousands of rows must not be scanned again per row.
    key_counts, name_counts = Counter(keys), Counter(header)
    for row, key in zip(rows[first:], keys, strict=True):
        if not _PLAIN_CELL.fullmatch(key) or key_counts[key] != 1 or key in name_counts:
            continue
        for column in range(1, min(len(row), len(header))):
            name, value = header[column], _cell_text(row[column])
            if (
                _PLAIN_CELL.fullmatch(name)
                and _is_label(name)
                and name_counts[name] == 1
                and value.strip()
                and _PLAIN_CELL.fullmatch(value)
                and value not in (key, name)
            ):
                yield name, key, value


def _data_start(table_format: str, recorded: str | None, rows: list[list]) -> int | None:
    """Index of the first data row: after the header rows the parse recorded (their last
    row names the columns), None when it recorded that the table has none (a glossary or
    a form: no column header to ask about); without a record, after the first row."""
    if recorded is None or table_format != "json":
        return 1
    declared = json_rows(recorded)
    if declared is None:
        return 1
    if not declared:
        return None
    return len(declared) if rows[: len(declared)] == declared else 1


def _is_label(cell: str) -> bool:
    """A column name, not a data row taken for the header (``2.05``, ``11000``)."""
    return any(ch.isalpha() for ch in cell) and not _NUMBER.fullmatch(cell)


def _cell_text(cell: Any) -> str:
    """The cell's text when every rendering keeps it verbatim, else "" (never asked about).

    Checked before normalising: a line break inside a JSON cell is written ``\\n``.
    """
    if not isinstance(cell, str) or not _PLAIN_CELL.fullmatch(cell.strip()):
        return ""
    return normalize(cell)


class _CellCollector(HTMLParser):
    """The cell texts of each top-level ``<tr>`` of an HTML table body."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._depth += 1
        elif self._depth == 0 and tag == "tr":
            self.rows.append([])
        elif self._depth == 0 and tag in ("td", "th") and self.rows:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._depth = max(self._depth - 1, 0)
        elif self._depth == 0 and tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _html_cells(body: str) -> list[list[str]]:
    collector = _CellCollector()
    collector.feed(body)
    collector.close()
    # A cell whose text needed escaping is rendered differently by each chunker: skip it.
    return [[c if html.escape(c, quote=False) == c else "" for c in row] for row in collector.rows]


def _candidates(parsed: ParsedText, counter: TokenCounter, size: int) -> _Candidates:
    found = _Candidates()
    headers = read_table_headers(parsed.blocks_path) if parsed.blocks_path else {}
    for row in parsed.rows:
        heading = normalize(row.heading)
        for paragraph in _paragraphs(row.content):
            if _HEADING_LINE.match(paragraph):
                continue
            if _TAG.search(paragraph):
                found.table.extend((*fact, heading) for fact in _table_facts(paragraph, headers))
                continue
            text = normalize(paragraph)
            sentences = split_sentences(text)
            found.sentence.extend((s, heading) for s in sentences if _sentence_fits(s))
            if len(sentences) >= 2 and 30 <= counter.count(text) <= size // 2:
                found.paragraph.append((text, sentences, heading))
    return found


def _window(text: str, share: float, rng: random.Random, minimum: int) -> str:
    """A contiguous window of about ``share`` of the words (characters in CJK text)."""
    units = list(text) if is_cjk(text) else _WORD.findall(text)
    joiner = "" if is_cjk(text) else " "
    length = min(len(units), max(minimum, round(len(units) * share)))
    start = rng.randint(0, len(units) - length)
    return joiner.join(units[start : start + length])


def _table_query(header: str, key: str) -> str:
    if is_cjk(header + key):
        return f"{key}的{header}是什么？"
    return f"What is the {header} of {key}?"


def auto_questions(
    name: str,
    parsed: ParsedText,
    counter: TokenCounter,
    size: int,
    *,
    seed: int,
    per_kind: int = DEFAULT_PER_KIND,
) -> tuple[list[Question], str | None]:
    """Questions for one document, or none and the reason (it fits in N tokens).

    The same ``seed`` gives the same questions; each document draws from its own stream,
    so a question does not change when other documents are added.
    """
    tokens = counter.count(parsed.content)
    if tokens <= size:
        return [], f"fits in N ({tokens} tokens <= N={size}): no questions asked of it"
    rng = random.Random(f"{seed}:{name}")
    count = min(per_kind, 1 + tokens // size)
    body = normalize(parsed.content)
    found = _candidates(parsed, counter, size)

    def unique(evidence: str) -> bool:
        return body.count(evidence) == 1

    questions: list[Question] = []
    sentences = [c for c in found.sentence if unique(c[0])]
    for sentence, heading in _sample(sentences, count, rng):
        query = _window(sentence, 0.6, rng, 4)
        questions.append(Question("", name, SENTENCE, query, (sentence,), heading))
    paragraphs = [c for c in found.paragraph if unique(c[0])]
    for index, (paragraph, parts, heading) in enumerate(_sample(paragraphs, count, rng)):
        words = f"{_window(parts[0], 0.4, rng, 3)} {_window(parts[-1], 0.4, rng, 3)}"
        query = f"{heading}: {words}" if index % 2 == 0 and heading else words
        questions.append(Question("", name, PARAGRAPH, query, (paragraph,), heading))
    facts = [f for f in dict.fromkeys(found.table) if body.count(f[2]) <= _MAX_VALUE_REPEATS]
    for header, key, value, heading in _sample(facts, count, rng):
        query = _table_query(header, key)
        questions.append(Question("", name, TABLE, query, (header, key, value), heading))
    numbered = [
        Question(f"{name}#{i}", q.document, q.kind, q.text, q.evidence, q.heading)
        for i, q in enumerate(questions, 1)
    ]
    if not numbered:
        return [], "no sentence, paragraph or table fact to ask about"
    return numbered, None


def _sample(candidates: Sequence[Any], count: int, rng: random.Random) -> list[Any]:
    if len(candidates) <= count:
        return list(candidates)
    picked = sorted(rng.sample(range(len(candidates)), count))
    return [candidates[i] for i in picked]


_TAG_ATTRIBUTES = re.compile(r"<(table|equation|drawing)\b[^>]*>", re.IGNORECASE)


def content_fingerprint(parsed: ParsedText) -> str:
    """A hash of the normalised text: equal for documents that repeat each other (tag
    attributes are left out: their ids derive from the file name)."""
    text = _TAG_ATTRIBUTES.sub(r"<\1>", normalize(parsed.content))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
