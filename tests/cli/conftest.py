"""Fixtures shared by the CLI tests: a clean P environment, the loggers the CLI configures
given back as they were, a fresh LightRAG process state, and the bundled example, parsed."""

from __future__ import annotations

import logging

import pytest

from lightrag_pchunk.cli.demo_cmd import example_path
from lightrag_pchunk.parse.document import parse_docx

#: Variables that change what the commands do; the tests set them explicitly when needed.
P_ENV_VARS = (
    "CHUNK_P_SIZE",
    "CHUNK_P_OVERLAP_SIZE",
    "CHUNK_OVERLAP_SIZE",
    "LIGHTRAG_PARSER",
    "CHUNK_P_DROP_REFERENCES",
    "LIGHTRAG_PCHUNK_ENCODING",
    "LIGHTRAG_KV_STORAGE",
    "LIGHTRAG_DOC_STATUS_STORAGE",
    "LIGHTRAG_VECTOR_STORAGE",
    "LIGHTRAG_GRAPH_STORAGE",
    "WORKSPACE",
)
#: Loggers whose level ``main()`` lowers (LightRAG's and its vector store's).
_QUIETED = ("lightrag", "nano-vectordb")


@pytest.fixture
def restored_logging():
    """``main()`` configures our logger and quiets LightRAG's: give them back as they were."""
    ours = logging.getLogger("lightrag.pchunk")
    theirs = [logging.getLogger(name) for name in _QUIETED]
    saved = (list(ours.handlers), ours.level, ours.propagate, [log.level for log in theirs])
    yield
    ours.handlers[:] = saved[0]
    ours.setLevel(saved[1])
    ours.propagate = saved[2]
    for log, level in zip(theirs, saved[3], strict=True):
        log.setLevel(level)


@pytest.fixture
def clean_p_env(monkeypatch, restored_logging):
    """No P variables in the environment, and the loggers restored afterwards."""
    for name in P_ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    yield


@pytest.fixture
def fresh_lightrag(clean_p_env, fresh_lightrag_state):
    """A clean P environment and a fresh LightRAG process state, for a test that runs a real
    LightRAG."""
    import lightrag.utils  # noqa: F401  (its logging set-up runs now, not mid-test)

    yield


@pytest.fixture(scope="module")
def parsed_example(tmp_path_factory):
    """The bundled example document, parsed once per test module."""
    return parse_docx(example_path(), tmp_path_factory.mktemp("parsed"))
