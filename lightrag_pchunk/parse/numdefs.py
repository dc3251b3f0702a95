"""Stage A: the list definitions of ``word/numbering.xml`` (ECMA-376 Part 1 §17.9.1-§17.9.27).

Input: the ``w:numbering`` root and, for ``w:numStyleLink``, the numIds of numbering styles.
Output: :class:`NumberingDefinitions`, which answers "which levels does this numId use":
each ``w:num`` is resolved to the abstractNum that owns its counters (through numStyleLink and
styleLink, cycle-safe) with its ``w:lvlOverride`` applied. Nothing is read before a numId is
asked for, and a level (``w:lvl``) only when it is used: templates define hundreds of lists
and use a few levels of a few. Malformed definitions never raise; they define nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from lxml import etree

from lightrag_pchunk.parse.numfmt import SUPPORTED_FORMATS, custom_number
from lightrag_pchunk.parse.xml import NS, qn

logger = logging.getLogger("lightrag.pchunk")

#: A numbering style id -> the numId in its ``w:pPr/w:numPr`` (from styles.xml, by the caller).
StyleNumIds = Mapping[str, int] | Callable[[str], int | str | None]

#: Levels per list: ``w:ilvl`` 0-8.
LEVELS = 9
_MAX_LINKS = 8  # numStyleLink hops followed before giving up (Word nests at most a few)
#: ST_DecimalNumber is a 32-bit int; this also bounds labels made from huge values.
MAX_NUMBER = 2**31 - 1
_OFF = {"0", "false", "off"}
_MC = NS["mc"]
# Clark names, computed once: these are looked up for every level and list definition read.
_VAL = qn("w:val")
_FORMAT = qn("w:format")
_NULL = qn("w:null")
_ILVL = qn("w:ilvl")
_LVL = qn("w:lvl")
_NUM = qn("w:num")
_NUM_ID = qn("w:numId")
_NUM_FMT = qn("w:numFmt")
_LVL_TEXT = qn("w:lvlText")
_RPR = qn("w:rPr")
_RPR_RFONTS = f"{_RPR}/{qn('w:rFonts')}"
_FONT_ATTRS = (qn("w:ascii"), qn("w:hAnsi"), qn("w:cs"), qn("w:eastAsia"))
_START = qn("w:start")
_LVL_RESTART = qn("w:lvlRestart")
_IS_LGL = qn("w:isLgl")
_SUFF = qn("w:suff")
_PSTYLE = qn("w:pStyle")
_PIC_BULLET = qn("w:lvlPicBulletId")
_ABSTRACT_NUM = qn("w:abstractNum")
_ABSTRACT_NUM_ID = qn("w:abstractNumId")
_NUM_STYLE_LINK = qn("w:numStyleLink")
_STYLE_LINK = qn("w:styleLink")
_LVL_OVERRIDE = qn("w:lvlOverride")
_START_OVERRIDE = qn("w:startOverride")
_ALTERNATE = f"{{{_MC}}}AlternateContent"
_CHOICE = f"{{{_MC}}}Choice"
_FALLBACK_NUM_FMT = f"{{{_MC}}}Fallback/{_NUM_FMT}"


def _val(el: etree._Element | None) -> str | None:
    return None if el is None else el.get(_VAL)


def decimal_number(value: object) -> int | None:
    """An ST_DecimalNumber as an int clamped to 32 bits; None when it is not a number."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return max(-MAX_NUMBER, min(MAX_NUMBER, number))


def _on(el: etree._Element | None) -> bool:
    return el is not None and (_val(el) or "1").lower() not in _OFF


def _first_children(el: etree._Element) -> dict[object, etree._Element]:
    """The first child of each tag (what ``el.find(tag)`` returns), in one pass."""
    found: dict[object, etree._Element] = {}
    for child in el:
        found.setdefault(child.tag, child)
    return found


@dataclass(frozen=True, slots=True)
class Level:
    """One numbering level (``w:lvl``); defaults are the standard's for absent elements."""

    start: int = 0
    num_fmt: str = "decimal"
    custom: str = ""  # w14 numFmt "custom": the w:format sample
    text: str | None = None  # w:lvlText/@w:val; None when absent (Word shows nothing)
    restart: int | None = None  # w:lvlRestart/@w:val
    is_lgl: bool = False
    suffix: str = "tab"  # w:suff: tab | space | nothing
    pstyle: str | None = None
    font: str = ""  # lower-cased w:rPr/w:rFonts name, for symbol-font bullets
    is_picture: bool = False  # w:lvlPicBulletId: rendered "•"


