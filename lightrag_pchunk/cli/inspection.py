"""``inspect``'s view of one document: what the front door did with it (its settings, its
decision, the rows P chunked and every stage's output, from ``front_door.run``'s trace) and
the checks of ``checks.py`` over the result."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

from lightrag_pchunk.blockfile.jsonl import LineProblem
from lightrag_pchunk.blockfile.sidecars import (
    SIDECAR_KINDS,
    assets_dir,
    read_sidecar,
    sidecar_path,
)
from lightrag_pchunk.chunk.blocks import is_table_text
from lightrag_pchunk.chunk.breadcrumbs import Violation, check_breadcrumbs
from lightrag_pchunk.chunk.long_blocks import headed_long_blocks
from lightrag_pchunk.chunk.table_tags import parse_table
from lightrag_pchunk.cli.checks import (
    INFO,
    WARN,
    Check,
    StageStep,
    TableInfo,
    breadcrumb_check,
    chunk_checks,
    heading_check,
    long_block_check,
    page_check,
    sidecar_check,
    stage_check,
    table_check,
)
from lightrag_pchunk.cli.document_input import sizes_text
from lightrag_pchunk.integration.config import PSettings
from lightrag_pchunk.integration.decision import Decision, Strategy
from lightrag_pchunk.integration.formats import format_of_suffix
from lightrag_pchunk.integration.front_door import Run, Trace, run
from lightrag_pchunk.integration.request import Request
from lightrag_pchunk.integration.settings import Settings, resolve
from lightrag_pchunk.model import Block, BlockRow, Chunk, PageSpan, TableRole, Thresholds
from lightrag_pchunk.tokens import TokenCounter
from lightrag_pchunk.wording import counted


@dataclass
class Inspection:
    """Everything ``inspect`` learned about one document."""

    blocks_path: Path | None
    settings: PSettings
    thresholds: Thresholds
    meta: dict[str, Any] | None
    rows: list[BlockRow]
    problems: list[LineProblem]
    sidecars: dict[str, int]
    tables: list[TableInfo] = field(default_factory=list)
    steps: list[StageStep] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    dropped_rows: int = 0
    violations: list[Violation] = field(default_factory=list)  # the breadcrumb contract's
    #: R's size and overlap when R made ``chunks`` (P did not run: a fallback); None: P.
    r_sizes: tuple[int, int] | None = None

    def chunker(self) -> str:
        """Who made the chunks shown, at what sizes: ``P checks, size 2000 (default),
        overlap 100 (default)``, or R's when P did not run."""
        if self.r_sizes is None:
            return f"P checks, {sizes_text(self.settings)}"
        size, overlap = self.r_sizes
        return f"R's chunks (P did not run), size {size}, overlap {overlap}"

    @property
    def warnings(self) -> int:
        """How many checks say WARN."""
        return sum(check.status == WARN for check in self.checks)


def inspect_document(
    request: Request,
    counter: TokenCounter,
    *,
    settings: Settings | None = None,
    parsed_dir: Path | None = None,
) -> tuple[Decision, Inspection]:
    """The decision for ``request``'s document and the checks of what P made of it: the
    front door's own run, traced; for a document routed to R, P's run over the same blocks
    (what P would make of it); without blocks P can read (a fallback), R's chunks."""
    settings = resolve(request) if settings is None else settings
    done = run(request, counter.tokenizer, settings=settings, parsed_dir=parsed_dir, trace=True)
    decision = done.decision
    if decision.strategy is Strategy.P or decision.is_fallback or decision.is_empty:
        return decision, inspection_of(done, counter)
    parsed = done.source.parsed if done.source is not None else None
    blocks = decision.blocks_path or (parsed.blocks_path if parsed is not None else None)
    if blocks is None:  # text read as written: no blocks to show
        return decision, inspection_of(done, counter)
    # P at this file's own P settings (a rule's or hint's P(...) included), which the
    # settings line shows and P would run at if the route chose it.
    as_p = Request(request.entrance, blocks=blocks, flags=request.flags, env=request.env)
    as_p_settings = resolve(as_p)
    if settings.p is not None:  # None only for a text registered to get R
        as_p_settings = replace(as_p_settings, p=settings.p)
    done_as_p = run(as_p, counter.tokenizer, settings=as_p_settings, trace=True)
    return decision, inspection_of(done_as_p, counter)


