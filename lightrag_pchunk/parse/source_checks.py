"""What a parser checks before it reads a source: that it is a regular file (a FIFO or a
device could block a read forever), that the names LightRAG's layout gives its artefacts fit
the file system's limit on one name, and that its ``doc_id`` is one LightRAG accepts.

The integration runs :func:`unreadable_source` too, to refuse such a file before it picks a
parser; :func:`~lightrag_pchunk.parse.artefacts.parse_to_folder` runs all three.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from lightrag_pchunk.blockfile.jsonl import BLOCKS_SUFFIX
from lightrag_pchunk.blockfile.sidecars import SIDECAR_KINDS
from lightrag_pchunk.naming import artefact_stem, canonical_basename

_DOC_ID = re.compile(r"[A-Za-z0-9_.-]{1,128}")
#: The longest name LightRAG's layout makes of a source's stem (``<stem>.equations.json``).
_LONGEST_ARTEFACT = max(
    len(suffix)
    for suffix in (BLOCKS_SUFFIX, ".blocks.assets", *(f".{kind}.json" for kind in SIDECAR_KINDS))
)
_PARSED_SUFFIX = ".parsed"
_FILE_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def check_doc_id(doc_id: str) -> None:
    """Raises ValueError when ``doc_id`` has characters outside ``[A-Za-z0-9_.-]``."""
    if not _DOC_ID.fullmatch(doc_id):
        raise ValueError(f"doc_id must match [A-Za-z0-9_.-]{{1,128}}, got {doc_id!r}")


def unreadable_source(source: Path) -> tuple[str, str] | None:
    """Why ``source`` is no file to read, as ``(reason, message)``: ``missing``, or
    ``not-a-file`` (a folder; a FIFO, socket or device, which a read could wait on
    forever); None for a regular file."""
    try:
        mode = source.stat().st_mode
    except FileNotFoundError:
        return "missing", "no such file"
    except OSError as exc:
        return "missing", f"cannot be read: {exc.strerror or exc}"
    if stat.S_ISDIR(mode):
        return "not-a-file", "a folder, not a file"
    if not stat.S_ISREG(mode):
        kind = next((what for test, what in _FILE_KINDS if test(mode)), "not a file")
        return "not-a-file", f"{kind}, not a regular file"
    return None


def name_too_long(source: Path) -> str | None:
    """Why the names LightRAG's layout gives ``source``'s artefacts would pass the file
    system's limit on one name (``<stem>.equations.json``, ``<name>.parsed``); None when
    they fit."""
    limit = _name_limit(source.parent)
    stem = len(artefact_stem(source).encode("utf-8", "surrogateescape"))
    name = len(canonical_basename(source.name).encode("utf-8", "surrogateescape"))
    longest = max(stem + _LONGEST_ARTEFACT, name + len(_PARSED_SUFFIX))
    if longest <= limit:
        return None
    keep = min(limit - _LONGEST_ARTEFACT, limit - len(_PARSED_SUFFIX) - (name - stem))
    return (
        f"its name is too long for LightRAG's layout of parsed files: they would be named"
        f" with up to {longest} bytes, over the file system's limit of {limit} bytes per"
        f" name; rename it to at most {keep} bytes before the extension"
    )


def _name_limit(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (AttributeError, OSError, ValueError):  # no pathconf (Windows): NTFS and most
        return 255
