"""`chunk` and `ingest` treat chunks that miss a word of the blocks file as a failure: exit
code 1 and the count of lost words, never a success."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.cli.demo_cmd import example_path
from lightrag_pchunk.cli.main import main


@pytest.fixture
def lossy_chunker(monkeypatch):
    """A P chunker with a bug: it drops the last chunk of every document."""
    from lightrag_pchunk.integration import front_door

    real = front_door.chunk_rows
    monkeypatch.setattr(
        front_door, "chunk_rows", lambda rows, ctx, **kw: real(rows, ctx, **kw)[:-1]
    )


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
    assert "1 file: 1 failed (lost words: 1)" in out


@pytest.mark.parametrize("setting", ["CHUNK_P_DROP_TOC", "CHUNK_P_DROP_REFERENCES"])
def test_rows_a_setting_drops_on_purpose_are_no_shortfall(
    clean_p_env, monkeypatch, tmp_path, capsys, setting
) -> None:
    from lightrag_pchunk.blockfile.jsonl import write_blocks
    from lightrag_pchunk.model import BlockRow

    rows = [
        BlockRow("# Contents\nScope\t1\nTerms\t2", "Contents", (), 1, "b0",
                 extra={"session_type": "toc"}),
        BlockRow("# Scope\nThe pump shall stop when the door opens.", "Scope", (), 1, "b1"),
        BlockRow("# References\n[1] Cold Store Handbook, 2019.", "References", (), 1, "b2"),
    ]  # fmt: skip
    blocks = write_blocks(tmp_path / "doc.blocks.jsonl", {"doc_id": "doc-x"}, rows)
    monkeypatch.setenv(setting, "true")
    assert main(["chunk", str(blocks), "--json"]) == 0
    printed = capsys.readouterr()
    assert "lost" not in printed.err
    dropped = "Terms" if setting == "CHUNK_P_DROP_TOC" else "Handbook"
    assert dropped not in printed.out and "pump" in printed.out


def test_the_check_compares_the_chunks_with_the_file_not_with_the_rows_read(
    clean_p_env, tmp_path, capsys
) -> None:
    """A line the reader skips (a row inside a JSON array) still holds words of the file."""
    import json

    lines = [
        json.dumps({"type": "meta", "format": "lightrag"}),
        json.dumps({"type": "content", "content": "# Scope\nThe pump shall stop.", "level": 1}),
        json.dumps([{"type": "content", "content": "Valves close within seconds."}]),
    ]
    path = tmp_path / "doc.blocks.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["chunk", str(path), "--size", "300"]) == 1
    err = capsys.readouterr().err
    assert "the chunks lost 4 words (e.g." in err and "'Valves'" in err


def _ethiopic(words: int) -> str:
    letters = "ሀሁሂሃሄህሆለሉሊላሌልሎመሙሚማሜምሞሰሱሲሳሴስሶረሩሪራሬርሮበቡቢባቤብቦተቱቲታቴትቶነኑኒናኔንኖ"
    return "፡".join(
        "".join(letters[(i * 7 + j * 13) % len(letters)] for j in range(2 + i % 6))
        for i in range(words)
    )


def _tibetan(syllables: int) -> str:
    letters, vowels = "ཀཁགངཅཆཇཉཏཐདནཔཕབམཙཚཛཝཞཟའཡརལཤསཧཨ", ["", "ི", "ུ", "ེ", "ོ"]
    return "་".join(
        "".join(letters[(i * 5 + j * 11) % len(letters)] for j in range(1 + i % 3)) + vowels[i % 5]
        for i in range(syllables)
    )


@pytest.mark.parametrize(
    "body",
    [_ethiopic(3000) + "።", _tibetan(4000) + "།",
     "<table><tr><td>" * 1000 + "cell" + "</td></tr></table>" * 1000],
    ids=["ethiopic", "tibetan", "html-table-1000-deep"],
)  # fmt: skip
def test_a_script_without_spaces_cut_inside_its_words_is_no_loss(
    clean_p_env, tmp_path, capsys, body
) -> None:
    """R has to cut these stretches inside words; the text is all there, so no file is
    refused for it."""
    path = tmp_path / "unbroken.md"
    path.write_text(f"# Title\n\n{body}\n", encoding="utf-8")
    for size in ("200", "500"):
        assert main(["chunk", str(path), "--size", size, "--json"]) == 0, size
        shown = capsys.readouterr()
        assert "lost" not in shown.err
        joined = "".join(json.loads(line)["content"] for line in shown.out.splitlines())
        if "<table" not in body:  # (a table tag escapes its closing tags)
            assert body in joined  # the chunks hold the text whole
