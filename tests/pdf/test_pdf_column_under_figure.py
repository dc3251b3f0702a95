"""A two-column page whose left column starts low, under a figure, while the right one
runs the page's height, and a running header crosses both: the left column is sparse next
to the right one throughout, so the gutter is found as the emptiest strip between them
(the header crosses it as it crosses the whole page), and the two columns' lines that stand
on one baseline are read column by column, not as lines across the page."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BOLD, Page, Stroke, Text, parse_pages, tags_of, wrap

PITCH = 10.8  # both columns' leading: their lines stand on the same baselines
HEADER = "256 P.N.J. Lane et al. / Journal of Hydrology 310 (2005) 253-265, a running head"
LEFT = " ".join(f"Zero flow days of catchment {n} rose as the plantation grew." for n in range(9))
RIGHT = " ".join(f"Statistic {n} compared the observed and predicted deciles." for n in range(70))


def test_a_column_under_a_figure_is_read_whole_beside_a_full_one(tmp_path: Path) -> None:
    page = [
        Text(60, 770, HEADER, 8),
        Stroke(60, 740, 290, 740),  # the figure's frame
        Stroke(60, 372, 290, 372),
        Text(60, 360, "Fig. 2. Schematic of the change in the curve over time.", 8),
        Text(60, 740 - 37 * PITCH, "2.2. Zero flow day analysis", 9, BOLD),
        *wrap(LEFT, 60, 740 - 39 * PITCH, 230, size=9),
        *wrap(RIGHT, 320, 740, 230, size=9)[:60],
    ]
    result = parse_pages(tmp_path, [Page(page)])
    assert tags_of(result) == []
    text = " ".join(" ".join(row.content.split()) for row in result.rows)
    assert LEFT in text
    assert "2.2. Zero flow day analysis" in [row.heading for row in result.rows]
