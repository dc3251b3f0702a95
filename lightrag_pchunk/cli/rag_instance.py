"""The LightRAG instance a command works on: the offline one of ``--no-llm`` or yours from
``--rag-factory MODULE:FUNCTION``, on the storages ``lightrag-server`` would use; and how
much LightRAG logs meanwhile (:func:`lightrag_logging`).

``ingest --no-llm`` builds its instance with the storages and workspace the environment
chooses for LightRAG's server (``integration/storages.py``: ``LIGHTRAG_*_STORAGE``,
``WORKSPACE``, or ``--workspace``), so what it inserts is where the server reads. A factory
builds its own instance: one that does not follow a storage variable set in the environment
is used as it is, with a note on stderr naming each difference and how to follow them
(``LightRAG(..., **lightrag_pchunk.storage_options())``).
"""

from __future__ import annotations

import importlib
import inspect
import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: LightRAG and nano-vectordb (its file vector store) log every step at INFO.
_CHATTY_LOGGERS = ("lightrag", "nano-vectordb")


@contextmanager
def lightrag_logging(chatty: bool) -> Iterator[None]:
    """LightRAG's and its vector store's log at INFO (``chatty``), else WARNING, while a
    command works with them; their levels are restored afterwards."""
    import lightrag.utils  # noqa: F401  (LightRAG sets its logger level on import: adjust after)

    loggers = [logging.getLogger(name) for name in _CHATTY_LOGGERS]
    saved = [log.level for log in loggers]
    for log in loggers:
        log.setLevel(logging.INFO if chatty else logging.WARNING)
    try:
        yield
    finally:
        for log, level in zip(loggers, saved, strict=True):
            log.setLevel(level)


def load_factory(spec: str) -> Callable[..., Any]:
    """Import ``MODULE:FUNCTION`` (a dotted attribute path after the colon is allowed).

    Raises:
        ValueError: the spec is malformed, or the module or function cannot be loaded.
    """
    module_name, sep, attribute = spec.partition(":")
    if not module_name or not sep or not attribute:
        raise ValueError(f"--rag-factory must look like MODULE:FUNCTION, got {spec!r}")
    try:
        target: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"--rag-factory {spec!r} cannot be loaded: {exc}") from exc
    if not callable(target):
        raise ValueError(f"--rag-factory {spec!r} is not callable")
    return target


async def factory_rag(spec: str, working_dir: str | Path) -> Any:
    """``FUNCTION(working_dir=...)`` of ``--rag-factory`` (awaited when it returns an
    awaitable): your LightRAG, not initialised."""
    rag = load_factory(spec)(working_dir=str(working_dir))
    if inspect.isawaitable(rag):
        rag = await rag
    return rag


async def command_rag(
    working_dir: Path,
    *,
    no_llm: bool,
    rag_factory: str | None,
    encoding: str | None = None,
    workspace: str | None = None,
) -> Any:
    """The instance of ``ingest``: offline on the server's storages, or the factory's with
    our ``chunking_func`` (module doc).

    Raises:
        ValueError: a factory that cannot be loaded, or LightRAG refusing a storage name or
            missing a storage's connection variable (its own message).
    """
    from lightrag.chunker import chunking_by_token_size

    from lightrag_pchunk.cli.offline_models import build_offline_rag
    from lightrag_pchunk.integration.chunking_func import chunking_func
    from lightrag_pchunk.integration.storages import mismatches, storage_choice

    # LightRAG creates a missing working dir after checking that it is missing: two commands
    # starting at once on a new one race there, and the loser dies on FileExistsError.
    Path(working_dir).mkdir(parents=True, exist_ok=True)
    choice = storage_choice(workspace=workspace)
    if no_llm:
        return build_offline_rag(working_dir, encoding=encoding, **choice.options())
    assert rag_factory is not None  # argparse: one of the two
    rag = await factory_rag(rag_factory, working_dir)
    if getattr(rag, "chunking_func", None) is chunking_by_token_size:
        rag.chunking_func = chunking_func
        print(
            "note: the factory's LightRAG used the default chunking_func; "
            "using lightrag_pchunk.chunking_func instead",
            file=sys.stderr,
        )
    for difference in mismatches(rag, choice):
        print(
            f"note: {difference} in the factory's LightRAG, which is used as it is; build it "
            "with LightRAG(..., **lightrag_pchunk.storage_options()) to use the storages "
            "lightrag-server uses",
            file=sys.stderr,
        )
    return rag
