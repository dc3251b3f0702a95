"""Stage C (spec §8): title-like lines that the paragraphs beside them make no anchor.

:func:`~lightrag_pchunk.chunk.anchor_split.is_anchor_candidate` reads a line alone; these
read it with its neighbours in the block: a lead-in to a display equation, a line of a
printed table of contents its parser did not mark as one, a line whose sentence runs on into
the next paragraph (as the smart outline reads it, ``outline/run_on.py``). Input: a block's
paragraphs and an index. Output: whether that paragraph is no anchor. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from lightrag_pchunk.model import Paragraph
from lightrag_pchunk.outline.items import ItemKind, OutlineItem
from lightrag_pchunk.outline.lines import MAX_PLAIN_WORDS
from lightrag_pchunk.outline.page_references import is_toc_line
from lightrag_pchunk.outline.run_on import runs_on


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
