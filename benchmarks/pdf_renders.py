"""Section 2 of ``bench_pdf.py``: our PDF parser on the LibreOffice renders of the .docx corpus,
scored against our .docx parser's output of the same .docx (``benchmarks/README.md``); and P's
chunks at N=1200 (``our_chunks``), which section 1 shares."""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from pathlib import Path

from common import CORPUS, mean, share, table, verdict
from outline_strip import Heading, compare, pooled

from lightrag_pchunk.blockfile.sidecars import read_table_headers
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.coverage import count_words, lost_words
from lightrag_pchunk.chunk.pipeline import chunk_rows
from lightrag_pchunk.chunk.table_tags import json_header_rows, json_rows
from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.model import PREFACE_HEADING, TOC_SESSION, TableRole
from lightrag_pchunk.parse.document import parse_docx
from lightrag_pchunk.pdf.document import parse_pdf
from lightrag_pchunk.pdf.outline import normalise, similarity
from lightrag_pchunk.tokens import TokenCounter

SIZE = 1200
RENDER_SETS = ("bookmarks", "no-bookmarks")
#: Outline targets (recall, precision, parent accuracy, the worse of pooled and per file) by
#: render set: with bookmarks, what they give; without, what the pages show.
OUTLINE_TARGETS = {
    "bookmarks": {"recall": 0.98, "precision": 0.98},
    "no-bookmarks": {"recall": 0.90, "precision": 0.90, "parents": 0.85},
}
_TAG = re.compile(r'(?P<opening><table id="(?P<id>[^"]+)"[^>]*>)(?P<body>.*?)</table>')
_MARKUP = re.compile(r"</?[a-z]+>")
_NOT_PRINTED = re.compile(r"<drawing\b[^>]*/>|<equation\b[^>]*>.*?</equation>", re.DOTALL)
#: Format characters (Unicode category Cf) but the zero-width space, which parts words.
_FORMAT = dict.fromkeys(
    code for code in range(0x110000) if code != 0x200B and unicodedata.category(chr(code)) == "Cf"
)


def our_chunks(parsed, counter: TokenCounter) -> list:
    """P's chunk pipeline at N=1200, overlap 0, with the table headers of the parse's
    ``.tables.json`` (the other settings at their defaults)."""
    headers = read_table_headers(parsed.blocks_path)
    return chunk_rows(list(parsed.rows), Context.create(counter, SIZE, 0, table_headers=headers))


def slices_with_header(chunks, headers: dict[str, str]) -> tuple[int, int]:
    """(slices, slices starting with their table's header rows) over the chunks that
    continue a cut table whose header ``.tables.json`` records."""
    slices = headed = 0
    for chunk in chunks:
        if chunk.role not in (TableRole.MIDDLE, TableRole.LAST):
            continue
        for tag in _TAG.finditer(chunk.content):
            header = json_header_rows(headers[tag["id"]]) if tag["id"] in headers else None
            if not header:
                continue
            slices += 1
            headed += (json_rows(tag["body"]) or [])[: len(header)] == header
            break
    return slices, headed


def headings(rows) -> list[Heading]:
    """Every heading row, its title and parent's normalised, but tables of contents and the
    text after a table of contents that continues the heading it interrupted."""
    found, after_toc = [], False
    for row in rows:
        if row.extra.get("session_type") == TOC_SESSION:
            after_toc = True
            continue
        parent = _title(row.parent_headings[-1]) if row.parent_headings else ""
        heading = Heading(_title(row.heading), row.level, parent)
        if row.heading != PREFACE_HEADING and not (after_toc and found and found[-1] == heading):
            found.append(heading)
        after_toc = False
    return found


def _title(heading: str) -> str:
    """A heading as printed, normalised: a .docx heading's inline markup (``<sup>``) is
    no printed text."""
    return normalise(_MARKUP.sub("", _printable(heading)))


def _near(a: str, b: str) -> bool:
    """Titles matched as printed: equal, or near (a line break or a glyph read apart)."""
    return a == b or (bool(a) and bool(b) and similarity(a, b) >= 0.85)


def table_cells(rows) -> Counter:
    """Normalised non-empty cell texts of every table tag of ``rows`` (contents), each
    merged cell once (see :func:`_printed_cells`)."""
    tags = (tag for text in rows for tag in _TAG.finditer(text))
    return Counter(
        normalise(c) for tag in tags for row in _printed_cells(tag["body"]) for c in row if c
    )


def _printed_cells(body: str) -> list[list[str]]:
    """A table tag's rows of cell texts as printed (:func:`_printable`), a cell that repeats
    the one above it in its column blanked: LightRAG's JSON repeats a vertically merged cell
    in every row it spans, a page prints it once. An undecodable body: no rows."""
    rows, above = [], {}
    for row in json_rows(body) or []:
        items = list(enumerate(row) if isinstance(row, list) else row.items())
        texts = []
        for column, cell in items:
            shown = _printable(str(cell))
            value = normalise(shown)
            texts.append(shown if value and above.get(column) != value else "")
            above[column] = value
        rows.append(texts)
    return rows


def _without_merge_copies(text: str) -> str:
    """``text`` with each table tag's body re-written without the copies of merged cells
    (:func:`_printed_cells`): the .docx's words as its pages print them."""

    def rewrite(tag: re.Match) -> str:
        body = json.dumps(_printed_cells(tag["body"]), ensure_ascii=False)
        return tag["opening"] + body.replace("</", "<\\/") + "</table>"

    return _TAG.sub(rewrite, text)


