"""Documents given to the smart outline as items, built the same way by the outline's
tests: the looks of 11 pt text and of its headings, a paragraph, a line of text, a Word
list's item, the titles the outline infers."""

from __future__ import annotations

from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem, infer_outline

BODY = Look(size=11)
BOLD = Look(bold=True, size=11)
H1 = Look(bold=True, size=16)
H2 = Look(bold=True, size=14)
#: A paragraph of body text: no title.
PROSE = "The committee met to hear the report and discussed it at length before voting."

#: Titles of documents no test had seen, in a heading's look, that a guard against lines no
#: reader calls a title refused or could (the outline's tests and the chunker's ask both): a
#: number or two a title mentions make no table's row, nor does an amount alone; a ";"
#: between a title's items is no statement's end, two words in title case around a colon no
#: field of data, a review of a date's time no date line, an office's message no byline, a
#: short title's number after its colon no lead-in's note mark. "4 Mars missions" was never
#: refused: a month's name that is also a word lost it its label (its rule's test is
#: test_non_titles' month name that is a word).
UNSEEN_TITLES = [
    "Funding; Conflicts of interest",
    "Results for 2019, 2020 and 2021",
    "3.6.3 PUBLISH with QoS 1 and 2",
    "Reduce costs by 20%",
    "Early Bird Discount 15%",
    "经营情况 2024年",
    "Agency 03.05.2021 14:30 John Smith: Prices to rise in 2022",  # a date and its time
    "Summary: Findings",
    "Appendix: Glossary",
    "4 Mars missions",
    "12 May 2023 in Review",
    "学院院长寄语",
    "Season Two: 12",
    "Psalm 23: 4",
]

#: A members' list: each member's name over the member's office and city, parted by ";".
MEMBERS = [
    "Ana Example",
    "Director, Example Consulting; Ottawa",
    "Ben Sample",
    "Senior Associate, Centre for Trade and Development; Geneva",
    "Cleo Model",
    "Chairman, Authority of Examples; Port Louis",
]


def text(line: str, look: Look | None = BODY, **kwargs) -> OutlineItem:
    """A line of text, in the body's look unless told."""
    return OutlineItem(ItemKind.TEXT, line, look=look, **kwargs)


def listed(line: str, look: Look | None = BODY) -> OutlineItem:
    """A line numbered by a Word list (its label rendered by the list, not typed)."""
    return text(line, look, is_list_item=True)


def titles(items: list[OutlineItem], body_size: float = 11) -> list[str]:
    """The titles of the headings the outline infers among ``items``."""
    return [found.title for found in infer_outline(items, body_size)]