def inspection_of(done: Run, counter: TokenCounter) -> Inspection:
    """The checks of what P made of a document (``done``: a traced run), or of R's chunks
    when R made them."""
    decision, trace = done.decision, done.trace
    blocks, p = decision.blocks, decision.settings
    assert blocks is not None and p is not None  # a P decision, or a P fallback
    path = blocks.path
    result = Inspection(
        blocks_path=path,
        settings=p,
        thresholds=trace.thresholds if trace else Thresholds.from_chunk_size(p.chunk_token_size),
        meta=blocks.meta,
        rows=list(blocks.rows),
        problems=list(blocks.line_problems),
        sidecars=_sidecars(path) if path is not None else {},
        tables=_tables(blocks.rows, counter),
    )
    if trace is not None and decision.strategy is Strategy.P:
        result.steps = _steps(trace, result.thresholds)
        result.chunks = list(trace.chunks)
        result.dropped_rows = trace.dropped_rows
        result.violations = check_breadcrumbs(result.rows, result.chunks)
    elif decision.strategy is Strategy.R and not decision.is_empty:
        # P could not run (a fallback): the document gets R's chunks, so they are checked.
        result.r_sizes = (decision.r_size, decision.r_overlap)
        result.thresholds = Thresholds.from_chunk_size(decision.r_size)
        result.chunks = [_r_chunk(row) for row in done.rows]
    thresholds = result.thresholds
    by_p = result.r_sizes is None
    result.checks = [
        sidecar_check(
            path,
            result.rows,
            meta=result.meta,
            problems=result.problems,
            sidecars=result.sidecars,
            dropped_rows=result.dropped_rows,
            unparsed=blocks.problem if path is None and not decision.is_empty else None,
        ),
        heading_check(result.rows, len(result.chunks)),
        stage_check(result.steps) if by_p else Check("stages", INFO, _R_MADE_THEM, "§2"),
        *chunk_checks(result.chunks, thresholds),
        *(_p_promises(result, counter, p.chunk_token_size) if by_p else ()),
        page_check(result.rows, result.chunks),
    ]
    return result


def _p_promises(result: Inspection, counter: TokenCounter, size: int) -> tuple[Check, ...]:
    """What P promises of tables and headings (a long block's one heading path on each of
    its chunks); R's chunks carry no heading and promise neither."""
    long_blocks = headed_long_blocks(result.rows, counter, size, markdown=_is_md(result))
    return (
        table_check(result.tables, result.chunks, result.thresholds),
        breadcrumb_check(result.rows, result.chunks, result.violations),
        long_block_check(long_blocks, size),
    )


_R_MADE_THEM = "the stages did not run (R made the chunks)"


def _r_chunk(row: dict[str, Any]) -> Chunk:
    """One of R's LightRAG rows as a chunk: no heading; its pages from its sidecar (a PDF)."""
    sidecar = row.get("sidecar") or {}
    pages = tuple(
        PageSpan(int(position["anchor"]), *position["charspan"])
        for position in sidecar.get("positions", ())
    )
    return Chunk(
        content=row["content"],
        tokens=row["tokens"],
        order=row["chunk_order_index"],
        heading="",
        parent_headings=(),
        level=0,
        pages=pages,
    )


def _is_md(result: Inspection) -> bool:
    """Whether the blocks are a Markdown file's (their meta row names its suffix)."""
    fmt = format_of_suffix(str((result.meta or {}).get("document_format") or ""))
    return fmt is not None and fmt.name == "markdown"


