"""LIGHTRAG_PARSER rules and file-name hints resolve exactly as in LightRAG 1.5.7 (facts §3)."""

from __future__ import annotations

import contextlib
import os
import re
from unittest import mock

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from lightrag_pchunk.integration.decision import Strategy
from lightrag_pchunk.integration.filename_hints import (
    FilenameParserHintError,
    split_filename_hint,
    validate_filename_hint,
)
from lightrag_pchunk.integration.routing import (
    ParserRoutingConfigError,
    parse_parser_rules,
    read_parser_rules,
    resolve_parser_directives,
)
from lightrag_pchunk.integration.strategy import route_by_name

# LightRAG's engines with ours registered, as LightRAG's server has them (entry point).
ENGINES = "docling, legacy, mineru, native, pchunk"
PREFIX = "Invalid LIGHTRAG_PARSER configuration: "
ROUTING_VARS = (
    "LIGHTRAG_PARSER",
    "MINERU_API_MODE",
    "MINERU_LOCAL_ENDPOINT",
    "MINERU_API_TOKEN",
    "MINERU_ADDITIONAL_SUFFIXES",
    "DOCLING_ENDPOINT",
    "DOCLING_ADDITIONAL_SUFFIXES",
    "DOCX_SMART_HEADING",
)


def hint_error(name: str, detail: str) -> str:
    return f"Invalid filename parser hint in {name!r}: {detail}"


@contextlib.contextmanager
def lightrag_environment(values: dict[str, str]):
    """os.environ with the routing variables replaced by ``values`` (LightRAG reads os.environ)."""
    kept = {k: v for k, v in os.environ.items() if k not in ROUTING_VARS}
    with mock.patch.dict(os.environ, {**kept, **values}, clear=True):
        yield dict(os.environ)


def outcome(call):
    """("ok", value) or (exception class name, message): comparable across implementations."""
    try:
        return "ok", call()
    except ValueError as exc:
        return type(exc).__name__, str(exc)


def upstream():
    """LightRAG's resolver, with our ``pchunk`` engine registered as its server registers it."""
    routing = pytest.importorskip("lightrag.parser.routing")
    from lightrag.parser.plugins import load_third_party_parsers

    load_third_party_parsers()  # once per process, as LightRAG's create_app does
    return routing


# --- facts §3.6: the 41 resolver vectors ------------------------------------------------

NATIVE_P = ("native", "P", {}, {})
LEGACY_NONE = ("legacy", "", {}, {})

