"""Shared test helpers: a 1-char = 1-token tokenizer for hand-checked cases, block builders."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from lightrag_pchunk.chunk.anchor_split import choose_anchors
from lightrag_pchunk.chunk.blocks import joiner_for, split_paragraphs
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.model import Block, BlockRow, TableRole
from lightrag_pchunk.tokens import TokenCounter

REPO_ROOT = Path(__file__).resolve().parents[1]


def run_within_cpu(code: str, seconds: int) -> subprocess.CompletedProcess[bytes]:
    """Python ``code`` run in a child process the kernel stops after ``seconds`` CPU-s: a
    bound on work that holds on a loaded machine (wall-clock time does not)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, preexec_fn=limit, capture_output=True, timeout=600
    )


class CharTokenizer:
    """One token per character: counts add up exactly, so boundaries can be computed by hand."""

    def encode(self, content: str) -> list[int]:
        return [ord(ch) for ch in content]

    def decode(self, tokens: list[int]) -> str:
        return "".join(chr(t) for t in tokens)


class OpaqueTokenizer:
    """A tokenizer behind a wrapper: the chunker cannot tell it is tiktoken (estimates path)."""

    def __init__(self, inner) -> None:
        self._inner = inner

    def encode(self, content: str) -> list[int]:
        return self._inner.encode(content)

    def decode(self, tokens: list[int]) -> str:
        return self._inner.decode(tokens)


def char_counter() -> TokenCounter:
    return TokenCounter(CharTokenizer())


def char_context(size: int, overlap: int = 0, **kwargs) -> Context:
    """A Context over the char tokenizer with N = ``size``; the spec's own merging phases
    (``fill="sections"``) unless the test asks for another fill."""
    kwargs.setdefault("fill", "sections")
    return Context.create(char_counter(), size, overlap, **kwargs)


def make_block(
    content: str,
    counter: TokenCounter,
    *,
    heading: str = "",
    parents: tuple[str, ...] = (),
    level: int = 1,
    source_row: int = 0,
    block_ids: tuple[str, ...] | None = None,
    role: TableRole = TableRole.NONE,
    is_title: bool = False,
) -> Block:
    """A block as stage A would make it from one content row (exact token count)."""
    paragraphs = split_paragraphs(content, counter)
    texts = [p.text for p in paragraphs]
    text = joiner_for(texts).join(texts)
    return Block(
        heading=heading,
        parent_headings=tuple(parents),
        level=level,
        paragraphs=paragraphs,
        content=text,
        tokens=counter.count(text),
        is_exact=True,
        role=role,
        source_row=source_row,
        block_ids=(f"b{source_row}",) if block_ids is None else block_ids,
        is_title=is_title,
    )


def anchor_texts(block: Block, ctx: Context) -> list[str]:
    """The texts of the paragraphs stage C chooses to cut ``block`` at."""
    return [block.paragraphs[i].text for i in choose_anchors(block, ctx)]


def make_row(
    content: str, heading: str = "", parents=(), level: int = 1, blockid: str = ""
) -> BlockRow:
    return BlockRow(
        content=content,
        heading=heading,
        parent_headings=tuple(parents),
        level=level,
        blockid=blockid,
    )


def shared_dir() -> Path | None:
    """``../shared`` next to the repository (or $PCHUNK_SHARED_DIR), if present."""
    configured = os.environ.get("PCHUNK_SHARED_DIR")
    path = Path(configured) if configured else REPO_ROOT.parent / "shared"
    return path if path.is_dir() else None


def corpus_files(kind: str) -> list[Path]:
    """The files of ``../shared/corpus/<kind>``: Word files for ``docx``, Markdown files
    (the corpus's README aside) for ``md``; none without ../shared."""
    shared = shared_dir()
    folder = shared / "corpus" / kind if shared else None
    if folder is None or not folder.is_dir():
        return []
    if kind == "md":
        return sorted(p for p in folder.glob("*.md") if p.name != "README.md")
    return sorted(p for p in folder.iterdir() if p.suffix in {".docx", ".docm", ".dotx", ".dotm"})


def pdfium_page_texts(path: Path) -> list[str]:
    """PDFium's bare text of every page of the PDF at ``path`` (``get_text_range``)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def flat_rows(rows: list[dict]) -> list[dict]:
    """Chunk rows with the nested ``heading`` spelled out flat (``heading`` as text,
    ``parent_headings``, ``level``), for assertions that read a chunk's place."""
    from lightrag_pchunk.integration.rows import heading_path

    flat = []
    for row in rows:
        item = dict(row)
        if isinstance(row.get("heading"), dict):
            path = heading_path(row)
            item.update(
                heading=path.heading, parent_headings=list(path.parent_headings), level=path.level
            )
        flat.append(item)
    return flat
