"""Stage A: ``styles.xml`` -> the outline level (heading 0-8, or body) of each paragraph.

Input: the parsed ``w:styles`` root (or None) and each paragraph's ``w:pPr``. Output: an outline
level 0-8 (level 1-9 in ``.blocks.jsonl``), or None for body text. Invariant: LightRAG's result
is kept wherever a ``w:outlineLvl`` decides; names only fill in where no outline level is set.

Resolution for a style, nearest first, through the ``w:basedOn`` chain (any depth, cycle-safe,
memoised):

1. its own ``w:pPr/w:outlineLvl`` (0-8 heading; 9 body text, final);
2. its name: "TOC Heading" (and localised) is body, final; a built-in heading name
   ("heading 1".."heading 9" in any case, or a localised one: 标题 1, Überschrift 1, Titre 1,
   Título 1, Titolo 1, Заголовок 1, 見出し 1, Kop 1, Nagłówek 1, Rubrik 1, Overskrift 1 …) gives
   its level. Word stores built-in names in English, but other writers store localised ones and
   may omit ``w:outlineLvl``; Word itself treats the built-in headings as outline levels anyway;
3. a style id Word derives from those names (``Heading1``, ``berschrift1``, ``Titre1`` …), used
   when the name says nothing, and for a ``w:pStyle`` or ``w:basedOn`` naming a missing style;
4. its parent's level. A chain ending without a level (or in a cycle) is body text.

A paragraph's own ``w:outlineLvl`` overrides its style (9 = body, final); without a
``w:pStyle`` the default paragraph style applies, and a ``w:pStyle`` naming an undefined style
is recognised by its id, else falls back to the default paragraph style (as Word does).

Decisions: "Title" and "Subtitle" are body text unless they carry or inherit an outline level,
as in Word's navigation pane and in LightRAG (a title is not a section); :meth:`title_kind` lets
the walk use them for ``doc_title``. "TOC Heading" is body (LightRAG: outlineLvl 9), even when a
writer left out its outline level and based it on Heading 1. Styles that only carry an outline
level (Chinese standard templates: 章标题, 一级条标题) work through step 1. Invalid
``w:outlineLvl`` values (not 0-9) are ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

from lxml import etree

from lightrag_pchunk.parse.style_look import StyleLook, read_look
from lightrag_pchunk.parse.style_names import (
    builtin_heading_level,
    is_toc_entry_style,
    is_toc_heading,
    title_kind_of,
)
from lightrag_pchunk.parse.xml import int_val, qn

_BODY = 9
_V = TypeVar("_V")
# Clark names, computed once: every style of every document is read with them.
_STYLE = qn("w:style")
_STYLE_ID = qn("w:styleId")
_TYPE = qn("w:type")
_DEFAULT = qn("w:default")
_NAME = qn("w:name")
_BASED_ON = qn("w:basedOn")
_PPR = qn("w:pPr")
_PSTYLE = qn("w:pStyle")
_NUM_PR = qn("w:numPr")
_NUM_ID = qn("w:numId")
_ILVL = qn("w:ilvl")
_OUTLINE_LVL = qn("w:outlineLvl")
_VAL = qn("w:val")
_RPR = qn("w:rPr")
_DOC_DEFAULTS = qn("w:docDefaults")


@dataclass(frozen=True, slots=True)
class StyleInfo:
    """One ``w:style``: its own settings, nothing inherited.

    ``outline_level`` is its ``w:outlineLvl`` (0-9) or None; ``num_id``/``ilvl`` come from its
    ``w:numPr`` (None when absent); ``type`` defaults to "paragraph" as ECMA-376 does.
    """

    style_id: str
    name: str
    type: str
    based_on: str | None
    outline_level: int | None
    num_id: int | None
    ilvl: int | None
    is_default: bool
    look: StyleLook | None = None


class StyleSheet:
    """The paragraph styles of one document, with memoised outline-level resolution."""

    def __init__(
        self,
        styles: dict[str, StyleInfo],
        default_paragraph_style: str | None,
        defaults: StyleLook | None = None,
    ) -> None:
        self.styles = styles
        self.default_paragraph_style = default_paragraph_style
        self.defaults = defaults or StyleLook()
        self._looks: dict[str, StyleLook] = {}
        self._toc: dict[str, bool] = {}
        self._titles: dict[str, str | None] = {}
        self._folded = {sid.lower(): sid for sid in reversed(list(styles))}
        self._levels: dict[str, int | None] = {}
        self._numbering: dict[str, tuple[int | None, int | None]] = {}

    @classmethod
    def from_xml(cls, root: etree._Element | None) -> StyleSheet:
        """Read ``w:styles``; None (no styles part) gives an empty sheet."""
        styles: dict[str, StyleInfo] = {}
        default = None
        if root is None:
            return cls(styles, None)
        defaults = StyleLook()
        doc_defaults = root.find(_DOC_DEFAULTS)
        if doc_defaults is not None:
            defaults = read_look(
                next(doc_defaults.iter(_RPR), None), next(doc_defaults.iter(_PPR), None)
            )
        for el in root.iter(_STYLE):
            sid = el.get(_STYLE_ID)
            if not sid:
                continue
            # Ids should be unique; of duplicates the last wins, as in LightRAG (real files
            # repeat a style with its outline level and numbering only in the last copy).
            info = _style_info(el, sid)
            styles.pop(sid, None)
            styles[sid] = info
            if info.is_default and info.type == "paragraph":
                default = sid  # the last default wins (ECMA-376 §17.7.4.17)
        return cls(styles, default, defaults)

    def get(self, style_id: str | None) -> StyleInfo | None:
        """The style with this id (exact, else case-insensitive), or None."""
        if not style_id:
            return None
        info = self.styles.get(style_id)
        if info is None and style_id.lower() in self._folded:
            info = self.styles[self._folded[style_id.lower()]]
        return info

    def effective_outline_level(self, style_id: str | None) -> int | None:
        """Outline level 0-8 of a paragraph style through its basedOn chain; None = body."""
        if not style_id:
            return None
        level = self._resolve(style_id)
        return None if level is None or level >= _BODY else level

    def outline_level(self, own: int | None, style_id: str | None) -> int | None:
        """Outline level 0-8 of a paragraph whose own ``w:outlineLvl`` is ``own`` (0-9 or
        None) in the style ``style_id``: its own level wins over its style's, and 9 is body
        text, final (None = body text)."""
        if own is not None:
            return None if own >= _BODY else own
        return self.effective_outline_level(style_id)

    def numbering_of(self, style_id: str | None) -> tuple[int, int | None] | None:
        """``(numId, ilvl)`` a paragraph style gives through its basedOn chain, or None.

        ``numId`` and ``ilvl`` are each taken from the nearest style that sets them; ``ilvl``
        is None when none does (Word then uses the numbering level whose ``w:pStyle`` names the
        style, else level 0). ``numId`` 0 removes numbering, so gives None.
        """
        if not style_id:
            return None
        num_id, ilvl = self._inherit(style_id, self._numbering, _own_numbering, _nearer_each)
        return (num_id, ilvl) if num_id else None

    def title_kind(self, style_id: str | None) -> Literal["title", "subtitle"] | None:
        """The Title or Subtitle kind of a style (or of one it is based on), else None."""
        if not style_id:
            return None
        return self._inherit(style_id, self._titles, _own_title, _nearer)

    def look_of(self, style_id: str | None, *, defaults: bool = True) -> StyleLook:
        """The formatting a paragraph or character style gives through its basedOn chain,
        the document defaults filling in what no style sets unless ``defaults`` is false
        (a character style: the paragraph's formatting comes before the defaults)."""
        if not style_id:
            return self.defaults if defaults else StyleLook()
        look = self._inherit(style_id, self._looks, _own_look, _nearer_look)
        return look.over(self.defaults) if defaults else look

    def is_toc_style(self, style_id: str | None) -> bool:
        """True for Word's "toc 1".."toc 9" styles (or one based on them), by name."""
        if not style_id:
            return False
        return self._inherit(style_id, self._toc, _own_toc, _either)

    def toc_level(self, style_id: str | None) -> int:
        """The level of a "toc N" style (1-9) by its own name, else 0."""
        info = self.get(style_id)
        name = (info.name or info.style_id).strip() if info else ""
        return int(name[-1]) if name and is_toc_entry_style(name) else 0

    def _inherit(
        self,
        style_id: str,
        memo: dict[str, _V],
        own: Callable[[StyleInfo | None], _V],
        merge: Callable[[_V, _V | None], _V],
    ) -> _V:
        """``merge(own(style), <the same for its parent>)`` over the basedOn chain, memoised
        for every style on it, so a chain is walked once however many paragraphs use it (a
        50,000-style chain costs 50,000 steps, not one walk per style). A cycle or a missing
        id ends the chain; a style reached again inside a cycle keeps the value it got on
        the way down."""
        if style_id in memo:  # most paragraphs use a style some paragraph before them used
            return memo[style_id]
        chain: list[StyleInfo] = []
        seen: set[str] = set()
        value = None
        info = self.get(style_id)
        while info is not None and info.style_id not in seen:
            if info.style_id in memo:
                value = memo[info.style_id]
                break
            seen.add(info.style_id)
            chain.append(info)
            info = self.get(info.based_on)
        for info in reversed(chain):
            value = merge(own(info), value)
            memo[info.style_id] = value
        if value is None:  # not a style of this sheet at all
            value = merge(own(None), None)
        return value

    def _resolve(self, style_id: str) -> int | None:
        """Level 0-9 (9 = body, final) or None, memoised for every style on the chain."""
        if style_id in self._levels:
            return self._levels[style_id]
        visited: dict[str, None] = {}  # insertion-ordered, O(1) membership
        level: int | None = None
        current: str | None = style_id
        while current is not None:
            if current in self._levels:
                level = self._levels[current]
                break
            if current in visited:  # a basedOn cycle: no level from it
                break
            visited[current] = None
            info = self.get(current)
            if info is None:
                # A missing style: its id may still name a built-in heading; else Word falls
                # back to the default paragraph style (for the paragraph's own style only).
                level = builtin_heading_level(current)
                if current != style_id:
                    del visited[current]  # its own answer (as a pStyle) may differ: not memoised
                elif level is None and self.default_paragraph_style:
                    default = self.get(self.default_paragraph_style)
                    level = None if default is None else self._resolve(default.style_id)
                break
            if info.type != "paragraph":
                break
            level = _own_level(info)
            if level is not None:
                break
            current = info.based_on
        for sid in visited:
            self._levels[sid] = level
        return level


def _own_level(info: StyleInfo) -> int | None:
    """The level a style sets by itself (0-9), or None when it inherits."""
    if info.outline_level is not None:
        return info.outline_level
    if is_toc_heading(info.name) or is_toc_heading(info.style_id):
        return _BODY
    if info.name:
        level = builtin_heading_level(info.name)
        if level is not None:
            return level
    return builtin_heading_level(info.style_id)


def _own_numbering(info: StyleInfo | None) -> tuple[int | None, int | None]:
    return (info.num_id, info.ilvl) if info is not None else (None, None)


def _nearer_each(
    near: tuple[int | None, int | None], far: tuple[int | None, int | None] | None
) -> tuple[int | None, int | None]:
    """Each of ``(numId, ilvl)`` from the nearest style that sets it."""
    if far is None:
        return near
    return (near[0] if near[0] is not None else far[0], near[1] if near[1] is not None else far[1])


def _own_title(info: StyleInfo | None) -> str | None:
    return None if info is None else title_kind_of(info.name or info.style_id)


def _nearer(near: str | None, far: str | None) -> str | None:
    return near if near is not None else far


def _own_look(info: StyleInfo | None) -> StyleLook:
    return info.look if info is not None and info.look is not None else StyleLook()


def _nearer_look(near: StyleLook, far: StyleLook | None) -> StyleLook:
    """What the nearer style sets wins."""
    return near if far is None else near.over(far)


def _own_toc(info: StyleInfo | None) -> bool:
    return info is not None and is_toc_entry_style(info.name or info.style_id)


def _either(near: bool, far: bool | None) -> bool:
    return near or bool(far)


def _style_info(el: etree._Element, sid: str) -> StyleInfo:
    # One pass over the children instead of a find() per property (find is slow in lxml);
    # the first child of a kind counts, as find() would have it.
    name_el = based_el = ppr = rpr = None
    for child in el:
        tag = child.tag
        if tag == _NAME:
            name_el = name_el if name_el is not None else child
        elif tag == _BASED_ON:
            based_el = based_el if based_el is not None else child
        elif tag == _PPR:
            ppr = ppr if ppr is not None else child
        elif tag == _RPR:
            rpr = rpr if rpr is not None else child
    num_pr = outline_el = None
    for child in () if ppr is None else ppr:
        tag = child.tag
        if tag == _NUM_PR:
            num_pr = num_pr if num_pr is not None else child
        elif tag == _OUTLINE_LVL:
            outline_el = outline_el if outline_el is not None else child
    num_id = ilvl = None
    if num_pr is not None:
        num_id = int_val(num_pr.find(_NUM_ID))
        ilvl = int_val(num_pr.find(_ILVL))
    return StyleInfo(
        style_id=sid,
        name=(name_el.get(_VAL) or "") if name_el is not None else "",
        type=el.get(_TYPE) or "paragraph",
        based_on=(based_el.get(_VAL) or None) if based_el is not None else None,
        outline_level=_outline_value(outline_el),
        num_id=num_id,
        ilvl=ilvl,
        is_default=el.get(_DEFAULT) in ("1", "true", "on"),
        look=read_look(rpr, ppr) if rpr is not None or ppr is not None else None,
    )


def _outline_value(el: etree._Element | None) -> int | None:
    value = int_val(el)
    return value if value is not None and 0 <= value <= _BODY else None
