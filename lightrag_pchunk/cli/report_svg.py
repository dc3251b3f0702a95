"""The chunk size histogram of the ``inspect`` report, as inline SVG, and the colours the
report draws table roles in."""

from __future__ import annotations

from collections.abc import Sequence

from lightrag_pchunk.model import TableRole, Thresholds

#: Box colours per table role (docs/strategy.md §6); an oversize chunk gets a red frame.
ROLE_COLOURS = {
    TableRole.NONE: "#8a94a6",
    TableRole.FIRST: "#2e9e5b",
    TableRole.MIDDLE: "#e0892b",
    TableRole.LAST: "#3a74d9",
}
OVERSIZE = "#d64545"


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
            colour = OVERSIZE
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
            ("target_max", thresholds.target_max, OVERSIZE),
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
