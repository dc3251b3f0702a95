"""`lightrag-pchunk chunk`: the printed chunks are the SDK's, sizes come from flags or env."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lightrag_pchunk.blockfile.jsonl import merged_text, read_blocks, write_blocks
from lightrag_pchunk.cli.demo_cmd import example_path
from lightrag_pchunk.cli.main import main
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.model import BlockRow


@pytest.fixture(autouse=True)
def _clean_env(clean_p_env):
    yield


def json_rows(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def sdk_rows(cl100k_tokenizer, blocks_path: Path, size: int, overlap: int = 100) -> list[dict]:
    content = merged_text(read_blocks(blocks_path).rows)
    return chunking_by_paragraph_semantic(
        cl100k_tokenizer,
        content,
        size,
        blocks_path=blocks_path,
        chunk_overlap_token_size=overlap,
    )


def test_json_prints_exactly_the_rows_lightrag_would_store(
    parsed_example, cl100k_tokenizer, capsys
) -> None:
    code = main(["chunk", str(parsed_example.blocks_path), "--json", "--size", "800"])
    printed = json_rows(capsys.readouterr().out)
    assert code == 0
    assert printed == sdk_rows(cl100k_tokenizer, parsed_example.blocks_path, 800)
    assert all(row["tokens"] <= 800 for row in printed)
    assert {"heading", "chunk_order_index"} <= set(printed[0])
    assert set(printed[0]["heading"]) == {"heading", "parent_headings", "level"}


def test_a_docx_is_parsed_first_and_gives_the_same_chunks(
    parsed_example, cl100k_tokenizer, capsys, tmp_path
) -> None:
    code = main(["chunk", str(example_path()), "--json", "-o", str(tmp_path)])
    printed = json_rows(capsys.readouterr().out)
    assert code == 0
    kept = tmp_path / "cold-store-safety-standard.docx.parsed"
    assert (kept / "cold-store-safety-standard.blocks.jsonl").is_file()  # -o keeps the parse
    expected = sdk_rows(cl100k_tokenizer, parsed_example.blocks_path, 2000)
    assert [r["content"] for r in printed] == [r["content"] for r in expected]


def test_human_output_shows_index_tokens_heading_path_and_preview(parsed_example, capsys) -> None:
    code = main(["chunk", str(parsed_example.blocks_path), "--preview", "40"])
    out = capsys.readouterr().out
    assert code == 0
    first_line, header = out.splitlines()[:2]
    assert first_line.startswith("cold-store-safety-standard.blocks.jsonl: 7 chunks, P, size 2000")
    assert header.split() == ["#", "tokens", "level", "heading", "path"]
    # Sections 1 to 3 share a chunk; 5.1's first part shares the chunk of 5, so its other
    # part is the only chunk that declares 5.1: no [part n].
    assert "1 Scope 适用范围 – 3 Operation of the cold store" in out
    assert "5 Inspection and maintenance > 5.1 Inspection checklists\n" in out
    previews = [line for line in out.splitlines() if line.lstrip().startswith("| ")]
    assert len(previews) == 7
    assert all(len(line.split("| ", 1)[1]) <= 40 for line in previews)


def test_sizes_come_from_the_environment_as_in_the_sdk(
    parsed_example, cl100k_tokenizer, capsys, monkeypatch
) -> None:
    monkeypatch.setenv("CHUNK_P_SIZE", "700")
    monkeypatch.setenv("CHUNK_OVERLAP_SIZE", "30")
    main(["chunk", str(parsed_example.blocks_path), "--json"])
    from_env = json_rows(capsys.readouterr().out)
    assert from_env == sdk_rows(cl100k_tokenizer, parsed_example.blocks_path, 700, 30)
    main(["chunk", str(parsed_example.blocks_path), "--json", "--size", "1500"])
    from_flag = json_rows(capsys.readouterr().out)
    assert from_flag == sdk_rows(cl100k_tokenizer, parsed_example.blocks_path, 1500, 30)
    main(["chunk", str(parsed_example.blocks_path)])
    assert "size 700 (CHUNK_P_SIZE (env)), overlap 30 (CHUNK_OVERLAP_SIZE (env))" in (
        capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("env", "args", "message"),
    [
        ({"CHUNK_P_SIZE": "abc"}, [], "CHUNK_P_SIZE (env) must be an integer, got 'abc'"),
        ({}, ["--size", "80"], "P chunk_overlap_token_size (100, from default) must be < "),
        ({}, ["--encoding", "no-such-encoding"], "cannot load the tiktoken encoding"),
    ],
)
def test_configuration_errors_exit_2_naming_the_problem(
    parsed_example, capsys, monkeypatch, env, args, message
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code = main(["chunk", str(parsed_example.blocks_path), *args])
    assert code == 2
    assert message in capsys.readouterr().err


def test_bad_inputs(tmp_path, capsys) -> None:
    assert main(["chunk", str(tmp_path / "missing.docx")]) == 2
    assert "no such file" in capsys.readouterr().err
    text = tmp_path / "notes.txt"
    text.write_text("hello", encoding="utf-8")
    assert main(["chunk", str(text)]) == 2
    expected = (
        "expected a Word (.docx, .docm, .dotx, .dotm), Markdown (.md, .markdown) or PDF (.pdf) file"
    )
    assert expected in capsys.readouterr().err
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"this is not a zip")
    assert main(["chunk", str(broken)]) == 1
    assert "cannot parse" in capsys.readouterr().err


def test_blocks_without_text_are_an_empty_document_not_a_fallback(tmp_path, capsys) -> None:
    rows = [BlockRow(content="   ", heading="H")]
    blocks = write_blocks(tmp_path / "blank.blocks.jsonl", {"doc_id": "doc-y"}, rows)
    code = main(["chunk", str(blocks)])
    captured = capsys.readouterr()
    assert code == 0
    assert captured.out == "blank.blocks.jsonl: empty: the document has no text, nothing to chunk\n"
    assert "fallback" not in captured.err


def test_an_unreadable_blocks_file_falls_back_to_r_and_says_so(tmp_path, capsys) -> None:
    blocks = tmp_path / "latin.blocks.jsonl"
    blocks.write_bytes(b'{"content": "caf\xe9"}\n')  # not UTF-8
    code = main(["chunk", str(blocks)])
    captured = capsys.readouterr()
    assert code == 0
    assert "0 chunks, R (fallback to recursive_character: " in captured.out
    assert "cannot read blocks file" in captured.out
    assert "fallback to recursive_character" in captured.err  # the SDK's own warning


def test_size_and_overlap_are_the_runs_sizes_for_a_document_decided_r_too(
    tmp_path, capsys, cl100k_tokenizer, monkeypatch
) -> None:
    # --size / --overlap are the user's sizes for this run: a file routed to R (here to
    # LightRAG's legacy engine, which reads it as written) is cut at them, as a P document is.
    from lightrag.chunker import chunking_by_recursive_character
    from lightrag.parser.routing import env_r_separators

    monkeypatch.setenv("LIGHTRAG_PARSER", "md:legacy")
    notes = tmp_path / "notes.md"
    text = "\n\n".join(
        f"Paragraph {n}: " + "the meter is read every morning. " * 12 for n in range(20)
    )
    notes.write_text(text, encoding="utf-8")
    assert main(["chunk", str(notes), "--json", "--size", "150", "--overlap", "10"]) == 0
    printed = json_rows(capsys.readouterr().out)
    expected = chunking_by_recursive_character(
        cl100k_tokenizer, text, 150, chunk_overlap_token_size=10, separators=env_r_separators()
    )
    assert len(printed) > 1 and [r["content"] for r in printed] == [r["content"] for r in expected]
    assert main(["chunk", str(notes), "--size", "150", "--overlap", "10"]) == 0
    assert "chunk_token_size=150 overlap=10" in capsys.readouterr().out


def test_every_suffix_we_parse_gets_p_when_lightrag_parser_is_unset(
    tmp_path, capsys, cl100k_tokenizer
) -> None:
    guide = tmp_path / "guide.markdown"  # LightRAG's native engine reads .md only
    guide.write_text("# Guide\n\n## 1 Meters\n\nThe operator reads the meter every morning.\n")
    macros = tmp_path / "macros.docm"
    macros.write_bytes(example_path().read_bytes())
    for source in (guide, macros):
        assert main(["chunk", str(source), "--json", "-o", str(tmp_path / "out")]) == 0
        printed = json_rows(capsys.readouterr().out)
        blocks = next((tmp_path / "out" / f"{source.name}.parsed").glob("*.blocks.jsonl"))
        assert printed == sdk_rows(cl100k_tokenizer, blocks, 2000), source.name
        assert all("heading" in row for row in printed)
