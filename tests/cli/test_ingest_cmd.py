"""`lightrag-pchunk ingest`: the command, its exit codes, and its offline models."""

from __future__ import annotations

import io
import json
import math
import sys
from pathlib import Path

import pytest
from docx import Document

from lightrag_pchunk.cli.main import main
from lightrag_pchunk.cli.offline_models import (
    HASH_EMBEDDING_DIM,
    hash_embedding,
    hash_vector,
    no_extraction_llm,
)

FACTORY = """
from lightrag.chunker import chunking_by_token_size
from lightrag_pchunk.cli.offline_models import build_offline_rag

def make(working_dir):
    return build_offline_rag(working_dir, chunking_func=chunking_by_token_size)

async def make_async(working_dir):
    return build_offline_rag(working_dir)

not_callable = 3
"""


@pytest.fixture(autouse=True)
def _isolated(fresh_lightrag):
    yield


def write_docx(path: Path, title: str = "Handbook") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    document = Document()
    document.add_heading(title, level=1)
    for n in range(1, 4):
        document.add_heading(f"{n} Section", level=2)
        document.add_paragraph(f"Body of section {n}.")
    document.save(str(path))
    return path


def stored_chunks(work: Path) -> list[dict]:
    return list(json.loads((work / "kv_store_text_chunks.json").read_text("utf-8")).values())


