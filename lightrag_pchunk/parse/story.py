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
