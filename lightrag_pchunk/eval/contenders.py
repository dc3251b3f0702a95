"""The contenders: each turns one document into chunk texts, all with the same tokenizer and N.

* ``P``: ours, through the front door (``integration/front_door.py``) as every entrance,
  on the document's shared parse (our own parser where we have one);
* ``R`` / ``F``: LightRAG's recursive-character chunker as its pipeline runs it (its
  separators: ``integration/lightrag_r.py``) and its fixed-token chunker, on the same text;
* ``lightrag-P``: LightRAG's own parse of the file and its own P chunker: its native parser
  where it reads the format; for a PDF its ``legacy`` text, on which its P falls back to R
  (what a LightRAG user gets for a PDF today);
* ``docling``: docling's ``HybridChunker`` on docling's own conversion, ``contextualize()``
  text (headings prepended), counted with the same tiktoken encoding. Only when the user
  has docling installed: it is never a dependency of ours.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from lightrag_pchunk.eval.documents import EvalDocument, ParsedText
from lightrag_pchunk.integration.lightrag_r import lightrag_r, pipeline_separators

P, R, F, LIGHTRAG_P, DOCLING = "P", "R", "F", "lightrag-P", "docling"
#: Every contender, in report order; ours first.
CONTENDERS = (P, R, F, LIGHTRAG_P, DOCLING)
OURS = P


@dataclass(frozen=True, slots=True)
class ChunkSettings:
    """What every contender shares: N, the overlap, the tiktoken encoding's name; and R's
    separators, LightRAG's pipeline's (read once, where the settings are made)."""

    size: int
    overlap: int
    encoding: str
    r_separators: tuple[str, ...] | None = field(default_factory=pipeline_separators)


@dataclass(frozen=True, slots=True)
class DocumentChunks:
    """One contender's chunks of one document, or why it has none (``error``)."""

    contents: tuple[str, ...] = ()
    tokens: tuple[int, ...] = ()
    error: str | None = None


def parse_contenders(text: str | Sequence[str]) -> tuple[str, ...]:
    """``"P,R,F"`` -> ``("P", "R", "F")``, ours always included and first.

    Raises:
        ValueError: an unknown name.
    """
    names = [n.strip() for n in (text.split(",") if isinstance(text, str) else text)]
    names = [n for n in names if n]
    by_lower = {c.lower(): c for c in CONTENDERS}
    unknown = [n for n in names if n.lower() not in by_lower]
    if unknown:
        raise ValueError(
            f"unknown chunker {', '.join(unknown)}: choose from {', '.join(CONTENDERS)}"
        )
    chosen = {by_lower[n.lower()] for n in names} | {OURS}
    return tuple(c for c in CONTENDERS if c in chosen)


def unavailable(contender: str) -> str | None:
    """Why ``contender`` cannot run on this machine at all (None: it can)."""
    if contender == DOCLING and (
        importlib.util.find_spec("docling") is None
        or importlib.util.find_spec("docling_core") is None
    ):
        return (
            "docling's HybridChunker, an optional contender, needs docling, which is not"
            " installed here (pip install docling to compare it)"
        )
    return None


def _rows(chunks: list[dict[str, Any]]) -> DocumentChunks:
    kept = [c for c in chunks if str(c.get("content", "")).strip()]
    return DocumentChunks(
        tuple(str(c["content"]) for c in kept), tuple(int(c["tokens"]) for c in kept)
    )


def _ours(doc: EvalDocument, parsed: ParsedText, tokenizer: Any, s: ChunkSettings) -> Any:
    from lightrag_pchunk.integration.front_door import run
    from lightrag_pchunk.integration.request import EVAL, Flags, Request

    request = Request(
        EVAL,
        content=parsed.content,
        blocks=parsed.blocks_path,
        blocks_source=f"{parsed.parser}'s parse",
        flags=Flags(size=s.size, overlap=s.overlap),
        doc_id=doc.name,
    )
    return run(request, tokenizer).rows


def _recursive(parsed: ParsedText, tokenizer: Any, s: ChunkSettings) -> Any:
    return lightrag_r(tokenizer, parsed.content, s.size, s.overlap, separators=s.r_separators)


def _fixed(parsed: ParsedText, tokenizer: Any, s: ChunkSettings) -> Any:
    from lightrag.chunker.token_size import chunking_by_fixed_token

    return chunking_by_fixed_token(
        tokenizer, parsed.content, s.size, chunk_overlap_token_size=s.overlap
    )


def _lightrag_p(parsed: ParsedText, tokenizer: Any, s: ChunkSettings) -> Any:
    # The module's own function: install() replaces only the package attribute.
    from lightrag.chunker.paragraph_semantic import chunking_by_paragraph_semantic

    return chunking_by_paragraph_semantic(
        tokenizer,
        parsed.content,
        s.size,
        blocks_path=str(parsed.blocks_path) if parsed.blocks_path is not None else None,
        chunk_overlap_token_size=s.overlap,
    )


@cache
def _docling_converter() -> Any:
    # Made once per process: building docling's converter loads its format pipelines.
    from docling.document_converter import DocumentConverter

    return DocumentConverter()


def _docling(doc: EvalDocument, tokenizer: Any, s: ChunkSettings) -> DocumentChunks:
    import tiktoken
    from docling_core.transforms.chunker.hybrid_chunker import HybridChunker
    from docling_core.transforms.chunker.tokenizer.openai import OpenAITokenizer

    encoding = tiktoken.get_encoding(s.encoding)
    chunker = HybridChunker(tokenizer=OpenAITokenizer(tokenizer=encoding, max_tokens=s.size))
    converted = _docling_converter().convert(str(doc.path)).document
    texts = [chunker.contextualize(chunk=c) for c in chunker.chunk(dl_doc=converted)]
    texts = [t for t in texts if t.strip()]
    return DocumentChunks(tuple(texts), tuple(len(tokenizer.encode(t)) for t in texts))


def chunk_document(
    contender: str, doc: EvalDocument, tokenizer: Any, settings: ChunkSettings
) -> DocumentChunks:
    """``contender``'s chunks of ``doc``; a document it cannot read gets ``error``.

    An exception inside a contender is reported as that document's error, never raised:
    one chunker failing on one file must not stop the evaluation of the others.
    """
    try:
        if contender == DOCLING:
            return _docling(doc, tokenizer, settings)
        if contender == LIGHTRAG_P:
            if doc.lightrag is None:
                return DocumentChunks(error=doc.lightrag_error or "not parsed")
            return _rows(_lightrag_p(doc.lightrag, tokenizer, settings))
        if doc.shared is None:
            return DocumentChunks(error=doc.shared_error or "not parsed")
        if contender == P:
            return _rows(_ours(doc, doc.shared, tokenizer, settings))
        if contender == R:
            return _rows(_recursive(doc.shared, tokenizer, settings))
        if contender == F:
            return _rows(_fixed(doc.shared, tokenizer, settings))
    except Exception as exc:  # a contender's bug or refusal on one file
        return DocumentChunks(error=f"{contender} fails: {type(exc).__name__}: {exc}"[:300])
    raise ValueError(f"unknown contender {contender!r}")
