"""Stage A: the inline content of one ``w:p`` -> one line of text with inline tags.

Input: a paragraph element and the part it belongs to. Output: :class:`InlineText`, the
displayed text (runs, hyperlinks, field results, content controls, smart tags, tracked
insertions; ``<sup>``/``<sub>`` for vertical alignment; inline ``<equation>`` and
``<drawing>`` tags) plus what follows the paragraph: note texts, chart/SmartArt text, WordArt
strings, and the text boxes anchored in it (``w:txbxContent``, walked by the caller as block
content). Invariant: every displayed character is read exactly once. Tracked deletions
(``w:del``, ``w:moveFrom``), field instructions, comments and the unchosen branch of an
``mc:AlternateContent`` are not displayed and are never read; a text box appears once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lxml import etree

from lightrag_pchunk.parse.equations import equation_tag
from lightrag_pchunk.parse.latex_chars import symbol_font_char
from lightrag_pchunk.parse.notes import NoteBook, note_text
from lightrag_pchunk.parse.numfmt import plain_glyph
from lightrag_pchunk.parse.omml_latex import omml_to_latex
from lightrag_pchunk.parse.plain import ParagraphProps, PlainScanner
from lightrag_pchunk.parse.xml import NS, qn

if TYPE_CHECKING:
    from lightrag_pchunk.parse.drawings import DrawingExtractor

_R = qn("w:r")
_T = qn("w:t")
_TAB = qn("w:tab")
_PTAB = qn("w:ptab")
_BR = qn("w:br")
_CR = qn("w:cr")
_SYM = qn("w:sym")
_NB_HYPHEN = qn("w:noBreakHyphen")
_RPR = qn("w:rPr")
_VERT_ALIGN = qn("w:vertAlign")
_VAL = qn("w:val")
_FONT = qn("w:font")
_CHAR = qn("w:char")
_ID = qn("w:id")
_SDT = qn("w:sdt")
_SDT_CONTENT = qn("w:sdtContent")
_RUBY = qn("w:ruby")
_RUBY_BASE = qn("w:rubyBase")
_FOOTNOTE_REF = qn("w:footnoteReference")
_ENDNOTE_REF = qn("w:endnoteReference")
# A text box's content: w:txbxContent in Transitional (wps:txbx, v:textbox); Word's Strict
# files write wp:wsp/wp:txbx/wne:txbxContent (the Word 2006 namespace, in both flavours).
_TXBX = frozenset(
    {qn("w:txbxContent"), "{http://schemas.microsoft.com/office/word/2006/wordml}txbxContent"}
)
_O_MATH = qn("m:oMath")
_O_MATH_PARA = qn("m:oMathPara")
_MC = "{" + NS["mc"] + "}"
_ALTERNATE = _MC + "AlternateContent"
_CHOICE = _MC + "Choice"
_FALLBACK = _MC + "Fallback"
_GRAPHICS = frozenset({qn("w:drawing"), qn("w:pict"), qn("w:object")})
_TEXTPATH = qn("v:textpath")
# Namespaces an mc:Choice may require that the walk reads: WordprocessingML extensions
# (w14, w15, w16...), Word's shapes, groups, canvases and drawing extensions, math.
_UNDERSTOOD_URI_PREFIXES = (
    "http://schemas.microsoft.com/office/word/",
    "http://schemas.microsoft.com/office/drawing/2010/main",
)
_UNDERSTOOD_URIS = frozenset({NS["m"], NS["w"], NS["wp"], NS["a"], NS["pic"], NS["v"]})
_UNDERSTOOD_PREFIXES = frozenset(
    {"wps", "wpg", "wpc", "wp14", "w14", "w15", "w16", "w16se", "w16cid", "w16cex", "w16du",
     "w16sdtdh", "m", "a14"}
)  # fmt: skip

# Not displayed: tracked deletions, field instructions, comment anchors, properties, and the
# note's own mark inside a note (the walk writes its own label).
_SKIPPED = frozenset(
    qn(f"w:{name}")
    for name in (
        "pPr", "rPr", "del", "moveFrom", "delText", "instrText", "delInstrText", "fldChar",
        "commentRangeStart", "commentRangeEnd", "commentReference", "annotationRef",
        "footnoteRef", "endnoteRef", "separator", "continuationSeparator", "sdtPr",
        "sdtEndPr", "customXmlPr", "smartTagPr", "proofErr", "lastRenderedPageBreak",
        "bookmarkStart", "bookmarkEnd", "permStart", "permEnd", "softHyphen", "subDoc",
        "rt", "rubyPr", "contentPart", "pgNum",
    )
)  # fmt: skip
_SCRIPTS = {"superscript": "sup", "subscript": "sub"}


@dataclass(slots=True)
class InlineText:
    """What one paragraph displays.

    ``text`` is raw (not stripped; soft breaks are ``\\n``). ``after`` holds lines that belong
    right after the paragraph (note texts, chart and SmartArt text, WordArt, and the drawing
    tags of a heading). ``boxes`` are the text boxes to walk as block content. ``equations``
    holds the LaTeX of each top-level math element; when ``is_math_only`` the paragraph shows
    nothing else, so the caller may write them as block equations instead of ``text``.
    """

    text: str
    after: list[str] = field(default_factory=list)
    boxes: list[etree._Element] = field(default_factory=list)
    equations: list[str] = field(default_factory=list)
    letters: int = 0  # visible text characters, tags and markers excluded
    has_other: bool = False  # drawings, symbols or note markers shown besides text

    @property
    def is_math_only(self) -> bool:
        """True when math is all the paragraph shows (LightRAG's block-equation case)."""
        return bool(self.equations) and not self.letters and not self.has_other


class _State:
    """Output of one paragraph read: text pieces and a pending ``<sup>``/``<sub>`` run."""

    __slots__ = ("align", "buffer", "heading", "out", "result")

    def __init__(self, heading: bool) -> None:
        self.out: list[str] = []
        self.buffer: list[str] = []
        self.align: str | None = None
        self.heading = heading
        self.result = InlineText("")

    def emit(self, text: str, align: str | None = None) -> None:
        # Adjacent runs with the same vertical alignment share one tag: "<sup>12</sup>".
        if align != self.align:
            self.flush()
            self.align = align
        (self.buffer if align else self.out).append(text)

    def flush(self) -> None:
        if self.buffer:
            tag = _SCRIPTS[self.align or "superscript"]
            self.out.append(f"<{tag}>{''.join(self.buffer)}</{tag}>")
            self.buffer = []
        self.align = None


class InlineReader:
    """Reads paragraphs; drawings and notes go through the shared extractor and note book."""

    def __init__(self, drawings: DrawingExtractor | None, notes: NoteBook | None = None) -> None:
        self.drawings = drawings
        self.notes = notes
        self.plain = PlainScanner()
        self._in_note = False  # reading a note's text: a note it references gets its marker only

    def scan(self, p: etree._Element) -> tuple[str, ParagraphProps] | None:
        """The text and own properties of ``p`` when it is plain runs, else None (see
        :mod:`~lightrag_pchunk.parse.plain`); the walk then calls :meth:`read`."""
        return self.plain.scan(p)

    def read(self, p: etree._Element, part: str, *, heading: bool = False) -> InlineText:
        """The displayed content of ``p`` (a ``w:p`` of ``part``).

        For a ``heading`` no note marker is written into the text and drawing tags move to
        ``after``, so neither pollutes the heading; the note text still follows it.
        """
        plain = self.plain.scan(p)
        if plain is not None:
            return plain_inline(plain[0])
        state = _State(heading)
        self._children(p, part, state)
        state.flush()
        result = state.result
        result.text = "".join(state.out)
        return result

    # -- containers ----------------------------------------------------------------------------

    def _children(self, element: etree._Element, part: str, state: _State) -> None:
        for child in element:
            tag = child.tag
            if tag == _R:
                self._run(child, part, state)
            elif tag in _SKIPPED or not isinstance(tag, str):
                continue
            elif tag in (_O_MATH, _O_MATH_PARA):
                self._math(child, state)
            elif tag == _SDT:
                content = next(child.iterchildren(_SDT_CONTENT), None)
                if content is not None:
                    self._children(content, part, state)
            elif tag == _ALTERNATE:
                branch = choose_branch(child)
                if branch is not None:
                    self._children(branch, part, state)
            elif tag in _GRAPHICS:
                self._graphic(child, part, state)
            else:
                # w:hyperlink, w:ins, w:moveTo, w:smartTag, w:customXml, w:fldSimple, w:bdo,
                # w:dir and unknown wrappers: their runs are displayed.
                self._children(child, part, state)

    def _run(self, run: etree._Element, part: str, state: _State) -> None:
        align = None
        for child in run:
            tag = child.tag
            if tag == _T:
                text = child.text
                if text:
                    state.emit(text, align)
                    if not text.isspace():
                        state.result.letters += len(text)
            elif tag == _RPR:
                node = next(child.iterchildren(_VERT_ALIGN), None)
                if node is not None:
                    align = node.get(_VAL)
                    align = align if align in _SCRIPTS else None
            elif tag in (_TAB, _PTAB):
                state.emit("\t", align)
            elif tag in (_BR, _CR):
                # Page and column breaks also separate text: never glue two words together.
                state.emit("\n")
            elif tag in _SKIPPED or not isinstance(tag, str):
                continue
            elif tag == _NB_HYPHEN:
                state.emit("-", align)
            elif tag == _SYM:
                char = _symbol(child)
                if char:
                    state.emit(char, align)
                    state.result.has_other = True
            elif tag in _GRAPHICS:
                self._graphic(child, part, state)
            elif tag in (_FOOTNOTE_REF, _ENDNOTE_REF):
                self._note(child, tag == _FOOTNOTE_REF, state)
            elif tag == _ALTERNATE:
                branch = choose_branch(child)
                if branch is not None:
                    self._run(branch, part, state)
            elif tag == _RUBY:
                base = child.find(_RUBY_BASE)
                if base is not None:
                    self._children(base, part, state)

    # -- inline objects ------------------------------------------------------------------------

    def _math(self, element: etree._Element, state: _State) -> None:
        latex = omml_to_latex(element)
        if not latex:
            return
        state.result.equations.append(latex)
        state.flush()
        state.out.append(equation_tag(latex))

    def _graphic(self, element: etree._Element, part: str, state: _State) -> None:
        # Most graphics hold no text box and no alternate content: one filtered scan (in C)
        # spares them the walks of text_boxes and _pieces.
        is_plain = next(element.iter(*_TXBX, _ALTERNATE), None) is None
        if not is_plain:
            state.result.boxes.extend(text_boxes(element))
        if self.drawings is None:
            return
        for piece in (element,) if is_plain else _pieces(element):
            tag = self.drawings.tag(piece, part)
            if tag:
                state.result.has_other = True
                if state.heading:
                    state.result.after.append(tag)
                else:
                    state.flush()
                    state.out.append(tag)
            state.result.after.extend(self.drawings.graphic_text(piece, part))
            for path in piece.iter(_TEXTPATH):
                words = " ".join((path.get("string") or "").split())
                if words:
                    state.result.after.append(words)

    def _note(self, ref: etree._Element, is_footnote: bool, state: _State) -> None:
        if self.notes is None:
            return
        marker, first = self.notes.reference(is_footnote, ref.get(_ID) or "")
        line = None
        if first is not None and not self._in_note:
            self._in_note = True
            try:
                text = note_text(*first, self._note_paragraph)
            finally:
                self._in_note = False
            line = f"{marker}: {text}" if text else None
        if marker and not state.heading:
            state.flush()
            state.out.append(marker)
            state.result.has_other = True
        if line:
            state.result.after.append(line)

    def _note_paragraph(self, p: etree._Element, part: str) -> str:
        """A paragraph of a note on one line, with a text box in it."""
        inline = self.read(p, part)
        boxes = [note_text(box, part, self._note_paragraph) for box in inline.boxes]
        return " ".join([inline.text, *inline.after, *boxes]).strip()


def plain_inline(text: str) -> InlineText:
    """The :class:`InlineText` of a plain paragraph's text."""
    return InlineText(text, letters=0 if text.isspace() else len(text))


def choose_branch(alternate: etree._Element) -> etree._Element | None:
    """The one ``mc:AlternateContent`` branch that is read, as Markup Compatibility says: the
    first Choice whose ``Requires`` namespaces this parser reads (Word's extensions, shapes,
    groups, canvases, math), else the Fallback, else nothing.

    The branches carry the same content, so reading one keeps a text box from appearing
    twice; a Choice we cannot read (chartex, ink, 3D models) gives way to its Fallback (the
    picture or VML text box Word writes for older readers).
    """
    for choice in alternate.iterchildren(_CHOICE):
        if all(_is_understood(prefix, choice) for prefix in (choice.get("Requires") or "").split()):
            return choice
    return alternate.find(_FALLBACK)


def _is_understood(prefix: str, element: etree._Element) -> bool:
    uri = element.nsmap.get(prefix)
    if uri is None:  # an undeclared prefix: judge it by Word's usual name for it
        return prefix in _UNDERSTOOD_PREFIXES
    if uri.endswith("Ink"):  # wpi: ink strokes, whose Fallback is their picture
        return False
    return uri.startswith(_UNDERSTOOD_URI_PREFIXES) or uri in _UNDERSTOOD_URIS


def text_boxes(element: etree._Element) -> list[etree._Element]:
    """The outermost text-box contents (``w:txbxContent``, Strict ``wne:txbxContent``) inside
    ``element``, in document order."""
    found: list[etree._Element] = []
    stack = [element]
    while stack:
        node = stack.pop()
        tag = node.tag
        if tag in _TXBX and node is not element:
            found.append(node)
        elif tag == _ALTERNATE:
            branch = choose_branch(node)
            if branch is not None:
                stack.append(branch)
        else:
            # Reversed pushes make the pops a pre-order walk: document order.
            stack.extend(child for child in reversed(node) if isinstance(child.tag, str))
    return found


def _pieces(element: etree._Element) -> Iterator[etree._Element]:
    """The largest subtrees of ``element`` holding no text box and no ``mc:AlternateContent``,
    in document order: a picture inside a text box is tagged by the text-box walk only, and a
    picture in an unchosen branch not at all."""
    stack = [element]
    while stack:
        node = stack.pop()
        if node.tag == _ALTERNATE:
            branch = choose_branch(node)
            if branch is not None:
                stack.append(branch)
        elif next(node.iter(*_TXBX, _ALTERNATE), None) is None:
            yield node
        else:
            stack.extend(
                child
                for child in reversed(node)
                if child.tag not in _TXBX and isinstance(child.tag, str)
            )


def _symbol(sym: etree._Element) -> str:
    """The character a ``w:sym`` shows, as plain Unicode (symbol fonts mapped)."""
    font = (sym.get(_FONT) or "").strip()
    code = sym.get(_CHAR) or ""
    char = symbol_font_char(font, code)
    if char:
        return char
    try:
        value = int(code, 16)
    except ValueError:
        return ""
    if not 0 < value < 0x110000 or 0xD800 <= value <= 0xDFFF:
        return ""
    return plain_glyph(chr(value), font.lower())
