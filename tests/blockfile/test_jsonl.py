"""The blocks reader (blockfile/jsonl.py): lines end at "\\n" only, and nothing is dropped
without a warning that names its line; a row with content is never dropped for its type."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.blockfile.jsonl import parse_blocks_text, read_blocks
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic

from invariants import assert_no_word_lost

#: Characters JSON strings may hold raw that str.splitlines() takes for line ends.
LINE_BREAKERS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]
META = {"type": "meta", "format": "lightrag", "blocks": 2, "doc_id": "doc-x"}


def row(content: str, heading: str = "Scope", **extra) -> dict:
    return {"type": "content", "blockid": "b", "content": content, "heading": heading,
            "parent_headings": [], "level": 1, **extra}  # fmt: skip


def raw_line(obj: dict) -> str:
    """A JSON line another writer might write: non-ASCII and control characters raw (json
    always escapes C0 controls, so they are put back raw by hand)."""
    text = json.dumps(obj, ensure_ascii=False)
    for char in LINE_BREAKERS:
        text = text.replace(json.dumps(char)[1:-1], char)
    return text


@pytest.mark.parametrize("char", LINE_BREAKERS, ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize("written", ["raw", "escaped"])
def test_a_line_breaker_inside_a_json_string_ends_no_line(
    char, written, tmp_path, cl100k_tokenizer, pchunk_logs
) -> None:
    contents = [
        f"# Scope\nFirst words before{char}after the break, then more words.",
        f"Second row{char}{char}with two in a row and a table\n"
        f'<table id="tb-1" format="json">[["cell{char}one", "cell two"]]</table>',
    ]
    dump = raw_line if written == "raw" else (lambda obj: json.dumps(obj, ensure_ascii=True))
    lines = [json.dumps(META), *(dump(row(c)) for c in contents)]
    if written == "raw":
        assert char in lines[1]  # the file really holds it raw
    path = tmp_path / "doc.blocks.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="")
    blocks = read_blocks(path)
    assert blocks.problems == [] and "blocks file" not in pchunk_logs.text
    assert [r.content for r in blocks.rows] == contents
    rows = chunking_by_paragraph_semantic(cl100k_tokenizer, "", 2000, blocks_path=path)
    assert_no_word_lost(contents, [r["content"] for r in rows])
    assert "before" in rows[0]["content"] and "after" in rows[0]["content"]


def test_windows_line_ends_and_a_raw_carriage_return_inside_a_string(tmp_path) -> None:
    text = json.dumps(META) + "\r\n" + json.dumps(row("a\rb")).replace("\\r", "\r") + "\r\n"
    path = tmp_path / "doc.blocks.jsonl"
    path.write_bytes(("\ufeff" + text).encode("utf-8"))  # and a byte-order mark
    blocks = read_blocks(path)
    assert blocks.problems == [] and [r.content for r in blocks.rows] == ["a\rb"]


def test_a_row_with_content_is_never_dropped_for_its_type(pchunk_logs) -> None:
    lines = [
        json.dumps(META),
        json.dumps(row("kept content")),
        json.dumps({**row("meta-typed text"), "type": "meta"}),
        json.dumps({**row("odd-typed text"), "type": "paragraph"}),
        json.dumps({k: v for k, v in row("untyped text").items() if k != "type"}),
    ]
    blocks = parse_blocks_text("\n".join(lines))
    assert [r.content for r in blocks.rows] == [
        "kept content", "meta-typed text", "odd-typed text", "untyped text"
    ]  # fmt: skip
    assert blocks.meta is not None and blocks.meta["doc_id"] == "doc-x"
    assert [(p.line_number, p.salvaged) for p in blocks.problems] == [
        (3, True), (4, True), (5, True)
    ]  # fmt: skip
    assert "row type 'meta' holds a 'content'" in blocks.problems[0].message


def test_every_unused_line_is_counted_in_one_warning_naming_it(pchunk_logs) -> None:
    lines = [
        json.dumps(META),
        json.dumps(row("first")),
        json.dumps(META),  # a second meta row
        json.dumps({"type": "image", "path": "x.png"}),  # no content
        "[1, 2, 3]",  # not an object
        '{"type": "content", "heading": "H"}',  # content row without content
        "",  # a blank line is no row
        '{"type": "content", "content": "trunc',  # salvaged
        "garbage",
    ]
    blocks = parse_blocks_text("\n".join(lines), "doc.blocks.jsonl")
    assert [r.content for r in blocks.rows] == ["first", "trunc"]
    assert [p.line_number for p in blocks.problems] == [3, 4, 5, 6, 8, 9]
    warnings = {r.getMessage() for r in pchunk_logs.records if r.levelname == "WARNING"}
    assert len(warnings) == 1
    (message,) = warnings
    assert "5 line(s) not used (lines 3-6, 9), 1 read with a repair (lines 8)" in message
    assert all(f"line {n}:" in message for n in (3, 4, 5, 6, 8))
    assert "and 1 more" in message
    debug = [r.getMessage() for r in pchunk_logs.records if r.levelname == "DEBUG"]
    assert any("line 9:" in m for m in debug)


def test_written_rows_read_back_as_they_were(tmp_path):
    from dataclasses import replace

    from lightrag_pchunk.blockfile.jsonl import write_blocks
    from lightrag_pchunk.model import BlockRow

    anchor = {"type": "heading", "anchor": 'Sc"ope'}
    rows = [
        BlockRow(content='# Sc"ope\n\nA \\ b\tc\r\nd 数据 😀 \u2028', heading='Sc"ope',
                 parent_headings=("Top", "数据"), level=2, blockid="b1", positions=(anchor,)),
        BlockRow(content="z", heading="H", level=0, blockid="b4", is_title_block=True),
        BlockRow(content="w", heading="H", level=3, blockid="b5",
                 extra={"session_type": "toc", "k": [1, 2.5]}),
        BlockRow(content="ctl \x01 \x1f \x0c", heading="H\x02", blockid="b6"),
    ]  # fmt: skip
    path = write_blocks(tmp_path / "d.blocks.jsonl", META, rows)
    lines = path.read_text(encoding="utf-8").split("\n")
    assert json.loads(lines[0])["type"] == "meta" and lines[-1] == ""
    read = read_blocks(path)
    assert read.meta is not None and read.meta["doc_id"] == META["doc_id"]
    assert read.rows == [replace(row, line_number=n) for n, row in enumerate(rows, start=2)]


def test_classic_mac_line_ends_are_line_ends_and_the_file_is_read_whole(tmp_path) -> None:
    """A file whose lines end in "\\r" alone was one line: its first row salvaged, the rest
    of the text (98.9% of a corpus file) dropped behind a warning."""
    contents = [f"# Part {n}\nThe text of part {n}, with its own words." for n in range(1, 41)]
    lines = [json.dumps(META), *(json.dumps(row(c)) for c in contents)]
    path = tmp_path / "doc.blocks.jsonl"
    path.write_text("\r".join(lines) + "\r", encoding="utf-8", newline="")
    blocks = read_blocks(path)
    assert blocks.problems == [] and blocks.meta is not None
    assert [r.content for r in blocks.rows] == contents
    assert [r.line_number for r in blocks.rows] == list(range(2, 42))


def test_rows_written_one_after_another_on_one_line_are_each_read(pchunk_logs) -> None:
    text = json.dumps(META) + "\n" + json.dumps(row("one")) + " " + json.dumps(row("two")) + " {"
    blocks = parse_blocks_text(text)
    assert [r.content for r in blocks.rows] == ["one", "two"]
    assert [(p.line_number, p.salvaged) for p in blocks.problems] == [(2, False)]  # the "{"


def test_the_files_content_strings_are_read_without_its_lines() -> None:
    from lightrag_pchunk.blockfile.raw_text import content_strings

    text = "\r".join(
        [json.dumps(META), json.dumps(row('a "quoted"\nline')), '[{"content": "in an array"}]']
    ) + '\n{"type": "content", "content": "trunc\\u00e'  # fmt: skip
    assert content_strings(text) == ('a "quoted"\nline', "in an array", "trunc")
