"""Stage A fast path: paragraphs made of plain runs, read without the full inline walk.

Input: a ``w:p``. Output: its text (``w:t`` in document order, tabs and breaks of runs) and its
own ``(pStyle, outlineLvl, numId, ilvl)``, or None when something in it needs the full walk of
:mod:`~lightrag_pchunk.parse.text` (drawings, math, notes, symbols, scripts, tracked deletions
...), which gives the same text for plain runs, several times slower. Most paragraphs are plain.

:class:`PlainScanner` answers from one index per part (:class:`PlainIndex`), built by a single
pass over the part's tree that only stops at the elements that matter: touching every element
of every paragraph from Python (run properties are most of them) is what made this slow.
:func:`scan_plain` is the same answer for one paragraph on its own; :func:`paragraph_props`
reads the properties of a paragraph that is not plain.
"""

from __future__ import annotations

from lxml import etree

from lightrag_pchunk.parse.xml import NS, int_val, qn

#: ``(pStyle, outlineLvl, numId, ilvl)`` of a paragraph's own ``w:pPr``; None where absent.
ParagraphProps = tuple[str | None, int | None, int | None, int | None]

_P = qn("w:p")
_R = qn("w:r")
_T = qn("w:t")
_VAL = qn("w:val")
_PSTYLE = qn("w:pStyle")
_OUTLINE_LVL = qn("w:outlineLvl")
_NUM_ID = qn("w:numId")
_ILVL = qn("w:ilvl")
_PPR = qn("w:pPr")
_NUM_PR = qn("w:numPr")
_PROPS = frozenset({_PSTYLE, _OUTLINE_LVL, _NUM_ID, _ILVL})
_BREAK_TEXT = {qn("w:tab"): "\t", qn("w:ptab"): "\t", qn("w:br"): "\n", qn("w:cr"): "\n"}
# Elements that need the full walk of a paragraph; without them its text is its w:t text.
_SPECIAL = frozenset(
    {
        qn("w:drawing"), qn("w:pict"), qn("w:object"), qn("m:oMath"), qn("m:oMathPara"),
        qn("w:footnoteReference"), qn("w:endnoteReference"), qn("w:sym"), qn("w:vertAlign"),
        qn("w:noBreakHyphen"), "{" + NS["mc"] + "}AlternateContent", qn("w:ruby"),
        qn("w:del"), qn("w:moveFrom"),
    }
)  # fmt: skip
_INDEXED = (_P, _T, *_BREAK_TEXT, *_SPECIAL, *_PROPS)
_NO_PROPS: ParagraphProps = (None, None, None, None)


def scan_plain(p: etree._Element) -> tuple[str, ParagraphProps] | None:
    """One pass over the elements of a paragraph made of plain runs: its text and its own
    style, outline level and numbering; None when anything in it needs the full walk.

    An outline level outside 0-9 or a number that is not an integer counts as absent.
    """
    parts: list[str] = []
    style_id = outline = num_id = ilvl = None
    for el in p.iter():  # unfiltered: lxml's multi-tag matching costs more than this loop
        tag = el.tag
        if tag == _T:
            parts.append(el.text or "")
        elif tag in _SPECIAL:
            return None
        elif tag in _BREAK_TEXT:
            if el.getparent().tag == _R:  # not a tab stop (w:pPr/w:tabs/w:tab)
                parts.append(_BREAK_TEXT[tag])
        elif tag in _PROPS:
            # Only the paragraph's own w:pPr counts, not the old one in w:pPrChange.
            holder = el.getparent()
            if tag in (_NUM_ID, _ILVL):
                holder = holder.getparent()
            if holder is None or holder.getparent() is not p:
                continue
            value = el.get(_VAL)
            if tag == _PSTYLE:
                style_id = value or None
            elif tag == _OUTLINE_LVL:
                outline = _outline(value)
            elif tag == _NUM_ID:
                num_id = _number(value)
            else:
                ilvl = _number(value)
    return "".join(parts), (style_id, outline, num_id, ilvl)


