"""Re-chunk what changed (``integration/rechunk.py``), against a real LightRAG whose stand-in
model extracts entities and counts its calls (``model_stand_in.CountingModel``): a document
inserted with other settings is reported stale, ``rechunk`` re-chunks exactly those through
LightRAG's deletion (nothing of the old chunks left in the chunks, vectors or graph), and the
LLM cache answers for every chunk whose text and heading path did not change."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from docx import Document
from lightrag_helpers import forget_process_state

from lightrag_pchunk.cli.offline_models import build_offline_rag
from lightrag_pchunk.encodings import load_tiktoken
from lightrag_pchunk.integration.chunking_record import METADATA_KEY
from lightrag_pchunk.integration.ingest import ainsert_files
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.registry import registry_for
from lightrag_pchunk.integration.rows import heading_path
from lightrag_pchunk.naming import doc_id_for
from lightrag_pchunk.wording import counted

from model_stand_in import CountingModel
from sample_docs import write_mixed_document

MANUAL, GUIDE = "manual.docx", "guide.[native-P(chunk_ts=800)].docx"
P_VARIABLES = ("LIGHTRAG_PARSER", "CHUNK_P_SIZE", "CHUNK_P_OVERLAP_SIZE", "CHUNK_P_TABLE_TEXT")


def document(folder: Path, name: str, seed: int = 7) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return write_mixed_document(folder / name, seed=seed)


@pytest.fixture(autouse=True)
def _isolated(monkeypatch):
    for name in P_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    forget_process_state()
    yield
    forget_process_state()


@asynccontextmanager
async def counted_lightrag(work: Path, model: CountingModel) -> AsyncIterator[Any]:
    rag = build_offline_rag(work, llm_model_func=model)
    await rag.initialize_storages()
    try:
        yield rag
    finally:
        await rag.finalize_storages()
    forget_process_state()


async def insert(work: Path, files: list[Path], **options: Any) -> tuple[list, CountingModel]:
    """One ``ainsert_files`` run in its own instance: the results and the model's calls."""
    model = CountingModel()
    async with counted_lightrag(work, model) as rag:
        report = await ainsert_files(rag, files, progress=False, **options)
    return report.results, model


def cited(item: dict[str, Any]) -> frozenset[str]:
    """The chunk ids a graph node or edge cites."""
    return frozenset(i for i in str(item.get("source_id") or "").split("<SEP>") if i)


async def stored(work: Path) -> dict[str, Any]:
    """What LightRAG holds: each document's status and chunk rows (in order); the graph as
    the chunks each entity and relation cites; the chunk ids the vector store answers for
    (of every id ever given out, ``-chunk-000`` to ``-chunk-199``); the registry entry."""
    async with counted_lightrag(work, CountingModel()) as rag:
        documents = {}
        for name in (MANUAL, GUIDE):
            status = await rag.doc_status.get_by_id(doc_id_for(name))
            ids = list(status["chunks_list"]) if status else []
            rows = [r for r in await rag.text_chunks.get_by_ids(ids) if r]
            documents[name] = {"status": status, "ids": ids, "rows": rows}
        graph = rag.chunk_entity_relation_graph
        nodes = {n["id"]: cited(n) for n in await graph.get_all_nodes()}
        edges = {
            tuple(sorted((e["source"], e["target"]))): cited(e) for e in await graph.get_all_edges()
        }
        every = [f"{doc_id_for(n)}-chunk-{i:03d}" for n in (MANUAL, GUIDE) for i in range(200)]
        vectors = {r["id"] for r in await rag.chunks_vdb.get_by_ids(every) if r}
        texts = {r["content"] for r in await rag.text_chunks.get_by_ids(every) if r}
        entry = await registry_for(rag).aby_doc_id(doc_id_for(MANUAL))
    return {
        "documents": documents, "nodes": nodes, "edges": edges, "vectors": vectors,
        "texts": texts, "entry": entry,
    }  # fmt: skip


def identity(row: dict[str, Any]) -> tuple:
    """What LightRAG's extraction prompt holds of a chunk: its text and heading path."""
    return row["content"], heading_path(row)


def describe(results: list) -> list[str]:
    return [r.describe() for r in results]


