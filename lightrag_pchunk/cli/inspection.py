"""``inspect``'s view of one document: its blocks file read, the P pipeline run one stage at a
time (the same functions, in the same order, as ``chunk_rows``) with what each stage did, and
the checks of ``checks.py`` over the result."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from lightrag_pchunk.blockfile.jsonl import LineProblem, read_blocks
from lightrag_pchunk.blockfile.sidecars import assets_dir, read_sidecar, read_table_items
from lightrag_pchunk.chunk.blocks import is_table_text
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.pipeline import STAGES, to_blocks, to_chunks
from lightrag_pchunk.chunk.references import drop_reference_rows
from lightrag_pchunk.chunk.table_tags import parse_table
from lightrag_pchunk.cli.checks import (
    WARN,
    Check,
    StageStep,
    TableInfo,
    chunk_checks,
    heading_check,
    part_check,
    sidecar_check,
    stage_check,
    table_check,
)
from lightrag_pchunk.cli.document_input import Sizes
from lightrag_pchunk.integration.config import reference_settings
from lightrag_pchunk.model import Block, BlockRow, Chunk, TableRole, Thresholds
from lightrag_pchunk.tokens import TokenCounter


@dataclass
class Inspection:
    """Everything ``inspect`` learned about one document."""

    blocks_path: Path
    sizes: Sizes
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

    @property
    def warnings(self) -> int:
        """How many checks say WARN."""
        return sum(check.status == WARN for check in self.checks)

    @property
    def is_p(self) -> bool:
        """False when P cannot run on these blocks (the SDK would fall back to R)."""
        return any(row.content.strip() for row in self.rows)


def inspect_blocks(blocks_path: str | Path, counter: TokenCounter, sizes: Sizes) -> Inspection:
    """Read ``blocks_path``, run the stages one by one and judge the result.

    Raises:
        BlockFileError: the file cannot be read at all.
    """
    path = Path(blocks_path)
    blocks_file = read_blocks(path)
    rows = [row for row in blocks_file.rows if row.content.strip()]
    thresholds = Thresholds.from_chunk_size(sizes.size)
    result = Inspection(
        blocks_path=path,
        sizes=sizes,
        thresholds=thresholds,
        meta=blocks_file.meta,
        rows=rows,
        problems=list(blocks_file.problems),
        sidecars=_sidecars(path),
    )
    doc_id = str((blocks_file.meta or {}).get("doc_id") or path.name)
    headers, keyed_rows = read_table_items(path)
    ctx = Context.create(
        counter,
        sizes.size,
        sizes.overlap,
        table_headers=headers,
        doc_id=doc_id,
        table_text=sizes.table_text,
        keyed_rows=keyed_rows,
        fill=sizes.fill,
    )
    result.tables = _tables(rows, counter)
    if sizes.drop_references and rows:
        tail_n, prefixes = reference_settings(None, None)
        kept = drop_reference_rows(rows, tail_n=tail_n, prefixes=prefixes, doc_id=doc_id)
        result.dropped_rows = len(rows) - len(kept)
        rows = kept
    if rows:
        result.steps, result.chunks = run_stages_traced(rows, ctx)
    result.checks = [
        sidecar_check(
            path,
            result.rows,
            meta=result.meta,
            problems=result.problems,
            sidecars=result.sidecars,
            dropped_rows=result.dropped_rows,
        ),
        heading_check(result.rows, len(result.chunks)),
        stage_check(result.steps),
        *chunk_checks(result.chunks, thresholds),
        table_check(result.tables, result.chunks, thresholds),
        part_check(result.chunks),
    ]
    return result


def run_stages_traced(
    rows: Sequence[BlockRow], ctx: Context
) -> tuple[list[StageStep], list[Chunk]]:
    """``chunk_rows`` one stage at a time, recording each stage's output."""
    blocks = to_blocks(rows, ctx)
    steps = [_step("A: blocks", blocks, f"{len(rows)} content rows -> {len(blocks)} blocks")]
    for name, stage in STAGES:
        before = blocks
        blocks = stage(blocks, ctx)
        steps.append(_step(name, blocks, _stage_note(name, before, blocks, ctx.thresholds)))
    chunks = to_chunks(blocks, ctx)
    recut = len(chunks) - len(blocks)
    note = "every chunk measured exactly" + (f"; {recut} re-cut to fit target_max" if recut else "")
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
    return steps, chunks


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
        return f"{tables} table(s) over table_max ({thresholds.table_max}) -> {slices} slices"
    if name == "bridge":
        pairs = sum(
            a.role is TableRole.LAST and b.role is TableRole.FIRST and a.source_row == b.source_row
            for a, b in pairwise(before)
        )
        if not pairs:
            return "no text between two sliced tables of one section"
        return f"text between {pairs} pair(s) of sliced tables shared with both sides"
    if name == "anchor_split":
        long_blocks = sum(b.tokens > thresholds.target_max for b in before)
        if not long_blocks:
            return f"no block over target_max ({thresholds.target_max})"
        headings = {b.heading for b in before}
        promoted = sum(b.heading not in headings for b in after)
        return (
            f"{long_blocks} block(s) over target_max -> +{len(after) - len(before)} blocks, "
            f"{promoted} with a promoted anchor heading"
        )
    if name == "heading_glue":
        return f"{len(before) - len(after)} heading-only block(s) glued to the section after them"
    if name == "merge":
        return f"{len(before)} -> {len(after)} blocks ({len(before) - len(after)} merges)"
    return f"{len(before)} -> {len(after)} blocks"


def _sidecars(blocks_path: Path) -> dict[str, int]:
    """Items per sidecar next to the blocks file; the assets folder counts its files."""
    found: dict[str, int] = {}
    for kind in ("tables", "equations", "drawings"):
        if blocks_path.with_name(f"{_stem(blocks_path)}.{kind}.json").is_file():
            found[f"{kind}.json"] = len(read_sidecar(blocks_path, kind))
    assets = assets_dir(blocks_path)
    if assets.is_dir():
        found["blocks.assets/"] = sum(1 for item in assets.iterdir() if item.is_file())
    return found


def _stem(blocks_path: Path) -> str:
    return blocks_path.name.removesuffix(".blocks.jsonl")


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
