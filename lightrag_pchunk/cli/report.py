"""The HTML report of ``lightrag-pchunk inspect``: one self-contained page (no scripts, no
external assets) with the checks, a chunk-size histogram (inline SVG), the stages, and the
document drawn as its chunks, each a box with its heading path, token count and table role.

Every piece of document text is escaped: a document can contain anything, ``<script>``
included, and the report must show it as text.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from lightrag_pchunk.chunk.table_tags import json_rows, parse_table
from lightrag_pchunk.cli.checks import heading_path, pages_label
from lightrag_pchunk.cli.document_input import sizes_text
from lightrag_pchunk.cli.inspection import Inspection
from lightrag_pchunk.integration.formats import format_for
from lightrag_pchunk.model import Chunk, TableRole, Thresholds

#: Box colours per table role (spec §6.4); an oversize chunk gets a red frame.
ROLE_COLOURS = {
    TableRole.NONE: "#8a94a6",
    TableRole.FIRST: "#2e9e5b",
    TableRole.MIDDLE: "#e0892b",
    TableRole.LAST: "#3a74d9",
}
_STATUS_COLOURS = {"OK": "#2e9e5b", "WARN": "#d64545", "INFO": "#6b7280"}
_OVERSIZE = "#d64545"

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans CJK SC",sans-serif;
margin:0 auto;max-width:1100px;padding:16px 24px;color:#1f2430;background:#f6f7f9}
h1{font-size:20px;margin:8px 0}h2{font-size:16px;margin:24px 0 8px}
.meta{color:#555;margin:2px 0}table.grid{border-collapse:collapse;width:100%;background:#fff}
.grid td,.grid th{border:1px solid #dde1e7;padding:4px 8px;text-align:left;vertical-align:top}
.badge{display:inline-block;color:#fff;border-radius:4px;padding:0 6px;font-weight:600}
.details{margin:4px 0 0 16px;padding:0;color:#444;font-size:13px}
.chunk{background:#fff;border:1px solid #dde1e7;border-left:6px solid;border-radius:4px;
margin:10px 0;padding:0 0 8px}
.chunk header{padding:6px 10px;background:#fbfbfc;border-bottom:1px solid #eceef2;
font-size:13px;display:flex;gap:12px;flex-wrap:wrap;align-items:center}
.chunk .path{font-weight:600}.chunk .bar{height:4px;margin:0 10px 6px}
.chunk .body{padding:4px 12px;white-space:pre-wrap;word-break:break-word}
.chunk .h{font-weight:700}.chunk p{margin:2px 0}
.chunk table{border-collapse:collapse;margin:4px 0;font-size:12px}
.chunk table td{border:1px solid #d0d5dd;padding:1px 6px}
.chunk table tr:first-child td{background:#f0f2f5}
.legend span{display:inline-block;margin-right:14px}
.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px}
"""


def default_report_path(source: Path) -> Path:
    """``<dir>/<stem>.inspect.html`` next to the input (a file or a ``.parsed/`` folder)."""
    name = source.name
    for suffix in (".blocks.jsonl", ".parsed"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    if format_for(name) is not None or name.lower().endswith(".jsonl"):
        name = Path(name).stem
    return source.parent / f"{name}.inspect.html"


def write_report(inspection: Inspection, path: Path, *, title: str, source: str = "") -> Path:
    """Render the report and write it (UTF-8) to ``path``."""
    path.write_text(render_report(inspection, title=title, source=source), encoding="utf-8")
    return path


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def render_report(inspection: Inspection, *, title: str, source: str = "") -> str:
    """The whole report as one HTML document; ``source`` says where the blocks came from."""
    thresholds = inspection.thresholds
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)} — lightrag-pchunk inspect</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="meta">{_e(source or f"Blocks file: {inspection.blocks_path}")}</p>',
        f'<p class="meta">P strategy, {_e(sizes_text(inspection.settings))}; '
        f"target_max {thresholds.target_max}, target_ideal {thresholds.target_ideal}, "
        f"table_max {thresholds.table_max}, table_ideal {thresholds.table_ideal}, "
        f"small_tail_threshold {thresholds.small_tail_threshold}</p>",
        "<h2>Checks</h2>",
        _checks_table(inspection),
        "<h2>Chunk sizes</h2>",
        histogram_svg([c.tokens for c in inspection.chunks], thresholds),
        "<h2>Stages</h2>",
        _stages_table(inspection),
        f"<h2>Document as chunks ({len(inspection.chunks)})</h2>",
        _legend(),
        *(_chunk_box(chunk, thresholds) for chunk in inspection.chunks),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _badge(status: str) -> str:
    colour = _STATUS_COLOURS.get(status, "#6b7280")
    return f'<span class="badge" style="background:{colour}">{_e(status)}</span>'


