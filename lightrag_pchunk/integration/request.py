"""One document as an entrance received it: the input of the front door (``front_door.py``).

An entrance fills in what it knows and nothing else: LightRAG's ``chunking_func`` call gives
the text (and maybe a ``ChunkingContext``), LightRAG's P call a blocks path and its chunk
options, ``ainsert_files`` and the commands a file, the commands their flags. ``resolve``
reads the settings from it, ``decide`` the strategy, ``run`` the chunks.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.registry_entry import RegisteredDocument

#: Entrances (``Request.entrance``), as log lines and traces name them.
CHUNKING_FUNC = "chunking_func"
LIGHTRAG_P = "LightRAG's P chunker call"
INGEST = "ainsert_files"
REGISTER = "register_document"
PCHUNK_ENGINE = "the pchunk parser engine"
COMMAND = "lightrag-pchunk {}"
EVAL = "lightrag-pchunk eval"


@dataclass(frozen=True, slots=True)
class Flags:
    """Settings the caller gave as arguments (None: not given): a command's flags, or
    ``evaluate()``'s arguments. They win over every other source."""

    size: int | None = None
    overlap: int | None = None
    smart_heading: str | None = None
    #: How the caller wrote them, for messages: a command's ``--size``, ``evaluate()``'s
    #: ``the size argument`` (``{}``: the setting's name).
    named: str = "--{}"


@dataclass(frozen=True, slots=True)
class Request:
    """One document to chunk (or parse), with everything its entrance knows of it.

    * ``content``: the text LightRAG stores for it (R chunks it; P reads it only to fall
      back). Empty for a file still to be parsed: the parse gives it.
    * ``file_name``: the name LightRAG routes it by (a ``[native-P]`` hint included).
    * ``source``: a file to parse (a registered format, or text read as written).
    * ``blocks``: its ``.blocks.jsonl`` (or ``.parsed/`` folder), given directly;
      ``blocks_source`` says by whom.
    * ``context``: LightRAG's ``ChunkingContext`` (versions newer than 1.5.7).
    * ``entry``: the registration of its text (``register_document``, ``ainsert_files``).
    * ``rag``: the LightRAG instance (its ``addon_params``, its constructor overlap).
    * ``addon_params``: given explicitly (they win over ``rag``'s).
    * ``lightrag_options``: the P options LightRAG's P call passes (its per-document
      snapshot: size, overlap, drops, the references window), as arguments.
    * ``lightrag_sizes``: the size and overlap of LightRAG's legacy call, for the log line:
      P and R take their own, as LightRAG's pipeline gives its P and R; without the
      instance's options, R reads its constructor's sizes from them.
    * ``strict``: refuse a bad ``LIGHTRAG_PARSER`` rule or file-name hint (an entrance that
      starts a job); else read them best-effort, with a warning, as LightRAG does at chunk
      time.
    """

    entrance: str
    content: str = ""
    file_name: str | None = None
    source: Path | None = None
    blocks: str | os.PathLike[str] | None = None
    blocks_source: str = "blocks_path"
    context: Any = None
    entry: RegisteredDocument | None = None
    rag: Any = None
    addon_params: Mapping[str, Any] | None = None
    lightrag_options: Mapping[str, Any] = field(default_factory=dict)
    lightrag_sizes: tuple[int, int] | None = None
    flags: Flags = Flags()
    doc_id: str | None = None
    strict: bool = False
    env: Mapping[str, str] | None = None

    @property
    def follows_registration(self) -> bool:
        """A registered text is chunked as decided at registration (LightRAG freezes its
        per-document snapshot at enqueue) unless a file name or ``addon_params`` is given
        explicitly."""
        return self.entry is not None and self.file_name is None and self.addon_params is None

    @property
    def environment(self) -> Mapping[str, str]:
        """The environment the settings are read from."""
        return os.environ if self.env is None else self.env
