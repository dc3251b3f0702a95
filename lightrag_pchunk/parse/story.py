"""Stage A: one package's reading context for the walk: styles, list counters, notes.

Input: an opened package and the body it walks. Output: :class:`Story`, shared by every
paragraph of that package (an embedded altChunk package gets its own). ``numbering.xml`` is
read on the first numbered paragraph, and only the list definitions the body or the styles
use are handed to :class:`~lightrag_pchunk.parse.numbering.NumberingDefinitions`.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from lxml import etree

from lightrag_pchunk.parse.numbering import NumberingCounter, NumberingDefinitions
from lightrag_pchunk.parse.styles import StyleSheet
from lightrag_pchunk.parse.text import InlineReader
from lightrag_pchunk.parse.xml import qn

if TYPE_CHECKING:
    from lightrag_pchunk.parse.drawings import DrawingExtractor
    from lightrag_pchunk.parse.notes import NoteBook
    from lightrag_pchunk.parse.package import DocxPackage

_NUM = qn("w:num")
_NUM_ID = qn("w:numId")
_ABSTRACT_NUM = qn("w:abstractNum")
_ABSTRACT_NUM_ID = qn("w:abstractNumId")
_NUM_STYLE_LINK = qn("w:numStyleLink")
_STYLE_LINK = qn("w:styleLink")
_VAL = qn("w:val")


class Story:
    """One package's reading context: its styles, list counters, notes and part prefix."""

    def __init__(
        self,
        package: DocxPackage,
        styles: StyleSheet,
        reader: InlineReader,
        prefix: str = "",
        body: etree._Element | None = None,
    ) -> None:
        self.package = package
        self.styles = styles
        self.reader = reader
        self.prefix = prefix
        self.body = body
        self._counter: NumberingCounter | None = None

    @classmethod
    def create(
        cls,
        package: DocxPackage,
        drawings: DrawingExtractor | None,
        notes: NoteBook | None,
        prefix: str = "",
        body: etree._Element | None = None,
    ) -> Story:
        """Read the styles of ``package`` (a missing or damaged part is a warning); ``body``
        is the content the story walks (it tells which list definitions are used)."""
        reader = InlineReader(drawings, notes)
        if notes is not None:
            notes.reader = reader
        return cls(package, StyleSheet.from_xml(package.styles()), reader, prefix, body)

    @property
    def counter(self) -> NumberingCounter:
        """Word's list counters for this package (numbering read on first use)."""
        if self._counter is None:
            styles = self.styles

            def style_num_id(style_id: str) -> int | None:
                info = styles.get(style_id)
                return info.num_id if info is not None else None

            numbering = self.package.numbering()
            if numbering is not None and self.body is not None:
                numbering = _used_definitions(numbering, self.body, self.styles)
            self._counter = NumberingCounter(NumberingDefinitions.from_xml(numbering, style_num_id))
        return self._counter


def _used_definitions(
    numbering: etree._Element, body: etree._Element, styles: StyleSheet
) -> etree._Element:
    """A ``w:numbering`` holding every ``w:num`` but only the abstract definitions that the
    body's or the styles' numIds reach, plus those taking part in style links. Templates carry
    hundreds of unused list definitions; reading them dominated the parse of such files."""
    used = {value for el in body.iter(_NUM_ID) if (value := _int_attr(el, _VAL)) is not None}
    used |= {info.num_id for info in styles.styles.values() if info.num_id is not None}
    wanted: set[str] = set()
    for num in numbering.iterchildren(_NUM):
        if _int_attr(num, _NUM_ID) in used:
            wanted.update(a.get(_VAL, "") for a in num.iterchildren(_ABSTRACT_NUM_ID))
    pruned = etree.Element(numbering.tag, nsmap=numbering.nsmap)
    for child in numbering:
        if child.tag == _ABSTRACT_NUM and not (
            child.get(_ABSTRACT_NUM_ID) in wanted
            or next(child.iterchildren(_NUM_STYLE_LINK, _STYLE_LINK), None) is not None
        ):
            continue
        if isinstance(child.tag, str):
            pruned.append(copy.deepcopy(child))
    return pruned


def _int_attr(el: etree._Element, attr: str) -> int | None:
    try:
        return int((el.get(attr) or "").strip())
    except ValueError:
        return None
