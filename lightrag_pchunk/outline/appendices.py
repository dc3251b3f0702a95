"""Appendices inside the body: where the body's numbering resumes after an appendix.

Input: the labels of a document's headings in order and the levels they were given.
Output: those levels with each appendix the body's numbering resumes after moved inside
the unit it interrupts (:func:`appendices_inside`), for ``numbering.py`` and the smart
outline's levels (``heading_levels.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lightrag_pchunk.model import MAX_HEADING_LEVEL
from lightrag_pchunk.outline.labels import APPENDIX_FAMILIES, Label


def appendices_inside(
    labels: Sequence[Label | None], levels: list[int], movable: Sequence[bool]
) -> list[int]:
    """``levels`` with the appendices the body's numbering resumes after moved inside the
    unit they interrupt: "Appendix A" (and its parts) between "7.1" and "7.2" goes down to
    the level of "7.2", beside it under "7", not over it. Only ``movable`` headings
    (inferred ones) move; a styled one between leaves them."""
    levels = list(levels)
    placed: dict[tuple[str, int], Label] = {}  # the last label of each key before
    index = 0
    while index < len(labels):
        label = labels[index]
        if label is None or label.family not in APPENDIX_FAMILIES:
            if label is not None:
                placed[label.key] = label
            index += 1
            continue
        start, before = index, dict(placed)
        index += 1
        while index < len(labels) and not _resumes(labels[index], before):
            index += 1
        shift = levels[index] - levels[start] if index < len(labels) else 0
        if shift > 0 and all(movable[start:index]):
            levels[start:index] = [
                min(level + shift, MAX_HEADING_LEVEL) for level in levels[start:index]
            ]
    return levels


def _resumes(label: Label | None, before: Mapping[tuple[str, int], Label]) -> bool:
    """Whether ``label`` continues a body label of the same key placed ``before``."""
    earlier = before.get(label.key) if label is not None else None
    return label is not None and earlier is not None and label.follows(earlier)
