"""Stage B: the compact header, one row of column labels that a continuation slice repeats
when the table's own header rows leave no room for its rows.

A column's label is its header cells top-down joined with ``" / "``, empty cells and a
vertical merge's repeat left out (:func:`header_key`, the rule keyed rows name their columns
by); trailing unlabelled columns are dropped. Which header cells sit over which column:

- **a JSON table with ``keyed_rows``** (our parsers write them): the keys of its widest body
  row, put over that row's cells. The tag's rows are compact (a horizontally merged cell is
  written once), so cell *i* of one header row need not sit over cell *i* of another; the
  keys were built on the real grid, so each names the full path of its column;
- **otherwise** cell *i* of every header row (a grid whose rows line up, as LightRAG's parser
  writes them); for HTML, after ``colspan`` and ``rowspan`` are spread over the grid.

When that row is still too big, every label is shortened (:func:`label_ladder`): each
``" / "`` part keeps its first *w* words and an ellipsis, for *w* from the longest part down
to 1, so the richest form that fits its budget can be chosen.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from typing import Any

from lightrag_pchunk.blockfile.table_keys import header_key

#: Joins the header cells of one column; the separator keyed rows use too.
PATH_SEPARATOR = " / "
#: Marks a label cut to its first words.
ELLIPSIS = "…"

_CELL = re.compile(r"<(t[hd])\b([^>]*)>(.*?)(?:</\1\s*>|(?=<t[hd]\b)|$)", re.I | re.DOTALL)
_SPAN = re.compile(r"""\b(colspan|rowspan)\s*=\s*["']?(\d+)""", re.IGNORECASE)
_MARKUP = re.compile(r"<[^>]*>")
#: A ``colspan``/``rowspan`` above this is a typo, not a table (it would allocate the span).
_MAX_SPAN = 1000
#: Trailing punctuation dropped before the ellipsis: ``"Price, USD"`` -> ``"Price…"``.
_CUT_PUNCTUATION = ",;:.-–—(/"


def cell_text(cell: Any) -> str:
    """A JSON cell as label text: strings as they are, ``null`` empty, anything else JSON."""
    if cell is None:
        return ""
    return cell if isinstance(cell, str) else json.dumps(cell, ensure_ascii=False)


def positional_labels(header_rows: Sequence[Sequence[str]]) -> list[str]:
    """Each position's labels top-down joined (see the module docstring); ``""`` for a
    position without any, trailing ones dropped."""
    width = max((len(row) for row in header_rows), default=0)
    labels: list[str] = []
    for col in range(width):
        cells = [row[col] if col < len(row) else "" for row in header_rows]
        labels.append(header_key(cells, col) if any(c.strip() for c in cells) else "")
    return _trimmed(labels)


def json_column_labels(
    header_rows: Sequence[Any], body_rows: Sequence[str], keyed_rows: str | None
) -> list[str]:
    """The column labels of a JSON table (see the module docstring): ``header_rows``
    decoded, ``body_rows`` as JSON texts, ``keyed_rows`` the table's from ``.tables.json``."""
    labels = keyed_labels(body_rows, keyed_rows) if keyed_rows else None
    if labels is not None:
        return labels
    rows = [[cell_text(c) for c in row] if isinstance(row, list) else [] for row in header_rows]
    return positional_labels(rows)


def keyed_labels(body_rows: Sequence[str], keyed_rows: str) -> list[str] | None:
    """The labels over the cells of the widest body row, from the parser's keyed rows.

    ``body_rows`` are the tag's body rows as JSON texts, ``keyed_rows`` the same rows keyed
    by column (``keyed_rows`` of ``.tables.json``). A keyed row is used only when its values
    are the row's non-empty cells in order, so each key is known to sit over its cell; None
    when the two disagree in number or no row matches.
    """
    try:
        objects = json.loads(keyed_rows)
    except ValueError:
        return None
    if not isinstance(objects, list) or len(objects) != len(body_rows):
        return None
    keyed = [(i, row) for i, row in enumerate(objects) if isinstance(row, dict) and row]
    # The widest row first: it spans the most columns, usually every leaf of the header.
    for index, row in sorted(keyed, key=lambda item: -len(item[1])):
        try:
            cells = json.loads(body_rows[index])
        except ValueError:
            continue
        if not isinstance(cells, list):
            continue
        texts = [cell_text(cell) for cell in cells]
        if [t for t in texts if t.strip()] != [cell_text(v) for v in row.values()]:
            continue
        keys = iter(row)
        return _trimmed([next(keys) if text.strip() else "" for text in texts])
    return None


def html_header_grid(row_texts: Sequence[str]) -> list[list[str]]:
    """The cell texts of HTML header rows (``<tr>…</tr>`` each) on a grid: a cell with
    ``colspan`` fills each column it spans, one with ``rowspan`` each row below it."""
    grid: list[list[str]] = []
    carried: dict[int, tuple[str, int]] = {}  # column -> (text, rows still spanned)
    for row_text in row_texts:
        row: dict[int, str] = {}
        col = 0
        for match in _CELL.finditer(row_text):
            while col in carried:
                col = _carry(carried, row, col)
            text = " ".join(html.unescape(_MARKUP.sub(" ", match.group(3))).split())
            spans = {k.lower(): min(max(int(v), 1), _MAX_SPAN) for k, v in _SPAN.findall(match[2])}
            for _ in range(spans.get("colspan", 1)):
                row[col] = text
                if spans.get("rowspan", 1) > 1:
                    carried[col] = (text, spans["rowspan"] - 1)
                col += 1
        for rest in sorted(c for c in carried if c not in row):
            _carry(carried, row, rest)
        width = max(row, default=-1) + 1
        grid.append([row.get(c, "") for c in range(width)])
    return grid


def _carry(carried: dict[int, tuple[str, int]], row: dict[int, str], col: int) -> int:
    """Put a ``rowspan`` cell's text in ``row`` at ``col``; the next column."""
    text, left = carried.pop(col)
    row[col] = text
    if left > 1:
        carried[col] = (text, left - 1)
    return col + 1


def html_label_row(labels: Sequence[str]) -> str:
    """One ``<tr>`` of ``<th>`` cells holding ``labels``."""
    cells = "".join(f"<th>{html.escape(label, quote=False)}</th>" for label in labels)
    return f"<tr>{cells}</tr>"


def shortened(label: str, words: int) -> str:
    """``label`` with every ``" / "`` part cut to its first ``words`` words (an ellipsis
    marks a cut part)."""
    parts: list[str] = []
    for part in label.split(PATH_SEPARATOR):
        kept = part.split()
        if len(kept) > words:
            part = " ".join(kept[:words]).rstrip(_CUT_PUNCTUATION) + ELLIPSIS
        parts.append(part)
    return PATH_SEPARATOR.join(parts)


def label_ladder(labels: Sequence[str]) -> list[list[str]]:
    """``labels``, then each shorter form (parts cut to fewer words, down to one), without
    repeats: the compact headers of one table from the richest to the smallest."""
    parts = [part for label in labels for part in label.split(PATH_SEPARATOR)]
    longest = max((len(part.split()) for part in parts), default=0)
    ladder = [list(labels)]
    for words in range(longest - 1, 0, -1):
        form = [shortened(label, words) for label in labels]
        if form != ladder[-1]:
            ladder.append(form)
    return ladder


def _trimmed(labels: list[str]) -> list[str]:
    while labels and not labels[-1]:
        labels.pop()
    return labels
