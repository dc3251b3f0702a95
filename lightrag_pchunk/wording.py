"""Counts as a person reads them: ``1 file``, ``2 files``, ``0 chunks``, ``1 table of
contents``; numbers as runs, ``3, 5-9, 12``. Every line the commands and reports print
counts through :func:`counted`."""

from __future__ import annotations

from collections.abc import Iterable

#: Plurals that adding ``s`` gets wrong.
_IRREGULAR = {
    "table of contents": "tables of contents",
    "entry": "entries",
    "child": "children",
    "match": "matches",
    "is": "are",
    "was": "were",
}


def plural(singular: str) -> str:
    """The plural of an English noun as the commands use them (``file`` -> ``files``)."""
    if singular in _IRREGULAR:
        return _IRREGULAR[singular]
    if singular.endswith(("s", "x", "ch", "sh")):
        return singular + "es"
    if singular.endswith("y") and singular[-2:-1] not in tuple("aeiou"):
        return singular[:-1] + "ies"
    return singular + "s"


def counted(count: int, singular: str, plural_form: str | None = None) -> str:
    """``1 file``, ``3 files`` (``plural_form`` when adding ``s`` is wrong)."""
    if count == 1:
        return f"{count} {singular}"
    return f"{count} {plural_form or plural(singular)}"


def number_ranges(numbers: Iterable[int]) -> str:
    """``3, 5-9, 12`` for ``[3, 5, 6, 7, 8, 9, 12]``: each run of consecutive numbers as one
    range, in the order given."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][1] + 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)