# (vector number, LIGHTRAG_PARSER, file name, engine/options/chunk params/engine params or the
# error message, canonical name, require_external_endpoint)
VECTORS = [
    (1, "", "a.docx", LEGACY_NONE, "a.docx", True),
    (2, "docx:native-P", "a.docx", NATIVE_P, "a.docx", True),
    (3, "docx:native-P", "a.pdf", LEGACY_NONE, "a.pdf", True),
    (4, "docx:native-iP,pdf:mineru-t", "a.pdf", LEGACY_NONE, "a.pdf", True),
    (5, "*:legacy-R", "a.docx", ("legacy", "R", {}, {}), "a.docx", True),
    (6, "docx:native-P;*:legacy-F", "a.md", ("legacy", "F", {}, {}), "a.md", True),
    (7, "docx:native-P;*:legacy-F", "A.DOCX", NATIVE_P, "A.DOCX", True),
    (8, "doc*:native-P", "a.docx", NATIVE_P, "a.docx", True),
    (9, "*:legacy-F,docx:native-P", "a.docx", ("legacy", "F", {}, {}), "a.docx", True),
    (10, "", "a.[native-P].docx", NATIVE_P, "a.docx", True),
    (11, "docx:native-iF", "a.[-P].docx", NATIVE_P, "a.docx", True),
    (12, "docx:legacy-P", "a.[native].docx", NATIVE_P, "a.docx", True),
    (13, "docx:native-iP", "report.[-!].docx", ("native", "!", {}, {}), "report.docx", True),
    (14, "", "a.[-!].docx", ("legacy", "!", {}, {}), "a.docx", True),
    (15, "", "a.[native- i P ].docx", ("native", "iP", {}, {}), "a.docx", True),
    (
        16,
        "",
        "a.[P].docx",
        hint_error(
            "a.[P].docx",
            f"filename hint '.[P].docx' uses unsupported parser engine 'P'; supported engines: "
            f"{ENGINES}; options-only filename hints must start with '-' (use '[-P]' instead)",
        ),
        "a.[P].docx",
        True,
    ),
    (
        17,
        "",
        "a.[native-PR].docx",
        hint_error(
            "a.[native-PR].docx",
            "filename hint '.[native-PR].docx' options specifies multiple chunking modes (P/R); "
            "pick one of F/R/V/P/C",
        ),
        "a.[native-PR].docx",
        True,
    ),
    (
        18,
        "",
        "a.[native-x].docx",
        hint_error(
            "a.[native-x].docx",
            "filename hint '.[native-x].docx' options contains unsupported character 'x'",
        ),
        "a.[native-x].docx",
        True,
    ),
    (
        19,
        "",
        "a.[mineru].docx",
        hint_error(
            "a.[mineru].docx",
            "filename hint '.[mineru].docx' requires MINERU_LOCAL_ENDPOINT to be configured",
        ),
        "a.docx",
        True,
    ),
    (
        20,
        "",
        "a.[native-P].pdf",
        hint_error(
            "a.[native-P].pdf",
            "filename hint '.[native-P].pdf' uses parser engine 'native' for unsupported suffix "
            "'pdf'; supported suffixes: docx, md, textpack",
        ),
        "a.pdf",
        True,
    ),
    (
        21,
        "",
        "a.[foo-P].docx",
        hint_error(
            "a.[foo-P].docx",
            f"filename hint '.[foo-P].docx' uses unsupported parser engine 'foo'; "
            f"supported engines: {ENGINES}",
        ),
        "a.[foo-P].docx",
        True,
    ),
    (
        22,
        "",
        "a.[native-P].[mineru].docx",
        hint_error(
            "a.[native-P].[mineru].docx",
            "filename hint '.[mineru].docx' requires MINERU_LOCAL_ENDPOINT to be configured",
        ),
        "a.[native-P].docx",
        True,
    ),
    (
        23,
        "",
        "a.[].docx",
        hint_error("a.[].docx", "filename hint '.[].docx' is empty"),
        "a.[].docx",
        True,
    ),
    (
        24,
        "",
        "a.[-].docx",
        hint_error("a.[-].docx", "filename hint '.[-].docx' has empty process options"),
        "a.[-].docx",
        True,
    ),
    (
        25,
        "",
        "a.[native-].docx",
        hint_error("a.[native-].docx", "filename hint '.[native-].docx' has empty process options"),
        "a.[native-].docx",
        True,
    ),
    (
        26,
        "",
        "notes.[draft].docx",
        hint_error(
            "notes.[draft].docx",
            f"filename hint '.[draft].docx' uses unsupported parser engine 'draft'; "
            f"supported engines: {ENGINES}",
        ),
        "notes.[draft].docx",
        True,
    ),
    (27, "md:native-P", "a.md", ("native", "P", {}, {}), "a.md", True),
    (28, "", "a.textpack", ("native", "", {}, {}), "a.textpack", True),
    (29, "docx:native-C", "a.docx", ("native", "C", {}, {}), "a.docx", True),
    (
        30,
        "",
        "a.[-P(chunk_ts=800,chunk_ol=80)].docx",
        ("legacy", "P", {"P": {"chunk_token_size": 800, "chunk_overlap_token_size": 80}}, {}),
        "a.docx",
        True,
    ),
    (
        31,
        "",
        "a.[native-P(drop_rf)].docx",
        ("native", "P", {"P": {"drop_references": True}}, {}),
        "a.docx",
        True,
    ),
    (
        32,
        "",
        "a.[-P(chunk_ts=100,chunk_ol=100)].docx",
        hint_error(
            "a.[-P(chunk_ts=100,chunk_ol=100)].docx",
            "filename hint '.[-P(chunk_ts=100,chunk_ol=100)].docx' chunk strategy 'P': "
            "chunk_overlap_token_size (100) must be < chunk_token_size (100)",
        ),
        "a.[-P(chunk_ts=100,chunk_ol=100)].docx",
        True,
    ),
    (
        33,
        "",
        "a.[-P(chunk_size=100)].docx",
        hint_error(
            "a.[-P(chunk_size=100)].docx",
            "filename hint '.[-P(chunk_size=100)].docx' chunk strategy 'P': unknown parameter "
            "'chunk_size'; supported parameters: chunk_overlap_token_size, chunk_token_size, "
            "drop_references",
        ),
        "a.[-P(chunk_size=100)].docx",
        True,
    ),
    (
        34,
        "docx:native-P(chunk_ts=3000,chunk_ol=50)",
        "a.docx",
        ("native", "P", {"P": {"chunk_token_size": 3000, "chunk_overlap_token_size": 50}}, {}),
        "a.docx",
        True,
    ),
    (
        35,
        "docx:native-P(chunk_ts=3000)",
        "a.[-P(chunk_ol=10)].docx",
        ("native", "P", {"P": {"chunk_token_size": 3000, "chunk_overlap_token_size": 10}}, {}),
        "a.docx",
        True,
    ),
    (
        36,
        "docx:native(smart_heading=true)-P",
        "a.docx",
        ("native", "P", {}, {"smart_heading": True}),
        "a.docx",
        True,
    ),
    (37, "*:native-P", "a.pdf", LEGACY_NONE, "a.pdf", True),
    (38, "*:native-P;*:legacy-R", "a.pdf", ("legacy", "R", {}, {}), "a.pdf", True),
    (39, "*:native-P;*:legacy-R", "a.docx", NATIVE_P, "a.docx", True),
    (40, "*:mineru;*:legacy-R", "a.pdf", ("legacy", "R", {}, {}), "a.pdf", True),
    (41, "pdf:mineru-P", "a.pdf", ("mineru", "P", {}, {}), "a.pdf", False),
]


def _resolve_tuple(file_name, rules, env, require):
    d = resolve_parser_directives(file_name, rules, env=env, require_external_endpoint=require)
    return d.engine, d.process_options, d.chunk_params, d.engine_params


@pytest.mark.parametrize(
    ("number", "rules", "file_name", "expected", "canonical", "require"),
    VECTORS,
    ids=[f"v{v[0]}" for v in VECTORS],
)
def test_facts_vector(number, rules, file_name, expected, canonical, require):
    if isinstance(expected, str):
        with pytest.raises(FilenameParserHintError) as info:
            _resolve_tuple(file_name, rules, {}, require)
        assert str(info.value) == expected
    else:
        assert _resolve_tuple(file_name, rules, {}, require) == expected
    assert split_filename_hint(file_name, {})[0] == canonical


def test_vector_table_is_complete():
    assert [v[0] for v in VECTORS] == list(range(1, 42))


@pytest.mark.parametrize(
    ("rules", "file_name", "require"),
    [(v[1], v[2], v[5]) for v in VECTORS],
    ids=[f"v{v[0]}" for v in VECTORS],
)
def test_facts_vector_matches_installed_lightrag(rules, file_name, require):
    lr = upstream()
    with lightrag_environment({}) as env:
        theirs = outcome(
            lambda: lr.resolve_parser_directives(
                file_name, parser_rules=rules, require_external_endpoint=require
            )
        )
        ours = outcome(lambda: _resolve_tuple(file_name, rules, env, require))
        canon = lr.canonicalize_parser_hinted_basename(file_name)
    if theirs[0] == "ok":
        d = theirs[1]
        theirs = ("ok", (d.engine, d.process_options, d.chunk_params, d.engine_params))
    assert ours == theirs
    assert split_filename_hint(file_name, env)[0] == canon