def _steps(trace: Trace, thresholds: Thresholds) -> list[StageStep]:
    """One step per stage, with a sentence on what it changed, then stage E."""
    steps: list[StageStep] = []
    before: Sequence[Block] = ()
    for index, (name, blocks) in enumerate(trace.stages):
        if index == 0:
            note = f"{counted(len(trace.rows), 'content row')} -> {counted(len(blocks), 'block')}"
        else:
            note = _stage_note(name, before, blocks, thresholds)
        steps.append(_step(name, blocks, note))
        before = blocks
    chunks = trace.chunks
    empty = len(before) - len(chunks)
    note = "every chunk measured exactly, nothing cut" + (
        f"; {counted(empty, 'empty block')} left out" if empty else ""
    )
    roles = Counter(c.role.value for c in chunks)
    steps.append(
        StageStep(
            "E: chunks",
            len(chunks),
            sum(c.tokens for c in chunks),
            max((c.tokens for c in chunks), default=0),
            dict(roles),
            note,
        )
    )
    return steps


def _step(name: str, blocks: Sequence[Block], note: str) -> StageStep:
    roles = Counter(block.role.value for block in blocks)
    tokens = [block.tokens for block in blocks]
    return StageStep(name, len(blocks), sum(tokens), max(tokens, default=0), dict(roles), note)


def _stage_note(
    name: str, before: Sequence[Block], after: Sequence[Block], thresholds: Thresholds
) -> str:
    """A sentence on what stage ``name`` changed (from its input and output)."""
    if name == "table_slices":
        tables = sum(b.role is TableRole.FIRST for b in after)
        slices = sum(b.role is not TableRole.NONE for b in after)
        if not tables:
            return f"no table over table_max ({thresholds.table_max}) to slice"
        return (
            f"{counted(tables, 'table')} over table_max ({thresholds.table_max}) ->"
            f" {counted(slices, 'slice')}"
        )
    if name == "bridge":
        pairs = sum(
            a.role is TableRole.LAST and b.role is TableRole.FIRST and a.source_row == b.source_row
            for a, b in pairwise(before)
        )
        if not pairs:
            return "no text between two sliced tables of one section"
        return f"text between {counted(pairs, 'pair')} of sliced tables shared with both sides"
    if name == "anchor_split":
        long_blocks = sum(b.tokens > thresholds.target_max for b in before)
        if not long_blocks:
            return f"no block over target_max ({thresholds.target_max})"
        headings = {b.heading for b in before}
        promoted = sum(b.heading not in headings for b in after)
        return (
            f"{counted(long_blocks, 'block')} over target_max -> +{len(after) - len(before)}"
            f" blocks, {promoted} with a promoted anchor heading"
        )
    if name == "heading_glue":
        glued = counted(len(before) - len(after), "heading-only block")
        return f"{glued} glued to the section after them"
    if name == "merge":
        merges = counted(len(before) - len(after), "merge")
        return f"{len(before)} -> {counted(len(after), 'block')} ({merges})"
    return f"{len(before)} -> {counted(len(after), 'block')}"


def _sidecars(blocks_path: Path) -> dict[str, int]:
    """Items per sidecar next to the blocks file; the assets folder counts its files."""
    found: dict[str, int] = {}
    for kind in SIDECAR_KINDS:
        if sidecar_path(blocks_path, kind).is_file():
            found[f"{kind}.json"] = len(read_sidecar(blocks_path, kind))
    assets = assets_dir(blocks_path)
    if assets.is_dir():
        found["blocks.assets/"] = sum(1 for item in assets.iterdir() if item.is_file())
    return found


def _tables(rows: Sequence[BlockRow], counter: TokenCounter) -> list[TableInfo]:
    tables: list[TableInfo] = []
    for row in rows:
        for line in row.content.split("\n"):
            if not is_table_text(line):
                continue
            tag = parse_table(line)
            tables.append(
                TableInfo(
                    table_id=(tag.table_id if tag else None) or f"(row {row.line_number})",
                    format=(tag.format if tag else None) or "unknown",
                    tokens=counter.count(line.strip()),
                    heading=row.heading,
                )
            )
    return tables
