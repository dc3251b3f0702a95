"""Content rows as LightRAG 1.5.7 makes them (upstream facts §2.3-§2.4): each heading-scoped
block's text without the characters LightRAG strips, its blockid, the meta row's
``document_hash``, and the sidecar items each row's tags name (filled in with that row's
blockid and headings). Pure: nothing here touches the file system.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lightrag_pchunk.blockfile.sidecars import SIDECAR_KINDS
from lightrag_pchunk.model import BlockRow

# LightRAG strips these (C0 controls and separators, surrogates, U+FFFE/U+FFFF) from content.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


@dataclass(slots=True)
class SourceBlock:
    """A heading-scoped block before rendering: its heading, its content lines (a line may
    hold several text lines), LightRAG's ``positions`` for it and keys of our own for its
    row (``session_type`` of a table of contents, ``heading_source``, ``topic_breaks``)."""

    heading: str
    level: int
    parents: tuple[str, ...]
    lines: list[str]
    positions: tuple[dict[str, Any], ...]
    extra: dict[str, Any] = field(default_factory=dict)


def render_rows(
    blocks: list[SourceBlock], doc_id: str, pools: Mapping[str, Mapping[str, dict]]
) -> tuple[list[BlockRow], dict[str, dict[str, dict]], str]:
    """Content rows with LightRAG's blockids (their text without the characters LightRAG
    strips), the sidecar items their content names, and the meta row's ``document_hash``
    (``sha256:`` of the rows' merged text)."""
    pool = {item_id: item for records in pools.values() for item_id, item in records.items()}
    marker = f"-{doc_id.removeprefix('doc-')}-"  # in every id
    used: set[str] = set()
    rows: list[BlockRow] = []
    # The merged text (rows joined by a blank line) is hashed as the rows go: each row's
    # text is encoded once, for its blockid and for the document's hash. It holds no
    # surrogate (stripped), so "replace" changes nothing in it.
    document = hashlib.sha256()
    for index, block in enumerate(blocks):
        content = "\n".join(block.lines)
        content = strip_controls(content).strip()
        if not content:
            continue  # dropped, but later blocks keep their index (stable blockids)
        encoded = content.encode("utf-8", errors="replace")
        blockid_hash = hashlib.md5(f"{doc_id}:{index}:{block.heading}:".encode("utf-8", "replace"))
        blockid_hash.update(encoded)
        blockid = blockid_hash.hexdigest()
        if rows:
            document.update(b"\n\n")
        document.update(encoded)
        if marker in content:
            for item_id in _item_ids(content, marker):
                item = pool.get(item_id)
                if item is not None and item_id not in used:
                    used.add(item_id)
                    item.update(
                        blockid=blockid, heading=block.heading, parent_headings=list(block.parents)
                    )
        rows.append(
            BlockRow(
                content=content,
                heading=block.heading,
                parent_headings=block.parents,
                level=block.level,
                blockid=blockid,
                positions=block.positions,
                extra=block.extra,
            )
        )
    records = {
        kind: {k: v for k, v in pools.get(kind, {}).items() if k in used} for kind in SIDECAR_KINDS
    }
    return rows, records, "sha256:" + document.hexdigest()


def strip_controls(text: str) -> str:
    """``text`` without the characters LightRAG strips from content (C0 controls but tab
    and line ends, DEL, surrogates, U+FFFE and U+FFFF)."""
    return _CONTROL.sub("", text)


def _item_ids(content: str, marker: str) -> list[str]:
    """The sidecar ids (``tb|eq|im-<doc hash>-NNNN``) named in ``content``, in order.

    Found with plain searches for ``-<doc hash>-``: a regular expression would try every
    position of every row."""
    ids: list[str] = []
    position = content.find(marker)
    while position >= 0:
        end = digits = position + len(marker)
        while end < len(content) and content[end].isdigit():
            end += 1
        if end - digits >= 4 and content[position - 2 : position] in ("tb", "eq", "im"):
            ids.append(content[position - 2 : end])
        position = content.find(marker, end)
    return ids