class PlainIndex:
    """What :func:`scan_plain` answers, for every ``w:p`` of one tree, from one pass over it.

    The pass visits only paragraphs, ``w:t``, breaks, the special elements and the four
    properties, in document order (lxml filters the rest in C). Each visited element is
    credited to every paragraph that contains it, so nested paragraphs (text boxes) read as
    :func:`scan_plain` reads them; the common case, a run directly inside a paragraph that is
    itself not nested, takes two ``getparent()`` calls.
    """

    __slots__ = ("_props", "_special", "_texts")

    def __init__(self, root: etree._Element) -> None:
        self._texts: dict[etree._Element, list[str]] = {}
        self._special: set[etree._Element] = set()
        self._props: dict[etree._Element, list] = {}
        texts = self._texts
        current: etree._Element | None = None
        parts: list[str] = []
        is_simple = False  # ``current`` is inside no other paragraph
        for el in root.iter(_INDEXED):
            tag = el.tag
            if tag == _T:
                text = el.text
                if text:
                    if is_simple and el.getparent().getparent() is current:
                        parts.append(text)
                    else:
                        self._credit(el, text)
            elif tag == _P:
                current = el
                parts = texts[el] = []
                is_simple = next(el.iterancestors(_P), None) is None
            elif tag in _BREAK_TEXT:
                parent = el.getparent()
                if parent is not None and parent.tag == _R:  # not a tab stop (w:tabs/w:tab)
                    if is_simple and parent.getparent() is current:
                        parts.append(_BREAK_TEXT[tag])
                    else:
                        self._credit(el, _BREAK_TEXT[tag])
            elif tag in _SPECIAL:
                self._special.update(el.iterancestors(_P))
            else:
                self._note_prop(el, tag)

    def scan(self, p: etree._Element) -> tuple[str, ParagraphProps] | None:
        """:func:`scan_plain` of ``p``, a paragraph of this tree (else it is scanned alone)."""
        parts = self._texts.get(p)
        if parts is None:
            return scan_plain(p)
        if p in self._special:
            return None
        props = self._props.get(p)
        return "".join(parts), (tuple(props) if props else _NO_PROPS)  # type: ignore[return-value]

    def _credit(self, el: etree._Element, text: str) -> None:
        for owner in el.iterancestors(_P):
            self._texts.setdefault(owner, []).append(text)

    def _note_prop(self, el: etree._Element, tag: str) -> None:
        # The paragraph's own w:pPr only (p/w:pPr/w:pStyle, p/w:pPr/w:numPr/w:numId), not
        # the old one in w:pPrChange; the last one in document order wins.
        holder = el.getparent()
        if holder is not None and tag in (_NUM_ID, _ILVL):
            holder = holder.getparent()
        owner = holder.getparent() if holder is not None else None
        if owner is None:
            return
        props = self._props.get(owner)
        if props is None:
            props = self._props[owner] = [None, None, None, None]
        value = el.get(_VAL)
        if tag == _PSTYLE:
            props[0] = value or None
        elif tag == _OUTLINE_LVL:
            props[1] = _outline(value)
        elif tag == _NUM_ID:
            props[2] = _number(value)
        else:
            props[3] = _number(value)


class PlainScanner:
    """:func:`scan_plain` through one :class:`PlainIndex` per tree, built on first use."""

    def __init__(self) -> None:
        self._indexes: dict[etree._Element, PlainIndex] = {}

    def scan(self, p: etree._Element) -> tuple[str, ParagraphProps] | None:
        """:func:`scan_plain` of ``p``."""
        root = p.getroottree().getroot()
        index = self._indexes.get(root)
        if index is None:
            index = self._indexes[root] = PlainIndex(root)
        return index.scan(p)


def _number(value: str | None) -> int | None:
    try:
        return int((value or "").strip())
    except ValueError:
        return None


def _outline(value: str | None) -> int | None:
    number = _number(value)
    return number if number is not None and 0 <= number <= 9 else None


def paragraph_props(p: etree._Element) -> ParagraphProps:
    """The :data:`ParagraphProps` of any paragraph, from one pass over its ``w:pPr`` (an
    outline level outside 0-9 is ignored, as styles.py does)."""
    style_id = outline = num_id = ilvl = None
    ppr = next(p.iterchildren(_PPR), None)
    if ppr is None:
        return None, None, None, None
    for prop in ppr.iterchildren(_PSTYLE, _OUTLINE_LVL, _NUM_PR):
        tag = prop.tag
        if tag == _PSTYLE:
            style_id = prop.get(_VAL) or None
        elif tag == _OUTLINE_LVL:
            value = int_val(prop)
            outline = value if value is not None and 0 <= value <= 9 else None
        else:
            for item in prop.iterchildren(_NUM_ID, _ILVL):
                if item.tag == _NUM_ID:
                    num_id = int_val(item)
                else:
                    ilvl = int_val(item)
    return style_id, outline, num_id, ilvl
