"""The chunking benchmark's documents (``benchmarks/README.md`` describes each), written with
python-docx (seed 42) in the shape of LightRAG's own measurements, parsed by LightRAG's native
parser and cached under ``benchmarks/.work/docs-<hash>/`` (the hash covers this file and the
lightrag-hku version, so a change of either builds them again)."""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from common import DOC_ID, log
from docx import Document
from lightrag_helpers import lightrag_native_parse

from lightrag_pchunk.blockfile.jsonl import merged_text, read_blocks

from sample_docs import mark_header_row

CACHE = Path(__file__).resolve().parent / ".work"


@dataclass(frozen=True)
class Doc:
    """A parsed benchmark document: its blocks file and the text LightRAG stores for it."""

    name: str
    blocks_path: Path
    content: str


def build_doc(name: str, write: Callable[[Path], Path]) -> Doc:
    """``name``.docx written by ``write`` and parsed, unless the cache has both already."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(metadata.version("lightrag-hku").encode())
    folder = CACHE / f"docs-{digest.hexdigest()[:10]}"
    folder.mkdir(parents=True, exist_ok=True)
    docx = folder / f"{name}.docx"
    if not docx.exists():
        log(f"writing {docx.name} ...")
        partial = docx.with_suffix(".partial.docx")
        write(partial)
        partial.replace(docx)
    out = folder / "parsed" / name
    found = sorted(out.rglob(f"{name}.blocks.jsonl")) if out.exists() else []
    # One doc id, not LightRAG's hash of the path: the table ids it names are counted as
    # tokens, so the same document gives the same figures in any checkout.
    blocks_path = found[0] if found else lightrag_native_parse(docx, out, "--doc-id", DOC_ID)
    return Doc(name, blocks_path, merged_text(read_blocks(blocks_path).rows))


def series(kind: str, counts: Sequence[int]) -> list[Doc]:
    """A doubling series: ``sections`` (that many H3 leaves) or ``siblings`` (that many
    same-parent H2 sections)."""
    write = small_sections if kind == "sections" else siblings
    keyword = "h3_sections" if kind == "sections" else "count"
    return [
        build_doc(f"{kind}_{count}", functools.partial(write, **{keyword: count}))
        for count in counts
    ]


_WORDS = (
    "system data control security access policy review audit risk service operator "
    "network record report change process require must shall provide ensure support "
    "annual monitor incident response plan test user account configuration baseline "
    "assessment boundary component interface document procedure evidence approve "
    "maintain update protect information storage backup recovery continuity vendor "
    "contract agreement period notice compliance standard clause section annex table "
    "value measure limit threshold quality inspection safety design nuclear reactor "
    "pressure vessel coolant valve pump seismic category class function reliability"
).split()


def _sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(_WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def _paragraph(rng: random.Random, words: int) -> str:
    out: list[str] = []
    left = words
    while left > 0:
        n = min(left, rng.randint(8, 24))
        out.append(_sentence(rng, n))
        left -= n
    return " ".join(out)


_COLUMNS = ("ID", "Name", "Description", "Value", "Owner")


def _table(document, rng: random.Random, rows: int, with_header: bool) -> None:
    """``rows`` items under a row of column names, marked as the header row Word repeats on
    every page if ``with_header``."""
    table = document.add_table(rows=rows + 1, cols=len(_COLUMNS))
    for cell, name in zip(table.rows[0].cells, _COLUMNS, strict=True):
        cell.text = name
    if with_header:
        mark_header_row(table.rows[0])
    for number, row in enumerate(table.rows[1:], start=1):
        description = _sentence(rng, rng.randint(6, 14))
        value, owner = f"{rng.uniform(0, 1000):.1f}", rng.choice(_WORDS)
        texts = (str(number), f"Item {number}", description, value, owner)
        for cell, text in zip(row.cells, texts, strict=True):
            cell.text = text


def realistic(path: Path, seed: int = 42) -> Path:
    """Write the realistic benchmark document to ``path``."""
    rng = random.Random(seed)
    document = Document()
    tables_left = 4
    h3_left = 58
    for chapter in range(1, 21):
        document.add_heading(f"{chapter}. Chapter {rng.choice(_WORDS).title()}", level=1)
        document.add_paragraph(_paragraph(rng, rng.randint(80, 200)))
        for section in range(1, 11):
            document.add_heading(
                f"{chapter}.{section} {rng.choice(_WORDS).title()} {rng.choice(_WORDS)}",
                level=2,
            )
            if rng.random() < 0.08:
                continue  # heading-only section
            for _ in range(rng.randint(2, 7)):
                document.add_paragraph(_paragraph(rng, rng.randint(80, 400)))
            if rng.random() < 0.5:
                document.add_paragraph(_sentence(rng, rng.randint(3, 7)))
            if rng.random() < 0.35:
                style = "List Bullet" if rng.random() < 0.5 else "List Number"
                for _ in range(rng.randint(3, 8)):
                    document.add_paragraph(_sentence(rng, rng.randint(5, 15)), style=style)
            if tables_left and chapter in (3, 8, 13, 18) and section == 5:
                document.add_paragraph("The following table lists the items of this section.")
                _table(document, rng, 300, with_header=tables_left % 2 == 0)
                document.add_paragraph("The table above is maintained by the operator.")
                tables_left -= 1
            if h3_left and rng.random() < 0.3:
                for sub in range(1, rng.randint(2, 4)):
                    if not h3_left:
                        break
                    document.add_heading(
                        f"{chapter}.{section}.{sub} {rng.choice(_WORDS).title()}", level=3
                    )
                    document.add_paragraph(_paragraph(rng, rng.randint(80, 300)))
                    h3_left -= 1
    document.save(path)
    return path


def small_sections(path: Path, seed: int = 42, h3_sections: int = 5000) -> Path:
    """Write the small-sections benchmark document (``h3_sections`` H3 leaves) to ``path``."""
    rng = random.Random(seed)
    document = Document()
    per_h2 = 10
    h2_total = max(h3_sections // per_h2, 1)
    per_h1 = 20
    count = 0
    for h2 in range(h2_total):
        if h2 % per_h1 == 0:
            document.add_heading(f"Part {h2 // per_h1 + 1}", level=1)
        document.add_heading(f"Clause {h2 + 1}", level=2)
        for leaf in range(per_h2):
            if count >= h3_sections:
                break
            document.add_heading(f"{h2 + 1}.{leaf + 1} Requirement", level=3)
            document.add_paragraph(_paragraph(rng, rng.randint(25, 55)))
            count += 1
    document.save(path)
    return path


def siblings(path: Path, seed: int = 42, count: int = 4000, words: int = 96) -> Path:
    """Write ``count`` same-parent H2 siblings of ``words`` words each (~103 cl100k tokens) to
    ``path``: at N=100 every one is cut into pieces that share one parent."""
    rng = random.Random(seed)
    document = Document()
    document.add_heading("Root", level=1)
    for index in range(1, count + 1):
        document.add_heading(f"Sibling {index}", level=2)
        document.add_paragraph(_paragraph(rng, words))
    document.save(path)
    return path
