"""The text LightRAG stores for a raw document: what it passes ``chunking_func``, what the
registry keys a document by, and what says a document is empty."""

from __future__ import annotations


def lightrag_sanitize(content: str) -> str:
    """The text LightRAG stores for a raw document: LightRAG's own
    ``sanitize_text_for_encoding``, so the registry key matches the text it passes to
    ``chunking_func`` byte for byte."""
    from lightrag.utils import sanitize_text_for_encoding

    return sanitize_text_for_encoding(content) or ""
