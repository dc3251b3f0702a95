"""Stage A: the body's lines, in order, -> heading-scoped blocks, with the smart outline.

Input: the :class:`Event` s of one walk (styled headings, body paragraphs, other content
lines, table-of-contents lines) and how smart headings are switched. Output: the
:class:`RawBlock` s of the document and an :class:`OutlineReport`.

- Styled headings always start blocks (LightRAG's rules: a heading at level L closes the
  open headings at L and deeper; ``parent_headings`` are the shallower ones still open).
- With the smart outline on, body paragraphs that the classifier of ``outline/`` promotes
  start blocks too, at the level it gives, marked ``source="inferred"``; a numbered line
  carrying its body after a colon becomes a heading and a body line ("## 一、名稱：").
- A table of contents (marked by the walk, or written as text under a Contents/目录 title)
  becomes one block of its own (``is_toc``), never a heading or anchor source; the text
  after it continues the block it interrupted (``outline_events.py``, ``heading_stack.py``);
  the lines of a cover before it head nothing (``outline/placed.py: cover_lines_before_contents``).
- A styled heading that is a list item (a bullet, a list number) is one only when it reads
  as one (``_reads_as_heading``): an outline level on a list style makes no heading alone.

``auto`` turns the smart outline on for a whole document with at most one styled heading
past its cover (``cover_headings``), or fewer than one per :data:`AUTO_WORDS_PER_HEADING` words
of body text; in a styled document, on for each stretch under a styled heading (or before
the first) longer than that without one: what it finds there nests below that heading, and
no styled heading is ever moved. Read whole, a section the inferred outline leaves that
long is read as such a stretch is (``infer_outline``'s ``long_gaps``). A file that states
its outline (a PDF's structure tree: ``stated``) is never inferred over whole; one that
states it down to some depth (a PDF's bookmarks: ``partial``) is read in every stretch,
and keeps only the headings its stated ones leave out (:func:`left_out_headings`)."""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from lightrag_pchunk.model import PREFACE_HEADING
from lightrag_pchunk.outline.infer import (
    MAX_PLAIN_WORDS,
    InferredHeading,
    ItemKind,
    Look,
    OutlineItem,
    body_words,
    infer_outline,
    long_stretches,
)
from lightrag_pchunk.outline.items import look_score
from lightrag_pchunk.outline.judge import BoundaryMode, OutlineJudge
from lightrag_pchunk.outline.lines import heading_text
from lightrag_pchunk.outline.placed import cover_lines_before_contents, titled_front_matter
from lightrag_pchunk.outline.toc import is_toc_title
from lightrag_pchunk.parse.body_size import BodySize
from lightrag_pchunk.parse.heading_stack import HeadingStack, RawBlock, printed_title
from lightrag_pchunk.parse.left_out import left_out_headings
from lightrag_pchunk.parse.outline_events import (
    Event,
    EventKind,
    Line,
    cover_headings,
    layout_paragraphs,
    mark_toc,
    mark_toc_listed,
    split_soft_breaks,
    styles_alone,
)

#: ``auto``: the smart outline runs when a document has fewer styled headings than one per
#: this many words (about 1,000 cl100k tokens: half a chunk at the default size).
AUTO_WORDS_PER_HEADING = 800
#: The marks a title may open with as a Markdown heading's ("## "), which it keeps.
MARKDOWN_MARKS = re.compile(r"^#{1,6} +")


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


@dataclass(frozen=True, slots=True)
class OutlineReport:
    """What the outline step did: the mode asked for, whether inference ran, counts;
    ``stretches`` is how many stretches of a styled document it ran in (0: none, or the
    whole document)."""

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
    stretches: int = 0

    def as_meta(self) -> dict[str, object]:
        """The ``outline`` entry of the blocks file's meta row."""
        meta: dict[str, object] = {
            "smart_heading": self.mode.value,
            "applied": self.applied,
            "styled_headings": self.styled_headings,
            "inferred_headings": self.inferred_headings,
            "toc_blocks": self.toc_blocks,
        }
        if self.stretches:
            meta["stretches"] = self.stretches
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
    return title if MARKDOWN_MARKS.match(title) else f"{'#' * min(level, 6)} {title}"


