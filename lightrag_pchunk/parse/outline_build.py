"""Stage A: the body's lines, in order, -> heading-scoped blocks, with the smart outline.

Input: the :class:`Event` s of one walk (styled headings, body paragraphs, other content
lines, table-of-contents lines) and how smart headings are switched. Output: the
:class:`RawBlock` s of the document and an :class:`OutlineReport`.

- Styled headings always start blocks (LightRAG's rules: a heading at level L closes the
  open headings at L and deeper; ``parent_headings`` are the shallower ones still open).
- With the smart outline on, body paragraphs that the classifier of ``outline/`` promotes
  start blocks too, at the level it gives, marked ``source="inferred"``; a numbered line
  carrying its body after a colon becomes a heading and a body line.
- A table of contents (marked by the walk, or written as text under a Contents/目录 title)
  becomes one block of its own (``is_toc``), never a heading or anchor source; the text
  after it continues the block it interrupted.

``auto`` turns the smart outline on for a document with at most one styled heading (none,
or a title over unstyled clauses), or fewer than one per :data:`AUTO_WORDS_PER_HEADING`
words of body text.
"""

from __future__ import annotations

import enum
import heapq
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from lightrag_pchunk.model import PREFACE_HEADING
from lightrag_pchunk.outline.infer import (
    InferredHeading,
    ItemKind,
    Look,
    OutlineItem,
    infer_outline,
)
from lightrag_pchunk.outline.judge import BoundaryMode, OutlineJudge
from lightrag_pchunk.outline.lines import cjk_count, heading_text
from lightrag_pchunk.outline.toc import DEFAULT_TOC_TITLE, is_toc_title, literal_toc_runs

#: ``auto``: the smart outline runs when a document has fewer styled headings than one per
#: this many words (about 1,000 cl100k tokens: half a chunk at the default size).
AUTO_WORDS_PER_HEADING = 800
#: Paragraphs sampled to learn the body text size (the longest ones, by characters).
_BODY_SIZE_SAMPLE = 48
_MARKDOWN_HEADING = re.compile(r"^#{1,6} +")


class SmartHeading(str, enum.Enum):
    """Whether headings are inferred from text and look: always, never, or ``auto``."""

    AUTO = "auto"
    ON = "on"
    OFF = "off"

    @classmethod
    def parse(cls, value: object, *, name: str = "smart_heading") -> SmartHeading:
        """From a bool, None (auto) or a string: true/on/1/yes, false/off/0/no, auto.

        Raises:
            ValueError: naming ``name`` and the value.
        """
        if value is None or isinstance(value, SmartHeading):
            return value or cls.AUTO
        if isinstance(value, bool):
            return cls.ON if value else cls.OFF
        text = str(value).strip().lower()
        if text in ("", "auto"):
            return cls.AUTO
        if text in ("1", "true", "on", "yes"):
            return cls.ON
        if text in ("0", "false", "off", "no"):
            return cls.OFF
        raise ValueError(f"{name} must be true, false or auto, got {value!r}")


class EventKind(enum.Enum):
    """What a line of the walk is, for the outline."""

    LINE = "line"  # content that is never a heading: tables, equations, boxes, notes
    PARAGRAPH = "paragraph"  # a body paragraph that the smart outline may promote
    TOC = "toc"  # a table-of-contents line


@dataclass(slots=True)
class Line:
    """One content line (it may hold soft breaks) and the paraIds it came from."""

    text: str
    start: str | None = None
    end: str | None = None


@dataclass(slots=True)
class Event:
    """One line of the body in reading order. ``level`` > 0 marks a styled heading (then
    ``line`` is its Markdown line and ``heading`` its text); ``look`` gives the look of a
    PARAGRAPH on demand (smart outline only)."""

    line: Line
    kind: EventKind = EventKind.LINE
    level: int = 0
    heading: str = ""
    is_list_item: bool = False
    look: Callable[[], Look] | None = None


@dataclass(slots=True)
class RawBlock:
    """A heading-scoped block before rendering: its heading and its lines; ``source`` is
    ``"inferred"`` when the smart outline made the heading, ``is_toc`` marks a table of
    contents; ``topic_breaks`` are the content lines where a language model saw a new topic
    start (``CHUNK_P_LLM_BOUNDARIES=long``)."""

    heading: str
    level: int
    parents: tuple[str, ...]
    lines: list[Line] = field(default_factory=list)
    source: str = "style"
    is_toc: bool = False
    topic_breaks: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class OutlineReport:
    """What the outline step did: the mode asked for, whether inference ran, counts."""

    mode: SmartHeading
    applied: bool
    styled_headings: int
    inferred_headings: int
    toc_blocks: int
    body_size: float = 0.0
    llm_calls: int = 0
    llm_tokens: int = 0
    llm_refused: int = 0
    llm_problems: tuple[str, ...] = ()

    def as_meta(self) -> dict[str, object]:
        """The ``outline`` entry of the blocks file's meta row."""
        meta: dict[str, object] = {
            "smart_heading": self.mode.value,
            "applied": self.applied,
            "styled_headings": self.styled_headings,
            "inferred_headings": self.inferred_headings,
            "toc_blocks": self.toc_blocks,
        }
        if self.llm_calls or self.llm_refused:
            meta["llm"] = {
                "calls": self.llm_calls,
                "tokens": self.llm_tokens,
                "refused_by_budget": self.llm_refused,
            }
        return meta


