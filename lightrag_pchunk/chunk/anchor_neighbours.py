"""Stage C (spec §8): title-like lines that the paragraphs beside them make no anchor.

:func:`~lightrag_pchunk.chunk.anchor_split.is_anchor_candidate` reads a line alone; these
read it with its neighbours in the block: a lead-in to a display equation, a line of a
printed table of contents its parser did not mark as one, a line whose sentence runs on into
the next paragraph (as the smart outline reads it, ``outline/run_on.py``), a member of a
numbered series whose siblings in the block read as text. Input: a block's paragraphs (and
an index). Output: whether that paragraph is no anchor, or the lines that are none. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from lightrag_pchunk.chunk.chunk_headings import series_number
from lightrag_pchunk.model import Paragraph
from lightrag_pchunk.outline.items import ItemKind, OutlineItem
from lightrag_pchunk.outline.lines import MAX_PLAIN_WORDS, flat_text
from lightrag_pchunk.outline.page_references import is_toc_line
from lightrag_pchunk.outline.run_on import runs_on

#: A member of a series in a block: its line (flat, casefolded), its label's numbers, and
#: whether it reads as a title.
_Member = tuple[str, tuple[int, ...], bool]


def introduces_equation(paragraphs: Sequence[Paragraph], index: int) -> bool:
    """Whether the paragraph at ``index`` leads into a display equation ("…, we set" before
    ``<equation …>``, as LaTeX made Markdown breaks its sentences): a title is not."""
    following = paragraphs[index + 1] if index + 1 < len(paragraphs) else None
    return following is not None and following.text.lstrip().startswith("<equation")


def inside_contents(paragraphs: Sequence[Paragraph], index: int) -> bool:
    """Whether paragraph ``index`` is a line of a printed table of contents its parser did
    not mark as one: it ends with a number, and stands before an entry with its page number
    and after one or the block's first line (an entry that lost its tab, "Chapter 5 PLATYPUS
    … Scripts 65"; the page's running head with its number, "Table of contents 2"). A title
    inside the contents ("List of Tables") has no number and stays an anchor."""
    text = paragraphs[index].text.rstrip()
    return (
        text[-1:].isdigit()
        and index + 1 < len(paragraphs)
        and is_toc_line(paragraphs[index + 1].text)
        and (index == 1 or is_toc_line(paragraphs[index - 1].text))
    )


def runs_on_below(paragraphs: Sequence[Paragraph], index: int) -> bool:
    """Whether the sentence of paragraph ``index`` runs on into the next one, as the smart
    outline reads a line a page's layout broke off (``outline/run_on.py``: no mark ends it,
    the next paragraph opens in lower case and reads as text): a lead-in before a line of
    code ("You can install into another directory tree by using" / "make prefix=… install"),
    a list's item or a table's cell wrapped over lines ("State/local governments and
    political" / "subdivisions, employees of:"). Named after it, a part would carry half a
    sentence as its heading."""
    items = [
        OutlineItem(ItemKind.OTHER if p.is_table else ItemKind.TEXT, p.text)
        for p in paragraphs[index : index + 3]
    ]
    return runs_on(items, 0, MAX_PLAIN_WORDS)


def apart_from_their_series(
    paragraphs: Sequence[Paragraph], is_title: Callable[[str], bool]
) -> frozenset[str]:
    """The lines (flat, casefolded) that number a member of a series (one family and depth
    of labels: a list's "5.", "2.1", "第三十七条") next to a sibling that is no title by
    ``is_title``: the member of the series before or after it in the block, numbered just
    before or after it. A list's short item among items of a paragraph's length ("5.
    Qualified transportation fringes subject to specified" after "4. Certain minimal value
    fringes (including …) …."), a law's short article among long ones. A series' members are
    titles all or none (``outline/series_votes.py``); a part named after one alone would
    also hold the siblings after it, as if they were its own."""
    series: dict[tuple[str, int, str], list[_Member]] = {}
    for paragraph in paragraphs:
        found = None if paragraph.is_table else series_number(paragraph.text, lists=True)
        if found is not None:
            line = flat_text(paragraph.text).casefold()
            series.setdefault(found[0], []).append((line, found[1], is_title(paragraph.text)))
    apart: set[str] = set()
    for members in series.values():
        for (line, numbers, title), other in _neighbours(members):
            if title and not other[2] and _next_to(numbers, other[1]):
                apart.add(line)
    return frozenset(apart)


def _neighbours(members: Sequence[_Member]) -> list[tuple[_Member, _Member]]:
    """Each member of a series with the member before it and the one after it."""
    return [*pairwise(members), *((b, a) for a, b in pairwise(members))]


def _next_to(numbers: tuple[int, ...], other: tuple[int, ...]) -> bool:
    """Whether two labels' numbers are siblings one apart ("4." and "5.", "2.3" and "2.4")."""
    return (
        len(numbers) == len(other)
        and numbers[:-1] == other[:-1]
        and abs(numbers[-1] - other[-1]) == 1
    )
