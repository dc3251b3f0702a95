"""How a keyed table row names its columns (``keyed_rows`` in ``tables.json``, and the
``keyed`` table text of the chunker): shared by the parser that writes them and the chunker
that derives them from a grid it was not given them for."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def header_key(labels: Iterable[str], index: int) -> str:
    """A column's key: its header labels top-down (whitespace collapsed, a label repeated by
    a vertical merge once) joined with ``" / "``; ``column n`` (1-based) when it has none."""
    path: list[str] = []
    for label in labels:
        flat = " ".join(label.split())
        if flat and (not path or path[-1] != flat):
            path.append(flat)
    return " / ".join(path) or f"column {index + 1}"


def unique_keys(keys: Sequence[str]) -> list[str]:
    """``keys`` with a repeat numbered (``Total``, ``Total (2)``), so a JSON object keeps
    every column."""
    seen: dict[str, int] = {}
    out: list[str] = []
    for key in keys:
        seen[key] = seen.get(key, 0) + 1
        out.append(key if seen[key] == 1 else f"{key} ({seen[key]})")
    return out
