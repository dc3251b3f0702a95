"""Parse and re-wrap one ``<table ATTRS>BODY</table>`` tag (spec §6.1; facts §5.2, §5.3):
its attributes, its format (declared or sniffed) and its body, and the JSON row helpers
that read and write a body as LightRAG's parser does. The rows stage B slices are in
``chunk/table_rows.py``.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

TableFormat = Literal["json", "html"]

_TAG = re.compile(r"<table(?P<attrs>\s[^>]*)?>(?P<body>.*)</table>", re.IGNORECASE | re.DOTALL)
_ATTR = re.compile(
    r"""(?P<name>[\w:.-]+)\s*=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s"'>]+))"""
)
_HTML_START = re.compile(r"<(?:tr|thead|tbody|tfoot)[\s>/]", re.IGNORECASE)
_CAPTION = re.compile(r"""(?<![\w:.-])caption\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+)""", re.I)


@dataclass(frozen=True, slots=True)
class TableTag:
    """One parsed table tag.

    ``attrs`` is the raw attribute text (re-used verbatim by :meth:`wrap`), ``table_id``
    the unescaped ``id`` attribute, ``format`` the declared or sniffed body format
    (None when unknown) and ``body`` the text between the opening and closing tags.
    """

    attrs: str
    table_id: str | None
    format: TableFormat | None
    body: str

    def wrap(self, body: str, *, continued: bool = False) -> str:
        """``<table {attrs}>{body}</table>`` with this tag's attributes; a ``continued``
        slice leaves out the caption, which stays with the first slice."""
        attrs = _CAPTION.sub("", self.attrs).strip() if continued else self.attrs
        opening = f"<table {attrs}>" if attrs else "<table>"
        return f"{opening}{body}</table>"

    @property
    def caption(self) -> str:
        """The ``caption`` attribute as a reader sees it (unescaped); "" when none."""
        return table_caption(self.attrs)

    @property
    def has_caption(self) -> bool:
        """Whether the attributes hold a ``caption`` (an empty one too)."""
        return _CAPTION.search(self.attrs) is not None

    def without_caption(self) -> TableTag:
        """This tag without its caption attribute."""
        return replace(self, attrs=_CAPTION.sub("", self.attrs).strip())


def table_caption(attrs: str) -> str:
    """The unescaped ``caption`` of a table tag's attribute text; "" when it has none."""
    if "caption" not in attrs.lower():
        return ""
    return _attributes(attrs).get("caption", "").strip()


def parse_table(text: str) -> TableTag | None:
    """The tag when ``text`` is one complete ``<table ...>...</table>``, else None."""
    match = _TAG.fullmatch(text.strip())
    if match is None:
        return None
    attrs = (match.group("attrs") or "").strip()
    values = _attributes(attrs)
    body = match.group("body")
    return TableTag(
        attrs=attrs,
        table_id=values.get("id"),
        format=_table_format(values.get("format"), body),
        body=body,
    )


def _attributes(attrs: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for match in _ATTR.finditer(attrs):
        raw = match.group("dq")
        if raw is None:
            raw = match.group("sq") if match.group("sq") is not None else match.group("bare")
        values.setdefault(match.group("name").lower(), html.unescape(raw or ""))
    return values


def _table_format(declared: str | None, body: str) -> TableFormat | None:
    # An explicit format wins; any value but json/html means "unknown" (spec §6.1, §10).
    if declared is not None:
        value = declared.strip().lower()
        return value if value in ("json", "html") else None  # type: ignore[return-value]
    return sniff_format(body)


def sniff_format(body: str) -> TableFormat | None:
    """``"json"`` for a body starting with ``[``, ``"html"`` for one starting with a row or
    section tag, None otherwise."""
    start = body.lstrip()
    if start.startswith("["):
        return "json"
    if _HTML_START.match(start):
        return "html"
    return None


def json_rows(body: str) -> list[Any] | None:
    """The top-level array of a JSON body, or None when it does not parse as a list."""
    try:
        value = json.loads(body)
    except ValueError:
        return None
    return value if isinstance(value, list) else None


def dump_json_row(row: Any) -> str:
    """One row as LightRAG's parser writes it (``ensure_ascii=False``, ``", "`` separators)."""
    return json.dumps(row, ensure_ascii=False)


def join_json_rows(row_texts: Sequence[str]) -> str:
    """A JSON body from already-serialised rows; equals ``json.dumps(rows)`` of the rows."""
    return "[" + ", ".join(row_texts) + "]"


def json_header_rows(header: str) -> list[Any] | None:
    """Header rows from a ``table_header`` JSON string: a 2-D array, or one flat row."""
    rows = json_rows(header)
    if not rows:
        return None
    if all(isinstance(row, list) for row in rows):
        return rows
    if not any(isinstance(row, list) for row in rows):
        return [rows]
    return None
