"""The HTML report: one self-contained page (inline CSS and SVG, no script, no network).

Plots: recall by k per contender (Recall@k and, as a last point, recall within the
budget), chunks per contender (= LLM extraction calls), and a histogram of chunk sizes per
contender. Tables: the summary, by question kind, differences from ours, per document.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path

from lightrag_pchunk.eval.contenders import CONTENDERS
from lightrag_pchunk.eval.metrics import MRR_DEPTH
from lightrag_pchunk.eval.report_text import (
    describe_run,
    document_notes,
    document_rows,
    headline_k,
    kind_rows,
    label,
    summary_rows,
)
from lightrag_pchunk.eval.result import EvalResult

#: One colour per contender (the browser test looks for them in the screenshot).
COLOURS = dict(
    zip(CONTENDERS, ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"), strict=True)
)
HISTOGRAM_BINS = 12

_CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1200px; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
.note { color: #555; font-size: 13px; }
.plots { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.hist { display: flex; flex-wrap: wrap; gap: 12px; }
.clear { font-weight: 600; }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
"""


def _colour(contender: str) -> str:
    return COLOURS.get(contender, "#555")


def recall_plot(result: EvalResult, width: int = 460, height: int = 280) -> str:
    """Recall at each k, and within the budget, one line per contender."""
    points = [f"R@{k}" for k in result.ks] + ["budget"]
    left, right, top, bottom = 44, 110, 16, 34
    plot_w, plot_h = width - left - right, height - top - bottom
    step = plot_w / max(len(points) - 1, 1)

    def x(i: int) -> float:
        return left + i * step

    def y(v: float) -> float:
        return top + plot_h * (1 - v)

    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="recall by k">']
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="#e5e5e5"/><text x="{left - 6}" y="{y(tick) + 4:.1f}" '
            f'text-anchor="end">{tick:.2f}</text>'
        )
    for i, name in enumerate(points):
        parts.append(f'<text x="{x(i):.1f}" y="{height - 12}" text-anchor="middle">{name}</text>')
    for row, contender in enumerate(result.contenders):
        values = result.summary[contender].values
        series = [values[f"recall@{k}"] for k in result.ks] + [values["budget"]]
        if any(v is None for v in series):
            continue
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(series))  # type: ignore[arg-type]
        colour = _colour(contender)
        parts.append(
            f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="3"/>'
        )
        parts += [
            f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="4" fill="{colour}"/>'  # type: ignore[arg-type]
            for i, v in enumerate(series)
        ]
        ly = top + 14 + row * 18
        parts.append(
            f'<rect x="{left + plot_w + 14}" y="{ly - 9}" width="14" height="10" fill="{colour}"/>'
            f'<text x="{left + plot_w + 32}" y="{ly}">{escape(label(contender))}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def cost_plot(result: EvalResult, width: int = 380) -> str:
    """Horizontal bars: chunks per contender (each one LLM extraction call)."""
    bar_h, gap, left = 20, 8, 110
    height = len(result.contenders) * (bar_h + gap) + 10
    most = max((result.costs[c].chunks for c in result.contenders), default=0) or 1
    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="chunks">']
    for row, contender in enumerate(result.contenders):
        chunks = result.costs[contender].chunks
        y = 5 + row * (bar_h + gap)
        length = (width - left - 60) * chunks / most
        parts.append(
            f'<text x="{left - 8}" y="{y + 14}" text-anchor="end">{escape(label(contender))}</text>'
            f'<rect x="{left}" y="{y}" width="{length:.1f}" height="{bar_h}" '
            f'fill="{_colour(contender)}"/>'
            f'<text x="{left + length + 6:.1f}" y="{y + 14}">{chunks}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def histogram(tokens: Sequence[int], size: int, colour: str, title: str) -> str:
    """Chunk sizes in bins of N/12, and one more bar for chunks over N when there are any."""
    width, height, left, bottom, top = 220, 150, 30, 28, 20
    counts = [0] * (HISTOGRAM_BINS + 1)
    for t in tokens:
        # Bins hold (0, N/12], (N/12, 2N/12], ...: a chunk of exactly N is in the last one.
        counts[min(max(t * HISTOGRAM_BINS - 1, 0) // max(size, 1), HISTOGRAM_BINS)] += 1
    if not counts[-1]:
        counts.pop()
    most = max(counts) or 1
    bar_w = (width - left - 6) / len(counts)
    plot_h = height - bottom - top
    parts = [
        f'<svg width="{width}" height="{height}" role="img" aria-label="{escape(title)}">',
        f'<text x="{left}" y="13">{escape(title)}</text>',
    ]
    for i, count in enumerate(counts):
        h = plot_h * count / most
        parts.append(
            f'<rect x="{left + i * bar_w:.1f}" y="{top + plot_h - h:.1f}" '
            f'width="{max(bar_w - 1, 1):.1f}" height="{h:.1f}" fill="{colour}"/>'
        )
    parts.append(
        f'<text x="{left - 4}" y="{top + 8}" text-anchor="end">{most}</text>'
        f'<text x="{left}" y="{height - 12}">0</text>'
        f'<text x="{left + bar_w * HISTOGRAM_BINS:.1f}" y="{height - 12}" '
        f'text-anchor="end">N={size}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _html_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _escaped_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table of plain-text cells (the text report's)."""
    return _html_table(header, [[escape(cell) for cell in row] for row in rows])


def render_html(result: EvalResult) -> str:
    """The report page."""
    size = result.settings["size"]
    header, rows = summary_rows(result)
    sections = [
        f"<h1>lightrag-pchunk eval</h1><p>{escape(describe_run(result))}</p>",
        *(
            f'<p class="note">{escape(c)}: not compared: {escape(w)}</p>'
            for c, w in result.skipped.items()
        ),
        _escaped_table(header, rows),
        '<p class="note">R@k: the answering chunk is among the k first retrieved; budget: '
        "found in the chunks that fit the budget, in one chunk or spread over adjacent ones; "
        "findable: some chunk holds the evidence at all; chunks = LLM extraction calls; fill: "
        "median chunk tokens / N.</p>",
        '<div class="plots"><div><h2>Recall by k</h2>',
        recall_plot(result),
        "</div><div><h2>Chunks (LLM extraction calls)</h2>",
        cost_plot(result),
        '</div></div><h2>Chunk sizes</h2><div class="hist">',
        *(histogram(result.chunk_tokens[c], size, _colour(c), label(c)) for c in result.contenders),
        "</div>",
    ]
    k = headline_k(result)
    if result.by_kind:
        sections += [
            f"<h2>By question kind (R@{k} / budget)</h2>",
            _escaped_table(*kind_rows(result, k)),
        ]
    if result.differences:
        shown = [*(f"recall@{q}" for q in result.ks), f"mrr@{MRR_DEPTH}", "budget"]
        diff_rows = []
        for contender, per in result.differences.items():
            cells = []
            for metric in shown:
                d = per[metric]
                text = f"{d.value:+.3f} [{d.low:+.3f}, {d.high:+.3f}]"
                cells.append(f'<span class="clear">{text}</span>' if d.is_clear else text)
            diff_rows.append([escape(contender), *cells])
        sections += [
            "<h2>Difference from ours (contender − P)</h2>",
            '<p class="note">95% bootstrap interval over documents; bold: the interval '
            "excludes zero.</p>",
            _html_table(["contender", *shown], diff_rows),
        ]
    notes = document_notes(result)
    if notes:
        sections.append("<h2>Notes</h2><pre>" + escape("\n".join(notes).strip()) + "</pre>")
    sections += [
        f"<h2>Per document (R@{k} / budget; chunks)</h2>",
        _escaped_table(*document_rows(result, k)),
    ]
    body = "\n".join(sections)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>lightrag-pchunk eval</title><style>{_CSS}</style></head>"
        f"<body>{body}</body></html>\n"
    )


def write_html(result: EvalResult, path: str | Path) -> Path:
    """Write the report page to ``path``."""
    target = Path(path)
    target.write_text(render_html(result), encoding="utf-8")
    return target
