"""Stage A for Markdown: one pass over the CommonMark/GFM events -> headings and text units.

Input: the document text. The parser is pulldown-cmark (through ``pyromark``), which gives
every event its byte range in the source. Output: a list of :class:`Heading` and text units
in document order. A unit is one top-level Markdown block as the author wrote it (a
paragraph, a whole list, a block quote, a fenced or indented code block, a footnote, raw
HTML), its blank lines dropped so that a blank line separates units and never splits one;
tables, ``$$…$$`` display math and ``data:`` images become LightRAG's one-line tags; YAML
front matter is read into the meta row and kept as the first unit, without its fences. Link
reference definitions, which make no event, are kept as text; thematic breaks are dropped;
base64 payloads are shortened (:func:`~lightrag_pchunk.markdown.images.elide_base64`). A
heading in a MyST container's body is a unit: the directive's rubric, no section.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field

import pyromark
from pyromark.event import Event, Range

from lightrag_pchunk.markdown.directives import read_directives
from lightrag_pchunk.markdown.element import Element, holds, inside, offsets, skip
from lightrag_pchunk.markdown.front_matter import FrontMatter, read_front_matter
from lightrag_pchunk.markdown.headings import Heading, heading_title
from lightrag_pchunk.markdown.images import EmbeddedImages, elide_base64, is_data_url
from lightrag_pchunk.markdown.tables import html_table, pipe_table, split_html_tables
from lightrag_pchunk.parse.equations import equation_record, equation_tag

#: GFM tables, ``$`` math, YAML front matter, strikethrough, task lists, footnotes.
OPTIONS = (
    pyromark.Options.ENABLE_TABLES
    | pyromark.Options.ENABLE_MATH
    | pyromark.Options.ENABLE_YAML_STYLE_METADATA_BLOCKS
    | pyromark.Options.ENABLE_STRIKETHROUGH
    | pyromark.Options.ENABLE_TASKLISTS
    | pyromark.Options.ENABLE_FOOTNOTES
)
_TITLE_TEXT = frozenset({"Text", "Code", "InlineMath", "DisplayMath"})
_BREAKS = frozenset({"SoftBreak", "HardBreak"})
#: Top-level kinds whose inner events are always read.
_READ_INSIDE = frozenset({"Heading", "Table", "MetadataBlock"})


Item = Heading | str


@dataclass
class Walked:
    """The walk's result: headings and units in order, sidecar records, front matter."""

    items: list[Item] = field(default_factory=list)
    tables: dict[str, dict] = field(default_factory=dict)
    equations: dict[str, dict] = field(default_factory=dict)
    front_matter: FrontMatter | None = None


