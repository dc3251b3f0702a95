"""The LightRAG-facing P chunker of ``integration/plugin.py`` (chunking_by_paragraph_semantic):
file-chunker contract, output rows, fallback, parameters."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import threading
from pathlib import Path

import pytest

from lightrag_pchunk.blockfile.jsonl import read_blocks
from lightrag_pchunk.chunk.chunk_headings import SPAN_DASH
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.tokens import TokenCounter

from helpers import flat_rows
from invariants import assert_no_word_lost, check_output
from sample_docs import lightrag_parse, write_mixed_document


@pytest.fixture(scope="module")
def mixed_blocks(tmp_path_factory) -> Path:
    """The mixed sample document as parsed by LightRAG 1.5.7's own native parser."""
    work = tmp_path_factory.mktemp("mixed")
    return lightrag_parse(write_mixed_document(work / "mixed.docx"), work / "out")


@pytest.fixture(scope="module")
def our_blocks(tmp_path_factory) -> Path:
    """The mixed sample document as parsed by our own native parser."""
    from lightrag_pchunk.parse.document import parse_docx

    work = tmp_path_factory.mktemp("mixed-ours")
    return parse_docx(write_mixed_document(work / "mixed.docx"), work / "out").blocks_path


def contents(blocks_path: Path) -> list[str]:
    return [row.content for row in read_blocks(blocks_path).rows if row.content.strip()]


@pytest.mark.parametrize("size", [500, 1200, 2000])
def test_lightrag_parsed_document_keeps_every_invariant(
    mixed_blocks, cl100k_tokenizer, size
) -> None:
    rows = chunking_by_paragraph_semantic(
        cl100k_tokenizer, "", size, blocks_path=str(mixed_blocks), chunk_overlap_token_size=100
    )
    counter = TokenCounter(cl100k_tokenizer)
    check_output(
        contents(mixed_blocks),
        [r["content"] for r in rows],
        counter=counter,
        cap=size,
        tokens=[r["tokens"] for r in rows],
    )
    assert [r["chunk_order_index"] for r in rows] == list(range(len(rows)))
    for row in rows:
        # LightRAG's own row shape: the heading nested, as every LightRAG storage keeps it.
        assert set(row) == {"tokens", "content", "chunk_order_index", "heading", "sidecar"}
        assert set(row["heading"]) == {"level", "heading", "parent_headings"}
        assert "[part" not in " ".join(row["heading"]["parent_headings"])
        # one part number, or one at each end of a span ("4 [part 4] – 5 [part 1]"), never stacked
        heading = row["heading"]["heading"]
        assert heading.count("[part") <= (2 if SPAN_DASH in heading else 1)
        assert not re.search(r"\[part \d+\]\s*\[part", heading)
        assert row["sidecar"]["id"] == row["sidecar"]["refs"][0]["id"]


@pytest.mark.parametrize("size", [500, 1200, 2000])
def test_our_parser_output_keeps_every_invariant(our_blocks, cl100k_tokenizer, size) -> None:
    rows = flat_rows(
        chunking_by_paragraph_semantic(
            cl100k_tokenizer, "", size, blocks_path=str(our_blocks), chunk_overlap_token_size=100
        )
    )
    check_output(
        contents(our_blocks),
        [r["content"] for r in rows],
        counter=TokenCounter(cl100k_tokenizer),
        cap=size,
        tokens=[r["tokens"] for r in rows],
    )
    # Our parser renders bullets as "•", never as a private-use glyph that could become a heading.
    assert not any("\uf0b7" in r["heading"] or "\uf0b7" in r["content"] for r in rows)
    inventory = [r for r in rows if r["heading"].startswith("3 Inventory")]
    assert len(inventory) > 2 and inventory[0]["heading"] == "3 Inventory [part 1]"


def test_every_source_block_is_referenced_by_some_chunk(mixed_blocks, cl100k_tokenizer) -> None:
    rows = chunking_by_paragraph_semantic(cl100k_tokenizer, "", 1200, blocks_path=mixed_blocks)
    referenced = {ref["id"] for r in rows for ref in r["sidecar"]["refs"]}
    source = {row.blockid for row in read_blocks(mixed_blocks).rows}
    assert referenced == source


