"""The validation checks of docs/strategy.md §12, pure functions of a document's rows and chunks.

Sidecar present (§12.1), heading/level table (§12.2), what each stage did, chunk sizes
against [target_ideal, target_max] (§12.4), tails below small_tail_threshold, chunks over
target_max (§13.4), table slices and roles (§13.2), the breadcrumbs: each chunk's heading
path against the breadcrumb contract, ``[part n]`` included (§13.5), and blocks over 4 N
tokens that hold heading-like lines (``chunk/long_blocks.py``). Each check is OK, WARN or
INFO with the reason and the spec's hint; ``inspection.py`` gathers the inputs, and tests
can feed hand-made chunks.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lightrag_pchunk.blockfile.jsonl import LineProblem
from lightrag_pchunk.chunk.breadcrumbs import Violation, check_breadcrumbs
from lightrag_pchunk.chunk.chunk_headings import SPAN_DASH
from lightrag_pchunk.chunk.long_blocks import LONG_BLOCK_FACTOR, LongBlock
from lightrag_pchunk.chunk.pages import has_pages
from lightrag_pchunk.chunk.part_numbers import part_number, strip_part_suffix
from lightrag_pchunk.integration.decision import NO_TEXT
from lightrag_pchunk.model import PREFACE_HEADING, BlockRow, Chunk, TableRole, Thresholds
from lightrag_pchunk.wording import counted, number_ranges

OK, WARN, INFO = "OK", "WARN", "INFO"
_LEGACY_PART = re.compile(r"\[表格片段\s*\d+\]")
#: How many items a check lists by name (malformed lines, inferred headings, tails,
#: oversize chunks, tables) before it says how many more there are.
_MAX_LISTED = 40


@dataclass(frozen=True, slots=True)
class Check:
    """One validation result: a status, a one-line summary, the spec section, details."""

    name: str
    status: str
    summary: str
    spec: str
    details: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StageStep:
    """What one stage handed on: block count, token sum and largest block, roles."""

    name: str
    blocks: int
    tokens: int
    largest: int
    roles: dict[str, int]
    note: str


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A ``<table>`` tag of the blocks file."""

    table_id: str
    format: str
    tokens: int
    heading: str


def heading_path(chunk: Chunk) -> str:
    """``parent > parent > heading`` of a chunk."""
    return " > ".join([*chunk.parent_headings, chunk.heading])


def sidecar_check(
    blocks_path: Path | None,
    rows: Sequence[BlockRow],
    *,
    meta: Mapping[str, Any] | None,
    problems: Sequence[LineProblem],
    sidecars: Mapping[str, int],
    dropped_rows: int = 0,
    unparsed: str | None = None,
) -> Check:
    """§12.1: the blocks file exists, has content rows, and which sidecars sit next to it.
    ``unparsed``: why a document with text has no blocks (its text read as written)."""
    found = ", ".join(f"{name} ({n})" for name, n in sidecars.items()) or "none"
    name = blocks_path.name if blocks_path is not None else "no blocks file"
    summary = f"{name}: {counted(len(rows), 'content row')}; sidecars: {found}"
    if unparsed:
        return Check("sidecar", INFO, summary, "§12.1", (f"text read as written: {unparsed}",))
    details = []
    if meta:
        details.append(
            f"meta: parse_engine={meta.get('parse_engine')!r}, "
            f"parser={meta.get('parser', 'LightRAG')!r}"
        )
    else:
        details.append("no meta row (not written by a LightRAG-compatible parser?)")
    for problem in problems[:_MAX_LISTED]:
        details.append(f"line {problem.line_number}: {problem.message}")
    if dropped_rows:
        details.append(
            f"{counted(dropped_rows, 'row')} left out on purpose (drop_toc, drop_references:"
            " see the settings)"
        )
    if not any(row.content.strip() for row in rows):
        details.append(f"empty: {NO_TEXT}, so there is nothing to chunk or store")
        return Check("sidecar", INFO, summary, "§12.1", tuple(details))
    if problems:
        details.append("malformed lines: their text was salvaged where possible (see above)")
        return Check("sidecar", WARN, summary, "§12.1", tuple(details))
    return Check("sidecar", OK, summary, "§12.1", tuple(details))


