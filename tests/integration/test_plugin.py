"""install()/uninstall() and the ``lightrag.chunkers`` entry point."""

from __future__ import annotations

import importlib
import inspect
import re
import sys
import types
from dataclasses import dataclass
from importlib.metadata import entry_points

import pytest

from lightrag_pchunk.integration import plugin
from lightrag_pchunk.integration.chunker import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.chunking_func import chunking_func
from lightrag_pchunk.integration.routing import ParserRoutingConfigError


def dispatched_p() -> object:
    """What LightRAG's pipeline gets from ``from lightrag.chunker import ...`` right now."""
    import lightrag.chunker

    return lightrag.chunker.chunking_by_paragraph_semantic


def upstream_p() -> object:
    from lightrag.chunker import paragraph_semantic

    return paragraph_semantic.chunking_by_paragraph_semantic


@pytest.fixture(autouse=True)
def _restore(monkeypatch):
    monkeypatch.delenv("LIGHTRAG_PARSER", raising=False)
    yield
    plugin.uninstall()
    assert dispatched_p() is upstream_p()


def test_install_is_idempotent_and_reversible() -> None:
    assert not plugin.is_installed()
    assert plugin.install() is True
    assert plugin.install() is False
    assert dispatched_p() is chunking_by_paragraph_semantic
    assert plugin.is_installed()
    assert plugin.uninstall() is True
    assert plugin.uninstall() is False
    assert dispatched_p() is upstream_p()


def test_the_pipelines_call_time_import_gets_our_chunker(cl100k_tokenizer, tmp_path) -> None:
    blocks = tmp_path / "x.blocks.jsonl"
    blocks.write_text(
        '{"type": "meta"}\n'
        '{"type": "content", "blockid": "b1", "content": "# A\\nalpha", "heading": "A", '
        '"parent_headings": [], "level": 1}\n',
        encoding="utf-8",
    )
    plugin.install()
    # LightRAG 1.5.7's dispatch does exactly this import inside process_single_document.
    from lightrag.chunker import chunking_by_paragraph_semantic as dispatched

    rows = dispatched(cl100k_tokenizer, "", 2000, blocks_path=str(blocks), doc_id="doc-1")
    assert rows[0]["heading"] == "A" and rows[0]["level"] == 1  # flat: ours, not upstream's


def test_install_refuses_an_invalid_configuration_before_patching(monkeypatch) -> None:
    monkeypatch.setenv("LIGHTRAG_PARSER", "docx:native-PR")
    with pytest.raises(ParserRoutingConfigError, match=r"rule 1 \('docx:native-PR'\)"):
        plugin.install()
    assert not plugin.is_installed()
    monkeypatch.setenv("LIGHTRAG_PARSER", "docx:native-P")
    monkeypatch.setenv("CHUNK_P_SIZE", "0")
    with pytest.raises(ValueError, match="CHUNK_P_SIZE"):
        plugin.install()
    assert not plugin.is_installed()


def test_chunker_spec_fields_follow_lightrags_rules() -> None:
    spec = plugin.chunker_spec
    assert re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", spec.name)
    assert spec.name not in {"fixed_token", "recursive_character", "semantic_vector"}
    assert spec.description.strip() and "\n" not in spec.description
    # An async implementation must not ask for executor offload (LightRAG refuses it).
    assert spec.executor_safe is False and spec.accepts_context is True
    module, _, attribute = spec.impl.partition(":")
    implementation = getattr(importlib.import_module(module), attribute)
    assert implementation is chunking_func
    inspect.signature(implementation).bind(*([None] * 6), context=None)


def test_the_installed_entry_point_is_the_spec() -> None:
    [ep] = [ep for ep in entry_points(group="lightrag.chunkers") if ep.name == plugin.CHUNKER_NAME]
    assert ep.load() is plugin.chunker_spec


def test_calling_the_spec_registers_it_with_a_newer_lightrag(monkeypatch) -> None:
    registered = []

    @dataclass(frozen=True)
    class ChunkerSpec:
        name: str
        impl: str
        version: str
        description: str
        executor_safe: bool = False
        accepts_context: bool = False

    fake = types.ModuleType("lightrag.chunker.registry")
    fake.ChunkerSpec = ChunkerSpec
    fake.register_chunker = registered.append
    monkeypatch.setitem(sys.modules, "lightrag.chunker.registry", fake)
    register = plugin.chunker_spec  # what discovery gets from ep.load(); it calls it
    register()
    [spec] = registered
    assert isinstance(spec, ChunkerSpec)
    assert spec.name == "paragraph_semantic_pchunk" and spec.accepts_context is True
    assert spec.impl == "lightrag_pchunk.integration.chunking_func:chunking_func"


def test_calling_the_spec_on_lightrag_157_says_what_to_do_instead() -> None:
    with pytest.raises(RuntimeError, match=r"chunking_func=lightrag_pchunk\.chunking_func"):
        plugin.chunker_spec()


def test_run_server_installs_before_lightrags_server_starts(monkeypatch) -> None:
    seen = {}

    def main():
        seen["installed"] = plugin.is_installed()
        seen["argv"] = list(sys.argv[1:])
        return 0

    fake = types.ModuleType("lightrag.api.lightrag_server")
    fake.main = main
    monkeypatch.setitem(sys.modules, "lightrag.api.lightrag_server", fake)
    monkeypatch.setattr(sys, "argv", ["prog"])
    assert plugin.run_server(["--port", "9621"]) == 0
    assert seen == {"installed": True, "argv": ["--port", "9621"]}