def test_no_llm_ingest_works_offline_and_lands_p_chunks(tmp_path, capsys) -> None:
    docx = write_docx(tmp_path / "report.docx")
    work = tmp_path / "rag"
    code = main(["ingest", "--working-dir", str(work), "--no-llm", "--no-progress", str(docx)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "report.docx: inserted (P, " in out and f"1 file: 1 inserted; working dir {work}" in out
    chunks = stored_chunks(work)
    assert chunks and all(c["file_path"] == "report.docx" and c["heading"]["level"] for c in chunks)
    assert (work / "__parsed__" / "report.docx.parsed" / "report.blocks.jsonl").is_file()


def test_json_output_and_exit_status_1_when_a_file_fails(tmp_path, capsys) -> None:
    docx = write_docx(tmp_path / "a.docx")
    missing = tmp_path / "missing.docx"
    argv = ["ingest", "--working-dir", str(tmp_path / "rag"), "--no-llm", "--json"]
    code = main([*argv, "--no-progress", str(docx), str(missing)])
    rows = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [(r["path"], r["status"]) for r in rows] == [
        (str(docx), "inserted"),
        (str(missing), "failed"),
    ]
    assert rows[0]["strategy"] == "P" and rows[0]["doc_id"].startswith("doc-")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_goes_to_a_terminal_and_leaves_nothing(tmp_path, monkeypatch) -> None:
    docx = write_docx(tmp_path / "a.docx")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["ingest", "--working-dir", str(tmp_path / "rag"), "--no-llm", str(docx)]) == 0
    drawn = terminal.getvalue()
    assert "1/1 a.docx" in drawn and drawn.endswith("\r")  # erased when done


def test_folders_are_searched_recursively_and_glob_chooses(tmp_path, capsys) -> None:
    folder = tmp_path / "docs"
    write_docx(folder / "a.docx", "Handbook A")
    write_docx(folder / "contracts" / "b.docx", "Handbook B")
    write_docx(folder / "contracts" / "__parsed__" / "old.docx")  # a parse output: skipped
    (folder / "notes.txt").write_text("plain text", encoding="utf-8")
    argv = ["ingest", "--working-dir", str(tmp_path / "rag"), "--no-llm", str(folder)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "a.docx: inserted" in out and "b.docx: inserted" in out
    assert "notes.txt" not in out and "old.docx" not in out
    assert main([*argv, "--glob", "contracts/*.docx"]) == 0
    out = capsys.readouterr().out
    assert "b.docx: unchanged" in out and "a.docx" not in out
    assert main([*argv, "--glob", "*.txt"]) == 0
    assert "notes.txt: inserted (R" in capsys.readouterr().out


def test_one_message_per_failure(tmp_path, capsys) -> None:
    good = write_docx(tmp_path / "in" / "good.docx")
    bad = tmp_path / "in" / "bad.docx"
    bad.write_bytes(b"not a zip at all")
    argv = ["ingest", "--working-dir", str(tmp_path / "rag"), "--no-llm", str(good), str(bad)]
    assert main(argv) == 1
    captured = capsys.readouterr()
    everything = captured.out + captured.err
    assert everything.count("not-a-zip") == 1, everything
    assert "bad.docx: FAILED" in captured.out


def test_the_models_must_be_chosen(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["ingest", "--working-dir", str(tmp_path), str(tmp_path / "a.docx")])
    assert exit_info.value.code == 2
    assert "--no-llm" in capsys.readouterr().err


def test_help_says_loudly_what_no_llm_gives_up(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["ingest", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "OFFLINE MODE, NOT FOR REAL USE" in help_text
    assert "NO entities or relations are extracted" in help_text


def test_invalid_lightrag_parser_is_a_configuration_error(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("LIGHTRAG_PARSER", "docx:native-P;*.pdf:legacy")
    docx = write_docx(tmp_path / "a.docx")
    code = main(["ingest", "--working-dir", str(tmp_path / "rag"), "--no-llm", str(docx)])
    assert code == 2
    assert "rule 2 ('*.pdf:legacy')" in capsys.readouterr().err
    assert not (tmp_path / "rag").exists()


@pytest.mark.parametrize("function", ["make", "make_async"])
def test_rag_factory_builds_the_instance(tmp_path, capsys, monkeypatch, function) -> None:
    (tmp_path / "my_factory.py").write_text(FACTORY, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    docx = write_docx(tmp_path / "a.docx")
    work = tmp_path / "rag"
    argv = ["ingest", "--working-dir", str(work), "--rag-factory", f"my_factory:{function}"]
    assert main([*argv, "--no-progress", str(docx)]) == 0
    captured = capsys.readouterr()
    assert "a.docx: inserted (P, " in captured.out
    # A factory that kept LightRAG's default chunker gets ours, and is told so.
    assert ("using lightrag_pchunk.chunking_func" in captured.err) == (function == "make")
    assert all(c["heading"] for c in stored_chunks(work))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_colon", "MODULE:FUNCTION"),
        ("no_such_module_xyz:make", "cannot be loaded"),
        ("my_factory:missing", "cannot be loaded"),
        ("my_factory:not_callable", "is not callable"),
    ],
)
def test_a_bad_factory_is_a_configuration_error(tmp_path, capsys, monkeypatch, spec, message):
    (tmp_path / "my_factory.py").write_text(FACTORY, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    argv = ["ingest", "--working-dir", str(tmp_path / "rag"), "--rag-factory", spec, "x.docx"]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_hash_embedding_is_deterministic_unit_and_lexical() -> None:
    a = hash_vector("Valve inspection schedule for the coolant pump")
    assert a.shape == (HASH_EMBEDDING_DIM,)
    assert math.isclose(float((a * a).sum()), 1.0, rel_tol=1e-5)
    assert (a == hash_vector("Valve inspection schedule for the coolant pump")).all()
    near = hash_vector("inspection schedule of the coolant pump valve")
    far = hash_vector("Quarterly revenue grew in every region")
    assert float(a @ near) > float(a @ far)
    cjk = hash_vector("核电厂运营单位应当建立质量保证体系")
    assert float(cjk @ hash_vector("质量保证体系")) > 0.3  # characters are features
    assert math.isclose(float((hash_vector("") ** 2).sum()), 1.0)


async def test_hash_embedding_batches_and_the_llm_extracts_nothing() -> None:
    vectors = await hash_embedding(["one", "two", "three"])
    assert vectors.shape == (3, HASH_EMBEDDING_DIM)
    from lightrag.prompt import PROMPTS

    done = PROMPTS["DEFAULT_COMPLETION_DELIMITER"]
    assert await no_extraction_llm(f"extract entities ... end with {done}") == done
    assert await no_extraction_llm("what are the keywords?") == ""
