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


def text(line: str, look: Look | None = BODY, **kwargs) -> OutlineItem:
    """A line of text, in the body's look unless told."""
    return OutlineItem(ItemKind.TEXT, line, look=look, **kwargs)


def listed(line: str, look: Look | None = BODY) -> OutlineItem:
    """A line numbered by a Word list (its label rendered by the list, not typed)."""
    return text(line, look, is_list_item=True)


def titles(items: list[OutlineItem], body_size: float = 11) -> list[str]:
    """The titles of the headings the outline infers among ``items``."""
    return [found.title for found in infer_outline(items, body_size)]
