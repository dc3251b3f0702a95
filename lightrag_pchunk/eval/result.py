"""What :func:`~lightrag_pchunk.eval.run.evaluate` returns: the figures, per contender, per
question kind, per document, and every question with each contender's outcome."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lightrag_pchunk.eval.metrics import Cost, Difference, Scores
from lightrag_pchunk.eval.questions import Question
from lightrag_pchunk.eval.scoring import Outcome


@dataclass(frozen=True, slots=True)
class DocumentReport:
    """One document: how it was read, its questions, each contender's chunks and scores.

    ``no_questions`` says why it got none (too small, repeats another document, nothing
    to ask); ``errors`` names the contenders that could not chunk it, and why.
    """

    name: str
    parser: str | None
    note: str | None
    questions: int
    no_questions: str | None
    costs: dict[str, Cost]
    errors: dict[str, str]
    scores: dict[str, Scores]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able."""
        return {
            "name": self.name,
            "parser": self.parser,
            "note": self.note,
            "questions": self.questions,
            "no_questions": self.no_questions,
            "chunks": {c: v.chunks for c, v in self.costs.items()},
            "tokens": {c: v.tokens for c, v in self.costs.items()},
            "errors": dict(self.errors),
            "scores": {c: s.to_dict() for c, s in self.scores.items()},
        }


@dataclass(frozen=True, slots=True)
class EvalResult:
    """The whole evaluation. ``contenders`` ran (ours first); ``skipped`` could not run on
    this machine (docling not installed), with the reason."""

    settings: dict[str, Any]
    contenders: tuple[str, ...]
    skipped: dict[str, str]
    summary: dict[str, Scores]
    costs: dict[str, Cost]
    by_kind: dict[str, dict[str, Scores]]
    differences: dict[str, dict[str, Difference]]
    documents: tuple[DocumentReport, ...]
    questions: tuple[Question, ...]
    outcomes: dict[str, tuple[Outcome, ...]]
    chunk_tokens: dict[str, tuple[int, ...]]
    dropped_questions: tuple[str, ...] = ()
    metrics: tuple[str, ...] = field(default=())

    @property
    def ks(self) -> tuple[int, ...]:
        """The k of Recall@k."""
        return tuple(self.settings["k"])

    def to_dict(self) -> dict[str, Any]:
        """Everything, JSON-able (``--json``)."""
        return {
            "settings": dict(self.settings),
            "contenders": list(self.contenders),
            "skipped": dict(self.skipped),
            "metrics": list(self.metrics),
            "summary": {
                c: {**self.summary[c].to_dict(), **self.costs[c].to_dict()} for c in self.contenders
            },
            "by_kind": {
                kind: {c: s.to_dict() for c, s in per.items()} for kind, per in self.by_kind.items()
            },
            "differences_from_ours": {
                c: {m: d.to_dict() for m, d in per.items()} for c, per in self.differences.items()
            },
            "documents": [d.to_dict() for d in self.documents],
            "questions": [
                {
                    **q.to_dict(),
                    "outcomes": {
                        c: {
                            "rank": self.outcomes[c][i].rank,
                            "in_budget": self.outcomes[c][i].in_budget,
                            "findable": self.outcomes[c][i].findable,
                        }
                        for c in self.contenders
                    },
                }
                for i, q in enumerate(self.questions)
            ],
            "dropped_questions": list(self.dropped_questions),
            "chunk_tokens": {c: list(t) for c, t in self.chunk_tokens.items()},
        }