def build_blocks(
    events: list[Event],
    smart: SmartHeading,
    judge: OutlineJudge | None = None,
    *,
    stated: bool = False,
    partial: bool = False,
    listed: bool = False,
) -> tuple[list[RawBlock], OutlineReport]:
    """Blocks from the walk's events (see the module doc); ``judge`` is the optional language
    model help (ambiguous heading candidates, topic breaks of long sections). ``stated``:
    the file states its whole outline (a PDF's structure tree), so ``auto`` never infers
    over the whole document, only in its long stretches without a heading. ``partial``: the
    file states its outline down to some depth (a PDF's bookmarks): ``auto`` reads every
    stretch and keeps what the stated outline leaves out (:func:`left_out_headings`).
    ``listed``: the headings known come from the file's printed table of contents (a PDF
    without bookmarks), which lists them down to the depth its author chose: ``auto``
    reads the whole document around them, as one without styles."""
    # A paper pasted into a layout table's cell keeps its section names where styles give
    # the outline and the classifier reads the stretches they leave.
    styled_outline = sum(1 for event in events if event.level) >= 2
    layout_paragraphs(events, AUTO_WORDS_PER_HEADING if styled_outline else None)
    mark_toc(events)
    body_size = BodySize(events)
    styles_alone(events, lambda event: _reads_as_heading(event, body_size()))
    if smart is not SmartHeading.OFF:
        events = split_soft_breaks(events)
    styled = sum(1 for event in events if event.level)
    alone = styled - cover_headings(events) <= 1  # none, or a title over unstyled clauses
    paragraphs = [e.line.text for e in events if e.kind is EventKind.PARAGRAPH]
    whole = smart is SmartHeading.ON or (
        smart is SmartHeading.AUTO
        and not (stated or partial)
        and bool(paragraphs)
        and (listed or alone or styled * AUTO_WORDS_PER_HEADING < body_words(paragraphs))
    )
    inferred: dict[int, InferredHeading] = {}
    stretches = 0
    if whole or (smart is SmartHeading.AUTO and paragraphs):
        words = 0 if partial and not whole else AUTO_WORDS_PER_HEADING
        styles = not (stated or partial or listed)  # the outline the author's styles give
        inferred, stretches = _infer(
            events, judge, body_size, whole=whole, words=words, authored=not listed, tables=styles
        )
        if partial and not whole:
            inferred = left_out_headings(
                events, inferred, body_size(), bare_words=AUTO_WORDS_PER_HEADING
            )
    builder = HeadingStack(front_ends_at_contents=styled >= 2 and not whole)
    for index, event in enumerate(events):
        heading = inferred.get(index)
        if event.level:
            builder.heading(event.level, event.heading, event.line, look=event.look)
        elif heading is not None:
            # Soft breaks in a heading become one space, as for styled headings.
            title = " ".join(part.strip() for part in heading.title.split("\n") if part.strip())
            shown = printed_title(event.line.text, title, heading.body)
            line = Line(
                markdown_heading_line(heading.level, shown), event.line.start, event.line.end
            )
            builder.heading(
                heading.level, title, line, "inferred", look=event.look, written=event.line
            )
            if heading.body:
                builder.add(Line(heading.body, event.line.start, event.line.end))
        elif event.kind is EventKind.TOC:
            builder.toc_line(event.line)
        else:
            builder.add(event.line, is_paragraph=event.kind is EventKind.PARAGRAPH)
    blocks = builder.finish()
    if judge is not None and BoundaryMode.LONG in judge.modes:
        _mark_topic_breaks(blocks, judge)
    report = OutlineReport(
        smart,
        whole or stretches > 0,
        styled,
        len(inferred),
        builder.toc_blocks,
        body_size.value or 0.0,
        stretches=stretches,
    )
    if judge is not None:
        report = replace(
            report,
            llm_calls=judge.budget.calls,
            llm_tokens=judge.budget.tokens,
            llm_refused=judge.budget.refused,
            llm_problems=tuple(judge.problems),
        )
    return blocks, report


def _reads_as_heading(event: Event, body_size: float) -> bool:
    """Whether a styled heading that is a list item reads as a heading all the same: a
    bullet's text is a title and its look a heading's (bold or larger); a list number's
    text is a title, or a line of at most :data:`MAX_PLAIN_WORDS` words."""
    text = event.heading.strip()
    if text[:1].isalnum() or "\u3400" <= text[:1] <= "\u9fff":
        return heading_text(text, markdown=False) is not None or body_words([text]) <= (
            MAX_PLAIN_WORDS
        )
    title = text[1:].strip()
    look = event.look() if event.look is not None else None
    return (
        bool(title)
        and heading_text(title, markdown=False) is not None
        and look_score(look, body_size) >= 1
    )


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


