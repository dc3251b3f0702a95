"""LightRAG's storages and workspace, chosen from the environment as ``lightrag-server`` does.

The server reads ``LIGHTRAG_KV_STORAGE``, ``LIGHTRAG_DOC_STATUS_STORAGE``,
``LIGHTRAG_VECTOR_STORAGE`` and ``LIGHTRAG_GRAPH_STORAGE`` (each unset: LightRAG's file
storage) and ``WORKSPACE`` (its ``--workspace``; characters other than letters, digits and
``_`` become ``_``), and passes them to ``LightRAG(...)``; the storages themselves read their
connection variables (``POSTGRES_*`` …). ``LightRAG(...)`` alone reads only ``WORKSPACE``.
:func:`storage_choice` makes the same choice, so ``lightrag-pchunk ingest`` writes where the
server reads, and :func:`storage_options` hands it to your own ``LightRAG(...)``. An empty
value means the default, as everywhere in this package.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.registry import storage_folder
from lightrag_pchunk.integration.storage_lock import FILE_STORAGES

logger = logging.getLogger("lightrag.pchunk")

#: ``LightRAG(...)`` keyword, the variable ``lightrag-server`` reads it from, its role.
STORAGE_VARIABLES = (
    ("kv_storage", "LIGHTRAG_KV_STORAGE", "key-value"),
    ("doc_status_storage", "LIGHTRAG_DOC_STATUS_STORAGE", "doc status"),
    ("vector_storage", "LIGHTRAG_VECTOR_STORAGE", "vectors"),
    ("graph_storage", "LIGHTRAG_GRAPH_STORAGE", "graph"),
)
WORKSPACE_ENV = "WORKSPACE"
_NOT_IN_A_WORKSPACE_NAME = re.compile(r"[^a-zA-Z0-9_]")


def lightrag_default(keyword: str) -> str:
    """LightRAG's own default for a ``LightRAG(...)`` storage keyword (``JsonKVStorage`` …)."""
    from lightrag import LightRAG

    return str(LightRAG.__dataclass_fields__[keyword].default)


def sanitized_workspace(name: str) -> str:
    """A workspace name as ``lightrag-server`` keeps it (letters, digits and ``_``)."""
    return _NOT_IN_A_WORKSPACE_NAME.sub("_", name.strip())


@dataclass(frozen=True, slots=True)
class StorageChoice:
    """The four storages and the workspace, and where each came from (a variable, a flag,
    or LightRAG's default)."""

    kv_storage: str
    doc_status_storage: str
    vector_storage: str
    graph_storage: str
    workspace: str = ""
    sources: Mapping[str, str] = field(default_factory=dict)

    def options(self) -> dict[str, str]:
        """The ``LightRAG(...)`` keyword arguments of this choice."""
        names = {keyword: getattr(self, keyword) for keyword, _, _ in STORAGE_VARIABLES}
        return {**names, "workspace": self.workspace}

    @property
    def configured(self) -> dict[str, str]:
        """The keywords the environment (or a flag) sets, with their values."""
        return {
            keyword: value
            for keyword, value in self.options().items()
            if self.sources.get(keyword, "default") != "default"
        }


def storage_choice(
    env: Mapping[str, str] | None = None, *, workspace: str | None = None
) -> StorageChoice:
    """The storages and workspace ``lightrag-server`` would use with ``env`` (module doc);
    ``workspace`` (a command's ``--workspace``) wins over ``WORKSPACE``."""
    env = os.environ if env is None else env
    values: dict[str, str] = {}
    sources: dict[str, str] = {}
    for keyword, variable, _ in STORAGE_VARIABLES:
        raw = (env.get(variable) or "").strip()
        values[keyword] = raw or lightrag_default(keyword)
        sources[keyword] = variable if raw else "default"
    given, source = workspace, "--workspace"
    if given is None:
        given, source = env.get(WORKSPACE_ENV) or "", WORKSPACE_ENV
    name = sanitized_workspace(given)
    if name != given.strip():
        logger.warning(
            "paragraph_semantic workspace %r (%s) holds characters other than letters, digits "
            "and _: using %r, as lightrag-server does",
            given,
            source,
            name,
        )
    sources["workspace"] = source if name else "default"
    return StorageChoice(**values, workspace=name, sources=sources)


def storage_options(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``LightRAG(...)`` keyword arguments choosing the storages and workspace that
    ``lightrag-server`` chooses from the environment (``LIGHTRAG_*_STORAGE``, ``WORKSPACE``):
    ``LightRAG(working_dir=..., **lightrag_pchunk.storage_options(), ...)``."""
    return storage_choice(env).options()


def mismatches(rag: Any, choice: StorageChoice) -> list[str]:
    """What the environment chooses that ``rag`` does not use: ``LIGHTRAG_KV_STORAGE=
    PGKVStorage but JsonKVStorage`` (empty when ``rag`` follows every configured choice)."""
    variables = {keyword: variable for keyword, variable, _ in STORAGE_VARIABLES}
    variables["workspace"] = WORKSPACE_ENV
    found = []
    for keyword, wanted in choice.configured.items():
        used = str(getattr(rag, keyword, "") or "")
        if used != wanted:
            name = choice.sources.get(keyword, variables[keyword])
            found.append(f"{name}={wanted} but {used or 'none'}")
    return found


def describe_storage(rag: Any) -> str:
    """Where ``rag`` keeps its data, for a person: ``key-value and doc status in PostgreSQL
    rag@db:5432 (workspace team_a); vectors and graph in files of rag_storage/team_a``; ""
    when all of it is in files of the working dir itself (LightRAG's defaults)."""
    names = {str(getattr(rag, keyword, "") or "") for keyword, _, _ in STORAGE_VARIABLES}
    if names <= FILE_STORAGES and not getattr(rag, "workspace", ""):
        return ""
    places: dict[str, list[str]] = {}
    for keyword, _, role in STORAGE_VARIABLES:
        places.setdefault(_place(rag, str(getattr(rag, keyword, "") or "")), []).append(role)
    return "; ".join(f"{' and '.join(roles)} in {place}" for place, roles in places.items())


def _place(rag: Any, storage: str) -> str:
    if storage in FILE_STORAGES:
        folder = storage_folder(rag)
        inside = folder.is_relative_to(Path.cwd())
        return f"files of {folder.relative_to(Path.cwd()) if inside else folder}"
    if storage.startswith("PG"):
        kv = getattr(rag, "full_docs", None)
        db = getattr(kv, "db", None)
        # The tables' workspace: POSTGRES_WORKSPACE, else the instance's, else "default".
        workspace = str(getattr(kv, "workspace", "") or getattr(rag, "workspace", "") or "")
        env = os.environ
        user = getattr(db, "user", None) or env.get("POSTGRES_USER", "")
        host = getattr(db, "host", None) or env.get("POSTGRES_HOST", "localhost")
        port = getattr(db, "port", None) or env.get("POSTGRES_PORT", "5432")
        database = getattr(db, "database", None) or env.get("POSTGRES_DATABASE", "")
        where = f"PostgreSQL {database}@{host}:{port}" if database else "PostgreSQL"
        if user:
            where = f"{where} as {user}"
        return f"{where} (workspace {workspace})" if workspace else where
    return storage