def test_error_vectors_raise_a_value_error_subclass():
    with pytest.raises(ValueError):
        validate_filename_hint("a.[P].docx", env={})
    assert issubclass(FilenameParserHintError, ValueError)
    assert issubclass(ParserRoutingConfigError, ValueError)


# --- facts §3.6: start-up validation ---------------------------------------------------

VALIDATION = [
    ("docx", "rule 1 ('docx') must use '<suffix-pattern>:<engine>'"),
    (
        "*.docx:native",
        "rule 1 ('*.docx:native') matches suffixes without dots; use 'pdf', not '*.pdf'",
    ),
    (
        "docx:foo",
        f"rule 1 ('docx:foo') uses unsupported parser engine 'foo'; supported engines: {ENGINES}",
    ),
    (
        "pdf:native-P",
        "rule 1 ('pdf:native-P') does not match any suffix supported by native; "
        "supported suffixes: docx, md, textpack",
    ),
    (
        "docx:native-PR",
        "rule 1 ('docx:native-PR'): process options specifies multiple chunking modes (P/R); "
        "pick one of F/R/V/P/C",
    ),
    (
        "docx:native-x",
        "rule 1 ('docx:native-x'): process options contains unsupported character 'x'",
    ),
    ("pdf:mineru", "rule 1 ('pdf:mineru') requires MINERU_LOCAL_ENDPOINT to be configured"),
    (":native", "rule 1 (':native') has an empty suffix pattern"),
    ("docx:", "rule 1 ('docx:') has an empty parser engine"),
    ("docx:native-C", None),
    (
        "docx:native-P(chunk_ts=0)",
        "rule 1 ('docx:native-P(chunk_ts=0)') chunk strategy 'P': value for 'chunk_token_size' "
        "must be >= 1, got 0",
    ),
    (
        "docx:native-P(chunk_ts=10,chunk_ol=10)",
        "rule 1 ('docx:native-P(chunk_ts=10,chunk_ol=10)') chunk strategy 'P': "
        "chunk_overlap_token_size (10) must be < chunk_token_size (10)",
    ),
    ("docx:native-P , pdf:legacy-R", None),
]


@pytest.mark.parametrize(("rules", "message"), VALIDATION, ids=[r for r, _ in VALIDATION])
def test_startup_validation(rules, message):
    if message is None:
        assert parse_parser_rules(rules, env={})
        return
    with pytest.raises(ParserRoutingConfigError) as info:
        parse_parser_rules(rules, env={})
    assert str(info.value) == PREFIX + message


def test_valid_rules_are_parsed_into_their_parts():
    rules = parse_parser_rules(
        "docx:native(smart_heading)-iP(chunk_ts=800,drop_rf) , pdf:legacy-R", env={}
    )
    assert [(r.index, r.pattern, r.engine, r.process_options) for r in rules] == [
        (1, "docx", "native", "iP"),
        (2, "pdf", "legacy", "R"),
    ]
    assert rules[0].engine_params == {"smart_heading": True}
    assert rules[0].chunk_params == {"P": {"chunk_token_size": 800, "drop_references": True}}
    assert rules[1].label == "rule 2 ('pdf:legacy-R')"


def test_rule_numbers_count_empty_items_like_lightrag():
    with pytest.raises(ParserRoutingConfigError) as info:
        parse_parser_rules(";docx:native-P;;pdf", env={})
    assert str(info.value) == PREFIX + "rule 4 ('pdf') must use '<suffix-pattern>:<engine>'"


def test_every_error_of_every_rule_is_reported():
    with pytest.raises(ParserRoutingConfigError) as info:
        parse_parser_rules("docx:native-x;pdf:mineru", env={})
    assert str(info.value) == PREFIX + (
        "rule 1 ('docx:native-x'): process options contains unsupported character 'x'; "
        "rule 2 ('pdf:mineru') requires MINERU_LOCAL_ENDPOINT to be configured"
    )


def test_endpoints_make_external_engines_valid():
    assert parse_parser_rules("pdf:mineru", env={"MINERU_LOCAL_ENDPOINT": "http://m:8000"})
    assert parse_parser_rules(
        "pdf:mineru", env={"MINERU_API_MODE": "official", "MINERU_API_TOKEN": "tok"}
    )
    assert parse_parser_rules("pdf:docling", env={"DOCLING_ENDPOINT": "http://d"})
    with pytest.raises(ParserRoutingConfigError, match="requires DOCLING_ENDPOINT"):
        parse_parser_rules("pdf:docling", env={"DOCLING_ENDPOINT": "  "})
    with pytest.raises(ParserRoutingConfigError, match=r"requires valid MINERU_API_MODE"):
        parse_parser_rules("pdf:mineru", env={"MINERU_API_MODE": "cloud"})


def test_additional_suffixes_extend_an_engine_and_malformed_ones_are_refused():
    env = {"DOCLING_ENDPOINT": "http://d", "DOCLING_ADDITIONAL_SUFFIXES": " .DOC ,ppt,"}
    assert parse_parser_rules("doc:docling", env=env)
    d = resolve_parser_directives("a.doc", "doc:docling-P", env=env)
    assert (d.engine, d.process_options) == ("docling", "P")
    with pytest.raises(ParserRoutingConfigError) as info:
        parse_parser_rules("", env={"MINERU_ADDITIONAL_SUFFIXES": "*.doc,ppt"})
    assert str(info.value) == (
        "MINERU_ADDITIONAL_SUFFIXES has malformed entries: '*.doc'; use bare lowercase "
        "suffixes separated by ',' (e.g. 'doc,ppt,xls')"
    )


def test_commas_inside_parameter_blocks_do_not_split_rules():
    rules = parse_parser_rules("pdf:legacy-R(chunk_ts=800,chunk_ol=80),docx:native-P", env={})
    assert [r.text for r in rules] == ["pdf:legacy-R(chunk_ts=800,chunk_ol=80)", "docx:native-P"]
    assert rules[0].chunk_params == {"R": {"chunk_token_size": 800, "chunk_overlap_token_size": 80}}