def markdown_heading_line(level: int, title: str) -> str:
    """The first line of a heading's block: ``#`` marks (at most six) and the title, unless
    the title already starts with its own marks (LightRAG's rendering)."""
    return title if _MARKDOWN_HEADING.match(title) else f"{'#' * min(level, 6)} {title}"


def body_words(texts: Sequence[str]) -> float:
    """Words of text: space-separated tokens, CJK characters counting two to a word."""
    total = 0.0
    for text in texts:
        total += len(text.split()) + cjk_count(text) / 2
    return total


def build_blocks(
    events: list[Event], smart: SmartHeading, judge: OutlineJudge | None = None
) -> tuple[list[RawBlock], OutlineReport]:
    """Blocks from the walk's events (see the module doc); ``judge`` is the optional language
    model help (ambiguous heading candidates, topic breaks of long sections)."""
    _mark_literal_toc(events)
    styled = sum(1 for event in events if event.level)
    paragraphs = [e.line.text for e in events if e.kind is EventKind.PARAGRAPH]
    applied = smart is SmartHeading.ON or (
        smart is SmartHeading.AUTO
        and bool(paragraphs)
        and (styled <= 1 or styled * AUTO_WORDS_PER_HEADING < body_words(paragraphs))
    )
    inferred: dict[int, InferredHeading] = {}
    body_size = 0.0
    if applied:
        inferred, body_size = _infer(events, judge)
    builder = _Builder()
    for index, event in enumerate(events):
        heading = inferred.get(index)
        if event.level:
            builder.heading(event.level, event.heading, event.line)
        elif heading is not None:
            # Soft breaks in a heading become one space, as for styled headings.
            title = " ".join(part.strip() for part in heading.title.split("\n") if part.strip())
            line = Line(
                markdown_heading_line(heading.level, title), event.line.start, event.line.end
            )
            builder.heading(heading.level, title, line, source="inferred")
            if heading.body:
                builder.add(Line(heading.body, event.line.start, event.line.end))
        elif event.kind is EventKind.TOC:
            builder.toc_line(event.line)
        else:
            builder.add(event.line, is_paragraph=event.kind is EventKind.PARAGRAPH)
    blocks = builder.finish()
    if judge is not None and BoundaryMode.LONG in judge.modes:
        _mark_topic_breaks(blocks, judge)
    report = OutlineReport(smart, applied, styled, len(inferred), builder.toc_blocks, body_size)
    if judge is not None:
        report = replace(
            report,
            llm_calls=judge.budget.calls,
            llm_tokens=judge.budget.tokens,
            llm_refused=judge.budget.refused,
            llm_problems=tuple(judge.problems),
        )
    return blocks, report


#: A section this long (words) with no structure of its own is read by the model for topic
#: breaks (``long``): about 1,600 tokens, most of a chunk at the default size.
LONG_SECTION_WORDS = 1200
_MIN_LONG_PARAGRAPHS = 6


def _mark_topic_breaks(blocks: list[RawBlock], judge: OutlineJudge) -> None:
    """Ask where the topic changes in every long block without sub-structure, and record the
    answers as content-line indexes (``topic_breaks``: stage C cuts there first)."""
    for block in blocks:
        if block.is_toc:
            continue
        has_heading_line = block.heading != PREFACE_HEADING
        body = block.lines[1:] if has_heading_line else block.lines
        texts = [line.text for line in body]
        if len(texts) < _MIN_LONG_PARAGRAPHS or body_words(texts) < LONG_SECTION_WORDS:
            continue
        if sum(1 for text in texts if heading_text(text, markdown=False) is not None) >= 2:
            continue  # it has short heading-like lines: stage C's anchors can cut it
        starts, position = [], 0
        for line in block.lines:
            starts.append(position)
            position += sum(1 for part in line.text.split("\n") if part.strip())
        offset = 1 if has_heading_line else 0
        breaks = judge.topic_breaks(texts)
        block.topic_breaks = [starts[offset + b] for b in breaks if 0 < b < len(texts)]


#: A table-of-contents entry is shorter than this (longer paragraphs are never checked).
_MAX_TOC_LINE = 300