def _infer(
    events: list[Event],
    judge: OutlineJudge | None,
    body_size: BodySize,
    *,
    whole: bool,
    words: float = AUTO_WORDS_PER_HEADING,
    authored: bool = True,
    tables: bool = False,
) -> tuple[dict[int, InferredHeading], int]:
    """The inferred headings by event index, and in how many stretches of a styled document
    inference ran (0 when ``whole``); a stretch is read holding over ``words`` words of text.
    ``authored``: the known headings are the author's outline (styles, tags, bookmarks), not
    the entries of a printed table of contents, whose depth the author chose. ``tables``: a
    styled section's tables (other lines: equations, boxes, notes) count towards its length."""
    items: list[OutlineItem] = []
    event_of: list[int] = []
    contents_at = None  # where the first table of contents stands among the items
    for index, event in enumerate(events):
        if event.kind is EventKind.TOC:
            contents_at = len(items) if contents_at is None else contents_at
            continue
        if event.level:
            # A known heading's look (where the parser gives it) lets a numbered series it
            # starts be continued by lines the file left as text. A contents' own title
            # (a styled "Contents" over its table) heads none of the text after it; a
            # chapter's heading over the chapter's contents still heads its sections.
            look = event.look() if event.look is not None else None
            item = OutlineItem(ItemKind.HEADING, event.heading, event.level, look)
            item.titles_nothing = (
                is_toc_title(event.heading)
                and index + 1 < len(events)
                and events[index + 1].kind is EventKind.TOC
            )
        elif event.kind is EventKind.PARAGRAPH:
            item = OutlineItem(
                ItemKind.TEXT,
                event.line.text,
                is_list_item=event.is_list_item,
                titles_nothing=event.titles_nothing,
            )
        else:
            item = OutlineItem(ItemKind.OTHER, event.line.text)
        items.append(item)
        event_of.append(index)
    if contents_at is not None:  # a cover is known by the table of contents after it
        for position in cover_lines_before_contents(items, contents_at):
            items[position].titles_nothing = True

    def look_at(position: int) -> Look | None:
        getter = events[event_of[position]].look
        return getter() if getter is not None else None

    # Front matter with titles of its own set large (a template's history, its preface) is
    # long by its tables too; a form's plain labels over tables are not read.
    front = tables and not whole and titled_front_matter(items, look_at, body_size())
    within = None if whole else long_stretches(items, words, content=tables, front=front)
    # Styles are the larger headings: lines their tier calls labels may part a long stretch.
    styled = sum(1 for item in items if item.kind is ItemKind.HEADING)
    gaps: list[range] = []
    if authored and styled >= 2:
        if within is not None and words == AUTO_WORDS_PER_HEADING:
            gaps = within  # the stretches read are the ones the styles leave too long
        else:  # read whole, or every stretch (a PDF's bookmarks)
            gaps = long_stretches(items, AUTO_WORDS_PER_HEADING)
    if within is not None and not within and not any(item.look for item in items):
        return {}, 0  # nothing to read: no long stretch, no known heading's series
    mark_toc_listed(events, items)
    asked = judge.judge_headings if judge is not None else None
    if within is None and authored and not gaps:
        # Read whole, a document's own inferred outline may leave stretches as long as the
        # styles of a styled one can: the lines that part those are read as in theirs.
        found = infer_outline(items, body_size(), look_at)
        gaps = _left_long(items, found)
        if not gaps and asked is None:
            return {event_of[h.index]: h for h in found}, 0
    found = infer_outline(
        items, body_size(), look_at, asked, within=within, long_gaps=gaps, listed=not authored
    )
    return {event_of[h.index]: h for h in found}, len(within or ())


def _left_long(items: list[OutlineItem], found: Sequence[InferredHeading]) -> list[range]:
    """The stretches of ``items`` longer than :data:`AUTO_WORDS_PER_HEADING` words that
    the headings ``found`` (and the known ones) leave without a heading."""
    at = {heading.index: heading for heading in found}
    outline = [
        OutlineItem(ItemKind.HEADING, at[i].title, at[i].level) if i in at else item
        for i, item in enumerate(items)
    ]
    return long_stretches(outline, AUTO_WORDS_PER_HEADING)


def first_heading(blocks: Sequence[RawBlock]) -> str | None:
    """The first real heading (LightRAG's ``doc_title``), or None."""
    return next((b.heading for b in blocks if b.heading != PREFACE_HEADING and not b.is_toc), None)
