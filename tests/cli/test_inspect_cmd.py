"""`lightrag-pchunk inspect`: the §12 checks fire on crafted blocks, the stages it shows are the
chunker's, and the HTML report is well-formed and escapes the document's text."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lightrag_pchunk.blockfile.jsonl import merged_text, write_blocks
from lightrag_pchunk.cli.checks import OK, WARN, breadcrumb_check, chunk_checks
from lightrag_pchunk.cli.demo_cmd import example_path
from lightrag_pchunk.cli.inspection import inspect_document
from lightrag_pchunk.cli.main import main
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.request import COMMAND, Flags, Request
from lightrag_pchunk.integration.rows import chunks_to_rows
from lightrag_pchunk.model import BlockRow, Chunk, Thresholds
from lightrag_pchunk.wording import counted


def inspect_blocks(path: Path, counter, size: int = 2000, overlap: int = 100):
    """What ``inspect`` learns of a blocks file, chunked at ``size`` / ``overlap``."""
    request = Request(COMMAND.format("inspect"), blocks=path, flags=Flags(size, overlap))
    return inspect_document(request, counter)[1]


@pytest.fixture(autouse=True)
def _clean_env(clean_p_env):
    yield


def blocks_file(path: Path, rows: list[BlockRow]) -> Path:
    return write_blocks(path, {"doc_id": "doc-test", "parse_engine": "native"}, rows)


def by_name(inspection) -> dict:
    return {check.name: check for check in inspection.checks}


def lines_of(check) -> str:
    return "\n".join([check.summary, *check.details])


def test_the_bundled_example_passes_every_check(parsed_example, cl100k) -> None:
    inspection = inspect_blocks(parsed_example.blocks_path, cl100k)
    checks = by_name(inspection)
    assert [c.status for c in inspection.checks if c.status == WARN] == []
    assert list(checks) == [
        "sidecar",
        "headings",
        "stages",
        "sizes",
        "tails",
        "oversize",
        "tables",
        "crumbs",
        "long",
        "pages",
    ]
    assert "sidecars: tables.json (3), equations.json (1)" in checks["sidecar"].summary
    assert checks["pages"].summary == "the blocks record no pages (not a PDF)"
    assert "levels 1x9, 2x13, 3x2" in checks["headings"].summary
    assert "3 tables, 3 over table_max (1250)" in checks["tables"].summary
    assert checks["crumbs"].summary == (
        "0 broken promises in 7 chunk headings; 3 carry [part n], 2 name a span of sections"
    )
    stage_names = [step.name for step in inspection.steps]
    assert stage_names == [
        "A: blocks",
        "table_slices",
        "bridge",
        "anchor_split",
        "heading_glue",
        "merge",
        "E: chunks",
    ]
    notes = {step.name: step.note for step in inspection.steps}
    assert notes["table_slices"].startswith("2 tables over table_max (1250) -> ")
    assert notes["bridge"] == "no text between two sliced tables of one section"
    assert notes["heading_glue"].startswith("5 heading-only blocks glued")


@pytest.mark.parametrize("size", [500, 2000])
def test_the_stages_shown_are_exactly_the_chunkers(parsed_example, cl100k, size) -> None:
    inspection = inspect_blocks(parsed_example.blocks_path, cl100k, size, 50)
    expected = chunking_by_paragraph_semantic(
        cl100k.tokenizer,
        parsed_example.content,
        size,
        blocks_path=parsed_example.blocks_path,
        chunk_overlap_token_size=50,
    )
    assert chunks_to_rows(inspection.chunks) == expected
    assert inspection.steps[-1].blocks == len(expected)


def test_no_headings_is_a_warning_when_the_text_needs_structure(tmp_path, cl100k) -> None:
    sentence = "A paragraph of a long memo written without any heading style at all. "
    rows = [
        BlockRow(content=sentence * 12, heading="Preface/Uncategorized", level=1),
        BlockRow(content=sentence * 12, heading="", level=1),
    ]
    path = blocks_file(tmp_path / "memo.blocks.jsonl", rows)
    inspection = inspect_blocks(path, cl100k, 200, 20)
    assert len(inspection.chunks) > 1
    headings = by_name(inspection)["headings"]
    assert headings.status == WARN
    assert "no headings recognised" in lines_of(headings)
    assert "1 row with an empty heading" in lines_of(headings)
    # The same text as one short chunk needs no headings.
    short = inspect_blocks(path, cl100k)
    assert len(short.chunks) == 1
    assert "no headings recognised" not in lines_of(by_name(short)["headings"])


def test_abnormal_levels_and_parent_paths_are_warnings(tmp_path, cl100k) -> None:
    rows = [
        BlockRow(content="# Intro\ntext", heading="Intro", level=1),
        BlockRow(content="deep text", heading="Odd", parent_headings=("A", "B", "C"), level=2),
        BlockRow(content="ten", heading="Ten", level=12),
    ]
    inspection = inspect_blocks(blocks_file(tmp_path / "odd.blocks.jsonl", rows), cl100k)
    text = lines_of(by_name(inspection)["headings"])
    assert by_name(inspection)["headings"].status == WARN
    assert "1 row with a level outside 1-9" in text
    assert "more parent headings than their level allows" in text


def test_many_tiny_tails_are_a_warning_with_the_reason(tmp_path, cl100k) -> None:
    # Clauses under twelve different parents can never merge (§9.1 path constraint).
    rows = [
        BlockRow(
            content=f"### {i}.1.1 Clause\nShort clause {i}.",
            heading=f"{i}.1.1 Clause",
            parent_headings=(f"{i} Part", f"{i}.1 Section"),
            level=3,
        )
        for i in range(1, 13)
    ]
    inspection = inspect_blocks(blocks_file(tmp_path / "tails.blocks.jsonl", rows), cl100k)
    tails = by_name(inspection)["tails"]
    assert tails.status == WARN
    assert tails.summary == "12 chunks below small_tail_threshold (250)"
    assert "the parent heading path changes at the next chunk" in lines_of(tails)
    assert "different parent_headings cannot merge" in lines_of(tails)


def chunk(tokens: int, order: int, **kwargs) -> Chunk:
    return Chunk(
        content="x",
        tokens=tokens,
        order=order,
        heading=kwargs.pop("heading", "H"),
        parent_headings=(),
        level=1,
        **kwargs,
    )


def test_a_chunk_over_the_cap_is_a_warning_saying_why() -> None:
    thresholds = Thresholds.from_chunk_size(1000)
    chunks = [
        chunk(900, 0),
        chunk(1300, 1, oversize="unbreakable text"),
        chunk(1100, 2),
    ]
    checks = {c.name: c for c in chunk_checks(chunks, thresholds)}
    oversize = checks["oversize"]
    assert oversize.status == WARN
    assert oversize.summary == "2 chunks over target_max (1000)"
    assert "recorded as unbreakable text" in oversize.details[0]
    assert "not explained: please report it" in oversize.details[1]
    assert checks["sizes"].summary == (
        "1 of 3 chunks in [target_ideal 750, target_max 1000], 0 below, 2 over"
    )


def test_unknown_table_format_and_legacy_suffixes_are_warnings(tmp_path, cl100k) -> None:
    rows = [BlockRow(content='# T\n<table id="t1" format="csv">a,b;c,d</table>', heading="T")]
    inspection = inspect_blocks(blocks_file(tmp_path / "t.blocks.jsonl", rows), cl100k)
    tables = by_name(inspection)["tables"]
    assert tables.status == WARN
    assert "unknown format" in lines_of(tables)
    legacy = breadcrumb_check(rows, [chunk(10, 0, heading="T [表格片段2]")])
    assert legacy.status == WARN and "legacy" in lines_of(legacy)


def test_every_broken_breadcrumb_is_listed_with_its_chunk_and_why(cl100k) -> None:
    rows = [
        BlockRow(content="# 1 Scope\nScope text here.", heading="1 Scope"),
        BlockRow(content="# 2 Terms\nTerms text here.", heading="2 Terms"),
    ]
    both = Chunk(
        "# 1 Scope\nScope text here.\n\n# 2 Terms\nTerms text here.", 12, 0, "1 Scope", (), 1
    )
    alone = Chunk("# 2 Terms\nTerms text here.", 6, 1, "2 Terms [part 2]", (), 1)
    check = breadcrumb_check(rows, [both, alone])
    assert check.status == WARN
    assert check.summary.startswith("2 broken promises in 2 chunk headings")
    assert check.details == (
        "chunk 0 '1 Scope': spans: it holds text of 1 section(s) outside '1 Scope', such as "
        "'2 Terms'",
        "chunk 1 '2 Terms [part 2]': part: [part 2] on the only chunk of its heading",
    )
    ok = breadcrumb_check(rows, [Chunk("# 1 Scope\nScope text here.", 6, 0, "1 Scope", (), 1)])
    assert ok.status == OK


def test_cli_writes_the_report_to_the_current_folder_by_default(
    tmp_path, capsys, monkeypatch
) -> None:
    (tmp_path / "in").mkdir()
    source = shutil.copy(example_path(), tmp_path / "in" / "standard.docx")
    monkeypatch.chdir(tmp_path)
    code = main(["inspect", str(source)])
    out = capsys.readouterr().out
    assert code == 0
    assert (tmp_path / "standard.inspect.html").is_file()
    assert not (tmp_path / "in" / "standard.inspect.html").exists()
    assert out.rstrip().endswith("HTML report: standard.inspect.html")
    # The first line: what the SDK would do with this file, and why.
    assert out.startswith(
        "standard.docx: P (standard.docx goes to pchunk/P (LIGHTRAG_PARSER unset: the default rule"
    )
    assert "OK    sidecar   §12.1" in out
    assert "7 chunks, no warnings." in out
    assert main(["inspect", str(source), "--html", str(tmp_path / "in" / "r.html")]) == 0
    assert (tmp_path / "in" / "r.html").is_file()


def test_inspect_says_when_the_file_would_get_r(tmp_path, capsys) -> None:
    source = shutil.copy(example_path(), tmp_path / "memo.[native-R].docx")
    assert main(["inspect", str(source), "--no-html"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("memo.[native-R].docx: recursive_character, P does not apply: ")
    assert "file-name hint [native-R] selects R" in first


def test_a_file_routed_to_r_shows_p_at_the_p_settings_of_its_route(
    tmp_path, capsys, monkeypatch
) -> None:
    # The rule's P(...) is this file's P size (the settings line says so) though its hint
    # routes it to R: what P would make of it is shown at that size, not at the default.
    monkeypatch.setenv("LIGHTRAG_PARSER", "md:pchunk-P(chunk_ts=300)")
    source = tmp_path / "guide.[native-R].md"
    source.write_text("# Guide\n\nThe operator reads the meter every morning.\n")
    assert main(["inspect", str(source), "--no-html"]) == 0
    out = capsys.readouterr().out
    rule = "LIGHTRAG_PARSER rule 1 ('md:pchunk-P(chunk_ts=300)')"
    assert f"settings: size=300 ({rule})" in out
    assert f"guide.[native-R].md: P checks, size 300 ({rule}), overlap 100 (default)" in out


def test_a_text_read_as_written_is_not_called_empty(tmp_path, capsys, monkeypatch) -> None:
    # LightRAG's legacy engine stores a Markdown file's text as written, and P has no
    # blocks to check; the text is there all the same.
    monkeypatch.setenv("LIGHTRAG_PARSER", "md:legacy")
    source = tmp_path / "guide.md"
    source.write_text("# Guide\n\nThe operator reads the meter every morning.\n")
    assert main(["inspect", str(source), "--no-html"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("guide.md: recursive_character, P does not apply: ")
    assert "text read as written: the legacy engine writes no blocks we read" in out
    assert "has no text" not in out
    assert "guide.md: R's chunks (P did not run)" in out and "\n1 chunk, no warnings." in out


def test_a_document_that_gets_r_shows_r_s_chunks(tmp_path, capsys, monkeypatch) -> None:
    # Over P's work budget, P falls back to R: the checks are of the chunks R makes.
    rows = [
        BlockRow(f"# Part {n}\nThe operator reads meter {n} every morning.", f"Part {n}", (), 1)
        for n in range(3)
    ]
    path = blocks_file(tmp_path / "meters.blocks.jsonl", rows)
    monkeypatch.setenv("LIGHTRAG_PCHUNK_MAX_BLOCKS", "2")
    assert main(["inspect", str(path), "--no-html"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("meters.blocks.jsonl: fallback to recursive_character: over P's")
    assert "meters.blocks.jsonl: R's chunks (P did not run), size 2000, overlap 100" in out
    assert "the stages did not run (R made the chunks)" in out
    # A long block's one heading path on its chunks is P's promise: R's chunks carry none.
    assert "heading-like lines" not in out
    assert "P checks" not in out and out.rstrip().endswith("1 chunk, no warnings.")


def test_every_suffix_we_parse_gets_p_when_lightrag_parser_is_unset(tmp_path, capsys) -> None:
    guide = tmp_path / "guide.markdown"  # LightRAG's native engine reads .md only
    guide.write_text("# Guide\n\nThe operator reads the meter every morning.\n")
    macros = shutil.copy(example_path(), tmp_path / "macros.docm")
    for source in (guide, macros):
        assert main(["inspect", str(source), "--no-html"]) == 0
        first = capsys.readouterr().out.splitlines()[0]
        suffix = source.suffix.lstrip(".")
        assert first.startswith(
            f"{source.name}: P ({source.name} goes to pchunk/P "
            f"(LIGHTRAG_PARSER unset: the default rule '{suffix}:pchunk-P'))"
        ), first


def test_cli_exit_codes(tmp_path, capsys) -> None:
    memo = [BlockRow(content="No heading here.", heading="", level=1)]  # WARN: empty heading
    path = blocks_file(tmp_path / "memo.blocks.jsonl", memo)
    assert main(["inspect", str(path), "--no-html"]) == 0
    assert main(["inspect", str(path), "--no-html", "--strict"]) == 1
    assert not (tmp_path / "memo.inspect.html").exists()
    empty = blocks_file(tmp_path / "empty.blocks.jsonl", [])
    capsys.readouterr()
    assert main(["inspect", str(empty), "--html", str(tmp_path / "e.html")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("empty.blocks.jsonl: empty: the document has no text, nothing to chunk")
    assert "INFO  sidecar" in out and "empty: the document has no text" in out
    assert (tmp_path / "e.html").is_file()
    assert main(["inspect", str(path), "--size", "10", "--overlap", "10"]) == 2


def test_blocks_folder_input_and_content_text(parsed_example, capsys) -> None:
    code = main(["inspect", str(parsed_example.parsed_dir), "--no-html", "--size", "1000"])
    out = capsys.readouterr().out
    assert code == 0
    assert "size 1000 (--size), overlap 100 (default)" in out
    assert merged_text(parsed_example.rows) == parsed_example.content


@pytest.mark.parametrize("setting", ["CHUNK_P_DROP_TOC", "CHUNK_P_DROP_REFERENCES"])
def test_inspect_shows_the_chunks_chunk_makes_when_a_setting_drops_rows(
    tmp_path, monkeypatch, capsys, setting
) -> None:
    rows = [
        BlockRow("# Contents\nScope\t1\nTerms\t2", "Contents", (), 1, "b0",
                 extra={"session_type": "toc"}),
        BlockRow("# Scope\nThe pump shall stop when the door opens.", "Scope", (), 1, "b1"),
        BlockRow("# References\n[1] Cold Store Handbook, 2019.", "References", (), 1, "b2"),
    ]  # fmt: skip
    path = blocks_file(tmp_path / "doc.blocks.jsonl", rows)
    monkeypatch.setenv(setting, "true")
    assert main(["chunk", str(path), "--json"]) == 0
    chunked = capsys.readouterr().out
    report = tmp_path / "doc.html"
    assert main(["inspect", str(path), "--html", str(report)]) == 0
    inspected = capsys.readouterr().out
    dropped = "Terms" if setting == "CHUNK_P_DROP_TOC" else "Handbook"
    assert dropped not in chunked
    assert dropped not in report.read_text(encoding="utf-8")
    assert f"\n{counted(len(chunked.splitlines()), 'chunk')}, " in inspected


def test_a_long_block_holding_heading_like_lines_is_a_warning_naming_them(tmp_path, cl100k):
    said = (
        "The operator reads the meter every morning and writes the value into the log "
        "book, so that the engineer can compare it with the value of the day before."
    )
    body = [said] * 40 + ["Cleaning the filters"] + [said] * 40
    rows = [BlockRow(content="\n".join(["# Operation", *body]), heading="Operation")]
    inspection = inspect_blocks(blocks_file(tmp_path / "t.blocks.jsonl", rows), cl100k, 300)
    long = by_name(inspection)["long"]
    assert long.status == WARN
    assert long.summary == "1 block over 1200 tokens holds heading-like lines"
    assert long.details[0].startswith("'Operation' (line 2, ")
    assert long.details[0].endswith("tokens): 'Cleaning the filters'")
    # At a size the block fits four times over, nothing to say.
    assert by_name(inspect_blocks(tmp_path / "t.blocks.jsonl", cl100k, 2000))["long"].status == OK


@pytest.mark.parametrize(
    ("document_format", "warned"), [("docx", True), ("md", False), ("markdown", False)]
)
def test_a_numbered_line_of_a_long_block_is_a_list_item_in_any_markdown_suffix(
    tmp_path, cl100k, document_format, warned
):
    # The meta row names the document by its suffix; the format registry says which suffix
    # is Markdown's, where "1. Cleaning the filters" is a list item by its syntax.
    said = "The operator reads the meter every morning and writes the value into the log book."
    body = [said] * 60 + ["1. Cleaning the filters"] + [said] * 60
    rows = [BlockRow(content="\n".join(["# Operation", *body]), heading="Operation")]
    meta = {"doc_id": "doc-test", "parse_engine": "native", "document_format": document_format}
    path = write_blocks(tmp_path / "t.blocks.jsonl", meta, rows)
    assert (by_name(inspect_blocks(path, cl100k, 300))["long"].status == WARN) is warned