def _mark_literal_toc(events: list[Event]) -> None:
    """Body paragraphs forming a table of contents written as text become TOC lines."""
    positions = [i for i, e in enumerate(events) if e.kind is EventKind.PARAGRAPH]
    # A long paragraph cannot be an entry: it stands in for itself as "not an entry".
    texts = [
        events[i].line.text if len(events[i].line.text) <= _MAX_TOC_LINE else "" for i in positions
    ]
    for start, end in literal_toc_runs(texts):
        first, last = positions[start], positions[end - 1]
        # Only a run of adjacent paragraphs: a table or a heading between breaks it.
        if last - first == end - 1 - start:
            for i in positions[start:end]:
                events[i].kind = EventKind.TOC


def _infer(
    events: list[Event], judge: OutlineJudge | None
) -> tuple[dict[int, InferredHeading], float]:
    items: list[OutlineItem] = []
    event_of: list[int] = []
    for index, event in enumerate(events):
        if event.kind is EventKind.TOC:
            continue
        if event.level:
            item = OutlineItem(ItemKind.HEADING, event.heading, event.level)
        elif event.kind is EventKind.PARAGRAPH:
            item = OutlineItem(ItemKind.TEXT, event.line.text, is_list_item=event.is_list_item)
        else:
            item = OutlineItem(ItemKind.OTHER, event.line.text)
        items.append(item)
        event_of.append(index)
    body_size = _body_size(events)

    def look_at(position: int) -> Look | None:
        getter = events[event_of[position]].look
        return getter() if getter is not None else None

    asked = judge.judge_headings if judge is not None else None
    found = infer_outline(items, body_size, look_at, asked)
    return {event_of[h.index]: h for h in found}, body_size


def _body_size(events: list[Event]) -> float:
    """The size of most body text (points), from the longest paragraphs; 0 when unknown."""
    paragraphs = [e for e in events if e.kind is EventKind.PARAGRAPH and e.look is not None]
    sizes: Counter[float] = Counter()
    for event in heapq.nlargest(_BODY_SIZE_SAMPLE, paragraphs, key=lambda e: len(e.line.text)):
        look = event.look()  # type: ignore[misc]
        if look.size:
            sizes[look.size] += len(event.line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


class _Builder:
    """The heading stack: turns headings and lines into blocks (LightRAG's rules)."""

    def __init__(self) -> None:
        self.blocks: list[RawBlock] = []
        self.toc_blocks = 0
        self._current = RawBlock(PREFACE_HEADING, 1, ())
        self._stack: dict[int, str] = {}
        self._last_is_paragraph = False
        self._resume: RawBlock | None = None  # the block a table of contents interrupted

    def heading(self, level: int, text: str, line: Line, source: str = "style") -> None:
        self._end_toc()
        if self._current.lines:
            self.blocks.append(self._current)
        parents = tuple(self._stack[lvl] for lvl in sorted(self._stack) if lvl < level)
        self._stack = {lvl: h for lvl, h in self._stack.items() if lvl < level}
        self._stack[level] = text
        self._current = RawBlock(text, level, parents, [line], source)
        self._last_is_paragraph = False

    def add(self, line: Line, *, is_paragraph: bool = False) -> None:
        self._end_toc()
        self._current.lines.append(line)
        self._last_is_paragraph = is_paragraph

    def toc_line(self, line: Line) -> None:
        if not self._current.is_toc:
            self._start_toc(line)
        self._current.lines.append(line)

    def _start_toc(self, first: Line) -> None:
        current = self._current
        title = None
        if is_toc_title(first.text):
            title = first.text.strip()
        elif self._last_is_paragraph and current.lines and is_toc_title(current.lines[-1].text):
            title_line = current.lines.pop()
            title = title_line.text.strip()
            if current.lines:
                self.blocks.append(current)
            self._resume = current
            self._current = RawBlock(title, 1, (), [title_line], is_toc=True)
            self.toc_blocks += 1
            return
        elif len(current.lines) == 1 and is_toc_title(current.heading):
            current.is_toc = True  # a styled "Contents" heading: its block is the TOC
            self.toc_blocks += 1
            return
        if current.lines:
            self.blocks.append(current)
        self._resume = current
        self._current = RawBlock(title or DEFAULT_TOC_TITLE, 1, (), [], is_toc=True)
        self.toc_blocks += 1

    def _end_toc(self) -> None:
        if not self._current.is_toc:
            return
        self.blocks.append(self._current)
        resume = self._resume or self._current
        self._current = RawBlock(resume.heading, resume.level, resume.parents, [], resume.source)
        self._resume = None

    def finish(self) -> list[RawBlock]:
        if self._current.lines:
            self.blocks.append(self._current)
        self._current = RawBlock(PREFACE_HEADING, 1, ())
        return self.blocks


def first_heading(blocks: Sequence[RawBlock]) -> str | None:
    """The first real heading (LightRAG's ``doc_title``), or None."""
    return next((b.heading for b in blocks if b.heading != PREFACE_HEADING and not b.is_toc), None)