# --- process options ---------------------------------------------------------------------

PROCESS_OPTIONS = [
    ("", "", "F", False, 0, 0, 0, 0, []),
    ("P", "P", "P", True, 0, 0, 0, 0, []),
    ("iP", "iP", "P", True, 1, 0, 0, 0, []),
    ("!", "!", "F", False, 0, 0, 0, 1, []),
    ("it!", "it!", "F", False, 1, 1, 0, 1, []),
    (
        "PF",
        "PF",
        "P",
        True,
        0,
        0,
        0,
        0,
        ["process options specifies multiple chunking modes (P/F); pick one of F/R/V/P/C"],
    ),
    ("-P ", "P", "P", True, 0, 0, 0, 0, []),
    ("xP", "P", "P", True, 0, 0, 0, 0, ["process options contains unsupported character 'x'"]),
    ("iteP!", "iteP!", "P", True, 1, 1, 1, 1, []),
]


@pytest.mark.parametrize(
    ("text", "raw", "chunking", "explicit", "i", "t", "e", "skip", "errors"),
    PROCESS_OPTIONS,
    ids=[repr(row[0]) for row in PROCESS_OPTIONS],
)
def test_a_rules_process_options_reach_the_directives(
    text, raw, chunking, explicit, i, t, e, skip, errors
):
    """The options a rule gives ("docx:native-iteP!") are what the directives decode, as
    LightRAG decodes them; an option LightRAG refuses refuses the rule, in its words."""
    rule = f"docx:native-{text}" if text.strip() else "docx:native"
    options = resolve_parser_directives("a.docx", rule, env={}).options
    assert (options.raw, options.chunking, options.chunking_explicit) == (raw, chunking, explicit)
    assert (options.images, options.tables, options.equations, options.skip_kg) == (
        bool(i),
        bool(t),
        bool(e),
        bool(skip),
    )
    if errors:
        with pytest.raises(ParserRoutingConfigError, match=re.escape(errors[0])):
            parse_parser_rules(rule, env={}, strict=True)
    else:
        assert parse_parser_rules(rule, env={}, strict=True)


# --- hints and parameters (upstream tests/parser/test_hint_params.py and pipeline tests) --


def test_hint_with_recursive_parameters_on_markdown():
    d = resolve_parser_directives("notes.[-R(chunk_ts=800,chunk_ol=80)].md", [], env={})
    assert (d.engine, d.process_options) == ("legacy", "R")
    assert d.chunk_params == {"R": {"chunk_token_size": 800, "chunk_overlap_token_size": 80}}
    assert d.canonical_name == "notes.md"


def test_rule_and_hint_parameters_merge_with_the_hint_winning():
    d = resolve_parser_directives(
        "paper.[-P(chunk_ts=3000)].pdf", "pdf:legacy-iteP(chunk_ol=100)", env={}
    )
    assert (d.engine, d.process_options) == ("legacy", "P")
    assert d.chunk_params == {"P": {"chunk_overlap_token_size": 100, "chunk_token_size": 3000}}
    assert d.params_source == {
        "P": {"chunk_overlap_token_size": "rule 1", "chunk_token_size": "hint"}
    }
    hint_wins = resolve_parser_directives(
        "a.[-P(chunk_ts=900)].docx", "docx:native-P(chunk_ts=3000,chunk_ol=50)", env={}
    )
    assert hint_wins.p_params == {"chunk_token_size": 900, "chunk_overlap_token_size": 50}


def test_hint_options_replace_rule_options_wholesale():
    rules = parse_parser_rules("docx:native-iet,*:legacy", env={})
    assert _resolve_tuple("paper.[native-R!].docx", rules, {}, True)[:2] == ("native", "R!")
    assert _resolve_tuple("plain.docx", rules, {}, True)[:2] == ("native", "iet")
    assert _resolve_tuple("plain.[-!].docx", rules, {}, True)[:2] == ("native", "!")


def test_rule_parameters_survive_a_hint_that_changes_the_selector():
    # LightRAG keeps every selector's block; only the active selector's block is applied.
    d = resolve_parser_directives("a.[-R].docx", "docx:native-P(chunk_ts=3000)", env={})
    assert d.process_options == "R"
    assert d.chunk_params == {"P": {"chunk_token_size": 3000}}
    assert route_by_name(d) == (Strategy.R, "file-name hint [-R] selects R for a.[-R].docx")


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("chunk_ts=abc", "value for 'chunk_token_size' must be an integer, got 'abc'"),
        ("chunk_ts=0", "value for 'chunk_token_size' must be >= 1, got 0"),
        ("chunk_ol=-1", "value for 'chunk_overlap_token_size' must be >= 0, got -1"),
        (
            "size=5",
            "unknown parameter 'size'; supported parameters: chunk_overlap_token_size, "
            "chunk_token_size, drop_references",
        ),
        ("chunk_ts=5,chunk_token_size=6", "parameter 'chunk_token_size' may not be repeated"),
        ("chunk_ts=5,", "empty parameter"),
        (
            "chunk_ts",
            "parameter 'chunk_token_size' must be written as 'key=value'; only boolean "
            "flags may be written bare",
        ),
        (
            "drop_rf=maybe",
            "value for 'drop_references' must be a boolean (true/false), got 'maybe'",
        ),
        ("chunk_ts=(5)", "value for 'chunk_token_size' may not contain any of ',' '(' ')' ']'"),
    ],
)
def test_parameter_errors(block, message):
    name = f"a.[-P({block})].docx"
    with pytest.raises(FilenameParserHintError) as info:
        validate_filename_hint(name, env={})
    assert str(info.value) == hint_error(
        name, f"filename hint '.[-P({block})].docx' chunk strategy 'P': {message}"
    )