def heading_check(rows: Sequence[BlockRow], chunk_count: int = 2) -> Check:
    """§12.2: headings and levels as the parser recognised them.

    A document without headings is a warning only when it makes more than one chunk: a short
    untitled text needs no structure.
    """
    if not rows:
        return Check("headings", INFO, "no content rows", "§12.2")
    by_level: dict[int, list[BlockRow]] = {}
    for row in rows:
        by_level.setdefault(row.level, []).append(row)
    details = [
        f"level {level}: {counted(len(items), 'row')}, e.g. {_example_heading(items)!r}"
        for level, items in sorted(by_level.items())
    ]
    untitled = [r for r in rows if not r.is_title_block and r.heading in ("", PREFACE_HEADING)]
    empty = [r for r in rows if not r.heading.strip() and not r.is_title_block]
    abnormal = [r for r in rows if not (1 <= r.level <= 9) and not r.is_title_block]
    deep_parents = [r for r in rows if not r.is_title_block and len(r.parent_headings) >= r.level]
    problems = []
    if len(untitled) == len(rows):
        if chunk_count > 1:
            problems.append(
                "no headings recognised: every row is untitled, so P can only cut by size; "
                "use Word heading styles or outline levels"
            )
    elif len(untitled) * 2 > len(rows):
        problems.append(f"{len(untitled)} of {len(rows)} rows have no heading")
    if empty:
        problems.append(
            f"{counted(len(empty), 'row')} with an empty heading (line {empty[0].line_number})"
        )
    if abnormal:
        problems.append(
            f"{counted(len(abnormal), 'row')} with a level outside 1-9 "
            f"(line {abnormal[0].line_number}: level {abnormal[0].level})"
        )
    if deep_parents:
        problems.append(
            f"{counted(len(deep_parents), 'row')} with more parent headings than their level"
            f" allows (line {deep_parents[0].line_number})"
        )
    levels = ", ".join(f"{level}x{len(items)}" for level, items in sorted(by_level.items()))
    summary = f"{counted(len(rows), 'row')}; levels {levels}; {len(untitled)} untitled"
    inferred = [r for r in rows if r.extra.get("heading_source") == "inferred"]
    tocs = [r for r in rows if r.extra.get("session_type") == "toc"]
    if inferred:
        summary += f"; {len(inferred)} inferred by the smart outline"
        details = [
            *details,
            *(
                f"inferred: {'  ' * (r.level - 1)}{r.heading!r} (level {r.level}, line "
                f"{r.line_number})"
                for r in inferred[:_MAX_LISTED]
            ),
        ]
        if len(inferred) > _MAX_LISTED:
            details.append(f"inferred: ... and {len(inferred) - _MAX_LISTED} more")
    if tocs:
        summary += f"; {counted(len(tocs), 'table of contents')}"
        details.append(
            "table of contents: " + ", ".join(f"{r.heading!r} (line {r.line_number})" for r in tocs)
        )
    if problems:
        hint = "if headings are empty or levels abnormal, the parser missed the heading styles"
        return Check("headings", WARN, summary, "§12.2", (*problems, hint, *details))
    return Check("headings", OK, summary, "§12.2", tuple(details))


def _example_heading(rows: Sequence[BlockRow]) -> str:
    named = [r.heading for r in rows if r.heading.strip() and r.heading != PREFACE_HEADING]
    return named[0] if named else rows[0].heading or "(empty)"


def stage_check(steps: Sequence[StageStep]) -> Check:
    """§1.4: what each stage did."""
    if not steps:
        return Check("stages", INFO, "the stages did not run (no content rows)", "§2")
    details = [
        f"{step.name:<13} {counted(step.blocks, 'block'):>11}  max {step.largest:>6} tokens"
        f"  {step.note}"
        for step in steps
    ]
    summary = f"{counted(steps[0].blocks, 'block')} -> {counted(steps[-1].blocks, 'chunk')}"
    return Check("stages", INFO, summary, "§2", tuple(details))


def small_chunk_reason(chunks: Sequence[Chunk], index: int, thresholds: Thresholds) -> str:
    """Why chunk ``index`` (below target_ideal) was probably not merged further (§9, §13.3)."""
    chunk = chunks[index]
    if chunk.role is not TableRole.NONE:
        return f"a {chunk.role.value} table slice (slices aim at table_ideal)"
    if index + 1 >= len(chunks):
        return "the last chunk of the document"
    nxt = chunks[index + 1]
    if nxt.role in (TableRole.FIRST, TableRole.MIDDLE):
        return f"the next chunk is a {nxt.role.value} table slice, which is never absorbed"
    if nxt.level < chunk.level:
        return "the next chunk is shallower: a deeper chunk never absorbs a shallower one"
    own_path = (*chunk.parent_headings, strip_part_suffix(chunk.heading))
    is_child = tuple(nxt.parent_headings[: len(own_path)]) == own_path
    if nxt.parent_headings != chunk.parent_headings and not is_child:
        return "the parent heading path changes at the next chunk (a new section)"
    if chunk.tokens + nxt.tokens > thresholds.target_max:
        return "joined with the next chunk it would exceed target_max"
    if nxt.tokens >= thresholds.target_ideal:
        return "the next chunk already reached target_ideal"
    return "no blocker found"


