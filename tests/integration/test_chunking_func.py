"""The async ``chunking_func``: where it finds blocks, how it routes, which sizes it uses."""

from __future__ import annotations

import inspect
import logging
import shutil
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from lightrag_pchunk.integration import chunking_func as chunking_func_module
from lightrag_pchunk.integration.chunking_func import chunking_func, chunking_func_for
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.registration import register_document
from lightrag_pchunk.integration.registry import close_registries
from lightrag_pchunk.integration.request import CHUNKING_FUNC, Request
from lightrag_pchunk.integration.routing import ParserRoutingConfigError
from lightrag_pchunk.integration.rows import heading_path
from lightrag_pchunk.integration.settings import check_config, resolve
from lightrag_pchunk.integration.strategy import decide, sidecar_directory
from lightrag_pchunk.parse.document import parse_docx

from sample_docs import write_mixed_document

P_VARS = ("LIGHTRAG_PARSER", "CHUNK_P_SIZE", "CHUNK_P_OVERLAP_SIZE", "CHUNK_OVERLAP_SIZE")


@dataclass(frozen=True, kw_only=True)
class ChunkingContext:
    """The fields of LightRAG's ChunkingContext (versions newer than 1.5.7)."""

    doc_id: str
    file_path: str
    sidecar_location: str | None
    parse_format: str
    parse_engine: str | None
    process_options: str


@pytest.fixture(autouse=True)
def _clean(monkeypatch):
    for name in P_VARS:
        monkeypatch.delenv(name, raising=False)
    close_registries()
    yield
    close_registries()


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    """The mixed sample document parsed by our native parser."""
    work = tmp_path_factory.mktemp("mixed")
    return parse_docx(write_mixed_document(work / "mixed.docx"), work / "out")


def p_rows(tokenizer, parsed, size: int = 2000, overlap: int = 100) -> list[dict]:
    return chunking_by_paragraph_semantic(
        tokenizer,
        parsed.content,
        size,
        blocks_path=parsed.blocks_path,
        chunk_overlap_token_size=overlap,
        doc_id=parsed.doc_id,
    )


def lightrag_r(tokenizer, text: str, size: int, overlap: int) -> list[dict]:
    """LightRAG's R as its pipeline configures it (its default separator cascade)."""
    from lightrag.chunker import chunking_by_recursive_character
    from lightrag.parser.routing import env_r_separators

    return chunking_by_recursive_character(
        tokenizer, text, size, chunk_overlap_token_size=overlap, separators=env_r_separators()
    )


def p_fallback_r(tokenizer, text: str, size: int, overlap: int) -> list[dict]:
    """LightRAG's R as its P chunker falls back to it: without separators (LangChain's)."""
    from lightrag.chunker import chunking_by_recursive_character

    return chunking_by_recursive_character(tokenizer, text, size, chunk_overlap_token_size=overlap)


def contents(rows: list[dict]) -> list[str]:
    return [r["content"] for r in rows]


def messages(logs) -> str:
    return "\n".join(r.getMessage() for r in logs.records)


def test_contract_is_the_legacy_six_arguments_plus_keyword_context() -> None:
    assert inspect.iscoroutinefunction(chunking_func)
    signature = inspect.signature(chunking_func)
    signature.bind(*([None] * 6))
    signature.bind(*([None] * 6), context=None, lightrag_document_path="x", file_path="y")
    assert chunking_func.accepts_chunking_context is True  # newer LightRAG passes context=


async def test_blocks_from_lightrag_document_path_file_or_folder(cl100k_tokenizer, parsed) -> None:
    expected = p_rows(cl100k_tokenizer, parsed)
    for location in (parsed.blocks_path, parsed.parsed_dir, str(parsed.parsed_dir)):
        rows = await chunking_func(
            cl100k_tokenizer, parsed.content, None, False, 100, 1200,
            lightrag_document_path=location,
        )  # fmt: skip
        assert rows == expected
    assert all({"heading", "parent_headings", "level"} <= set(r["heading"]) for r in expected)


async def test_p_never_inherits_the_global_chunk_size(cl100k_tokenizer, parsed) -> None:
    # LightRAG passes its global CHUNK_SIZE/overlap positionally; P keeps its own 2000/100.
    rows = await chunking_func(
        cl100k_tokenizer, parsed.content, None, False, 10, 300,
        lightrag_document_path=parsed.blocks_path,
    )  # fmt: skip
    assert rows == p_rows(cl100k_tokenizer, parsed, 2000, 100)
    assert max(r["tokens"] for r in rows) > 300


