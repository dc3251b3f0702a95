"""The outline's optional language-model help, through the LightRAG instance's own model.

``CHUNK_P_LLM_BOUNDARIES=off|ambiguous|long|ambiguous,long`` (default ``off``; also
``addon_params["chunker"]["paragraph_semantic"]["llm_boundaries"]``) asks the instance's
``llm_model_func`` the questions of :mod:`lightrag_pchunk.outline.judge` while a document is
parsed: at most ``CHUNK_P_LLM_MAX_CALLS`` calls and ``CHUNK_P_LLM_MAX_TOKENS`` estimated tokens
per document (both reported). Answers are cached on disk by the hash of the question, so a
re-parse asks nothing again. A model that fails, times out or answers nonsense changes nothing:
the rules' decisions stand. Never required: no model, no questions.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lightrag_pchunk.outline.judge import BoundaryMode, Budget, OutlineJudge, parse_modes

logger = logging.getLogger("lightrag.pchunk")

MODES_ENV = "CHUNK_P_LLM_BOUNDARIES"
MAX_CALLS_ENV = "CHUNK_P_LLM_MAX_CALLS"
MAX_TOKENS_ENV = "CHUNK_P_LLM_MAX_TOKENS"
DEFAULT_MAX_CALLS = 8
DEFAULT_MAX_TOKENS = 24_000
#: Seconds one question may take before it counts as "no opinion".
CALL_TIMEOUT = 120.0
#: Folder (inside the parsed-artefacts folder) that keeps the answers.
CACHE_DIR_NAME = ".llm-outline-cache"


@dataclass(frozen=True, slots=True)
class BoundarySettings:
    """What the model is asked, and the per-document budget."""

    modes: frozenset[BoundaryMode] = frozenset()
    max_calls: int = DEFAULT_MAX_CALLS
    max_tokens: int = DEFAULT_MAX_TOKENS

    @property
    def is_on(self) -> bool:
        return bool(self.modes)


def resolve_boundary_settings(
    addon_params: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None
) -> BoundarySettings:
    """``addon_params["chunker"]["paragraph_semantic"]`` keys ``llm_boundaries``,
    ``llm_max_calls``, ``llm_max_tokens``, over the environment variables.

    Raises:
        ValueError: a bad mode or a budget that is not a positive integer, naming it.
    """
    env = os.environ if env is None else env
    section: Mapping[str, Any] = {}
    chunker = (addon_params or {}).get("chunker") if isinstance(addon_params, Mapping) else None
    if isinstance(chunker, Mapping) and isinstance(chunker.get("paragraph_semantic"), Mapping):
        section = chunker["paragraph_semantic"]
    path = "addon_params['chunker']['paragraph_semantic']"
    if section.get("llm_boundaries") is not None:
        modes = parse_modes(section["llm_boundaries"], source=f"{path}['llm_boundaries']")
    else:
        modes = parse_modes(env.get(MODES_ENV), source=f"{MODES_ENV} (env)")
    limits = []
    for key, name, default in (
        ("llm_max_calls", MAX_CALLS_ENV, DEFAULT_MAX_CALLS),
        ("llm_max_tokens", MAX_TOKENS_ENV, DEFAULT_MAX_TOKENS),
    ):
        raw, source = section.get(key), f"{path}['{key}']"
        if raw is None:
            raw, source = env.get(name), f"{name} (env)"
        limits.append(_positive(raw, source, default))
    return BoundarySettings(modes, limits[0], limits[1])


def _positive(raw: object, source: str, default: int) -> int:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return default
    try:
        value = int(str(raw).strip()) if not isinstance(raw, bool) else None
    except ValueError:
        value = None
    if value is None or value < 1:
        raise ValueError(f"{source} must be a positive integer, got {raw!r}")
    return value


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
