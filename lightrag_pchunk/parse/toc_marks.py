"""Stage A: the paragraphs of a body that Word marks as its table of contents.

Input: a ``w:body``. Output: the set of its ``w:p`` elements that belong to a table of
contents, and the text of its field instructions, found in one pass over the few elements
that matter: paragraphs inside a ``TOC`` field (complex ``w:fldChar``/``w:instrText`` fields,
across paragraphs, nesting included, or a ``w:fldSimple``) and paragraphs inside a content
control whose ``w:docPartGallery`` is "Table of Contents". The "toc N" styles and entries
linking to ``_Toc`` bookmarks are checked per paragraph by the walk; plain-text tables of
contents by ``outline/toc.py``.

A TOC field also says which styles the author's headings use: its ``\\t "style,level,…"``
switch lists styles Word takes into the table at those levels (:func:`toc_style_levels`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lxml import etree

from lightrag_pchunk.outline.page_references import is_toc_line
from lightrag_pchunk.parse.xml import qn

if TYPE_CHECKING:
    from lightrag_pchunk.parse.styles import StyleSheet

_P = qn("w:p")
_FLD_CHAR = qn("w:fldChar")
_FLD_TYPE = qn("w:fldCharType")
_INSTR = qn("w:instrText")
_FLD_SIMPLE = qn("w:fldSimple")
_INSTR_ATTR = qn("w:instr")
_GALLERY = qn("w:docPartGallery")
_SDT = qn("w:sdt")
_SDT_CONTENT = qn("w:sdtContent")
_VAL = qn("w:val")
_HYPERLINK = qn("w:hyperlink")
_ANCHOR = qn("w:anchor")


def is_field(instruction: str, name: str) -> bool:
    """Whether a field's instruction (" TOC \\o ...", "HYPERLINK ...") calls the field
    ``name`` (upper case): it opens with it, spaces and case aside."""
    return instruction.lstrip().upper().startswith(name)


_STYLE_SWITCH = re.compile(r'\\t\s*"([^"]*)"')


def toc_style_levels(instructions: str) -> dict[str, int]:
    """Heading levels (1-9) by folded style name that the ``\\t`` switch of a body's TOC
    field instructions declares (``TOC \\h \\t "Heading 1,1,Control Title,3"``): the
    author's own word that paragraphs of those styles are headings. Word separates names and
    levels with the list separator of its locale: a comma or a semicolon."""
    levels: dict[str, int] = {}
    for match in _STYLE_SWITCH.finditer(instructions):
        items = [item.strip() for item in re.split(r"[,;]", match.group(1))]
        for name, level in zip(items[::2], items[1::2], strict=False):
            if name and level.isdigit() and 1 <= int(level) <= 9:
                levels.setdefault(" ".join(name.split()).casefold(), int(level))
    return levels


def read_toc_fields(body: etree._Element) -> tuple[set[etree._Element], str]:
    """Paragraphs of ``body`` inside a TOC field or a Table of Contents content control, and
    the text of every field instruction of the body (for :func:`toc_style_levels`), in one
    pass."""
    marked: set[etree._Element] = set()
    instructions: list[str] = []
    fields: list[list[str]] = []  # open complex fields: their instruction text so far
    in_toc = 0  # open fields whose instruction is TOC
    toc_frames: list[bool] = []
    for el in body.iter(_P, _FLD_CHAR, _INSTR, _FLD_SIMPLE, _GALLERY):
        tag = el.tag
        if tag == _P:
            if in_toc:
                marked.add(el)
        elif tag == _FLD_CHAR:
            kind = el.get(_FLD_TYPE)
            if kind == "begin":
                fields.append([])
                toc_frames.append(False)
            elif kind == "end" and fields:
                fields.pop()
                if toc_frames.pop():
                    in_toc -= 1
        elif tag == _INSTR:
            instructions.append(el.text or "")
            if fields and not toc_frames[-1]:
                fields[-1].append(el.text or "")
                if is_field("".join(fields[-1]), "TOC"):
                    toc_frames[-1] = True
                    in_toc += 1
                    owner = next(el.iterancestors(_P), None)
                    if owner is not None:
                        marked.add(owner)
        elif tag == _FLD_SIMPLE:
            instruction = el.get(_INSTR_ATTR) or ""
            instructions.append(" " + instruction)
            if is_field(instruction, "TOC"):
                marked.update(el.iterancestors(_P))
        elif "table of contents" in (el.get(_VAL) or "").lower():
            sdt = next(el.iterancestors(_SDT), None)
            content = sdt.find(_SDT_CONTENT) if sdt is not None else None
            if content is not None:
                marked.update(content.iter(_P))
    return marked, "".join(instructions)


def links_to_toc_bookmark(p: etree._Element) -> bool:
    """Whether ``p`` holds a hyperlink to a ``_Toc`` bookmark (how Word links TOC entries)."""
    return any((link.get(_ANCHOR) or "").startswith("_Toc") for link in p.iterchildren(_HYPERLINK))


class TocMarks:
    """What the TOC fields of one body say, for the walk: which paragraphs they hold
    (:func:`read_toc_fields`) and which styles they name heading styles
    (:func:`toc_style_levels`)."""

    def __init__(self, body: etree._Element | None = None) -> None:
        self.paragraphs, instructions = read_toc_fields(body) if body is not None else (set(), "")
        self.style_levels = toc_style_levels(instructions)

    def declared_level(self, styles: StyleSheet, style_id: str | None) -> int | None:
        """The outline level (0-8) the TOC fields give a paragraph style by its name, or
        None."""
        info = styles.get(style_id) if self.style_levels else None
        if info is None or not info.name:
            return None
        level = self.style_levels.get(" ".join(info.name.split()).casefold())
        return None if level is None else level - 1

    @staticmethod
    def is_entry(p: etree._Element, text: str) -> bool:
        """Whether a paragraph reads as an entry: a page reference, or a link to a ``_Toc``
        bookmark (how Word links them)."""
        return is_toc_line(text) or links_to_toc_bookmark(p)

    @staticmethod
    def is_linked_entry(p: etree._Element, text: str) -> bool:
        """Whether a paragraph outside any TOC mark is an entry all the same: it reads as one
        (a page reference) and links to a ``_Toc`` bookmark, as Word writes its entries."""
        return is_toc_line(text) and links_to_toc_bookmark(p)