async def test_the_log_line_says_lightrags_f_legacy_sizes_are_not_ps(
    cl100k_tokenizer, parsed, pchunk_logs
) -> None:
    # LightRAG logs "Chunking F(legacy): size=1200, ..." before calling any chunking_func:
    # the name of its call path and the fixed-token sizes it passes, not what P does.
    with pchunk_logs.at_level(logging.INFO, logger="lightrag.pchunk"):
        await chunking_func(
            cl100k_tokenizer, parsed.content, None, False, 100, 1200,
            lightrag_document_path=parsed.blocks_path,
        )  # fmt: skip
    [line] = [m for m in messages(pchunk_logs).splitlines() if ": P (" in m]
    assert "size=2000 (default)" in line
    assert "LightRAG's line 'Chunking F(legacy): size=1200, ..., overlap=100'" in line
    assert line.endswith("P does not use them")


async def test_the_cpu_work_runs_off_the_event_loop(cl100k_tokenizer, parsed, monkeypatch) -> None:
    threads: list[int] = []
    real = chunking_func_module.run

    def spy(*args, **kwargs):
        threads.append(threading.get_ident())
        return real(*args, **kwargs)

    monkeypatch.setattr(chunking_func_module, "run", spy)
    await chunking_func(
        cl100k_tokenizer, parsed.content, None, False, 100, 1200,
        lightrag_document_path=parsed.blocks_path,
    )  # fmt: skip
    assert threads and threads[0] != threading.get_ident()


def test_sidecar_location_uris() -> None:
    folder = Path("/data/in put/__parsed__/报告 v2.docx.parsed")
    assert sidecar_directory(folder.as_uri() + "/") == folder
    assert sidecar_directory("file:///a/b%20c/") == Path("/a/b c")
    assert sidecar_directory("/plain/path/") == Path("/plain/path")
    for none in (None, "", "  ", "unknown_source", "https://example.com/x/"):
        assert sidecar_directory(none) is None


async def test_blocks_from_the_context_sidecar_location(cl100k_tokenizer, parsed, tmp_path) -> None:
    folder = tmp_path / "in put" / "报告.docx.parsed"
    folder.mkdir(parents=True)
    shutil.copy(parsed.blocks_path, folder / "a.blocks.jsonl")
    (folder / "b.blocks.jsonl").write_text("not json\n", encoding="utf-8")  # sorted second
    context = ChunkingContext(
        doc_id="doc-ctx",
        file_path="报告.docx",
        sidecar_location=folder.as_uri() + "/",
        parse_format="lightrag",
        parse_engine="native(smart_heading=true)",
        process_options="C",
    )
    rows = await chunking_func(
        cl100k_tokenizer, parsed.content, None, False, 100, 1200, context=context
    )
    assert contents(rows) == contents(p_rows(cl100k_tokenizer, parsed))


@pytest.mark.parametrize(
    ("engine", "options", "strategy"),
    [("native", "C", "P"), ("native", "", "P"), ("docling", "iC", "P"), ("legacy", "C", "R"),
     ("native", "R", "R")],
)  # fmt: skip
async def test_context_routing_follows_lightrags_own_decision(
    cl100k_tokenizer, parsed, pchunk_logs, engine, options, strategy
) -> None:
    context = ChunkingContext(
        doc_id="doc-ctx",
        file_path="mixed.docx",
        sidecar_location=parsed.parsed_dir.as_uri() + "/",
        parse_format="lightrag",
        parse_engine=engine,
        process_options=options,
    )
    rows = await chunking_func(
        cl100k_tokenizer, parsed.content, None, False, 100, 1200, context=context
    )
    assert ("heading" in rows[0]) == (strategy == "P")
    if strategy == "R":
        assert "recursive_character, P does not apply" in messages(pchunk_logs)


async def test_registered_text_is_found_from_the_text_alone(
    cl100k_tokenizer, parsed, tmp_path
) -> None:
    register_document(tmp_path, "mixed.docx", parsed.content, parsed.blocks_path)
    from lightrag.utils import sanitize_text_for_encoding

    passed_back = sanitize_text_for_encoding(parsed.content)  # what LightRAG hands us
    rows = await chunking_func(cl100k_tokenizer, passed_back, None, False, 100, 1200)
    assert rows == p_rows(cl100k_tokenizer, parsed)


