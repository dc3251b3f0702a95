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
from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.markdown.document import parse_markdown
from lightrag_pchunk.parse.document import parse_docx

from helpers import shared_dir

SHARED = shared_dir()
CORPUS = SHARED / "corpus" if SHARED else None
WORD = (
    sorted(p for p in (CORPUS / "docx").iterdir() if p.suffix.lower().startswith(".do"))
    if CORPUS
    else []
)
MARKDOWN = (
    sorted(p for p in (CORPUS / "md").glob("*.md") if p.name != "README.md") if CORPUS else []
)
pytestmark = pytest.mark.skipif(
    not WORD, reason="../shared/corpus is absent: the real-world corpus tests are skipped"
)
SIZES = (500, 1200, 2000)


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    """name -> (rows, table items, styled rows or None)."""
    work = tmp_path_factory.mktemp("crumbs")
    out = {}
    for path in WORD + MARKDOWN:
        try:
            if path.suffix == ".md":
                doc, styled = parse_markdown(path, work / "md"), None
            else:
                doc = parse_docx(path, work / "docx")
                styled = None
                if doc.outline is not None and doc.outline.styled_headings >= 2:
                    styled = parse_docx(path, work / "styled", smart_heading=False)
        except DocumentParseError:
            continue
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
