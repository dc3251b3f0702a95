"""The outline's optional language-model help, through the LightRAG instance's own model.

When the resolved settings ask for it (``Settings.llm_boundaries``: ``CHUNK_P_LLM_BOUNDARIES``
and its budget, read by ``llm_settings.py``), the instance's ``llm_model_func`` is asked the
questions of :mod:`lightrag_pchunk.outline.judge` while a document is parsed, within the
budget per document (both reported). Answers are cached on disk by the hash of the question,
so a re-parse asks nothing again. A model that fails, times out or answers nonsense changes nothing:
the rules' decisions stand. Never required: no model, no questions.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.llm_settings import BoundarySettings
from lightrag_pchunk.outline.judge import Budget, OutlineJudge

logger = logging.getLogger("lightrag.pchunk")

#: Seconds one question may take before it counts as "no opinion".
CALL_TIMEOUT = 120.0
#: Folder (inside the parsed-artefacts folder) that keeps the answers.
CACHE_DIR_NAME = ".llm-outline-cache"


class CachedModel:
    """``ask(prompt, system) -> answer`` for the outline judge, from a parse running in a worker
    thread: each question goes to the async ``llm`` on ``loop`` (the caller's event loop), and
    answers are kept in ``cache_dir`` (one small JSON file per question)."""

    def __init__(self, llm: Any, loop: asyncio.AbstractEventLoop, cache_dir: Path | None) -> None:
        self.llm = llm
        self.loop = loop
        self.cache_dir = cache_dir
        self.cached = 0

    def __call__(self, prompt: str, system: str) -> str:
        key = hashlib.sha256(f"{system}\0{prompt}".encode("utf-8", "surrogatepass")).hexdigest()
        path = self.cache_dir / f"{key}.json" if self.cache_dir is not None else None
        if path is not None and path.is_file():
            try:
                answer = json.loads(path.read_text(encoding="utf-8"))["answer"]
                if isinstance(answer, str):
                    self.cached += 1
                    return answer
            except (OSError, ValueError, KeyError, TypeError):
                pass  # a damaged cache entry is asked again
        future = asyncio.run_coroutine_threadsafe(self.llm(prompt, system_prompt=system), self.loop)
        try:
            answer = future.result(timeout=CALL_TIMEOUT)
        except TimeoutError:
            future.cancel()
            raise
        answer = answer if isinstance(answer, str) else str(answer)
        if path is not None:
            _write_atomically(path, json.dumps({"answer": answer}, ensure_ascii=False))
        return answer


def _write_atomically(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temp, path)
    except OSError as exc:  # a cache that cannot be written only costs a question next time
        logger.warning("paragraph_semantic outline LLM cache %s not written: %s", path, exc)


def outline_judge_for(
    rag: Any,
    settings: BoundarySettings,
    loop: asyncio.AbstractEventLoop,
    cache_dir: Path | None,
) -> OutlineJudge | None:
    """A judge asking ``rag.llm_model_func``, or None when the settings say off or the
    instance has no model."""
    llm = getattr(rag, "llm_model_func", None)
    if not settings.is_on or llm is None:
        return None
    return OutlineJudge(
        CachedModel(llm, loop, cache_dir),
        settings.modes,
        Budget(settings.max_calls, settings.max_tokens),
    )
