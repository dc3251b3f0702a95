"""The breadcrumb contract on the real corpus (``chunk/breadcrumbs.py``): every chunk of every
Word and Markdown file keeps it against the file's own outline, at N = 500, 1200 and 2000;
and on the Word files whose authors styled their headings, the chunks of the default parse
(the smart outline fills long unstyled stretches) keep it against the styles alone: real
paths >= 99%, first paragraph in its section >= 95%, no [part n] gap."""

from __future__ import annotations

from collections import Counter

import pytest
from breadcrumb_check import check, prepare

from lightrag_pchunk.chunk.breadcrumbs import FIRST, PART, PATH

from helpers import corpus_files

WORD, MARKDOWN = corpus_files("docx"), corpus_files("md")
pytestmark = pytest.mark.skipif(
    not WORD, reason="../shared/corpus is absent: the real-world corpus tests are skipped"
)
SIZES = (500, 1200, 2000)


@pytest.fixture(scope="module")
def files(corpus_parses, tmp_path_factory):
    """Every file the session parsed, ready for the check (``tests/breadcrumb_check.py``)."""
    work = tmp_path_factory.mktemp("styled")
    parses = [corpus_parses[path.name] for path in WORD + MARKDOWN]
    return [prepare(p.source, p.parsed, work) for p in parses if p.parsed is not None]


@pytest.mark.parametrize("size", SIZES)
def test_every_chunk_keeps_the_contract_and_styled_files_keep_their_styles(files, size, cl100k):
    verdicts = {file.name: check(file, cl100k, size) for file in files}
    broken = [f"{name}: {v.describe()}" for name, c in verdicts.items() for v in c.violations]
    styled = [verdict for verdict in verdicts.values() if verdict.styled is not None]
    styled_chunks = sum(verdict.chunks for verdict in styled)
    styled_broken = sum((verdict.styled_broken() for verdict in styled), Counter())
    assert broken == []
    assert styled_chunks > 500
    assert styled_broken[PATH] <= 0.01 * styled_chunks, styled_broken
    assert styled_broken[FIRST] <= 0.05 * styled_chunks, styled_broken
    assert styled_broken[PART] == 0
