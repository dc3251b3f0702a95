"""Stage A for PDF: text boxes side by side (a slide's, a résumé's) whose lines align as
rows of cells by chance, told from a table shown by its text's alignment (``text_tables``).

A title set large in a box of its own beside a box of text in body type (a slide's side
title, a résumé's name beside the contact lines) shares baselines with the text often
enough to read as a first column of labels; labels share their values' type (a property
table's names, a form's fields), a title's type stands a heading's step above it, and the
text beside it is one box, one column, where a table's labels set large head several.
A label stands on its value's baseline row after row (its box set off from the value's by
the same amount each time), where a title's lines meet the text's at any height. A side
title set only a little larger (bold, a step above body type) is told by its lines: one
sentence wrapped over them, each line after the first going on in lower case, where
labels are items of their own.

Boxes of bulleted text side by side (a slide's columns, each under its own title) share
baselines as well, and their wrapped lines are short enough to pass for a table's cells.
In each such column every line below its title starts an item with a bullet or goes on
with the item above, set at the item text's indent, and items wrap: prose in boxes. A
table's columns hold labels, names or figures without bullets in one of them at least (a
bulleted list in a cell stands beside its row's label), and a figure's column does not
share one left edge right of a bullet. A table whose every cell is a bulleted point
("Before", "After") opens its items row by row, on the same baselines in every column,
where each box's items wrap over lines of their own.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from lightrag_pchunk.pdf.bullets import is_bullet_glyph
from lightrag_pchunk.pdf.cell_wraps import ALIGN_SLACK
from lightrag_pchunk.pdf.column_text import TITLE_TYPE_RATIO, WRAPPED_TITLE_RATIO, one_sentence
from lightrag_pchunk.pdf.segments import Segment
from lightrag_pchunk.pdf.table_runs import text_columns

#: Boxes whose bottoms are set off by the same amount within this many points stand on
#: baselines the same way (a font's box reaches the same depth under every baseline).
BASELINE_TOLERANCE = 1.0


def titles_beside_text(rows: Sequence[Sequence[Segment]]) -> bool:
    """Whether the first cells of ``rows`` (segments on one baseline, left to right; rows
    of one cell aside) are set in type ``column_text.TITLE_TYPE_RATIO`` times the median size of
    the cells beside them or larger (``WRAPPED_TITLE_RATIO`` when they read as one
    sentence wrapped over lines), and those cells, their bullets aside, stand in one
    column: one box of text (a table's row labels set large beside several columns of
    cells, a figure's matrix, are a table's), nor on the baselines of the cells beside
    them (a table's labels set large beside their values)."""
    firsts = [row[0] for row in rows if len(row) >= 2]
    others = [s for row in rows if len(row) >= 2 for s in row[1:]]
    if not firsts or not others or min(s.size for s in firsts) <= 0:
        return False
    ratio = WRAPPED_TITLE_RATIO if one_sentence([s.text for s in firsts]) else TITLE_TYPE_RATIO
    first_size = statistics.median(s.size for s in firsts)
    if first_size < ratio * statistics.median(s.size for s in others):
        return False
    # The baselines last: the table finder asks about every run of rows of a page, and this
    # test, which compares each row with every other, is the one that costs.
    if _labels_on_value_baselines(rows):
        return False
    return len(text_columns([s for s in others if any(c.isalnum() for c in s.text)])) == 1


def _labels_on_value_baselines(rows: Sequence[Sequence[Segment]]) -> bool:
    """Whether two thirds of the rows of two cells or more (a bullet's aside), and two at
    least, set their first cell off from the cell beside it by the same amount
    (:data:`BASELINE_TOLERANCE`): labels printed on their values' baselines, not a title's
    lines meeting a text's by chance."""
    offsets = sorted(
        row[1].bottom - row[0].bottom
        for row in rows
        if len(row) >= 2 and not is_bullet_glyph(row[0].text.strip())
    )
    most = max(
        (sum(1 for b in offsets if a <= b <= a + BASELINE_TOLERANCE) for a in offsets), default=0
    )
    return most >= 2 and 3 * most >= 2 * len(offsets)


def bulleted_boxes(rows: Sequence[Sequence[Segment]]) -> bool:
    """Whether ``rows`` (segments on one baseline, left to right) are boxes of bulleted
    text side by side (see the module doc): two columns or more (the strips of x their
    text covers, a bullet set alone going with the text right of it), in each of which
    a bullet starts an item, and every line below its first item starts one or goes on
    with the item above: set right of the column's bullets, at one left edge with the
    column's other such lines; one line at least goes on with an item (an item wrapped
    over lines), and the columns' items do not all open on the same rows (a table's).
    Rows without a bullet (:func:`shows_bullet`) are never such boxes: the table finder,
    which asks of every run of rows of a page, asks only of runs holding one."""
    bullets = {id(s) for s in (s for row in rows for s in row) if _is_bullet_alone(s)}
    texts = [s for row in rows for s in row if id(s) not in bullets]
    columns = text_columns(texts)
    if len(columns) < 2:
        return False
    # Each column's lines top down, each with the left edge of the bullet that opens it.
    lines: list[list[tuple[Segment, float | None]]] = [[] for _ in columns]
    item_rows: list[set[int]] = [set() for _ in columns]  # the rows each column's items open
    for number, row in enumerate(rows):
        for index, segment in enumerate(row):
            if id(segment) in bullets:
                continue
            before = row[index - 1] if index else None
            if before is not None and id(before) in bullets:
                opens: float | None = before.x0
            else:
                opens = segment.x0 if is_bullet_glyph(segment.text[:1]) else None
            column = next(n for n, (x0, x1) in enumerate(columns) if x0 <= segment.x0 <= x1)
            lines[column].append((segment, opens))
            if opens is not None:
                item_rows[column].add(number)
    if len(item_rows[0]) >= 2 and all(found == item_rows[0] for found in item_rows):
        return False  # every column's items open on the same rows: a table's rows
    wrapped = 0
    for column in lines:
        column.sort(key=lambda line: line[0].top)
        starts = [n for n, (_, opens) in enumerate(column) if opens is not None]
        if not starts:
            return False
        rest = [s for s, opens in column[starts[0] :] if opens is None]
        edge = max(opens for _, opens in column if opens is not None)
        if any(s.x0 <= edge + ALIGN_SLACK for s in rest):
            return False
        if rest and max(s.x0 for s in rest) - min(s.x0 for s in rest) > ALIGN_SLACK:
            return False
        wrapped += len(rest)
    return wrapped > 0


def shows_bullet(segment: Segment) -> bool:
    """Whether ``segment`` is a bullet set alone or starts with one: a run of rows without
    such a segment is no boxes of bulleted text (:func:`bulleted_boxes`)."""
    return _is_bullet_alone(segment) or is_bullet_glyph(segment.text[:1])


def _is_bullet_alone(segment: Segment) -> bool:
    """Whether ``segment`` is a bullet glyph set alone, apart from its item's text."""
    text = segment.text.strip()
    return len(text) == 1 and is_bullet_glyph(text)
