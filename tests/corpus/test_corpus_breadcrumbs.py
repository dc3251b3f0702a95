"""The breadcrumb contract on the real corpus (``chunk/breadcrumbs.py``): every chunk of every
Word and Markdown file keeps it against the file's own outline, at N = 500, 1200 and 2000;
and on the Word files whose authors styled their headings, the chunks of the default parse
(the smart outline fills long unstyled stretches) keep it against the styles alone: real
paths >= 99%, first paragraph in its section >= 95%, no [part n] gap."""

from __future__ import annotations

import pytest

from lightrag_pchunk.blockfile.sidecars import read_table_items
from lightrag_pchunk.chunk.breadcrumbs import FIRST, PART, PATH, check_breadcrumbs
from lightrag_pchunk.chunk.context import PACK, Context
from lightrag_pchunk.chunk.pipeline import chunk_rows
from lightrag_pchunk.parse.document import parse_docx

from helpers import corpus_files

WORD, MARKDOWN = corpus_files("docx"), corpus_files("md")
pytestmark = pytest.mark.skipif(
    not WORD, reason="../shared/corpus is absent: the real-world corpus tests are skipped"
)
SIZES = (500, 1200, 2000)


@pytest.fixture(scope="module")
def parsed(corpus_parses, tmp_path_factory):
    """name -> (rows, table items, styled rows or None): the session's parse, and for a Word
    file with styled headings its parse without the smart outline."""
    work = tmp_path_factory.mktemp("styled")
    out = {}
    for path in WORD + MARKDOWN:
        doc = corpus_parses[path.name].parsed
        if doc is None:
            continue
        styled = None
        if path.suffix != ".md" and doc.outline is not None and doc.outline.styled_headings >= 2:
            styled = parse_docx(path, work, smart_heading=False)
        rows = [r for r in doc.rows if r.content.strip()]
        styled_rows = [r for r in styled.rows if r.content.strip()] if styled else None
        out[path.name] = (rows, read_table_items(doc.blocks_path), styled_rows)
    return out


@pytest.mark.parametrize("size", SIZES)
def test_every_chunk_keeps_the_contract_and_styled_files_keep_their_styles(parsed, size, cl100k):
    broken, styled_chunks, styled_broken = [], 0, {PATH: 0, FIRST: 0, PART: 0}
    for name, (rows, (headers, keyed), styled_rows) in parsed.items():
        ctx = Context.create(cl100k, size, 100, table_headers=headers, keyed_rows=keyed, fill=PACK)
        chunks = chunk_rows(rows, ctx)
        broken += [f"{name}: {v.describe()}" for v in check_breadcrumbs(rows, chunks)]
        if styled_rows is not None:
            styled_chunks += len(chunks)
            for violation in check_breadcrumbs(styled_rows, chunks):
                if violation.rule in styled_broken:
                    styled_broken[violation.rule] += 1
    assert broken == []
    assert styled_chunks > 500
    assert styled_broken[PATH] <= 0.01 * styled_chunks, styled_broken
    assert styled_broken[FIRST] <= 0.05 * styled_chunks, styled_broken
    assert styled_broken[PART] == 0
