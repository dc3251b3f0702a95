"""Stage A for Markdown: YAML front matter -> the meta row (its ``title`` is the doc title).

Input: the text between the opening ``---`` and the closing ``---``/``...`` (PyYAML's safe
loader: no Python objects). Output: the title and a JSON-safe summary of the mapping, small
whatever the input (aliases are never expanded into the output, long values are cut). Front
matter that is not a YAML mapping is not metadata: the caller keeps it as text.
"""

from __future__ import annotations

import datetime
import logging
import math
from dataclasses import dataclass, field
from typing import Any

import yaml

logger = logging.getLogger("lightrag.pchunk")

#: libyaml's safe loader when PyYAML was built with it (10x faster), else PyYAML's own.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MAX_KEYS = 100
_MAX_ITEMS = 50
_MAX_CHARS = 2000


@dataclass(frozen=True)
class FrontMatter:
    """The document's title (``""`` when none) and its front matter's scalar fields."""

    title: str = ""
    fields: dict[str, Any] = field(default_factory=dict)


def read_front_matter(text: str) -> FrontMatter | None:
    """The front matter in ``text``; None when it is not a YAML mapping (logged)."""
    try:
        data = yaml.load(text, Loader=_LOADER)  # a safe loader: no Python objects
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        logger.warning("markdown front matter is not valid YAML, kept as text: %s", exc)
        return None
    if not isinstance(data, dict):
        return None
    fields: dict[str, Any] = {}
    for key, value in list(data.items())[:_MAX_KEYS]:
        summary = _summary(value)
        if summary is not None:
            fields[str(key)[:_MAX_CHARS]] = summary
    title = fields.get("title")
    return FrontMatter(
        title=" ".join(title.split()) if isinstance(title, str) else "", fields=fields
    )


def _summary(value: Any) -> Any:
    """A scalar, or a short list of scalars, as JSON can hold it; None for anything else."""
    if isinstance(value, list):
        items = [_scalar(item) for item in value[:_MAX_ITEMS]]
        return [item for item in items if item is not None]
    return _scalar(value)


def _scalar(value: Any) -> str | int | float | bool | None:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # JSON has no NaN or infinity
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return value[:_MAX_CHARS]
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    return None
