"""List and heading numbers from ``word/numbering.xml`` (ECMA-376 Part 1 §17.9), as Word shows them.

Input: :class:`~lightrag_pchunk.parse.numdefs.NumberingDefinitions` (the lists, read lazily)
and every numbered paragraph's numId/ilvl in document order. Output: each paragraph's label
("1.2.3", "第一章", "(a)", "•") from :class:`NumberingCounter`; number formats and bullet
glyphs are :mod:`~lightrag_pchunk.parse.numfmt`'s. Malformed input never raises: a definition
that cannot be used yields no label.

Word semantics kept (Word's deviations from the standard per [MS-OI29500]):
- Counters belong to the resolved abstractNum, so every ``w:num`` that references it continues
  one sequence. The first paragraph of a ``w:num`` with a ``w:lvlOverride`` (``startOverride``
  or a replacement ``w:lvl``) restarts the overridden levels, and deeper ones, at the override.
- A level restarts when a shallower level is used; ``w:lvlRestart`` n restarts it only when
  level n-1 or shallower is used, 0 never.
- Numbering a level first sets each shallower defined level without a value (never used, or
  restarted) to its start value (the current ``w:num``'s): Word counts a skipped level as used,
  so "1.1.1" is followed at level 2 by "1.2", and level-5 items under an unused level 4 make
  the next level-4 item "2." (corpus ``tika__numbered-list-footnote-comment``; CKEditor's
  paste-from-Word fixtures of Word output: "1. One", "i. Level", "ii. Here", "b. Is").
- ``%N`` renders level N-1 in its own ``numFmt``. With ``isLgl``, the previous levels render
  decimal and the current one keeps its own format ("Section 1.01"). A ``%N`` deeper than the
  paragraph's level makes Word drop the whole lvlText, so the label is ``None``.
- ``numFmt none`` renders its number as "" but keeps the literal text ("%1注：" -> "注：");
  a label that is empty after stripping is ``None``.
- Section breaks do not reset list numbering (Word continues a list across sections; so does
  LightRAG's golden test ``sectpr_resets_numbering``), so the counter has no section hook.
"""

from __future__ import annotations

import re

from lightrag_pchunk.parse.numdefs import (
    LEVELS,
    MAX_NUMBER,
    Level,
    ListInstance,
    NumberingDefinitions,
    decimal_number,
)
from lightrag_pchunk.parse.numfmt import format_number, plain_literal

_PLACEHOLDER = re.compile(r"(%[1-9])")


def _restarts(lvl: Level | None, depth: int, used: int) -> bool:
    """Whether level ``depth`` restarts when level ``used`` (shallower) is numbered."""
    restart = lvl.restart if lvl is not None else None
    if restart == 0:
        return False
    if restart is None or not 0 < restart <= depth:  # absent, or out of range: the default
        return True
    return used < restart  # Word: the named level "or any higher level" [MS-OI29500]


class NumberingCounter:
    """Word's list counters, fed numbered paragraphs in document order.

    The walk writes ``label + separator + text``: ``separator`` is " " except for
    ``w:suff="nothing"`` (""), so "1. First", "第一章总则".
    """

    def __init__(self, definitions: NumberingDefinitions):
        self.definitions = definitions
        self._counts: dict[str, list[int | None]] = {}
        self._entered: set[int] = set()

    def label(self, num_id: int, ilvl: int) -> str | None:
        """Advance the counters for one numbered paragraph and return its label.

        ``None`` for numId 0, unknown ids, undefined levels (ilvl outside 0-8 included) and
        labels that render empty (numFmt none with no literal text).
        """
        num_id, ilvl = decimal_number(num_id) or 0, decimal_number(ilvl)
        inst = self.definitions.instance(num_id)
        if inst is None or ilvl is None or not 0 <= ilvl < LEVELS or inst.level(ilvl) is None:
            return None
        counts = self._counts.setdefault(inst.key, [None] * LEVELS)
        if num_id not in self._entered:
            self._entered.add(num_id)
            if inst.overridden:  # first use of a restarting w:num: its levels start afresh
                for depth in range(min(inst.overridden), LEVELS):
                    counts[depth] = None
        for depth in range(ilvl):
            # Word counts a skipped level as used at its start value (see the module doc).
            if counts[depth] is None and inst.level(depth) is not None:
                counts[depth] = inst.start(depth)
        current = counts[ilvl]
        counts[ilvl] = inst.start(ilvl) if current is None else min(current + 1, MAX_NUMBER)
        for depth in range(ilvl + 1, LEVELS):
            # A level without a value has nothing to restart (and need not be read).
            if counts[depth] is not None and _restarts(inst.level(depth), depth, ilvl):
                counts[depth] = None
        return _render(inst, ilvl, counts)

    def separator(self, num_id: int, ilvl: int) -> str:
        """What goes between the label and the text: "" for ``w:suff="nothing"``, else " "."""
        lvl = self.definitions.level(num_id, ilvl)
        if lvl is not None and lvl.suffix == "nothing" and not (lvl.text or "")[-1:].isspace():
            return ""
        return " "

    def level_for_style(self, num_id: int, style_id: str) -> int | None:
        """The ilvl linked to ``style_id`` by ``w:pStyle`` (see NumberingDefinitions)."""
        return self.definitions.level_for_style(num_id, style_id)


def _render(inst: ListInstance, ilvl: int, counts: list[int | None]) -> str | None:
    lvl = inst.level(ilvl)
    if lvl is None:
        return None
    if lvl.is_picture:
        return "•"
    if not lvl.text:
        return None
    parts = _PLACEHOLDER.split(lvl.text)
    if any(int(p[1]) > ilvl + 1 for p in parts[1::2]):
        return None  # Word ignores an lvlText that names a deeper level [MS-OI29500]
    is_bullet = lvl.num_fmt == "bullet"
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(plain_literal(part, lvl.font, is_bullet=is_bullet))
            continue
        ref = int(part[1]) - 1
        ref_lvl = inst.level(ref)
        value = counts[ref]
        value = inst.start(ref) if value is None else value
        fmt, custom = (ref_lvl.num_fmt, ref_lvl.custom) if ref_lvl else ("decimal", "")
        if lvl.is_lgl and ref < ilvl and fmt not in ("none", "bullet"):
            fmt, custom = "decimal", ""
        out.append(format_number(value, fmt, custom))
    label = "".join(out).strip()
    return label or None
