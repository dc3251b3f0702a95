"""Every real-world document of ../shared/corpus/docx through LightRAG's own file pipeline
with ``LIGHTRAG_PARSER=do[ct][xm]:pchunk-P`` (``docx:pchunk-P``, also for the one ``.docm``
and the one ``.dotx``), as its server uploads them (pending_parse, parse
engine from the routing rule, then one processing run): every file our ``parse_docx``
parses is processed by our ``pchunk`` engine and our P, none by LightRAG's native parser;
the files it refuses fail with its reason, and the documents without any text (LightRAG
cannot index an empty body) fail saying so.
"""

from __future__ import annotations

import shutil

import pytest
from lightrag_helpers import enqueue_routed, offline_lightrag

from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.rows import heading_path
from lightrag_pchunk.naming import doc_id_for

from helpers import corpus_files

SOURCES = corpus_files("docx")
FILES = [path.name for path in SOURCES]
MD_SOURCES = corpus_files("md")
MD_FILES = [path.name for path in MD_SOURCES]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not FILES, reason="../shared/corpus/docx is absent: the real-world corpus tests are skipped"
    ),
]


def field(record, name: str):
    return record.get(name) if isinstance(record, dict) else getattr(record, name, None)


async def test_the_corpus_through_lightrags_pipeline_is_parsed_and_chunked_by_ours(
    tmp_path, monkeypatch, corpus_parses
) -> None:
    from lightrag.parser.plugins import load_third_party_parsers

    load_third_party_parsers()  # what LightRAG's server does at start-up
    # docx:pchunk-P, and the same for the corpus' macro document and template (.docm, .dotx)
    monkeypatch.setenv("LIGHTRAG_PARSER", "do[ct][xm]:pchunk-P")
    inputs = tmp_path / "inputs"  # LightRAG archives what it parsed: work on copies
    monkeypatch.setenv("INPUT_DIR", str(inputs))
    inputs.mkdir()
    ours_parse: dict[str, str | None] = {}  # name -> None (parsed) or why it cannot be
    for source in SOURCES:
        shutil.copy(source, inputs / source.name)
        parsed, error = corpus_parses[source.name].parsed, corpus_parses[source.name].error
        ours_parse[source.name] = error.reason if error else None
        if parsed is not None and not parsed.content.strip():
            ours_parse[source.name] = "no-text"

    async with offline_lightrag(tmp_path / "rag") as rag:
        await enqueue_routed(rag, [inputs / name for name in FILES])
        records = {name: await rag.doc_status.get_by_id(doc_id_for(name)) for name in FILES}
        chunked_otherwise = []  # processed, but the stored chunks are not our P's
        for name, record in records.items():
            if ours_parse[name] is not None or not field(record, "chunks_list"):
                continue
            stored = await rag.text_chunks.get_by_ids(field(record, "chunks_list"))
            stored = sorted(stored, key=lambda row: row["chunk_order_index"])
            [blocks] = (inputs / "__parsed__").glob(f"{name}.parsed/*.blocks.jsonl")
            ours = chunking_by_paragraph_semantic(rag.tokenizer, "", 2000, blocks_path=blocks)
            if [(r["content"], heading_path(r)) for r in stored] != [
                (r["content"], heading_path(r)) for r in ours
            ]:
                chunked_otherwise.append(name)

    not_processed, by_native, refusals_not_ours = [], [], []
    for name, record in records.items():
        status = str(getattr(field(record, "status"), "value", field(record, "status")))
        engine = (field(record, "metadata") or {}).get("parse_engine")
        if engine == "native":
            by_native.append(name)
        if ours_parse[name] is None and status != "processed":
            not_processed.append((name, status, field(record, "error_msg")))
        if ours_parse[name] is not None and f"[{ours_parse[name]}]" not in str(
            field(record, "error_msg")
        ):
            refusals_not_ours.append((name, field(record, "error_msg")))
    assert (not_processed, by_native, refusals_not_ours, chunked_otherwise) == ([], [], [], [])
    processed = sum(reason is None for reason in ours_parse.values())
    assert processed >= len(FILES) - 5  # 2 files refused on purpose, 3 without any text


@pytest.mark.skipif(not MD_FILES, reason="../shared/corpus/md is absent")
async def test_markdown_through_lightrags_pipeline_is_parsed_and_chunked_by_ours(
    tmp_path, monkeypatch
) -> None:
    """``md:pchunk-P``: every Markdown file of the corpus uploaded to LightRAG is parsed by our
    Markdown parser and chunked by our P, exactly as our own chunker chunks our blocks."""
    from lightrag.parser.plugins import load_third_party_parsers

    load_third_party_parsers()
    monkeypatch.setenv("LIGHTRAG_PARSER", "md:pchunk-P")
    inputs = tmp_path / "inputs"
    monkeypatch.setenv("INPUT_DIR", str(inputs))
    inputs.mkdir()
    async with offline_lightrag(tmp_path / "rag") as rag:
        for source in MD_SOURCES:
            shutil.copy(source, inputs / source.name)
        await enqueue_routed(rag, [inputs / name for name in MD_FILES])
        differing = []
        for name in MD_FILES:
            record = await rag.doc_status.get_by_id(doc_id_for(name))
            status = str(getattr(field(record, "status"), "value", field(record, "status")))
            assert status == "processed", (name, field(record, "error_msg"))
            stored = await rag.text_chunks.get_by_ids(field(record, "chunks_list"))
            stored = sorted(stored, key=lambda row: row["chunk_order_index"])
            [blocks] = (inputs / "__parsed__").glob(f"{name}.parsed/*.blocks.jsonl")
            meta = blocks.read_text(encoding="utf-8").split("\n", 1)[0]
            assert '"parser": "lightrag-pchunk' in meta  # our parser wrote it, not LightRAG's
            ours = chunking_by_paragraph_semantic(rag.tokenizer, "", 2000, blocks_path=blocks)
            if [(r["content"], heading_path(r)) for r in stored] != [
                (r["content"], heading_path(r)) for r in ours
            ]:
                differing.append(name)
    assert differing == []
