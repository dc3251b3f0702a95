"""A point larger than the text, as a PDF states it: sizes a producer scales on the way out
(13 pt drawn at 12.96 pt) still set a tier of headings apart from text at 12 pt."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BOLD, LOREM, Page, Text, parse_pages, sections, wrap

TEXT_SIZE, SECTION_SIZE, PART_SIZE = 12.0, 12.96, 15.0


def test_sections_set_a_scaled_point_larger_than_the_text_head_their_text(
    tmp_path: Path,
) -> None:
    """Parts titled in bold at 15 pt, each over two sections titled in bold at 12.96 pt (13
    pt as the producer wrote it), over text at 12 pt: the sections are headings under their
    parts, not bold labels at the text's size."""
    page: list[Text] = []
    top = 760.0
    for part, titles in (
        ("General Provisions", ("Technical Amendments", "National Eligibility Rules")),
        ("Online Service Providers", ("Limitation for System Caching", "Repeat Infringers")),
    ):
        page.append(Text(72, top, part, PART_SIZE, BOLD))
        top -= 26
        for title in titles:
            page.append(Text(72, top, title, SECTION_SIZE, BOLD))
            page.extend(wrap(LOREM[:300], 72, top - 18, 468, size=TEXT_SIZE))
            top -= 110
    result = parse_pages(tmp_path, [Page(page)])
    assert sections(result) == [
        ("General Provisions", 1),
        ("Technical Amendments", 2),
        ("National Eligibility Rules", 2),
        ("Online Service Providers", 1),
        ("Limitation for System Caching", 2),
        ("Repeat Infringers", 2),
    ]