class MarkdownWalk:
    """Walks one document; :meth:`run` returns :class:`Walked`."""

    def __init__(self, text: str, doc_hash: str, images: EmbeddedImages) -> None:
        self._text = text
        # Event ranges are byte offsets into the text's UTF-8 encoding.
        self._raw = text.encode("utf-8", "surrogatepass")
        self._is_ascii = len(self._raw) == len(text)  # then they are character offsets too
        self._doc_hash = doc_hash
        self._images = images
        self._out = Walked()
        self._image: tuple[int, int, str, list[str]] | None = None  # start, end, address, alt
        self._done = 0  # end of the last top-level element
        # Where the document holds "$$" (display math) and data: addresses, found once (an
        # element is checked by a bisection); whether it holds a base64 payload ("base64,")
        # or a line ending in blanks. A one-byte search runs at memchr speed: "$" first.
        raw = self._raw
        self._math_at = offsets(raw, b"$$") if b"$" in raw else []
        self._data_at = sorted(offsets(raw, b"data:") + offsets(raw, b"DATA:"))
        self._has_base64 = b"64," in raw
        self._has_trailing_blanks = b" \n" in raw or (b"\t" in raw and b"\t\n" in raw)

    def run(self) -> Walked:
        """Walk the events once; every byte of the source is read or kept as a gap."""
        raw, text, is_ascii = self._raw, self._text, self._is_ascii
        math_at, data_at = self._math_at, self._data_at
        for_parser, bodies = read_directives(text)  # bodies: where containers' bodies lie
        events = pyromark.events_with_range(for_parser, options=OPTIONS, merge_text=True)
        # One iterator: a reader or skip() takes one top-level element's events to its End.
        for event, span in events:
            if type(event) is str:  # "SoftBreak", "HardBreak", "Rule" between elements
                self._gap(span["start"])
                self._done = span["end"]
                continue
            if "Start" not in event:
                continue
            value, start, end = event["Start"], span["start"], span["end"]
            done = self._done
            if start > done and (start - done > 1 or raw[done] != 10):  # more than a "\n"
                self._gap(start)
            if start and raw[start - 1] != 10:  # keep an indented block's indent
                start = raw.rfind(b"\n", 0, start) + 1
            kind = value if type(value) is str else next(iter(value))
            if bodies and kind == "Heading" and bisect_right(bodies, start) % 2:
                kind = "Paragraph"  # a directive's rubric (a label), no section: as MyST
            # Most elements are kept as written, their inner events never looked at: all but
            # headings, tables, front matter, a paragraph with $$ math, one with a data: URL.
            if kind not in _READ_INSIDE and not (
                (math_at and kind == "Paragraph" and holds(math_at, start, end - 2))
                or (data_at and holds(data_at, start, end - 5))
            ):
                skip(events)
                self._done = end
                piece = text[start:end] if is_ascii else raw[start:end].decode("utf-8", "replace")
                if kind == "HtmlBlock":
                    self._html(piece)
                else:  # a blank line ends a paragraph: none is looked for inside one
                    self._unit(piece, blank_lines=kind != "Paragraph")
                continue
            if kind == "Heading":
                self._heading(int(value["Heading"]["level"][1]), events)
                self._done = end
                continue
            element = Element(kind, start, end)
            if kind == "Table":
                self._read_table(element, events)
            else:
                self._read(element, events)
            self._close(element)
        self._gap(len(raw))
        return self._out

    def _heading(self, level: int, events: Iterator[tuple[Event, Range]]) -> None:
        """Read a heading's events up to its End and add the heading: its title is the text
        of its leaves (a space for a line break), its inline source runs from the first
        event inside to the furthest end. A heading that displays no text (an image, an
        HTML image, a footnote mark) is titled by its images' alt texts, else by its source
        as written; an empty heading marks nothing."""
        pieces: list[str] = []
        html: list[str] = []  # inline HTML, for the alt text of an <img>
        first = last = -1
        with_images: Element | None = None  # the drawing tags of its data: images
        for event, span in inside(events):
            if type(event) is str:  # "SoftBreak", "HardBreak"
                pieces.append(" " if event in _BREAKS else "")
                continue
            if "End" in event:
                if event["End"] == "Image":
                    if with_images is None:
                        with_images = Element("Heading", first, last)
                    self._image_end(with_images, span)
                continue
            # Every other event lies in the heading's inline source.
            if first < 0:
                first = span["start"]
            if span["end"] > last:
                last = span["end"]
            if "Start" in event:
                if type(value := event["Start"]) is not str and "Image" in value:
                    self._image_start(value["Image"], span)
            else:
                ((key, value),) = event.items()
                pieces.append(value if key in _TITLE_TEXT else "")
                if key == "Text" and self._image is not None:
                    self._image[3].append(value)
                elif key == "InlineHtml":
                    html.append(value)
        if first < 0:
            return  # nothing inside the heading marks
        if with_images is not None:
            inline = self._source(first, last, with_images)
        else:
            inline = self._slice(first, last)
        inline = " ".join(inline.split())
        title = heading_title("".join(pieces), "".join(html), inline)
        if not title:
            return
        self._out.items.append(
            Heading(level, title, elide_base64(inline) if self._has_base64 else inline)
        )

    def _read_table(self, element: Element, events: Iterator[tuple[Event, Range]]) -> None:
        """Read a pipe table's events up to its End: its rows of cells, each cell its source
        text (inline markup stays as written), stripped, ``\\|`` unescaped."""
        if self._raw.find(b"![", element.start, element.end) >= 0:
            self._read_table_with_images(element, events)
            return
        # No image (an image starts with "!["), so no replacement: a cell is its source.
        # Only End events matter: a cell's and a row's End have the range of their Start.
        text, raw, is_ascii = self._text, self._raw, self._is_ascii
        rows = element.parts
        cells: list[str] = []
        last_end = -1  # the end of the row's last cell
        for event, span in inside(events):
            if type(event) is str or "End" not in event:
                continue
            kind = event["End"]
            if kind == "TableCell":
                start, last_end = span["start"], span["end"]
                cell = (
                    text[start:last_end]
                    if is_ascii
                    else raw[start:last_end].decode("utf-8", "replace")
                )
                cells.append(cell.strip().replace("\\|", "|"))
            elif kind == "TableRow" or kind == "TableHead":
                rows.append(cells)
                if last_end >= 0:
                    element.cell, element.row_end = last_end, span["end"]
                    self._row_end(element)
                cells, last_end = [], -1

    def _read_table_with_images(
        self, element: Element, events: Iterator[tuple[Event, Range]]
    ) -> None:
        """:meth:`_read_table` for a table that may hold images: a ``data:`` one becomes a
        drawing tag inside its cell."""
        rows = element.parts
        for event, span in inside(events):
            if type(event) is str:
                continue
            if "Start" in event:
                value = event["Start"]
                if type(value) is not str:
                    if "Image" in value:
                        self._image_start(value["Image"], span)
                elif value == "TableCell":
                    element.cell = span["start"]
                elif value == "TableRow" or value == "TableHead":
                    rows.append([])
                    element.row_end = span["end"]
            elif "End" in event:
                value = event["End"]
                if value == "TableCell":
                    start, end = element.cell, span["end"]
                    cell = self._source(start, end, element)
                    rows[-1].append(cell.strip().replace("\\|", "|"))
                    element.cell = end
                elif value == "TableRow" or value == "TableHead":
                    self._row_end(element)
                elif value == "Image":
                    self._image_end(element, span)
            elif self._image is not None and "Text" in event:
                self._image[3].append(event["Text"])

    def _read(self, element: Element, events: Iterator[tuple[Event, Range]]) -> None:
        """Read any other element's events (front matter, math, a ``data:`` image) to its End."""
        is_metadata = element.kind == "MetadataBlock"
        for event, span in inside(events):
            if type(event) is str:  # "SoftBreak", "HardBreak"
                continue
            if "Start" in event:
                if type(value := event["Start"]) is not str and "Image" in value:
                    self._image_start(value["Image"], span)
            elif "End" in event:
                if event["End"] == "Image":
                    self._image_end(element, span)
            else:
                ((key, value),) = event.items()
                if key == "DisplayMath":
                    element.parts.append((span["start"], span["end"], value))
                elif key == "Text" and is_metadata:
                    element.parts.append(value)
                if self._image is not None and key == "Text":
                    self._image[3].append(value)

    def _image_start(self, image: dict, span: dict) -> None:
        """An image starts: a ``data:`` one is followed to its End (its alt text, its span)."""
        address = image["dest_url"]
        if self._image is None and is_data_url(address):
            self._image = (span["start"], span["end"], address, [])

    # -- top level -------------------------------------------------------------------------

    def _close(self, element: Element) -> None:
        self._done = element.end
        kind = element.kind  # a heading is closed by run
        if kind == "Table":
            self._table(element)
        elif kind == "HtmlBlock":
            self._html(self._source(element.start, element.end, element))
        elif not (
            (kind == "MetadataBlock" and self._metadata(element))
            or (kind == "Paragraph" and element.parts and self._display_math(element))
        ):
            self._unit(self._source(element.start, element.end, element))

    def _gap(self, until: int) -> None:
        """Text between top-level elements that made no event (link reference definitions,
        a container directive's fence lines)."""
        start = self._done
        if until > start:  # rarely: elements mostly follow each other
            self._done = until
            gap = self._raw[start:until]
            if not gap.isspace():  # a unit per run of lines between blank lines
                for piece in re.split(r"\n[ \t\r]*\n", self._slice(start, until)):
                    self._unit(piece)

    def _unit(self, text: str, *, blank_lines: bool = True) -> None:
        """One unit: ``text`` without blank lines and trailing spaces, base64 elided;
        ``blank_lines``: the text may hold some (not a paragraph's)."""
        if (blank_lines and "\n\n" in text) or (
            self._has_trailing_blanks and (" \n" in text or "\t\n" in text)
        ):
            text = "\n".join(filter(None, map(str.rstrip, text.split("\n"))))
        else:
            text = text.strip("\n").rstrip()
        if text:
            self._out.items.append(elide_base64(text) if self._has_base64 else text)

    # -- events inside a top-level element ---------------------------------------------------

    def _image_end(self, element: Element, span: dict) -> None:
        image = self._image
        if image is None or image[0] != span["start"]:
            return
        self._image = None
        tag = self._images.tag(image[2], " ".join("".join(image[3]).split()))
        if tag is not None:
            element.replacements.append((image[0], image[1], tag))

    def _row_end(self, element: Element) -> None:
        # GFM ignores cells past the header's width; their text is kept in one more cell.
        if element.cell >= 0:
            rest = self._source(element.cell, element.row_end, element).strip().strip("|").strip()
            if rest:
                element.parts[-1].append(rest.replace("\\|", "|"))
        element.cell = -1

    # -- one kind each -----------------------------------------------------------------------

    def _table(self, element: Element) -> None:
        table_id = f"tb-{self._doc_hash}-{len(self._out.tables) + 1:04d}"
        made = pipe_table(element.parts, table_id)
        if made is not None:
            self._out.items.append(made[0])
            self._out.tables[table_id] = made[1]

    def _html(self, html: str) -> None:
        """An HTML block: its tables become table tags, the rest stays text."""
        for piece in split_html_tables(html):
            table_id = f"tb-{self._doc_hash}-{len(self._out.tables) + 1:04d}"
            made = html_table(piece.text, table_id) if piece.is_table else None
            if made is None:
                self._unit(piece.text)
            else:
                self._out.tables[table_id] = made[1]
                self._out.items.append(made[0])

    def _metadata(self, element: Element) -> bool:
        """Front matter read into the meta row and kept as text, its fences dropped (its
        values are the author's words: a note, nested fields); False (kept as written) when
        it is not YAML."""
        if self._out.front_matter is not None or self._out.items:
            return False
        text = "".join(element.parts)
        front_matter = read_front_matter(text)
        if front_matter is None:
            return False
        self._out.front_matter = front_matter
        self._unit(text)
        return True

    def _display_math(self, element: Element) -> bool:
        """A paragraph of ``$$…$$`` display math only: one equation tag per formula."""
        position, rest = element.start, []
        for start, end, _latex in element.parts:
            rest.append(self._raw[position:start])
            position = end
        rest.append(self._raw[position : element.end])
        if b"".join(rest).strip():
            return False
        tags = []
        for _start, _end, latex in element.parts:
            eq_id = f"eq-{self._doc_hash}-{len(self._out.equations) + 1:04d}"
            self._out.equations[eq_id] = equation_record(eq_id, latex)
            tags.append(equation_tag(latex, eq_id))
        self._out.items.append("\n".join(tags))
        return True

    def _source(self, start: int, end: int, element: Element) -> str:
        """The source text of ``[start, end)`` with the element's replacements inside it."""
        if not element.replacements:
            return self._slice(start, end)
        parts: list[str] = []
        position = start
        for rep_start, rep_end, text in element.replacements:
            if rep_start >= position and rep_end <= end:
                parts.append(self._slice(position, rep_start))
                parts.append(text)
                position = rep_end
        parts.append(self._slice(position, end))
        return "".join(parts)

    def _slice(self, start: int, end: int) -> str:
        """The source text between two byte offsets."""
        if self._is_ascii:
            return self._text[start:end]
        return self._raw[start:end].decode("utf-8", "replace")
