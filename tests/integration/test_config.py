"""P's size/overlap/drop_references follow LightRAG 1.5.7's precedence; bad values are refused."""

from __future__ import annotations

import contextlib
import copy
import os
import types
from unittest import mock

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from lightrag_pchunk.integration.config import (
    DEFAULT_REFERENCES_HEADINGS,
    PSettings,
    reference_settings,
    resolve_p_settings,
)
from lightrag_pchunk.integration.routing import resolve_parser_directives

CHUNK_VARS = (
    "CHUNK_SIZE",
    "CHUNK_OVERLAP_SIZE",
    "CHUNK_P_SIZE",
    "CHUNK_P_OVERLAP_SIZE",
    "CHUNK_P_DROP_REFERENCES",
    "CHUNK_P_REFERENCES_TAIL_N",
    "CHUNK_P_REFERENCES_HEADINGS",
)


def triple(s: PSettings) -> tuple[int, int, bool]:
    return s.chunk_token_size, s.chunk_overlap_token_size, s.drop_references


@contextlib.contextmanager
def chunk_environment(values: dict[str, str]):
    kept = {k: v for k, v in os.environ.items() if not k.startswith("CHUNK_")}
    with mock.patch.dict(os.environ, {**kept, **values}, clear=True):
        yield dict(os.environ)


def lightrag_instance(addon, ctor_size=None, ctor_overlap=None) -> types.SimpleNamespace:
    """A stand-in for a LightRAG 1.5.7 instance made now: its ``addon_params`` normalized and
    overlaid with the constructor's sizes and the variables by LightRAG's own functions."""
    addon_module = pytest.importorskip("lightrag.addon_params")
    from lightrag.lightrag import LightRAG

    # Deep copy: the overlay writes into the caller's nested chunker dict.
    normalized = addon_module.normalize_addon_params(copy.deepcopy(addon))
    stand_in = types.SimpleNamespace(
        _addon_params=normalized,
        chunk_token_size=ctor_size,
        chunk_overlap_token_size=ctor_overlap,
    )
    LightRAG._apply_chunk_size_overlay(stand_in)
    stand_in.addon_params = normalized
    return stand_in


def lightrag_p_call(
    env: dict[str, str],
    addon=None,
    ctor_size=None,
    ctor_overlap=None,
    rule_params=None,
) -> tuple[int, int, bool]:
    """What LightRAG 1.5.7 would call P with (facts §4.4 method), from its own functions."""
    from lightrag.parser.routing import resolve_chunk_options

    with chunk_environment(env):
        normalized = lightrag_instance(addon, ctor_size, ctor_overlap).addon_params
        snapshot = resolve_chunk_options(normalized, process_options="P")
    p = snapshot["paragraph_semantic"]
    p.update(rule_params or {})
    # Absent keys take the P chunker's own defaults (overlap 100, drop_references False).
    return (
        int(p["chunk_token_size"]),
        int(p.get("chunk_overlap_token_size", 100)),
        bool(p.get("drop_references", False)),
    )


# --- facts §4.4, one line each ---------------------------------------------------------

