"""A bar chart's groups printed as lines (an age group over its bar's value): no group heads
a section, though each is bold and the numbers open them."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BOLD, LOREM, Page, Text, parse_pages, sections, wrap

GROUPS = ("Under 15", "15 to 24", "25 to 44", "45 to 54", "55 to 64", "65 to 69", "70 to 74")


def test_the_age_groups_of_a_chart_head_no_sections(tmp_path: Path) -> None:
    """A report's section in capitals over text at 9 pt, a chart titled in bold at 10 pt,
    its groups in bold at 8 pt, each over its value: the groups stay the chart's text."""
    page = [
        Text(72, 760, "DISABILITY PREVALENCE", 10, BOLD),
        *wrap(LOREM, 72, 740, 468, size=9),
        Text(72, 600, "Prevalence of Disability by Age: 2010", 10, BOLD),
    ]
    top = 580.0
    for number, group in enumerate(GROUPS):
        page += [Text(72, top, group, 8, BOLD), Text(72, top - 10, f"{8.4 + number:.1f}", 8)]
        top -= 24
    page += wrap(LOREM, 72, top - 10, 468, size=9)
    result = parse_pages(tmp_path, [Page(page)])
    assert not {heading for heading, _ in sections(result)} & set(GROUPS)
    text = "\n".join(row.content for row in result.rows)
    assert all(group in text for group in GROUPS)
