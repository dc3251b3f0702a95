"""Documents the tests write with python-docx, and LightRAG's own native parser to read them.

``write_mixed_document`` exercises every stage of the P chunker: a preamble, headings 1-3,
heading-only sections, bullets and numbered lists, a 300-row table with a repeating header
row, two big tables with bridge text between them, a long section without any heading-like
line, Chinese text and a References section.
"""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

from docx import Document
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

WORDS = tuple(
    [
        "system",
        "data",
        "control",
        "security",
        "access",
        "policy",
        "review",
        "audit",
        "risk",
        "service",
        "operator",
        "network",
        "record",
        "report",
        "change",
        "process",
        "require",
        "must",
        "shall",
        "provide",
        "ensure",
        "support",
        "annual",
        "monitor",
        "incident",
        "response",
        "plan",
        "test",
        "user",
        "account",
        "configuration",
        "baseline",
        "assessment",
        "boundary",
        "valve",
        "pump",
        "pressure",
        "vessel",
        "coolant",
        "seismic",
        "category",
        "reliability",
        "inspection",
        "quality",
    ]
)


def sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def paragraph(rng: random.Random, words: int) -> str:
    out, left = [], words
    while left > 0:
        n = min(left, rng.randint(8, 20))
        out.append(sentence(rng, n))
        left -= n
    return " ".join(out)


def mark_header_row(row) -> None:
    """Flag a python-docx table row as a repeating header row (``w:tblHeader``)."""
    tr_pr = row._tr.get_or_add_trPr()
    header = OxmlElement("w:tblHeader")
    header.set(qn("w:val"), "true")
    tr_pr.append(header)


def add_table(document, rng: random.Random, rows: int, *, header: bool, cols: int = 4) -> None:
    table = document.add_table(rows=rows + 1, cols=cols)
    for c, cell in enumerate(table.rows[0].cells):
        cell.text = ("ID", "Name", "Description", "Value", "Owner")[c % 5]
    if header:
        mark_header_row(table.rows[0])
    for r in range(1, rows + 1):
        cells = table.rows[r].cells
        cells[0].text = str(r)
        cells[1].text = f"Item {r}"
        cells[2].text = sentence(rng, rng.randint(5, 12))
        for c in range(3, cols):
            cells[c].text = f"{rng.uniform(0, 100):.1f}"


def write_mixed_document(path: Path, seed: int = 7) -> Path:
    """Write the mixed test document to ``path``."""
    rng = random.Random(seed)
    doc = Document()
    doc.add_paragraph("Preamble: issued by the operator, revision 3.")
    doc.add_heading("Safety Manual", level=1)
    doc.add_paragraph(paragraph(rng, 60))
    doc.add_heading("1 Scope", level=2)
    doc.add_paragraph(paragraph(rng, 120))
    for _ in range(4):
        doc.add_paragraph(sentence(rng, 8), style="List Bullet")
    for _ in range(3):
        doc.add_paragraph(sentence(rng, 9), style="List Number")
    doc.add_heading("2 Requirements (no body)", level=2)
    for n in range(1, 9):
        doc.add_heading(f"2.{n} Clause {n}", level=3)
        doc.add_paragraph(paragraph(rng, rng.randint(40, 140)))
    doc.add_heading("3 Inventory", level=2)
    doc.add_paragraph("The following table lists every item of the inventory.")
    add_table(doc, rng, 300, header=True)
    doc.add_paragraph("The table above is maintained by the operator.")
    doc.add_heading("4 Two registers", level=2)
    doc.add_paragraph("Register A comes first.")
    add_table(doc, rng, 120, header=False)
    doc.add_paragraph("Between the registers: " + paragraph(rng, 50))
    add_table(doc, rng, 120, header=True)
    doc.add_paragraph("Register B ends here.")
    doc.add_heading("5 Long narrative", level=2)
    for _ in range(14):
        doc.add_paragraph(paragraph(rng, rng.randint(120, 260)))
    doc.add_heading("6 中文条款", level=2)
    for i in range(6):
        clause = f"第{i + 1}条 核电厂运营单位应当建立质量保证体系，并对设备进行定期检查。"
        doc.add_paragraph(clause * 4)
    doc.add_heading("References", level=1)
    doc.add_paragraph("[1] Operator handbook, 2020.")
    doc.add_paragraph("[2] Safety code, 2021.")
    doc.save(path)
    return path


def lightrag_parse(docx_path: Path, out_dir: Path) -> Path:
    """Parse ``docx_path`` with LightRAG 1.5.7's native parser; return the blocks file."""
    from lightrag.parser.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        code = main([str(docx_path), "--engine", "native", "-o", str(out_dir)])
    assert code == 0, f"LightRAG's parser failed on {docx_path}"
    parsed = out_dir / f"{docx_path.name}.parsed"
    [blocks] = sorted(parsed.glob("*.blocks.jsonl"))
    return blocks


TOPICS = ("valve", "pump", "seal", "boiler", "turbine", "cable")


def topic_paragraph(rng: random.Random, topic: str, words: int) -> str:
    vocabulary = [*WORDS, *(f"{topic}{k}" for k in range(12))]
    sentences = []
    while words > 0:
        n = min(words, rng.randint(9, 16))
        text = " ".join(rng.choice(vocabulary) for _ in range(n))
        sentences.append(text[0].upper() + text[1:] + ".")
        words -= n
    return " ".join(sentences)


def write_manual(path: Path, seed: int = 5, paragraphs: int = 6) -> Path:
    """Six sections, each with its own vocabulary, and one table of pump ratings."""
    rng = random.Random(seed)
    doc = Document()
    doc.add_heading("Plant manual", level=1)
    for index, topic in enumerate(TOPICS, 1):
        doc.add_heading(f"{index} {topic.title()} requirements", level=2)
        for _ in range(paragraphs):
            doc.add_paragraph(topic_paragraph(rng, topic, rng.randint(50, 90)))
        if topic == "pump":
            table = doc.add_table(rows=7, cols=3)
            for c, name in enumerate(("Pump", "Rated flow", "Owner")):
                table.rows[0].cells[c].text = name
            for r in range(1, 7):
                cells = table.rows[r].cells
                cells[0].text = f"P-{100 + r}"
                cells[1].text = f"{10 * r + 5} m3/h"
                cells[2].text = ("Operations", "Maintenance")[r % 2]
    doc.save(path)
    return path
