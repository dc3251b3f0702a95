"""Headings printed over several lines: a bold section heading set with a hanging indent
whose word is broken at the line end ("Exemption of certain chemical prepara-" over an indented
"tions.") is one heading, never two paragraphs."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.model import PREFACE_HEADING

from pdf_builders import BOLD, Page, Text, parse_pages, wrap

BODY = (
    "The refrigeration plant is inspected every week by a competent person who records the "
    "result of every test in the plant log and signs the entry."
)


def test_a_heading_broken_inside_a_word_over_a_hanging_indent_is_one_paragraph(
    tmp_path: Path,
) -> None:
    items = [*wrap(BODY, 72, 720, 300)]
    items += [
        Text(72, 660, "Exemption of certain chemical prepara-", 11, BOLD),
        Text(88, 647, "tions.", 11, BOLD),
    ]
    items += wrap(BODY, 72, 630, 300)
    result = parse_pages(tmp_path, [Page(items)])
    lines = result.content.split("\n")
    title = "Exemption of certain chemical preparations."
    assert any(line.endswith(title) for line in lines), lines
    assert "tions." not in lines


def test_a_regulations_sections_are_headings_below_its_part(tmp_path: Path) -> None:
    # A part's title set larger, its sections bold at the text's size, numbered with the
    # section sign; the paragraphs "(a)", "(b)" under them are text.
    items = [Text(72, 740, "PART 1308 SCHEDULES OF CONTROLLED SUBSTANCES", 14, BOLD)]
    items += wrap(BODY, 72, 715, 400)
    y = 660
    for number, title in ((11, "Schedule I."), (12, "Schedule II."), (13, "Schedule III.")):
        items.append(Text(72, y, f"§ 1308.{number} {title}", 11, BOLD))
        items += wrap(f"(a) {BODY}", 72, y - 15, 400)
        items += wrap(f"(b) {BODY}", 72, y - 60, 400)
        y -= 130
    result = parse_pages(tmp_path, [Page(items)])
    found = [(r.heading, r.level) for r in result.rows if r.heading != PREFACE_HEADING]
    assert found == [
        ("PART 1308 SCHEDULES OF CONTROLLED SUBSTANCES", 1),
        ("§ 1308.11", 2),
        ("§ 1308.12", 2),
        ("§ 1308.13", 2),
    ]
    assert "Schedule II.\n(a) The refrigeration plant" in result.content
