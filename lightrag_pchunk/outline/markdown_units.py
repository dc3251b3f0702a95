"""A Markdown unit (a paragraph, a list item, a block) as the heading classifier reads it.

Markdown keeps no sizes: the one look a unit has is bold (every word of it strong). A
paragraph reads as the text it displays, a one-line numbered list item as a list item with
its number, any other block (a bullet list, a quote, code, a table or drawing tag, raw
HTML) as content that heads nothing. Where a file marks its outline (two ``#`` headings or
more) a plain paragraph, neither bold nor numbered, titles nothing: its place alone is
evidence only in a file that marks no outline. The Markdown parser's gap outline
(``markdown/gap_outline.py``) and the long-block check of chunks (``chunk/long_blocks.py``)
both read units through :func:`markdown_unit`, so the check counts what the parser would find.
"""

from __future__ import annotations

import re

import pyromark

from lightrag_pchunk.outline.items import ItemKind, OutlineItem
from lightrag_pchunk.outline.labels import parse_label

#: A unit longer than this (characters) is read as body text, its markup left in: no
#: title is that long, and only its words count.
_MAX_TITLE_SOURCE = 400
#: What starts a unit that is no paragraph: a list's marker, a quote, a fence, an indented
#: code block, a table or drawing tag, raw HTML.
_NOT_PARAGRAPH = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:\s|$)|>|```|~~~|    |\t|<|\$\$")
_NUMBERED_ITEM = re.compile(r"\d{1,9}[.)]\s")


def opens_no_paragraph(unit: str) -> bool:
    """Whether ``unit`` starts as a list, a quote, code, a tag or raw HTML does."""
    return _NOT_PARAGRAPH.match(unit) is not None


def markdown_unit(unit: str, *, marked: bool) -> tuple[OutlineItem, bool]:
    """``unit`` as the classifier reads it, and whether it is set all in bold; ``marked``:
    the file marks its outline (two ``#`` headings or more)."""
    item, bold = _read(unit)
    if marked and not bold and item.kind is ItemKind.TEXT and parse_label(item.text) is None:
        item.titles_nothing = True
    return item, bold


def _read(unit: str) -> tuple[OutlineItem, bool]:
    """A paragraph's displayed text; a one-line numbered list item as a list item; other
    units (and text too long for a title, its markup left in) as they are."""
    if len(unit) > _MAX_TITLE_SOURCE:
        kind = ItemKind.OTHER if opens_no_paragraph(unit) else ItemKind.TEXT
        return OutlineItem(kind, unit), False
    number = _NUMBERED_ITEM.match(unit) if "\n" not in unit else None
    if number is None and opens_no_paragraph(unit):
        return OutlineItem(ItemKind.OTHER, unit), False
    text, bold = _displayed(unit[number.end() :] if number else unit)
    if number:
        text = f"{number[0].strip()} {text}"
    return OutlineItem(ItemKind.TEXT, text, is_list_item=number is not None), bold


def _displayed(source: str) -> tuple[str, bool]:
    """The text a short paragraph displays (markup removed, its lines joined by a space)
    and whether all of it is strong (bold)."""
    pieces: list[str] = []
    strong = 0
    all_strong = True
    for event in pyromark.events(source, options=pyromark.Options.ENABLE_STRIKETHROUGH):
        if type(event) is str:  # "SoftBreak", "HardBreak"
            pieces.append(" ")
        elif "Start" in event:
            strong += event["Start"] == "Strong"
        elif "End" in event:
            strong -= event["End"] == "Strong"
        else:
            ((key, value),) = event.items()
            if key in ("Text", "Code"):
                pieces.append(value)
                all_strong = all_strong and (strong > 0 or not value.strip())
    text = " ".join("".join(pieces).split())
    return text, all_strong and bool(text)
