"""Insert Word files with P chunking and ask a question, with real models through LightRAG's
own bindings: OpenAI (``lightrag.llm.openai``) or a local Ollama (``lightrag.llm.ollama``).

    export OPENAI_API_KEY=sk-...
    python examples/real_models.py openai standard.docx contract.docx

    ollama pull qwen2.5:7b && ollama pull bge-m3
    python examples/real_models.py ollama standard.docx

Prints one line per file (``standard.docx: inserted (P, 17 chunks)``), the answer, and the
heading path of each chunk the answer was built from. Not run by the test suite (it needs
the models); the README's example is the same program with offline stand-ins.
"""

from __future__ import annotations

import asyncio
import os
import sys
from functools import partial

from lightrag import LightRAG, QueryParam
from lightrag.utils import EmbeddingFunc

import lightrag_pchunk


def build_rag(provider: str, working_dir: str) -> LightRAG:
    """A LightRAG with our chunking_func and the provider's models."""
    if provider == "openai":
        from lightrag.llm.openai import gpt_4o_mini_complete, openai_embed

        # LightRAG's default tokenizer (o200k, the gpt-4o family's) downloads once.
        return LightRAG(
            working_dir=working_dir,
            chunking_func=lightrag_pchunk.chunking_func,
            llm_model_func=gpt_4o_mini_complete,
            embedding_func=openai_embed,  # text-embedding-3-small, 1536 dimensions
        )
    if provider == "ollama":
        from lightrag.llm.ollama import ollama_embed, ollama_model_complete

        host = os.environ.get("OLLAMA_HOST", "http://localhost:11434")
        return LightRAG(
            working_dir=working_dir,
            chunking_func=lightrag_pchunk.chunking_func,
            llm_model_func=ollama_model_complete,
            llm_model_name=os.environ.get("OLLAMA_MODEL", "qwen2.5:7b"),
            llm_model_kwargs={"host": host, "options": {"num_ctx": 32768}},
            embedding_func=EmbeddingFunc(
                embedding_dim=1024,
                max_token_size=8192,
                func=partial(ollama_embed.func, embed_model="bge-m3:latest", host=host),
            ),
        )
    raise SystemExit(f"unknown provider {provider!r}: use openai or ollama")


async def main(provider: str, files: list[str]) -> None:
    rag = build_rag(provider, f"rag_storage_{provider}")
    await rag.initialize_storages()
    try:
        report = await lightrag_pchunk.ainsert_files(rag, files)
        for result in report.results:
            print(result.describe())

        question = input("Question: ") if sys.stdin.isatty() else "What does it require?"
        param = QueryParam(mode="mix")
        print(await rag.aquery(question, param))
        # The chunks behind the answer, each with its place in its document.
        data = await rag.aquery_data(question, param)
        for hit in data.get("data", {}).get("chunks", []):
            chunk = await rag.text_chunks.get_by_id(hit["chunk_id"])
            print(f"- {hit['file_path']}: {lightrag_pchunk.heading_path(chunk)}")
    finally:
        await rag.finalize_storages()


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    asyncio.run(main(sys.argv[1], sys.argv[2:]))
