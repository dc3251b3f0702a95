"""Plugging into LightRAG itself: its file-chunker contract for P, its P dispatch,
``install()``, the ``lightrag.chunkers`` entry point.

:func:`chunking_by_paragraph_semantic` is our P with LightRAG 1.5.x's file-chunker
signature, an adapter on the front door (``front_door.py``): LightRAG passes a blocks path
and the per-document chunk options of its snapshot, which are the document's settings; what
it does not pass (our ``drop_toc``, ``table_text``, ``fill``) is resolved as everywhere else.

LightRAG 1.5.x's pipeline imports ``lightrag.chunker.chunking_by_paragraph_semantic`` each
time it dispatches P, so replacing that name changes what P runs. We replace it with
:func:`dispatch_p`, which runs our chunker

* on every P document once ``install()`` was called (server uploads with
  ``LIGHTRAG_PARSER=docx:native-P``, ``report.[native-P].docx``): P over LightRAG's parse;
* otherwise only on blocks our parser wrote (the ``pchunk`` engine of ``lightrag_parser.py``
  activates this when LightRAG loads it), handing every other document to LightRAG's own P.

``chunker_spec`` is what ``pyproject.toml`` declares under ``lightrag.chunkers``. LightRAG
versions newer than 1.5.7 load it and call it with no arguments to register a
``ChunkerSpec``; ``CUSTOM_CHUNKER=paragraph_semantic_pchunk`` then selects our async
``chunking_func`` for ``C`` and no-selector documents, with their ``ChunkingContext``.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from lightrag_pchunk.blockfile.jsonl import find_blocks_file
from lightrag_pchunk.integration.config import DROP, DROP_TOC, FILL, OVERLAP, SIZE, TABLE_TEXT
from lightrag_pchunk.integration.front_door import run
from lightrag_pchunk.integration.request import LIGHTRAG_P, Request
from lightrag_pchunk.integration.settings import check_config
from lightrag_pchunk.tokens import TokenizerLike
from lightrag_pchunk.version import package_version

logger = logging.getLogger("lightrag.pchunk")

CHUNKER_NAME = "paragraph_semantic_pchunk"
_TARGET_MODULE = "lightrag.chunker"
_TARGET_NAME = "chunking_by_paragraph_semantic"
#: The ``parser`` value of a blocks file's meta row written by this package starts so.
OUR_PARSER = "lightrag-pchunk"

_lock = threading.Lock()
_original: Any = None  # LightRAG's function, while ours is dispatched
_everything = False  # install(): our P for every document
_our_blocks = False  # the pchunk engine is registered: our P for our blocks


def chunking_by_paragraph_semantic(
    tokenizer: TokenizerLike,
    content: str,
    chunk_token_size: int = 2000,
    *,
    blocks_path: str | os.PathLike[str] | None = None,
    chunk_overlap_token_size: int = 100,
    drop_references: bool = False,
    drop_toc: bool | None = None,
    table_text: str | None = None,
    fill: str | None = None,
    references_tail_n: int | None = None,
    references_headings: Sequence[str] | None = None,
    doc_id: str | None = None,
    **_ignored: Any,
) -> list[dict[str, Any]]:
    """Paragraph Semantic chunking with LightRAG 1.5.x's file-chunker signature.

    A drop-in for ``lightrag.chunker.chunking_by_paragraph_semantic``: synchronous and
    thread-safe. Reads the document's ``.blocks.jsonl`` (and ``.tables.json`` headers),
    runs stages A-E and returns LightRAG chunk rows (``tokens``, ``content``,
    ``chunk_order_index``, the nested ``heading``, ``sidecar``). Without usable blocks it
    returns LightRAG's R chunks of ``content`` at this size (the decision says why).
    ``drop_toc`` leaves out tables of contents; ``table_text`` (``grid`` or ``keyed``) is how
    tables read in chunks; ``fill`` (``sections``, ``chapter`` or ``pack``) how far small
    sections fill a chunk; None reads ``CHUNK_P_DROP_TOC`` / ``CHUNK_P_TABLE_TEXT`` /
    ``CHUNK_P_FILL`` (defaults false, ``grid``, ``pack``). ``references_tail_n`` /
    ``references_headings`` default to ``CHUNK_P_REFERENCES_TAIL_N`` /
    ``CHUNK_P_REFERENCES_HEADINGS``; every variable is read on every call.

    Raises:
        ValueError: ``chunk_token_size`` < 1 or not an integer, a negative overlap, an
            overlap >= ``chunk_token_size`` (LightRAG clamps these silently; we refuse), or
            a ``table_text`` other than ``grid`` / ``keyed``, a ``fill`` other than
            ``sections`` / ``chapter`` / ``pack``.
    """
    options = {
        SIZE: chunk_token_size,
        OVERLAP: chunk_overlap_token_size,
        DROP: drop_references,
        DROP_TOC: drop_toc,
        TABLE_TEXT: table_text,
        FILL: fill,
        "references_tail_n": references_tail_n,
        "references_headings": references_headings,
    }
    request = Request(
        LIGHTRAG_P,
        content=content,
        blocks=blocks_path,
        lightrag_options={key: value for key, value in options.items() if value is not None},
        doc_id=doc_id,
    )
    return run(request, tokenizer).rows


def written_by_us(blocks_path: str | os.PathLike[str] | None) -> bool:
    """Whether a blocks file (or its ``.parsed/`` folder) was written by our parser."""
    found = find_blocks_file(str(blocks_path)) if blocks_path else None
    if found is None:
        return False
    try:
        with open(found, encoding="utf-8") as handle:
            meta = json.loads(handle.readline() or "{}")
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(meta, dict) and str(meta.get("parser") or "").startswith(OUR_PARSER)


def dispatch_p(
    tokenizer: Any,
    content: str,
    chunk_token_size: int = 2000,
    *,
    blocks_path: str | os.PathLike[str] | None = None,
    **options: Any,
) -> list[dict[str, Any]]:
    """LightRAG's P, as dispatched while we are plugged in: ours or LightRAG's (module doc)."""
    if _everything or written_by_us(blocks_path):
        return chunking_by_paragraph_semantic(
            tokenizer, content, chunk_token_size, blocks_path=blocks_path, **options
        )
    original = _original
    if original is None:  # a race with a full uninstall: the module has LightRAG's own
        from lightrag.chunker import paragraph_semantic

        original = paragraph_semantic.chunking_by_paragraph_semantic
    return original(tokenizer, content, chunk_token_size, blocks_path=blocks_path, **options)


def _apply() -> bool:
    """Point LightRAG's P at :func:`dispatch_p` while either mode is on, else at its own;
    True if that changed anything. Call with ``_lock`` held."""
    global _original
    import lightrag.chunker

    current = getattr(lightrag.chunker, _TARGET_NAME)
    wanted_ours = _everything or _our_blocks
    if wanted_ours and current is not dispatch_p:
        _original = current
        setattr(lightrag.chunker, _TARGET_NAME, dispatch_p)
        return True
    if not wanted_ours and current is dispatch_p:
        if _original is None:  # patched by hand: the upstream module still has the original
            from lightrag.chunker import paragraph_semantic

            _original = paragraph_semantic.chunking_by_paragraph_semantic
        setattr(lightrag.chunker, _TARGET_NAME, _original)
        _original = None
        return True
    return False


def is_installed() -> bool:
    """Whether LightRAG's P dispatch currently runs our chunker for every document."""
    import lightrag.chunker

    return _everything and getattr(lightrag.chunker, _TARGET_NAME, None) is dispatch_p