# (label, env, addon_params, constructor overlap, expected (size, overlap, drop) or our error)
CONFIG_VECTORS = [
    ("defaults", {}, None, None, (2000, 100, False)),
    ("CHUNK_P_SIZE=3000", {"CHUNK_P_SIZE": "3000"}, None, None, (3000, 100, False)),
    ("CHUNK_SIZE=800 only", {"CHUNK_SIZE": "800"}, None, None, (2000, 100, False)),
    ("CHUNK_OVERLAP_SIZE=50", {"CHUNK_OVERLAP_SIZE": "50"}, None, None, (2000, 50, False)),
    (
        "CHUNK_P_OVERLAP_SIZE=20 + CHUNK_OVERLAP_SIZE=50",
        {"CHUNK_P_OVERLAP_SIZE": "20", "CHUNK_OVERLAP_SIZE": "50"},
        None,
        None,
        (2000, 20, False),
    ),
    ("CHUNK_P_SIZE='' (empty)", {"CHUNK_P_SIZE": ""}, None, None, (2000, 100, False)),
    ("CHUNK_P_SIZE='None'", {"CHUNK_P_SIZE": "None"}, None, None, (2000, 100, False)),
    ("CHUNK_P_SIZE=' 1500 '", {"CHUNK_P_SIZE": " 1500 "}, None, None, (1500, 100, False)),
    (
        "CHUNK_P_SIZE=abc",
        {"CHUNK_P_SIZE": "abc"},
        None,
        None,
        "CHUNK_P_SIZE (env) must be an integer, got 'abc'",
    ),
    (
        "CHUNK_P_SIZE=1.5",
        {"CHUNK_P_SIZE": "1.5"},
        None,
        None,
        "CHUNK_P_SIZE (env) must be an integer, got '1.5'",
    ),
    # Deviations: LightRAG accepts these and the chunker clamps them; we refuse.
    (
        "CHUNK_P_SIZE=-5",
        {"CHUNK_P_SIZE": "-5"},
        None,
        None,
        "CHUNK_P_SIZE (env) must be >= 4, got -5",
    ),
    ("CHUNK_P_SIZE=0", {"CHUNK_P_SIZE": "0"}, None, None, "CHUNK_P_SIZE (env) must be >= 4, got 0"),
    (
        "CHUNK_P_OVERLAP_SIZE=-1",
        {"CHUNK_P_OVERLAP_SIZE": "-1"},
        None,
        None,
        "CHUNK_P_OVERLAP_SIZE (env) must be >= 0, got -1",
    ),
    (
        "CHUNK_P_SIZE=500 + CHUNK_P_OVERLAP_SIZE=900",
        {"CHUNK_P_SIZE": "500", "CHUNK_P_OVERLAP_SIZE": "900"},
        None,
        None,
        "P chunk_overlap_token_size (900, from CHUNK_P_OVERLAP_SIZE (env)) must be < "
        "chunk_token_size (500, from CHUNK_P_SIZE (env)); lower the overlap or raise the size",
    ),
    (
        "addon size 1000 + CHUNK_P_SIZE=3000",
        {"CHUNK_P_SIZE": "3000"},
        {"chunker": {"paragraph_semantic": {"chunk_token_size": 1000}}},
        None,
        (1000, 100, False),
    ),
    (
        "addon partial + CHUNK_P_SIZE=3000",
        {"CHUNK_P_SIZE": "3000"},
        {"chunker": {"paragraph_semantic": {}}},
        None,
        (3000, 100, False),
    ),
    ("ctor chunk_overlap_token_size=30", {}, None, 30, (2000, 30, False)),
    (
        "ctor overlap=30 + CHUNK_P_OVERLAP_SIZE=20",
        {"CHUNK_P_OVERLAP_SIZE": "20"},
        None,
        30,
        (2000, 20, False),
    ),
    (
        "CHUNK_P_DROP_REFERENCES=true",
        {"CHUNK_P_DROP_REFERENCES": "true"},
        None,
        None,
        (2000, 100, True),
    ),
]


@pytest.mark.parametrize(
    ("label", "env", "addon", "ctor_overlap", "expected"),
    CONFIG_VECTORS,
    ids=[v[0] for v in CONFIG_VECTORS],
)
def test_config_vector(label, env, addon, ctor_overlap, expected):
    if isinstance(expected, str):
        with pytest.raises(ValueError) as info:
            resolve_p_settings(env=env, addon_params=addon, constructor_overlap=ctor_overlap)
        assert str(info.value) == expected
    else:
        got = resolve_p_settings(env=env, addon_params=addon, constructor_overlap=ctor_overlap)
        assert triple(got) == expected


@pytest.mark.parametrize(
    ("label", "env", "addon", "ctor_overlap", "expected"),
    [v for v in CONFIG_VECTORS if not isinstance(v[4], str)],
    ids=[v[0] for v in CONFIG_VECTORS if not isinstance(v[4], str)],
)
def test_config_vector_matches_installed_lightrag(label, env, addon, ctor_overlap, expected):
    assert lightrag_p_call(env, addon, ctor_overlap=ctor_overlap) == expected


