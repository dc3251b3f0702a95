"""The terminal report of an evaluation: a few plain-text tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lightrag_pchunk.eval.contenders import OURS
from lightrag_pchunk.eval.metrics import MRR_DEPTH, Scores
from lightrag_pchunk.eval.result import EvalResult
from lightrag_pchunk.wording import counted


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    """Columns padded to their widest cell; the first ``left`` columns left-aligned."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            str(c).ljust(w) if i < left else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(header), *(line(r) for r in rows)]


def label(contender: str) -> str:
    """``P (ours)`` for ours, the name otherwise."""
    return f"{contender} (ours)" if contender == OURS else contender


def headline_k(result: EvalResult) -> int:
    """The k the per-kind and per-document tables show: 5 when measured, else the largest."""
    return 5 if 5 in result.ks else result.ks[-1]


def describe_run(result: EvalResult) -> str:
    """One line: documents, questions by kind, the settings that matter."""
    s = result.settings
    kinds = Counter(q.kind for q in result.questions)
    by_kind = ", ".join(f"{k} {n}" for k, n in kinds.items())
    asked = sum(1 for d in result.documents if d.questions)
    return (
        f"{counted(len(result.documents), 'document')} ({asked} with questions), "
        f"{counted(len(result.questions), 'question')} ({by_kind or 'none'}); "
        f"N={s['size']}, overlap {s['overlap']}, {s['encoding']}, {s['retriever']}, "
        f"budget {s['budget']} tokens (top {s['top_k']}), seed {s['seed']}"
    )


def summary_rows(result: EvalResult) -> tuple[list[str], list[list[str]]]:
    """The summary table: header and one row per contender."""
    header = [
        "contender",
        *(f"R@{k}" for k in result.ks),
        f"MRR@{MRR_DEPTH}",
        "budget",
        "findable",
        "chunks",
        "tokens",
        "fill",
    ]
    rows = []
    for c in result.contenders:
        values, spend = result.summary[c].values, result.costs[c]
        fill = "-" if spend.median_fill is None else f"{spend.median_fill:.2f}"
        rows.append(
            [
                label(c),
                *(_rate(values[f"recall@{k}"]) for k in result.ks),
                _rate(values[f"mrr@{MRR_DEPTH}"]),
                _rate(values["budget"]),
                _rate(values["findable"]),
                str(spend.chunks),
                str(spend.tokens),
                fill,
            ]
        )
    return header, rows


def pair(scores: Scores, k: int) -> str:
    """``R@k/budget`` of one set of scores (``-`` without questions)."""
    if not scores.questions:
        return "-"
    return f"{_rate(scores.values[f'recall@{k}'])}/{_rate(scores.values['budget'])}"


def kind_rows(result: EvalResult, k: int) -> tuple[list[str], list[list[str]]]:
    """The table by question kind: header and one row per kind, ``R@k/budget`` per
    contender."""
    rows = [
        [kind, str(next(iter(per.values())).questions), *(pair(per[c], k) for c in per)]
        for kind, per in result.by_kind.items()
    ]
    return ["kind", "questions", *map(label, result.contenders)], rows


def document_rows(result: EvalResult, k: int) -> tuple[list[str], list[list[str]]]:
    """The table per document: header and one row per document, ``R@k/budget; chunks`` per
    contender."""
    rows = [
        [
            d.name,
            str(d.questions),
            *(
                f"{pair(d.scores[c], k)}; {d.costs[c].chunks if c not in d.errors else '-'}"
                for c in result.contenders
            ),
        ]
        for d in result.documents
    ]
    return ["document", "questions", *map(label, result.contenders)], rows


def format_report(result: EvalResult, *, per_document: bool = True) -> str:
    """The whole report as text."""
    k = headline_k(result)
    lines = [f"lightrag-pchunk eval: {describe_run(result)}"]
    lines += [f"{c}: not compared: {why}" for c, why in result.skipped.items()]
    lines += ["", *_table(*summary_rows(result))]
    lines += [
        "",
        "R@k: the answering chunk is among the k first; budget: found in what fits the budget "
        "(spread over adjacent chunks counts); findable: some chunk holds it at all; "
        "chunks = LLM extraction calls; fill: median chunk tokens / N.",
    ]
    if result.by_kind:
        lines += ["", f"By question kind (R@{k} / budget):", *_table(*kind_rows(result, k))]
    if result.differences:
        shown = [f"recall@{k}", f"mrr@{MRR_DEPTH}", "budget"]
        lines += [
            "",
            "Difference from ours (contender - P), 95% bootstrap interval over documents:",
        ]
        rows = []
        for c, per in result.differences.items():
            cells = [f"{per[m].value:+.3f} [{per[m].low:+.3f}, {per[m].high:+.3f}]" for m in shown]
            rows.append([c, *cells])
        lines += _table(["contender", *shown], rows)
    lines += document_notes(result)
    if per_document and result.documents:
        lines += ["", f"Per document (R@{k} / budget; chunks):"]
        lines += _table(*document_rows(result, k))
    return "\n".join(lines) + "\n"


def document_notes(result: EvalResult) -> list[str]:
    """Documents without questions, read another way, or that a contender could not chunk."""
    lines: list[str] = []
    silent = [d for d in result.documents if d.no_questions]
    if silent:
        lines += ["", f"Documents without questions ({len(silent)}):"]
        lines += [f"  {d.name}: {d.no_questions}" for d in silent]
    noted = [d for d in result.documents if d.note]
    if noted:
        lines += ["", "How documents were read:"]
        lines += [f"  {d.name}: {d.note}" for d in noted]
    failures = [(c, d) for d in result.documents for c in d.errors]
    if failures:
        lines += ["", "Documents a contender could not chunk (their questions count as not found):"]
        lines += [f"  {c}: {d.name}: {d.errors[c]}" for c, d in failures]
    if result.dropped_questions:
        lines += ["", f"Questions left out ({len(result.dropped_questions)}):"]
        lines += [f"  {why}" for why in result.dropped_questions]
    return lines