async def test_a_changed_size_makes_exactly_its_documents_stale_and_rechunk_redoes_them(
    tmp_path, monkeypatch
) -> None:
    work = tmp_path / "rag"
    files = [
        document(tmp_path / "in", MANUAL),
        document(tmp_path / "in", GUIDE, seed=3),  # its size is its own: 800
    ]
    first, _ = await insert(work, files)
    assert [r.status for r in first] == ["inserted", "inserted"]
    before = await stored(work)
    assert before["documents"][MANUAL]["status"]["metadata"][METADATA_KEY]["size"] == 2000

    monkeypatch.setenv("CHUNK_P_SIZE", "1200")
    found, model = await insert(work, files)
    assert [(r.status, r.changes) for r in found] == [
        ("stale", ("size 2000 -> 1200",)),
        ("unchanged", ()),
    ]
    assert found[0].chunks == first[0].chunks
    assert describe(found)[0] == (
        f"manual.docx: stale (size 2000 -> 1200; P, {first[0].chunks} chunks); re-chunk it "
        "with --rechunk (rechunk=True)"
    )
    planned, dry_model = await insert(work, files, rechunk=True, dry_run=True)
    assert describe(planned) == [
        f"manual.docx: would be re-chunked (size 2000 -> 1200; P, {first[0].chunks} chunks now)",
        f"{GUIDE}: unchanged (P, {first[1].chunks} chunks)",
    ]
    assert await stored(work) == before  # nothing changed, nothing parsed into place ...
    assert sum(model.calls.values()) == sum(dry_model.calls.values()) == 0  # ... or asked

    done, _ = await insert(work, files, rechunk=True)
    assert [(r.status, r.doc_id) for r in done] == [
        ("re-chunked", doc_id_for(MANUAL)),
        ("unchanged", doc_id_for(GUIDE)),
    ]
    after = await stored(work)
    manual = after["documents"][MANUAL]
    assert manual["status"]["file_path"] == MANUAL
    assert manual["status"]["metadata"][METADATA_KEY]["size"] == 1200
    assert after["entry"].chunking.size == 1200
    blocks = after["entry"].blocks_path
    expected = chunking_by_paragraph_semantic(load_tiktoken(), "", 1200, blocks_path=blocks)
    assert [identity(r) for r in manual["rows"]] == [identity(r) for r in expected]
    # Nothing of the old chunks is left: LightRAG holds what a fresh insert with the new
    # settings gives, chunks, vectors, entities and relations (the chunks they cite) alike.
    fresh_files = [
        document(tmp_path / "fresh-in", MANUAL),
        document(tmp_path / "fresh-in", GUIDE, seed=3),
    ]
    await insert(tmp_path / "fresh", fresh_files)
    fresh = await stored(tmp_path / "fresh")
    for key in ("texts", "vectors", "nodes", "edges"):
        assert after[key] == fresh[key], key
    assert after["nodes"] != before["nodes"]
    assert after["documents"][GUIDE]["ids"] == before["documents"][GUIDE]["ids"]

    again, model = await insert(work, files, rechunk=True)
    assert [r.status for r in again] == ["unchanged", "unchanged"]
    assert sum(model.calls.values()) == 0


async def test_the_llm_cache_answers_for_every_chunk_a_rechunk_leaves_as_it_was(
    tmp_path, monkeypatch
) -> None:
    work = tmp_path / "rag"
    manual = document(tmp_path / "in", MANUAL)
    await insert(work, [manual])
    old = {identity(r) for r in (await stored(work))["documents"][MANUAL]["rows"]}
    # Keyed tables change the chunks that hold tables; the others keep text and path.
    monkeypatch.setenv("CHUNK_P_TABLE_TEXT", "keyed")
    [result], model = await insert(work, [manual], rechunk=True)
    assert result.changes == ("table text grid -> keyed",)
    new = [identity(r) for r in (await stored(work))["documents"][MANUAL]["rows"]]
    changed = {row for row in new if row not in old}
    assert 0 < len(changed) < len(new)
    # One extraction (and its follow-up) per chunk LightRAG has not seen, none for the rest.
    assert (model.calls["extract"], model.calls["glean"]) == (len(changed), len(changed))
    # Replacing it unchanged asks the model nothing at all.
    [replaced], model = await insert(work, [manual], replace=True)
    assert replaced.status == "replaced"
    assert model.calls["extract"] == model.calls["glean"] == 0


async def test_a_document_without_a_record_is_stale_until_its_record_is_written(tmp_path) -> None:
    work = tmp_path / "rag"
    manual = document(tmp_path / "in", MANUAL)
    await insert(work, [manual])
    async with counted_lightrag(work, CountingModel()) as rag:  # as an older version left it
        doc_id = doc_id_for(MANUAL)
        status = dict(await rag.doc_status.get_by_id(doc_id))
        status["metadata"] = {k: v for k, v in status["metadata"].items() if k != METADATA_KEY}
        await rag.doc_status.upsert({doc_id: status})
        registry = registry_for(rag)
        entry = await registry.aby_doc_id(doc_id)
        await registry.aregister(type(entry)(**{**entry.to_json(work), "key": entry.key,
                                                "blocks_path": entry.blocks_path,
                                                "strategy": entry.strategy,
                                                "p_settings": entry.p_settings,
                                                "chunking": None}))  # fmt: skip
    [found], _ = await insert(work, [manual])
    assert (found.status, found.changes) == ("stale", ("settings not recorded",))
    # Its chunks are what the settings give now: only the record is written.
    [done], model = await insert(work, [manual], rechunk=True)
    assert (done.status, done.changes) == ("unchanged", ("settings not recorded",))
    assert sum(model.calls.values()) == 0
    [again], _ = await insert(work, [manual])
    assert (again.status, again.changes) == ("unchanged", ())