def test_constructor_chunk_token_size_does_not_feed_p():
    # LightRAG(chunk_token_size=500) sets the top-level size only; P keeps 2000.
    assert lightrag_p_call({}, ctor_size=500) == (2000, 100, False)
    assert triple(resolve_p_settings(env={"CHUNK_SIZE": "500"})) == (2000, 100, False)


def test_lightrag_rejects_what_we_reject_as_non_integers():
    with pytest.raises(ValueError, match="CHUNK_P_SIZE='abc' is not a valid integer"):
        lightrag_p_call({"CHUNK_P_SIZE": "abc"})


# --- precedence, one level at a time -----------------------------------------------------


def test_precedence_chain_one_level_at_a_time():
    kwargs = {
        "rule_params": {
            "chunk_token_size": 7000,
            "chunk_overlap_token_size": 70,
            "drop_references": True,
        },
        "chunk_options": {
            "chunk_token_size": 1,  # top-level: never used by P
            "paragraph_semantic": {
                "chunk_token_size": 6000,
                "chunk_overlap_token_size": 60,
                "drop_references": False,
            },
        },
        "addon_params": {
            "chunker": {
                "chunk_token_size": 1,
                "paragraph_semantic": {
                    "chunk_token_size": 5000,
                    "chunk_overlap_token_size": 50,
                    "drop_references": True,
                },
            }
        },
        "constructor_overlap": 30,
    }
    env = {
        "CHUNK_SIZE": "800",
        "CHUNK_P_SIZE": "4000",
        "CHUNK_P_OVERLAP_SIZE": "40",
        "CHUNK_P_DROP_REFERENCES": "no",
        "CHUNK_OVERLAP_SIZE": "20",
    }
    ps = "['paragraph_semantic']"
    steps = [
        (
            "rule_params",
            (7000, 70, True),
            "rule/hint block P(chunk_token_size=...)",
            "rule/hint block P(chunk_overlap_token_size=...)",
        ),
        (
            "chunk_options",
            (6000, 60, False),
            f"chunk_options{ps}['chunk_token_size']",
            f"chunk_options{ps}['chunk_overlap_token_size']",
        ),
        (
            "addon_params",
            (5000, 50, True),
            f"addon_params['chunker']{ps}['chunk_token_size']",
            f"addon_params['chunker']{ps}['chunk_overlap_token_size']",
        ),
        ("CHUNK_P_*", (4000, 40, False), "CHUNK_P_SIZE (env)", "CHUNK_P_OVERLAP_SIZE (env)"),
        ("constructor", (2000, 30, False), "default", "LightRAG(chunk_overlap_token_size=30)"),
        ("CHUNK_OVERLAP_SIZE", (2000, 20, False), "default", "CHUNK_OVERLAP_SIZE (env)"),
        ("defaults", (2000, 100, False), "default", "default"),
    ]
    for name, expected, size_source, overlap_source in steps:
        got = resolve_p_settings(env=env, **kwargs)
        assert triple(got) == expected, name
        assert got.sources["chunk_token_size"] == size_source, name
        assert got.sources["chunk_overlap_token_size"] == overlap_source, name
        # Peel this level off before the next step.
        kwargs.pop(name, None)
        if name == "CHUNK_P_*":
            for key in ("CHUNK_P_SIZE", "CHUNK_P_OVERLAP_SIZE", "CHUNK_P_DROP_REFERENCES"):
                env.pop(key)
        if name == "constructor":
            kwargs.pop("constructor_overlap")
        if name == "CHUNK_OVERLAP_SIZE":
            env.pop("CHUNK_OVERLAP_SIZE")


def test_each_key_falls_through_on_its_own():
    got = resolve_p_settings(
        env={"CHUNK_P_OVERLAP_SIZE": "40"},
        rule_params={"chunk_token_size": 900},
        addon_params={"chunker": {"paragraph_semantic": {"drop_references": True}}},
    )
    assert triple(got) == (900, 40, True)


