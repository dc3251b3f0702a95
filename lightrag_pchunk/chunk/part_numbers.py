"""Stage E (spec §3.4): ``[part n]`` provenance numbers per original content row.

``part_numbers`` runs after the splitting stages and before merging: when a content row
became several fragments, each fragment gets its 1-based number, so a merged chunk keeps
the number of its main (left) block and never stacks two (§9.5); stage D's ``pack``, which
may cut a row once more between paragraphs, numbers that row's fragments again.
``render_heading`` adds the suffix to the output heading; ``parent_headings`` never carry
one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import replace

from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.model import Block

# Suffixes written by earlier chunkers ("[part 3]", legacy "[表格片段3]"): never kept,
# never stacked.
_GENERATED_SUFFIX = re.compile(r"\s*\[(?:part\s+\d+|表格片段\s*\d+)\]\s*$", re.IGNORECASE)


def strip_part_suffix(heading: str) -> str:
    """``heading`` without any trailing ``[part n]`` / ``[表格片段n]`` suffixes."""
    cleaned = heading.rstrip()
    while True:
        shorter = _GENERATED_SUFFIX.sub("", cleaned)
        if shorter == cleaned:
            return cleaned
        cleaned = shorter


def part_numbers(blocks: Sequence[Block], ctx: Context) -> list[Block]:
    """Number the fragments of every content row that was split into more than one."""
    return number_fragments(blocks)


def number_fragments(blocks: Sequence[Block], rows: Collection[int] | None = None) -> list[Block]:
    """Number the fragments of each content row (of ``rows`` only, when given) 1, 2, ... in
    order; a row left whole has no number. Stage D calls it for the rows it cuts."""
    per_row = Counter(block.source_row for block in blocks)
    seen: Counter[int] = Counter()
    out: list[Block] = []
    for block in blocks:
        row = block.source_row
        if rows is None or row in rows:
            if per_row[row] > 1:
                seen[row] += 1
                block = replace(block, part=seen[row])
            elif block.part:
                block = replace(block, part=0)
        out.append(block)
    return out


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
