"""Stage A: how a table reads in a chunk (``CHUNK_P_TABLE_TEXT``): ``grid`` keeps the tag as
the parser wrote it (header rows, then rows of cells); ``keyed`` writes each body row as a
JSON object keyed by its column header, so every row carries the headers of its values
(``row key + column header -> value`` in one row, as docling writes its rows).

A keyed tag stays a valid ``<table id=… format="json">`` whose body is a list of rows, which
LightRAG's chunker and table helpers enumerate as rows. The rows come from ``keyed_rows`` of
``tables.json`` (our parser builds them on the grid's columns, so a merged cell meets its
own header) when each holds the non-empty cells of its tag row; for a table without them
(another parser's) or whose rows disagree with its tag, from the grid by position, the
header being the declared ``table_header`` rows or the first row. A header label no key
names (its columns hold no value in any body row) is added to the first row with an empty
value, so the keyed table names every column the grid does and loses none of its words. A
table known to have no header (``table_header`` ``"[]"``), or whose rows are not lists, keeps
its grid.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from lightrag_pchunk.blockfile.table_keys import header_key, unique_keys
from lightrag_pchunk.chunk.compact_headers import cell_text
from lightrag_pchunk.chunk.table_tags import json_header_rows, json_rows, parse_table

TableText = Literal["grid", "keyed"]
GRID: TableText = "grid"
KEYED: TableText = "keyed"
TABLE_TEXTS: tuple[TableText, ...] = (GRID, KEYED)

#: The number :func:`unique_keys` gives a repeated key: ``Total (2)``.
_REPEAT_NUMBER = re.compile(r" \(\d+\)$")


def keyed_tables(content: str, headers: Mapping[str, str], keyed_rows: Mapping[str, str]) -> str:
    """``content`` with every JSON table tag line written keyed (see the module docstring)."""
    if "<table" not in content:
        return content
    lines = content.split("\n")
    changed = False
    for index, line in enumerate(lines):
        if line.lstrip().startswith("<table"):
            keyed = keyed_table(line, headers, keyed_rows)
            changed = changed or keyed is not line
            lines[index] = keyed
    return "\n".join(lines) if changed else content


def keyed_table(line: str, headers: Mapping[str, str], keyed_rows: Mapping[str, str]) -> str:
    """One table tag line written keyed, or ``line`` itself when it stays a grid."""
    tag = parse_table(line)
    if tag is None or tag.format != "json":
        return line
    rows = json_rows(tag.body)
    if not rows or not all(isinstance(row, list) for row in rows):
        return line
    table_id = tag.table_id or ""
    header = headers.get(table_id)
    count = _header_count(rows, header)
    if count == 0:
        return line
    objects = _sidecar_rows(keyed_rows.get(table_id), rows[count:])
    if objects is None:
        objects = _positional_rows(rows, count)
    objects = _with_unnamed_labels(objects, rows[:count])
    body = json.dumps(objects, ensure_ascii=False).replace("</table", "<\\/table")
    return tag.wrap(body)


def _header_count(rows: list[list[Any]], header: str | None) -> int:
    """Header rows at the top of ``rows``: the declared ones when they open it, none when
    the parser declared ``[]``, else the first row (with a second row to key)."""
    if header is not None and header.strip():
        declared = json_header_rows(header) if header.lstrip().startswith("[") else None
        if declared == [] or json_rows(header) == []:
            return 0
        if declared and len(declared) < len(rows) and rows[: len(declared)] == declared:
            return len(declared)
    return 1 if len(rows) >= 2 else 0


def _sidecar_rows(raw: str | None, body: list[list[Any]]) -> list[dict[str, Any]] | None:
    """The parser's keyed rows when they match the tag's ``body`` rows one for one, each
    holding the same non-empty cells (a parser whose keyed rows disagree with its tag is
    keyed from the tag by position, so no cell of the tag is lost)."""
    if not raw:
        return None
    objects = json_rows(raw)
    if objects is None or len(objects) != len(body):
        return None
    for row, cells in zip(objects, body, strict=True):
        if not isinstance(row, dict) or _texts(row.values()) != _texts(cells):
            return None
    return objects


def _texts(cells: Iterable[Any]) -> Counter[str]:
    """The non-empty cell texts of a row, in any order."""
    return Counter(text for cell in cells if (text := cell_text(cell).strip()))


def _positional_rows(rows: list[list[Any]], count: int) -> list[dict[str, Any]]:
    """Body rows keyed by the header cells above each position (a grid whose rows line up
    with their header, as LightRAG's parser writes them); empty cells left out."""
    width = max(len(row) for row in rows)
    keys = unique_keys(
        [
            header_key((str(r[c]) if c < len(r) else "" for r in rows[:count]), c)
            for c in range(width)
        ]
    )
    return [
        {keys[c]: cell for c, cell in enumerate(row) if str(cell).strip()} for row in rows[count:]
    ]


def _with_unnamed_labels(
    objects: list[dict[str, Any]], header_rows: Sequence[list[Any]]
) -> list[dict[str, Any]]:
    """``objects`` with each header label that no key names (its column holds no value in
    any body row: a template's blank "Remarks", a heading over columns the body leaves
    empty) added to the first row as an empty value, so the keyed table still names every
    column its header does, as the grid did. A label a header row holds n times (two blank
    "Signature" columns) needs n keys naming it."""
    if not objects:
        return objects
    keys = {key for row in objects for key in row}
    named: Counter[str] = Counter()
    for key in keys:
        path = _REPEAT_NUMBER.sub("", key)
        named.update(set(path.split(" / ")) | {key, path})
    needed: Counter[str] = Counter()
    for row in header_rows:
        labels = Counter(" ".join(cell_text(cell).split()) for cell in row)
        needed |= labels  # a label once per row: a vertical merge's repeat is the same column
    del needed[""]
    missing = [label for label, count in needed.items() for _ in range(count - named[label])]
    if not missing:
        return objects
    first = dict(objects[0])
    for label in missing:
        key, number = label, 1
        while key in keys:  # numbered as unique_keys does, never over a key in use
            number += 1
            key = f"{label} ({number})"
        keys.add(key)
        first[key] = ""
    return [first, *objects[1:]]