def test_directives_from_routing_feed_the_top_level_with_their_source():
    d = resolve_parser_directives(
        "a.[-P(chunk_ol=10)].docx", "docx:native-P(chunk_ts=3000)", env={}
    )
    got = resolve_p_settings(env={"CHUNK_P_SIZE": "1000"}, rule_params=d)
    assert triple(got) == (3000, 10, False)
    assert got.sources == {
        "chunk_token_size": "LIGHTRAG_PARSER rule 1 ('docx:native-P(chunk_ts=3000)')",
        "chunk_overlap_token_size": "file-name hint [-P(chunk_ol=10)]",
        "drop_references": "default",
        "drop_toc": "default",
        "table_text": "default",
        "fill": "default",
    }
    assert got.describe() == (
        "size=3000 (LIGHTRAG_PARSER rule 1 ('docx:native-P(chunk_ts=3000)')) "
        "overlap=10 (file-name hint [-P(chunk_ol=10)]) drop_references=False (default) "
        "drop_toc=False (default) table_text=grid (default) fill=pack (default)"
    )


def test_effective_overlap_is_checked_against_the_effective_size():
    # A hint's small size against an inherited overlap: LightRAG's upload check refuses it too.
    d = resolve_parser_directives("a.[-P(chunk_ts=50)].docx", [], env={})
    with pytest.raises(ValueError) as info:
        resolve_p_settings(env={}, rule_params=d)
    assert str(info.value) == (
        "P chunk_overlap_token_size (100, from default) must be < chunk_token_size "
        "(50, from file-name hint [-P(chunk_ts=50)]); lower the overlap or raise the size"
    )


# --- empty, None and bad values ------------------------------------------------------------


@pytest.mark.parametrize("variable", ["CHUNK_P_SIZE", "CHUNK_P_OVERLAP_SIZE", "CHUNK_OVERLAP_SIZE"])
@pytest.mark.parametrize("raw", ["", "   ", "None", "none", " NONE "])
def test_empty_or_none_means_default(variable, raw):
    assert triple(resolve_p_settings(env={variable: raw})) == (2000, 100, False)
    assert triple(resolve_p_settings(env={"CHUNK_P_DROP_REFERENCES": raw})) == (2000, 100, False)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"CHUNK_P_OVERLAP_SIZE": "1e3"},
            "CHUNK_P_OVERLAP_SIZE (env) must be an integer, got '1e3'",
        ),
        ({"CHUNK_OVERLAP_SIZE": "-3"}, "CHUNK_OVERLAP_SIZE (env) must be >= 0, got -3"),
        (
            {"CHUNK_P_DROP_REFERENCES": "maybe"},
            "CHUNK_P_DROP_REFERENCES (env) must be a boolean (true/false), got 'maybe'",
        ),
        # A bad value is refused even when a higher source overrides it.
        (
            {"CHUNK_P_SIZE": "20OO", "CHUNK_P_OVERLAP_SIZE": "5"},
            "CHUNK_P_SIZE (env) must be an integer, got '20OO'",
        ),
    ],
)
def test_bad_env_values(env, message):
    with pytest.raises(ValueError) as info:
        resolve_p_settings(env=env, rule_params={"chunk_token_size": 900})
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"addon_params": {"chunker": {"paragraph_semantic": {"chunk_token_size": "abc"}}}},
            "addon_params['chunker']['paragraph_semantic']['chunk_token_size'] must be an "
            "integer, got 'abc'",
        ),
        (
            {"addon_params": {"chunker": {"paragraph_semantic": {"chunk_token_size": 0}}}},
            "addon_params['chunker']['paragraph_semantic']['chunk_token_size'] must be >= 4, got 0",
        ),
        (
            {
                "addon_params": {
                    "chunker": {"paragraph_semantic": {"chunk_overlap_token_size": True}}
                }
            },
            "addon_params['chunker']['paragraph_semantic']['chunk_overlap_token_size'] must be "
            "an integer, got True",
        ),
        (
            {"chunk_options": {"paragraph_semantic": {"chunk_token_size": 1500.0}}},
            "chunk_options['paragraph_semantic']['chunk_token_size'] must be an integer, "
            "got 1500.0",
        ),
        (
            {"chunk_options": {"paragraph_semantic": {"drop_references": "perhaps"}}},
            "chunk_options['paragraph_semantic']['drop_references'] must be a boolean "
            "(true/false), got 'perhaps'",
        ),
        (
            {"addon_params": {"chunker": ["paragraph_semantic"]}},
            "addon_params['chunker'] must be a mapping, got list",
        ),
        ({"constructor_overlap": -1}, "LightRAG(chunk_overlap_token_size=-1) must be >= 0, got -1"),
        (
            {"rule_params": {"chunk_ts": 800}},
            "rule_params has unknown parameter(s) 'chunk_ts'; supported: chunk_token_size, "
            "chunk_overlap_token_size, drop_references",
        ),
    ],
)
def test_bad_values_in_mappings(kwargs, message):
    with pytest.raises(ValueError) as info:
        resolve_p_settings(env={}, **kwargs)
    assert str(info.value) == message