async def test_registered_markdown_gets_p_from_its_text_alone(cl100k_tokenizer, tmp_path) -> None:
    from lightrag.utils import sanitize_text_for_encoding

    from lightrag_pchunk.markdown.document import parse_markdown

    source = tmp_path / "guide.md"
    source.write_text(
        "# Guide\n\nIntro.\n\n## Steps\n\n1. one\n2. two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
        encoding="utf-8",
    )
    parsed = parse_markdown(source, tmp_path / "parsed")
    register_document(tmp_path, "guide.md", parsed.content, parsed.blocks_path)
    rows = await chunking_func(
        cl100k_tokenizer, sanitize_text_for_encoding(parsed.content), None, False, 100, 1200
    )
    assert rows == p_rows(cl100k_tokenizer, parsed)
    assert heading_path(rows[0]).heading == "Guide" and "1. one\n2. two" in rows[0]["content"]


async def test_registered_settings_are_frozen_at_registration(
    cl100k_tokenizer, parsed, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("CHUNK_P_SIZE", "700")
    register_document(tmp_path, "mixed.docx", parsed.content, parsed.blocks_path)
    monkeypatch.setenv("CHUNK_P_SIZE", "1500")  # too late: LightRAG freezes at enqueue too
    rows = await chunking_func(cl100k_tokenizer, parsed.content, None, False, 100, 1200)
    assert rows == p_rows(cl100k_tokenizer, parsed, 700)


async def test_env_addon_params_and_hint_blocks_in_lightrags_order(
    cl100k_tokenizer, parsed, monkeypatch
) -> None:
    base = {"lightrag_document_path": parsed.blocks_path}
    monkeypatch.setenv("CHUNK_P_SIZE", "800")
    rows = await chunking_func(cl100k_tokenizer, parsed.content, None, False, 100, 1200, **base)
    assert rows == p_rows(cl100k_tokenizer, parsed, 800)
    addon = {"chunker": {"paragraph_semantic": {"chunk_token_size": 600}}}
    rows = await chunking_func(
        cl100k_tokenizer, parsed.content, None, False, 100, 1200, addon_params=addon, **base
    )
    assert rows == p_rows(cl100k_tokenizer, parsed, 600)
    rows = await chunking_func(
        cl100k_tokenizer, parsed.content, None, False, 100, 1200,
        addon_params=addon, file_path="mixed.[-P(chunk_ts=500,chunk_ol=20)].docx", **base,
    )  # fmt: skip
    assert rows == p_rows(cl100k_tokenizer, parsed, 500, 20)


async def test_addon_params_and_overlap_come_from_the_bound_instance(
    cl100k_tokenizer, parsed
) -> None:
    rag = SimpleNamespace(
        working_dir=None,
        addon_params={"chunker": {"paragraph_semantic": {"chunk_token_size": 900}}},
        chunk_overlap_token_size=40,
    )
    bound = chunking_func_for(rag)
    assert bound.accepts_chunking_context is True
    rows = await bound(
        cl100k_tokenizer, parsed.content, None, False, 100, 1200,
        lightrag_document_path=parsed.blocks_path,
    )  # fmt: skip
    assert rows == p_rows(cl100k_tokenizer, parsed, 900, 40)
    unbound = await chunking_func(
        cl100k_tokenizer, parsed.content, None, False, 100, 1200,
        lightrag_document_path=parsed.blocks_path,
    )  # fmt: skip
    assert unbound == p_rows(cl100k_tokenizer, parsed)  # no instance: the environment's


async def test_a_bad_p_setting_is_refused_naming_it(cl100k_tokenizer, parsed, monkeypatch) -> None:
    monkeypatch.setenv("CHUNK_P_SIZE", "abc")
    with pytest.raises(ValueError, match="CHUNK_P_SIZE"):
        await chunking_func(
            cl100k_tokenizer, parsed.content, None, False, 100, 1200,
            lightrag_document_path=parsed.blocks_path,
        )  # fmt: skip


@pytest.mark.parametrize(
    ("rules", "name", "strategy"),
    [
        ("", "mixed.docx", "P"),  # unset: docx:pchunk-P
        ("", "mixed.[native-R].docx", "R"),
        ("", "mixed.[-!].docx", "P"),  # no selector left: LightRAG calls chunking_func
        ("", "mixed.[legacy].docx", "R"),
        ("docx:legacy-F", "mixed.docx", "R"),
        ("docx:native-C", "mixed.docx", "P"),
        ("docx:native-F", "mixed.docx", "R"),
        ("docx:native-P", "mixed.[-F].docx", "R"),
        ("", "notes.txt", "R"),
        ("", "notes.md", "P"),  # unset: md:pchunk-P too
        ("", "notes.[native-R].md", "R"),
        ("", "notes.markdown", "P"),  # unset: every suffix we parse, pchunk-P
        ("", "macros.docm", "P"),
        ("md:native-P", "notes.markdown", "R"),  # LightRAG's native engine reads .md only
        ("md:legacy", "notes.md", "R"),
    ],
)
def test_the_route_of_a_file_name(monkeypatch, rules, name, strategy) -> None:
    monkeypatch.setenv("LIGHTRAG_PARSER", rules)
    request = Request(CHUNKING_FUNC, file_name=name, source=Path(name))  # before its parse
    decision = decide(request, resolve(request))
    assert decision.strategy == strategy, decision.reason


async def test_native_r_hint_gets_lightrags_r_at_rs_own_size(
    cl100k_tokenizer, parsed, pchunk_logs, monkeypatch
) -> None:
    monkeypatch.setenv("CHUNK_R_SIZE", "400")
    monkeypatch.setenv("CHUNK_R_OVERLAP_SIZE", "50")
    rows = await chunking_func(
        cl100k_tokenizer, parsed.content, None, False, 100, 1200,
        lightrag_document_path=parsed.blocks_path, file_path="mixed.[native-R].docx",
    )  # fmt: skip
    assert rows and all("heading" not in r for r in rows)
    assert contents(rows) == contents(lightrag_r(cl100k_tokenizer, parsed.content, 400, 50))
    log = messages(pchunk_logs)
    assert "recursive_character, P does not apply: file-name hint [native-R] selects R" in log


def test_r_cuts_at_the_separators_resolved_with_the_other_settings(cl100k_tokenizer) -> None:
    # CHUNK_R_SEPARATORS is read once, with every other setting, from the request's
    # environment (as LightRAG's pipeline reads it), not again from the process's.
    from lightrag.chunker import chunking_by_recursive_character

    from lightrag_pchunk.integration.front_door import run

    text = "|".join(
        f"Clause {n} binds the parties to the terms of the contract" for n in range(400)
    )
    env = {"CHUNK_R_SEPARATORS": '["|"]'}
    request = Request(CHUNKING_FUNC, content=text, file_name="notes.txt", env=env)
    assert resolve(request).r_separators == ("|",)
    rows = run(request, cl100k_tokenizer).rows
    expected = chunking_by_recursive_character(
        cl100k_tokenizer, text, 1200, chunk_overlap_token_size=100, separators=["|"]
    )
    assert len(rows) > 1 and contents(rows) == contents(expected)


def test_r_takes_lightrags_r_settings_from_addon_params_as_its_pipeline_does() -> None:
    # LightRAG's pipeline cuts a document routed to R with
    # addon_params['chunker']['recursive_character'] (seeded from CHUNK_R_* at the instance's
    # creation, changed at run time by users): ours must read the same block, not only the
    # variables. The pipeline's own resolution is the oracle.
    from lightrag.parser.routing import resolve_chunk_options

    env = {"CHUNK_R_SEPARATORS": '["|"]', "CHUNK_R_SIZE": "700", "CHUNK_SIZE": "900"}
    chunker = {"chunk_token_size": 1000, "recursive_character": {"separators": ["\n\n", "。"]}}
    request = Request(CHUNKING_FUNC, content="x", file_name="a.txt", env=env)
    with_addon = replace(request, addon_params={"chunker": chunker})
    lightrag = resolve_chunk_options({"chunker": chunker}, process_options="R")
    assert resolve(with_addon).r_separators == tuple(lightrag["recursive_character"]["separators"])
    # No R size in the block: CHUNK_R_SIZE, as LightRAG's overlay fills it; then the
    # chunker's own size; the block's own size beats both.
    assert resolve(with_addon).r_size == 700
    assert resolve(replace(request, env={}, addon_params={"chunker": chunker})).r_size == 1000
    sized = {"chunker": {**chunker, "recursive_character": {"chunk_token_size": 300}}}
    assert resolve(replace(request, addon_params=sized)).r_size == 300
    # A block without separators (a partial dict a user passed) is LangChain's cascade.
    partial = {"chunker": {"recursive_character": {}}}
    assert resolve(replace(request, addon_params=partial)).r_separators is None
    # Without addon_params (the CLI): the variables.
    assert resolve(request).r_separators == ("|",)
    assert (resolve(request).r_size, resolve(request).r_overlap) == (700, 100)


async def test_r_parameter_block_of_the_route(cl100k_tokenizer, parsed) -> None:
    rows = await chunking_func(
        cl100k_tokenizer, parsed.content, None, False, 50, 400,
        file_path="mixed.[native-R(chunk_ts=150,chunk_ol=0)].docx",
    )  # fmt: skip
    assert contents(rows) == contents(lightrag_r(cl100k_tokenizer, parsed.content, 150, 0))


async def test_p_without_blocks_falls_back_to_r_at_p_size_with_the_log_line(
    cl100k_tokenizer, parsed, pchunk_logs
) -> None:
    with pchunk_logs.at_level(logging.WARNING, logger="lightrag.pchunk"):
        rows = await chunking_func(
            cl100k_tokenizer, parsed.content, None, False, 10, 300, file_path="mixed.docx"
        )
    assert rows == p_fallback_r(cl100k_tokenizer, parsed.content, 2000, 100)
    log = messages(pchunk_logs)
    assert "fallback to recursive_character" in log and "not registered" in log


@pytest.mark.parametrize("damage", ["delete", "not-utf8", "no-content-rows"])
async def test_a_missing_or_broken_registered_blocks_file_falls_back(
    cl100k_tokenizer, parsed, tmp_path, pchunk_logs, damage
) -> None:
    blocks = tmp_path / "copy.blocks.jsonl"
    shutil.copy(parsed.blocks_path, blocks)
    register_document(tmp_path, "mixed.docx", parsed.content, blocks)
    if damage == "delete":
        blocks.unlink()
    elif damage == "not-utf8":
        blocks.write_bytes(b"\xff\xfe\x00garbage")
    else:
        blocks.write_text('{"type": "meta"}\n', encoding="utf-8")
    with pchunk_logs.at_level(logging.WARNING, logger="lightrag.pchunk"):
        rows = await chunking_func(cl100k_tokenizer, parsed.content, None, False, 100, 1200)
    assert rows == p_fallback_r(cl100k_tokenizer, parsed.content, 2000, 100)
    assert "fallback to recursive_character" in messages(pchunk_logs)


async def test_unknown_text_gets_r_at_rs_own_size_not_at_the_calls_fixed_token_size(
    cl100k_tokenizer, pchunk_logs, monkeypatch
) -> None:
    # rag.ainsert(text): LightRAG's legacy call carries the fixed-token sizes (1200, 100);
    # LightRAG's own R runs at R's (its recursive_character options), and so does ours.
    text = "Plain text inserted with rag.ainsert. " * 200
    monkeypatch.setenv("CHUNK_R_SIZE", "250")
    monkeypatch.setenv("CHUNK_R_OVERLAP_SIZE", "20")
    rows = await chunking_func(cl100k_tokenizer, text, None, False, 100, 1200)
    assert contents(rows) == contents(lightrag_r(cl100k_tokenizer, text, 250, 20))
    log = messages(pchunk_logs)
    assert "P does not apply: no file name and no blocks" in log
    assert "'Chunking F(legacy): size=1200, ..., overlap=100'" in log
    assert "R does not use them" in log
    # Bound to an instance: its addon_params' R block, as its pipeline reads it (LightRAG's
    # overlay gives every instance's block an overlap: CHUNK_R_OVERLAP_SIZE seeds it only
    # when LightRAG builds the whole chunker config itself).
    r_block = {"chunk_token_size": 300, "chunk_overlap_token_size": 30}
    rag = SimpleNamespace(
        working_dir=None, addon_params={"chunker": {"recursive_character": r_block}}
    )
    rows = await chunking_func_for(rag)(cl100k_tokenizer, text, None, False, 100, 1200)
    assert contents(rows) == contents(lightrag_r(cl100k_tokenizer, text, 300, 30))


async def test_an_unbound_call_says_it_reads_no_instance_s_addon_params(
    cl100k_tokenizer, pchunk_logs
) -> None:
    # LightRAG(chunking_func=chunking_func, addon_params=...): the legacy call names no
    # instance, so the log line says the addon_params are not read and how to bind it.
    text = "Plain text inserted with rag.ainsert. " * 50
    await chunking_func(cl100k_tokenizer, text, None, False, 100, 1200)
    unbound = messages(pchunk_logs)
    assert "bound to no instance, so the addon_params given to LightRAG(...) are not" in unbound
    assert "rag.chunking_func = lightrag_pchunk.chunking_func_for(rag)" in unbound
    pchunk_logs.clear()
    rag = SimpleNamespace(working_dir=None, addon_params={})
    await chunking_func_for(rag)(cl100k_tokenizer, text, None, False, 100, 1200)
    assert "bound to no instance" not in messages(pchunk_logs)


async def test_a_registered_r_text_keeps_the_separators_of_its_registration(
    cl100k_tokenizer, tmp_path, monkeypatch
) -> None:
    from lightrag.chunker import chunking_by_recursive_character

    text = "|".join(f"Clause {n} # binds the parties to the contract" for n in range(400))
    monkeypatch.setenv("CHUNK_R_SEPARATORS", '["|"]')
    entry = register_document(tmp_path, "notes.txt", text)
    assert (entry.strategy, entry.r_params["separators"]) == ("R", ["|"])
    monkeypatch.setenv("CHUNK_R_SEPARATORS", '["#"]')  # too late: LightRAG freezes at enqueue
    rows = await chunking_func(cl100k_tokenizer, text, None, False, 100, 1200)
    expected = chunking_by_recursive_character(
        cl100k_tokenizer, text, 1200, chunk_overlap_token_size=100, separators=["|"]
    )
    assert len(rows) > 1 and contents(rows) == contents(expected)
    # A registration made before separators were frozen cuts at the pipeline's, as it did.
    sizes_only = {k: v for k, v in entry.r_params.items() if k != "separators"}
    older = replace(entry, r_params=sizes_only)
    assert resolve(Request(CHUNKING_FUNC, content=text, entry=older)).r_separators == ("#",)


def test_check_config_refuses_a_bad_rule_or_variable_at_start_up(monkeypatch) -> None:
    monkeypatch.setenv("LIGHTRAG_PARSER", "docx:native-P;pdf:native-P")
    with pytest.raises(ParserRoutingConfigError, match=r"rule 2 \('pdf:native-P'\)"):
        check_config()
    monkeypatch.setenv("LIGHTRAG_PARSER", "docx:native-P")
    monkeypatch.setenv("CHUNK_P_OVERLAP_SIZE", "-3")
    with pytest.raises(ValueError, match="CHUNK_P_OVERLAP_SIZE"):
        check_config()
    monkeypatch.delenv("CHUNK_P_OVERLAP_SIZE")
    monkeypatch.setenv("CHUNK_R_SIZE", "12OO")
    with pytest.raises(ValueError, match="CHUNK_R_SIZE"):
        check_config()
    monkeypatch.setenv("CHUNK_R_SIZE", "60")  # under the default overlap, 100
    with pytest.raises(ValueError, match="R's overlap 100 must be smaller than its size 60"):
        check_config()
    monkeypatch.delenv("CHUNK_R_SIZE")
    assert [rule.text for rule in check_config()] == ["docx:native-P"]


async def test_an_invalid_rule_at_chunk_time_warns_but_never_fails_a_document(
    cl100k_tokenizer, parsed, monkeypatch, pchunk_logs
) -> None:
    monkeypatch.setenv("LIGHTRAG_PARSER", "docx:native-P;*.pdf:native")
    rows = await chunking_func(
        cl100k_tokenizer, parsed.content, None, False, 100, 1200,
        lightrag_document_path=parsed.blocks_path, file_path="mixed.docx",
    )  # fmt: skip
    assert rows == p_rows(cl100k_tokenizer, parsed)
    assert "rule 2 ('*.pdf:native')" in messages(pchunk_logs)


async def test_a_bad_hint_in_file_path_is_ignored_with_a_warning(
    cl100k_tokenizer, parsed, pchunk_logs
) -> None:
    rows = await chunking_func(
        cl100k_tokenizer, parsed.content, None, False, 100, 1200,
        lightrag_document_path=parsed.blocks_path, file_path="mixed.[native-x].docx",
    )  # fmt: skip
    assert rows == p_rows(cl100k_tokenizer, parsed)
    assert "ignoring file-name hint" in messages(pchunk_logs)
