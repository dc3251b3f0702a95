"""Stage E (spec §3.4): ``[part n]`` numbers, counted on the final chunks.

Where a section became several chunks, each chunk that declares its heading gets its
1-based number (:func:`declared_parts`), counted after merging so that a fragment merged
into the chunk before leaves no gap and no suffix is ever stacked (§9.5).
``render_heading`` adds the suffix to the output heading; ``parent_headings`` never carry
one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Suffixes written by earlier chunkers ("[part 3]", legacy "[表格片段3]"): never kept,
# never stacked.
_GENERATED_SUFFIX = re.compile(r"\s*\[(?:part\s+\d+|表格片段\s*\d+)\]\s*$", re.IGNORECASE)


def strip_part_suffix(heading: str) -> str:
    """``heading`` without any trailing ``[part n]`` / ``[表格片段n]`` suffixes."""
    cleaned = heading.rstrip()
    while cleaned.endswith("]"):  # every suffix ends so: most headings need no search
        shorter = _GENERATED_SUFFIX.sub("", cleaned)
        if shorter == cleaned:
            break
        cleaned = shorter
    return cleaned


def declared_parts(labels: Sequence[tuple[str, tuple[str, ...]]]) -> list[int]:
    """The ``[part n]`` of each chunk, 0 for none, from the ``(heading, parents)`` each
    declares: consecutive chunks that declare one heading path are that heading's parts
    1, 2, 3 …; a heading declared by one chunk alone has no number. Counted on the final
    chunks, so a fragment merged into a chunk of another heading leaves no gap, and a
    stage C anchor, which heads its own sub-block, numbers only its own parts."""
    keys = [(parents, strip_part_suffix(heading)) for heading, parents in labels]
    numbers = [0] * len(keys)
    start = 0
    while start < len(keys):
        end = start + 1
        while end < len(keys) and keys[end] == keys[start]:
            end += 1
        if end - start > 1:
            numbers[start:end] = range(1, end - start + 1)
        start = end
    return numbers


def render_heading(heading: str, part: int) -> str:
    """The output heading: ``heading`` (any old suffix removed) plus ``[part n]`` when
    ``part`` is not 0."""
    base = strip_part_suffix(heading)
    if not part:
        return base
    suffix = f"[part {part}]"
    return f"{base} {suffix}" if base else suffix
