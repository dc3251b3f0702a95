"""The chunking benchmark's documents: written by ``docgen.py``, parsed by LightRAG's native
parser, cached under ``benchmarks/.work/docs-<hash>/`` (the hash covers ``docgen.py`` and
the lightrag-hku version, so a change of either builds them again)."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import docgen
from common import log, quiet

CACHE = Path(__file__).resolve().parent / ".work"


@dataclass(frozen=True)
class Doc:
    """A parsed benchmark document: its blocks file and the text LightRAG stores for it."""

    name: str
    blocks_path: Path
    content: str
    rows: int


def cache_dir() -> Path:
    digest = hashlib.sha256(Path(docgen.__file__).read_bytes())
    digest.update(metadata.version("lightrag-hku").encode())
    return CACHE / f"docs-{digest.hexdigest()[:10]}"


def build_doc(name: str, write: Callable[[Path], Path]) -> Doc:
    """``name``.docx written by ``write`` and parsed, unless the cache has both already."""
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    docx = folder / f"{name}.docx"
    if not docx.exists():
        log(f"writing {docx.name} ...")
        partial = docx.with_suffix(".partial.docx")
        write(partial)
        partial.replace(docx)
    out = folder / "parsed" / name
    found = sorted(out.rglob(f"{name}.blocks.jsonl")) if out.exists() else []
    return read_doc(name, found[0] if found else _parse_native(docx, out))


def series(kind: str, counts: Sequence[int]) -> list[Doc]:
    """A doubling series: ``sections`` (that many H3 leaves) or ``siblings`` (that many
    same-parent H2 sections)."""
    writers = {"sections": "h3_sections", "siblings": "count"}
    write = getattr(docgen, "small_sections" if kind == "sections" else "siblings")
    return [
        build_doc(f"{kind}_{count}", functools.partial(write, **{writers[kind]: count}))
        for count in counts
    ]


def read_doc(name: str, blocks_path: Path) -> Doc:
    """The content rows joined with a blank line: LightRAG's stored text of the document."""
    rows = []
    for line in blocks_path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line) if line.strip() else {}
        if record.get("type") == "content":
            rows.append(record["content"])
    return Doc(name, blocks_path, "\n\n".join(rows), len(rows))


def _parse_native(docx: Path, out: Path) -> Path:
    from lightrag.parser.cli import main

    with contextlib.redirect_stdout(io.StringIO()), quiet():
        code = main([str(docx), "--engine", "native", "-o", str(out)])
    found = sorted(out.rglob(f"{docx.stem}.blocks.jsonl"))
    if code not in (0, None) or not found:
        raise RuntimeError(f"LightRAG's native parser failed on {docx} (exit {code})")
    return found[0]