def chunk_checks(chunks: Sequence[Chunk], thresholds: Thresholds) -> list[Check]:
    """§12.4 and §13.4: the size distribution, tails and chunks over target_max."""
    if not chunks:
        return [Check("sizes", INFO, "no chunks", "§12.4")]
    ideal, cap = thresholds.target_ideal, thresholds.target_max
    tail = thresholds.small_tail_threshold
    in_range = sum(ideal <= c.tokens <= cap for c in chunks)
    small = [i for i, c in enumerate(chunks) if c.tokens < ideal]
    reasons = Counter(small_chunk_reason(chunks, i, thresholds) for i in small)
    unexplained = reasons.get("no blocker found", 0)
    over = [c for c in chunks if c.tokens > cap]
    summary = (
        f"{in_range} of {counted(len(chunks), 'chunk')} in [target_ideal {ideal}, target_max"
        f" {cap}], {len(small)} below, {len(over)} over"
    )
    details = [f"{count} below target_ideal: {reason}" for reason, count in reasons.most_common()]
    details.append(histogram_line(chunks, thresholds))
    status = OK
    if in_range * 2 < len(chunks) and unexplained * 4 > len(chunks) and unexplained >= 2:
        status = WARN
        details.append(
            "many small chunks without a structural reason: check the parent_headings and "
            "levels of neighbouring clauses (§12.4, §13.3)"
        )
    checks = [Check("sizes", status, summary, "§12.4", tuple(details))]

    tails = [i for i in small if chunks[i].tokens < tail]
    tail_lines = tuple(
        f"#{i} {chunks[i].tokens} tokens {heading_path(chunks[i])!r}: "
        f"{small_chunk_reason(chunks, i, thresholds)}"
        for i in tails[:_MAX_LISTED]
    )
    many = len(tails) >= 3 and len(tails) * 5 > len(chunks)
    tail_summary = f"{counted(len(tails), 'chunk')} below small_tail_threshold ({tail})"
    if many:
        hint = (
            "many tails: adjacent small chunks with different parent_headings cannot merge, "
            "and middle table slices block tail absorption (§12.4, §13.3)"
        )
        checks.append(Check("tails", WARN, tail_summary, "§12.4", (*tail_lines, hint)))
    else:
        checks.append(Check("tails", OK, tail_summary, "§12.4", tail_lines))

    over_lines = tuple(
        f"#{c.order} {c.tokens} tokens {heading_path(c)!r}: "
        + (
            f"recorded as {c.oversize} (a single row or run larger than N, §13.4)"
            if c.oversize
            else "not explained: please report it"
        )
        for c in over[:_MAX_LISTED]
    )
    over_summary = f"{counted(len(over), 'chunk')} over target_max ({cap})"
    checks.append(Check("oversize", WARN if over else OK, over_summary, "§13.4", over_lines))
    return checks


def histogram_bins(chunks: Sequence[Chunk], thresholds: Thresholds) -> list[tuple[str, int]]:
    """Chunk counts in the spec's bands: tail, small, ideal range, over."""
    tail, ideal, cap = (
        thresholds.small_tail_threshold,
        thresholds.target_ideal,
        thresholds.target_max,
    )
    return [
        (f"< {tail}", sum(c.tokens < tail for c in chunks)),
        (f"{tail}-{ideal - 1}", sum(tail <= c.tokens < ideal for c in chunks)),
        (f"{ideal}-{cap}", sum(ideal <= c.tokens <= cap for c in chunks)),
        (f"> {cap}", sum(c.tokens > cap for c in chunks)),
    ]


def histogram_line(chunks: Sequence[Chunk], thresholds: Thresholds) -> str:
    """``tokens < 250: 2 | 250-1499: 10 | 1500-2000: 5 | > 2000: 0``."""
    bins = histogram_bins(chunks, thresholds)
    return "tokens " + " | ".join(f"{label}: {n}" for label, n in bins)


