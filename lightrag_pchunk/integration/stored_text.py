"""The text LightRAG stores for a raw document: what it passes ``chunking_func``, what the
registry keys a document by, and what says a document is empty."""

from __future__ import annotations

from lightrag_pchunk.naming import sanitize_text


def lightrag_sanitize(content: str) -> str:
    """The text LightRAG stores for a raw document (``sanitize_text_for_encoding``).

    LightRAG's own function is the ground truth (the key must match the text it passes to
    ``chunking_func`` byte for byte); ours implements the same rules if it moves.
    """
    try:
        from lightrag.utils import sanitize_text_for_encoding
    except ImportError:  # pragma: no cover - lightrag is a dependency
        return sanitize_text(content)
    return sanitize_text_for_encoding(content) or ""