def test_headings_levels_and_parts_follow_the_document(mixed_blocks, cl100k_tokenizer) -> None:
    rows = flat_rows(
        chunking_by_paragraph_semantic(cl100k_tokenizer, "", 1200, blocks_path=mixed_blocks)
    )
    by_heading = {r["heading"]: r for r in rows}
    # The 300-row table is sliced; its section is numbered [part n] and keeps its path.
    inventory = [r for r in rows if r["heading"].startswith("3 Inventory")]
    assert len(inventory) > 2
    assert [r["heading"] for r in inventory] == [
        f"3 Inventory [part {i}]" for i in range(1, len(inventory) + 1)
    ]
    assert all(r["parent_headings"] == ["Safety Manual"] and r["level"] == 2 for r in inventory)
    # The lead sentence travels with the first slice, the closing sentence with the last one.
    assert "The following table lists every item" in inventory[0]["content"]
    assert "<table" in inventory[0]["content"]
    assert inventory[-1]["content"].rstrip().endswith("maintained by the operator.")
    # Every continuation slice repeats the w:tblHeader row.
    for row in inventory[1:]:
        table_line = next(line for line in row["content"].split("\n") if line.startswith("<table"))
        body = table_line[table_line.index(">") + 1 : -len("</table>")]
        assert json.loads(body)[0] == ["ID", "Name", "Description", "Value"]
    # The heading-only "2 Requirements" glues forward into its first clause, and the small
    # sections before the inventory are absorbed by their chapter (shallow absorbs deep).
    first = rows[0]
    assert (first["heading"], first["level"], first["parent_headings"]) == ("Safety Manual", 1, [])
    assert "## 2 Requirements (no body)\n\n### 2.1 Clause 1" in first["content"]
    assert first["content"].startswith("Preamble: issued by the operator")
    # References (level 1, no parent) is not absorbed by the deeper section before it.
    assert by_heading["References"]["content"].startswith("# References\n[1] Operator")


def test_bridge_text_between_two_big_tables_reaches_both(mixed_blocks, cl100k_tokenizer) -> None:
    rows = chunking_by_paragraph_semantic(
        cl100k_tokenizer, "", 1200, blocks_path=mixed_blocks, chunk_overlap_token_size=100
    )
    holders = [r for r in rows if "Between the registers" in r["content"]]
    assert len(holders) >= 2  # copied to the last slice of A and the first slice of B


def test_missing_blocks_falls_back_to_lightrag_r_with_a_log_line(
    cl100k_tokenizer, tmp_path, pchunk_logs
) -> None:
    from lightrag.chunker import chunking_by_recursive_character

    text = "First paragraph of plain text.\n\nSecond paragraph. " * 40
    expected = chunking_by_recursive_character(
        cl100k_tokenizer, text, 120, chunk_overlap_token_size=10
    )
    for blocks_path in (None, "", tmp_path / "absent.blocks.jsonl", tmp_path):
        pchunk_logs.clear()
        with pchunk_logs.at_level(logging.WARNING, logger="lightrag.pchunk"):
            rows = chunking_by_paragraph_semantic(
                cl100k_tokenizer, text, 120, blocks_path=blocks_path, chunk_overlap_token_size=10
            )
        assert rows == expected
        messages = [r.getMessage() for r in pchunk_logs.records]
        assert any(
            "paragraph_semantic" in m and "fallback to recursive_character" in m for m in messages
        ), messages


def test_a_blocks_file_without_content_rows_falls_back(
    cl100k_tokenizer, tmp_path, pchunk_logs
) -> None:
    path = tmp_path / "x.blocks.jsonl"
    path.write_text(json.dumps({"type": "meta", "format": "lightrag"}) + "\n\n", encoding="utf-8")
    with pchunk_logs.at_level(logging.WARNING, logger="lightrag.pchunk"):
        rows = chunking_by_paragraph_semantic(
            cl100k_tokenizer, "Body text.", 100, blocks_path=path, chunk_overlap_token_size=10
        )
    assert [r["content"] for r in rows] == ["Body text."]
    assert any("no content rows" in r.getMessage() for r in pchunk_logs.records)


def test_a_malformed_line_is_reported_by_number_and_its_text_kept(
    cl100k_tokenizer, tmp_path, pchunk_logs
) -> None:
    good = {"type": "content", "blockid": "a", "content": "# A\nalpha text", "heading": "A"}
    broken = '{"type": "content", "blockid": "b", "content": "# B\\nbeta text", "heading": "B"'
    path = tmp_path / "x.blocks.jsonl"
    path.write_text(
        json.dumps({"type": "meta"}) + "\n" + json.dumps(good) + "\n" + broken + "\n",
        encoding="utf-8",
    )
    with pchunk_logs.at_level(logging.WARNING, logger="lightrag.pchunk"):
        rows = chunking_by_paragraph_semantic(
            cl100k_tokenizer, "", 100, blocks_path=path, chunk_overlap_token_size=10
        )
    assert "beta text" in "\n".join(r["content"] for r in rows)
    assert any("line 3" in r.getMessage() for r in pchunk_logs.records)


