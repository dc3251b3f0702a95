"""The document registry: text-hash keys, persistence, concurrency, damaged files."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lightrag_pchunk.integration.config import PSettings
from lightrag_pchunk.integration.decision import Strategy
from lightrag_pchunk.integration.registry import (
    JOURNAL_FILE,
    JsonRegistry,
    afind_registered,
    close_registries,
    open_registry,
    registry_for,
)
from lightrag_pchunk.integration.registry_entry import (
    LEGACY_REGISTRY_FILE,
    RegisteredDocument,
    insert_key,
    text_key,
)
from lightrag_pchunk.integration.registry_journal import COMPACT_FLOOR, COMPACT_RATIO
from lightrag_pchunk.integration.stored_text import lightrag_sanitize
from lightrag_pchunk.naming import sanitize_text


@pytest.fixture(autouse=True)
def _fresh_registries():
    close_registries()
    yield
    close_registries()


# Every setting away from its default, so a round trip that drops one shows.
SETTINGS = PSettings(
    chunk_token_size=2000,
    chunk_overlap_token_size=100,
    drop_references=False,
    sources={"chunk_token_size": "default"},
    drop_toc=True,
    table_text="keyed",
    fill="chapter",
)


def entry(text: str, doc_id: str = "doc-1", blocks: Path | None = None) -> RegisteredDocument:
    return RegisteredDocument(
        key=insert_key(text),
        source_name="report.docx",
        doc_id=doc_id,
        strategy=Strategy.P,
        reason="test",
        blocks_path=blocks,
        p_settings=SETTINGS,
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


def journal_lines(folder: Path) -> list[str]:
    return (folder / JOURNAL_FILE).read_text(encoding="utf-8").splitlines()


def test_entries_survive_a_restart_and_a_moved_working_dir(tmp_path) -> None:
    work = tmp_path / "work"
    blocks = work / "__parsed__" / "report.docx.parsed" / "report.blocks.jsonl"
    blocks.parent.mkdir(parents=True)
    blocks.write_text("{}\n", encoding="utf-8")
    open_registry(work).register(entry("text", blocks=blocks))
    [line] = journal_lines(work)
    saved = json.loads(line)["record"]
    assert saved["blocks_path"] == "__parsed__/report.docx.parsed/report.blocks.jsonl"

    close_registries()  # a new process knows nothing but the file
    found = open_registry(work).lookup("text")
    assert found is not None and found.blocks_path == blocks
    assert found.p_settings == SETTINGS and found.strategy is Strategy.P

    moved = tmp_path / "moved"
    work.rename(moved)
    close_registries()
    again = open_registry(moved).lookup("text")
    assert again is not None and again.blocks_path == moved / blocks.relative_to(work)
    assert again.blocks_path.is_file()


def test_a_registration_appends_one_line_and_rewrites_nothing(tmp_path) -> None:
    registry = open_registry(tmp_path)
    registry.register(entry("first", doc_id="doc-1"))
    path = tmp_path / JOURNAL_FILE
    before, inode = path.read_bytes(), os.stat(path).st_ino
    registry.register(entry("second", doc_id="doc-2"))
    after = path.read_bytes()
    assert after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1
    assert os.stat(path).st_ino == inode  # the same file, appended to


def test_a_changed_file_replaces_its_old_entry_and_forget_removes_it(tmp_path) -> None:
    registry = open_registry(tmp_path)
    registry.register(entry("version one", doc_id="doc-a"))
    registry.register(entry("other document", doc_id="doc-b"))
    registry.register(entry("version two", doc_id="doc-a"))
    assert registry.lookup("version one") is None
    assert registry.lookup("version two").doc_id == "doc-a"
    assert registry.by_doc_id("doc-a").key == insert_key("version two")
    assert registry.forget("doc-a") == 1
    assert registry.forget("doc-a") == 0
    assert [e.doc_id for e in registry.entries()] == ["doc-b"]
    close_registries()
    assert [e.doc_id for e in open_registry(tmp_path).entries()] == ["doc-b"]


def test_the_journal_is_compacted_when_dead_lines_pile_up(tmp_path) -> None:
    writer, reader = JsonRegistry(tmp_path), JsonRegistry(tmp_path)
    assert reader.entries() == []
    for i in range(COMPACT_FLOOR + 40):
        writer.register(entry(f"version {i}", doc_id=f"doc-{i % 3}"))
    assert len(journal_lines(tmp_path)) <= COMPACT_RATIO * 3 + COMPACT_FLOOR
    expected = {(e.doc_id, e.key) for e in writer.entries()}
    assert len(expected) == 3
    assert {(e.doc_id, e.key) for e in reader.entries()} == expected  # follows the new file


def test_concurrent_writers_in_threads_and_other_processes_lose_nothing(tmp_path) -> None:
    # Two objects on one folder stand for two processes; each has its own lock and cache.
    writers = [JsonRegistry(tmp_path), JsonRegistry(tmp_path)]

    def work(worker: int) -> None:
        registry = writers[worker % 2]
        for i in range(25):
            registry.register(entry(f"text {worker} {i}", doc_id=f"doc-{worker}-{i}"))

    threads = [threading.Thread(target=work, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    fresh = JsonRegistry(tmp_path)
    assert len(fresh.entries()) == 200
    assert writers[0].lookup("text 7 24").doc_id == "doc-7-24"  # sees the other's writes


async def test_concurrent_asyncio_registrations(tmp_path) -> None:
    registry = open_registry(tmp_path)
    await asyncio.gather(*(registry.aregister(entry(f"t{i}", f"d{i}")) for i in range(40)))
    close_registries()
    assert {e.doc_id for e in await open_registry(tmp_path).aentries()} == {
        f"d{i}" for i in range(40)
    }


def test_a_damaged_line_is_reported_by_number_and_the_rest_still_counts(
    tmp_path, pchunk_logs
) -> None:
    registry = open_registry(tmp_path)
    registry.register(entry("before", doc_id="doc-1"))
    with open(tmp_path / JOURNAL_FILE, "a", encoding="utf-8") as journal:
        journal.write("{not json\n")
    registry.register(entry("after", doc_id="doc-2"))
    close_registries()
    with pchunk_logs.at_level(logging.WARNING, logger="lightrag.pchunk"):
        entries = open_registry(tmp_path).entries()
    assert [e.doc_id for e in entries] == ["doc-1", "doc-2"]
    assert any("line 2 skipped" in r.getMessage() for r in pchunk_logs.records)


def test_a_registry_of_version_one_is_moved_into_the_journal_once(tmp_path) -> None:
    blocks = tmp_path / "__parsed__" / "a.docx.parsed" / "a.blocks.jsonl"
    legacy = {
        "version": 1,
        "documents": {
            insert_key("old text"): {
                "source_name": "a.docx",
                "doc_id": "doc-old",
                "strategy": "P",
                "reason": "a.docx goes to native/P (default)",
                "blocks_path": "__parsed__/a.docx.parsed/a.blocks.jsonl",
                "p_settings": {"chunk_token_size": 700, "chunk_overlap_token_size": 50},
                "r_params": {},
                "registered_at": "2025-01-01T00:00:00+0000",
            },
            "broken-entry": {"doc_id": "doc-x"},
        },
    }
    (tmp_path / LEGACY_REGISTRY_FILE).write_text(json.dumps(legacy), encoding="utf-8")
    found = open_registry(tmp_path).lookup("old text")
    assert found is not None and found.doc_id == "doc-old" and found.blocks_path == blocks
    assert (found.p_settings.chunk_token_size, found.strategy) == (700, Strategy.P)
    assert not (tmp_path / LEGACY_REGISTRY_FILE).exists()
    assert (tmp_path / (LEGACY_REGISTRY_FILE + ".migrated")).is_file()
    close_registries()
    assert [e.doc_id for e in open_registry(tmp_path).entries()] == ["doc-old"]
    assert len(journal_lines(tmp_path)) == 1


async def test_a_lightrag_instance_gets_the_registry_of_its_storage_folder(tmp_path) -> None:
    def rag(workspace: str) -> SimpleNamespace:
        return SimpleNamespace(working_dir=str(tmp_path), workspace=workspace, kv_storage="")

    plain, spaced = rag(""), rag("team")
    await registry_for(plain).aregister(entry("shared text", doc_id="doc-a"))
    assert (tmp_path / JOURNAL_FILE).is_file()
    assert await afind_registered("shared text", spaced) is None  # another workspace
    await registry_for(spaced).aregister(entry("shared text", doc_id="doc-b"))
    assert (tmp_path / "team" / JOURNAL_FILE).is_file()
    assert (await afind_registered("shared text", plain)).doc_id == "doc-a"
    assert (await afind_registered("shared text", spaced)).doc_id == "doc-b"
    assert (await afind_registered("shared text")).doc_id in {"doc-a", "doc-b"}