def test_aliases_are_normalised_and_booleans_accept_lightrag_words():
    for word, value in (("yes", True), ("T", True), ("off", False), ("0", False)):
        d = resolve_parser_directives(f"a.[-P(drop_references={word})].docx", [], env={})
        assert d.chunk_params == {"P": {"drop_references": value}}
    d = resolve_parser_directives("a.[-P(chunk_token_size=5,chunk_ol=1)].docx", [], env={})
    assert d.chunk_params == {"P": {"chunk_token_size": 5, "chunk_overlap_token_size": 1}}


def test_overlap_is_refused_for_semantic_vector_and_drop_references_outside_p():
    with pytest.raises(
        FilenameParserHintError,
        match="parameter 'chunk_overlap_token_size' is not supported for chunk strategy 'V'",
    ):
        validate_filename_hint("a.[-V(chunk_ol=5)].docx", env={})
    with pytest.raises(
        ParserRoutingConfigError,
        match="parameter 'drop_references' is not supported for chunk strategy 'R'",
    ):
        parse_parser_rules("docx:native-R(drop_rf)", env={})


def test_structural_parameter_errors():
    with pytest.raises(FilenameParserHintError) as info:
        validate_filename_hint("a.[-P(chunk_ts=1)(x)].docx", env={})
    assert "parameters '(x)' must follow a chunk strategy (F/R/V/P/C)" in str(info.value)
    with pytest.raises(ParserRoutingConfigError) as info:
        parse_parser_rules("docx:native-P(chunk_ts=800", env={})
    assert "unbalanced '(' in 'native-P(chunk_ts=800'" in str(info.value)


def test_engine_parameters():
    env = {"MINERU_LOCAL_ENDPOINT": "http://m", "DOCLING_ENDPOINT": "http://d"}
    d = resolve_parser_directives(
        "a.pdf", "pdf:mineru(pr=1-3,language=en,local_pm=txt)-iP", env=env
    )
    assert d.engine_params == {"page_range": "1-3", "language": "en", "local_parse_method": "txt"}
    d = resolve_parser_directives("a.[docling(ocr)-P].pdf", [], env=env)
    assert (d.engine, d.engine_params) == ("docling", {"force_ocr": True})
    with pytest.raises(ParserRoutingConfigError, match="supports only a single page or range"):
        parse_parser_rules("pdf:mineru(pr=1,pr=5)", env=env)
    official = {"MINERU_API_MODE": "official", "MINERU_API_TOKEN": "t"}
    assert parse_parser_rules("pdf:mineru(pr=1,pr=5)", env=official)[0].engine_params == {
        "page_range": "1,5"
    }
    with pytest.raises(ParserRoutingConfigError, match="does not accept parameters"):
        parse_parser_rules("docx:legacy(x=1)", env={})


def test_engine_parameters_of_a_losing_engine_are_dropped():
    # The rule's native params belong to native; a hint that picks legacy drops them.
    d = resolve_parser_directives("a.[legacy-R].docx", "docx:native(smart_heading=true)-P", env={})
    assert (d.engine, d.engine_params, d.engine_source) == ("legacy", {}, "hint")


def test_docx_smart_heading_seeds_native_docx_only_and_an_explicit_false_wins():
    on = {"DOCX_SMART_HEADING": "true"}
    assert resolve_parser_directives("a.docx", "docx:native-P", env=on).engine_params == {
        "smart_heading": True
    }
    assert resolve_parser_directives("a.md", "md:native-P", env=on).engine_params == {}
    off = resolve_parser_directives("a.docx", "docx:native(smart_heading=false)-P", env=on)
    assert off.engine_params == {"smart_heading": False}
    with pytest.raises(ParserRoutingConfigError) as info:
        resolve_parser_directives("a.docx", "docx:native-P", env={"DOCX_SMART_HEADING": "maybe"})
    assert str(info.value) == SMART_HEADING_ERRORS[1]
    auto = {"DOCX_SMART_HEADING": "auto"}  # ours: the parser decides, nothing is seeded
    assert resolve_parser_directives("a.docx", "docx:native-P", env=auto).engine_params == {}


def test_filename_hint_rejections():
    with pytest.raises(FilenameParserHintError, match="has empty process options"):
        resolve_parser_directives("a.[-].docx", [], env={})
    with pytest.raises(FilenameParserHintError, match="requires DOCLING_ENDPOINT"):
        resolve_parser_directives("a.[docling].pdf", [], env={})
    # A leading space makes an options-only hint an engine named '' (LightRAG does the same).
    with pytest.raises(FilenameParserHintError, match="unsupported parser engine ''"):
        validate_filename_hint("a.[ -P].docx", env={})
    assert split_filename_hint("a.[ -P].docx", {})[0] == "a.docx"


def test_only_the_last_bracket_before_the_extension_is_a_hint():
    canonical, hint = split_filename_hint("dir/a.[native-P].[legacy].docx", {})
    assert canonical == "a.[native-P].docx"
    assert hint is not None and (hint.engine, hint.options) == ("legacy", "")
    assert split_filename_hint("a.[native-P]x.docx", {}) == ("a.[native-P]x.docx", None)


def test_best_effort_hint_reading_warns_and_never_raises(pchunk_logs):
    caplog = pchunk_logs
    assert split_filename_hint("a.[native-x].docx", {})[0] == "a.[native-x].docx"
    assert split_filename_hint("a.[draft].docx", {})[0] == "a.[draft].docx"
    messages = [r.getMessage() for r in caplog.records]
    # An option error is warned about; an unknown engine word is silently not a hint.
    assert messages == [
        "[parser_routing] ignoring filename hint '.[native-x].docx' in 'a.[native-x].docx': "
        "process options contains unsupported character 'x'"
    ]


def test_hint_checks_suffix_and_endpoint_only_when_ingesting():
    assert split_filename_hint("a.[mineru].docx", {})[0] == "a.docx"
    assert split_filename_hint("a.[native-P].pdf", {})[0] == "a.pdf"
    validate_filename_hint("a.[mineru].docx", env={}, require_external_endpoint=False)


