"""The smart outline's candidates: the lines the text channel takes for a title (or the
table of contents lists), each with its look, before any rule accepts one (``infer.py``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lightrag_pchunk.model import MAX_HEADING_LENGTH
from lightrag_pchunk.outline.items import (
    ItemKind,
    Look,
    OutlineItem,
    Promoted,
    is_larger_than_text,
    look_at,
    look_score,
)
from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.line_runs import no_title_by_neighbours
from lightrag_pchunk.outline.lines import (
    MAX_HEADING_CHARS,
    HeadingText,
    cjk_count,
    heading_text,
    label_tab_as_space,
    starts_with_bullet,
)
from lightrag_pchunk.outline.list_items import numbers_a_part
from lightrag_pchunk.outline.non_titles import is_data_key, reads_as_no_title
from lightrag_pchunk.outline.page_references import heads_entry_columns, is_toc_line, refers_on
from lightrag_pchunk.outline.stopped_titles import (
    stopped_capitals_title,
    stopped_numbered_title,
    stopped_unit_title,
)
from lightrag_pchunk.outline.toc import is_toc_title
from lightrag_pchunk.outline.unit_words import names_a_unit


def find_candidates(
    items: Sequence[OutlineItem],
    body_size: float,
    look_of: Callable[[int], Look | None] | None,
    within: Sequence[range] | None = None,
    in_gaps: frozenset[int] = frozenset(),
) -> dict[int, Promoted]:
    """The lines of ``items`` (of ``within``, when given) that may be headings, by index.
    In ``in_gaps`` (long stretches a styled outline leaves without a heading) a tab after
    a leading number reads as a space."""
    found: dict[int, Promoted] = {}
    indexes = range(len(items)) if within is None else (i for r in within for i in r)
    for index in indexes:
        candidate = candidate_at(items, index, body_size, look_of, tab_label=index in in_gaps)
        if candidate is not None:
            found[index] = candidate
    return found


def candidate_at(
    items: Sequence[OutlineItem],
    index: int,
    body_size: float,
    look_of: Callable[[int], Look | None] | None,
    *,
    tab_label: bool = False,
) -> Promoted | None:
    """Item ``index`` as a heading candidate: a TEXT line the text channel takes for a
    title (or the table of contents lists), with its look; else None. ``tab_label``: a
    tab after a leading number is a space ("2.<tab>Physical infrastructure", as Word
    renders a list number), where a styled document's stretch is too long without a
    heading; elsewhere such a line is more often an item of a numbered list."""
    item = items[index]
    if item.kind is not ItemKind.TEXT:
        return None
    text = item.text
    if "\t" in text:
        text = (label_tab_as_space(text) if tab_label else _unit_label_tab(text)) or text
    heading = heading_text(text, markdown=False, lowercase=True, lead_in=True)
    if heading is None and item.in_toc:
        heading = listed_title(item.text)
    if heading is None and tab_label:
        heading = _title_over_its_parts(items, index)
    if heading is None:
        heading = stopped_capitals_title(text)
    if heading is None and _titles_a_page(items, index):
        heading = HeadingText(" ".join(text.split()), "", None)
    # A long CJK title (a law's, naming the law it decides on: "全國人民代表大會常務委員會
    # 關於《…基本法》第二十二條第四款…的解釋") is one in a heading's look only, set larger
    # in bold; the acceptance asks that shorter titles share that look.
    long_cjk = heading is None
    if long_cjk:
        if not cjk_count(text):
            return None  # the longer limit is for CJK text: any other line reads as above
        heading = heading_text(text, markdown=False, max_cjk=MAX_HEADING_CHARS)
        if heading is None or heading.label is not None:
            return None
    # A line the table of contents lists is not asked: the document names it a heading.
    # The title drops a lead-in's colon: a key of data is read on the line as written.
    if not item.in_toc and (
        reads_as_no_title(heading.title) or is_data_key(text) or refers_on(heading.title)
    ):
        return None  # read before its look: most documents' looks are read only when asked
    look = look_at(items, index, look_of)
    if not item.in_toc and _no_title_by_neighbours(items, index, look, body_size):
        return None
    if long_cjk and (look is None or not look.bold or not is_larger_than_text(look, body_size)):
        return None
    score = look_score(look, body_size)
    if heading.body and score >= 1 and (whole := stopped_unit_title(text)) is not None:
        # The whole line set as a heading: the unit's title, its text below it ("§ 1308.01
        # Scope of part 1308." in bold over the section's text in roman).
        heading = whole
    return Promoted(index, heading, score, look)


def _no_title_by_neighbours(
    items: Sequence[OutlineItem], index: int, look: Look | None, body_size: float
) -> bool:
    """Whether item ``index`` is, by the lines next to it, no title (``line_runs.py``): an
    option of a multiple-choice question, a line of a numbered listing, a table's row of a
    label and its count, a dated log's entry, an entry of a list parted with ";". A line
    set larger than the text (``look``) is no listing's: a program's numbered lines are set
    at the text's size ("1 Scope", "2 Terms", "3 Use" so set, with no text between, are
    sections' titles)."""
    listed = not is_larger_than_text(look, body_size)
    return no_title_by_neighbours(_TextLines(items), index, listed=listed)