@pytest.mark.parametrize(
    ("size", "overlap", "name"),
    [
        (0, 0, "chunk_token_size"),
        (-5, 0, "chunk_token_size"),
        (1.5, 0, "chunk_token_size"),
        ("2000", 0, "chunk_token_size"),
        (True, 0, "chunk_token_size"),
        (100, -1, "chunk_overlap_token_size"),
        (100, 100, "chunk_overlap_token_size"),
        (100, 2.5, "chunk_overlap_token_size"),
    ],
)
def test_bad_parameters_are_refused_naming_the_parameter(
    cl100k_tokenizer, mixed_blocks, size, overlap, name
) -> None:
    with pytest.raises(ValueError, match=name):
        chunking_by_paragraph_semantic(
            cl100k_tokenizer, "x", size, blocks_path=mixed_blocks, chunk_overlap_token_size=overlap
        )


def test_drop_references_is_off_by_default_and_honoured_when_asked(
    mixed_blocks, cl100k_tokenizer, monkeypatch
) -> None:
    monkeypatch.delenv("CHUNK_P_REFERENCES_TAIL_N", raising=False)
    monkeypatch.delenv("CHUNK_P_REFERENCES_HEADINGS", raising=False)
    kept = chunking_by_paragraph_semantic(cl100k_tokenizer, "", 1200, blocks_path=mixed_blocks)
    assert any("[1] Operator handbook" in r["content"] for r in kept)
    dropped = chunking_by_paragraph_semantic(
        cl100k_tokenizer, "", 1200, blocks_path=mixed_blocks, drop_references=True
    )
    assert not any("[1] Operator handbook" in r["content"] for r in dropped)
    # The heading list is read live from the environment on every call.
    monkeypatch.setenv("CHUNK_P_REFERENCES_HEADINGS", "Bibliography")
    again = chunking_by_paragraph_semantic(
        cl100k_tokenizer, "", 1200, blocks_path=mixed_blocks, drop_references=True
    )
    assert any("[1] Operator handbook" in r["content"] for r in again)


def test_unknown_keywords_from_newer_lightrag_versions_are_accepted(
    mixed_blocks, cl100k_tokenizer
) -> None:
    rows = chunking_by_paragraph_semantic(
        cl100k_tokenizer, "", 2000, blocks_path=mixed_blocks, doc_id="doc-1", future_option=3
    )
    assert rows


def test_thread_safe_with_one_shared_tokenizer(mixed_blocks, cl100k_tokenizer) -> None:
    expected = chunking_by_paragraph_semantic(cl100k_tokenizer, "", 800, blocks_path=mixed_blocks)
    results: list = []

    def run() -> None:
        results.append(
            chunking_by_paragraph_semantic(cl100k_tokenizer, "", 800, blocks_path=mixed_blocks)
        )

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


def test_keyed_table_text_writes_rows_keyed_by_their_headers(our_blocks, cl100k_tokenizer):
    grid = chunking_by_paragraph_semantic(
        cl100k_tokenizer, "", 1200, blocks_path=our_blocks, table_text="grid"
    )
    keyed = chunking_by_paragraph_semantic(
        cl100k_tokenizer, "", 1200, blocks_path=our_blocks, table_text="keyed"
    )
    rows = []
    for row in keyed:
        for line in row["content"].split("\n"):
            if line.startswith("<table"):
                body = json.loads(line[line.index(">") + 1 : -len("</table>")])
                assert all(isinstance(r, dict) for r in body)  # no header row to repeat
                rows.extend(body)
    assert {"ID": "1", "Name": "Item 1"}.items() <= rows[0].items()
    assert len(rows) == 540  # every body row of the three tables, once
    assert all(r["tokens"] <= 1200 for r in keyed)
    # Keyed rows carry their headers: more tokens, more chunks than the grid.
    assert sum(r["tokens"] for r in keyed) > sum(r["tokens"] for r in grid)


def test_table_text_comes_from_the_environment_when_not_given(
    our_blocks, cl100k_tokenizer, monkeypatch
) -> None:
    monkeypatch.setenv("CHUNK_P_TABLE_TEXT", "keyed")
    rows = chunking_by_paragraph_semantic(cl100k_tokenizer, "", 1200, blocks_path=our_blocks)
    assert any('[{"ID": ' in r["content"] for r in rows)
    monkeypatch.setenv("CHUNK_P_TABLE_TEXT", "rows")
    with pytest.raises(ValueError, match="CHUNK_P_TABLE_TEXT"):
        chunking_by_paragraph_semantic(cl100k_tokenizer, "", 1200, blocks_path=our_blocks)


