"""Documents cheap to make and costly to chunk stay within the per-document budget (60
CPU-s, 2 GiB; ``tests/hostile.py`` runs them under those limits): over the work budget
(``work_budget.py``: blocks and lines) our parsers refuse them with ``output-budget`` and
the numbers, P falls back to R on another parser's blocks file, and a document within the
budget is chunked."""

from __future__ import annotations

import pytest

from lightrag_pchunk.cli.main import main
from lightrag_pchunk.work_budget import DEFAULT_MAX_BLOCKS, DEFAULT_MAX_LINES, WorkBudget

from hostile import (
    blocks_file,
    chunk_within_budget,
    markdown_headings,
    markdown_paragraphs,
    word_paragraphs,
)


def test_a_million_one_word_paragraphs_in_a_docx_are_refused_within_the_budget(tmp_path):
    """2.4 MB: 70 CPU-s and 1.9 GB to parse and chunk before the budget; refused after the
    250,000th line since (7.7 CPU-s, 1.1 GB: lxml's tree of the body)."""
    document = word_paragraphs(tmp_path / "paragraphs.docx", 1_000_000)
    run = chunk_within_budget(document, "--size", "1200")
    assert not run.killed and run.returncode == 1, run.stderr[-2000:]
    assert f"has more than {DEFAULT_MAX_LINES:,} lines, the most one" in run.stderr
    assert "[output-budget]" in run.stderr and "LIGHTRAG_PCHUNK_MAX_LINES" in run.stderr


@pytest.mark.parametrize(
    ("make", "count", "says"),
    [
        (markdown_headings, 500_000, f"500,000 blocks (a heading opens each), over the"
                                     f" {DEFAULT_MAX_BLOCKS:,} one document may have"),
        (markdown_paragraphs, 1_000_000, f"1,000,000 lines, over the"
                                         f" {DEFAULT_MAX_LINES:,} one document may have"),
    ],
    ids=["500k-headings", "1M-paragraphs"],
)  # fmt: skip
def test_markdown_of_too_many_headings_or_paragraphs_is_refused_with_the_numbers(
    tmp_path, make, count, says
):
    """500,000 headings in 4.9 MB: 119 CPU-s (stage D) and 1.56 GB before the budget; a
    million paragraphs 34 CPU-s. Both refused once walked since (3.3 CPU-s)."""
    run = chunk_within_budget(make(tmp_path / "doc.md", count), "--size", "1200")
    assert not run.killed and run.returncode == 1, run.stderr[-2000:]
    assert says in run.stderr and "[output-budget]" in run.stderr


@pytest.mark.parametrize("kind", ["headings", "paragraphs"])
def test_a_document_at_the_budget_is_chunked_and_one_past_it_refused(
    tmp_path, monkeypatch, capsys, kind
):
    make, variable = {
        "headings": (markdown_headings, "LIGHTRAG_PCHUNK_MAX_BLOCKS"),
        "paragraphs": (markdown_paragraphs, "LIGHTRAG_PCHUNK_MAX_LINES"),
    }[kind]
    monkeypatch.setenv(variable, "2000")
    assert main(["chunk", str(make(tmp_path / "at.md", 2000)), "--size", "300"]) == 0
    capsys.readouterr()
    assert main(["chunk", str(make(tmp_path / "past.md", 2001)), "--size", "300"]) == 1
    err = capsys.readouterr().err
    assert "[output-budget]" in err and f"(raise {variable} if it is genuine)" in err


def test_another_parsers_blocks_file_past_the_budget_gets_r(tmp_path, monkeypatch, capsys):
    path = blocks_file(tmp_path / "other.blocks.jsonl", [f"# H{i}\nText {i}." for i in range(30)])
    monkeypatch.setenv("LIGHTRAG_PCHUNK_MAX_BLOCKS", "20")
    assert main(["chunk", str(path), "--size", "300"]) == 0
    shown = capsys.readouterr()
    assert "fallback to recursive_character: over P's work budget: the document has 30" in (
        shown.out + shown.err
    )


def test_a_bad_budget_value_is_refused_naming_the_variable():
    with pytest.raises(ValueError, match="LIGHTRAG_PCHUNK_MAX_LINES \\(env\\) must be >= 1"):
        WorkBudget.from_env({"LIGHTRAG_PCHUNK_MAX_LINES": "0"})
    assert WorkBudget.from_env({"LIGHTRAG_PCHUNK_MAX_BLOCKS": " "}) == WorkBudget()
