"""lightrag-pchunk: Paragraph Semantic (P) chunking of DOCX and Markdown for LightRAG.

The public API, loaded on first use so that ``import lightrag_pchunk`` stays cheap
(LightRAG itself is imported only by the integration functions):

- parsing: :func:`parse_docx`, :func:`parse_markdown`, :func:`parse_pdf`,
  :class:`ParsedDocument`, :class:`DocumentParseError` (base of :class:`DocxParseError`,
  :class:`MarkdownParseError` and :class:`PdfParseError`)
- chunking: :func:`chunking_by_paragraph_semantic` (LightRAG's file-chunker contract),
  :func:`chunk_rows` (the pure pipeline), :class:`Block`, :class:`Chunk`, :class:`BlockRow`,
  :class:`Thresholds`, :func:`load_tiktoken`
- LightRAG integration: :func:`chunking_func` (async, LightRAG's ``chunking_func``) and
  :func:`chunking_func_for` (bound to one instance), :func:`ainsert_files`,
  :func:`register_document`, :func:`aregister_document`, :func:`check_config`,
  :func:`install`, :func:`uninstall`, :func:`is_installed`, :func:`heading_path` (a stored
  chunk's heading path), :func:`chunk_pages` (the pages a stored chunk of a PDF is printed
  on), :class:`Strategy`, :class:`Decision`, :func:`storage_options` (the storages and
  workspace ``lightrag-server`` takes from the environment, for your ``LightRAG(...)``)
- evaluation: :func:`evaluate` (does P retrieve better than R and F on your documents, and
  what does it cost?), :class:`EvalResult`
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from lightrag_pchunk.version import package_version

__version__ = package_version()

_EXPORTS = {
    "parse_docx": "lightrag_pchunk.parse.document",
    "parse_markdown": "lightrag_pchunk.markdown.document",
    "parse_pdf": "lightrag_pchunk.pdf.document",
    "ParsedDocument": "lightrag_pchunk.parse.artefacts",
    "DocumentParseError": "lightrag_pchunk.errors",
    "DocxParseError": "lightrag_pchunk.errors",
    "MarkdownParseError": "lightrag_pchunk.errors",
    "PdfParseError": "lightrag_pchunk.errors",
    "BlockFileError": "lightrag_pchunk.errors",
    "chunking_by_paragraph_semantic": "lightrag_pchunk.integration.plugin",
    "chunk_rows": "lightrag_pchunk.chunk.pipeline",
    "Block": "lightrag_pchunk.model",
    "BlockRow": "lightrag_pchunk.model",
    "Chunk": "lightrag_pchunk.model",
    "Thresholds": "lightrag_pchunk.model",
    "load_tiktoken": "lightrag_pchunk.encodings",
    "chunking_func": "lightrag_pchunk.integration.chunking_func",
    "chunking_func_for": "lightrag_pchunk.integration.chunking_func",
    "ainsert_files": "lightrag_pchunk.integration.ingest",
    "register_document": "lightrag_pchunk.integration.registration",
    "aregister_document": "lightrag_pchunk.integration.registration",
    "heading_path": "lightrag_pchunk.integration.rows",
    "chunk_pages": "lightrag_pchunk.integration.rows",
    "HeadingPath": "lightrag_pchunk.integration.rows",
    "Strategy": "lightrag_pchunk.integration.decision",
    "Decision": "lightrag_pchunk.integration.decision",
    "check_config": "lightrag_pchunk.integration.settings",
    "storage_options": "lightrag_pchunk.integration.storages",
    "install": "lightrag_pchunk.integration.plugin",
    "uninstall": "lightrag_pchunk.integration.plugin",
    "is_installed": "lightrag_pchunk.integration.plugin",
    "evaluate": "lightrag_pchunk.eval.run",
    "EvalResult": "lightrag_pchunk.eval.result",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'lightrag_pchunk' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
