"""The HTML report of ``lightrag-pchunk inspect``: one page per document that stays light
however long the document.

The page holds what is read first, drawn on the server: the decision, the checks, a chunk
size histogram (inline SVG), the stages. The chunks are drawn by the page's own script
(``report.js``) from a small index (each chunk's path, tokens, role, pages, broken
breadcrumb promises; the document's outline): an outline beside them links every section
to its chunks, a search finds a word in every chunk, and a chunk's text is drawn only when
it comes into view. The texts travel as *parts* of about :data:`PART_CHARACTERS` each
(``report_pieces.py``): inside the page while they all fit in :data:`INLINE_CHARACTERS`,
else in ``<page>_parts/part-NNN.js`` beside it, loaded when a chunk of theirs is shown or
searched, so the page itself grows with the number of chunks, not with the text.

No file the user does not have is named or linked (a temporary parse, the strategy's spec,
a picture's file): a picture is a placeholder naming it. Every piece of document text is
escaped or set as text: a document can contain anything, ``<script>`` included.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from lightrag_pchunk.chunk.breadcrumbs import Violation
from lightrag_pchunk.cli.checks import heading_path, pages_label
from lightrag_pchunk.cli.inspection import Inspection
from lightrag_pchunk.cli.report_pieces import content_pieces
from lightrag_pchunk.cli.report_svg import OVERSIZE, ROLE_COLOURS, histogram_svg
from lightrag_pchunk.integration.formats import format_for
from lightrag_pchunk.model import BlockRow, Chunk
from lightrag_pchunk.wording import counted

#: JSON characters of chunk text per part.
PART_CHARACTERS = 200_000
#: The parts go inside the page while all of them together hold at most this many.
INLINE_CHARACTERS = 400_000
#: The name of the function a part calls (``report.js`` defines it).
PART_FUNCTION = "lightragPchunkPart"

_STATUS_COLOURS = {"OK": "#2e9e5b", "WARN": "#d64545", "INFO": "#6b7280"}
#: A reference to a section of the strategy's spec, which a user does not have.
_SPEC_REFERENCE = re.compile(r"\s*\((?:strategy\.md )?§[\d.]+(?:, §[\d.]+)*\)|,? ?§[\d.]+")


@dataclass(frozen=True, slots=True)
class ReportFiles:
    """The page and, for a long document, its parts: ``{path: text}`` to write."""

    page: Path
    texts: dict[Path, str]

    @property
    def parts_folder(self) -> Path | None:
        """The folder of the parts (None: they are inside the page)."""
        return next((p.parent for p in self.texts if p != self.page), None)


def default_report_path(source: Path) -> Path:
    """``<dir>/<stem>.inspect.html`` next to the input (a file or a ``.parsed/`` folder)."""
    name = source.name
    for suffix in (".blocks.jsonl", ".parsed"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    if format_for(name) is not None or name.lower().endswith(".jsonl"):
        name = Path(name).stem
    return source.parent / f"{name}.inspect.html"


def parts_folder(page: Path) -> Path:
    """Where the parts of ``page`` go: ``<stem>_parts/`` beside it."""
    return page.with_name(f"{page.stem}_parts")


@dataclass(frozen=True, slots=True)
class Part:
    """The texts of some consecutive chunks, ``[order, pieces]`` each: what the page's
    script receives in one call."""

    number: int
    chunks: tuple[list[Any], ...]

    @property
    def orders(self) -> list[int]:
        """The orders of its chunks."""
        return [order for order, _pieces in self.chunks]

    def script(self) -> str:
        """The part as the script that hands it to the page."""
        return f"{PART_FUNCTION}({self.number},{_json(list(self.chunks))});\n"


def chunk_parts(chunks: Sequence[Chunk]) -> list[Part]:
    """The chunk texts in parts of about :data:`PART_CHARACTERS` (a chunk longer than that
    is a part of its own)."""
    parts: list[Part] = []
    current: list[list[Any]] = []
    size = 0
    for chunk in chunks:
        entry = [chunk.order, content_pieces(chunk.content)]
        weight = len(_json(entry))
        if current and size + weight > PART_CHARACTERS:
            parts.append(Part(len(parts) + 1, tuple(current)))
            current, size = [], 0
        current.append(entry)
        size += weight
    if current:
        parts.append(Part(len(parts) + 1, tuple(current)))
    return parts


def write_report(
    inspection: Inspection, path: Path, *, title: str, source: str = "", decision: str = ""
) -> ReportFiles:
    """Write the report (UTF-8) to ``path`` and, for a long document, its parts beside it
    (parts of an earlier report of that name are removed first)."""
    report = report_files(inspection, path, title=title, source=source, decision=decision)
    folder = parts_folder(path)
    if folder.is_dir():
        for old in folder.glob("part-*.js"):
            old.unlink()
    for target, text in report.texts.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
    return report


def report_files(
    inspection: Inspection, path: Path, *, title: str, source: str = "", decision: str = ""
) -> ReportFiles:
    """The page at ``path`` and, when the parts do not fit in it, the part files."""
    parts = chunk_parts(inspection.chunks)
    scripts = [part.script() for part in parts]
    if sum(map(len, scripts)) <= INLINE_CHARACTERS:
        page = _page(inspection, title, source, decision, parts, inline=scripts)
        return ReportFiles(path, {path: page})
    folder = parts_folder(path)
    part_file = f"{folder.name}/part-{{n}}.js"
    page = _page(inspection, title, source, decision, parts, part_file=part_file)
    files = {
        folder / f"part-{part.number:03d}.js": script
        for part, script in zip(parts, scripts, strict=True)
    }
    return ReportFiles(path, {path: page, **files})


def _json(value: Any) -> str:
    """JSON that may stand inside a ``<script>`` element (``</`` never closes it)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _page(
    inspection: Inspection,
    title: str,
    source: str,
    decision: str,
    parts: Sequence[Part],
    *,
    inline: Sequence[str] = (),
    part_file: str = "",
) -> str:
    """The page: its parts' ``inline`` scripts inside it, or ``part_file`` naming where they
    are (``{n}``: a part's number)."""
    t = inspection.thresholds
    index = {
        "chunks": _chunk_index(inspection, parts),
        "outline": outline_index(inspection.rows, inspection.chunks),
        "parts": len(parts),
        "partFile": part_file,
        "targetMax": t.target_max,
        "colours": {role.value: colour for role, colour in ROLE_COLOURS.items()},
        "over": OVERSIZE,
    }
    meta = [line for line in (decision, source) if line]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(title)} — lightrag-pchunk inspect</title>",
            f"<style>{_asset('report.css')}</style></head><body>",
            '<nav id="side"><input id="search" type="search" placeholder="Search the chunks (/)"'
            ' aria-label="search the chunks"><p id="found"></p><div id="results" hidden></div>'
            '<h2>Outline</h2><div id="outline"></div></nav>',
            '<main id="main">',
            f'<h1 dir="auto">{_e(title)}</h1>',
            *(f'<p class="meta" dir="auto">{_e(line)}</p>' for line in meta),
            f'<p class="meta">{_e(inspection.chunker())}; '
            f"target_max {t.target_max}, target_ideal {t.target_ideal}, "
            f"table_max {t.table_max}, table_ideal {t.table_ideal}, "
            f"small_tail_threshold {t.small_tail_threshold}</p>",
            _summary(inspection),
            "<h2>Checks</h2>",
            _checks_table(inspection),
            "<h2>Chunk sizes</h2>",
            histogram_svg([c.tokens for c in inspection.chunks], t),
            "<h2>Stages</h2>",
            _stages_table(inspection),
            f"<h2>Document as chunks ({len(inspection.chunks)})</h2>",
            _legend(),
            "<noscript><p>The chunks, the outline and the search are drawn by this page's"
            " script: allow it to see them (the checks above need none).</p></noscript>",
            '<div id="chunks"></div></main>',
            f'<script type="application/json" id="report-index">{_json(index)}</script>',
            f"<script>{_asset('report.js')}</script>",
            *(f"<script>{script}</script>" for script in inline),
            "</body></html>",
        ]
    )


