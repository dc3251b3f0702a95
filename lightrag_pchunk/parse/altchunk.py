"""Stage A: ``w:altChunk`` (imported content) -> blocks, where Word would show it.

Input: an altChunk relationship of the part being walked. Output: the imported content walked
in place. Supported: an embedded Word package (.docx/.docm/.dotx: its own styles, numbering
and notes; packages nest at most ``PackageLimits.max_embedded_depth`` deep), HTML (headings
h1-h6, paragraphs, lists, tables with colspan/rowspan, as Word imports them) and plain text.
RTF, MHT and other formats are not read: the walk continues and a warning names the part, so
nothing is dropped silently. Hostile content inside an import refuses the whole document, as
it would in the main package; a damaged or missing import only costs a warning.
"""

from __future__ import annotations

import codecs
import logging
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from lxml import etree

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.notes import NoteBook
from lightrag_pchunk.parse.sinks import BlockWalker, LineBuffer, LineSink, Mode
from lightrag_pchunk.parse.story import Story
from lightrag_pchunk.parse.tables import TableGrid
from lightrag_pchunk.parse.xml import qn

if TYPE_CHECKING:
    from lightrag_pchunk.parse.drawings import DrawingExtractor
    from lightrag_pchunk.parse.opc import Relationship
    from lightrag_pchunk.parse.package import DocxPackage

logger = logging.getLogger("lightrag.pchunk")

