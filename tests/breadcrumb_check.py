"""The breadcrumb contract (``chunk/breadcrumbs.py``) on a parsed corpus file, as
``tests/corpus/test_corpus_breadcrumbs.py`` asserts it and ``benchmarks/bench_outline.py``
reports it: the file's chunks at one N (overlap 100, the default fill, with the table headers
and keyed rows of its ``.tables.json``) against its own rows; and, for a Word file whose author
styled its headings, against its parse by the styles alone (no heading inferred), where the
smart outline's headings may break the styled paths."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from lightrag_pchunk.blockfile.sidecars import read_table_items
from lightrag_pchunk.chunk.breadcrumbs import Violation, check_breadcrumbs
from lightrag_pchunk.chunk.context import PACK, Context
from lightrag_pchunk.chunk.pipeline import chunk_rows
from lightrag_pchunk.model import BlockRow
from lightrag_pchunk.parse.artefacts import ParsedDocument
from lightrag_pchunk.parse.document import parse_docx
from lightrag_pchunk.tokens import TokenCounter

OVERLAP = 100
#: A Word file with at least this many styled headings is also checked against its styles.
MIN_STYLED_HEADINGS = 2


@dataclass(frozen=True)
class CheckedFile:
    """A parsed file's rows with text, its table items (headers, keyed rows) and, for a Word
    file with styled headings, the rows with text of its parse by the styles alone."""

    name: str
    rows: list[BlockRow]
    table_items: tuple
    styled_rows: list[BlockRow] | None


@dataclass(frozen=True)
class Verdict:
    """A file's chunks at one N against the contract."""

    chunks: int
    violations: list[Violation]  # against the file's own rows
    styled: list[Violation] | None  # against its styles alone; None without styled headings

    def styled_broken(self) -> Counter[str]:
        """How many chunks break each rule against the styles alone."""
        return Counter(rule for rule, _ in {(v.rule, v.order) for v in self.styled or []})


def prepare(source: Path, parsed: ParsedDocument, styled_out: Path) -> CheckedFile:
    """``source``'s parse ready for :func:`check`; a Word file with styled headings is parsed
    again into ``styled_out``, by its styles alone."""
    styled = None
    outline = parsed.outline
    if source.suffix != ".md" and outline and outline.styled_headings >= MIN_STYLED_HEADINGS:
        styled = _with_text(parse_docx(source, styled_out, smart_heading=False).rows)
    table_items = read_table_items(parsed.blocks_path)
    return CheckedFile(source.name, _with_text(parsed.rows), table_items, styled)


def check(file: CheckedFile, counter: TokenCounter, size: int) -> Verdict:
    headers, keyed = file.table_items
    ctx = Context.create(counter, size, OVERLAP, table_headers=headers, keyed_rows=keyed, fill=PACK)
    chunks = chunk_rows(file.rows, ctx)
    styled = None if file.styled_rows is None else check_breadcrumbs(file.styled_rows, chunks)
    return Verdict(len(chunks), check_breadcrumbs(file.rows, chunks), styled)


def _with_text(rows) -> list[BlockRow]:
    return [row for row in rows if row.content.strip()]
