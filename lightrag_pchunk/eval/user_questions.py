"""The user's own questions: a ``--questions FILE.jsonl`` of (question, evidence) pairs,
read (:func:`load_questions`) and attached to the documents that hold their evidence
(:func:`place_user_questions`), instead of the automatic questions of ``questions.py``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lightrag_pchunk.eval.questions import USER, Question, normalize


@dataclass(frozen=True, slots=True)
class UserQuestion:
    """One line of a ``--questions`` file, before it is matched to a document."""

    line: int
    text: str
    evidence: tuple[str, ...]
    document: str | None
    kind: str


def load_questions(path: str | Path) -> list[UserQuestion]:
    """Read a JSONL file of ``{"question": ..., "evidence": "..." | [...]}`` lines.

    Optional keys: ``document`` (a file name of the corpus; without it the first document
    whose text holds the evidence) and ``kind`` (a label the report groups by; ``user``).

    Raises:
        ValueError: a line that is not such an object, named by its line number.
    """
    source = Path(path)
    questions: list[UserQuestion] = []
    with source.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            where = f"{source}:{number}"
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{where}: not JSON ({exc.msg})") from None
            if not isinstance(obj, dict):
                raise ValueError(f"{where}: expected an object with question and evidence")
            text, evidence = obj.get("question"), obj.get("evidence")
            texts = [evidence] if isinstance(evidence, str) else evidence
            if not isinstance(text, str) or not text.strip():
                raise ValueError(f"{where}: 'question' must be a non-empty string")
            if (
                not isinstance(texts, list)
                or not texts
                or not all(isinstance(t, str) and t.strip() for t in texts)
            ):
                raise ValueError(f"{where}: 'evidence' must be a string or a list of strings")
            document = obj.get("document")
            kind = obj.get("kind") or USER
            if document is not None and not isinstance(document, str):
                raise ValueError(f"{where}: 'document' must be a file name")
            questions.append(
                UserQuestion(number, text, tuple(normalize(t) for t in texts), document, str(kind))
            )
    return questions


def place_user_questions(
    questions: Sequence[UserQuestion], texts: dict[str, str]
) -> tuple[list[Question], list[str]]:
    """Attach each user question to its document (``texts``: name -> normalised text).

    Returns the questions and one message per question left out (unknown document, or
    evidence that no document holds).
    """
    placed: list[Question] = []
    dropped: list[str] = []
    for q in questions:
        if q.document is not None:
            names = [n for n in texts if n == q.document or Path(n).name == q.document]
            if not names:
                dropped.append(f"line {q.line}: no document named {q.document!r}")
                continue
        else:
            names = [n for n in texts if all(e in texts[n] for e in q.evidence)]
            if not names:
                dropped.append(f"line {q.line}: no document holds its evidence")
                continue
        placed.append(Question(f"q{q.line}", names[0], q.kind, q.text, q.evidence))
    return placed, dropped