def test_a_chunk_over_the_cap_is_an_error_in_strict_mode(
    our_blocks, cl100k_tokenizer, monkeypatch, caplog
) -> None:
    from lightrag_pchunk.chunk import pipeline
    from lightrag_pchunk.integration import front_door
    from lightrag_pchunk.integration.config import STRICT_ENV

    def broken(rows, ctx, **kwargs):  # a stage that forgot the cap: one chunk one token over
        chunks = pipeline.chunk_rows(rows, ctx, **kwargs)
        return [dataclasses.replace(chunks[0], tokens=1201), *chunks[1:]]

    monkeypatch.setattr(front_door, "chunk_rows", broken)
    with pytest.raises(front_door.ChunkOverCapError, match="over 1200 tokens"):
        chunking_by_paragraph_semantic(cl100k_tokenizer, "", 1200, blocks_path=our_blocks)
    monkeypatch.setenv(STRICT_ENV, "0")
    rows = chunking_by_paragraph_semantic(cl100k_tokenizer, "", 1200, blocks_path=our_blocks)
    assert rows and "over 1200 tokens" in caplog.text


def _clauses_blocks(path: Path) -> Path:
    """Three clauses of chapter 1 under different sections (cousins), one of chapter 2;
    each about 0.4 N at N=300 (two fit one chunk), over the small-tail threshold."""
    meta = {"type": "meta", "format": "lightrag", "blocks": 4, "doc_id": "doc-fill"}
    lines = [json.dumps(meta)]
    for n, (chapter, section, clause) in enumerate(
        [("1 Scope", "1.1 Terms", "1.1.1"), ("1 Scope", "1.2 Roles", "1.2.1"),
         ("1 Scope", "1.3 Records", "1.3.1"), ("2 Safety", "2.1 Doors", "2.1.1")]
    ):  # fmt: skip
        text = " ".join(f"Clause {clause} requires record {i} in the shift log." for i in range(7))
        row = {"type": "content", "blockid": f"b{n}", "content": f"### {clause}\n{text}",
               "heading": clause, "parent_headings": [chapter, section], "level": 3}  # fmt: skip
        lines.append(json.dumps(row))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_chapter_fill_makes_fewer_chunks_within_chapters_and_loses_nothing(
    tmp_path, cl100k_tokenizer, monkeypatch
) -> None:

    blocks = _clauses_blocks(tmp_path / "clauses.blocks.jsonl")
    sources = [row.content for row in read_blocks(blocks).rows]
    monkeypatch.setenv("CHUNK_P_FILL", "sections")  # the strategy's phases
    spec = chunking_by_paragraph_semantic(cl100k_tokenizer, "", 300, blocks_path=blocks)
    assert [r["heading"]["heading"] for r in spec] == ["1.1.1", "1.2.1", "1.3.1", "2.1.1"]
    monkeypatch.setenv("CHUNK_P_FILL", "chapter")  # read on every call, as the SDK does
    filled = chunking_by_paragraph_semantic(cl100k_tokenizer, "", 300, blocks_path=blocks)
    # 1.1.1 and 1.2.1 share a chunk headed by their chapter with the span of its sections
    # it holds; 1.3.1 no longer fits; chapter 2 stays apart.
    assert [r["heading"]["heading"] for r in filled] == ["1 Scope (1.1–1.2)", "1.3.1", "2.1.1"]
    assert (
        filled[0]["content"].startswith("### 1.1.1\n") and "\n### 1.2.1\n" in filled[0]["content"]
    )
    assert all(r["tokens"] <= 300 for r in filled)
    assert_no_word_lost(sources, [r["content"] for r in filled], "sections")
    given = chunking_by_paragraph_semantic(
        cl100k_tokenizer, "", 300, blocks_path=blocks, fill="sections"
    )
    assert len(given) == 4  # an explicit argument wins over the environment
    monkeypatch.delenv("CHUNK_P_FILL")  # the default: pack
    packed = chunking_by_paragraph_semantic(cl100k_tokenizer, "", 300, blocks_path=blocks)
    # Three runs at most two levels below a common parent: chapter 2's clause is three
    # levels below the root it shares with chapter 1, so it stays apart.
    assert len(packed) == 3 and packed[-1]["content"].startswith("### 2.1.1\n")
    assert all(r["tokens"] <= 300 for r in packed)
    assert_no_word_lost(sources, [r["content"] for r in packed], "pack")
    monkeypatch.setenv("CHUNK_P_FILL", "everything")
    with pytest.raises(ValueError, match="CHUNK_P_FILL"):
        chunking_by_paragraph_semantic(cl100k_tokenizer, "", 300, blocks_path=blocks)
