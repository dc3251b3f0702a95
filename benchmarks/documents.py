"""The chunking benchmark's documents (``benchmarks/README.md`` describes each), written with
python-docx (seed 42), parsed by LightRAG's native parser and cached under
``benchmarks/.work/docs-<hash>/`` (the hash covers this file and the lightrag-hku version)."""

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

from lightrag_pchunk.blockfile.jsonl import merged_text, read_blocks
from lightrag_pchunk.eval.documents import lightrag_blocks_file

from sample_docs import mark_header_row

CACHE = Path(__file__).resolve().parent / ".work"
SEED = 42


@dataclass(frozen=True)
class Doc:
    """A parsed benchmark document: its blocks file and the text LightRAG stores for it."""

    name: str
    blocks_path: Path
    content: str


def build_doc(name: str, write: Callable[[Path], None]) -> Doc:
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
    blocks_path = found[0] if found else lightrag_blocks_file(docx, out, doc_id=DOC_ID)
    return Doc(name, blocks_path, merged_text(read_blocks(blocks_path).rows))


def series(kind: str, counts: Sequence[int]) -> list[Doc]:
    """A doubling series: ``sections`` (that many H3 leaves) or ``siblings`` (that many
    same-parent H2 sections)."""
    write = small_sections if kind == "sections" else siblings
    return [build_doc(f"{kind}_{n}", functools.partial(write, count=n)) for n in counts]


_WORDS = (
    "system data control security access policy review audit risk service operator network "
    "record report change process require must shall provide ensure support annual monitor "
    "incident response plan test user account configuration baseline assessment boundary "
    "component interface document procedure evidence approve maintain update protect "
    "information storage backup recovery continuity vendor contract agreement period notice "
    "compliance standard clause section annex table value measure limit threshold quality "
    "inspection safety design nuclear reactor pressure vessel coolant valve pump seismic "
    "category class function reliability"
).split()


def _sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(_WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def _paragraph(rng: random.Random, words: int) -> str:
    sentences = []
    while words > 0:
        n = min(words, rng.randint(8, 24))
        sentences.append(_sentence(rng, n))
        words -= n
    return " ".join(sentences)


def _table(document, rng: random.Random, rows: int, with_header: bool) -> None:
    """``rows`` items under a row of column names, marked as the header row Word repeats on
    every page if ``with_header``."""
    columns = ("ID", "Name", "Description", "Value", "Owner")
    table = document.add_table(rows=rows + 1, cols=len(columns))
    for cell, name in zip(table.rows[0].cells, columns, strict=True):
        cell.text = name
    if with_header:
        mark_header_row(table.rows[0])
    for number, row in enumerate(table.rows[1:], start=1):
        description = _sentence(rng, rng.randint(6, 14))
        value, owner = f"{rng.uniform(0, 1000):.1f}", rng.choice(_WORDS)
        texts = (str(number), f"Item {number}", description, value, owner)
        for cell, text in zip(row.cells, texts, strict=True):
            cell.text = text


def realistic(path: Path) -> None:
    """20 chapters of 10 sections: prose, lists, heading-only sections, 58 H3, 4 tables."""
    rng, document = random.Random(SEED), Document()
    tables_left, h3_left = 4, 58
    for chapter in range(1, 21):
        document.add_heading(f"{chapter}. Chapter {rng.choice(_WORDS).title()}", level=1)
        document.add_paragraph(_paragraph(rng, rng.randint(80, 200)))
        for section in range(1, 11):
            title = f"{chapter}.{section} {rng.choice(_WORDS).title()} {rng.choice(_WORDS)}"
            document.add_heading(title, level=2)
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
                    title = f"{chapter}.{section}.{sub} {rng.choice(_WORDS).title()}"
                    document.add_heading(title, level=3)
                    document.add_paragraph(_paragraph(rng, rng.randint(80, 300)))
                    h3_left -= 1
    document.save(path)


def small_sections(path: Path, count: int = 5000) -> None:
    """H3 leaves of 25-55 words, 10 under each of ``count // 10`` H2, 20 H2 per H1."""
    rng, document = random.Random(SEED), Document()
    for h2 in range(max(count // 10, 1)):
        if h2 % 20 == 0:
            document.add_heading(f"Part {h2 // 20 + 1}", level=1)
        document.add_heading(f"Clause {h2 + 1}", level=2)
        for leaf in range(min(10, count - 10 * h2)):
            document.add_heading(f"{h2 + 1}.{leaf + 1} Requirement", level=3)
            document.add_paragraph(_paragraph(rng, rng.randint(25, 55)))
    document.save(path)


def siblings(path: Path, count: int = 4000) -> None:
    """``count`` same-parent H2 sections of 96 words (~103 cl100k tokens): at N=100 every one
    is cut into pieces that share one parent."""
    rng, document = random.Random(SEED), Document()
    document.add_heading("Root", level=1)
    for index in range(1, count + 1):
        document.add_heading(f"Sibling {index}", level=2)
        document.add_paragraph(_paragraph(rng, 96))
    document.save(path)
