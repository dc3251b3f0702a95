"""The formatting a style (or the document defaults) sets itself, as the smart outline reads
it: bold, size, capitals, centring and italic, each None where the style inherits it."""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from lightrag_pchunk.parse.xml import int_val, qn

_VAL = qn("w:val")
_BOLD = qn("w:b")
_SIZE = qn("w:sz")
_CAPS = qn("w:caps")
_ITALIC = qn("w:i")
_JC = qn("w:jc")
#: ``w:val`` values that switch an on/off property off (ECMA-376 ST_OnOff).
OFF_VALUES = frozenset({"0", "false", "off", "none"})


@dataclass(frozen=True, slots=True)
class StyleLook:
    """Formatting a style (or the document defaults) sets itself; None where it inherits.

    ``size`` is in half-points (``w:sz``), ``centered`` from ``w:jc``.
    """

    bold: bool | None = None
    size: int | None = None
    caps: bool | None = None
    centered: bool | None = None
    italic: bool | None = None

    def over(self, base: StyleLook) -> StyleLook:
        """This look with what it leaves unset taken from ``base``."""
        return StyleLook(
            base.bold if self.bold is None else self.bold,
            base.size if self.size is None else self.size,
            base.caps if self.caps is None else self.caps,
            base.centered if self.centered is None else self.centered,
            base.italic if self.italic is None else self.italic,
        )


def on_off(el: etree._Element | None) -> bool | None:
    """An ST_OnOff property: None when absent, else whether it is on (no w:val = on)."""
    if el is None:
        return None
    return (el.get(_VAL) or "1").strip().lower() not in OFF_VALUES


def read_look(rpr: etree._Element | None, ppr: etree._Element | None) -> StyleLook:
    """The bold, size, capitals and italic a ``w:rPr`` sets, the centring a ``w:pPr`` sets."""
    bold = size = caps = centered = italic = None
    if rpr is not None:
        for child in rpr:
            tag = child.tag
            if tag == _BOLD:
                bold = on_off(child)
            elif tag == _SIZE:
                size = int_val(child)
            elif tag == _CAPS:
                caps = on_off(child)
            elif tag == _ITALIC:
                italic = on_off(child)
    if ppr is not None:
        jc = ppr.find(_JC)
        if jc is not None:
            centered = (jc.get(_VAL) or "") == "center"
    return StyleLook(bold, size, caps, centered, italic)
