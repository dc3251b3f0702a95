"""`chunk` and `ingest` treat chunks that miss a word of the blocks file as a failure: exit
code 1 and the count of lost words, never a success."""

from __future__ import annotations

import pytest

from lightrag_pchunk.cli.demo_cmd import example_path
from lightrag_pchunk.cli.main import main


@pytest.fixture
def lossy_chunker(monkeypatch):
    """A P chunker with a bug: it drops the last chunk of every document."""
    from lightrag_pchunk.integration import chunker

    real = chunker.chunk_rows
    monkeypatch.setattr(chunker, "chunk_rows", lambda rows, ctx: real(rows, ctx)[:-1])


def test_chunk_exits_0_when_nothing_is_lost(clean_p_env, parsed_example, capsys) -> None:
    assert main(["chunk", str(parsed_example.blocks_path), "--size", "300"]) == 0
    assert "lost" not in capsys.readouterr().err


@pytest.mark.parametrize("as_json", [False, True])
def test_chunk_reports_lost_words_and_exits_1(
    clean_p_env, parsed_example, lossy_chunker, capsys, as_json
) -> None:
    argv = ["chunk", str(parsed_example.blocks_path), "--size", "300"]
    code = main([*argv, "--json"] if as_json else argv)
    err = capsys.readouterr().err
    assert code == 1
    assert "error: cold-store-safety-standard.blocks.jsonl: the chunks lost" in err
    assert " words (e.g. " in err


def test_ingest_exits_1_naming_the_lost_words(fresh_lightrag, lossy_chunker, tmp_path, capsys):
    work = tmp_path / "rag"
    code = main(["ingest", "--working-dir", str(work), "--no-llm", "--no-progress",
                 str(example_path())])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 1
    assert "cold-store-safety-standard.docx: FAILED: its chunks lost" in out
    assert "0 of 1 files" in out