def _checks_table(inspection: Inspection) -> str:
    rows = []
    for check in inspection.checks:
        # The stages have their own table below.
        lines = () if check.name == "stages" else check.details
        details = "".join(f"<li>{_e(line)}</li>" for line in lines)
        detail_list = f'<ul class="details">{details}</ul>' if details else ""
        rows.append(
            f"<tr><td>{_badge(check.status)}</td><td>{_e(check.name)}</td>"
            f"<td>{_e(check.spec)}</td><td>{_e(check.summary)}{detail_list}</td></tr>"
        )
    head = "<tr><th>Status</th><th>Check</th><th>Spec</th><th>Result</th></tr>"
    return f'<table class="grid">{head}{"".join(rows)}</table>'


def _stages_table(inspection: Inspection) -> str:
    if not inspection.steps:
        return "<p>The stages did not run: the blocks file has no content rows.</p>"
    rows = "".join(
        f"<tr><td>{_e(step.name)}</td><td>{step.blocks}</td><td>{step.largest}</td>"
        f"<td>{_e(', '.join(f'{k} {v}' for k, v in sorted(step.roles.items())))}</td>"
        f"<td>{_e(step.note)}</td></tr>"
        for step in inspection.steps
    )
    head = (
        "<tr><th>Stage</th><th>Blocks</th><th>Largest</th><th>Roles</th><th>What it did</th></tr>"
    )
    return f'<table class="grid">{head}{rows}</table>'


def _legend() -> str:
    items = "".join(
        f'<span><i style="background:{colour}"></i>{_e(role.value)}</span>'
        for role, colour in ROLE_COLOURS.items()
    )
    over = f'<span><i style="background:{_OVERSIZE}"></i>over target_max</span>'
    return f'<p class="legend">Table role: {items}{over}</p>'


