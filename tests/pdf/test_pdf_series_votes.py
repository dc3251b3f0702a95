"""The members of a numbered series in a PDF set in one look are decided together: a
list's titled items among its sentences head nothing (``outline/series_votes.py``)."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BODY, Page, Text, headings_of, parse_pages, wrap


def test_a_list_s_titled_items_among_its_sentences_head_no_sections(tmp_path: Path) -> None:
    # One size and weight everywhere. Under "5.1", a) and b) read as titles alone, c) to
    # e) are sentences: one list, whose text stays in 5.1 (no crumb "b) Work …" over e)).
    lines = [
        Text(72, 760, "5 Production"),
        *wrap(BODY, 72, 740, 450),
        Text(72, 700, "5.1 Process control"),
        *wrap(
            "The production office controls every process of the plant as follows.", 72, 680, 450
        ),
        Text(72, 660, "a) Product information"),
        *wrap(
            "1. The office issues the production order with everything the run needs.", 72, 640, 450
        ),
        Text(72, 620, "b) Work instructions when needed:"),
        *wrap(
            "c) Suitable equipment: plate makers, presses and binders are kept in service.",
            72,
            600,
            450,
        ),
        *wrap(
            "d) Monitoring devices: rulers, thermometers and gauges are checked each day.",
            72,
            580,
            450,
        ),
        *wrap(
            "e) Measurement: every workshop measures its own products once in each shift.",
            72,
            560,
            450,
        ),
        Text(72, 530, "5.2 Validation"),
        *wrap(BODY, 72, 510, 450),
    ]
    headings = headings_of(parse_pages(tmp_path, [Page(lines)]))
    assert "5.1 Process control" in headings and "5.2 Validation" in headings
    assert not any(heading.startswith(("a)", "b)")) for heading in headings)
