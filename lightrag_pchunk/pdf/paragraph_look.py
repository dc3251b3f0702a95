"""Stage A for PDF: how a printed paragraph looks (its size, weight, centring, capitals),
and whether two lines are set as one centred block (``paragraphs`` reads both)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from lightrag_pchunk.outline.infer import Look
from lightrag_pchunk.pdf.layout import Line
from lightrag_pchunk.pdf.scripts import without_tags


def paragraph_look(lines: Sequence[Line], text: str) -> Look:
    """The look of a paragraph of ``lines`` reading ``text``: the size most of its
    characters have, bold when every line is, centred, in capitals."""
    sizes: dict[float, int] = defaultdict(int)
    for line in lines:
        sizes[line.size] += len(line.text)
    return Look(
        bold=all(line.bold for line in lines),
        size=max(sizes, key=lambda size: sizes[size]),
        centered=all(is_centered(line) for line in lines),
        caps=_in_capitals(without_tags(text)),
    )


def _in_capitals(text: str) -> bool:
    """Whether ``text`` is set in capitals: a Latin capital, two letters at least, no
    lower-case letter of any script, and capitals for half the letters at least (an
    acronym in a Cyrillic or CJK line, "Импорт XHTML", "3 PSR 工作模式", is not)."""
    if _LATIN_UPPER.search(text) is None:
        return False
    # Most paragraphs show a lower-case letter within their first words: the letters
    # are counted only for the few that do not.
    if any(ch.islower() and ch.isalpha() for ch in text):
        return False
    letters = [ch for ch in text if ch.isalpha()]
    capitals = sum(1 for ch in letters if ch.isupper())
    return len(letters) >= 2 and 2 * capitals >= len(letters)


_LATIN_UPPER = re.compile("[A-Z]")


def is_centered(line: Line) -> bool:
    width = line.column_x1 - line.column_x0
    left = line.x0 - line.column_x0
    right = line.column_x1 - line.x1
    return left > 0.05 * width and abs(left - right) < 0.08 * width


def centred_pair(above: Line, line: Line) -> bool:
    """Whether two lines are set as one centred block: both centred, or one centred and
    the other (a long line of the title) nearly as wide as the column with equal margins."""
    return (
        (is_centered(above) or is_balanced(above))
        and (is_centered(line) or is_balanced(line))
        and (is_centered(above) or is_centered(line))
    )


def is_balanced(line: Line) -> bool:
    """Equal room on both sides, however little (a centred line that nearly fills its
    column); a justified line has none on its right."""
    left = line.x0 - line.column_x0
    right = line.column_x1 - line.x1
    return (
        left > 2.0
        and right > 2.0
        and abs(left - right) < 2.0 + 0.02 * (line.column_x1 - line.column_x0)
    )