def histogram_svg(tokens: Sequence[int], thresholds: Thresholds, *, bins: int = 20) -> str:
    """Chunk counts in equal token bins, with the small_tail / target_ideal / target_max lines."""
    width, height, side, top, bottom = 760, 250, 36, 60, 28
    highest = max([thresholds.target_max, *tokens]) if tokens else thresholds.target_max
    step = max(-(-highest // bins), 1)
    counts = [0] * bins
    for value in tokens:
        counts[min(value // step, bins - 1)] += 1
    peak = max(counts) or 1
    plot_w, plot_h = width - 2 * side, height - top - bottom
    bar_w = plot_w / bins
    axis_y = top + plot_h
    shapes = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="chunk size histogram">',
        f'<rect width="{width}" height="{height}" fill="#fff"/>',
    ]
    for index, count in enumerate(counts):
        if not count:
            continue
        bar_h = (plot_h - 14) * count / peak  # room for the count above the tallest bar
        x, y = side + index * bar_w, axis_y - bar_h
        low = index * step
        colour = "#3a74d9" if thresholds.target_ideal <= low + step - 1 else "#8a94a6"
        if low > thresholds.target_max:
            colour = _OVERSIZE
        shapes.append(
            f'<rect x="{x + 1:.1f}" y="{y:.1f}" width="{bar_w - 2:.1f}" height="{bar_h:.1f}" '
            f'fill="{colour}"><title>{low}-{low + step - 1} tokens: {count}</title></rect>'
            f'<text x="{x + bar_w / 2:.1f}" y="{y - 3:.1f}" font-size="11" '
            f'text-anchor="middle">{count}</text>'
        )
    # One label row per line, so labels never collide however close the lines are.
    for row, (label, value, colour) in enumerate(
        (
            ("small_tail_threshold", thresholds.small_tail_threshold, "#e0892b"),
            ("target_ideal", thresholds.target_ideal, "#2e9e5b"),
            ("target_max", thresholds.target_max, _OVERSIZE),
        )
    ):
        x = side + plot_w * value / (step * bins)
        label_y = 14 + 15 * row
        anchor, dx = ("end", -3) if x > width / 2 else ("start", 3)
        shapes.append(
            f'<line x1="{x:.1f}" y1="{label_y - 10}" x2="{x:.1f}" y2="{axis_y}" '
            f'stroke="{colour}" stroke-dasharray="4 3"/>'
            f'<text x="{x + dx:.1f}" y="{label_y}" font-size="11" fill="{colour}" '
            f'text-anchor="{anchor}">{label} {value}</text>'
        )
    shapes.append(
        f'<line x1="{side}" y1="{axis_y}" x2="{side + plot_w}" y2="{axis_y}" stroke="#555"/>'
        f'<text x="{side}" y="{axis_y + 16}" font-size="11">0</text>'
        f'<text x="{side + plot_w}" y="{axis_y + 16}" font-size="11" text-anchor="end">'
        f"{step * bins} tokens</text></svg>"
    )
    return "".join(shapes)


def _chunk_box(chunk: Chunk, thresholds: Thresholds) -> str:
    colour = ROLE_COLOURS.get(chunk.role, ROLE_COLOURS[TableRole.NONE])
    over = chunk.tokens > thresholds.target_max
    frame = f"border-color:{_OVERSIZE}" if over else "border-color:#dde1e7"
    share = min(chunk.tokens / max(thresholds.target_max, 1), 1.0) * 100
    role = ""
    if chunk.role is not TableRole.NONE:
        role = f"<span>table slice: {_e(chunk.role.value)}</span>"
    note = f"<span>oversize: {_e(chunk.oversize)}</span>" if chunk.oversize else ""
    if chunk.pages:
        note += f"<span>{_e(pages_label([span.page for span in chunk.pages]))}</span>"
    return (
        f'<section class="chunk" id="chunk-{chunk.order}" style="{frame};'
        f'border-left-color:{colour}"><header><span>#{chunk.order}</span>'
        f'<span class="path">{_e(heading_path(chunk))}</span>'
        f"<span>{chunk.tokens} tokens</span><span>level {chunk.level}</span>{role}{note}</header>"
        f'<div class="bar" style="width:{share:.1f}%;background:{_OVERSIZE if over else colour}">'
        f'</div><div class="body">{_content_html(chunk.content)}</div></section>'
    )


def _content_html(content: str) -> str:
    """Chunk text as HTML: heading lines bold, JSON tables as tables, the rest as text."""
    out = []
    for line in content.split("\n"):
        if not line.strip():
            continue
        table = _table_html(line)
        if table is not None:
            out.append(table)
        elif line.lstrip().startswith("#"):
            out.append(f'<p class="h">{_e(line)}</p>')
        else:
            out.append(f"<p>{_e(line)}</p>")
    return "".join(out)


def _table_html(line: str) -> str | None:
    tag = parse_table(line)
    if tag is None or tag.format != "json":
        return None
    rows = json_rows(tag.body)
    if rows is None:
        return None
    body = "".join(
        "<tr>"
        + "".join(f"<td>{_e(cell)}</td>" for cell in (row if isinstance(row, list) else [row]))
        + "</tr>"
        for row in rows
    )
    caption = f"table {tag.table_id}" if tag.table_id else "table"
    return f'<table title="{_e(caption)}">{body}</table>'
