"""Counts as a person reads them: ``1 file``, ``2 files``, ``0 chunks``, ``1 table of
contents``. Every line the commands and reports print counts through :func:`counted`."""

from __future__ import annotations

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
