"""LightRAG 1.5.x's file-chunker contract for P: :func:`chunking_by_paragraph_semantic`.

An adapter on the front door (``front_door.py``): LightRAG's P dispatch (``plugin.py``)
calls it with a blocks path and the per-document chunk options of its snapshot, which are
the document's settings; what LightRAG does not pass (our ``drop_toc``, ``table_text``,
``fill``) is resolved as everywhere else.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from lightrag_pchunk.integration.config import DROP, DROP_TOC, FILL, OVERLAP, SIZE, TABLE_TEXT
from lightrag_pchunk.integration.front_door import run
from lightrag_pchunk.integration.request import LIGHTRAG_P, Request
from lightrag_pchunk.tokens import TokenizerLike


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