class _TextLines(Sequence[str]):
    """The items' lines of text as ``line_runs.py`` reads them: "" for any other item (a
    table, a heading), which ends a run."""

    def __init__(self, items: Sequence[OutlineItem]) -> None:
        self._items = items

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index):  # type: ignore[override]
        item = self._items[index]
        return item.text if item.kind is ItemKind.TEXT else ""


def _title_over_its_parts(items: Sequence[OutlineItem], index: int) -> HeadingText | None:
    """Item ``index`` as a numbered title ending with a full stop, where the next line
    opens its first part ("3.1. Требования к программированию КСОБ объекта." over
    "3.1.1. Система должна …"): a clause is followed by its siblings, a title by its parts."""
    heading = stopped_numbered_title(items[index].text)
    if heading is None or heading.label is None:
        return None
    return heading if numbers_a_part(items, index, heading.label) else None


def _titles_a_page(items: Sequence[OutlineItem], index: int) -> bool:
    """Whether item ``index``, in the words of a list's column headings ("Section Page",
    "Map Page"), titles a page of its own: set with one space between its words (columns
    stand apart) over a paragraph of text, not over the list's entries (a page number
    closing the line, a line the contents lists, a table), nor under the list's title (a
    contents title, or one naming its entries: "Figure Page" under "FIGURES" heads the
    columns of a list left empty, "No table of figures entries found.")."""
    text = items[index].text.strip()
    if not heads_entry_columns(text) or text != " ".join(text.split()):
        return False
    above = items[index - 1].text.strip() if index > 0 else ""
    if is_toc_title(above) or text.split()[0].casefold() in above.casefold():
        return False
    after = items[index + 1] if index + 1 < len(items) else None
    return (
        after is not None
        and after.kind is ItemKind.TEXT
        and not after.in_toc
        and not is_toc_line(after.text.strip())
    )


def listed_title(text: str) -> HeadingText | None:
    """A line the document's table of contents lists, as a title, though the text channel
    reads it as a sentence ("Other Automated & Misc. Tool Results: Tools Used"): the table
    names it a heading. Not when it is longer than LightRAG's limit on a heading's text
    (``MAX_HEADING_LENGTH``): an article's title with its subtitle may run past any numbered
    title ("Eleonore ARMSTER: Media vita in morte sumus. Eine Annäherung an die Frage: …"),
    nor when it is a number alone ("3.1": a heading without text, which Word does not count,
    listed by its number)."""
    title = " ".join(text.split())
    if not title or len(title) > MAX_HEADING_LENGTH:
        return None
    label = parse_label(title)
    if label is not None and not label.rest.strip():
        return None
    return HeadingText(title, "", label)


def _unit_label_tab(text: str) -> str | None:
    """``text`` with the tab after a unit's label read as a space wherever the line stands
    ("ITEM 5.\tMARKET FOR ...", "— ITEM 5.\tMARKET ...": a bullet glyph before the label
    kept, as it decorates it); None when no unit's label stands before the tab, or another
    tab follows (a contents entry's "Item 5.\tMarket\t21")."""
    text = text.strip()
    bullet = text[:1] if starts_with_bullet(text) and text[1:2].isspace() else ""
    spaced = label_tab_as_space(text[1:] if bullet else text)
    label = parse_label(spaced) if spaced is not None else None
    if label is None or not names_a_unit(label):
        return None
    return f"{bullet} {spaced}".lstrip()
