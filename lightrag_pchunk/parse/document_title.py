"""Stage A: the document's title, a line of its preface rather than a heading.

A Word document's title (its Title style) is no heading: its parse puts it in the preface
and no chunk's heading path carries it. Where no style says so (a PDF, a Word document whose
outline the classifier inferred), the title is the first line, set apart from anything after
it, and the classifier takes it for a heading (its look says so). When that heading stands
beside the document's chapters rather than over them (a later heading opens at its level,
though a contents may list the first sections deeper, or above it: a newsletter's masthead,
over the items below it, ranks below a later part set larger, a notice at its end), it is the
document's title: its line goes back to the preface, it stays the document's title, no
heading path names it, and the sections below it move up to its level. A first heading
ranked below a later one that heads no section of its own before it (a foreword before the
chapters) is a section.

A title that heads the document's sections (they nest below it) is kept: a document
may style its title as its one top heading, and its sections' paths then name it. Only an
inferred heading is read so: a heading its author styled (or a file's bookmarks or
structure tree named) is never demoted.

Input: the blocks the outline step built, each heading's look on the block (``RawBlock.look``)
and, for an inferred heading, its paragraph as written (``RawBlock.written``). Output: the
blocks with the title in the preface, and the title (or ""). Every parser that builds its
outline from events (Word, PDF) calls :func:`settle_title` after ``build_blocks``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from lightrag_pchunk.model import PREFACE_HEADING
from lightrag_pchunk.outline.items import Look
from lightrag_pchunk.outline.numbering import parse_label
from lightrag_pchunk.parse.heading_stack import RawBlock
from lightrag_pchunk.parse.outline_build import OutlineReport, first_heading


def settle_title(
    blocks: Sequence[RawBlock], report: OutlineReport
) -> tuple[list[RawBlock], OutlineReport, str]:
    """``blocks`` with the document's title in the preface (:func:`title_to_preface`),
    ``report`` counting it among the inferred headings no more, and the document's title:
    that title, else the first heading (LightRAG's ``doc_title``), else ""."""
    blocks, title = title_to_preface(blocks)
    if title:
        report = replace(report, inferred_headings=report.inferred_headings - 1)
    return blocks, report, title or first_heading(blocks) or ""


def title_to_preface(blocks: Sequence[RawBlock]) -> tuple[list[RawBlock], str]:
    """``blocks`` with the document's title (see the module doc) moved into the preface,
    and that title ("" when no heading is one)."""
    blocks = list(blocks)
    headed = [i for i, b in enumerate(blocks) if not b.is_toc and b.heading != PREFACE_HEADING]
    if len(headed) < 2:
        return blocks, ""
    first = blocks[headed[0]]
    if first.source != "inferred" or first.written is None:
        return blocks, ""
    if all(blocks[i].level > first.level for i in headed[1:]):
        return blocks, ""  # every section nests below it: the document's one top heading
    if first.level > 1 and (headed[0] > 0 or blocks[headed[1]].level <= first.level):
        # Ranked below a later heading, a title is the first line read and stands over
        # sections of its own (a masthead over a bulletin's items); one that heads only its
        # text before a heading ranked above it is a section (a foreword before chapters).
        return blocks, ""
    if any(b.is_toc for b in blocks[: headed[0]]):
        return blocks, ""  # a table of contents before it: the title of what follows
    if parse_label(first.heading) is not None:
        return blocks, ""
    look = _look(first)
    # Its look is measured against the headings at its rank and below: one ranked above it
    # opens a part it does not stand over, and may be set larger.
    others = [
        o
        for i in headed[1:]
        if blocks[i].level >= first.level and (o := _look(blocks[i])) is not None
    ]
    if look is None or not others:
        return blocks, ""
    if any(o.size > look.size or o.signature() == look.signature() for o in others):
        return blocks, ""
    moved = [first.written, *first.lines[1:]]
    at = headed[0]
    if at > 0 and blocks[at - 1].heading == PREFACE_HEADING and not blocks[at - 1].is_toc:
        preface = blocks[at - 1]
        blocks[at - 1] = RawBlock(
            heading=PREFACE_HEADING,
            level=preface.level,
            parents=preface.parents,
            lines=[*preface.lines, *moved],
        )
        del blocks[at]
    else:
        blocks[at] = RawBlock(heading=PREFACE_HEADING, level=1, parents=(), lines=moved)
        at += 1
    return _up_a_level(blocks, at, first), first.heading


def _up_a_level(blocks: list[RawBlock], start: int, title: RawBlock) -> list[RawBlock]:
    """``blocks`` with the sections that stood below the title (from ``start`` to the next
    heading at its level) one level up, and no path naming it: their levels and paths
    agree. A contents at the title's level, between it and its sections, ends no section
    and closes none of their paths: those sections stood below the title all the same."""
    for i in range(start, len(blocks)):
        block = blocks[i]
        if block.level <= title.level and not block.is_toc:
            break
        if block.level > title.level:
            named = (*title.parents, title.heading)
            parents = (
                (*title.parents, *block.parents[len(named) :])
                if block.parents[: len(named)] == named
                else block.parents
            )
            blocks[i] = replace(block, level=block.level - 1, parents=parents)
    return blocks


def _look(block: RawBlock) -> Look | None:
    """The look of the heading ``block`` opens with (read when asked for), or None."""
    return block.look() if block.look is not None else None
