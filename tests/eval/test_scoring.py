"""Known answers for which retrieved chunks answer a question (``eval/scoring.py``)."""

from __future__ import annotations

import pytest

from lightrag_pchunk.eval.questions import normalize
from lightrag_pchunk.eval.scoring import (
    CorpusChunks,
    default_budget,
    default_top_k,
    found_in,
    score_question,
    within_budget,
)

SENTENCE = "The coolant pump shall be inspected every six months by the operator."


def corpus(*docs: list[tuple[str, int]]) -> CorpusChunks:
    texts, tokens, documents, orders = [], [], [], []
    for d, chunks in enumerate(docs):
        for order, (text, count) in enumerate(chunks):
            texts.append(normalize(text))
            tokens.append(count)
            documents.append(d)
            orders.append(order)
    return CorpusChunks(tuple(texts), tuple(tokens), tuple(documents), tuple(orders))


def test_evidence_in_one_chunk_is_found_at_its_rank() -> None:
    chunks = corpus([("Intro text.", 10), (f"Before. {SENTENCE} After.", 10), ("Other.", 10)])
    outcome = score_question([1, 0], chunks, (SENTENCE,), 0, budget=100, top_k=20)
    assert (outcome.rank, outcome.in_budget, outcome.findable) == (1, True, True)
    second = score_question([0, 1], chunks, (SENTENCE,), 0, budget=100, top_k=20)
    assert second.rank == 2


def test_whitespace_is_normalised_before_comparing() -> None:
    chunks = corpus([(SENTENCE.replace(" ", "\n  "), 10)])
    assert score_question([0], chunks, (SENTENCE,), 0, budget=100, top_k=20).rank == 1


def test_evidence_cut_across_two_chunks_counts_only_within_the_budget() -> None:
    cut = SENTENCE.index("every")
    chunks = corpus([("Start. " + SENTENCE[:cut], 60), (SENTENCE[cut:] + " End.", 60)])
    both = score_question([0, 1], chunks, (SENTENCE,), 0, budget=120, top_k=20)
    assert (both.rank, both.in_budget, both.findable) == (0, True, False)
    one_fits = score_question([0, 1], chunks, (SENTENCE,), 0, budget=119, top_k=20)
    assert not one_fits.in_budget
    only_first = score_question([0], chunks, (SENTENCE,), 0, budget=10_000, top_k=20)
    assert not only_first.in_budget
    top_one = score_question([0, 1], chunks, (SENTENCE,), 0, budget=10_000, top_k=1)
    assert not top_one.in_budget


def test_spread_evidence_needs_adjacent_chunks_of_one_document_in_reading_order() -> None:
    cut = SENTENCE.index("every")
    head, tail = "Start. " + SENTENCE[:cut], SENTENCE[cut:] + " End."
    apart = corpus([(head, 10), ("A chunk in between.", 10), (tail, 10)])
    assert not found_in([0, 2], apart, (SENTENCE,))
    other_document = corpus([(head, 10)], [(tail, 10)])
    assert not found_in([0, 1], other_document, (SENTENCE,))
    reversed_order = corpus([(tail, 10), (head, 10)])
    assert not found_in([0, 1], reversed_order, (SENTENCE,))


def test_overlapping_chunks_piece_the_evidence_together() -> None:
    cut, overlap_start = SENTENCE.index("every"), SENTENCE.index("inspected")
    chunks = corpus([(SENTENCE[:cut], 10), (SENTENCE[overlap_start:], 10)])
    assert found_in([1, 0], chunks, (SENTENCE,))


def test_a_table_fact_needs_header_key_and_value_in_one_chunk() -> None:
    header = '["Pump", "Flow rate", "Owner"]'
    fact = ("Flow rate", "P-101", "35 m3/h")
    sliced = corpus(
        [
            (f'<table>[{header}, ["P-100", "20 m3/h", "Ops"]]</table>', 30),
            (f'<table>[{header}, ["P-101", "35 m3/h", "Ops"]]</table>', 30),
        ]
    )
    assert score_question([1], sliced, fact, 0, budget=100, top_k=20).rank == 1
    no_header = corpus(
        [(f"<table>[{header}, ", 30), ('["P-100", "20 m3/h"], ["P-101", "35 m3/h"]]</table>', 30)]
    )
    outcome = score_question([1], no_header, fact, 0, budget=100, top_k=20)
    assert (outcome.rank, outcome.in_budget, outcome.findable) == (0, False, False)
    assert score_question([1, 0], no_header, fact, 0, budget=100, top_k=20).in_budget


def test_within_budget_keeps_whole_chunks_in_rank_order() -> None:
    chunks = corpus([("a", 50), ("b", 40), ("c", 5)])
    assert within_budget([0, 1, 2], chunks, 95, 20) == [0, 1, 2]
    assert within_budget([0, 1, 2], chunks, 94, 20) == [0, 1]
    assert within_budget([1, 0, 2], chunks, 60, 20) == [1]


def test_lightrag_defaults_give_the_budget_and_top_k() -> None:
    assert default_budget({}) == 14000
    assert default_budget({"MAX_TOTAL_TOKENS": "40000"}) == 24000
    assert default_top_k({}) == 20
    assert default_top_k({"CHUNK_TOP_K": "5"}) == 5
    with pytest.raises(ValueError, match="MAX_TOTAL_TOKENS"):
        default_budget({"MAX_TOTAL_TOKENS": "lots"})
