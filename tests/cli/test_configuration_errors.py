"""A bad setting stops every command the same way: exit code 2 and one line naming the
setting, before any file is touched (as LightRAG's server refuses it at start-up); the smart
outline has one vocabulary everywhere (parser warnings name their file:
test_rough_edges.py)."""

from __future__ import annotations

import shutil
import sys
from types import SimpleNamespace

import pytest

from lightrag_pchunk.cli.demo_cmd import example_path
from lightrag_pchunk.cli.main import main


@pytest.fixture(autouse=True)
def _clean_env(clean_p_env, monkeypatch):
    monkeypatch.delenv("DOCX_SMART_HEADING", raising=False)
    yield


def commands(tmp_path) -> dict[str, list[str]]:
    """Every command that reads the configuration, on the bundled example."""
    source = str(shutil.copy(example_path(), tmp_path / "report.docx"))
    return {
        "parse": ["parse", source, "-o", str(tmp_path / "out")],
        "chunk": ["chunk", source],
        "inspect": ["inspect", source, "--no-html"],
        "ingest": ["ingest", "--working-dir", str(tmp_path / "rag"), "--no-llm", source],
        "eval": ["eval", source, "--no-progress"],
    }


def serve_refuses(monkeypatch, capsys) -> tuple[int, str]:
    """``serve`` with LightRAG's server module stubbed: it must stop before the server
    starts (importing the real one would read this process's arguments and .env)."""
    pytest.importorskip("fastapi")
    started: list[int] = []
    stub = SimpleNamespace(main=lambda: started.append(1) or 0)
    monkeypatch.setitem(sys.modules, "lightrag.api.lightrag_server", stub)
    monkeypatch.setattr(sys, "argv", list(sys.argv))  # run_server sets LightRAG's arguments
    code = main(["serve"])
    assert not started
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("DOCX_SMART_HEADING", "maybe",
         "DOCX_SMART_HEADING (env) must be true, false or auto, got 'maybe'"),
        ("LIGHTRAG_PARSER", "docx:native-P;*.pdf:legacy",
         "Invalid LIGHTRAG_PARSER configuration: rule 2 ('*.pdf:legacy') matches suffixes"
         " without dots; use 'pdf', not '*.pdf'"),
        ("CHUNK_P_SIZE", "big", "CHUNK_P_SIZE (env) must be an integer, got 'big'"),
    ],
)  # fmt: skip
def test_every_command_refuses_a_bad_setting_with_one_line_and_exit_2(
    tmp_path, monkeypatch, capsys, variable, value, message
) -> None:
    monkeypatch.setenv(variable, value)
    for name, argv in commands(tmp_path).items():
        assert main(argv) == 2, name
        captured = capsys.readouterr()
        assert captured.out == "", name
        assert captured.err.splitlines() == [f"error: {message}"], (name, captured.err)
    assert not (tmp_path / "out").exists() and not (tmp_path / "rag").exists()
    code, err = serve_refuses(monkeypatch, capsys)
    assert code == 2 and f"error: {message}" in err


@pytest.mark.parametrize("word", ["true", "false", "auto", "on", "off", "1", "0"])
def test_the_smart_outline_takes_one_vocabulary_everywhere(tmp_path, monkeypatch, word) -> None:
    source = shutil.copy(example_path(), tmp_path / "report.docx")
    assert main(["chunk", str(source), "--smart-heading", word, "--json"]) == 0
    monkeypatch.setenv("DOCX_SMART_HEADING", word)
    assert main(["parse", str(source), "-o", str(tmp_path / "out")]) == 0


def test_a_bad_smart_heading_flag_is_refused_naming_the_flag(tmp_path, capsys) -> None:
    source = shutil.copy(example_path(), tmp_path / "report.docx")
    for command in ("parse", "chunk", "inspect"):
        assert main([command, str(source), "--smart-heading", "maybe"]) == 2
        err = capsys.readouterr().err
        assert err.strip() == "error: --smart-heading must be true, false or auto, got 'maybe'"


def test_a_typo_in_lightrag_parser_is_not_read_as_a_route_to_r(tmp_path, monkeypatch, capsys):
    # Read best-effort, the broken rule would leave the file to LightRAG's default: R.
    monkeypatch.setenv("LIGHTRAG_PARSER", "docx:nativ-P")
    source = shutil.copy(example_path(), tmp_path / "report.docx")
    assert main(["chunk", str(source)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "rule 1 ('docx:nativ-P')" in captured.err
