"""An OpenAI-compatible stand-in model server for end-to-end tests: deterministic, local.

``POST /v1/chat/completions`` answers an entity-extraction prompt with its completion
delimiter only (no entities, no relations: a well-formed, empty extraction), a keyword
prompt with empty keyword lists, anything else with a fixed sentence; streaming requests
get the same text as server-sent events. ``POST /v1/embeddings`` returns the offline hashing
embedding (``lightrag_pchunk.cli.offline_models.hash_vector``), as floats or base64, as asked.
Every request is counted by path, so a test can tell the models were really called.

:class:`CountingModel` is the same kind of stand-in as an in-process ``llm_model_func`` that
extracts: each text's most frequent long words as entities, the first two related, with a
description that names the text (so entities shared by many chunks gather descriptions and
LightRAG merges them, with a summary call past its threshold). It counts its calls by kind
(``extract``, ``glean``, ``summary``, ``keywords``, ``other``): what a re-chunk costs.
"""

from __future__ import annotations

import base64
import json
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from lightrag_pchunk.cli.offline_models import HASH_EMBEDDING_DIM, hash_vector

COMPLETION_DELIMITER = "<|COMPLETE|>"
KEYWORDS_ANSWER = json.dumps({"high_level_keywords": [], "low_level_keywords": []})
PLAIN_ANSWER = "The stand-in model has no opinion."
EMBEDDING_DIM = HASH_EMBEDDING_DIM
TUPLE = "<|#|>"
_ENTITY_WORD = re.compile(r"[^\W\d_]{7,}")
_INPUT_TEXT = re.compile(r"---Input Text---\n```\n(.*?)\n```", re.S)


def extraction_answer(text: str) -> str:
    """A well-formed extraction of ``text`` in LightRAG's delimited format: its three most
    frequent words of seven letters or more as entities, the first two related; the same
    text always gets the same answer."""
    counts = Counter(word.lower() for word in _ENTITY_WORD.findall(text))
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:3]
    names = [word.title() for word, _ in ranked]
    opening = " ".join(text.split()[:8])
    lines = [
        f"entity{TUPLE}{name}{TUPLE}concept{TUPLE}{name}, {count} times in a text opening "
        f"'{opening}'."
        for name, (_, count) in zip(names, ranked, strict=True)
    ]
    if len(names) >= 2:
        lines.append(
            f"relation{TUPLE}{names[0]}{TUPLE}{names[1]}{TUPLE}co-occurrence{TUPLE}"
            f"{names[0]} and {names[1]} in a text opening '{opening}'."
        )
    return "\n".join([*lines, COMPLETION_DELIMITER])


def call_kind(prompt: str, system_prompt: str | None, history: list | None) -> str:
    """What LightRAG asks: extract, glean (the follow-up of an extraction), summary (of an
    entity's descriptions), keywords (of a query), other."""
    text = f"{system_prompt or ''}\n{prompt}"
    if history and COMPLETION_DELIMITER in text:
        return "glean"
    if "---Input Text---" in prompt:
        return "extract"
    if "Description List" in text:
        return "summary"
    if "keywords" in text and "JSON" in text:
        return "keywords"
    return "other"


class CountingModel:
    """An in-process ``llm_model_func`` that extracts (:func:`extraction_answer`) and counts
    its calls by kind (:func:`call_kind`) in ``calls``."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    async def __call__(
        self,
        prompt: str,
        system_prompt: str | None = None,
        history_messages: list[dict[str, Any]] | None = None,
        **_kwargs: Any,
    ) -> str:
        kind = call_kind(prompt, system_prompt, history_messages)
        self.calls[kind] += 1
        if kind == "extract":
            found = _INPUT_TEXT.search(prompt)
            return extraction_answer(found.group(1) if found else prompt)
        if kind == "glean":
            return COMPLETION_DELIMITER
        if kind == "summary":
            return "A summary of the descriptions."
        if kind == "keywords":
            return KEYWORDS_ANSWER
        return PLAIN_ANSWER


def chat_answer(messages: list[dict[str, Any]]) -> str:
    """The deterministic reply to a conversation."""
    text = "\n".join(str(m.get("content") or "") for m in messages)
    if COMPLETION_DELIMITER in text:
        return COMPLETION_DELIMITER
    if "keywords" in text and "JSON" in text:
        return KEYWORDS_ANSWER
    return PLAIN_ANSWER


class _Handler(BaseHTTPRequestHandler):
    server: _StandInServer

    def log_message(self, format: str, *args: Any) -> None:  # quiet test output
        return

    def _send_json(self, payload: dict[str, Any], status: int = 200) -> None:
        body = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            self._send_json({"object": "list", "data": [{"id": "stand-in", "object": "model"}]})
        else:
            self._send_json({"error": {"message": f"no route {self.path}"}}, 404)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(length) or b"{}")
        self.server.calls[self.path.rstrip("/").rsplit("/", 1)[-1]] += 1
        if self.path.endswith("/chat/completions"):
            self._chat(request)
        elif self.path.endswith("/embeddings"):
            self._embeddings(request)
        else:
            self._send_json({"error": {"message": f"no route {self.path}"}}, 404)

    def _chat(self, request: dict[str, Any]) -> None:
        answer = chat_answer(request.get("messages") or [])
        model = request.get("model", "stand-in")
        created = int(time.time())
        if not request.get("stream"):
            self._send_json(
                {
                    "id": "chatcmpl-stand-in",
                    "object": "chat.completion",
                    "created": created,
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": answer},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                }
            )
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for delta, finish in (({"role": "assistant", "content": answer}, None), ({}, "stop")):
            chunk = {
                "id": "chatcmpl-stand-in",
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")

    def _embeddings(self, request: dict[str, Any]) -> None:
        texts = request.get("input") or []
        texts = [texts] if isinstance(texts, str) else texts
        as_base64 = request.get("encoding_format") == "base64"
        data = []
        for index, text in enumerate(texts):
            vector = hash_vector(str(text), EMBEDDING_DIM)
            embedding: Any = (
                base64.b64encode(vector.astype("float32").tobytes()).decode("ascii")
                if as_base64
                else [float(x) for x in vector]
            )
            data.append({"object": "embedding", "index": index, "embedding": embedding})
        self._send_json(
            {
                "object": "list",
                "data": data,
                "model": request.get("model", "stand-in"),
                "usage": {"prompt_tokens": len(texts), "total_tokens": len(texts)},
            }
        )


class _StandInServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.calls: Counter[str] = Counter()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``, what an OpenAI client takes as its base URL."""
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


@contextmanager
def stand_in_models() -> Iterator[_StandInServer]:
    """The stand-in model server on a free local port, for the duration of the block."""
    server = _StandInServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
