"""Stage A: the paragraphs of a body that Word marks as its table of contents.

Input: a ``w:body``. Output: the set of its ``w:p`` elements that belong to a table of
contents, found in one pass over the few elements that matter: paragraphs inside a ``TOC``
field (complex ``w:fldChar``/``w:instrText`` fields, across paragraphs, nesting included, or a
``w:fldSimple``) and paragraphs inside a content control whose ``w:docPartGallery`` is
"Table of Contents". The "toc N" styles and entries linking to ``_Toc`` bookmarks are
checked per paragraph by the walk; plain-text tables of contents by ``outline/toc.py``.
"""

from __future__ import annotations

from lxml import etree

from lightrag_pchunk.parse.xml import qn

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


def _is_toc_instruction(instr: str) -> bool:
    return instr.lstrip().upper().startswith("TOC")


def toc_paragraphs(body: etree._Element) -> set[etree._Element]:
    """Paragraphs of ``body`` inside a TOC field or a Table of Contents content control."""
    marked: set[etree._Element] = set()
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
            if fields and not toc_frames[-1]:
                fields[-1].append(el.text or "")
                if _is_toc_instruction("".join(fields[-1])):
                    toc_frames[-1] = True
                    in_toc += 1
                    owner = next(el.iterancestors(_P), None)
                    if owner is not None:
                        marked.add(owner)
        elif tag == _FLD_SIMPLE:
            if _is_toc_instruction(el.get(_INSTR_ATTR) or ""):
                marked.update(el.iterancestors(_P))
        elif "table of contents" in (el.get(_VAL) or "").lower():
            sdt = next(el.iterancestors(_SDT), None)
            content = sdt.find(_SDT_CONTENT) if sdt is not None else None
            if content is not None:
                marked.update(content.iter(_P))
    return marked


def links_to_toc_bookmark(p: etree._Element) -> bool:
    """Whether ``p`` holds a hyperlink to a ``_Toc`` bookmark (how Word links TOC entries)."""
    return any((link.get(_ANCHOR) or "").startswith("_Toc") for link in p.iterchildren(_HYPERLINK))