def test_a_callers_mapping_is_lent_for_the_routing_variables_only(monkeypatch):
    from lightrag_pchunk.integration.lightrag_routing import lightrag_reads

    # Lent: what LightRAG's routing functions read (endpoints, MinerU's mode, suffix lists).
    # Kept: every other variable, the rules and chunk sizes too, which a thread chunking
    # meanwhile reads from the process's environment.
    monkeypatch.setenv("DOCLING_ENDPOINT", "http://kept")
    monkeypatch.setenv("MINERU_API_MODE", "official")
    monkeypatch.setenv("LIGHTRAG_PARSER", "md:native-P")
    monkeypatch.setenv("CHUNK_P_SIZE", "800")
    monkeypatch.delenv("DOCLING_ADDITIONAL_SUFFIXES", raising=False)
    path, home = os.environ.get("PATH"), os.environ.get("HOME")
    lent = {
        "LIGHTRAG_PARSER": "docx:native-P",
        "PATH": "/nowhere",
        "MINERU_LOCAL_ENDPOINT": "http://m",
        "DOCLING_ADDITIONAL_SUFFIXES": "txt",
    }
    with lightrag_reads(lent):
        assert os.environ.get("MINERU_LOCAL_ENDPOINT") == "http://m"
        assert os.environ.get("DOCLING_ADDITIONAL_SUFFIXES") == "txt"
        assert "DOCLING_ENDPOINT" not in os.environ and "MINERU_API_MODE" not in os.environ
        assert (os.environ.get("LIGHTRAG_PARSER"), os.environ.get("CHUNK_P_SIZE")) == (
            "md:native-P",
            "800",
        )
        assert (os.environ.get("PATH"), os.environ.get("HOME")) == (path, home)
    assert "MINERU_LOCAL_ENDPOINT" not in os.environ
    assert "DOCLING_ADDITIONAL_SUFFIXES" not in os.environ
    assert os.environ["DOCLING_ENDPOINT"] == "http://kept"
    assert os.environ["MINERU_API_MODE"] == "official"


def test_a_routing_call_on_the_process_s_environment_waits_for_a_lend_to_end(monkeypatch):
    import threading

    from lightrag_pchunk.integration.lightrag_routing import lightrag_reads

    monkeypatch.setenv("DOCLING_ENDPOINT", "http://the-process")
    seen: list[str | None] = []
    started = threading.Event()

    def route_on_the_process_s_environment() -> None:
        started.set()
        with lightrag_reads(None):
            seen.append(os.environ.get("DOCLING_ENDPOINT"))

    other = threading.Thread(target=route_on_the_process_s_environment)
    with lightrag_reads({"DOCLING_ENDPOINT": "http://the-callers"}):
        other.start()
        started.wait()
        other.join(timeout=1)  # it waits for the lend to end
    other.join()
    assert seen == ["http://the-process"]


def test_textpack_goes_to_native_without_a_rule():
    d = resolve_parser_directives("pack.textpack", [], env={})
    assert (d.engine, d.engine_source) == ("native", "default")


# --- sources, P or R by the route, reading LIGHTRAG_PARSER ----------------------------


def test_directives_say_where_each_part_came_from():
    d = resolve_parser_directives("a.[-P(chunk_ol=10)].docx", "pdf:legacy;docx:native-iF", env={})
    assert (d.engine_source, d.options_source) == ("rule 2", "hint")
    assert d.rule is not None and d.rule.text == "docx:native-iF"
    assert d.hint is not None and d.hint.display == "[-P(chunk_ol=10)]"
    assert d.params_source == {"P": {"chunk_overlap_token_size": "hint"}}
    assert d.options.chunking == "P" and d.options.chunking_explicit


@pytest.mark.parametrize(
    ("name", "rules", "strategy", "reason"),
    [
        (
            "x.docx",
            "docx:native-P",
            Strategy.P,
            "x.docx goes to native/P (LIGHTRAG_PARSER rule 1 ('docx:native-P'))",
        ),
        (
            "x.[-P].docx",
            "docx:native",
            Strategy.P,
            "x.[-P].docx goes to native/P (engine: LIGHTRAG_PARSER rule 1 ('docx:native'); "
            "P: file-name hint [-P])",
        ),
        (
            "x.pdf",
            "*:native-P;*:legacy-R",
            Strategy.R,
            "LIGHTRAG_PARSER routes x.pdf to legacy/R (rule 2 ('*:legacy-R'))",
        ),
        (
            "x.[native-R].docx",
            "",
            Strategy.R,
            "file-name hint [native-R] selects R for x.[native-R].docx",
        ),
        (
            "x.[legacy-P].docx",
            "",
            Strategy.R,
            "file-name hint [legacy-P] routes x.[legacy-P].docx to legacy/P",
        ),
        (
            "x.docx",
            "",
            Strategy.R,
            "LIGHTRAG_PARSER unset and no default rule for x.docx: LightRAG's default route "
            "legacy/F",
        ),
        (
            "x.docx",
            "docx:native",
            Strategy.P,
            "x.docx goes to native (LIGHTRAG_PARSER rule 1 ('docx:native')) with no chunking "
            "selector, so LightRAG calls chunking_func: P",
        ),
        (
            "x.docx",
            "docx:native-iR",
            Strategy.R,
            "LIGHTRAG_PARSER rule 1 ('docx:native-iR') selects R for x.docx",
        ),
        (
            "x.docx",
            "docx:native-C",
            Strategy.P,
            "LIGHTRAG_PARSER rule 1 ('docx:native-C') selects C (this package's chunker) for "
            "x.docx",
        ),
        (
            "x.[-C].md",
            "md:pchunk-R",
            Strategy.P,
            "file-name hint [-C] selects C (this package's chunker) for x.[-C].md",
        ),
    ],
)
def test_route_by_name(name, rules, strategy, reason):
    assert route_by_name(resolve_parser_directives(name, rules, env={})) == (strategy, reason)


