"""A tagged page's lines are made with their structure roles: each line once."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.pdf.layout import ARTIFACT_ROLE, page_lines

from pdf_builders import Page, Text, build_pdf, first_page_text


def test_a_line_takes_the_role_of_the_segment_it_opens_and_artifacts_are_left_out(
    tmp_path: Path,
) -> None:
    path = tmp_path / "page.pdf"
    path.write_bytes(
        build_pdf(
            [
                Page(
                    [
                        Text(72, 770, "Running title", 9),
                        Text(72, 720, "General provisions"),
                        Text(72, 700, "The plant is inspected every week."),
                    ]
                )
            ]
        )
    )
    text = first_page_text(path)
    roles = {"Running title": (ARTIFACT_ROLE, 0), "General provisions": ("H1", 1)}

    def role_of(segment) -> tuple[str, int]:
        return roles.get(segment.text, ("P", 2))

    lines = page_lines(text, role_of)
    assert [(line.text, line.role, line.element) for line in lines] == [
        ("General provisions", "H1", 1),
        ("The plant is inspected every week.", "P", 2),
    ]
    assert [line.role for line in page_lines(text)] == ["", "", ""]