def install(*, env: Any = None) -> bool:
    """Make LightRAG's own P dispatch run our chunker on every document; idempotent. True
    if it changed anything now.

    Validates LIGHTRAG_PARSER and the CHUNK_P_* variables first, so a bad configuration
    stops the start-up instead of failing documents later.

    Raises:
        ParserRoutingConfigError: an invalid LIGHTRAG_PARSER rule (named).
        ValueError: a bad CHUNK_P_* value (named).
    """
    global _everything
    check_config(env)
    with _lock:
        was = _everything
        _everything = True
        changed = _apply() or not was
    if changed:
        logger.info(
            "paragraph_semantic installed: LightRAG's P strategy now runs lightrag_pchunk "
            "(%s.%s replaced)",
            _TARGET_MODULE,
            _TARGET_NAME,
        )
    return changed


def uninstall() -> bool:
    """Give LightRAG its own P chunker back (our blocks keep ours while the ``pchunk``
    engine is registered); True if it was installed."""
    global _everything
    with _lock:
        was = _everything
        _everything = False
        _apply()
    if was:
        logger.info("paragraph_semantic uninstalled: LightRAG's own P strategy is back")
    return was


def activate_for_our_blocks(active: bool = True) -> None:
    """Have LightRAG's P dispatch run our chunker on blocks our parser wrote (``active``),
    or stop; called when LightRAG registers the ``pchunk`` engine."""
    global _our_blocks
    with _lock:
        _our_blocks = active
        _apply()


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
    version=package_version(),
    description="Paragraph Semantic (P) chunking of DOCX blocks by lightrag-pchunk",
)
"""The ``lightrag.chunkers`` entry point (``paragraph_semantic_pchunk``)."""
