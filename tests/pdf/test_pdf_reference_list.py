"""A paper's reference list: each entry's number in brackets in a column of its own, the
entry's lines beside it. Justified, a wrapped line of names may print a gap wide enough to
part it into two segments: such rows start in the entries' column, not the numbers'. The
list stays text, however many such rows it holds."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import Page, Text, parse_pages, tags_of


def test_a_reference_list_whose_wrapped_lines_part_at_wide_gaps_is_no_table(
    tmp_path: Path,
) -> None:
    items, y = [Text(60, 760, "REFERENCES", 10)], 740
    for n in range(1, 9):
        items += [
            Text(60, y, f"[{n}]", 9),
            Text(84, y, f"Author{n} One, Author{n} Two, Author{n} Three, and others.", 9),
            # The wrapped line, justified: its names part at a gap wider than a word space.
            Text(84, y - 11, f"Editor{n} Four, Editor{n} Five,", 9),
            Text(250, y - 11, f"Title of the paper number {n}. Journal, 20{10 + n}.", 9),
        ]
        y -= 30
    result = parse_pages(tmp_path, [Page(items)])
    assert tags_of(result) == []
    text = " ".join(row.content for row in result.rows)
    assert all(f"[{n}]" in text and f"paper number {n}." in text for n in range(1, 9))
