"""What a document gets, as data: :class:`Strategy`, :class:`Decision` and the blocks P reads.

``strategy.decide`` makes the decision; ``front_door.run`` carries it out. A decision made
before the document is parsed names the parser and has no blocks yet; the parse's blocks
complete it (``strategy.with_blocks``, where a P decision without usable blocks becomes R
at P's size, docs/strategy.md §10).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from lightrag_pchunk.blockfile.jsonl import LineProblem, find_blocks_file, read_blocks
from lightrag_pchunk.blockfile.sidecars import read_table_items
from lightrag_pchunk.errors import BlockFileError
from lightrag_pchunk.integration.config import PSettings
from lightrag_pchunk.integration.formats import Format
from lightrag_pchunk.integration.params import PARAGRAPH_SEMANTIC, RECURSIVE_CHARACTER
from lightrag_pchunk.integration.stored_text import lightrag_sanitize
from lightrag_pchunk.model import BlockRow

logger = logging.getLogger("lightrag.pchunk")

#: Why an empty document gets no chunks: every command and report says it in these words.
NO_TEXT = "the document has no text"


#: How much of a document's start (to the end of that line) is sanitised first to find text.
_HEAD_CHARS = 4096


def has_text(content: str) -> bool:
    """Whether ``content`` holds text LightRAG would store (its sanitising, then anything
    but whitespace): a document without is empty.

    Its first lines are looked at first: sanitising changes no character across a line
    break (an HTML entity never spans one), so text left in them is text left in the whole,
    and a long document is not sanitised whole to learn that it is not empty.
    """
    head_end = content.find("\n", _HEAD_CHARS)
    if head_end >= 0 and lightrag_sanitize(content[: head_end + 1]).strip():
        return True
    return bool(lightrag_sanitize(content).strip())


class Strategy(str, Enum):
    """The chunker a document gets; the values are LightRAG's selector letters."""

    P = PARAGRAPH_SEMANTIC
    """Paragraph Semantic: this package's chunker over the document's blocks."""
    R = RECURSIVE_CHARACTER
    """LightRAG's recursive-character chunker over the document's text."""

    def __str__(self) -> str:
        return self.value

    __format__ = str.__format__


@dataclass(slots=True)
class LoadedBlocks:
    """The content rows of a blocks file, or the reason P cannot use them."""

    rows: list[BlockRow] = field(default_factory=list)
    table_headers: dict[str, str] = field(default_factory=dict)
    path: Path | None = None
    source: str = ""  # where the path came from: "registry", "context.sidecar_location", ...
    problem: str | None = None
    keyed_rows: dict[str, str] = field(default_factory=dict)  # table id -> keyed rows JSON
    meta: dict[str, Any] | None = None  # the file's first (meta) row
    line_problems: list[LineProblem] = field(default_factory=list)
    #: The file's "content" strings read as text (``blockfile/raw_text.py``), what the
    #: no-loss check compares the chunks with; None when the rows come from no file.
    file_contents: tuple[str, ...] | None = None
    has_no_content: bool = False  # read, and no row holds text: an empty document's blocks

    @property
    def usable(self) -> bool:
        """True when P can chunk these rows."""
        return self.problem is None


def load_blocks(
    blocks_path: str | os.PathLike[str] | None, source: str = "blocks_path"
) -> LoadedBlocks:
    """Find and read a document's blocks (a ``.blocks.jsonl`` or its ``.parsed/`` folder)."""
    if blocks_path is None or not str(blocks_path).strip():
        return LoadedBlocks(source=source, problem=f"no {source} given")
    found = find_blocks_file(str(blocks_path).strip())
    if found is None:
        return LoadedBlocks(source=source, problem=f"blocks file not found at {blocks_path}")
    try:
        blocks = read_blocks(found, only_pages=True)  # a PDF's chunks get their pages
    except BlockFileError as exc:
        return LoadedBlocks(path=found, source=source, problem=str(exc))
    loaded = blocks_of(blocks.rows, found, source, read_table_items)
    loaded.meta, loaded.line_problems = blocks.meta, list(blocks.problems)
    loaded.file_contents = blocks.file_contents
    return loaded


def blocks_of(
    rows: Sequence[BlockRow],
    path: Path,
    source: str,
    read_sidecar_tables: Callable[[Path], tuple[dict[str, str], dict[str, str]]] | None = None,
) -> LoadedBlocks:
    """The content rows of ``rows`` (a parse just made, or a file just read) as P's input;
    ``read_sidecar_tables`` reads the table headers and keyed rows only when there is
    something to chunk."""
    content = [row for row in rows if row.content.strip()]
    if not content:
        problem = f"{path} has no content rows"
        return LoadedBlocks(path=path, source=source, problem=problem, has_no_content=True)
    headers, keyed = read_sidecar_tables(path) if read_sidecar_tables is not None else ({}, {})
    return LoadedBlocks(content, headers, path, source, keyed_rows=keyed)


def no_blocks(why: str) -> LoadedBlocks:
    """No blocks for a document, and why (a P decision then becomes R)."""
    return LoadedBlocks(source="none", problem=why)


@dataclass(frozen=True, slots=True)
class Decision:
    """What a document gets, and why: the one answer every entrance reads.

    ``strategy`` is P only with usable ``blocks`` and ``settings``. R carries the sizes it
    runs at (``Settings.r_size``: a command's flags, the route's ``R(...)`` block, else R's
    own in LightRAG's pipeline), or P's own size when a P route had no usable blocks
    (``is_fallback``). ``parser`` is the format whose parser reads the
    document's source file (None when its blocks or text already exist); until that parse
    is done ``blocks`` is None.
    """

    strategy: Strategy
    reason: str
    blocks: LoadedBlocks | None
    settings: PSettings | None
    r_size: int
    r_overlap: int
    is_fallback: bool = False
    file_name: str | None = None
    doc_id: str | None = None
    parser: Format | None = None
    is_empty: bool = False

    @property
    def blocks_path(self) -> Path | None:
        """The blocks file P reads (None when there is none)."""
        return self.blocks.path if self.blocks is not None else None

    def describe(self) -> str:
        """The decision in words, as the log line and ``inspect`` print it."""
        if self.is_empty:
            return f"empty: {NO_TEXT}, nothing to chunk"
        if self.strategy is Strategy.P:
            assert self.settings is not None
            where = "not parsed yet"
            if self.blocks is not None:
                where = f"{self.blocks.path} (from {self.blocks.source})"
            return f"P ({self.reason}); blocks {where}; {self.settings.describe()}"
        sizes = f"chunk_token_size={self.r_size} overlap={self.r_overlap}"
        if self.is_fallback:
            return f"fallback to recursive_character: {self.reason}; {sizes}"
        return f"recursive_character, P does not apply: {self.reason}; {sizes}"

    def log(self, note: str = "") -> None:
        """The one log line of this decision (WARNING for a fallback, else INFO; an empty
        document is no fallback), ``note`` after it."""
        log = logger.warning if self.is_fallback else logger.info
        log(
            "paragraph_semantic doc=%s file=%s: %s%s",
            self.doc_id or "unknown",
            self.file_name,
            self.describe(),
            f"; {note}" if note else "",
        )
