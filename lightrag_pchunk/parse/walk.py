"""Stage A: one pass over ``w:body`` -> heading-scoped blocks of lines (before rendering).

Input: a document's body (and, through altChunks, the bodies it imports). Output: a list of
:class:`RawBlock` in document order, plus ``tables.json``/``equations.json`` items by id.
Invariants (LightRAG's, upstream facts §5.1): every recognised heading starts a block whose
first line is the heading in Markdown; text before the first heading is the
``Preface/Uncategorized`` block; ``parent_headings`` are the open headings of shallower levels;
no size-based splitting; tables stay whole. Block-level content controls (``w:sdt``,
``w:customXml``) are transparent, so headings inside them count. Text boxes, table cells and
notes never start blocks by their styles: their heading-styled paragraphs are text (the
paragraphs of a page laid out in a layout table are read by the smart outline, and a layout
table framing a heading-styled title alone, a title bar, gives that heading:
``layout_reading.py``).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

from lxml import etree

from lightrag_pchunk.model import MAX_HEADING_LENGTH
from lightrag_pchunk.outline.infer import Look
from lightrag_pchunk.outline.judge import OutlineJudge
from lightrag_pchunk.outline.page_references import strip_page_reference
from lightrag_pchunk.parse.budget import OutputBudget
from lightrag_pchunk.parse.document_title import settle_title
from lightrag_pchunk.parse.equations import equation_record, equation_tag
from lightrag_pchunk.parse.limits import PackageLimits
from lightrag_pchunk.parse.look import paragraph_look
from lightrag_pchunk.parse.outline_build import (
    MARKDOWN_MARKS,
    OutlineReport,
    RawBlock,
    SmartHeading,
    build_blocks,
    markdown_heading_line,
)
from lightrag_pchunk.parse.outline_events import Event, EventKind, Line, join_split_titles
from lightrag_pchunk.parse.plain import paragraph_props
from lightrag_pchunk.parse.sinks import LineBuffer, LineSink, Mode
from lightrag_pchunk.parse.story import Story
from lightrag_pchunk.parse.table_walk import TableWalk
from lightrag_pchunk.parse.tables import CellParagraph
from lightrag_pchunk.parse.text import choose_branch
from lightrag_pchunk.parse.toc_marks import TocMarks
from lightrag_pchunk.parse.xml import NS, qn

#: The look of a heading whose label a list gave, read when the outline asks (None: no list).
ListLook: TypeAlias = Callable[[], Look] | None

if TYPE_CHECKING:
    from lightrag_pchunk.parse.altchunk import AltChunkImporter


_P = qn("w:p")
_TBL = qn("w:tbl")
_SDT = qn("w:sdt")
_SDT_CONTENT = qn("w:sdtContent")
_CUSTOM_XML = qn("w:customXml")
_ALT_CHUNK = qn("w:altChunk")
_R_ID = qn("r:id")
_PARA_ID = qn("w14:paraId")
_ALTERNATE = "{" + NS["mc"] + "}AlternateContent"
_BREAKS = re.compile(r" *[\t\n][\t\n ]*")
_P_STYLE = qn("w:pStyle")
_VAL = qn("w:val")
_T = qn("w:t")
#: Word's Title and Subtitle name the document: a cover sets them on a few lines (its name,
#: a subtitle, a version, a date). A style of theirs set on more lines of text than this is
#: the author's look for section titles, read as body text (the outline may take them).
MAX_TITLE_LINES = 4


class BodyWalker(TableWalk):
    """Walks block content into heading-scoped blocks; one instance per parsed document."""

    def __init__(
        self,
        doc_hash: str,
        warnings: list[str],
        smart: SmartHeading = SmartHeading.OFF,
        judge: OutlineJudge | None = None,
        budget: OutputBudget | None = None,
    ) -> None:
        self.doc_hash = doc_hash
        self.warnings = warnings
        # Every line written is charged; default: the floor of PackageLimits' defaults.
        self.budget = budget or OutputBudget(PackageLimits(), doc_hash, lambda: 0)
        self.smart = smart
        self.judge = judge
        self.events: list[Event] = []
        self.tables: dict[str, dict] = {}
        self.equations: dict[str, dict] = {}
        self.doc_title = ""  # the document's title (``parse/document_title.py``), once finished
        self.outline: OutlineReport | None = None
        self.alt_chunks: AltChunkImporter | None = None  # set by the document
        self._toc = TocMarks()
        self._deep_table_warned = False
        self._layout_tables = 0
        self._title_lines: dict[etree._Element, Counter[str]] = {}  # by body: lines by style

    # -- entry points --------------------------------------------------------------------------

    def walk(self, container: etree._Element, story: Story, part: str) -> None:
        """Read the block content of ``container`` (a ``w:body``) into events."""
        self._toc = TocMarks(container)
        self.blocks_of(container, story, part, Mode.BODY, self)

    def finish(self) -> list[RawBlock]:
        """The blocks, in order (headings styled or inferred, tables of contents apart); an
        empty Preface is not a block (as in LightRAG)."""
        smart = self.smart is not SmartHeading.OFF
        events = join_split_titles(self.events) if smart else self.events
        blocks, outline = build_blocks(events, self.smart, self.judge)
        for problem in outline.llm_problems:
            self.warn(f"smart outline: {problem}")
        self.events = []
        blocks, self.outline, self.doc_title = settle_title(blocks, outline)
        return blocks

    # -- sinks ---------------------------------------------------------------------------------

    def add(self, text: str, start: str | None, end: str | None) -> None:
        """Append a content line that is never a heading (tables, equations, boxes, notes)."""
        self.budget.line(len(text), "a line of text")
        self.events.append(Event(Line(text, start, end)))

    def body_paragraph(
        self,
        text: str,
        para_id: str | None,
        p: etree._Element,
        look: Callable[[], Look],
        *,
        is_list_item: bool,
        toc_level: int | None = None,
    ) -> None:
        """Append a body paragraph (or a paragraph of a layout table): the smart outline may
        make it a heading. ``toc_level`` marks a table-of-contents line (0: no level given),
        which never becomes one; so does a line that reads as an entry and links to a
        heading's ``_Toc`` bookmark (:meth:`TocMarks.is_linked_entry`). An entry-like line
        the document does not mark ("Amount due<TAB>45") is text, unless it stands in a run
        of entries (``outline_events.mark_toc``)."""
        self.budget.line(len(text), "a line of text")
        if toc_level is None and TocMarks.is_linked_entry(p, text):
            toc_level = 0
        kind = EventKind.PARAGRAPH if toc_level is None else EventKind.TOC
        line = Line(text, para_id, para_id)
        self.events.append(
            Event(line, kind, is_list_item=is_list_item, look=look, toc_level=toc_level or 0)
        )

    def heading(
        self, level: int, text: str, para_id: str | None, list_look: ListLook = None
    ) -> None:
        """Start a block at a heading of ``level`` (1-9); over-long headings as LightRAG.
        ``list_look``: the look of a heading whose label comes from a list (a bullet, a list
        number): the outline checks that it reads as a heading."""
        rest = ""
        if len(text) > MAX_HEADING_LENGTH:
            head, sep, rest = text.partition("\n")
            if not sep or len(head.strip()) > MAX_HEADING_LENGTH:
                self.warn(
                    f"a heading paragraph (level {level}) is {len(text)} characters long"
                    f" (over {MAX_HEADING_LENGTH}); kept as body text, not as a heading"
                )
                self.add(text, para_id, para_id)
                return
            text = head
        # A page reference (a tab or leaders, then a number) is not part of a heading; soft
        # breaks and tabs become one space; other spacing (e.g. "目  次") is kept.
        title = _BREAKS.sub(" ", strip_page_reference(text)).strip()
        heading = MARKDOWN_MARKS.sub("", title, count=1)
        line = Line(markdown_heading_line(level, title), para_id, para_id)
        self.budget.line(len(line.text), "a heading", is_heading=True)
        is_list_item = list_look is not None
        self.events.append(
            Event(line, level=level, heading=heading, is_list_item=is_list_item, look=list_look)
        )
        if rest.strip():
            self.add(_clean(rest), para_id, para_id)

    # -- block content -------------------------------------------------------------------------

    def blocks_of(
        self,
        container: etree._Element,
        story: Story,
        part: str,
        mode: Mode,
        out: LineSink,
        depth: int = 0,
    ) -> None:
        """Read paragraphs, tables, content controls and altChunks of ``container``."""
        for el in container:
            tag = el.tag
            if tag == _P:
                self.paragraph(el, story, part, mode, out, depth)
            elif tag == _TBL:
                self.table(el, story, part, mode, out, depth)
            elif tag == _SDT:
                content = el.find(_SDT_CONTENT)
                if content is not None:
                    self.blocks_of(content, story, part, mode, out, depth)
            elif tag == _CUSTOM_XML:
                self.blocks_of(el, story, part, mode, out, depth)
            elif tag == _ALTERNATE:
                branch = choose_branch(el)
                if branch is not None:
                    self.blocks_of(branch, story, part, mode, out, depth)
            elif tag == _ALT_CHUNK:
                self._alt_chunk(el, story, part, mode, out)

    def paragraph(
        self,
        p: etree._Element,
        story: Story,
        part: str,
        mode: Mode,
        out: LineSink,
        depth: int = 0,
    ) -> None:
        """One ``w:p``: a heading, a body line, block equations; then its notes and boxes."""
        para_id = p.get(_PARA_ID)
        plain = story.reader.scan(p)
        style_id, outline, num_id, ilvl = plain[1] if plain is not None else paragraph_props(p)
        style_id = style_id or story.styles.default_paragraph_style
        level = cell_level = None
        is_toc = in_field = False
        if mode is Mode.BODY:
            level = self._style_level(story, outline, style_id)
            # A TOC line is never a heading, whatever its style says; in a TOC field a heading
            # style says more, but for an entry (a field's lost end holds the rest of the body).
            is_style_toc = story.styles.is_toc_style(style_id)
            in_field = p in self._toc.paragraphs and not is_style_toc
            is_toc = is_style_toc or (in_field and level is None)
            level = None if is_style_toc else level
        elif mode is Mode.CELL:
            # Text in its cell: a heading only where its table is a title bar, the frame of
            # a title alone (``layout_reading.title_bar``).
            cell_level = self._style_level(story, outline, style_id)
        # A Title/Subtitle on a cover's few lines is the document's name, not a section:
        # never inferred either (set over many lines, it is the author's heading look).
        is_title = level is None and self._names_document(p, story, style_id)
        prefix = story.list_label(num_id, ilvl, style_id)
        look = functools.partial(paragraph_look, p, story.styles, style_id)
        list_look = look if prefix.strip() else None
        toc_level = story.styles.toc_level(style_id) if is_toc else None

        def text_line(text: str, *, shows_text: bool = True) -> None:
            if mode is Mode.BODY and not is_title:
                self.body_paragraph(
                    text, para_id, p, look, is_list_item=bool(prefix), toc_level=toc_level
                )
            elif mode is Mode.CELL and isinstance(out, LineBuffer) and not is_title:
                heads = cell_level if shows_text else None
                out.paragraph(CellParagraph(text, para_id, p, look, bool(prefix), heads))
            else:
                out.add(text, para_id, para_id)

        if plain is not None:  # plain runs: no notes, boxes, math or drawings to handle
            text = _clean(plain[0])
            if level is not None and in_field and TocMarks.is_entry(p, text):
                level, is_toc = None, True
            if text and level is not None:
                self.heading(level + 1, prefix + text, para_id, list_look)
            elif text:
                text_line(prefix + text)
            elif prefix and mode is Mode.CELL and prefix.strip():
                out.add(prefix.strip(), para_id, para_id)
            return
        inline = story.reader.read(p, part, heading=level is not None)
        text = _clean(inline.text)
        if level is not None and in_field and TocMarks.is_entry(p, text):
            level, is_toc = None, True
        if inline.is_math_only and mode is not Mode.CELL and not prefix:
            for latex in inline.equations:
                out.add(self.block_equation(latex), para_id, para_id)
        elif text:
            full = prefix + text
            if level is not None and inline.letters:
                self.heading(level + 1, full, para_id, list_look)
            else:  # a cell's heading shows its text alone (no note marker, no picture tag)
                text_line(full, shows_text=bool(inline.letters) and not inline.has_other)
        elif prefix.strip() and mode is Mode.CELL:
            # A numbered empty paragraph in a cell shows its number (row numbers of forms);
            # in the body it is an empty list item, skipped as LightRAG does.
            out.add(prefix.strip(), para_id, para_id)
        for line in inline.after:
            out.add(line, para_id, para_id)
        inner = Mode.CELL if mode is Mode.CELL else Mode.BOX
        for box in inline.boxes:
            self.blocks_of(box, story, part, inner, out, depth)

    def block_equation(self, latex: str) -> str:
        """A block ``<equation id=…>`` tag, its ``equations.json`` item recorded."""
        eq_id = f"eq-{self.doc_hash}-{len(self.equations) + 1:04d}"
        self.equations[eq_id] = equation_record(eq_id, latex)
        return equation_tag(latex, eq_id)

    # -- helpers -------------------------------------------------------------------------------

    def _alt_chunk(
        self, el: etree._Element, story: Story, part: str, mode: Mode, out: LineSink
    ) -> None:
        if self.alt_chunks is None:
            self.warn("an altChunk (imported content) was found but cannot be read here")
            return
        self.alt_chunks.import_chunk(self, el.get(_R_ID) or "", story, part, mode, out)

    def _style_level(self, story: Story, outline: int | None, style_id: str | None) -> int | None:
        """The outline level (0-8) of a paragraph: its own, else its style's, else the one
        the document's TOC fields give its style; None: body text."""
        level = story.styles.outline_level(outline, style_id)
        if level is None and outline is None:  # neither the paragraph nor its style says
            level = self._toc.declared_level(story.styles, style_id)
        return level

    def _names_document(self, p: etree._Element, story: Story, style_id: str | None) -> bool:
        """Whether ``p``, in a Title or Subtitle style, names the document: its style is set
        on at most :data:`MAX_TITLE_LINES` lines of text of its body."""
        if story.styles.title_kind(style_id) is None:
            return False
        body = p.getroottree().getroot()
        if body not in self._title_lines:
            self._title_lines[body] = Counter(
                element.get(_VAL, "")
                for element in body.iter(_P_STYLE)
                if story.styles.title_kind(element.get(_VAL)) is not None
                and any((t.text or "").strip() for t in element.getparent().getparent().iter(_T))
            )
        return self._title_lines[body][style_id or ""] <= MAX_TITLE_LINES

    def warn(self, message: str) -> None:
        """Keep ``message`` among the document's warnings (the front door logs them once,
        naming the file)."""
        self.warnings.append(message)


def _clean(text: str) -> str:
    """Paragraph text as one content entry: stripped, no blank or trailing-space lines."""
    if "\n" not in text:
        return text.strip()
    return "\n".join(line.rstrip() for line in text.split("\n") if line.strip()).strip()
