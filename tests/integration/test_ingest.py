"""``ainsert_files`` against a real LightRAG: per-file outcomes, failures, replace, progress."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from docx import Document
from lightrag_helpers import offline_lightrag as lightrag

from lightrag_pchunk.cli.offline_models import no_extraction_llm
from lightrag_pchunk.integration.ingest import ainsert_files
from lightrag_pchunk.integration.ingest_report import FileResult, ProgressBar
from lightrag_pchunk.integration.registry import open_registry
from lightrag_pchunk.integration.routing import ParserRoutingConfigError
from lightrag_pchunk.naming import doc_id_for

from invariants import assert_no_word_lost


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, fresh_lightrag_state):
    for name in ("LIGHTRAG_PARSER", "CHUNK_P_SIZE", "CHUNK_P_OVERLAP_SIZE"):
        monkeypatch.delenv(name, raising=False)


def write_docx(path: Path, title: str = "Handbook", body: str = "Plain body text.") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    document = Document()
    document.add_heading(title, level=1)
    for n in range(1, 4):
        document.add_heading(f"{n} Section {n}", level=2)
        document.add_paragraph(f"{body} Paragraph {n} of the {title.lower()}.")
    document.save(str(path))
    return path


async def status_of(rag, path: Path | str) -> dict | None:
    return await rag.doc_status.get_by_id(doc_id_for(path))


async def test_each_file_is_reported_and_a_failure_does_not_stop_the_others(tmp_path) -> None:
    inputs = tmp_path / "in"
    good = write_docx(inputs / "good.docx")
    corrupt = inputs / "corrupt.docx"
    corrupt.write_bytes(b"PK\x03\x04 this is not a zip")
    pdf = inputs / "paper.pdf"
    pdf.write_bytes(b"%PDF-1.4")  # a header and nothing else
    slides = inputs / "deck.pptx"
    slides.write_bytes(b"PK\x03\x04 slides")
    hint = write_docx(inputs / "bad.[native-x].docx")
    notes = inputs / "notes.txt"
    notes.write_text("Meeting notes.\n\nSecond paragraph.", encoding="utf-8")
    files = [good, inputs / "absent.docx", corrupt, pdf, slides, hint, notes]
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, files, progress=False)
        assert [r.status for r in report.results] == [
            "inserted", "failed", "failed", "failed", "failed", "failed", "inserted",
        ]  # fmt: skip
        assert [r.path for r in report.results] == files
        for result in report.failed:
            assert await status_of(rag, result.path) is None  # nothing of it in LightRAG
        assert (await status_of(rag, good))["status"] == "processed"
    messages = {r.path.name: r.message for r in report.results}
    assert messages["absent.docx"] == "no such file"
    assert "cannot parse" in messages["corrupt.docx"] and "corrupt.docx" in messages["corrupt.docx"]
    assert "PDFium cannot read it" in messages["paper.pdf"] and "[broken]" in messages["paper.pdf"]
    assert "cannot read .pptx files" in messages["deck.pptx"]
    assert "unsupported character 'x'" in messages["bad.[native-x].docx"]
    assert [r.strategy for r in report.results if r.ok] == ["P", "R"]
    assert not report.ok and len(report.failed) == 5


async def test_a_document_lightrag_fails_to_process_is_removed_again(tmp_path) -> None:
    async def llm(prompt: str, system_prompt: str | None = None, **kwargs: Any) -> str:
        if "EXPLODE" in prompt:
            raise RuntimeError("the model refused")
        return await no_extraction_llm(prompt, system_prompt, **kwargs)

    bad = write_docx(tmp_path / "in" / "bad.docx", body="EXPLODE")
    good = write_docx(tmp_path / "in" / "good.docx")
    async with lightrag(tmp_path / "rag", llm_model_func=llm) as rag:
        report = await ainsert_files(rag, [bad, good], progress=False)
        [failed, inserted] = report.results
        assert failed.status == "failed" and "the model refused" in failed.message
        assert inserted.status == "inserted"
        assert await status_of(rag, bad) is None
        chunk_ids = [f"{doc_id_for(bad)}-chunk-{i:03d}" for i in range(3)]
        assert [c for c in await rag.text_chunks.get_by_ids(chunk_ids) if c] == []
    assert open_registry(tmp_path / "rag").by_doc_id(doc_id_for(bad)) is None


async def test_a_changed_file_needs_replace(tmp_path) -> None:
    path = write_docx(tmp_path / "in" / "report.docx", body="First version.")
    async with lightrag(tmp_path / "rag") as rag:
        [first] = (await ainsert_files(rag, [path], progress=False)).results
        write_docx(path, body="Second version, rewritten.")
        [refused] = (await ainsert_files(rag, [path], progress=False)).results
        assert refused.status == "failed" and "replace=True" in refused.message
        [replaced] = (await ainsert_files(rag, [path], replace=True, progress=False)).results
        assert replaced.status == "replaced"
        stored = await rag.full_docs.get_by_id(first.doc_id)
    assert "Second version" in stored["content"] and "First version" not in stored["content"]


async def test_setup_errors_stop_before_any_file_is_touched(tmp_path, monkeypatch) -> None:
    from lightrag.chunker import chunking_by_token_size

    path = write_docx(tmp_path / "in" / "report.docx")
    async with lightrag(tmp_path / "rag", chunking_func=chunking_by_token_size) as rag:
        with pytest.raises(ValueError, match=r"chunking_func=lightrag_pchunk\.chunking_func"):
            await ainsert_files(rag, [path], progress=False)
    monkeypatch.setenv("LIGHTRAG_PARSER", "docx:native-P;md:")
    async with lightrag(tmp_path / "rag2") as rag:
        with pytest.raises(ParserRoutingConfigError, match=r"rule 2 \('md:'\)"):
            await ainsert_files(rag, [path], progress=False)
    assert not (tmp_path / "rag" / "__parsed__").exists()
    assert not (tmp_path / "rag2" / "__parsed__").exists()


async def test_options_only_hint_keeps_p_and_passes_skip_kg(tmp_path) -> None:
    path = write_docx(tmp_path / "in" / "memo.[-!].docx")
    async with lightrag(tmp_path / "rag") as rag:
        [result] = (await ainsert_files(rag, [path], progress=False)).results
        status = await status_of(rag, "memo.docx")
        chunks = await rag.text_chunks.get_by_ids(status["chunks_list"])
    assert result.strategy == "P" and result.status == "inserted"
    assert status["metadata"]["process_options"] == "!"
    assert all(not c["llm_cache_list"] for c in chunks)  # "!": LightRAG extracted nothing
    assert all(c["heading"] for c in chunks)


MARKDOWN = (
    "# Notes\n\nSome text.\n\n## 1 Setup\n\n```sh\npip install x\n\npip check\n```\n\n"
    "| Key | Value |\n|---|---|\n| a | 1 |\n"
)


async def test_markdown_is_parsed_natively_and_chunked_with_p_by_default(tmp_path) -> None:
    notes = tmp_path / "in" / "notes.md"
    notes.parent.mkdir(parents=True)
    notes.write_text(MARKDOWN, encoding="utf-8")
    async with lightrag(tmp_path / "rag") as rag:
        [result] = (await ainsert_files(rag, [notes], progress=False)).results
        chunks = [
            chunk
            for chunk in (await rag.text_chunks.get_by_ids(await _chunk_ids(rag, result.doc_id)))
            if chunk
        ]
    assert (result.status, result.strategy) == ("inserted", "P")
    entry = open_registry(tmp_path / "rag").by_doc_id(result.doc_id)
    assert entry.blocks_path is not None and entry.blocks_path.name == "notes.blocks.jsonl"
    assert entry.reason == (
        "notes.md goes to pchunk/P (LIGHTRAG_PARSER unset: the default rule 'md:pchunk-P')"
    )
    text = "\n\n".join(chunk["content"] for chunk in chunks)
    assert "```sh\npip install x\npip check\n```" in text  # the code block stays whole
    assert '"Key", "Value"' in text and "heading" in chunks[0]


async def test_a_markdown_file_routed_to_legacy_gets_r_on_its_raw_text(tmp_path, monkeypatch):
    monkeypatch.setenv("LIGHTRAG_PARSER", "md:legacy")
    notes = tmp_path / "in" / "notes.md"
    notes.parent.mkdir(parents=True)
    notes.write_text(MARKDOWN, encoding="utf-8")
    async with lightrag(tmp_path / "rag") as rag:
        [result] = (await ainsert_files(rag, [notes], progress=False)).results
    assert (result.status, result.strategy) == ("inserted", "R")
    assert open_registry(tmp_path / "rag").by_doc_id(result.doc_id).blocks_path is None


async def test_a_document_routed_to_r_is_cut_at_rs_own_size(tmp_path, monkeypatch):
    # The decision and the record take CHUNK_R_SIZE; the chunks, cut later by chunking_func
    # whose call carries the fixed-token size (1200 here), must take it too.
    monkeypatch.setenv("LIGHTRAG_PARSER", "md:legacy")
    monkeypatch.setenv("CHUNK_R_SIZE", "60")
    monkeypatch.setenv("CHUNK_R_OVERLAP_SIZE", "10")  # under the size, as LightRAG's R needs
    notes = tmp_path / "in" / "notes.md"
    notes.parent.mkdir(parents=True)
    paragraphs = (f"Paragraph {i} " + "word " * 40 for i in range(6))
    notes.write_text("\n\n".join(paragraphs), encoding="utf-8")
    async with lightrag(tmp_path / "rag") as rag:
        [result] = (await ainsert_files(rag, [notes], progress=False)).results
        rows = [await rag.text_chunks.get_by_id(i) for i in await _chunk_ids(rag, result.doc_id)]
    assert (result.status, result.strategy, result.chunks) == ("inserted", "R", 6)
    assert all(row["tokens"] <= 60 for row in rows)


async def _chunk_ids(rag, doc_id: str) -> list[str]:
    status = await rag.doc_status.get_by_id(doc_id)
    return list(status.get("chunks_list") or [])


async def test_progress_is_reported_per_file(tmp_path) -> None:
    files = [write_docx(tmp_path / "in" / f"doc{i}.docx", title=f"Doc {i}") for i in range(2)]
    calls: list[tuple[int, int, FileResult]] = []
    async with lightrag(tmp_path / "rag") as rag:
        await ainsert_files(rag, files, progress=lambda *args: calls.append(args))
    assert [(done, total, r.path) for done, total, r in calls] == [
        (1, 2, files[0]),
        (2, 2, files[1]),
    ]


def test_progress_bar_draws_one_line_per_file_when_not_a_terminal(tmp_path) -> None:
    stream = io.StringIO()
    bar = ProgressBar(2, stream=stream, width=4)
    bar(1, 2, FileResult(tmp_path / "a.docx", "inserted", "doc-a", "P", 3))
    bar(2, 2, FileResult(tmp_path / "b.docx", "failed", message="no such file"))
    assert stream.getvalue().splitlines() == [
        "[##..] 1/2 a.docx: inserted (P, 3 chunks)",
        "[####] 2/2 b.docx: FAILED: no such file",
    ]


async def test_replace_inserts_an_unchanged_file_again_with_new_settings(
    tmp_path, monkeypatch
) -> None:
    path = write_docx(tmp_path / "in" / "report.docx", body="Words. " * 300)
    async with lightrag(tmp_path / "rag") as rag:
        [first] = (await ainsert_files(rag, [path], progress=False)).results
    monkeypatch.setenv("CHUNK_P_SIZE", "150")  # read when the next instance is created
    async with lightrag(tmp_path / "rag") as rag:
        [same] = (await ainsert_files(rag, [path], progress=False)).results
        [again] = (await ainsert_files(rag, [path], replace=True, progress=False)).results
    assert (first.status, same.status, again.status) == ("inserted", "stale", "replaced")
    assert same.changes == ("size 2000 -> 150",)
    assert again.chunks > first.chunks == same.chunks


async def test_an_unexpected_error_costs_only_its_own_file(tmp_path, monkeypatch) -> None:
    from lightrag_pchunk.parse.document import parse_docx

    def flaky_parser(path, output_dir, doc_id=None):
        if "broken" in Path(path).name:
            raise RuntimeError("parser bug")
        return parse_docx(path, output_dir, doc_id=doc_id)

    files = [write_docx(tmp_path / "in" / "broken.docx"), write_docx(tmp_path / "in" / "ok.docx")]
    async with lightrag(tmp_path / "rag") as rag:
        with pytest.raises(RuntimeError, match="parser bug"):  # the test suite's strict mode
            await ainsert_files(rag, files, parse_docx=flaky_parser, progress=False)
        monkeypatch.delenv("LIGHTRAG_PCHUNK_STRICT")
        report = await ainsert_files(rag, files, parse_docx=flaky_parser, progress=False)
    assert [r.status for r in report.results] == ["failed", "inserted"]
    assert "RuntimeError: parser bug" in report.results[0].message


async def test_parse_docx_replaces_the_parser_of_every_word_suffix(tmp_path) -> None:
    # The format registry says which files are Word's: .docm, .dotx and .dotm too.
    from lightrag_pchunk.parse.document import parse_docx

    parsed = []

    def own_parser(path, output_dir, doc_id=None):
        parsed.append(Path(path).name)
        return parse_docx(path, output_dir, doc_id=doc_id)

    docx = write_docx(tmp_path / "in" / "plain.docx", title="Plain")
    macros = tmp_path / "in" / "macros.docm"  # the same package under Word's macro suffix
    write_docx(tmp_path / "macros.docx", title="Macros").rename(macros)
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, [docx, macros], parse_docx=own_parser, progress=False)
    assert [r.status for r in report.results] == ["inserted", "inserted"]
    assert parsed == ["plain.docx", "macros.docm"]


async def test_every_suffix_we_parse_gets_our_parser_and_p_when_lightrag_parser_is_unset(
    tmp_path,
) -> None:
    # LightRAG's own native engine reads .docx and .md only; the default route is ours.
    guide = tmp_path / "in" / "guide.markdown"
    guide.parent.mkdir(parents=True)
    guide.write_text(MARKDOWN, encoding="utf-8")
    macros = tmp_path / "in" / "macros.docm"
    write_docx(tmp_path / "macros.docx", title="Macros").rename(macros)
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, [macros, guide], progress=False)
    assert [(r.status, r.strategy) for r in report.results] == [("inserted", "P")] * 2
    registry = open_registry(tmp_path / "rag")
    assert [registry.by_doc_id(r.doc_id).reason for r in report.results] == [
        "macros.docm goes to pchunk/P (LIGHTRAG_PARSER unset: the default rule 'docm:pchunk-P')",
        "guide.markdown goes to pchunk/P "
        "(LIGHTRAG_PARSER unset: the default rule 'markdown:pchunk-P')",
    ]


async def test_the_same_text_under_a_second_name_is_refused_and_the_first_keeps_its_blocks(
    tmp_path,
) -> None:
    first = write_docx(tmp_path / "in" / "first.docx")
    copy = tmp_path / "in" / "copy.docx"
    copy.write_bytes(first.read_bytes())
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, [first, copy], progress=False)
    assert [r.status for r in report.results] == ["inserted", "failed"]
    assert "Identical content already exists" in report.results[1].message
    registry = open_registry(tmp_path / "rag")
    assert registry.by_doc_id(doc_id_for(copy)) is None
    kept = registry.by_doc_id(doc_id_for(first))
    assert kept is not None and kept.blocks_path.is_file()


async def insert_and_read_back(tmp_path: Path, source: Path) -> tuple[FileResult, str]:
    """Insert one file; its result and the text of the chunks LightRAG stored for it."""
    async with lightrag(tmp_path / "rag") as rag:
        (result,) = (await ainsert_files(rag, [source], progress=False)).results
        record = await rag.doc_status.get_by_id(doc_id_for(source)) or {}
        stored = await rag.text_chunks.get_by_ids(record.get("chunks_list") or [])
    return result, "\n".join(chunk["content"] for chunk in stored)


# -- honest reports: concurrency, no silent loss ------------------------------------------------


async def test_concurrent_calls_on_one_instance_each_report_their_own_file(tmp_path) -> None:
    files = [
        write_docx(tmp_path / "in" / f"doc{i}.docx", f"Document {i}", "Words. " * (5 + i))
        for i in range(10)
    ]
    async with lightrag(tmp_path / "rag") as rag:
        reports = await asyncio.gather(
            *(ainsert_files(rag, [path], progress=False) for path in files)
        )
        for path, report in zip(files, reports, strict=True):
            (result,) = report.results
            record = await rag.doc_status.get_by_id(doc_id_for(path))
            assert record["status"] == "processed"
            assert (result.status, result.chunks) == ("inserted", record["chunks_count"]), (
                result.describe()
            )
            assert result.chunks > 0 and result.strategy == "P"


def write_docx_text(path: Path, *paragraphs: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    document = Document()
    document.add_heading("Handbook", level=1)
    for text in paragraphs:
        document.add_paragraph(text)
    document.save(str(path))
    return path


REGULATION = [
    "第一章 总则",
    "第一条 为加强公司安全生产管理，制定本办法。",
    "第二条 本办法适用于全体员工。",
    "第二章 管理职责",
    "第三条 安全委员会负责统筹协调。",
]


def write_regulation(path: Path) -> Path:
    document = Document()
    for line in REGULATION:
        document.add_paragraph(line)
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))
    return path


@pytest.mark.parametrize(
    ("rules", "name", "env", "expected"),
    [
        (None, "reg.docx", {}, ["第一章 总则", "第一条", "第二条", "第二章 管理职责", "第三条"]),
        (None, "reg.docx", {"DOCX_SMART_HEADING": "false"}, ["Preface/Uncategorized"]),
        ("docx:native(smart_heading=false)-P", "reg.docx", {}, ["Preface/Uncategorized"]),
        (
            "docx:native(smart_heading=false)-P",
            "reg.[native(smart_heading=true)-P].docx",
            {"DOCX_SMART_HEADING": "false"},
            ["第一章 总则", "第一条", "第二条", "第二章 管理职责", "第三条"],
        ),
    ],
)
async def test_smart_heading_follows_rules_hints_and_the_environment(
    tmp_path, monkeypatch, rules, name, env, expected
) -> None:
    if rules:
        monkeypatch.setenv("LIGHTRAG_PARSER", rules)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    path = write_regulation(tmp_path / "in" / name)
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, [path], progress=False)
    assert report.ok and report.results[0].strategy == "P", report.results[0].describe()
    blocks = next((tmp_path / "rag" / "__parsed__").glob("*/*.blocks.jsonl"))
    rows = [json.loads(line) for line in blocks.read_text(encoding="utf-8").splitlines()[1:]]
    assert [row["heading"] for row in rows] == expected


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85"], ids=lambda c: f"U+{ord(c):04X}")
def test_a_line_breaker_in_the_text_goes_through_parse_chunk_and_lightrag_rows(
    char, tmp_path, cl100k_tokenizer
) -> None:
    from lightrag_pchunk.blockfile.jsonl import read_blocks
    from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
    from lightrag_pchunk.parse.document import parse_docx

    source = write_docx_text(
        tmp_path / "in" / "doc.docx",
        f"Words before the break{char}and the words after it.",
        f"A second paragraph{char}{char}ending here.",
    )
    parsed = parse_docx(source, tmp_path / "out")
    assert char in parsed.blocks_path.read_text(encoding="utf-8")  # written raw
    assert read_blocks(parsed.blocks_path).problems == []
    rows = chunking_by_paragraph_semantic(
        cl100k_tokenizer, parsed.content, 2000, blocks_path=parsed.blocks_path
    )
    contents = [r["content"] for r in rows]
    assert_no_word_lost([r.content for r in parsed.rows], contents)
    assert "after it" in contents[0] and "ending here" in contents[0]


async def test_ingest_of_a_document_holding_u2028_keeps_every_word(tmp_path) -> None:
    source = write_docx_text(
        tmp_path / "in" / "u2028.docx",
        *(f"Clause {n} text before\u2028clause {n} text after the separator." for n in range(40)),
    )
    result, text = await insert_and_read_back(tmp_path, source)
    assert result.status == "inserted", result.describe()
    assert all(f"clause {n} text after" in text for n in range(40))


@pytest.fixture
def lossy_chunker(monkeypatch):
    """A P chunker with a bug: it drops the last chunk of every document."""
    from lightrag_pchunk.integration import front_door

    real = front_door.chunk_rows
    monkeypatch.setattr(
        front_door, "chunk_rows", lambda rows, ctx, **kw: real(rows, ctx, **kw)[:-1]
    )


async def test_a_shortfall_is_a_failure_with_the_count_never_inserted(
    tmp_path, lossy_chunker
) -> None:
    source = write_docx(tmp_path / "in" / "lossy.docx", "Lossy")
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, [source], progress=False)
        (result,) = report.results
        assert result.status == "failed" and not report.ok
        assert re.search(r"^its chunks lost \d+ words \(e\.g\. '", result.message)
        assert "lossy.[native-R].docx" in result.message
        assert await rag.doc_status.get_by_id(doc_id_for(source)) is None  # removed again


async def test_words_a_setting_drops_on_purpose_are_no_shortfall(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CHUNK_P_DROP_REFERENCES", "true")
    path = tmp_path / "in" / "paper.docx"
    path.parent.mkdir(parents=True)
    document = Document()
    document.add_heading("Paper", level=1)
    document.add_paragraph("The finding is stated here. " * 5)
    document.add_heading("References", level=1)
    document.add_paragraph("[1] Someone, Some Title, 1999.")
    document.save(str(path))
    result, text = await insert_and_read_back(tmp_path, path)
    assert result.status == "inserted", result.describe()
    assert "Someone" not in text and "The finding" in text


async def test_a_fifo_a_folder_and_a_name_too_long_fail_with_their_reason(tmp_path) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    fifo, folder = inputs / "pipe.md", inputs / "folder.md"
    os.mkfifo(fifo)
    folder.mkdir()
    long_name = inputs / ("a" * 250 + ".md")
    long_name.write_text("# T\n\nText.\n", encoding="utf-8")
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, [fifo, folder, long_name], progress=False)
    messages = [r.message for r in report.results]
    assert [r.status for r in report.results] == ["failed"] * 3
    assert messages[0] == "a FIFO (named pipe), not a regular file"
    assert messages[1] == "a folder, not a file"
    assert "cannot parse" in messages[2] and "[name-too-long]" in messages[2]


async def test_files_over_the_work_budget_fail_in_one_line_and_the_rest_is_inserted(
    tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("LIGHTRAG_PCHUNK_MAX_BLOCKS", "100")
    monkeypatch.setenv("LIGHTRAG_PCHUNK_MAX_LINES", "400")
    inputs = tmp_path / "in"
    inputs.mkdir()
    headings = inputs / "headings.md"
    headings.write_text("".join(f"# H{i}\n" for i in range(101)), encoding="utf-8")
    paragraphs = inputs / "paragraphs.docx"
    document = Document()
    for i in range(401):
        document.add_paragraph(f"w{i}")
    document.save(str(paragraphs))
    fine = write_docx(inputs / "fine.docx")
    async with lightrag(tmp_path / "rag") as rag:
        report = await ainsert_files(rag, [headings, paragraphs, fine], progress=False)
        assert await status_of(rag, headings) is None
    statuses = [r.status for r in report.results]
    assert statuses == ["failed", "failed", "inserted"], report.results
    messages = [r.message for r in report.results]
    assert (
        "the document has 101 blocks (a heading opens each), over the 100 one document may"
        " have (raise LIGHTRAG_PCHUNK_MAX_BLOCKS if it is genuine) [output-budget]" in messages[0]
    )
    assert "has more than 400 lines, the most one document may have" in messages[1]
    assert all("\n" not in message for message in messages)
