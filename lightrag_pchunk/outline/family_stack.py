"""The open levels of an outline as its headings are placed one after the other:
:class:`FamilyStack`, which numbering family (or look) sits at which level. ``numbering.py``
gives a flat list of headings its levels with it; ``heading_levels.py`` the smart outline's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from lightrag_pchunk.outline.labels import APPENDIX_FAMILIES, Label
from lightrag_pchunk.outline.numerals import roman_number

#: A heading over a document's appendices: "Attachments", "Appendices", "附录".
_NAMES_APPENDICES = re.compile(
    r"(?:list\s+of\s+)?(?:attachments|appendices|appendixes|annexes|schedules|exhibits"
    r"|附录|附件|приложения|anhänge|anlagen)\b",
    re.IGNORECASE,
)


#: The other reading of a lone letter that numbers two ways: a letter or a roman numeral.
_OTHER_READING = {
    "lower": "roman-lower",
    "upper": "roman-upper",
    "roman-lower": "lower",
    "roman-upper": "upper",
}


def names_appendices(title: str) -> bool:
    """Whether ``title`` (a heading's, after its label) names the appendices that follow
    it as its parts ("15. Attachments" over "Attachment 1 …")."""
    return _NAMES_APPENDICES.match(title.strip()) is not None


@dataclass(frozen=True, slots=True)
class _Slot:
    key: object  # a Label key, a look signature, or None (an unnumbered styled heading)
    rank: int | None = None
    is_fixed: bool = False
    ordinals: tuple[int, ...] = ()  # the numbers of the label placed there
    holds_appendices: bool = False  # its title names the appendices ("15. Attachments")
    opened: int = 0  # how many slots the stack had opened before it: which came first

    @classmethod
    def of(cls, label: Label, *, is_fixed: bool = False) -> _Slot:
        """The slot ``label`` is placed in."""
        holds = names_appendices(label.rest)
        return cls(label.key, label.rank, is_fixed, label.ordinals, holds_appendices=holds)


class FamilyStack:
    """The open levels of a document's outline: which numbering family (or look) sits at
    which level, index 0 being level 1.

    A key already open closes everything deeper. A new key with a fixed rank goes below
    the open keys of smaller rank and closes those of equal or greater rank (第一节 after
    第一条 under a chapter takes the article's place); an appendix goes right below the
    open heading that names the appendices ("15. Attachments"), else below the deepest of
    smaller rank, beside the body's top units however they are numbered. A new
    decimal key goes right below the nearest open shallower decimal key, or, where it
    numbers the next part above a deeper one open ("5.2" after a first "5.1.3"), at that
    one's level. Any other new key opens one level deeper.
    Headings whose level is known (styled headings) are opened with :meth:`open_fixed`;
    a new key never goes above the deepest of them. ``known`` gives keys a level of their
    own (the level the styled headings of that family have): a new one goes there.

    Placed with ``restarts=True``, a label whose numbers go back from those of its key's
    open heading ("3." while the contract's "12." is open) under a unit that is no styled
    heading ("Приложение № 4", "Chapter 2") starts that unit's own parts: it and the
    labels after it go below the unit until a heading of its kind or above closes it (an
    appendix numbering its parts from 1 again), or the numbers above the unit go on ("13."
    after the contract's "12.", unless it is also the next of the unit's own parts).

    A label that follows the last one placed of its key ("Part 2" after "Part 1"), when an
    unnumbered heading or an appendix between them closed that key, goes where that one
    went: its sibling. When a heading of known level opened since at that one's level or
    above closed it ("7.2" after "7.1" and a styled "Appendix A"), and the label's numbering
    says where it stands whatever section its line is in (a part of "7"; an appendix), it
    continues a series from outside that heading's section: it goes beside the shallowest
    such heading, never below it. An article numbered on across chapters ("第三十三條" after
    the styled "第二章") says no such thing: the chapter holds it.
    """

    def __init__(self, known: Mapping[tuple[str, int], int] | None = None) -> None:
        self.slots: list[_Slot | None] = []
        self.known = dict(known or {})
        self.held = 0  # the level of the heading whose own parts are being placed
        self.last: dict[tuple[str, int], tuple[int, Label]] = {}  # by key: index, label
        self.opened = 0  # slots opened so far
        self.opened_last: dict[tuple[str, int], int] = {}  # by key: when the last was opened

    def place(self, label: Label, hint: int | None = None, *, restarts: bool = False) -> int:
        """Open ``label``'s key and return its level; ``hint`` is the level its look
        suggests, used when the key is not open yet; ``restarts``: the label may start
        the parts of the deepest open heading (see the class doc)."""
        label = self._in_open_series(label)
        open_index = next(
            (i for i, slot in enumerate(self.slots) if slot is not None and slot.key == label.key),
            None,
        )
        if open_index is not None:
            self._hold_parts(open_index, label, restarts)
        index = self._where(label, open_index, hint)
        self._set(index, _Slot.of(label))
        self.last[label.key] = (index, label)
        self.opened_last[label.key] = self.opened
        return index + 1

    def _in_open_series(self, label: Label) -> Label:
        """``label`` read as the next of the open series its one letter can number too: a
        lone "i." is read as roman one and "v." as the letter v, but "i." after "h." is the
        letter i, beside it, and "v." after "iv." roman five, not a first item below it; so
        is "V." after "IV." and its lettered parts "A.", "B." (the letter V would not follow
        "B."), while "V." after "U." stays the letter."""
        other = _OTHER_READING.get(label.family)
        letter = label.text.rstrip(".")
        if other is None or len(letter) != 1 or self._continues_open(label.key, label.ordinals):
            return label
        value = roman_number(letter) if other.startswith("roman-") else ord(letter.lower()) - 96
        if value is None or not self._continues_open((other, 1), (value,)):
            return label
        return replace(label, family=other, ordinals=(value,))

    def _continues_open(self, key: object, ordinals: tuple[int, ...]) -> bool:
        """Whether ``ordinals`` number the next heading after the open one of ``key``."""
        there = next((s for s in self.slots if s is not None and s.key == key), None)
        return there is not None and _next_number(there.ordinals) == ordinals

    def _open_keys(self) -> set[object]:
        return {slot.key for slot in self.slots if slot is not None}

    def _hold_parts(self, open_index: int, label: Label, restarts: bool) -> None:
        """Start or end the placing of a unit's own parts, by ``label`` whose key is open
        at ``open_index``: a label going back below a unit starts them (see the class doc);
        one continuing the numbers above the unit ends them."""
        if restarts and self._goes_back_below(open_index, label):
            self.held = len(self.slots)
        if open_index < self.held - 1 and self._continues_above(open_index, label):
            self.held = 0

    def _where(self, label: Label, open_index: int | None, hint: int | None) -> int:
        """Where ``label`` goes (index 0 being level 1), its key open at ``open_index``
        (None: not open): the first row that holds.

        ===============================================  ====================================
        the label                                        goes
        ===============================================  ====================================
        key open above the unit whose parts are held     one of the unit's parts: where its
                                                         numbering nests it if that is in the
                                                         unit, else right below the unit
        key open                                         to its key's level (closing deeper)
        follows the last of its key, whose place an      where that last one went: its sibling
        unnumbered heading or an appendix took since
        family with a styled level (``known``)           that level, never above where its
                                                         numbering nests it nor the floor
        numbering says nothing of nesting, look hints    the hinted level, not above the floor
        any other                                        where its numbering puts it (one
                                                         deeper if it says nothing), not
                                                         above the floor
        ===============================================  ====================================

        The floor is the deepest styled heading or the unit whose parts are held; a new
        key never goes past one level below the deepest open one.
        """
        floor = max(self._floor(), self.held)
        structural, decided = self._insertion_point(label)
        if open_index is not None and open_index < self.held - 1:
            return structural if decided and structural >= self.held else self.held
        if open_index is not None:
            return open_index
        if self._continues_closed(label, floor):
            return min(self.last[label.key][0], self._known_since(label), len(self.slots))
        if label.key in self.known:
            nested = structural if decided else 0
            return min(max(self.known[label.key] - 1, floor, nested), len(self.slots))
        if hint is not None and not decided:
            return min(max(hint - 1, floor), len(self.slots))
        there = (self.slots[structural:] or [None])[0] or _Slot(None)
        if label.family in APPENDIX_FAMILIES and there.is_fixed and there.ordinals:
            # Beside a styled numbered unit too ("附件一" after the styled "第九章",
            # "Attachment 1" in the section of a styled "4 Payment"): no part of it.
            return structural
        return max(structural, floor)

    def _continues_above(self, index: int, label: Label) -> bool:
        """Whether ``label`` numbers the next heading after its key's one open at ``index``,
        above the unit whose own parts are held ("10." after the contract's "9."), and not
        the next of the unit's own part of that key ("4." after the unit's "3.")."""
        own = next(
            (s for s in reversed(self.slots[self.held :]) if s is not None and s.key == label.key),
            None,
        )
        above = self.slots[index]
        return (
            above is not None
            and _next_number(above.ordinals) == label.ordinals
            and (own is None or _next_number(own.ordinals) != label.ordinals)
        )

    def _continues_closed(self, label: Label, floor: int) -> bool:
        """Whether ``label`` follows the last label placed of its key, whose place an
        unnumbered heading or an appendix has taken since (at or below ``floor``): another
        numbered heading closed it, and the numbers' own nesting decides. An appendix is
        put beside the top units before the body is known to go on ("8" after "7", with
        "Appendix A" between): the body numbered on shows the appendix was inside it."""
        earlier = self.last.get(label.key)
        if earlier is None or not label.follows(earlier[1]):
            return False
        if self._known_since(label) <= earlier[0]:
            return True
        if earlier[0] < floor:
            return False
        there = self.slots[earlier[0]] if earlier[0] < len(self.slots) else None
        if there is not None and not there.ordinals:
            return True
        if there is not None and isinstance(there.key, tuple) and there.key[0] == label.family:
            # A part of its family stands there since ("3.2" beside the styled heading that
            # closed "3"): "4" after it goes back to the place of "3".
            return there.key[1] > label.depth
        # An appendix opened at its level or above ("7.2" after "7.1", "Appendix A", "A.1").
        return any(slot and _is_appendix(slot) for slot in self.slots[: earlier[0] + 1])

    def _known_since(self, label: Label) -> int:
        """The index of the shallowest heading of known level opened since the last label
        of ``label``'s key, at that label's level or above (the heading that closed it),
        else past the deepest level; past it too for a label whose numbering names no
        place of its own (a unit's part numbered on across the units: "Article 33")."""
        if label.depth == 1 and label.family not in APPENDIX_FAMILIES:
            return len(self.slots) + 1
        since, at = self.opened_last.get(label.key, self.opened), self.last[label.key][0]
        return next(
            (
                i
                for i, slot in enumerate(self.slots[: at + 1])
                if slot is not None and slot.is_fixed and slot.opened > since
            ),
            len(self.slots) + 1,
        )

    def _goes_back_below(self, index: int, label: Label) -> bool:
        """Whether ``label``'s numbers go back from those of its key's heading open at
        ``index``, with a deeper unit open (an appendix, a chapter: a ranked label), no
        styled one."""
        slot, deepest = self.slots[index], self.slots[-1]
        return (
            label.rank is None
            and slot is not None
            and bool(slot.ordinals)
            and label.ordinals <= slot.ordinals
            and index + 1 < len(self.slots)
            and deepest is not None
            and deepest.rank is not None
            and not deepest.is_fixed
        )

    def open_at(self, level: int, key: object = None, *, fixed: bool = False) -> int:
        """Open ``key`` at ``level`` (closing what is deeper); never above a fixed level
        unless ``fixed`` (a styled heading). Returns the level used."""
        index = level - 1 if fixed else max(level - 1, self._floor())
        self._set(index, _Slot(key, None, fixed))
        return index + 1

    def open_fixed(self, level: int, label: Label | None) -> None:
        """A heading whose level is known (a styled heading), with its label if numbered."""
        if label is None:
            self._set(level - 1, _Slot(None, None, True))
        else:
            self._set(level - 1, _Slot.of(label, is_fixed=True))

    @property
    def depth(self) -> int:
        """The deepest open level (0 when nothing is open)."""
        return len(self.slots)

    def deepest_first(self) -> Iterator[tuple[int, _Slot]]:
        """The open levels with their slots, deepest first (empty levels skipped)."""
        for index in range(len(self.slots) - 1, -1, -1):
            slot = self.slots[index]
            if slot is not None:
                yield index + 1, slot

    def _floor(self) -> int:
        return next((level for level, slot in self.deepest_first() if slot.is_fixed), 0)

    def _set(self, index: int, slot: _Slot) -> None:
        index = min(index, 8)  # level 9 is the deepest
        if index < self.held:
            self.held = 0  # the heading whose parts were placed is closed
        del self.slots[index:]
        self.slots.extend([None] * (index - len(self.slots)))
        self.opened += 1
        self.slots.append(replace(slot, opened=self.opened))

    def _insertion_point(self, label: Label) -> tuple[int, bool]:
        """Where a new key goes, and whether its numbering decided it (a rank, or a decimal
        label under an open shallower one) rather than just "one level deeper"."""
        family, depth = label.key
        if label.rank is not None:
            for i, slot in enumerate(self.slots):
                if slot is not None and slot.rank is not None and slot.rank >= label.rank:
                    return i, True
            if label.family in APPENDIX_FAMILIES:
                # An appendix goes under the open heading that names the appendices ("15.
                # Attachments"), else beside the body's top units however they are
                # numbered ("附录 A" after "3.2"): right below the deepest open unit of a
                # smaller rank (a part), or at the top.
                holders = [
                    i
                    for i, slot in enumerate(self.slots)
                    if slot and (slot.holds_appendices or slot.rank is not None)
                ]
                return (holders[-1] + 1 if holders else 0), True
            return len(self.slots), True
        if depth > 1:
            shallower = [
                i
                for i, slot in enumerate(self.slots)
                if slot is not None
                and isinstance(slot.key, tuple)
                and slot.key[0] == family
                and slot.key[1] < depth
            ]
            if shallower:
                return shallower[-1] + 1, True
            if family == "annex-decimal":  # "A.1" is a part of the open "Appendix A"
                for i in range(len(self.slots) - 1, -1, -1):
                    slot = self.slots[i]
                    if slot and _is_appendix(slot) and slot.ordinals == label.ordinals[:1]:
                        return i + 1, True
        # A document that starts inside its numbering ("5.1.3" first, an excerpt): "5.2"
        # and then "6" number the next parts above the deeper ones open, beside the
        # shallowest of those, not below them.
        if label.key in self._open_keys():
            return len(self.slots), False
        for i, slot in enumerate(self.slots):
            if (
                slot is not None
                and isinstance(slot.key, tuple)
                and slot.key[0] == family
                and slot.key[1] > depth
                and _next_number(slot.ordinals[:depth]) == label.ordinals
            ):
                return i, True
        return len(self.slots), False


def _is_appendix(slot: _Slot) -> bool:
    return isinstance(slot.key, tuple) and slot.key[0] in APPENDIX_FAMILIES


def _next_number(ordinals: tuple[int, ...]) -> tuple[int, ...]:
    """The numbers of the next sibling: (9,) -> (10,), (3, 1) -> (3, 2)."""
    return (*ordinals[:-1], ordinals[-1] + 1) if ordinals else ()
