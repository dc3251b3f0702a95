"""Fixtures shared by the CLI tests: a clean P environment and the bundled example, parsed."""

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
)


@pytest.fixture
def clean_p_env(monkeypatch):
    """No P variables in the environment; the package logger restored afterwards (the CLI
    configures logging)."""
    for name in P_ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    logger = logging.getLogger("lightrag.pchunk")
    saved = (list(logger.handlers), logger.level, logger.propagate)
    yield
    logger.handlers[:] = saved[0]
    logger.setLevel(saved[1])
    logger.propagate = saved[2]


@pytest.fixture(scope="module")
def parsed_example(tmp_path_factory):
    """The bundled example document, parsed once per test module."""
    return parse_docx(example_path(), tmp_path_factory.mktemp("parsed"))