def _num_fmt(direct: etree._Element | None, alt: etree._Element | None) -> tuple[str, str]:
    """(numFmt, custom sample) from a level's ``w:numFmt``, else its mc:AlternateContent
    (Word 2010 custom formats)."""
    if direct is not None:
        return _val(direct) or "decimal", direct.get(_FORMAT) or ""
    if alt is None:
        return "decimal", ""
    for choice in alt.iterchildren(_CHOICE):
        el = choice.find(_NUM_FMT)
        fmt, custom = _val(el) or "", (el.get(_FORMAT) if el is not None else "") or ""
        if fmt == "custom" and custom_number(1, custom) is not None:
            return fmt, custom
        if fmt and fmt != "custom":
            return fmt, ""
    fallback = alt.find(_FALLBACK_NUM_FMT)
    return _val(fallback) or "decimal", ""


def _parse_level(lvl: etree._Element) -> Level:
    props = _first_children(lvl)
    fmt, custom = _num_fmt(props.get(_NUM_FMT), props.get(_ALTERNATE))
    text_el = props.get(_LVL_TEXT)
    text = _val(text_el)
    if text_el is not None and text_el.get(_NULL, "").lower() in {"1", "true", "on"}:
        text = ""
    fonts = lvl.find(_RPR_RFONTS) if _RPR in props else None
    font = ""
    if fonts is not None:
        for attr in _FONT_ATTRS:
            if fonts.get(attr):
                font = fonts.get(attr, "").strip().lower()
                break
    # Absent w:start means 0 (§17.9.26); a malformed one falls back to the usual 1.
    start_el = props.get(_START)
    start = decimal_number(_val(start_el)) if start_el is not None else 0
    restart_el = props.get(_LVL_RESTART)
    return Level(
        start=1 if start is None else max(0, start),
        num_fmt=fmt,
        custom=custom,
        text=text,
        restart=decimal_number(_val(restart_el)) if restart_el is not None else None,
        is_lgl=_on(props.get(_IS_LGL)),
        suffix=(_val(props.get(_SUFF)) or "tab"),
        pstyle=_val(props.get(_PSTYLE)),
        font=font,
        is_picture=props.get(_PIC_BULLET) is not None,
    )


class _LazyLevels:
    """The ``w:lvl`` elements of one abstractNum by ilvl (the first of each wins), each parsed
    on first access: lists are mostly used at a few of their nine levels."""

    __slots__ = ("_elements", "_on_parse", "_parsed")

    def __init__(self, abstract: etree._Element, on_parse: Callable[[Level], None]) -> None:
        self._elements: dict[int, etree._Element] = {}
        for lvl in abstract.iterchildren(_LVL):
            ilvl = decimal_number(lvl.get(_ILVL))
            if ilvl is not None and 0 <= ilvl < LEVELS and ilvl not in self._elements:
                self._elements[ilvl] = lvl
        self._parsed: dict[int, Level | None] = {}
        self._on_parse = on_parse

    def get(self, ilvl: int) -> Level | None:
        if ilvl not in self._parsed:
            el = self._elements.get(ilvl)
            level = None if el is None else _parse_level(el)
            if level is not None:
                self._on_parse(level)
            self._parsed[ilvl] = level
        return self._parsed[ilvl]


class ListInstance:
    """A ``w:num`` resolved: whose counters it drives, and its levels with overrides applied."""

    __slots__ = ("_base", "_replaced", "_starts", "key", "overridden")

    def __init__(
        self, key: str, base: _LazyLevels, replaced: dict[int, Level], starts: dict[int, int]
    ) -> None:
        self.key = key  # the resolved abstractNumId: owner of the counters
        self.overridden = frozenset(starts) | frozenset(replaced)  # restarted on first use
        self._base = base
        self._replaced = replaced
        self._starts = starts  # startOverride values

    def level(self, ilvl: int) -> Level | None:
        """The level definition (a replacing ``w:lvlOverride/w:lvl`` wins), or None."""
        return self._replaced.get(ilvl) or self._base.get(ilvl)

    def start(self, ilvl: int) -> int:
        """The effective start value (``w:startOverride`` wins; 0 for an undefined level)."""
        if ilvl in self._starts:
            return self._starts[ilvl]
        lvl = self.level(ilvl)
        return lvl.start if lvl is not None else 0


