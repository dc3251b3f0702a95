"""Stage A entry for Markdown: ``.md`` / ``.markdown`` -> ``<stem>.blocks.jsonl`` and its
sidecars, in the layout and formats of LightRAG 1.5.7's native parser, written through the
same writer as a .docx (:func:`~lightrag_pchunk.parse.artefacts.parse_to_folder`).

Every heading starts a block whose content opens with the heading in ATX form
(``"#" * level``), then the block's units separated by blank lines; text before the first
heading is the ``Preface/Uncategorized`` block (level 1, as for a .docx). ``parent_headings``
are the open shallower headings. When every heading is at one level (a document converted
from PDF: all ``##``) and the headings are numbered, their numbering decides the levels
(:func:`lightrag_pchunk.outline.numbering.levels_from_numbering`, the classifier of the Word
outline too). The long stretches the headings leave get the smart outline, nested below the
heading they stand under (``gap_outline.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from itertools import compress, repeat
from pathlib import Path

from lightrag_pchunk.errors import MarkdownParseError
from lightrag_pchunk.markdown.gap_outline import with_gap_headings
from lightrag_pchunk.markdown.headings import Heading
from lightrag_pchunk.markdown.images import EmbeddedImages
from lightrag_pchunk.markdown.source import MarkdownLimits, read_markdown
from lightrag_pchunk.markdown.walk import Item, MarkdownWalk
from lightrag_pchunk.model import MAX_HEADING_LEVEL, PREFACE_HEADING, TOC_SESSION
from lightrag_pchunk.outline.numbering import levels_from_numbering
from lightrag_pchunk.outline.toc import DEFAULT_TOC_TITLE, is_toc_title
from lightrag_pchunk.parse.artefacts import ParsedDocument, ParsedParts, parse_to_folder
from lightrag_pchunk.parse.content_rows import SourceBlock
from lightrag_pchunk.parse.drawings import AssetFolder
from lightrag_pchunk.parse.outline_build import SmartHeading
from lightrag_pchunk.work_budget import WorkBudget, text_lines

_ATX = ["#" * level + " " for level in range(7)]  # an ATX heading's marks by level
#: A contents' entry: a list item that is one link to an anchor of the document.
_CONTENTS_ENTRY = re.compile(r"\s*(?:[-*+]|\d{1,3}[.)])\s+\[.+\]\(#[^)\s]*\)\s*")
_MIN_CONTENTS_ENTRIES = 3
#: The row key that marks a table of contents, as `parse/heading_stack.py` writes it.
_TOC_KEY = "session_type"


def parse_markdown(
    path: str | Path,
    output_dir: str | Path | None = None,
    *,
    doc_id: str | None = None,
    limits: MarkdownLimits | None = None,
    smart_heading: bool | str | SmartHeading | None = None,
    outline_judge: object = None,
    work: WorkBudget | None = None,
) -> ParsedDocument:
    """Parse a Markdown file and write its blocks file and sidecars.

    Args:
        path: the Markdown file (CommonMark with GFM tables, ``$$`` math, YAML front matter).
        output_dir: the folder that receives ``<name>.parsed/``; default
            ``<source dir>/__parsed__`` (LightRAG's layout).
        doc_id: the document id; default LightRAG's for a known file path: ``doc-`` + md5 of
            the canonical basename (file-name hint removed). Letters, digits, ``._-`` only.
        limits: size limits; default :meth:`MarkdownLimits.from_env`.
        smart_heading: "off" (or False) keeps every heading at its written level and
            infers none; on or auto (the default) let the numbering decide the levels of
            a flat outline and the smart outline fill the long stretches.
            ``DOCX_SMART_HEADING`` is for Word files and does not apply.
        outline_judge: accepted for the parse-function contract; Markdown marks its
            headings, so no language model is asked.
        work: the most blocks and lines the document may have (P's work); default
            :meth:`WorkBudget.from_env`.

    Raises:
        MarkdownParseError: the file is refused (over a limit, not text, an unknown
            encoding, ``output-budget``: over the work budget), or the output folder
            cannot be used (``reason="output"``).
        FileNotFoundError: ``path`` does not exist.
        ValueError: ``doc_id`` has characters outside ``[A-Za-z0-9_.-]``, a limit from
            the environment is not an integer >= 1, or a bad ``smart_heading``.
    """
    del outline_judge  # Markdown headings are marked: nothing to judge
    limits = limits if limits is not None else MarkdownLimits.from_env()
    relevel = SmartHeading.parse(smart_heading) is not SmartHeading.OFF
    work = work if work is not None else WorkBudget.from_env()
    parse = partial(_markdown_parts, limits=limits, relevel=relevel, work=work)
    return parse_to_folder(path, output_dir, doc_id, parse, MarkdownParseError)


def _markdown_parts(
    source: Path,
    folder: Path,
    stem: str,
    doc_id: str,
    *,
    limits: MarkdownLimits,
    relevel: bool,
    work: WorkBudget,
) -> ParsedParts:
    """Parse ``source``, writing its embedded images into ``folder`` (the staging folder);
    refused past ``work`` once walked, before its blocks are made."""
    source_text = read_markdown(source, limits)
    text = source_text.text
    doc_hash = doc_id.removeprefix("doc-")
    images = EmbeddedImages(
        AssetFolder(folder / f"{stem}.blocks.assets", f"{stem}.blocks.assets"),
        doc_hash,
        max_image_bytes=limits.max_image_bytes,
        max_total_bytes=limits.max_images_total_bytes,
    )
    walked = MarkdownWalk(text, doc_hash, images).run()
    headings = sum(map(isinstance, walked.items, repeat(Heading)))
    units = sum(text_lines(item) for item in walked.items if isinstance(item, str))
    if (excess := work.excess(headings, headings + units)) is not None:
        raise MarkdownParseError(str(source), "output-budget", excess)
    blocks = sections(walked.items, relevel=relevel)
    front_matter = walked.front_matter
    # LightRAG's Markdown title: the first level-1 heading (else the file's stem).
    title = front_matter.title if front_matter is not None else ""
    title = title or next(
        (b.heading for b in blocks if b.level == 1 and b.heading != PREFACE_HEADING), ""
    )
    warnings = list(images.warnings)
    if not source_text.is_utf8:
        warnings.append(f"decoded as {source_text.encoding} (the file is not UTF-8)")
    meta: dict[str, object] = {"source_encoding": source_text.encoding}
    if front_matter is not None and front_matter.fields:
        meta["front_matter"] = front_matter.fields
    return ParsedParts(
        blocks=blocks,
        tables=walked.tables,
        equations=walked.equations,
        drawings=images.records,
        warnings=warnings,
        doc_title=title,
        meta=meta,
    )


def sections(items: Sequence[Item], *, relevel: bool = True) -> list[SourceBlock]:
    """Heading-scoped blocks of the walked items: each heading opens a block holding its
    ATX line and the units up to the next heading, units separated by a blank line.
    ``relevel``: a flat numbered outline takes its levels from the numbering, and the
    long stretches the headings leave get the smart outline (``gap_outline.py``)."""
    written: list[Heading] = [item for item in items if isinstance(item, Heading)]
    styled_levels = outline_levels(written) if relevel else [h.level for h in written]
    if relevel:
        items = with_gap_headings(items, styled_levels)
    at = list(compress(range(len(items)), map(isinstance, items, repeat(Heading))))
    headings: list[Heading] = [items[index] for index in at]  # type: ignore[misc]
    styled = iter(styled_levels)
    levels = [heading.level if heading.inferred else next(styled) for heading in headings]
    blocks: list[SourceBlock] = []
    if (first := at[0] if at else len(items)) > 0:  # text before the first heading
        preface = SourceBlock(PREFACE_HEADING, 1, (), [], ({"type": "heading", "anchor": None},))
        blocks += _with_contents(preface, items[:first])  # type: ignore[arg-type]
    # The open headings, each with the titles of the open headings up to it (a block's
    # parents are those of the heading above it, made once) and whether it was inferred:
    # a marked heading closes every inferred one, which nest below the marked headings.
    stack: list[tuple[int, tuple[str, ...], bool]] = []
    ends = [*at[1:], len(items)] if at else []
    for heading, level, index, end in zip(headings, levels, at, ends, strict=True):
        while stack and (stack[-1][0] >= level or (stack[-1][2] and not heading.inferred)):
            stack.pop()
        title = heading.title
        parents = stack[-1][1] if stack else ()
        stack.append((level, (*parents, title), heading.inferred))
        # One line holding the heading and the units joined by blank lines: the same
        # content as a line per unit with empty lines between, made by one join.
        atx = f"{_ATX[min(level, 6)]}{heading.inline}"
        anchor = {"type": "heading", "anchor": title}
        extra = {"heading_source": "inferred"} if heading.inferred else {}
        block = SourceBlock(title, level, parents, [atx], (anchor,), extra)
        blocks += _with_contents(block, items[index + 1 : end])  # type: ignore[arg-type]
    return blocks


def _with_contents(block: SourceBlock, units: Sequence[str]) -> list[SourceBlock]:
    """``block`` with its ``units``; a table of contents among them (a list of links to
    the document's own headings: ``- [Goals](#goals)``) a block of its own, as a Word
    contents field is: the whole block where the heading names it ("## Contents"), else
    one in its place, the units after it going on under the heading it interrupted."""
    parts: list[SourceBlock] = []
    current, lines = block, list(block.lines)
    for unit in units:
        if not _is_contents(unit):
            lines.append(unit)
            continue
        if lines == block.lines and is_toc_title(block.heading):
            current.extra[_TOC_KEY] = TOC_SESSION  # "## Contents" over its list of links
            lines.append(unit)
            continue
        if lines:
            parts.append(replace(current, lines=["\n\n".join(lines)]))
        toc = ({"type": "heading", "anchor": None},)
        parts.append(SourceBlock(DEFAULT_TOC_TITLE, 1, (), [unit], toc, {_TOC_KEY: TOC_SESSION}))
        current, lines = replace(block, extra=dict(block.extra)), []
    if lines:
        parts.append(replace(current, lines=["\n\n".join(lines)]))
    return parts


def _is_contents(unit: str) -> bool:
    """A list whose every item is one link to a heading of the document, of three or more."""
    if "](#" not in unit:  # no link to an anchor: most units, known without their lines
        return False
    entries = [line for line in unit.split("\n") if line.strip()]
    return len(entries) >= _MIN_CONTENTS_ENTRIES and all(map(_CONTENTS_ENTRY.fullmatch, entries))


def outline_levels(headings: Sequence[Heading]) -> list[int]:
    """The level of each heading: as written, unless the outline is flat and numbered.

    Flat: every heading at one level, a shallower first heading (the title) aside. Then
    :func:`levels_from_numbering` decides, and the numbered outline goes below the title.
    """
    written = [heading.level for heading in headings]
    has_title = len(written) > 2 and written[0] < min(written[1:])
    body = written[1:] if has_title else written
    if len(body) < 2 or len(set(body)) != 1:
        return written
    numbered = levels_from_numbering([h.title for h in headings[len(written) - len(body) :]])
    if numbered is None:
        return written
    base = written[0] if has_title else 0
    return written[: len(written) - len(body)] + [
        min(base + n, MAX_HEADING_LEVEL) for n in numbered
    ]
