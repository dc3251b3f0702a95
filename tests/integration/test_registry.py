"""The document registry: text-hash keys, persistence, concurrency, damaged files."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lightrag_pchunk.integration.registry import (
    REGISTRY_FILE,
    DocumentRegistry,
    RegisteredDocument,
    close_registries,
    find_registered,
    insert_key,
    lightrag_sanitize,
    open_registry,
    text_key,
)
from lightrag_pchunk.naming import sanitize_text


@pytest.fixture(autouse=True)
def _fresh_registries():
    close_registries()
    yield
    close_registries()


def entry(text: str, doc_id: str = "doc-1", blocks: Path | None = None) -> RegisteredDocument:
    return RegisteredDocument(
        key=insert_key(text),
        source_name="report.docx",
        doc_id=doc_id,
        strategy="P",
        reason="test",
        blocks_path=blocks,
        p_settings={"chunk_token_size": 2000, "chunk_overlap_token_size": 100},
    )


_PIECES = st.sampled_from(
    ["&amp;", "&lt;", "&#55296;", " ", "\n", "\t", "\x07", "\ud800", "\ufffe"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text() | _PIECES, max_size=8).map("".join))
def test_our_sanitizer_matches_lightrags(text: str) -> None:
    from lightrag.utils import sanitize_text_for_encoding

    # The key must be the hash of exactly what LightRAG stores and passes back.
    assert sanitize_text(text) == (sanitize_text_for_encoding(text) or "")


def test_insert_key_is_the_hash_of_the_text_lightrag_hands_back() -> None:
    from lightrag.utils import sanitize_text_for_encoding

    inserted = "  Title &amp; more\x07\n\n<table id=&quot;t&quot;>x</table>\t \n"
    passed_back = sanitize_text_for_encoding(inserted)
    assert passed_back == 'Title & more\n\n<table id="t">x</table>'
    assert insert_key(inserted) == text_key(passed_back) == text_key(lightrag_sanitize(inserted))


def test_lookup_finds_the_text_as_lightrag_passes_it_and_as_inserted(tmp_path) -> None:
    registry = open_registry(tmp_path)
    inserted = "  Body &amp; text \n"
    registry.register(entry(inserted))
    assert registry.lookup("Body & text").doc_id == "doc-1"  # what LightRAG passes
    assert registry.lookup(inserted).doc_id == "doc-1"  # a direct call with the raw body
    assert registry.lookup("Body & text, changed") is None


def test_entries_survive_a_restart_and_a_moved_working_dir(tmp_path) -> None:
    work = tmp_path / "work"
    blocks = work / "__parsed__" / "report.docx.parsed" / "report.blocks.jsonl"
    blocks.parent.mkdir(parents=True)
    blocks.write_text("{}\n", encoding="utf-8")
    open_registry(work).register(entry("text", blocks=blocks))
    stored = json.loads((work / REGISTRY_FILE).read_text(encoding="utf-8"))
    [saved] = stored["documents"].values()
    assert saved["blocks_path"] == "__parsed__/report.docx.parsed/report.blocks.jsonl"

    close_registries()  # a new process knows nothing but the file
    found = open_registry(work).lookup("text")
    assert found is not None and found.blocks_path == blocks
    assert found.p_settings == {"chunk_token_size": 2000, "chunk_overlap_token_size": 100}

    moved = tmp_path / "moved"
    work.rename(moved)
    close_registries()
    again = open_registry(moved).lookup("text")
    assert again is not None and again.blocks_path == moved / blocks.relative_to(work)
    assert again.blocks_path.is_file()


def test_a_changed_file_replaces_its_old_entry_and_forget_removes_it(tmp_path) -> None:
    registry = open_registry(tmp_path)
    registry.register(entry("version one", doc_id="doc-a"))
    registry.register(entry("other document", doc_id="doc-b"))
    registry.register(entry("version two", doc_id="doc-a"))
    assert registry.lookup("version one") is None
    assert registry.lookup("version two").doc_id == "doc-a"
    assert registry.by_doc_id("doc-a").key == insert_key("version two")
    assert registry.forget("doc-a") == 1
    assert [e.doc_id for e in registry.entries()] == ["doc-b"]


def test_concurrent_writers_in_threads_and_other_processes_lose_nothing(tmp_path) -> None:
    # Two objects on one file stand for two processes; each has its own lock and cache.
    writers = [DocumentRegistry(tmp_path), DocumentRegistry(tmp_path)]

    def work(worker: int) -> None:
        registry = writers[worker % 2]
        for i in range(25):
            registry.register(entry(f"text {worker} {i}", doc_id=f"doc-{worker}-{i}"))

    threads = [threading.Thread(target=work, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    fresh = DocumentRegistry(tmp_path)
    assert len(fresh.entries()) == 200
    assert writers[0].lookup("text 7 24").doc_id == "doc-7-24"  # sees the other's writes


async def test_concurrent_asyncio_registrations(tmp_path) -> None:
    registry = open_registry(tmp_path)
    await asyncio.gather(
        *(asyncio.to_thread(registry.register, entry(f"t{i}", f"d{i}")) for i in range(40))
    )
    close_registries()
    assert {e.doc_id for e in open_registry(tmp_path).entries()} == {f"d{i}" for i in range(40)}


def test_a_damaged_registry_is_reported_then_set_aside(tmp_path, pchunk_logs) -> None:
    (tmp_path / REGISTRY_FILE).write_text("{not json", encoding="utf-8")
    registry = open_registry(tmp_path)
    with pchunk_logs.at_level(logging.WARNING, logger="lightrag.pchunk"):
        assert registry.lookup("anything") is None
    assert any("unreadable" in r.getMessage() for r in pchunk_logs.records)
    registry.register(entry("fresh"))
    assert (tmp_path / (REGISTRY_FILE + ".corrupt")).read_text(encoding="utf-8") == "{not json"
    assert open_registry(tmp_path).lookup("fresh") is not None


def test_find_registered_prefers_the_given_working_dir(tmp_path) -> None:
    open_registry(tmp_path / "a").register(entry("shared text", doc_id="doc-a"))
    assert find_registered("shared text")[0].doc_id == "doc-a"
    assert find_registered("shared text", (tmp_path / "b",), search_opened=False) is None
    open_registry(tmp_path / "b").register(entry("shared text", doc_id="doc-b"))
    assert find_registered("shared text", (tmp_path / "a",))[0].doc_id == "doc-a"
