"""parse_docx: LightRAG's artefact layout, meta and row formats, doc ids and blockids,
idempotent re-parses, hostile input end to end, and agreement with LightRAG 1.5.7."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import os
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from lightrag_pchunk.blockfile.jsonl import read_blocks
from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.document import parse_docx
from lightrag_pchunk.parse.limits import PackageLimits

from docx_builders import (
    DOCM_MAIN,
    DOTX_MAIN,
    PNG_1PX,
    build_zip,
    docx_bytes,
    docx_entries,
    para,
    paragraph,
    rich_docx_bytes,
    table,
    write_rich_docx,
)
from sample_docs import write_mixed_document

META_KEYS = [
    "type", "format", "version", "document_name", "document_format", "document_hash",
    "table_file", "equation_file", "drawing_file", "asset_dir", "blocks", "doc_id",
    "parse_engine", "parse_time", "doc_title", "parser", "outline",
]  # fmt: skip
ROW_KEYS = [
    "type", "blockid", "format", "content", "heading", "parent_headings", "level",
    "session_type", "table_slice", "positions",
]  # fmt: skip
PICTURE = (
    '<w:r><w:drawing><wp:inline><wp:docPr id="1" name="p" descr="logo"/><a:graphic>'
    '<a:graphicData><pic:pic><pic:blipFill><a:blip r:embed="rIdPic"/></pic:blipFill>'
    "</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"
)


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() if p.is_file() else b"<dir>"
        for p in sorted(root.rglob("*"))
    }


# -- layout, ids and formats -------------------------------------------------------------------


def test_default_location_name_hint_and_doc_id_follow_lightrag(tmp_path):
    source = tmp_path / "inbox" / "report.[native-P].docx"
    source.parent.mkdir()
    source.write_bytes(docx_bytes(paragraph("Hello")))
    parsed = parse_docx(source)
    assert parsed.parsed_dir == tmp_path / "inbox" / "__parsed__" / "report.docx.parsed"
    assert parsed.blocks_path == parsed.parsed_dir / "report.blocks.jsonl"
    assert parsed.doc_id == "doc-" + hashlib.md5(b"report.docx").hexdigest()
    assert parsed.meta["document_name"] == "report.docx"
    assert sorted(p.name for p in parsed.parsed_dir.iterdir()) == ["report.blocks.jsonl"]


def test_meta_and_row_keys_in_lightrags_order_and_content_matches_the_rows(tmp_path):
    source = write_mixed_document(tmp_path / "mixed.docx")
    parsed = parse_docx(source, tmp_path / "out", doc_id="doc-0123")
    meta, *rows = lines_of(parsed.blocks_path)
    assert list(meta) == META_KEYS
    assert all(list(row) == ROW_KEYS for row in rows)
    assert meta["parse_engine"] == "native"
    assert meta["parser"].startswith("lightrag-pchunk ")
    assert meta["blocks"] == len(rows) == parsed.blocks
    assert meta["table_file"] is True and parsed.tables == 3
    assert parsed.content == "\n\n".join(row["content"] for row in rows)
    digest = hashlib.sha256(parsed.content.encode("utf-8")).hexdigest()
    assert meta["document_hash"] == f"sha256:{digest}"
    raw = parsed.blocks_path.read_text(encoding="utf-8")
    assert raw.endswith("\n") and "中文条款" in raw  # UTF-8, ensure_ascii=False
    for index, row in enumerate(rows):
        expected = f"doc-0123:{index}:{row['heading']}:{row['content']}"
        assert row["blockid"] == hashlib.md5(expected.encode("utf-8")).hexdigest()
    read_back = [replace(row, line_number=0) for row in read_blocks(parsed.blocks_path).rows]
    assert read_back == list(parsed.rows)


def test_sidecar_items_name_their_block_and_ids_count_per_kind(tmp_path):
    body = (
        para("Intro ", PICTURE)
        + para("Chapter", style="Heading1")
        + table([["Name", "Value"], ["a", "1"]])
        + para("<m:oMath><m:r><m:t>y</m:t></m:r></m:oMath>")
        + table([["Name", "Value"], ["c", "2"]])
    )
    source = write_rich_docx(tmp_path / "s.docx", body, media={"rIdPic": PNG_1PX})
    parsed = parse_docx(source, tmp_path / "out", doc_id="doc-ab")
    by_kind = {
        kind: json.loads((parsed.parsed_dir / f"s.{kind}.json").read_text())[kind]
        for kind in ("tables", "equations", "drawings")
    }
    assert list(by_kind["tables"]) == ["tb-ab-0001", "tb-ab-0002"]
    assert list(by_kind["equations"]) == ["eq-ab-0001"]
    assert list(by_kind["drawings"]) == ["im-ab-0001"]
    chapter = parsed.rows[1]
    for item in [*by_kind["tables"].values(), *by_kind["equations"].values()]:
        assert (item["blockid"], item["heading"], item["parent_headings"]) == (
            chapter.blockid,
            "Chapter",
            [],
        )
    assert by_kind["drawings"]["im-ab-0001"]["blockid"] == parsed.rows[0].blockid
    assert parsed.meta["asset_dir"] is True
    text = (parsed.parsed_dir / "s.tables.json").read_text()
    assert text.startswith('{\n  "version": "1.0",\n  "tables": {') and text.endswith("}\n")


@pytest.mark.parametrize(
    ("name", "kwargs", "fmt"),
    [
        ("macro.docm", {"main_type": DOCM_MAIN}, "docm"),
        ("template.dotx", {"main_type": DOTX_MAIN}, "dotx"),
        ("strict.docx", {"strict": True}, "docx"),
        ("renamed.docx", {"main_part": "word/main-body.xml"}, "docx"),
    ],
)
def test_docm_dotx_strict_and_alternate_main_parts(tmp_path, name, kwargs, fmt):
    source = tmp_path / name
    source.write_bytes(docx_bytes(paragraph("Body text"), **kwargs))
    parsed = parse_docx(source, tmp_path / "out")
    assert parsed.content == "Body text"
    assert parsed.meta["document_format"] == fmt


def test_empty_document_gives_a_blocks_file_without_rows(tmp_path):
    source = tmp_path / "empty.docx"
    source.write_bytes(docx_bytes(""))
    parsed = parse_docx(source, tmp_path / "out")
    assert parsed.rows == () and parsed.content == ""
    assert parsed.meta["doc_title"] == "empty"  # LightRAG: the first heading, else the stem
    # No warning: a document without text is empty, which every entrance says itself.
    assert parsed.warnings == ()
    assert len(lines_of(parsed.blocks_path)) == 1


def test_bad_doc_id_and_missing_file(tmp_path):
    source = tmp_path / "a.docx"
    source.write_bytes(docx_bytes(paragraph("x")))
    with pytest.raises(ValueError, match="doc_id"):
        parse_docx(source, tmp_path / "out", doc_id='doc-"><x')
    with pytest.raises(FileNotFoundError):
        parse_docx(tmp_path / "missing.docx", tmp_path / "out")


# -- re-parsing --------------------------------------------------------------------------------


def test_reparse_is_idempotent_and_replaces_stale_artefacts(tmp_path):
    source = tmp_path / "doc.docx"
    source.write_bytes(
        rich_docx_bytes(para("A", PICTURE) + table([["t"]]), media={"rIdPic": PNG_1PX})
    )
    first = parse_docx(source, tmp_path / "out")
    before = snapshot(first.parsed_dir)
    second = parse_docx(source, tmp_path / "out")
    after = snapshot(second.parsed_dir)
    assert before.keys() == after.keys()
    for name in before:
        if name.endswith(".blocks.jsonl"):
            old, new = (json.loads(x.splitlines()[0]) for x in (before[name], after[name]))
            old.pop("parse_time"), new.pop("parse_time")
            assert old == new
            assert before[name].splitlines()[1:] == after[name].splitlines()[1:]
        else:
            assert before[name] == after[name], name
    source.write_bytes(docx_bytes(paragraph("No table, no picture")))
    third = parse_docx(source, tmp_path / "out")
    assert sorted(p.name for p in third.parsed_dir.iterdir()) == ["doc.blocks.jsonl"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["doc.docx.parsed"]


# -- hostile input, end to end -----------------------------------------------------------------


def _bomb() -> bytes:
    return build_zip(docx_entries(document=" " * 3_000_000 + "<w:document/>"))


def _doctype() -> bytes:
    laughs = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">]><w:document/>'
    return build_zip(docx_entries(document=laughs))


def _deep_tables() -> bytes:
    xml = table([["core"]])
    for _ in range(100):
        xml = table([[f"<w:tc>{xml}<w:p/></w:tc>"]])
    return rich_docx_bytes(xml)


def _traversal() -> bytes:
    body = rich_docx_bytes(para("kept text", PICTURE), media={"rIdPic": PNG_1PX})
    with zipfile.ZipFile(io.BytesIO(body)) as zf:
        entries = {name: zf.read(name) for name in zf.namelist()}
    rels = entries["word/_rels/document.xml.rels"].decode()
    entries["word/_rels/document.xml.rels"] = rels.replace(
        'Target="media/rIdPic.png"', 'Target="../../../../outside.png"'
    )
    entries["../../outside.png"] = PNG_1PX
    return build_zip(entries)


HOSTILE = {
    "not-a-zip": (lambda: b"plain text, not a package", None, "not-a-zip"),
    "zip-bomb": (_bomb, PackageLimits(ratio_floor_bytes=0), "zip-budget"),
    "huge-part": (_bomb, PackageLimits(max_xml_part_bytes=1_000_000), "zip-budget"),
    "doctype": (_doctype, None, "dtd"),
    "deep-tables": (_deep_tables, None, "xml-limit"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_files_are_refused_and_leave_nothing_behind(tmp_path, case):
    make, limits, reason = HOSTILE[case]
    (tmp_path / "in").mkdir()
    source = tmp_path / "in" / "hostile.docx"
    source.write_bytes(make())
    before = snapshot(tmp_path)
    with pytest.raises(DocxParseError) as info:
        parse_docx(source, tmp_path / "out", limits=limits)
    assert info.value.reason == reason
    assert str(source) in str(info.value)
    after = snapshot(tmp_path)
    assert {k for k in after if not k.startswith("out")} == set(before)
    assert [k for k in after if k.startswith("out")] in (["out"], [])  # no staging left


def test_path_traversal_in_a_picture_target_writes_nothing_outside(tmp_path):
    (tmp_path / "in").mkdir()
    source = tmp_path / "in" / "trav.docx"
    source.write_bytes(_traversal())
    before = snapshot(tmp_path)
    parsed = parse_docx(source, tmp_path / "out")
    assert parsed.content.startswith("kept text")
    after = snapshot(tmp_path)
    outside = {k for k in after if not k.startswith("out")}
    assert outside == set(before)
    assert not any(p.name == "outside.png" for p in tmp_path.parent.rglob("outside.png"))
    assets = parsed.parsed_dir / "trav.blocks.assets"
    assert not assets.exists() or all(p.parent == assets for p in assets.iterdir())


def test_a_refusal_keeps_the_previous_result(tmp_path):
    source = tmp_path / "doc.docx"
    source.write_bytes(docx_bytes(paragraph("Version one")))
    good = parse_docx(source, tmp_path / "out")
    kept = good.blocks_path.read_bytes()
    source.write_bytes(_doctype())
    with pytest.raises(DocxParseError):
        parse_docx(source, tmp_path / "out")
    assert good.blocks_path.read_bytes() == kept


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_output_folder_that_is_a_symlink_is_refused(tmp_path):
    source = tmp_path / "doc.docx"
    source.write_bytes(docx_bytes(paragraph("x")))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "doc.docx.parsed").symlink_to(elsewhere)
    with pytest.raises(DocxParseError) as info:
        parse_docx(source, tmp_path / "out")
    assert info.value.reason == "output"
    assert list(elsewhere.iterdir()) == []


def test_a_file_in_the_way_of_the_output_folder_gets_the_next_free_suffix(tmp_path):
    # LightRAG 1.5.7 (parsed_artifact_dir_for): a non-folder named <name>.parsed is left
    # alone and _001, _002 ... are tried; an existing folder of that name is reused.
    source = tmp_path / "doc.[native-P].docx"
    source.write_bytes(docx_bytes(paragraph("Kept text")))
    out = tmp_path / "out"
    out.mkdir()
    (out / "doc.docx.parsed").write_text("not a folder")
    (out / "doc.docx.parsed_001").write_text("not a folder either")
    parsed = parse_docx(source, out)
    assert parsed.parsed_dir == out / "doc.docx.parsed_002"
    assert parsed.blocks_path == out / "doc.docx.parsed_002" / "doc.blocks.jsonl"
    assert "Kept text" in parsed.blocks_path.read_text(encoding="utf-8")
    assert (out / "doc.docx.parsed").read_text() == "not a folder"
    again = parse_docx(source, out)
    assert again.parsed_dir == out / "doc.docx.parsed_002"


# -- altChunk ----------------------------------------------------------------------------------


def alt_chunk_package(part: str, data: bytes, content_type: str) -> bytes:
    return rich_docx_bytes(
        para("Before") + '<w:altChunk r:id="rIdAlt"/>' + para("After"),
        extra={part: data},
        extra_rels=[("rIdAlt", "aFChunk", part.removeprefix("word/"))],
        overrides={part: content_type},
    )


def test_html_altchunk_headings_paragraphs_and_tables(tmp_path):
    html = (
        b"<html><body><h2>Imported</h2><p>Some <b>bold</b>\n text.</p>"
        b"<table><tr><th>K</th><th>V</th></tr><tr><td rowspan='2'>k</td><td>1</td></tr>"
        b"<tr><td>2</td></tr></table><ul><li>one</li><li>two</li></ul></body></html>"
    )
    source = tmp_path / "alt.docx"
    source.write_bytes(alt_chunk_package("word/part.html", html, "text/html"))
    parsed = parse_docx(source, tmp_path / "out", doc_id="doc-h")
    assert [row.heading for row in parsed.rows] == ["Preface/Uncategorized", "Imported"]
    assert parsed.rows[1].content.split("\n") == [
        "## Imported",
        "Some bold text.",
        '<table id="tb-h-0001" format="json">[["K", "V"], ["k", "1"], ["k", "2"]]</table>',
        "• one",
        "• two",
        "After",
    ]
    item = json.loads((parsed.parsed_dir / "alt.tables.json").read_text())["tables"]["tb-h-0001"]
    assert item["table_header"] == '[["K", "V"]]'


def test_docx_altchunk_is_walked_with_its_own_styles(tmp_path):
    inner = rich_docx_bytes(para("Inner heading", style="Heading1") + para("Inner body"))
    doc_type = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    source = tmp_path / "alt.docx"
    source.write_bytes(alt_chunk_package("word/inner.docx", inner, doc_type))
    parsed = parse_docx(source, tmp_path / "out")
    assert [row.content for row in parsed.rows] == ["Before", "# Inner heading\nInner body\nAfter"]


def test_unsupported_altchunk_is_a_warning_not_silent(tmp_path):
    source = tmp_path / "alt.docx"
    source.write_bytes(alt_chunk_package("word/part.rtf", b"{\\rtf1 hi}", "application/rtf"))
    parsed = parse_docx(source, tmp_path / "out")
    assert parsed.content == "Before\nAfter"
    assert any("rtf" in w and "NOT included" in w for w in parsed.warnings)


# -- agreement with LightRAG 1.5.7 -------------------------------------------------------------


def lightrag_native(source: Path, out: Path, doc_id: str) -> Path:
    from lightrag.parser.cli import main

    logger = logging.getLogger("lightrag")
    previous = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert (
                main([str(source), "--engine", "native", "-o", str(out), "--doc-id", doc_id]) == 0
            )
    finally:
        logger.setLevel(previous)
    [blocks] = (out / f"{source.name}.parsed").glob("*.blocks.jsonl")
    return blocks


def test_content_rows_match_lightrags_native_parser_on_a_simple_document(tmp_path):
    source = write_mixed_document(tmp_path / "mixed.docx")
    doc_id = "doc-" + "5" * 32
    theirs = lines_of(lightrag_native(source, tmp_path / "lr", doc_id))
    ours = lines_of(parse_docx(source, tmp_path / "ours", doc_id=doc_id).blocks_path)
    assert len(ours) == len(theirs)
    for mine, lr in zip(ours[1:], theirs[1:], strict=True):
        for key in ("heading", "level", "parent_headings", "format", "session_type"):
            assert mine[key] == lr[key]
        # The one intended difference: bullets as "•", not Symbol's private-use U+F0B7.
        assert mine["content"] == lr["content"].replace("\uf0b7", "•")
        if "\uf0b7" not in lr["content"]:
            assert mine["blockid"] == lr["blockid"]
    assert ours[0]["doc_title"] == theirs[0]["doc_title"]
    assert (ours[0]["table_file"], ours[0]["blocks"]) == (
        theirs[0]["table_file"],
        theirs[0]["blocks"],
    )
    ours_tables = json.loads((tmp_path / "ours/mixed.docx.parsed/mixed.tables.json").read_text())
    lr_tables = json.loads((tmp_path / "lr/mixed.docx.parsed/mixed.tables.json").read_text())
    # The intended differences: a table without w:tblHeader rows gets its detected header,
    # and every data table its rows keyed by header.
    detected = '[["ID", "Name", "Description", "Value"]]'
    for item in ours_tables["tables"].values():
        assert item.pop("table_header") == detected
        assert json.loads(item.pop("keyed_rows"))[0]["Name"] == "Item 1"
    for item in lr_tables["tables"].values():
        item.pop("table_header", None)
    assert ours_tables == lr_tables


def test_lightrags_p_chunker_reads_our_blocks_file(tmp_path, cl100k_tokenizer):
    from lightrag.chunker import chunking_by_paragraph_semantic

    body = (
        para("Guide", style="Heading1")
        + para("Text with a note", '<w:r><w:footnoteReference w:id="1"/></w:r>', ".")
        + para("Table", style="Heading2")
        + table(
            [["ID", "Name"]] + [[str(i), f"row {i}"] for i in range(200)],
            row_props={0: "<w:tblHeader/>"},
        )
        + para("<m:oMath><m:r><m:t>E=mc</m:t></m:r></m:oMath>")
        + para("Picture ", PICTURE)
    )
    note = {"1": para("A note.")}
    source = write_rich_docx(tmp_path / "p.docx", body, footnotes=note, media={"rIdPic": PNG_1PX})
    sample = write_mixed_document(tmp_path / "mixed.docx")
    for path, last_row in ((source, "row 199"), (sample, "Item 300")):
        parsed = parse_docx(path, tmp_path / "out")
        rows = chunking_by_paragraph_semantic(
            cl100k_tokenizer, parsed.content, 500, blocks_path=str(parsed.blocks_path)
        )
        assert rows, path
        assert all(isinstance(row.get("heading"), dict) for row in rows)  # P, not R fallback
        joined = "\n".join(row["content"] for row in rows)
        assert last_row in joined
