"""``evaluate`` on documents built here, with answers known in advance."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from docx import Document

from lightrag_pchunk.eval import contenders
from lightrag_pchunk.eval.contenders import DOCLING, unavailable
from lightrag_pchunk.eval.questions import TABLE, normalize
from lightrag_pchunk.eval.run import evaluate

from sample_docs import TOPICS, topic_paragraph, write_manual


@pytest.fixture(scope="module")
def manual(tmp_path_factory) -> Path:
    return write_manual(tmp_path_factory.mktemp("docs") / "manual.docx")


def run(paths, **kwargs):
    options = {"size": 300, "overlap": 0, "chunkers": "P,R,F", "workers": 1, **kwargs}
    return evaluate(paths, **options)


def write_questions(path: Path, *items: dict) -> Path:
    path.write_text("\n".join(json.dumps(i) for i in items) + "\n", encoding="utf-8")
    return path


def test_evidence_in_exactly_one_chunk_is_found_at_rank_1(manual, tmp_path) -> None:
    texts = [normalize(p.text) for p in Document(manual).paragraphs]
    evidence = next(t for t in texts if sum(w.startswith("seal") for w in t.split()) >= 3)
    query = " ".join(w.rstrip(".") for w in evidence.split() if w.startswith("seal"))
    questions = write_questions(tmp_path / "q.jsonl", {"question": query, "evidence": evidence})
    result = run([manual], questions=questions)
    p_chunks = [normalize(c) for c in _chunks_of(result, manual, "P")]
    assert sum(evidence in c for c in p_chunks) == 1
    outcome = result.outcomes["P"][0]
    assert (outcome.rank, outcome.in_budget, outcome.findable) == (1, True, True)
    assert result.summary["P"].values["recall@1"] == 1.0


def _chunks_of(result, path: Path, contender: str) -> list[str]:
    from lightrag_pchunk.encodings import load_tiktoken
    from lightrag_pchunk.eval.contenders import ChunkSettings, chunk_document
    from lightrag_pchunk.eval.documents import read_document

    s = result.settings
    doc = read_document(path, path.name, path.parent / f"read-{contender}", with_lightrag=False)
    settings = ChunkSettings(s["size"], s["overlap"], s["encoding"])
    return list(chunk_document(contender, doc, load_tiktoken(s["encoding"]), settings).contents)


def test_evidence_cut_across_two_chunks_counts_only_within_the_budget(manual, tmp_path) -> None:
    probe = run([manual], chunkers="F")
    chunks = [normalize(c) for c in _chunks_of(probe, manual, "F")]
    sentences = [
        s
        for p in Document(manual).paragraphs
        for s in (normalize(x) + "." for x in p.text.split(".") if x.strip())
    ]
    cut = next(
        s for s in sentences if len(s) > 60 and not any(s in c for c in chunks) and "pump" in s
    )
    query = " ".join(w for w in cut.rstrip(".").split() if w[:4] in {t[:4] for t in TOPICS})
    questions = write_questions(tmp_path / "q.jsonl", {"question": query, "evidence": cut})
    wide = run([manual], chunkers="F", questions=questions, budget=100_000)
    f_outcome = wide.outcomes["F"][0]
    assert (f_outcome.rank, f_outcome.findable, f_outcome.in_budget) == (0, False, True)
    narrow = run([manual], chunkers="F", questions=questions, budget=300)
    assert not narrow.outcomes["F"][0].in_budget
    assert narrow.outcomes["P"][0].in_budget  # P keeps the sentence whole


def test_a_contender_that_loses_text_scores_lower(manual, monkeypatch) -> None:
    genuine = contenders._recursive

    def lossy(parsed, tokenizer, settings):
        return genuine(parsed, tokenizer, settings)[::2]  # every other chunk is lost

    monkeypatch.setattr(contenders, "_recursive", lossy)
    result = run([manual], seed=2)
    p, r = result.summary["P"].values, result.summary["R"].values
    assert p["findable"] == 1.0
    assert r["findable"] < 0.75
    assert r["recall@10"] < p["recall@10"] and r["budget"] < p["budget"]
    diff = result.differences["R"]["findable"]
    assert diff.value < 0 and diff.high <= 0


def test_auto_questions_cover_every_kind_and_the_report_says_why_some_documents_have_none(
    manual, tmp_path
) -> None:
    small = tmp_path / "small.docx"
    doc = Document()
    doc.add_paragraph("A short note that fits in one chunk.")
    doc.save(small)
    copy = tmp_path / "copy-of-manual.docx"
    copy.write_bytes(manual.read_bytes())
    result = run([manual, small, copy], seed=1)
    kinds = {q.kind for q in result.questions}
    assert kinds == {"sentence", "paragraph", "table"}
    assert all(q.document == "manual.docx" for q in result.questions)
    table = [q for q in result.questions if q.kind == TABLE]
    assert all(q.evidence[0] in ("Rated flow", "Owner") for q in table)
    by_name = {d.name: d for d in result.documents}
    assert "fits in N" in (by_name["small.docx"].no_questions or "")
    copied = by_name["copy-of-manual.docx"]
    assert copied.no_questions == "repeats manual.docx"
    assert copied.costs["P"].chunks == by_name["manual.docx"].costs["P"].chunks  # still indexed
    assert result.by_kind["table"]["P"].values["recall@10"] == 1.0


def test_the_same_seed_gives_the_same_result_with_any_number_of_workers(manual, tmp_path) -> None:
    other = write_manual(tmp_path / "other.docx", seed=9, paragraphs=4)
    one = run([manual, other], seed=4).to_dict()
    two = run([manual, other], seed=4, workers=2).to_dict()
    assert one == two
    assert run([manual, other], seed=5).to_dict()["questions"] != one["questions"]


def test_text_files_lightrag_p_failures_and_missing_docling_are_reported(tmp_path) -> None:
    text = tmp_path / "notes.txt"
    rng = random.Random(0)
    text.write_text("\n\n".join(topic_paragraph(rng, "cable", 80) for _ in range(12)), "utf-8")
    lines: list[str] = []
    result = run([text], chunkers="P,lightrag-P,docling", progress=lines.append)
    [document] = result.documents
    assert "plain text" in (document.note or "")
    assert "does not read .txt" in document.errors["lightrag-P"]
    assert result.summary["lightrag-P"].values["findable"] == 0.0
    if unavailable(DOCLING) is None:
        assert DOCLING in result.contenders
    else:
        assert "not installed here (pip install docling" in result.skipped[DOCLING]
    assert any(line.startswith("[1/1] notes.txt:") for line in lines)


def test_the_embedding_retriever_uses_the_given_embedding_function(manual) -> None:
    vocabulary = [f"{t}{k}" for t in TOPICS for k in range(12)]

    async def embed(texts: list[str]) -> np.ndarray:
        return np.array([[t.split().count(w) for w in vocabulary] for t in texts], dtype=float)

    result = run([manual], retriever="embedding", embedding_func=embed, seed=3)
    assert result.settings["retriever"] == "embedding"
    assert result.summary["P"].values["recall@10"] > 0.5


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"chunkers": "P,X"}, "unknown chunker X"),
        ({"retriever": "embedding"}, "embedding_func"),
        ({"retriever": "tfidf"}, "retriever must be one of"),
        ({"ks": (0, 3)}, "k must be >= 1"),
        # Named as the caller wrote them (a command says --size).
        ({"overlap": 300}, r"\(300, from the overlap argument\) must be < chunk_token_size"),
        ({"size": 50, "overlap": 60}, r"chunk_token_size \(50, from the size argument\)"),
        ({"budget": 0}, "budget and top_k"),
        ({"per_kind": 0}, "per_kind"),
    ],
)
def test_bad_settings_are_refused(manual, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        run([manual], **kwargs)


def test_a_missing_path_is_refused(tmp_path) -> None:
    with pytest.raises(ValueError, match="no such file or folder"):
        run([tmp_path / "absent.docx"])