def _asset(name: str) -> str:
    return files("lightrag_pchunk.cli").joinpath(name).read_text(encoding="utf-8")


def _summary(inspection: Inspection) -> str:
    """One line: chunks, their pages (a PDF), the breadcrumb contract."""
    chunks = inspection.chunks
    parts = [counted(len(chunks), "chunk")]
    pages = sorted({span.page for chunk in chunks for span in chunk.pages})
    if pages:
        parts.append(f"on {pages_label(pages)}")
    broken = inspection.violations
    if chunks:
        parts.append(
            "every chunk keeps the breadcrumb contract (its heading path is one of the outline"
            " and holds its text)"
            if not broken
            else f"{counted(len(broken), 'broken breadcrumb promise')}, marked on"
            f" {counted(len({v.order for v in broken}), 'chunk')}"
        )
    return f'<p class="meta">{_e("; ".join(parts))}</p>'


def _chunk_index(inspection: Inspection, parts: Sequence[Part]) -> list[list[Any]]:
    """``[order, tokens, level, role, pages, path, broken promises, part]`` per chunk."""
    part_of = {order: part.number for part in parts for order in part.orders}
    broken: dict[int, list[str]] = {}
    for violation in inspection.violations:
        broken.setdefault(violation.order, []).append(_promise(violation))
    return [
        [
            chunk.order,
            chunk.tokens,
            chunk.level,
            chunk.role.value,
            pages_label([span.page for span in chunk.pages]),
            heading_path(chunk),
            broken.get(chunk.order, []),
            part_of[chunk.order],
        ]
        for chunk in inspection.chunks
    ]


