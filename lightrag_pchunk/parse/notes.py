"""Stage A: footnotes and endnotes, kept with the text that references them.

Input: the package's ``footnotes.xml``/``endnotes.xml`` and each ``w:footnoteReference`` /
``w:endnoteReference`` met in document order. Output: a marker for the referencing text
(``[^1]``; endnotes ``[^i]``) and, on the first reference, one line ``[^1]: note text`` that
the walk writes right after the referencing paragraph (or cell line), so a note stays in the
block and chunk of its reference. Headings get no marker: their note line follows the heading
line instead, so ``heading``/``parent_headings`` stay clean. Notes are numbered by order of
first reference, in the format the document sets (``w:footnotePr``/``w:endnotePr`` in the last
section or settings; Word's defaults decimal and lower roman otherwise). Separator notes and
notes nobody references are not displayed by Word and are not read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lxml import etree

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.numfmt import format_number
from lightrag_pchunk.parse.xml import qn

if TYPE_CHECKING:
    from lightrag_pchunk.parse.package import DocxPackage

_P = qn("w:p")
_TBL = qn("w:tbl")
_TR = qn("w:tr")
_TC = qn("w:tc")
_ID = qn("w:id")
_TYPE = qn("w:type")
_VAL = qn("w:val")
_NOT_NOTES = frozenset({"separator", "continuationSeparator", "continuationNotice"})
_DEFAULT_FORMATS = {True: "decimal", False: "lowerRoman"}
_TOLERATED = frozenset({"xml", "corrupt", "missing-part", "unsupported", "encrypted"})


class NoteBook:
    """Footnote and endnote texts of one package, handed out on first reference."""

    def __init__(
        self, package: DocxPackage, body: etree._Element | None = None, prefix: str = ""
    ) -> None:
        self._package = package
        self._body = body
        self._kinds = {
            True: _Kind(package, "footnotes", prefix),
            False: _Kind(package, "endnotes", prefix),
        }

    def reference(
        self, is_footnote: bool, note_id: str
    ) -> tuple[str, tuple[etree._Element, str] | None]:
        """``(marker, (note, its part))`` for one reference, the note only the first time;
        the reader writes its line. A reference to a note that does not exist gives no
        marker and no note."""
        kind = self._kinds[is_footnote]
        note = kind.element(note_id)
        if note is None:
            return "", None
        label = kind.labels.get(note_id)
        if label is not None:
            return f"[^{label}]", None
        if kind.num_fmt is None:  # read once, on the first reference of this kind
            kind.num_fmt = _format(self._package, self._body, is_footnote)
        kind.count += 1
        label = format_number(kind.count, kind.num_fmt) or str(kind.count)
        kind.labels[note_id] = label
        return f"[^{label}]", (note, kind.part)


def note_text(
    note: etree._Element, part: str, read_paragraph: Callable[[etree._Element, str], str]
) -> str:
    """A note's (or a text box's in it) paragraphs on one line, each read by
    ``read_paragraph``; table rows as ``a | b``."""
    pieces: list[str] = []
    for block in note:
        if block.tag == _P:
            pieces.append(read_paragraph(block, part))
        elif block.tag == _TBL:
            for row in block.iter(_TR):
                cells = (
                    " ".join(read_paragraph(p, part) for p in cell.iter(_P))
                    for cell in row
                    if cell.tag == _TC
                )
                pieces.append(" | ".join(c for c in cells if c))
    return " ".join(" ".join(piece.split()) for piece in pieces if piece and not piece.isspace())


class _Kind:
    """One notes part: its elements by id (read on first use) and the labels handed out."""

    def __init__(self, package: DocxPackage, type_tail: str, prefix: str) -> None:
        self.part = prefix + (package.part_for(type_tail) or "")
        self.num_fmt: str | None = None
        self.count = 0
        self.labels: dict[str, str] = {}
        self._package = package
        self._type_tail = type_tail
        self._tag = qn("w:footnote" if type_tail == "footnotes" else "w:endnote")
        self._notes: dict[str, etree._Element] | None = None

    def element(self, note_id: str) -> etree._Element | None:
        if self._notes is None:
            is_footnotes = self._type_tail == "footnotes"
            root = self._package.footnotes() if is_footnotes else self._package.endnotes()
            self._notes = {}
            for note in root.iter(self._tag) if root is not None else ():
                if note.get(_TYPE) not in _NOT_NOTES and note.get(_ID) is not None:
                    self._notes.setdefault(note.get(_ID, ""), note)
        return self._notes.get(note_id)


def _format(package: DocxPackage, body: etree._Element | None, is_footnote: bool) -> str:
    """The note number format: the last section's ``w:footnotePr``, else settings, else Word's
    default."""
    pr = qn("w:footnotePr" if is_footnote else "w:endnotePr")
    candidates: list[etree._Element] = []
    if body is not None:
        sect = body.find(qn("w:sectPr"))
        if sect is not None:
            candidates.append(sect)
    settings_part = package.part_for("settings")
    if settings_part:
        try:
            settings = package.read_xml(settings_part)
        except DocxParseError as exc:
            if exc.reason not in _TOLERATED:  # hostile XML refuses the document
                raise
            settings = None  # a damaged settings part only costs the number format
        if settings is not None:
            candidates.append(settings)
    for holder in candidates:
        fmt = holder.find(f"{pr}/{qn('w:numFmt')}")
        if fmt is not None and fmt.get(_VAL) and fmt.get(_VAL) not in ("none", "bullet"):
            return fmt.get(_VAL, "")
    return _DEFAULT_FORMATS[is_footnote]
