"""The smart outline in the long stretches a Markdown file's headings leave.

A converted document often marks only some of its headings with ``#``: a filing's notes
("NOTE 3 - INITIAL PUBLIC OFFERING") and report titles stay paragraphs, some in bold. A
stretch under a ``#`` heading (or before the first) of more than ``AUTO_WORDS_PER_HEADING``
words of text (the Word parser's limit: ``parse/outline_build.py``) is read by the heading
classifier of ``outline/`` (the one the Word and PDF parsers use): the ``#`` headings are
the styled ones, a paragraph set all in bold has a bold look, a one-line numbered list
item is a list item, any other unit (a list, a quote, code, a table) is content that
heads nothing.

- Where the author marks headings (two ``#`` headings or more), a paragraph neither bold
  nor numbered heads nothing: its place alone, standing between paragraphs, is evidence
  only in a file that marks no outline (a sentence's start the converter left on a line
  of its own, "During pre-training, we train", stands so too).
- A Markdown file keeps no sizes, so the looks the classifier would rank levels by are
  bold or plain: a heading found in a stretch takes the level just below the ``#``
  heading it stands under (level 1 before the first). The path is true, where a ranking
  by look could hang a note under the subsection before it. Where a stretch holds both
  labelled headings ("NOTE 2 - SUMMARY OF …") and unlabelled ones, an unlabelled heading
  after a labelled one goes one level deeper, under it ("Basis of Presentation" under
  "NOTE 2"): a label numbers a part of the document, a bare title a topic inside one;
  one naming front or back matter ("References", "Appendix") stays at the top, and so
  does one set in capitals after a labelled one in capitals ("SIGNATURES" after "NOTE
  12 - LEASES": the capitals are the rank of the labelled parts).
- A line found by its place alone (plain, unnumbered) that stands first in its stretch,
  right under a ``#`` heading or opening the file, with no other heading found in the
  stretch parts nothing: it is that heading's byline, date or subtitle ("By Jane Doe",
  "March 2024"), not the title of all the text below it.
- A ``#`` heading is never moved: ``document.py`` closes every inferred heading at the
  next ``#`` one. A paragraph the classifier would part into a title and its body stays
  whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from lightrag_pchunk.markdown.headings import Heading
from lightrag_pchunk.model import MAX_HEADING_LEVEL
from lightrag_pchunk.outline.infer import (
    InferredHeading,
    ItemKind,
    Look,
    OutlineItem,
    infer_outline,
    long_stretches,
)
from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.markdown_units import markdown_unit, opens_no_paragraph
from lightrag_pchunk.outline.numbering import names_front_or_back_matter
from lightrag_pchunk.parse.outline_build import AUTO_WORDS_PER_HEADING

_BOLD = Look(bold=True)


def with_gap_headings(items: Sequence[Heading | str], levels: Sequence[int]) -> list:
    """``items`` with the paragraphs the smart outline takes for headings in the long
    stretches replaced by inferred :class:`Heading` s (``inferred=True``); ``levels``
    are the levels of the ``#`` headings in order (as the outline sets them)."""
    # Every unit's words count for the stretches; only those in a long one are read
    # for their displayed text and look.
    outline: list[OutlineItem] = []
    styled = iter(levels)
    for item in items:
        if isinstance(item, Heading):
            outline.append(OutlineItem(ItemKind.HEADING, item.title, next(styled)))
        else:
            kind = ItemKind.OTHER if opens_no_paragraph(item) else ItemKind.TEXT
            outline.append(OutlineItem(kind, item))
    within = long_stretches(outline, AUTO_WORDS_PER_HEADING)
    if not within:
        return list(items)
    marked = len(levels) >= 2
    looks: dict[int, Look] = {}
    for index in (i for stretch in within for i in stretch):
        outline[index], bold = markdown_unit(items[index], marked=marked)  # type: ignore[arg-type]
        if bold:
            looks[index] = _BOLD
    reading = (outline[i] for stretch in within for i in stretch)
    if not any(line.kind is ItemKind.TEXT and not line.titles_nothing for line in reading):
        return list(items)  # no line in the stretches may head anything
    gaps = within if marked else []
    found = infer_outline(outline, 0.0, looks.get, within=within, long_gaps=gaps)
    below = _levels_below(outline)
    # A title with its body in one paragraph: the paragraph stays whole.
    found = [heading for heading in found if not heading.body]
    found = [heading for heading in found if not _parts_nothing(heading, found, within, looks)]
    under_labels = _under_labels(found, within)
    result = list(items)
    for heading in found:
        unit = items[heading.index]
        assert isinstance(unit, str)
        title = " ".join(heading.title.split())
        level = min(below[heading.index] + (heading.index in under_labels), MAX_HEADING_LEVEL)
        result[heading.index] = Heading(level, title, " ".join(unit.split()), True)
    return result


def _under_labels(found: Sequence[InferredHeading], within: Sequence[range]) -> set[int]:
    """The indexes of the unlabelled headings of ``found`` that stand after a labelled
    one of their stretch: each belongs to the labelled part before it, unless it names
    front or back matter, or is set in capitals as that labelled one is: capitals give
    the labelled parts their rank, so a bare title in them is the next part
    ("SIGNATURES" after "NOTE 12 - LEASES")."""
    under: set[int] = set()
    for stretch in within:
        labelled: str | None = None  # the title of the last labelled heading
        for heading in (h for h in found if h.index in stretch):
            title = heading.title
            if parse_label(title) is not None:
                labelled = title
            elif (
                labelled is not None
                and not names_front_or_back_matter(title)
                and not (title.isupper() and labelled.isupper())
            ):
                under.add(heading.index)
    return under


def _parts_nothing(
    heading: InferredHeading,
    found: Sequence[InferredHeading],
    within: Sequence[range],
    looks: dict[int, Look],
) -> bool:
    """Whether ``heading``, found by its place alone (plain, unnumbered), opens its stretch
    and is the only heading found in it: right under a ``#`` heading (or opening the file),
    over all the stretch's text, it is that heading's byline, date or subtitle."""
    if heading.index in looks or parse_label(heading.title) is not None:
        return False
    stretch = next(stretch for stretch in within if heading.index in stretch)
    return heading.index == stretch.start and all(
        other is heading or other.index not in stretch for other in found
    )


def _levels_below(outline: Sequence[OutlineItem]) -> list[int]:
    """For each item, the level just below the ``#`` heading it stands under (1 before
    the first)."""
    levels, level = [], 1
    for item in outline:
        if item.kind is ItemKind.HEADING:
            level = min(item.level + 1, MAX_HEADING_LEVEL)
        levels.append(level)
    return levels