def _promise(violation: Violation) -> str:
    return f"{violation.rule}: {violation.reason}"


def outline_index(rows: Sequence[BlockRow], chunks: Sequence[Chunk]) -> list[list[Any]]:
    """``[level, heading, first chunk, last chunk]`` per section of the document, in order;
    ``-1`` for a section no chunk holds (a setting dropped it). A chunk holds a section when
    it carries one of the section's block ids."""
    holders: dict[str, list[int]] = {}
    for chunk in chunks:
        for block_id in chunk.block_ids:
            holders.setdefault(block_id, []).append(chunk.order)
    entries: list[list[Any]] = []
    for row in rows:
        if not row.content.strip():
            continue
        orders = holders.get(row.blockid, []) if row.blockid else []
        heading = row.heading.strip() or "(untitled)"
        first, last = (min(orders), max(orders)) if orders else (-1, -1)
        if entries and entries[-1][1] == heading and entries[-1][0] == row.level:
            if first >= 0:  # a section written as several rows: one entry
                previous = entries[-1]
                previous[2] = first if previous[2] < 0 else min(previous[2], first)
                previous[3] = max(previous[3], last)
            continue
        entries.append([row.level, heading, first, last])
    return entries


def _badge(status: str) -> str:
    colour = _STATUS_COLOURS.get(status, "#6b7280")
    return f'<span class="badge" style="background:{colour}">{_e(status)}</span>'


def _plain(text: str) -> str:
    """A check's words without the spec's section numbers."""
    return _SPEC_REFERENCE.sub("", text)


def _checks_table(inspection: Inspection) -> str:
    rows = []
    for check in inspection.checks:
        # The stages have their own table below.
        lines = () if check.name == "stages" else check.details
        details = "".join(f"<li>{_e(_plain(line))}</li>" for line in lines)
        detail_list = f'<ul class="details">{details}</ul>' if details else ""
        rows.append(
            f"<tr><td>{_badge(check.status)}</td><td>{_e(check.name)}</td>"
            f"<td>{_e(_plain(check.summary))}{detail_list}</td></tr>"
        )
    head = "<tr><th>Status</th><th>Check</th><th>Result</th></tr>"
    return f'<table class="grid">{head}{"".join(rows)}</table>'


def _stages_table(inspection: Inspection) -> str:
    if not inspection.steps:
        return "<p>The stages did not run: the blocks file has no content rows.</p>"
    rows = "".join(
        f"<tr><td>{_e(step.name)}</td><td>{step.blocks}</td><td>{step.largest}</td>"
        f"<td>{_e(', '.join(f'{k} {v}' for k, v in sorted(step.roles.items())))}</td>"
        f"<td>{_e(step.note)}</td></tr>"
        for step in inspection.steps
    )
    head = (
        "<tr><th>Stage</th><th>Blocks</th><th>Largest</th><th>Roles</th><th>What it did</th></tr>"
    )
    return f'<table class="grid">{head}{rows}</table>'


def _legend() -> str:
    items = "".join(
        f'<span><i style="background:{colour}"></i>{_e(role.value)}</span>'
        for role, colour in ROLE_COLOURS.items()
    )
    over = f'<span><i style="background:{OVERSIZE}"></i>over target_max</span>'
    return f'<p class="legend">Table role: {items}{over}</p>'
