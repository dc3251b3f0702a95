"""`lightrag-pchunk eval`: the command, its outputs and its exit codes."""

from __future__ import annotations

import json

import pytest
from docx import Document

from lightrag_pchunk.cli.main import main

from sample_docs import write_manual


@pytest.fixture(autouse=True)
def _isolated(restored_logging, fresh_lightrag, monkeypatch):
    monkeypatch.delenv("MAX_TOTAL_TOKENS", raising=False)
    yield


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    write_manual(root / "manual.docx")
    (root / "sub").mkdir()
    write_manual(root / "sub" / "second.docx", seed=3, paragraphs=4)
    (root / "readme.md").write_text(
        "# Notes\n\n" + "\n\n".join(f"Paragraph {i} about cable trays." for i in range(5)),
        encoding="utf-8",
    )
    return root


def test_eval_prints_the_report_and_writes_json_and_html(folder, tmp_path, capsys) -> None:
    out_json, out_html = tmp_path / "out.json", tmp_path / "report.html"
    code = main(
        [
            "eval",
            str(folder),
            "--size",
            "300",
            "--overlap",
            "0",
            "--chunkers",
            "P,R,F,lightrag-P",
            "--k",
            "1,5",
            "--workers",
            "1",
            "--json",
            str(out_json),
            "--html",
            str(out_html),
        ]
    )
    captured = capsys.readouterr()
    assert code == 0
    lines = captured.out.splitlines()
    assert lines[0].startswith("lightrag-pchunk eval: 3 documents (2 with questions)")
    assert "N=300, overlap 0" in lines[0]
    header = lines[2].split()
    assert header[:4] == ["contender", "R@1", "R@5", "MRR@10"]
    assert [line.split()[0] for line in lines[3:7]] == ["P", "R", "F", "lightrag-P"]
    assert "Difference from ours (contender - P)" in captured.out
    assert "readme.md: fits in N" in captured.out
    assert "parser yet" not in captured.out  # Markdown is read by our own parser too
    assert "[3/3]" in captured.err and "HTML report:" in captured.err
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["settings"]["k"] == [1, 5] and data["settings"]["size"] == 300
    assert set(data["summary"]) == {"P", "R", "F", "lightrag-P"}
    assert {d["name"] for d in data["documents"]} == {"manual.docx", "second.docx", "readme.md"}
    assert data["questions"][0]["outcomes"]["P"].keys() == {"rank", "in_budget", "findable"}
    assert "<svg" in out_html.read_text(encoding="utf-8")


def test_eval_with_the_embedding_of_a_rag_factory(folder, capsys) -> None:
    code = main(
        [
            "eval",
            str(folder / "manual.docx"),
            "--size",
            "300",
            "--chunkers",
            "P,R",
            "--retriever",
            "embedding",
            "--rag-factory",
            "lightrag_pchunk.cli.offline_models:build_offline_rag",
            "--workers",
            "1",
            "--no-progress",
            "--no-documents",
        ]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert ", embedding, budget" in captured.out
    assert "Per document" not in captured.out and captured.err == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--retriever", "embedding"], "needs --rag-factory"),
        (["--chunkers", "P,Q"], "unknown chunker Q"),
        (["--k", "1,x"], "--k must be integers"),
        (["--overlap", "400", "--size", "300"], "(400, from --overlap) must be < "),
        (["--questions", "missing.jsonl"], "missing.jsonl"),
    ],
)
def test_eval_usage_errors_exit_2(folder, capsys, args, message) -> None:
    code = main(["eval", str(folder / "manual.docx"), "--workers", "1", *args])
    assert code == 2
    assert message in capsys.readouterr().err


def test_eval_exits_1_when_nothing_could_be_asked(tmp_path, capsys) -> None:
    small = tmp_path / "small.docx"
    doc = Document()
    doc.add_paragraph("Too short to ask about.")
    doc.save(small)
    assert main(["eval", str(small), "--workers", "1", "--no-progress"]) == 1
    assert "no question could be asked" in capsys.readouterr().err
