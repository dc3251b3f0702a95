"""The sidecar files next to a blocks file: ``.tables.json``, ``.equations.json``,
``.drawings.json`` and the ``.blocks.assets/`` folder."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from lightrag_pchunk.blockfile.jsonl import blocks_stem

logger = logging.getLogger("lightrag.pchunk")

SidecarKind = Literal["tables", "equations", "drawings"]
#: The sidecar kinds, one ``<stem>.<kind>.json`` file each.
SIDECAR_KINDS: tuple[SidecarKind, ...] = ("tables", "equations", "drawings")
SIDECAR_VERSION = "1.0"


def sidecar_path(blocks_path: str | Path, kind: SidecarKind) -> Path:
    """``<dir>/<stem>.<kind>.json`` for the blocks file ``<dir>/<stem>.blocks.jsonl``."""
    blocks = Path(blocks_path)
    return blocks.with_name(f"{blocks_stem(blocks)}.{kind}.json")


def assets_dir(blocks_path: str | Path) -> Path:
    """``<dir>/<stem>.blocks.assets`` for a blocks file."""
    blocks = Path(blocks_path)
    return blocks.with_name(f"{blocks_stem(blocks)}.blocks.assets")


def write_sidecar(
    blocks_path: str | Path, kind: SidecarKind, items: Mapping[str, Mapping[str, Any]]
) -> Path | None:
    """Write ``{"version": "1.0", kind: items}`` (indent 2, trailing newline); none if empty."""
    if not items:
        return None
    out = sidecar_path(blocks_path, kind)
    payload = {"version": SIDECAR_VERSION, kind: {k: dict(v) for k, v in items.items()}}
    out.write_text(json.dumps(payload, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return out


def read_sidecar(blocks_path: str | Path, kind: SidecarKind) -> dict[str, dict[str, Any]]:
    """Items of one sidecar keyed by id; ``{}`` when absent or unreadable (logged)."""
    path = sidecar_path(blocks_path, kind)
    if not path.is_file():
        return {}
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        logger.warning("paragraph_semantic sidecar %s unreadable, ignored: %s", path, exc)
        return {}
    items = payload.get(kind) if isinstance(payload, dict) else None
    if not isinstance(items, dict):
        logger.warning("paragraph_semantic sidecar %s has no %r mapping, ignored", path, kind)
        return {}
    return {str(k): v for k, v in items.items() if isinstance(v, dict)}


def read_table_headers(blocks_path: str | Path) -> dict[str, str]:
    """``{table_id: table_header}`` from ``<stem>.tables.json`` (a JSON rows string or a
    raw ``<thead>``), for tables that declare one."""
    return read_table_items(blocks_path)[0]


def read_table_items(blocks_path: str | Path) -> tuple[dict[str, str], dict[str, str]]:
    """From one read of ``<stem>.tables.json``: ``{table_id: table_header}`` (see
    :func:`read_table_headers`) and ``{table_id: keyed_rows}`` (our parser's rows keyed by
    their headers, for ``CHUNK_P_TABLE_TEXT=keyed``)."""
    headers: dict[str, str] = {}
    keyed: dict[str, str] = {}
    for table_id, item in read_sidecar(blocks_path, "tables").items():
        header = item.get("table_header")
        if isinstance(header, str) and header.strip():
            headers[table_id] = header
        elif isinstance(header, list) and header:
            headers[table_id] = json.dumps(header, ensure_ascii=False)
        if isinstance(item.get("keyed_rows"), str):
            keyed[table_id] = item["keyed_rows"]
    return headers, keyed