def rendered(variant: str, files: list[Path], out: Path, tokenizer) -> list[str]:
    counter = TokenCounter(tokenizer)
    rows, total, scores, inferred_scores = [], Counter(), [], []
    for pdf in files:
        docx = next((p for p in (CORPUS / "docx").glob(pdf.stem + ".*")), None)
        try:
            # The authored outline (heading styles), not headings our classifier infers.
            truth_doc = parse_docx(docx, out / "docx", smart_heading=False) if docx else None
            ours = parse_pdf(pdf, out / variant)
        except DocumentParseError as error:
            rows.append((pdf.stem, f"refused: {error.reason}", *[""] * 9))
            continue
        if truth_doc is None:
            continue
        found = headings(ours.rows)
        score = compare(headings(truth_doc.rows), found, same=_near)
        scores.append(score)
        with_inferred = parse_docx(docx, out / "docx-inferred", smart_heading="auto")
        inferred = compare(headings(with_inferred.rows), found, same=_near)
        inferred_scores.append(inferred)
        chunks = our_chunks(ours, counter)
        truth_text = "\n".join(r.content for r in truth_doc.rows)
        words = count_words(_printable(_without_merge_copies(truth_text)))
        reached = count_words(_unformatted("\n".join(c.content for c in chunks)), is_chunk=True)
        lost = lost_words([r.content for r in ours.rows], [c.content for c in chunks]).total
        doc_cells = table_cells([r.content for r in truth_doc.rows])
        our_cells = table_cells([c.content for c in chunks])
        slices, headed = slices_with_header(chunks, read_table_headers(ours.blocks_path))
        total.update(
            words=words.total(), reached=(words & reached).total(), lost=lost,
            cells=doc_cells.total(), cells_found=(doc_cells & our_cells).total(),
            slices=slices, headed=headed,
        )  # fmt: skip
        rows.append((
            pdf.stem, score.reference, score.found,
            share(score.matched, score.reference), share(score.matched, score.found),
            share(score.parents_right, score.matched),
            share((words & reached).total(), words.total(), 3), lost,
            share((doc_cells & our_cells).total(), doc_cells.total(), 3),
            share(inferred.matched, inferred.reference), share(inferred.matched, inferred.found),
        ))  # fmt: skip
    pooled_figures, per_file, styled = _outline_figures(scores)
    unstyled = [s for s in scores if not s.reference]
    # Against the .docx parse a user gets (smart outline auto): a second figure, not a target.
    inferred_pooled, inferred_per_file, outlined = _outline_figures(inferred_scores)
    columns = (
        "file", "truth", "ours", "recall", "precision", "parents", "words", "lost", "cells",
        "recall +inferred", "precision +inferred",
    )  # fmt: skip
    lines = [f"## Renders of the .docx corpus: {variant}", "", *table(columns, rows)]
    lines += [
        "",
        f"Pooled: {_listed(pooled_figures)}; per file ({len(styled)} files whose .docx styles"
        f" headings; {len(unstyled)} that style none, where we find"
        f" {sum(s.found for s in unstyled)} headings, left out): {_listed(per_file)}."
        " Against the .docx's styled + inferred outline (not a target): pooled"
        f" {_listed(inferred_pooled)}; per file ({len(outlined)} files with headings):"
        f" {_listed(inferred_per_file)}."
        " Words of the .docx"
        f" in our chunks {total['reached'] / max(total['words'], 1):.4f}; words lost blocks ->"
        f" chunks {total['lost']}; table cells inside tags"
        f" {total['cells_found'] / max(total['cells'], 1):.3f} ({total['cells']} cells);"
        f" slices of cut tables with their header {total['headed']}/{total['slices']}.",
    ]
    worst = {key: min(pooled_figures[key], per_file[key]) for key in per_file}
    lines += [
        verdict(worst[key] >= floor, f"{variant} {key} {worst[key]:.3f} (>= {floor})")
        for key, floor in OUTLINE_TARGETS[variant].items()
    ]
    checks = (
        (total["reached"] >= 0.99 * total["words"], "99% of the .docx's words in the chunks"),
        (not total["lost"], "no word lost between blocks and chunks"),
        (total["cells_found"] >= 0.95 * total["cells"], "95% of the .docx's cells in table tags"),
        (total["headed"] == total["slices"], "every slice of a cut table with its header"),
    )
    return lines + [verdict(met, text) for met, text in checks]


def _outline_figures(scores: list) -> tuple[dict[str, float], dict[str, float], list]:
    """Recall, precision and parent accuracy pooled, and averaged per file over the files
    whose truth has headings (those files too). A file without any would score recall 1 and
    precision 0 whatever we find: the pooled figures count what we find there false."""
    whole, outlined = pooled(scores), [s for s in scores if s.reference]
    per_file = {
        "recall": mean([s.recall for s in outlined]),
        "precision": mean([s.precision for s in outlined]),
        "parents": mean([s.parent_accuracy for s in outlined if s.matched]),
    }
    figures = (whole.recall, whole.precision, whole.parent_accuracy)
    return dict(zip(per_file, figures, strict=True)), per_file, outlined


def _printable(text: str) -> str:
    """A .docx's text as its PDF prints it: no picture's tag, no equation's LaTeX (printed as
    glyphs), no invisible format character."""
    return _unformatted(_NOT_PRINTED.sub(" ", text))


def _unformatted(text: str) -> str:
    """``text`` without the format characters a PDF prints no glyph for (the zero-width
    non-joiner inside Persian words, soft hyphens, direction marks): they part no word."""
    return text.translate(_FORMAT)


def _listed(figures: dict[str, float]) -> str:
    return ", ".join(f"{name} {value:.3f}" for name, value in figures.items())