def table_check(
    tables: Sequence[TableInfo], chunks: Sequence[Chunk], thresholds: Thresholds
) -> Check:
    """§13.2: tables found, which were sliced, their slices' roles."""
    if not tables:
        return Check("tables", OK, "no tables", "§13.2")
    big = [t for t in tables if t.tokens > thresholds.table_max]
    unknown = [t for t in tables if t.format not in ("json", "html")]
    roles = Counter(c.role.value for c in chunks if c.role is not TableRole.NONE)
    summary = (
        f"{counted(len(tables), 'table')}, {len(big)} over table_max ({thresholds.table_max}); "
        f"slices: " + (", ".join(f"{role} {n}" for role, n in sorted(roles.items())) or "none")
    )
    listed = [t for t in tables if t in big or t in unknown]
    details = [
        f"{t.table_id} ({t.format}, {t.tokens} tokens) under {t.heading!r}"
        + (" -> sliced by rows" if t in big and t.format in ("json", "html") else "")
        for t in listed[:_MAX_LISTED]
    ]
    if len(tables) > len(listed):
        details.append(f"{counted(len(tables) - len(listed), 'table')} within table_max kept whole")
    if unknown:
        details.append(
            f"{counted(len(unknown), 'table')} of unknown format: split by characters, no"
            " first/last roles (§13.2)"
        )
        return Check("tables", WARN, summary, "§13.2", tuple(details))
    return Check("tables", OK, summary, "§13.2", tuple(details))


def breadcrumb_check(
    rows: Sequence[BlockRow],
    chunks: Sequence[Chunk],
    violations: Sequence[Violation] | None = None,
) -> Check:
    """The breadcrumb contract (``chunk/breadcrumbs.py``): each chunk's heading path is one of
    the outline and holds its text, ``[part n]`` counts the parts of one heading with no
    gap. Every broken promise is listed with its chunk and why; legacy ``[表格片段N]``
    suffixes too (§13.5)."""
    if not chunks:
        return Check("crumbs", INFO, "no chunks", "§13.5")
    if violations is None:  # else the caller checked them already
        violations = check_breadcrumbs(rows, chunks)
    legacy = [c for c in chunks if _LEGACY_PART.search(c.heading)]
    numbered = sum(part_number(c.heading) is not None for c in chunks)
    spans = sum(SPAN_DASH in c.heading for c in chunks)
    summary = (
        f"{counted(len(violations), 'broken promise')} in"
        f" {counted(len(chunks), 'chunk heading')}; {numbered} carry [part n],"
        f" {counted(spans, 'names a span', 'name a span')} of sections"
    )
    details = [violation.describe() for violation in violations]
    if legacy:
        details.append(f"{len(legacy)} legacy [表格片段N] suffix(es): re-chunk the document")
    status = WARN if violations or legacy else OK
    return Check("crumbs", status, summary, "§13.5", tuple(details))


def long_block_check(long_blocks: Sequence[LongBlock], size: int) -> Check:
    """Blocks over 4 x chunk_token_size whose text holds lines that read as headings
    (``chunk/long_blocks.py``): the outline may have missed them, and every chunk of the
    block carries its one heading path."""
    summary = f"{counted(len(long_blocks), 'block')} over {LONG_BLOCK_FACTOR * size} tokens"
    if not long_blocks:
        return Check("long", OK, summary + " with heading-like lines", "§12.2")
    details = [
        f"{block.heading!r} (line {block.line_number}, {block.tokens} tokens): "
        + ", ".join(repr(title) for title in block.titles[:3])
        + (" …" if len(block.titles) > 3 else "")
        for block in long_blocks
    ]
    hint = "read from the text alone (list items may count); if they are headings, style them"
    verb = "holds" if len(long_blocks) == 1 else "hold"
    return Check("long", WARN, f"{summary} {verb} heading-like lines", "§12.2", (*details, hint))


def page_check(rows: Sequence[BlockRow], chunks: Sequence[Chunk]) -> Check:
    """Pages (a PDF): every chunk carries the pages its text is printed on."""
    if not has_pages(rows):
        return Check("pages", INFO, "the blocks record no pages (not a PDF)", "pdf")
    missing = [c.order for c in chunks if not c.pages]
    pages = sorted({span.page for c in chunks for span in c.pages})
    summary = f"chunks on pages {number_ranges(pages)}" if pages else "no chunk"
    if not missing:
        return Check("pages", OK, f"{summary}; every chunk carries its pages", "pdf")
    without = f"{counted(len(missing), 'chunk')} without pages: {number_ranges(missing)}"
    return Check("pages", WARN, f"{summary}; {without}", "pdf")


def pages_label(pages: Sequence[int]) -> str:
    """``p. 3``, ``pp. 3-5``, ``pp. 3, 5-7`` ("" for none)."""
    if not pages:
        return ""
    return f"p. {pages[0]}" if len(pages) == 1 else f"pp. {number_ranges(sorted(set(pages)))}"