class NumberingDefinitions:
    """Every ``w:num`` of a numbering part, resolved through numStyleLink and lvlOverride.

    Built by :meth:`from_xml`; a ``w:num`` and its abstractNum are read on first use.
    """

    def __init__(
        self, root: etree._Element | None = None, style_num_ids: StyleNumIds | None = None
    ) -> None:
        self._style_num_ids = style_num_ids
        # The first abstractNum / w:num of an id wins; a w:num without abstractNumId is skipped.
        self._abstract_els: dict[str, etree._Element] = {}
        self._num_els: dict[int, tuple[str, etree._Element]] = {}
        self._levels: dict[str, _LazyLevels] = {}
        self._links: dict[str, tuple[str | None, str | None]] = {}
        self._instances: dict[int, ListInstance | None] = {}
        self._warned: set[str] = set()
        if root is None:
            return
        for el in root.iterchildren(_ABSTRACT_NUM):
            aid = el.get(_ABSTRACT_NUM_ID)
            if aid is not None and aid not in self._abstract_els:
                self._abstract_els[aid] = el
        for el in root.iterchildren(_NUM):
            num_id = decimal_number(el.get(_NUM_ID))
            aid = _val(el.find(_ABSTRACT_NUM_ID))
            if num_id is not None and aid is not None and num_id not in self._num_els:
                self._num_els[num_id] = (aid, el)

    @classmethod
    def from_xml(
        cls, root: etree._Element | None, style_num_ids: StyleNumIds | None = None
    ) -> NumberingDefinitions:
        """Index ``w:numbering`` (``None`` -> no numbering).

        ``style_num_ids`` maps a numbering style id to the numId of its ``w:numPr``
        (styles.xml); it resolves ``w:numStyleLink``. Without it, or when it has no answer,
        the abstractNum whose ``w:styleLink`` names the style is used.
        """
        return cls(root, style_num_ids)

    def level(self, num_id: int, ilvl: int) -> Level | None:
        """The level definition a paragraph with this numId/ilvl uses, overrides applied."""
        inst = self.instance(num_id)
        ilvl = decimal_number(ilvl)
        if inst is None or ilvl is None or not 0 <= ilvl < LEVELS:
            return None
        return inst.level(ilvl)

    def level_for_style(self, num_id: int, style_id: str) -> int | None:
        """The ilvl whose ``w:pStyle`` is ``style_id`` (a list linked to heading styles)."""
        inst = self.instance(num_id)
        if inst is None or not style_id:
            return None
        for ilvl in range(LEVELS):
            lvl = inst.level(ilvl)
            if lvl is not None and lvl.pstyle == style_id:
                return ilvl
        return None

    # -- lazy reading --------------------------------------------------------------------------

    def instance(self, num_id: object) -> ListInstance | None:
        """The resolved ``w:num`` with this numId (read on first use), or None."""
        key = decimal_number(num_id) or 0
        if key not in self._instances:
            self._instances[key] = self._read_instance(key)
        return self._instances[key]

    def _read_instance(self, num_id: int) -> ListInstance | None:
        entry = self._num_els.get(num_id)
        if entry is None:
            return None
        aid, el = entry
        key = self._resolve(aid, frozenset())
        if key is None:
            return None
        starts: dict[int, int] = {}
        replaced: dict[int, Level] = {}
        for override in el.iterchildren(_LVL_OVERRIDE):
            ilvl = decimal_number(override.get(_ILVL))
            if ilvl is None or not 0 <= ilvl < LEVELS:
                continue
            start = decimal_number(_val(override.find(_START_OVERRIDE)))
            if start is not None:
                starts[ilvl] = max(0, start)
            lvl = override.find(_LVL)
            if lvl is not None:
                replaced[ilvl] = _parse_level(lvl)
                self._note_format(replaced[ilvl])
        if key not in self._levels:
            self._levels[key] = _LazyLevels(self._abstract_els[key], self._note_format)
        return ListInstance(key, self._levels[key], replaced, starts)

    def _link(self, aid: str) -> tuple[str | None, str | None]:
        """``(numStyleLink, styleLink)`` of an abstractNum."""
        if aid not in self._links:
            el = self._abstract_els[aid]
            self._links[aid] = (_val(el.find(_NUM_STYLE_LINK)), _val(el.find(_STYLE_LINK)))
        return self._links[aid]

    def _resolve(self, aid: str, seen: frozenset[str]) -> str | None:
        """abstractNum -> the abstractNum that holds its levels, following numStyleLink."""
        if aid not in self._abstract_els or aid in seen or len(seen) > _MAX_LINKS:
            return None
        num_style_link = self._link(aid)[0]
        if num_style_link:
            target = self._linked(num_style_link, seen | {aid})
            if target is not None:
                return target
            logger.debug(
                "numbering: numStyleLink %r of abstractNum %s unresolved", num_style_link, aid
            )
        return aid

    def _linked(self, style: str, seen: frozenset[str]) -> str | None:
        num_id = self._style_num_id(style)
        if num_id is not None and num_id in self._num_els:
            target = self._resolve(self._num_els[num_id][0], seen)
            if target is not None and target not in seen:
                return target
        for aid in self._abstract_els:
            num_style_link, style_link = self._link(aid)
            if style_link == style and aid not in seen and not num_style_link:
                return aid
        return None

    def _style_num_id(self, style: str) -> int | None:
        if self._style_num_ids is None:
            return None
        if isinstance(self._style_num_ids, Mapping):
            return decimal_number(self._style_num_ids.get(style))
        return decimal_number(self._style_num_ids(style))

    def _note_format(self, level: Level) -> None:
        fmt = level.num_fmt
        if fmt not in SUPPORTED_FORMATS and fmt != "custom" and fmt not in self._warned:
            self._warned.add(fmt)
            logger.warning("numbering: numFmt %r not supported, rendered as decimal", fmt)