def test_integer_strings_in_mappings_are_accepted_as_lightrag_int_s_them():
    got = resolve_p_settings(
        env={}, addon_params={"chunker": {"paragraph_semantic": {"chunk_token_size": " 1200 "}}}
    )
    assert got.chunk_token_size == 1200


def test_a_missing_or_none_chunker_section_is_absent():
    assert triple(resolve_p_settings(env={}, addon_params={"chunker": None})) == (2000, 100, False)
    assert triple(resolve_p_settings(env={}, addon_params={"language": "en"})) == (2000, 100, False)
    got = resolve_p_settings(env={}, chunk_options={"paragraph_semantic": None})
    assert triple(got) == (2000, 100, False)


# --- documented deviations from LightRAG (beyond refusing bad values) -------------------


def test_deviation_p_overlap_env_applies_with_a_partial_addon_chunker():
    """LightRAG skips CHUNK_P_OVERLAP_SIZE when addon_params['chunker'] is given (its overlay
    only re-reads size variables), contradicting its own documented precedence; we apply it."""
    env = {"CHUNK_P_OVERLAP_SIZE": "20"}
    addon = {"chunker": {"paragraph_semantic": {"chunk_token_size": 1000}}}
    assert lightrag_p_call(env, addon) == (1000, 100, False)
    assert triple(resolve_p_settings(env=env, addon_params=addon)) == (1000, 20, False)


def test_deviation_partial_chunk_options_fall_through_to_lower_sources():
    """LightRAG's API path applies chunk_options on top of addon_params (same as ours); a
    partial chunk_options= given straight to apipeline_enqueue_documents skips addon_params."""
    addon = {"chunker": {"paragraph_semantic": {"chunk_overlap_token_size": 30}}}
    got = resolve_p_settings(
        env={}, addon_params=addon, chunk_options={"paragraph_semantic": {"chunk_token_size": 900}}
    )
    assert triple(got) == (900, 30, False)


def test_deviation_drop_references_env_must_be_a_boolean_word():
    # LightRAG reads any other word as False; we refuse it (a typo of "ture" must not be silent).
    with pytest.raises(ValueError, match="CHUNK_P_DROP_REFERENCES"):
        resolve_p_settings(env={"CHUNK_P_DROP_REFERENCES": "ture"})
    assert resolve_p_settings(env={"CHUNK_P_DROP_REFERENCES": " Off "}).drop_references is False
    assert resolve_p_settings(env={"CHUNK_P_DROP_REFERENCES": "Y"}).drop_references is True


# --- differential: env, addon, constructor and rule parameters against LightRAG ------------

