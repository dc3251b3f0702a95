"""Stage A: one package's reading context for the walk: styles, list counters, notes.

Input: an opened package and the body it walks. Output: :class:`Story`, shared by every
paragraph of that package (an embedded altChunk package gets its own). ``numbering.xml`` is
read on the first numbered paragraph, and of it only the list definitions paragraphs use
(:class:`~lightrag_pchunk.parse.numbering.NumberingDefinitions` reads them lazily).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from lightrag_pchunk.parse.numbering import NumberingCounter
from lightrag_pchunk.parse.numdefs import NumberingDefinitions
from lightrag_pchunk.parse.styles import StyleSheet
from lightrag_pchunk.parse.text import InlineReader

if TYPE_CHECKING:
    from lightrag_pchunk.parse.drawings import DrawingExtractor
    from lightrag_pchunk.parse.notes import NoteBook
    from lightrag_pchunk.parse.package import DocxPackage


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
        is the content the story walks."""
        reader = InlineReader(drawings, notes)
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
            self._counter = NumberingCounter(NumberingDefinitions.from_xml(numbering, style_num_id))
        return self._counter

    def list_label(self, num_id: int | None, ilvl: int | None, style_id: str | None) -> str:
        """The list label and its separator ("1. ", "第一章"), or "". ``numId`` and ``ilvl`` come
        from the paragraph, else separately from its style chain; counters always advance, for
        empty numbered paragraphs too, as Word counts them."""
        if num_id is None or ilvl is None:
            inherited = self.styles.numbering_of(style_id)
            if inherited is not None:
                num_id = inherited[0] if num_id is None else num_id
                ilvl = inherited[1] if ilvl is None else ilvl
        if not num_id:  # None, or 0: numbering removed
            return ""
        if ilvl is None:
            ilvl = self.counter.level_for_style(num_id, style_id or "")
        ilvl = 0 if ilvl is None else ilvl
        label = self.counter.label(num_id, ilvl)
        return label + self.counter.separator(num_id, ilvl) if label else ""