def test_a_file_no_default_rule_routes_says_lightrag_parser_is_unset():
    from lightrag_pchunk.integration.settings import effective_rules

    d = resolve_parser_directives("a.txt", effective_rules({}), env={})
    assert route_by_name(d) == (
        Strategy.R,
        "LIGHTRAG_PARSER unset and no default rule for a.txt: LightRAG's default route legacy/F",
    )
    env = {"LIGHTRAG_PARSER": "pdf:legacy"}
    d = resolve_parser_directives("a.txt", effective_rules(env), env=env)
    assert route_by_name(d) == (
        Strategy.R,
        "no usable LIGHTRAG_PARSER rule for a.txt: default route legacy/F",
    )


def test_read_parser_rules_from_env():
    assert read_parser_rules({}) == []
    assert read_parser_rules({"LIGHTRAG_PARSER": "   "}) == []
    rules = read_parser_rules({"LIGHTRAG_PARSER": " docx:native-P "})
    assert [(r.pattern, r.engine, r.options) for r in rules] == [("docx", "native", "P")]
    with pytest.raises(ParserRoutingConfigError):
        read_parser_rules({"LIGHTRAG_PARSER": "docx"})
    assert read_parser_rules({"LIGHTRAG_PARSER": "docx;docx:native-P"}, strict=False)[0].index == 2
    d = resolve_parser_directives("a.docx", None, env={"LIGHTRAG_PARSER": "docx:native-P"})
    assert (d.engine, d.process_options) == ("native", "P")
    assert resolve_parser_directives("a.docx", None, env={}).engine == "legacy"


def test_resolver_reads_rules_text_leniently_like_lightrag_at_run_time():
    # LightRAG validates at start-up only; at run time a broken rule is skipped.
    d = resolve_parser_directives("a.docx", "docx;pdf:mineru-t;docx:native-xP", env={})
    assert (d.engine, d.process_options, d.engine_source) == ("native", "P", "rule 3")


# --- differential test against LightRAG 1.5.7's own resolver ----------------------------

PATTERNS = ["docx", "pdf", "md", "*", "doc*", "", "*.docx", "textpack", "PDF", " docx ", "[dp]*"]
ENGINE_WORDS = ["native", "legacy", "mineru", "docling", "pchunk", "foo", "", " NATIVE ", "Native"]
ENGINE_BLOCKS = [
    "",
    "(smart_heading=true)",
    "(smart_heading)",
    "(smart_heading=maybe)",
    "(page_range=1-3)",
    "(pr=1,pr=3)",
    "(pr=3-1)",
    "(force_ocr=yes)",
    "(x=1)",
    "()",
    "(",
    "(language=)",
    "(local_pm=txt)",
    "(a)(b)",
    ")",
    "(1-3)",
]
OPTION_PARTS = [
    "",
    "-P",
    "-iP",
    "-PR",
    "-x",
    "-",
    "-C",
    "- i t",
    "-!",
    "-P(chunk_ts=800)",
    "-P(chunk_ts=800,chunk_ol=80)",
    "-P(drop_rf)",
    "-V(chunk_ol=5)",
    "-R(chunk_size=1)",
    "-P(chunk_ts=0)",
    "-P(chunk_ts=10,chunk_ol=10)",
    "-P(chunk_ts=1)(x)",
    "-P(chunk_ts=abc)",
    "-F(chunk_ts=5,chunk_ts=6)",
    "-P(,)",
    "-p",
    "-iteP!",
    "-(x)",
    "-P(chunk_ts=800",
    "-P-i",
    "-C(chunk_ts=5)",
]
STEMS = ["a", "report", "notes.[draft]", "x.[native-P]", "a b", ".hidden", "a.[x"]
HINTS = [
    "",
    ".[native-P]",
    ".[-P]",
    ".[P]",
    ".[]",
    ".[-]",
    ".[native-]",
    ".[mineru]",
    ".[docling-t]",
    ".[-P(chunk_ts=800,chunk_ol=80)]",
    ".[native(smart_heading=false)-P]",
    ".[ -P]",
    ".[foo-P]",
    ".[native-PR]",
    ".[legacy-R]",
    ".[-P(chunk_ol=10)]",
    ".[native-P(drop_rf)]",
    ".[(x)]",
    ".[native(x=1)]",
    ".[foo(x=1)]",
    ".[ ]",
    ".[-x]",
    ".[docling(ocr)-P]",
    ".[mineru(pr=2)-iP]",
    ".[ native ]",
    ".[native-\tP]",
    ".[-\tP]",
    ".[-V(chunk_ol=1)]",
    ".[iP]",
    ".[-P(]",
]
EXTENSIONS = [".docx", ".pdf", ".md", ".textpack", ".DOCX", ".png", "", ".txt", ".doc"]
ENVIRONMENTS = [
    {},
    {"MINERU_LOCAL_ENDPOINT": "http://m"},
    {"MINERU_API_MODE": "official", "MINERU_API_TOKEN": "t"},
    {"MINERU_API_MODE": "official"},
    {"MINERU_API_MODE": "bogus"},
    {"DOCLING_ENDPOINT": "http://d"},
    {"DOCLING_ENDPOINT": "http://d", "DOCLING_ADDITIONAL_SUFFIXES": "doc,ppt"},
    {"DOCLING_ADDITIONAL_SUFFIXES": "*.doc"},
    {"DOCX_SMART_HEADING": "true"},
    {"DOCX_SMART_HEADING": "maybe"},
    {"MINERU_LOCAL_ENDPOINT": "http://m", "MINERU_ADDITIONAL_SUFFIXES": ".DOC, txt"},
]

