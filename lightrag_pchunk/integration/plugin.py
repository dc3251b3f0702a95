"""Plugging into LightRAG itself: ``install()`` and the ``lightrag.chunkers`` entry point.

``install()`` replaces ``lightrag.chunker.chunking_by_paragraph_semantic``: LightRAG 1.5.x's
pipeline imports that name from ``lightrag.chunker`` each time it dispatches P, so after
``install()`` every document LightRAG itself routes to P (server uploads with
``LIGHTRAG_PARSER=docx:native-P``, ``report.[native-P].docx``) is chunked by our P.

``chunker_spec`` is what ``pyproject.toml`` declares under ``lightrag.chunkers``. LightRAG
versions newer than 1.5.7 load it and call it with no arguments to register a
``ChunkerSpec``; ``CUSTOM_CHUNKER=paragraph_semantic_pchunk`` then selects our async
``chunking_func`` for ``C`` and no-selector documents, with their ``ChunkingContext``.

``python -m lightrag_pchunk.integration.plugin [lightrag-server options]`` runs LightRAG's
server with ``install()`` done first.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from lightrag_pchunk.integration.chunker import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.strategy import check_config

logger = logging.getLogger("lightrag.pchunk")

CHUNKER_NAME = "paragraph_semantic_pchunk"
_TARGET_MODULE = "lightrag.chunker"
_TARGET_NAME = "chunking_by_paragraph_semantic"

_lock = threading.Lock()
_original: Any = None  # LightRAG's function, while ours is installed


def _package_version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover - Python < 3.8
        return "0"
    try:
        return version("lightrag-pchunk")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0"


def is_installed() -> bool:
    """Whether LightRAG's P dispatch currently runs our chunker."""
    import lightrag.chunker

    return getattr(lightrag.chunker, _TARGET_NAME, None) is chunking_by_paragraph_semantic


def install(*, env: Mapping[str, str] | None = None) -> bool:
    """Make LightRAG's own P dispatch run our chunker; idempotent. True if it patched now.

    Validates LIGHTRAG_PARSER and the CHUNK_P_* variables first, so a bad configuration
    stops the start-up instead of failing documents later.

    Raises:
        ParserRoutingConfigError: an invalid LIGHTRAG_PARSER rule (named).
        ValueError: a bad CHUNK_P_* value (named).
    """
    global _original
    check_config(env)
    import lightrag.chunker

    with _lock:
        current = getattr(lightrag.chunker, _TARGET_NAME)
        if current is chunking_by_paragraph_semantic:
            return False
        _original = current
        setattr(lightrag.chunker, _TARGET_NAME, chunking_by_paragraph_semantic)
    logger.info(
        "paragraph_semantic installed: LightRAG's P strategy now runs lightrag_pchunk "
        "(%s.%s replaced)",
        _TARGET_MODULE,
        _TARGET_NAME,
    )
    return True


def uninstall() -> bool:
    """Give LightRAG its own P chunker back; True if it was installed."""
    global _original
    import lightrag.chunker

    with _lock:
        if getattr(lightrag.chunker, _TARGET_NAME, None) is not chunking_by_paragraph_semantic:
            return False
        if _original is None:  # installed by hand: the upstream module still has the original
            from lightrag.chunker import paragraph_semantic

            _original = paragraph_semantic.chunking_by_paragraph_semantic
        setattr(lightrag.chunker, _TARGET_NAME, _original)
        _original = None
    logger.info("paragraph_semantic uninstalled: LightRAG's own P strategy is back")
    return True


@dataclass(frozen=True)
class PchunkChunkerSpec:
    """LightRAG's ``ChunkerSpec`` fields, and the zero-argument registration call.

    Newer LightRAG loads the ``lightrag.chunkers`` entry point and calls it; calling this
    object registers the spec with ``lightrag.chunker.registry.register_chunker``. Code that
    reads the fields directly (duck-typed) sees a spec.
    """

    name: str
    impl: str
    version: str
    description: str
    executor_safe: bool = False  # an async function: LightRAG refuses executor offload for it
    accepts_context: bool = True

    def as_dict(self) -> dict[str, Any]:
        """The six fields, as ``ChunkerSpec(**spec.as_dict())`` takes them."""
        return asdict(self)

    def __call__(self) -> None:
        """Register with LightRAG's chunker registry (LightRAG versions newer than 1.5.7).

        Raises:
            RuntimeError: this LightRAG has no chunker registry (1.5.7 and older: use
                ``chunking_func=`` or ``install()`` instead).
        """
        try:
            from lightrag.chunker.registry import ChunkerSpec, register_chunker
        except ImportError as exc:
            raise RuntimeError(
                "this LightRAG has no lightrag.chunker.registry (added after 1.5.7): pass "
                "chunking_func=lightrag_pchunk.chunking_func or call lightrag_pchunk.install()"
            ) from exc
        register_chunker(ChunkerSpec(**self.as_dict()))


chunker_spec = PchunkChunkerSpec(
    name=CHUNKER_NAME,
    impl="lightrag_pchunk.integration.chunking_func:chunking_func",
    version=_package_version(),
    description="Paragraph Semantic (P) chunking of DOCX blocks by lightrag-pchunk",
)
"""The ``lightrag.chunkers`` entry point (``paragraph_semantic_pchunk``)."""


def run_server(argv: Sequence[str] | None = None) -> Any:
    """``install()``, then LightRAG's server ``main()`` with ``argv`` as its arguments."""
    # Import the server first: it loads .env, so install() validates what the server will use.
    from lightrag.api.lightrag_server import main as server_main

    install()
    if argv is not None:
        sys.argv = [sys.argv[0], *argv]
    return server_main()


if __name__ == "__main__":  # pragma: no cover - exercised through run_server in the tests
    sys.exit(run_server(sys.argv[1:]))
