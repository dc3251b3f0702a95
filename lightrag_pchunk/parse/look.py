"""Stage A, smart outline: how a paragraph looks (bold, size, centring, capitals; a line
underlined by its own formatting counts as bold: both set it apart; a link's does not).

Input: a ``w:p`` and its package's :class:`~lightrag_pchunk.parse.styles.StyleSheet`.
Output: an :class:`~lightrag_pchunk.outline.infer.Look`. Formatting is resolved as Word
does for these properties: the run's own ``w:rPr``, else its character style, else the
paragraph style chain, else the document defaults (``w:docDefaults``). Text boxes inside
the paragraph are not its text. Only the smart outline asks, and only for paragraphs that
could be headings, plus a sample of long ones to learn the body text size.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from lxml import etree

from lightrag_pchunk.outline.infer import Look
from lightrag_pchunk.parse.style_look import on_off, read_look
from lightrag_pchunk.parse.styles import StyleSheet
from lightrag_pchunk.parse.toc_marks import is_field
from lightrag_pchunk.parse.xml import qn

_R = qn("w:r")
_T = qn("w:t")
_RPR = qn("w:rPr")
_PPR = qn("w:pPr")
_VAL = qn("w:val")
_R_STYLE = qn("w:rStyle")
_UNDERLINE = qn("w:u")
_HYPERLINK = qn("w:hyperlink")
_FLD_SIMPLE = qn("w:fldSimple")
_INSTR_ATTR = qn("w:instr")
_FLD_CHAR = qn("w:fldChar")
_FLD_TYPE = qn("w:fldCharType")
_INSTR = qn("w:instrText")
# Not the paragraph's own text: text boxes, deleted runs, field instructions.
_SKIP = frozenset({qn("w:txbxContent"), qn("w:del"), qn("w:moveFrom"), _PPR})
#: Share of a paragraph's characters that must be bold (or capitals) for the line to be.
_WHOLE_LINE = 0.8
#: Longest line checked for being typed in capitals.
_CAPS_CHECK_CHARS = 200
#: Word's size when nothing sets one: 10 pt.
_DEFAULT_HALF_POINTS = 20


@dataclass(slots=True)
class _Field:
    """A complex field open around a run: its instruction so far, whether its result (the
    runs after its ``separate`` mark) has begun, and whether that result is a link (read
    once, at the mark: the instruction is whole by then)."""

    instruction: str = ""
    shown: bool = False
    link: bool = False


def _runs(element: etree._Element, linked: bool = False, fields: list[_Field] | None = None):
    """The runs of ``element``'s own text, each with whether it sits in a hyperlink (however
    deep: a tracked insertion or a content control inside the link): a ``w:hyperlink``, or
    the result of a HYPERLINK field, simple (``w:fldSimple``) or complex (the runs between
    its ``separate`` and ``end`` marks; ``fields``: the complex fields open)."""
    fields = [] if fields is None else fields
    for child in element:
        tag = child.tag
        if tag == _R:
            _read_field_marks(child, fields)
            yield child, linked or _in_link_result(fields)
        elif tag == _FLD_SIMPLE:
            simple_link = is_field(child.get(_INSTR_ATTR) or "", "HYPERLINK")
            yield from _runs(child, linked or simple_link, fields)
        elif tag not in _SKIP and isinstance(tag, str):
            yield from _runs(child, linked or tag == _HYPERLINK, fields)


def _read_field_marks(run: etree._Element, fields: list[_Field]) -> None:
    """Open, name, separate and close the complex fields as ``run``'s marks say."""
    for el in run:
        if el.tag == _INSTR and fields and not fields[-1].shown:
            fields[-1].instruction += el.text or ""
        elif el.tag == _FLD_CHAR:
            kind = el.get(_FLD_TYPE)
            if kind == "begin":
                fields.append(_Field())
            elif kind == "separate" and fields:
                fields[-1].shown = True
                fields[-1].link = is_field(fields[-1].instruction, "HYPERLINK")
            elif kind == "end" and fields:
                fields.pop()


def _in_link_result(fields: list[_Field]) -> bool:
    return any(field.link for field in fields)


def paragraph_look(p: etree._Element, styles: StyleSheet, style_id: str | None) -> Look:
    """The look of ``p`` (its style id already resolved by the walk)."""
    base = styles.look_of(style_id)
    centered = bool(read_look(None, next(p.iterchildren(_PPR), None)).over(base).centered)
    total = bold = caps = italic = 0
    sizes: Counter[int] = Counter()
    letters: list[str] = []
    for run, linked in _runs(p):
        text = "".join(t.text or "" for t in run.iterchildren(_T))
        count = len(text.strip())
        if not count:
            continue
        rpr = next(run.iterchildren(_RPR), None)
        look = base
        if rpr is not None:
            # The run's own formatting, then its character style, then the paragraph's.
            char_style = rpr.find(_R_STYLE)
            if char_style is not None:
                look = styles.look_of(char_style.get(_VAL), defaults=False).over(base)
            look = read_look(rpr, None).over(look)
        run_bold, run_size, run_caps = look.bold, look.size, look.caps
        total += count
        bold += count if run_bold or (not linked and _underlined(rpr)) else 0
        caps += count if run_caps else 0
        italic += count if look.italic else 0
        sizes[run_size or _DEFAULT_HALF_POINTS] += count
        letters.append(text)
    if not total:
        return Look(centered=centered)
    joined = "".join(letters)
    # Typed in capitals: only a short line matters (a heading), and a long one is costly.
    typed_caps = False
    if len(joined) <= _CAPS_CHECK_CHARS:
        upper = [ch for ch in joined if ch.isalpha() and ch.isascii()]
        typed_caps = len(upper) >= 3 and all(ch.isupper() for ch in upper)
    return Look(
        bold=bold >= _WHOLE_LINE * total,
        size=sizes.most_common(1)[0][0] / 2,
        centered=centered,
        caps=caps >= _WHOLE_LINE * total or typed_caps,
        italic=italic >= _WHOLE_LINE * total,
    )


def _underlined(rpr: etree._Element | None) -> bool:
    """Whether a run's own formatting ``rpr`` underlines it: a line set apart as bold sets
    it (a typed document's titles are underlined). Not asked of a link's run (a
    ``w:hyperlink``'s or a HYPERLINK field's: :func:`_runs`), nor is a link's character
    style read: a link's underline sets nothing apart."""
    return rpr is not None and bool(on_off(rpr.find(_UNDERLINE)))
