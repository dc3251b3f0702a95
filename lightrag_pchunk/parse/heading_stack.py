"""Stage A: the heading stack that turns a walk's headings and lines into blocks.

Input: headings (styled or inferred, with their levels), content lines and table-of-contents
lines, in reading order. Output: the :class:`RawBlock` s of the document, each with its
heading, level and parents; a table of contents becomes a block of its own and the text
after it continues the block it interrupted. A heading split from the body its line carries
is printed in its block with the marks that part them (:func:`printed_title`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lightrag_pchunk.model import PREFACE_HEADING, TOC_SESSION
from lightrag_pchunk.outline.infer import Look
from lightrag_pchunk.outline.toc import DEFAULT_TOC_TITLE, is_toc_title
from lightrag_pchunk.parse.outline_events import Line

#: Spaces typed to push a mark to the right edge or to spread a short title ("FUNDING
#: OPPORTUNITIES        TOP", "前  言"): a reader sees one space. One space of any kind (an
#: ideographic space after a label, "Ａ　异象") is kept as typed.
_TYPED_PADDING = re.compile(r"\s{2,}")


#: Marks a title drops from its end that part it from its body ("一、名稱：", "第一條、").
_TITLE_ENDS = " \t\u3000:：、.．"


def printed_title(text: str, title: str, body: str) -> str:
    """The heading's line as printed before its ``body``, ``title`` and the marks after it
    ("一、名稱：" of "一、名稱：本會定名為…"), so that its line and its body's keep every
    character printed. ``title`` where the line holds more before the body, or no body."""
    text = text.strip()
    if not body or not text.endswith(body):
        return title
    printed = " ".join(text[: len(text) - len(body)].split())
    # Compared as a reader sees them, one space for any run of spaces: an ideographic space
    # after an article's number ("第二十八条　库房温度…：") is whitespace to ``split`` too.
    seen = " ".join(title.split())
    tail = printed[len(seen) :]
    return title + tail if printed.startswith(seen) and not tail.strip(_TITLE_ENDS) else title


@dataclass(slots=True)
class RawBlock:
    """A heading-scoped block before rendering: its heading and its lines; ``source`` is
    ``"inferred"`` when the smart outline made the heading, ``is_toc`` marks a table of
    contents; ``topic_breaks`` are the content lines where a language model saw a new topic
    start (``CHUNK_P_LLM_BOUNDARIES=long``). ``look`` gives its heading's look on demand
    (when its parser knows it); ``written`` is an inferred heading's paragraph as the
    document has it, the line it goes back to if it heads no section
    (``parse/document_title.py``)."""

    heading: str
    level: int
    parents: tuple[str, ...]
    lines: list[Line] = field(default_factory=list)
    source: str = "style"
    is_toc: bool = False
    topic_breaks: list[int] = field(default_factory=list)
    look: Callable[[], Look] | None = field(default=None, compare=False, repr=False)
    written: Line | None = field(default=None, compare=False, repr=False)

    def row_keys(self) -> dict[str, Any]:
        """Our keys of the block's row beside LightRAG's: a table of contents, an inferred
        heading, the lines where a new topic starts (the Word and the PDF parser write them
        alike; the Markdown parser the first two: `markdown/document.py`)."""
        keys: dict[str, Any] = {}
        if self.is_toc:
            keys["session_type"] = TOC_SESSION
        if self.source == "inferred":
            keys["heading_source"] = "inferred"
        if self.topic_breaks:
            keys["topic_breaks"] = list(self.topic_breaks)
        return keys


class HeadingStack:
    """Turns headings and lines into blocks (LightRAG's rules: a heading at level L closes
    the open headings at L and deeper; the shallower ones still open are its parents). A
    styled heading also closes every inferred one: those nest below the styled headings
    they were found under, never above one, so a styled heading's path is its styles'."""

    def __init__(self, *, front_ends_at_contents: bool = False) -> None:
        """``front_ends_at_contents``: a styled document's front matter, whose parts the
        smart outline found, ends at its table of contents: the text after it, up to the
        first styled heading, is the preface's again, not the last front part's."""
        self._front = front_ends_at_contents
        self.blocks: list[RawBlock] = []
        self.toc_blocks = 0
        self._current = RawBlock(PREFACE_HEADING, 1, ())
        self._stack: dict[int, tuple[str, str]] = {}  # level -> (heading, source)
        self._last_is_paragraph = False
        self._resume: RawBlock | None = None  # the block a table of contents interrupted

    def heading(
        self,
        level: int,
        text: str,
        line: Line,
        source: str = "style",
        *,
        look: Callable[[], Look] | None = None,
        written: Line | None = None,
    ) -> None:
        """Open a block at a heading named ``text`` as a reader sees it (:data:`_TYPED_PADDING`);
        the block's heading line, ``line``, keeps the text as typed; ``look`` and ``written``
        as :class:`RawBlock` has them."""
        text = _TYPED_PADDING.sub(" ", text).strip()
        self._end_toc()
        self._front = self._front and source == "inferred"
        if self._current.lines:
            self.blocks.append(self._current)
        self._stack = {
            lvl: entry
            for lvl, entry in self._stack.items()
            if lvl < level and (source == "inferred" or entry[1] != "inferred")
        }
        parents = tuple(self._stack[lvl][0] for lvl in sorted(self._stack))
        self._stack[level] = (text, source)
        self._current = RawBlock(text, level, parents, [line], source, look=look, written=written)
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
        if self._front and resume.source == "inferred":
            resume, self._stack = RawBlock(PREFACE_HEADING, 1, ()), {}
        self._current = RawBlock(
            resume.heading, resume.level, resume.parents, [], resume.source, look=resume.look
        )
        self._resume = None

    def finish(self) -> list[RawBlock]:
        if self._current.lines:
            self.blocks.append(self._current)
        self._current = RawBlock(PREFACE_HEADING, 1, ())
        return self.blocks