size_values = st.sampled_from([None, "", "None", " 1500 ", "3000", "800", "60"])
overlap_values = st.sampled_from([None, "", "20", "0", "900", " 70 "])
legacy_overlap_values = st.sampled_from([None, "50", "none", "10", "1200"])
drop_values = st.sampled_from([None, "", "true", "0", "YES", "off"])
addons = st.sampled_from(
    [
        None,
        {"language": "en"},
        {
            "chunker": {
                "paragraph_semantic": {"chunk_token_size": 1000, "chunk_overlap_token_size": 10}
            }
        },
        {"chunker": {"paragraph_semantic": {"chunk_token_size": 1000}}},
        {"chunker": {"paragraph_semantic": {"drop_references": True}}},
        {"chunker": {}},
    ]
)
rules = st.sampled_from(
    [
        None,
        {"chunk_token_size": 700},
        {"chunk_overlap_token_size": 5},
        {"chunk_token_size": 50},
        {"drop_references": True},
        {"chunk_token_size": 400, "chunk_overlap_token_size": 399},
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    size=size_values,
    p_overlap=overlap_values,
    overlap=legacy_overlap_values,
    drop=drop_values,
    chunk_size=st.sampled_from([None, "800"]),
    addon=addons,
    ctor_overlap=st.sampled_from([None, 30, 0]),
    rule_params=rules,
)
def test_settings_agree_with_lightrag(
    size, p_overlap, overlap, drop, chunk_size, addon, ctor_overlap, rule_params
):
    pairs = {
        "CHUNK_P_SIZE": size,
        "CHUNK_P_OVERLAP_SIZE": p_overlap,
        "CHUNK_OVERLAP_SIZE": overlap,
        "CHUNK_P_DROP_REFERENCES": drop,
        "CHUNK_SIZE": chunk_size,
    }
    env = {k: v for k, v in pairs.items() if v is not None}
    theirs = lightrag_p_call(env, addon, ctor_overlap=ctor_overlap, rule_params=rule_params)
    call = lambda: triple(  # noqa: E731
        resolve_p_settings(
            env=env, addon_params=addon, constructor_overlap=ctor_overlap, rule_params=rule_params
        )
    )
    p_overlap_set = p_overlap is not None and p_overlap.strip() not in ("", "none")
    chunker_given = isinstance(addon, dict) and "chunker" in addon
    slot_empty = chunker_given and "chunk_overlap_token_size" not in addon["chunker"].get(
        "paragraph_semantic", {}
    )
    if p_overlap_set and slot_empty and not (rule_params or {}).get("chunk_overlap_token_size"):
        # Excluded: test_deviation_p_overlap_env_applies_with_a_partial_addon_chunker.
        event("excluded: CHUNK_P_OVERLAP_SIZE with a partial addon chunker")
        try:
            got = call()
        except ValueError as exc:
            assert "must be <" in str(exc)
        else:
            assert got[1] == int(p_overlap)
        return
    size_, overlap_, _ = theirs
    event("overlap >= size: refused" if overlap_ >= size_ else "compared")
    if overlap_ >= size_:
        with pytest.raises(ValueError, match="must be <"):
            call()
    else:
        assert call() == theirs


# --- reference_settings ---------------------------------------------------------------------


def test_reference_defaults():
    assert reference_settings(None, None, env={}) == (0, DEFAULT_REFERENCES_HEADINGS)
    assert DEFAULT_REFERENCES_HEADINGS == ("References", "Bibliography", "参考文献")


def test_reference_explicit_values_win_over_env():
    env = {"CHUNK_P_REFERENCES_TAIL_N": "5", "CHUNK_P_REFERENCES_HEADINGS": "Literature"}
    assert reference_settings(2, ["Sources"], env=env) == (2, ("Sources",))
    assert reference_settings(None, None, env=env) == (5, ("Literature",))
    assert reference_settings(0, "Works cited | 参考资料 |", env=env) == (
        0,
        ("Works cited", "参考资料"),
    )


def test_reference_env_is_read_on_every_call():
    env = {"CHUNK_P_REFERENCES_TAIL_N": "1"}
    assert reference_settings(None, None, env=env)[0] == 1
    env["CHUNK_P_REFERENCES_TAIL_N"] = "2"
    assert reference_settings(None, None, env=env)[0] == 2
    with mock.patch.dict(os.environ, {"CHUNK_P_REFERENCES_HEADINGS": "Literature|参考文献"}):
        assert reference_settings(None, None)[1] == ("Literature", "参考文献")


@pytest.mark.parametrize(
    ("raw", "expected", "warning"),
    [
        (" 3 ", 3, None),
        ("abc", 0, "paragraph_semantic invalid CHUNK_P_REFERENCES_TAIL_N='abc'; using default 0"),
        ("", 0, "paragraph_semantic invalid CHUNK_P_REFERENCES_TAIL_N=''; using default 0"),
        ("-1", 0, "paragraph_semantic negative CHUNK_P_REFERENCES_TAIL_N='-1'; using default 0"),
    ],
)
def test_reference_tail_n_env(pchunk_logs, raw, expected, warning):
    assert reference_settings(None, None, env={"CHUNK_P_REFERENCES_TAIL_N": raw})[0] == expected
    assert [r.getMessage() for r in pchunk_logs.records] == ([warning] if warning else [])


def test_reference_explicit_negative_tail_n_falls_back_with_a_warning(pchunk_logs):
    assert reference_settings(-4, None, env={})[0] == 0
    assert [r.getMessage() for r in pchunk_logs.records] == [
        "paragraph_semantic negative references_tail_n=-4; using default 0"
    ]


def test_reference_headings_env_set_but_empty_means_no_prefixes():
    # As LightRAG: a set variable replaces the defaults, even with nothing in it.
    assert reference_settings(None, None, env={"CHUNK_P_REFERENCES_HEADINGS": " | "})[1] == ()


def test_drop_toc_from_the_environment_and_addon_params():
    assert not resolve_p_settings(env={}).drop_toc
    got = resolve_p_settings(env={"CHUNK_P_DROP_TOC": "yes"})
    assert got.drop_toc and got.sources["drop_toc"] == "CHUNK_P_DROP_TOC (env)"
    addon = {"chunker": {"paragraph_semantic": {"drop_toc": False}}}
    got = resolve_p_settings(addon_params=addon, env={"CHUNK_P_DROP_TOC": "true"})
    assert not got.drop_toc
    assert got.sources["drop_toc"] == "addon_params['chunker']['paragraph_semantic']['drop_toc']"
    with pytest.raises(ValueError, match="CHUNK_P_DROP_TOC"):
        resolve_p_settings(env={"CHUNK_P_DROP_TOC": "perhaps"})


@pytest.mark.parametrize(
    ("key", "variable", "default", "other", "words"),
    [
        ("table_text", "CHUNK_P_TABLE_TEXT", "grid", "keyed", "grid, keyed"),
        ("fill", "CHUNK_P_FILL", "pack", "sections", "sections, chapter, pack"),
    ],
)
def test_one_word_settings_precedence_and_refusals(key, variable, default, other, words):
    # Default, then env, then addon_params, then a per-document chunk_options snapshot.
    assert getattr(resolve_p_settings(env={}), key) == default
    env = {variable: f" {other.title()} "}
    settings = resolve_p_settings(env=env)
    assert (getattr(settings, key), settings.sources[key]) == (other, f"{variable} (env)")
    addon = {"chunker": {"paragraph_semantic": {key: default}}}
    assert getattr(resolve_p_settings(env=env, addon_params=addon), key) == default
    options = {"paragraph_semantic": {key: other}}
    got = resolve_p_settings(env={}, addon_params=addon, chunk_options=options)
    assert getattr(got, key) == other
    with pytest.raises(ValueError, match=rf"{variable} \(env\) must be one of {words}"):
        resolve_p_settings(env={variable: "rows"})
    bad = {"chunker": {"paragraph_semantic": {key: 1}}}
    with pytest.raises(ValueError, match=key):
        resolve_p_settings(env={}, addon_params=bad)


# --- R of a document routed to R, as LightRAG's pipeline resolves it ---------------------


def lightrag_r_call(env, addon=None, ctor_size=None, ctor_overlap=None):
    """What LightRAG 1.5.7's pipeline calls R with for an instance made now (its overlay,
    its snapshot, its ``strategy == "R"`` branch), and what our settings give R for it."""
    from lightrag.chunker.recursive_character import normalize_r_separators
    from lightrag.parser.routing import resolve_chunk_options

    from lightrag_pchunk.integration.request import INGEST, Request
    from lightrag_pchunk.integration.settings import resolve

    with chunk_environment(env) as now:
        rag = lightrag_instance(addon, ctor_size, ctor_overlap)
        snapshot = resolve_chunk_options(rag.addon_params, process_options="R")
        r = dict(snapshot.get("recursive_character") or {})
        size = int(r.pop("chunk_token_size", snapshot.get("chunk_token_size")))
        separators = normalize_r_separators(r["separators"]) if "separators" in r else None
        theirs = (size, r.get("chunk_overlap_token_size", 100), tuple(separators or ()) or None)
        ours = resolve(Request(INGEST, content="x", rag=rag, env=now))
    return theirs, (ours.r_size, ours.r_overlap, ours.r_separators)


@pytest.mark.parametrize(
    ("env", "addon", "ctor_size", "ctor_overlap"),
    [
        ({}, None, None, None),
        ({"CHUNK_R_SIZE": "300", "CHUNK_R_OVERLAP_SIZE": "7"}, None, None, None),
        ({"CHUNK_SIZE": "800", "CHUNK_OVERLAP_SIZE": "50"}, None, None, None),
        ({"CHUNK_R_SIZE": "300", "CHUNK_SIZE": "800"}, None, 500, 20),
        ({}, None, 500, 20),
        ({"CHUNK_F_SIZE": "400", "CHUNK_P_SIZE": "900"}, None, None, None),
        ({"CHUNK_R_SEPARATORS": '["|"]'}, None, None, None),
        ({"CHUNK_R_OVERLAP_SIZE": "7"}, {"chunker": {"recursive_character": {}}}, None, None),
        ({"CHUNK_R_SIZE": "300"}, {"chunker": {"chunk_token_size": 900}}, None, None),
        (
            {"CHUNK_R_SIZE": "300"},
            {"chunker": {"recursive_character": {"chunk_token_size": 333}}},
            None,
            None,
        ),
        ({}, {"chunker": {"recursive_character": {"separators": None}}}, None, None),
        ({}, {"chunker": {"recursive_character": {"separators": ["x" * 10_000]}}}, None, None),
    ],
)
def test_r_sizes_and_separators_are_lightrags_pipelines(env, addon, ctor_size, ctor_overlap):
    theirs, ours = lightrag_r_call(env, addon, ctor_size, ctor_overlap)
    assert ours == theirs


@pytest.mark.parametrize(
    ("env", "ctor_size", "ctor_overlap"),
    [
        ({}, None, None),
        ({}, 500, 20),
        ({"CHUNK_SIZE": "800", "CHUNK_OVERLAP_SIZE": "50"}, None, None),
        ({"CHUNK_R_SIZE": "300", "CHUNK_R_OVERLAP_SIZE": "7"}, 500, 20),
        ({"CHUNK_F_SIZE": "400", "CHUNK_F_OVERLAP_SIZE": "9", "CHUNK_SIZE": "800"}, None, None),
    ],
)
def test_r_sizes_without_the_instance_are_its_pipelines_from_the_calls_sizes(
    env, ctor_size, ctor_overlap
):
    # LightRAG(chunk_token_size=500, chunking_func=chunking_func): the unbound function
    # sees no instance, and the legacy call's sizes are all that tells it the constructor's.
    from lightrag.parser.routing import resolve_chunk_options

    from lightrag_pchunk.integration.request import CHUNKING_FUNC, Request
    from lightrag_pchunk.integration.settings import resolve

    theirs, _ = lightrag_r_call(env, None, ctor_size, ctor_overlap)
    with chunk_environment(env) as now:
        rag = lightrag_instance(None, ctor_size, ctor_overlap)
        snapshot = resolve_chunk_options(rag.addon_params)  # rag.ainsert: no selector
        fixed = snapshot.get("fixed_token") or {}
        call = (
            int(fixed.get("chunk_token_size", snapshot.get("chunk_token_size"))),
            int(fixed.get("chunk_overlap_token_size", rag.chunk_overlap_token_size)),
        )
        ours = resolve(Request(CHUNKING_FUNC, content="x", lightrag_sizes=call, env=now))
    assert (ours.r_size, ours.r_overlap) == theirs[:2]
