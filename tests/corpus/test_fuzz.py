"""A seeded mutation fuzzer over ../shared/corpus/docx (tests/hostile_inputs.py): byte
flips, truncations and XML-level edits inside the zip. Every mutant is parsed (with a lowered
output budget) and chunked: no exception but DocxParseError, no hang, no output over the
budget, no chunk over the cap, no word lost between blocks and chunks: 200 mutants of the
smaller files."""

from __future__ import annotations

import logging
import signal
from pathlib import Path

import pytest
from hostile_inputs import corpus_sources, mutants

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.parse.document import parse_docx
from lightrag_pchunk.parse.limits import PackageLimits
from lightrag_pchunk.tokens import TokenCounter

from helpers import shared_dir
from invariants import assert_no_word_lost

SHARED = shared_dir()
CORPUS = SHARED / "corpus" / "docx" if SHARED else None
MUTANTS, SEED = 200, 19
SECONDS_PER_MUTANT = 30  # a hang, not a slow file: the slowest takes about 1 s
LIMITS = PackageLimits(max_text_chars=4_000_000)
CAP = 2000


class Hang(Exception):
    """A mutant took longer than SECONDS_PER_MUTANT."""


def _alarm(_signum, _frame):
    raise Hang


@pytest.mark.skipif(CORPUS is None or not CORPUS.is_dir(), reason="../shared/corpus is absent")
def test_mutants_are_refused_or_parsed_and_chunked_within_every_bound(
    tmp_path, cl100k_tokenizer
) -> None:
    sources = corpus_sources(CORPUS, max_bytes=300_000)
    counter = TokenCounter(cl100k_tokenizer)
    failures: list[str] = []
    outcomes = {"parsed": 0, "refused": 0}
    logging.getLogger("lightrag.pchunk").disabled = True
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for label, data in mutants(sources, MUTANTS, SEED):
            source = tmp_path / f"{label}.docx"
            source.write_bytes(data)
            signal.alarm(SECONDS_PER_MUTANT)
            try:
                outcomes[check(source, tmp_path / label, counter, cl100k_tokenizer)] += 1
            except Exception as exc:  # Hang included: what the test counts
                failures.append(f"{label}: {type(exc).__name__}: {str(exc)[:300]}")
            finally:
                signal.alarm(0)
            source.unlink()
    finally:
        signal.signal(signal.SIGALRM, previous)
        logging.getLogger("lightrag.pchunk").disabled = False
    assert not failures, "\n".join(failures)
    assert outcomes["parsed"] > MUTANTS // 4 and outcomes["refused"] > 0  # both paths ran


def check(source: Path, out: Path, counter: TokenCounter, tokenizer) -> str:
    """Parse and chunk one mutant; "refused" or "parsed", or an AssertionError saying why not."""
    try:
        parsed = parse_docx(source, out, limits=LIMITS)
    except DocxParseError:
        return "refused"
    assert len(parsed.content) <= LIMITS.max_text_chars
    rows = chunking_by_paragraph_semantic(
        tokenizer, parsed.content, CAP, blocks_path=parsed.blocks_path
    )
    over = [counter.count(row["content"]) for row in rows]
    assert max(over, default=0) <= CAP, f"a chunk of {max(over)} tokens"
    assert_no_word_lost([row.content for row in parsed.rows], [row["content"] for row in rows])
    return "parsed"