VALID_RULES = [
    "docx:native-P",
    "docx:native-iP(chunk_ts=800,chunk_ol=80)",
    "md:native-R",
    "doc*:native(smart_heading=true)-P(drop_rf)",
    "*:legacy-R",
    "*:legacy",
    "pdf:legacy-F(chunk_ts=300)",
    "pdf:mineru(pr=1-3)-iP",
    "docx:docling(ocr)-t",
    "docx:native-C",
    "textpack:native-P",
    "docx:native-V(chunk_ts=900)",
    "docx:pchunk-P",
    "docx:pchunk-iR(chunk_ts=300)",
    "pdf:pchunk-P",
]
VALID_HINTS = [
    "",
    ".[native-P]",
    ".[-P]",
    ".[-R]",
    ".[native]",
    ".[legacy-!]",
    ".[-P(chunk_ts=800,chunk_ol=80)]",
    ".[native-P(drop_rf)]",
    ".[native(smart_heading=false)-iP]",
    ".[-P(chunk_ol=10)]",
    ".[mineru-P]",
    ".[docling]",
    ".[pchunk-P]",
    ".[pchunk-R]",
    ".[pchunk]",
]
piece_rule = st.builds(
    lambda p, e, b, o: f"{p}:{e}{b}{o}",
    st.sampled_from(PATTERNS),
    st.sampled_from(ENGINE_WORDS),
    st.sampled_from(ENGINE_BLOCKS),
    st.sampled_from(OPTION_PARTS),
)
grammar_rule = st.one_of(
    st.sampled_from(VALID_RULES),
    st.sampled_from(VALID_RULES),
    piece_rule,
    st.sampled_from(["docx", "", "docx:"]),
)
grammar_rules = st.builds(
    lambda items, sep: sep.join(items),
    st.lists(grammar_rule, max_size=3),
    st.sampled_from([";", ",", " ; ", ";;"]),
)
noise = "PRFVCite!x -()=,_;:*.[]0123456789nativelgmurocdkhsp"
any_rules = st.one_of(grammar_rules, grammar_rules, st.text(alphabet=noise, max_size=30))
file_names = st.one_of(
    st.builds(
        lambda s, h, x: s + h + x,
        st.sampled_from(STEMS[:2]),
        st.sampled_from(VALID_HINTS),
        st.sampled_from(EXTENSIONS[:5]),
    ),
    st.builds(
        lambda s, h, x: s + h + x,
        st.sampled_from(STEMS),
        st.sampled_from(HINTS + VALID_HINTS),
        st.sampled_from(EXTENSIONS),
    ),
    st.builds(
        lambda inner, x: f"a.[{inner}]{x}",
        st.text(alphabet=noise.replace("]", "") + "\t", max_size=15),
        st.sampled_from(EXTENSIONS),
    ),
)


#: The one message that differs from LightRAG's: DOCX_SMART_HEADING also takes ``auto``
#: (ours), and says so, in one vocabulary with ``--smart-heading`` and
#: ``native(smart_heading=...)`` (docs/configuration.md).
SMART_HEADING_ERRORS = (
    "Invalid DOCX_SMART_HEADING value 'maybe'; expected a boolean (true/false)",
    "DOCX_SMART_HEADING (env) must be true, false or auto, got 'maybe'",
)


def validated(rules: str, env) -> None:
    parse_parser_rules(rules, env=env)


def _theirs(lr, file_name, rules, require):
    d = lr.resolve_parser_directives(
        file_name, parser_rules=rules, require_external_endpoint=require
    )
    return d.engine, d.process_options, d.chunk_params, d.engine_params


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=any_rules,
    file_name=file_names,
    environment=st.sampled_from(ENVIRONMENTS),
    require=st.booleans(),
)
def test_resolver_agrees_with_lightrag(rules, file_name, environment, require):
    lr = upstream()
    with lightrag_environment(environment) as env:
        # Start-up validation: same verdict, same message.
        verdict = outcome(lambda: lr.validate_parser_routing_config(rules))
        assert outcome(lambda: validated(rules, env)) == verdict
        event(f"rules {verdict[0]}")
        # Run-time resolution (LightRAG does not re-validate the rules here).
        resolved = outcome(lambda: _theirs(lr, file_name, rules, require))
        if resolved[1] == SMART_HEADING_ERRORS[0]:
            resolved = (resolved[0], SMART_HEADING_ERRORS[1])
        assert outcome(lambda: _resolve_tuple(file_name, rules, env, require)) == resolved
        event(f"resolve {resolved[1][0] if resolved[0] == 'ok' else resolved[0]}")
        # Best-effort hint reading, as used for canonical names and scan grouping.
        canonical, hint = split_filename_hint(file_name, env)
        assert canonical == lr.canonicalize_parser_hinted_basename(file_name)
        ours = (
            (hint.engine, hint.options, hint.chunk_params, hint.engine_params)
            if hint
            else (None, "", {}, {})
        )
        assert ours == (
            *lr.filename_parser_directives(file_name),
            lr.filename_chunk_params(file_name),
            lr.filename_engine_params(file_name),
        )


def test_serve_s_default_routing_reads_as_the_default_not_as_a_numbered_rule():
    # serve sets LIGHTRAG_PARSER to the default rules when the user left it unset; a file's
    # reason must not cite "rule 2" of a variable the user never wrote.
    from lightrag_pchunk.integration.server import route_to_p_when_unset
    from lightrag_pchunk.integration.settings import effective_rules

    env: dict[str, str] = {}
    route_to_p_when_unset(env)
    d = resolve_parser_directives("a.docm", effective_rules(env), env=env)
    assert route_by_name(d) == (
        Strategy.P,
        "a.docm goes to pchunk/P (LIGHTRAG_PARSER unset: the default rule 'docm:pchunk-P')",
    )
    mine = {"LIGHTRAG_PARSER": "docm:pchunk-P;docx:pchunk-R"}
    d = resolve_parser_directives("a.docm", effective_rules(mine), env=mine)
    assert "rule 1 ('docm:pchunk-P')" in route_by_name(d)[1]
