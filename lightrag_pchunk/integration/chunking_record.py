"""What a document was parsed and chunked with, recorded with it: :class:`ChunkingRecord`.

``ainsert_files`` records, for every document it inserts, the settings the front door
resolved for it (strategy, P's size, overlap, table text, fill and drops or R's sizes and
separators, the parser, its smart outline and model questions, the package version) and the
md5 of the source file, in two places:

* LightRAG's ``doc_status`` record of the document, ``metadata["lightrag_pchunk"]``, written
  once LightRAG processed it (JSON and PostgreSQL alike: the metadata is one JSON value).
  LightRAG 1.5.7 rebuilds a document's metadata on each of its status changes from a fixed
  list of keys, so the record lasts while the document stays processed: LightRAG changes a
  processed document's status only when it processes it again or deletes it;
* our registry entry of the document (``registry_entry.py``), written before LightRAG
  processes it, which lasts until the document is deleted or inserted again.

``rechunk.py`` makes a record of the settings resolved now, reads the stored one and
compares them (:meth:`ChunkingRecord.changes`): a difference makes the document *stale*
(``size 2000 -> 1200``), and ``ainsert_files(rechunk=True)`` inserts it again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

#: The key of our record in a LightRAG doc_status record's ``metadata``.
METADATA_KEY = "lightrag_pchunk"
_READ_SIZE = 1 << 20

#: How each setting is named in a change (``size 2000 -> 1200``), in the order reported.
_LABELS = {
    "strategy": "strategy",
    "size": "size",
    "overlap": "overlap",
    "table_text": "table text",
    "fill": "fill",
    "drop_references": "drop references",
    "references": "references window",
    "drop_toc": "drop tables of contents",
    "separators": "separators",
    "parser": "parser",
    "smart_heading": "smart heading",
    "llm_boundaries": "LLM boundaries",
    "version": "package",
}


@dataclass(frozen=True, slots=True)
class ChunkingRecord:
    """The settings one document was parsed and chunked with, and its source file's md5.

    ``size`` and ``overlap`` are P's for a P document, R's for an R one; the P-only fields
    are None for R, ``separators`` (what R cuts at, :func:`separators_text`) None for P.
    ``parser`` names the parser of the file's format (``word``, ``markdown``, ``pdf``;
    ``text`` for a file read as written), ``version`` the package that parsed and chunked
    it. A field an older record lacks is None: unknown, so changed.
    """

    strategy: str
    size: int
    overlap: int
    table_text: str | None = None
    fill: str | None = None
    drop_references: bool | None = None
    references: str | None = None
    drop_toc: bool | None = None
    separators: str | None = None
    parser: str | None = None
    smart_heading: str | None = None
    llm_boundaries: str | None = None
    version: str | None = None
    source_md5: str | None = None

    def changes(self, current: ChunkingRecord) -> list[str]:
        """What differs from ``current``, in words: ``["size 2000 -> 1200"]`` (the source
        file is not compared: its content is another question)."""
        found = []
        for name, label in _LABELS.items():
            old, new = getattr(self, name), getattr(current, name)
            if old != new:
                found.append(f"{label} {_word(old)} -> {_word(new)}")
        return found

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChunkingRecord:
        """Read the stored form (raises KeyError/TypeError/ValueError when malformed)."""
        known = {f.name for f in fields(cls)}
        values = {key: value for key, value in data.items() if key in known}
        return cls(**{**values, "size": int(data["size"]), "overlap": int(data["overlap"])})


def separators_text(separators: Sequence[str] | None) -> str:
    """R's separators as a record keeps them: their JSON list (``["\\n\\n", "。"]``), or
    LangChain's cascade for None."""
    if separators is None:
        return "LangChain's cascade"
    return json.dumps(list(separators), ensure_ascii=False)


def _word(value: Any) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def file_md5(path: Path) -> str:
    """The md5 of a file's bytes (read in pieces)."""
    digest = hashlib.md5()
    with open(path, "rb") as handle:
        while block := handle.read(_READ_SIZE):
            digest.update(block)
    return digest.hexdigest()
