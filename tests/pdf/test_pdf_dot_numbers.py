"""A construction specification's articles ("1. INTENT") and their paragraphs numbered after
a dot (".1", ".2"), the number hanging in a column of its own: a list of paragraphs under
headings, not a table of three columns."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BOLD, Page, Text, parse_pages, sections, tags_of

ARTICLES = {
    "1. INTENT": (
        ("The intent of this Request for Proposal is to solicit submissions, in the format",
         "detailed in this document, from qualified Construction Managers for the project."),
        ("Available information relative to the project is included in Section 00 00 45 and",
         "in the drawings issued with this Request for Proposal."),
    ),
    "2. SUBMISSIONS": (
        ("Respondents shall submit one electronic copy of their proposal to the Owner by the",
         "closing time stated in the invitation, in the portable document format."),
        ("Late submissions will not be accepted and will be returned to the Respondent",
         "unopened, whatever the reason for the delay."),
        ("The Owner reserves the right to reject any or all submissions.",),
    ),
}  # fmt: skip


def test_paragraphs_numbered_after_a_dot_are_a_list_under_their_article(
    tmp_path: Path,
) -> None:
    items: list[Text] = []
    top = 740.0
    for article, paragraphs in ARTICLES.items():
        items.append(Text(55, top, article, 11, BOLD))
        top -= 20
        for number, lines in enumerate(paragraphs, start=1):
            items.append(Text(91, top, f".{number}", 11))
            for line in lines:
                items.append(Text(144, top, line, 11))
                top -= 13
            top -= 7
        top -= 10
    result = parse_pages(tmp_path, [Page(items)])
    assert not tags_of(result)
    assert [heading for heading, _ in sections(result)] == list(ARTICLES)
    text = "\n".join(row.content for row in result.rows)
    assert ".2 Late submissions will not be accepted" in text
