"""The per-document half of an evaluation, run in worker processes: read a document with
the parsers the contenders need, ask its questions, chunk it with every contender
(:func:`work_on`); :func:`read_all` runs it over every document in a process pool whose
results do not depend on the number of workers."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from lightrag_pchunk.encodings import TiktokenAdapter, load_tiktoken
from lightrag_pchunk.eval.contenders import (
    LIGHTRAG_P,
    ChunkSettings,
    DocumentChunks,
    chunk_document,
)
from lightrag_pchunk.eval.documents import read_document
from lightrag_pchunk.eval.questions import Question, auto_questions, content_fingerprint, normalize
from lightrag_pchunk.integration.decision import NO_TEXT, has_text
from lightrag_pchunk.tokens import TokenCounter
from lightrag_pchunk.wording import counted

#: Progress messages (one line each) for long runs.
Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Job:
    """One document to read, question and chunk, and how."""

    path: Path
    name: str
    work_dir: Path
    contenders: tuple[str, ...]
    settings: ChunkSettings
    seed: int
    per_kind: int
    auto: bool


@dataclass(frozen=True, slots=True)
class DocumentWork:
    """What a worker made of one document: its text, its questions, every contender's chunks."""

    name: str
    parser: str | None
    note: str | None
    text: str
    fingerprint: str | None
    questions: tuple[Question, ...]
    no_questions: str | None
    chunks: dict[str, DocumentChunks]


@cache
def tokenizer_named(encoding: str) -> TiktokenAdapter:
    """The encoding, loaded once per process."""
    return load_tiktoken(encoding)


def work_on(job: Job) -> DocumentWork:
    """Read, question and chunk one document (runs in a worker process)."""
    tokenizer = tokenizer_named(job.settings.encoding)
    doc = read_document(
        job.path, job.name, job.work_dir, with_lightrag=LIGHTRAG_P in job.contenders
    )
    chunks = {c: chunk_document(c, doc, tokenizer, job.settings) for c in job.contenders}
    parsed = doc.shared
    if parsed is None:
        no_questions: str | None = f"no text to ask about: {doc.shared_error}"
        questions: list[Question] = []
    elif not has_text(parsed.content):
        questions, no_questions = [], NO_TEXT
    elif not job.auto:
        questions, no_questions = [], None
    else:
        counter = TokenCounter(tokenizer)
        questions, no_questions = auto_questions(
            job.name, parsed, counter, job.settings.size, seed=job.seed, per_kind=job.per_kind
        )
        cut = [f"{c} ({len(v.contents)} chunks)" for c, v in chunks.items() if len(v.contents) > 1]
        if not questions and cut and counter.count(parsed.content) <= job.settings.size:
            no_questions = f"{no_questions}; still cut by {', '.join(cut)}, whose cost counts"
    note = doc.ours_note
    if doc.lightrag is None and doc.lightrag_error not in (None, "not asked for"):
        lightrag_note = f"lightrag-P: {doc.lightrag_error}"
        note = f"{note}; {lightrag_note}" if note else lightrag_note
    return DocumentWork(
        name=job.name,
        parser=None if parsed is None else parsed.parser,
        note=note,
        text=normalize(parsed.content) if parsed is not None else "",
        fingerprint=content_fingerprint(parsed) if parsed is not None else None,
        questions=tuple(questions),
        no_questions=no_questions,
        chunks=chunks,
    )


def _executor(workers: int) -> Executor | None:
    if workers <= 1:
        return None
    # fork: a user's script without a __main__ guard must not be re-run by the workers.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method))


def read_all(jobs: Sequence[Job], workers: int, progress: Progress) -> list[DocumentWork]:
    """:func:`work_on` every job, in ``workers`` processes, in the jobs' order."""
    executor = _executor(min(workers, len(jobs)))
    results: list[DocumentWork] = []
    try:
        stream = map(work_on, jobs) if executor is None else executor.map(work_on, jobs)
        for done, work in enumerate(stream, 1):
            results.append(work)
            counts = ", ".join(
                f"{c} {'-' if v.error else len(v.contents)}" for c, v in work.chunks.items()
            )
            asked = len(work.questions)
            asked_text = counted(asked, "question")
            progress(f"[{done}/{len(jobs)}] {work.name}: {asked_text}; chunks {counts}")
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    return results


def drop_repeats(works: list[DocumentWork]) -> list[DocumentWork]:
    """A document whose text repeats an earlier one keeps its chunks but asks nothing."""
    seen: dict[str, str] = {}
    kept: list[DocumentWork] = []
    for work in works:
        first = seen.setdefault(work.fingerprint, work.name) if work.fingerprint else work.name
        if first != work.name and work.questions:
            work = replace(work, questions=(), no_questions=f"repeats {first}")
        kept.append(work)
    return kept