_TOLERATED = frozenset({"xml", "corrupt", "missing-part", "unsupported", "encrypted"})
_HTML_PARSER = etree.HTMLParser(no_network=True, remove_comments=True, remove_pis=True)
_SKIPPED_HTML = frozenset({"script", "style", "head", "title", "template", "noscript", "meta"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_LISTS = frozenset({"ul", "ol"})
_BLOCKS = (
    frozenset(
        "p div li pre blockquote dt dd dl address section article header footer main aside nav"
        " figure figcaption center form fieldset caption body html hr".split()
    )
    | frozenset(_HEADINGS)
    | _LISTS
    | {"table"}
)
_MAX_HTML_DEPTH = 200
_WHITESPACE = re.compile(r"\s+")
_MAX_SPAN = 63


class PackageRouter:
    """The main package and the packages its altChunks embed, seen as one by the drawing
    extractor: parts of an embedded package are named ``[altChunk n]/<part>``."""

    def __init__(self, main: DocxPackage) -> None:
        self.main = main
        self.path = main.path
        self._embedded: dict[str, DocxPackage] = {}

    def register(self, package: DocxPackage) -> str:
        """Add an embedded package; returns the prefix of its part names."""
        prefix = f"[altChunk {len(self._embedded) + 1}]/"
        self._embedded[prefix] = package
        return prefix

    def close(self) -> None:
        """Close the embedded packages (the caller closes the main one)."""
        for package in self._embedded.values():
            package.close()

    def _split(self, part: str) -> tuple[DocxPackage, str, str]:
        if part.startswith("[altChunk "):
            prefix, _, inner = part.partition("]/")
            package = self._embedded.get(prefix + "]/")
            if package is not None:
                return package, inner, prefix + "]/"
        return self.main, part, ""

    def target(self, source_part: str, rid: str) -> Relationship | None:
        """The relationship ``rid`` of ``source_part``; internal targets keep the prefix."""
        package, inner, prefix = self._split(source_part)
        rel = package.target(inner, rid)
        if rel is None or rel.is_external or not prefix:
            return rel
        return replace(rel, target=prefix + rel.target, source=source_part)

    def has_part(self, part: str) -> bool:
        """True when the package that owns ``part`` holds it."""
        package, inner, _ = self._split(part)
        return package.has_part(inner)

    def content_type(self, part: str) -> str | None:
        """Content type of ``part`` in the package that owns it."""
        package, inner, _ = self._split(part)
        return package.content_type(inner)

    def read_bytes(self, part: str, *, max_bytes: int | None = None) -> bytes:
        """Bytes of ``part``, within the owning package's (shared) budget."""
        package, inner, _ = self._split(part)
        return package.read_bytes(inner, max_bytes=max_bytes)

    def read_xml(self, part: str) -> etree._Element | None:
        """Parsed ``part`` of the owning package."""
        package, inner, _ = self._split(part)
        return package.read_xml(inner)


class AltChunkImporter:
    """Walks altChunk content into the current position of a :class:`BlockWalker`."""

    def __init__(self, router: PackageRouter, drawings: DrawingExtractor | None) -> None:
        self.router = router
        self.drawings = drawings
        self._made: dict[str, int] = {}  # part -> characters its last import was charged

    def import_chunk(
        self, walker: BlockWalker, rid: str, story: Story, part: str, mode: Mode, out: LineSink
    ) -> None:
        """Walk the content ``<w:altChunk r:id=rid>`` of ``part`` imports.

        Every import counts against ``max_alt_chunks`` (a package imported 30 times, each
        importing another 30 times, is 930 imports), an HTML or text part is charged to the
        output budget by its size before it is parsed, and a part imported again must leave
        room for what its last import made before it is read again.
        """
        walker.budget.alt_chunk()
        inner_part = part[len(story.prefix) :] if story.prefix else part
        chunk = story.package.alt_chunk(inner_part, rid)
        if chunk is None or not chunk.exists:
            walker.warn(f"altChunk {rid!r} of {inner_part} names no part in the package; skipped")
            return
        key = f"{story.package.path}\0{chunk.part}"
        made = walker.budget.chars
        walker.budget.require(self._made.get(key, 0), f"the altChunk {chunk.part}, imported again")
        try:
            if chunk.kind == "docx":
                self._docx(walker, story, chunk.part, mode, out)
            elif chunk.kind in ("html", "text"):
                data = story.package.read_bytes(chunk.part)
                # Charged before it is parsed: reading it costs about its size, each time.
                walker.budget.charge(len(data), f"the altChunk {chunk.part}, per import")
                if chunk.kind == "html":
                    _HtmlImport(walker, mode, out).run(data)
                else:
                    for line in _decode(data).splitlines():
                        if line.strip():
                            out.add(line.strip(), None, None)
            else:
                walker.warn(
                    f"altChunk {chunk.part} is {chunk.kind} ({chunk.content_type}), which this"
                    " parser does not read; its text is NOT included (open the document in Word"
                    " and save it to convert the imported content)"
                )
        except DocxParseError as exc:
            if exc.reason not in _TOLERATED:
                raise
            walker.warn(f"altChunk {chunk.part} was not read: {exc.detail}")
        self._made[key] = walker.budget.chars - made

    def _docx(
        self, walker: BlockWalker, story: Story, part: str, mode: Mode, out: LineSink
    ) -> None:
        package = story.package.open_embedded(part)
        prefix = self.router.register(package)
        root = package.read_xml(package.main_part)
        body = root.find(qn("w:body")) if root is not None else None
        if body is None:
            walker.warn(f"altChunk {part} has no document body; skipped")
            return
        notes = NoteBook(package, body, prefix)
        inner = Story.create(package, self.drawings, notes, prefix, body)
        walker.blocks_of(body, inner, prefix + package.main_part, mode, out)
        walker.warnings.extend(f"altChunk {part}: {w}" for w in package.warnings)


class _HtmlImport:
    """HTML -> headings, lines and tables, the way Word lays out an imported page."""

    def __init__(self, walker: BlockWalker, mode: Mode, out: LineSink) -> None:
        self.walker = walker
        self.mode = mode
        self.out = out

    def run(self, data: bytes) -> None:
        root = etree.fromstring(data, _HTML_PARSER) if data.strip() else None
        if root is not None:
            self._blocks(root, 0)

    def _blocks(self, element: etree._Element, depth: int) -> None:
        pending = [_spaces(element.text)]
        for child in element:
            tag = _name(child)
            if tag in _SKIPPED_HTML:
                pending.append(_spaces(child.tail))
                continue
            if tag not in _BLOCKS or depth >= _MAX_HTML_DEPTH:
                pending.append(_inline(child, depth))
                pending.append(_spaces(child.tail))
                continue
            self._line("".join(pending))
            pending = []
            if tag in _HEADINGS:
                self._heading(_HEADINGS[tag], _inline(child, depth))
            elif tag == "table":
                self._table(child, depth)
            elif tag in _LISTS:
                self._list(child, tag == "ol", depth)
            else:
                self._blocks(child, depth + 1)
            pending.append(_spaces(child.tail))
        self._line("".join(pending))

    def _list(self, element: etree._Element, ordered: bool, depth: int) -> None:
        number = 0
        for child in element:
            if _name(child) != "li":
                continue
            number += 1
            label = f"{number}. " if ordered else "• "
            items = LineBuffer(self.walker.budget, "an HTML cell or list item")
            _HtmlImport(self.walker, Mode.CELL, items)._blocks(child, depth + 1)
            for i, text in enumerate(items.texts):
                self.out.add((label if i == 0 else "") + text, None, None)

    def _heading(self, level: int, text: str) -> None:
        text = " ".join(text.split())
        if not text:
            return
        if self.mode is Mode.BODY:
            self.walker.heading(level, text, None)
        else:
            self.out.add(text, None, None)

    def _line(self, text: str) -> None:
        if not text or text.isspace():  # most calls: the gap between two block elements
            return
        lines = [" ".join(line.split()) for line in text.split("\n")]
        text = "\n".join(line for line in lines if line)
        if text:
            self.out.add(text, None, None)

    def _table(self, table: etree._Element, depth: int) -> None:
        rows: list[list[str]] = []
        carried: dict[int, tuple[str, int]] = {}  # column -> (text, rows it still covers)
        header_rows, leading = 0, True
        repeated = 0
        for tr in _rows(table):
            row: dict[int, str] = {}
            for col, (text, left) in list(carried.items()):
                row[col] = text  # a vertical merge repeats the text (LightRAG's rule)
                if text:  # must fit before the table is built; charged with its tag
                    repeated += len(text)
                    self.walker.budget.require(repeated, "an HTML cell repeated by its rowspan")
                if left > 1:
                    carried[col] = (text, left - 1)
                else:
                    del carried[col]
            cells = [c for c in tr if _name(c) in ("td", "th")]
            col = 0
            for cell in cells:
                while col in row:
                    col += 1
                lines = LineBuffer(self.walker.budget, "an HTML cell or list item")
                _HtmlImport(self.walker, Mode.CELL, lines)._blocks(cell, depth + 1)
                colspan, rowspan = _span(cell.get("colspan")), _span(cell.get("rowspan"))
                for extra in range(colspan):
                    text = "\n".join(lines.texts) if extra == 0 else ""
                    row.setdefault(col + extra, text)
                    if rowspan > 1:
                        carried[col + extra] = (text, rowspan - 1)
                col += colspan
            is_header = bool(cells) and all(_name(c) == "th" for c in cells)
            if leading and (is_header or _name(tr.getparent()) == "thead"):
                header_rows += 1
            else:
                leading = False
            rows.append([row.get(i, "") for i in range(max(row, default=-1) + 1)])
        width = max((len(r) for r in rows), default=0)
        for row_cells in rows:
            row_cells.extend([""] * (width - len(row_cells)))
        self.walker.add_table(TableGrid(rows, header_rows), self.mode, self.out)


def _name(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _inline(element: etree._Element, depth: int) -> str:
    """Text of an inline element: whitespace collapses as in a browser; ``<br>`` breaks."""
    if depth >= _MAX_HTML_DEPTH:
        return _spaces("".join(element.itertext()))
    parts = [_spaces(element.text)]
    for child in element:
        tag = _name(child)
        if tag == "br":
            parts.append("\n")
        elif tag and tag not in _SKIPPED_HTML:
            parts.append(_inline(child, depth + 1))
        parts.append(_spaces(child.tail))
    return "".join(parts)


def _spaces(text: str | None) -> str:
    """HTML source whitespace (newlines included) is one space when rendered."""
    return _WHITESPACE.sub(" ", text) if text else ""


def _rows(table: etree._Element) -> list[etree._Element]:
    rows = []
    for child in table:
        tag = _name(child)
        if tag == "tr":
            rows.append(child)
        elif tag in ("thead", "tbody", "tfoot"):
            rows.extend(c for c in child if _name(c) == "tr")
    return rows


def _span(value: str | None) -> int:
    try:
        return max(1, min(int((value or "1").strip()), _MAX_SPAN))
    except ValueError:
        return 1


def _decode(data: bytes) -> str:
    for bom, codec in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                       (codecs.BOM_UTF16_BE, "utf-16")):  # fmt: skip
        if data.startswith(bom):
            return data.decode(codec, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")