async def test_a_file_saved_again_is_unchanged_and_a_changed_one_keeps_the_stored_blocks(
    tmp_path,
) -> None:
    work = tmp_path / "rag"
    path = tmp_path / "in" / "notes.docx"

    def save(text: str) -> None:
        document = Document()
        document.add_heading("Notes", level=1)
        document.add_paragraph(text)
        document.core_properties.revision += 1  # another file, the same text
        path.parent.mkdir(parents=True, exist_ok=True)
        document.save(str(path))

    save("The valve is greased every Monday.")
    await insert(work, [path])
    blocks = next((work / "__parsed__").glob("notes.docx.parsed/*.blocks.jsonl"))
    stored_blocks = blocks.read_bytes()
    save("The valve is greased every Monday.")
    [same], _ = await insert(work, [path])
    assert same.status == "unchanged"
    save("The valve is greased every Friday.")
    [changed], _ = await insert(work, [path], rechunk=True)
    assert changed.status == "failed" and "with different content" in changed.message
    assert blocks.read_bytes() == stored_blocks  # parsed aside, the stored one untouched
    assert not list((work / "__parsed__").glob(".pchunk-aside-*"))


async def test_a_setting_that_changes_none_of_its_chunks_only_updates_the_record(
    tmp_path, monkeypatch
) -> None:
    work = tmp_path / "rag"
    path = tmp_path / "in" / MANUAL
    path.parent.mkdir(parents=True)
    prose = Document()  # no table: keyed tables change nothing in it
    prose.add_heading("Operating manual", level=1)
    for number in range(1, 5):
        prose.add_heading(f"{number} Procedure {number}", level=2)
        prose.add_paragraph(f"Step {number}: check the pressure, log it and sign. " * 30)
    prose.save(str(path))
    await insert(work, [path])
    before = await stored(work)

    monkeypatch.setenv("CHUNK_P_TABLE_TEXT", "keyed")
    [stale], _ = await insert(work, [path])
    assert (stale.status, stale.changes) == ("stale", ("table text grid -> keyed",))
    [planned], _ = await insert(work, [path], rechunk=True, dry_run=True)
    assert planned.describe().endswith("only its record would be updated")
    [kept], model = await insert(work, [path], rechunk=True)
    chunks = counted(stale.chunks, "chunk")
    assert kept.describe() == (
        f"manual.docx: unchanged (table text grid -> keyed; P, {chunks}); the same chunks with "
        "these settings: only its record was updated"
    )
    assert sum(model.calls.values()) == 0  # no extraction, no rebuilt descriptions
    after = await stored(work)
    for key in ("texts", "vectors", "nodes", "edges"):
        assert after[key] == before[key], key
    assert after["documents"][MANUAL]["status"]["metadata"][METADATA_KEY]["table_text"] == "keyed"
    [again], _ = await insert(work, [path])
    assert (again.status, again.changes) == ("unchanged", ())


async def test_changed_r_separators_make_an_r_document_stale_and_rechunk_cuts_at_them(
    tmp_path, monkeypatch
) -> None:
    from lightrag.chunker import chunking_by_recursive_character

    work = tmp_path / "rag"
    path = tmp_path / "in" / "notes.txt"  # LightRAG's default route for a text file: R
    path.parent.mkdir(parents=True)
    text = "|".join(f"Clause {n} # binds the parties to the contract" for n in range(300))
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("CHUNK_R_SEPARATORS", '["|"]')  # read when the instance is created
    [first], _ = await insert(work, [path])
    assert (first.status, first.strategy) == ("inserted", "R")
    monkeypatch.setenv("CHUNK_R_SEPARATORS", '["#"]')
    [stale], _ = await insert(work, [path])
    assert (stale.status, stale.changes) == ("stale", ('separators ["|"] -> ["#"]',))
    [done], _ = await insert(work, [path], rechunk=True)
    assert done.status == "re-chunked"
    async with counted_lightrag(work, CountingModel()) as rag:
        status = await rag.doc_status.get_by_id(doc_id_for("notes.txt"))
        rows = [r for r in await rag.text_chunks.get_by_ids(status["chunks_list"]) if r]
    rows.sort(key=lambda row: row["chunk_order_index"])
    expected = chunking_by_recursive_character(
        load_tiktoken(), text, 1200, chunk_overlap_token_size=100, separators=["#"]
    )
    assert len(rows) > 1 and [r["content"] for r in rows] == [r["content"] for r in expected]


async def test_a_rechunk_whose_chunks_would_lose_words_leaves_the_document_as_it_was(
    tmp_path, monkeypatch
) -> None:
    from collections import Counter

    import lightrag_pchunk.integration.front_door as front_door
    from lightrag_pchunk.chunk.coverage import WordShortfall

    work = tmp_path / "rag"
    manual = document(tmp_path / "in", MANUAL)
    await insert(work, [manual])
    before = await stored(work)
    monkeypatch.setenv("CHUNK_P_SIZE", "1200")
    # A chunker bug under the new settings, found before LightRAG's document is deleted.
    monkeypatch.setattr(
        front_door, "lost_words", lambda expected, chunks: WordShortfall(Counter(pump=2))
    )
    [result], model = await insert(work, [manual], rechunk=True)
    assert result.status == "failed"
    assert result.message.startswith("with these settings its chunks would lose 2 words")
    assert "LightRAG keeps it as it was" in result.message
    assert await stored(work) == before and sum(model.calls.values()) == 0
