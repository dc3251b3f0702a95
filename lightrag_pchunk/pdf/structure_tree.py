"""The tagged structure tree of a PDF (a tagged PDF), read page by page.

Every line learns the role of the structure element its text belongs to (``H1``-``H6``,
``P``, ``TD`` …) and which element that is; ``Artifact`` content (running headers, page
numbers marked as such) is dropped. Heading elements give headings at their level.

Input: the open document and each page. Output: how each line of a page finds its role
when it is made (``layout.page_lines``); the levels the heading roles give are read in
``tagged_levels``.
"""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from lightrag_pchunk.pdf.layout import ARTIFACT_ROLE, LineRole
from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.tagged_levels import HEADING_ROLE

#: Structure roles that hold a paragraph of their own (a Span or Link inside one belongs
#: to it).
BLOCK_ROLES = frozenset(
    "P H H1 H2 H3 H4 H5 H6 LI Lbl LBody TOCI TD TH Caption Note BlockQuote Title Figure"
    " Formula Code Quote".split()
)
_BUFFER = ctypes.create_string_buffer(1024)


class OutlineMarks:
    """The tagged structure tree, read page by page: each line's role and element."""

    def __init__(self, tagged: bool) -> None:
        self.tagged = tagged
        self.heading_lines = 0

    @classmethod
    def read(cls, document: pdfium.PdfDocument) -> OutlineMarks:
        return cls(bool(document.is_tagged()))

    def page_roles(self, page: pdfium.PdfPage, textpage: pdfium.PdfTextPage) -> LineRole | None:
        """How a line of the page finds its structure role and element, from the segment
        it opens (``layout.page_lines``): :data:`~layout.ARTIFACT_ROLE` for page furniture
        marked as such; None on a page without roles (an untagged document)."""
        if not self.tagged:
            return None
        roles = _marked_content_roles(page)
        if not roles:
            return None

        def role_of(segment: Segment) -> tuple[str, int]:
            handle = pdfium_c.FPDFText_GetTextObject(textpage.raw, segment.first_char)
            if not handle:
                return "", 0
            mcid = pdfium_c.FPDFPageObj_GetMarkedContentID(handle)
            if mcid < 0:
                return (ARTIFACT_ROLE, 0) if _is_artifact(handle) else ("", 0)
            role, element = roles.get(mcid, ("", 0))
            if is_heading_role(role):
                self.heading_lines += 1
            return role, element

        return role_of


def _marked_content_roles(page: pdfium.PdfPage) -> dict[int, tuple[str, int]]:
    """Each marked-content id of the page -> (role of its paragraph-level element, a key
    of that element unique on the page)."""
    tree = pdfium_c.FPDF_StructTree_GetForPage(page.raw)
    if not tree:
        return {}
    roles: dict[int, tuple[str, int]] = {}
    counter = [0]

    def walk(element: object, role: str, key: int, depth: int) -> None:
        own = _element_type(element)
        if own in BLOCK_ROLES:  # the heading roles among them
            counter[0] += 1
            role, key = own, counter[0]
        # A kid is marked content or an element. PDFium gives the marked content of this
        # page only (an element running over pages holds the ids of other pages' content
        # too, which mean other text there).
        for index in range(pdfium_c.FPDF_StructElement_CountChildren(element)):
            mcid = pdfium_c.FPDF_StructElement_GetChildMarkedContentID(element, index)
            if mcid >= 0:
                roles[mcid] = (role, key)
            elif depth <= 64:  # a hostile tree: deeper elements keep the role found so far
                child = pdfium_c.FPDF_StructElement_GetChildAtIndex(element, index)
                if child:
                    walk(child, role, key, depth + 1)

    try:
        for index in range(pdfium_c.FPDF_StructTree_CountChildren(tree)):
            child = pdfium_c.FPDF_StructTree_GetChildAtIndex(tree, index)
            if child:
                walk(child, "", 0, 0)
    finally:
        pdfium_c.FPDF_StructTree_Close(tree)
    return roles


def _element_type(element: object) -> str:
    length = pdfium_c.FPDF_StructElement_GetType(element, _BUFFER, len(_BUFFER))
    # A slice copies the name alone (``.raw`` would copy the whole buffer, an element).
    return _BUFFER[: max(length - 2, 0)].decode("utf-16-le", "replace")


def _is_artifact(handle: object) -> bool:
    for index in range(pdfium_c.FPDFPageObj_CountMarks(handle)):
        mark = pdfium_c.FPDFPageObj_GetMark(handle, index)
        length = ctypes.c_ulong(0)
        buffer = (ctypes.c_ushort * 64)()
        if mark and pdfium_c.FPDFPageObjMark_GetName(mark, buffer, 128, ctypes.byref(length)):
            name = bytes(buffer)[: max(length.value - 2, 0)].decode("utf-16-le", "replace")
            if name == "Artifact":
                return True
    return False


def is_heading_role(role: str) -> bool:
    """Whether ``role`` is a heading's (``H1``-``H6``)."""
    return HEADING_ROLE.match(role) is not None
