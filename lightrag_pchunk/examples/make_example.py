"""Build the bundled example, ``cold-store-safety-standard.docx``: a small, fictional standard
written to show what Paragraph Semantic (P) chunking is for.

It has numbered clauses (Heading 1-3 linked to one multilevel list: 1, 1.1, 1.1.1), a preface,
English with some Chinese, a heading-only chapter, bullets, a 160-row table whose header row
repeats on every page (``w:tblHeader``) between a lead-in and a trailing sentence, two big
consecutive tables with bridge text between them, an equation, and an unnumbered References
section. Everything is generated from this file with a fixed seed and fixed dates, and the zip
entries get a fixed timestamp, so running it again gives the same bytes (with the same
python-docx and zlib).

    python lightrag_pchunk/examples/make_example.py [OUT.docx]
"""

from __future__ import annotations

import io
import random
import sys
import zipfile
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from pathlib import Path

from docx import Document
from docx.document import Document as DocumentObject
from docx.oxml import parse_xml
from docx.oxml.ns import qn

from lightrag_pchunk.examples import example_text

EXAMPLE_NAME = "cold-store-safety-standard.docx"
"""File name of the bundled example, next to this script."""
SEED = 20240917
"""Seed of the generated table values."""
FIXED_TIME = datetime(2024, 9, 17, 9, 0, 0)
"""Core-properties dates: a rebuild must not depend on today's date."""
_ZIP_TIME = (2024, 9, 17, 9, 0, 0)

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
_HEADING_NUM_ID = 90


def _numbering_xml() -> str:
    """One multilevel list linked to Heading 1-3: "1", "1.1", "1.1.1", followed by a tab."""
    levels = []
    for ilvl, text in enumerate(("%1", "%1.%2", "%1.%2.%3")):
        levels.append(
            f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
            f'<w:pStyle w:val="Heading{ilvl + 1}"/><w:lvlText w:val="{text}"/>'
            f'<w:lvlJc w:val="left"/><w:pPr><w:ind w:left="{432 + 144 * ilvl}" '
            f'w:hanging="{432 + 144 * ilvl}"/></w:pPr></w:lvl>'
        )
    return (
        f'<w:abstractNum xmlns:w="{_W}" w:abstractNumId="{_HEADING_NUM_ID}">'
        '<w:nsid w:val="5A3C0F01"/><w:multiLevelType w:val="multilevel"/>'
        f"{''.join(levels)}</w:abstractNum>"
    )


def _link_heading_numbering(document: DocumentObject) -> None:
    """Add the heading list to numbering.xml and link the heading styles to it."""
    numbering = document.part.numbering_part.element
    first_num = numbering.find(qn("w:num"))
    abstract = parse_xml(_numbering_xml())
    if first_num is not None:
        first_num.addprevious(abstract)
    else:
        numbering.append(abstract)
    numbering.append(
        parse_xml(
            f'<w:num xmlns:w="{_W}" w:numId="{_HEADING_NUM_ID}">'
            f'<w:abstractNumId w:val="{_HEADING_NUM_ID}"/></w:num>'
        )
    )
    for level in (1, 2, 3):
        ppr = document.styles[f"Heading {level}"].element.get_or_add_pPr()
        ppr.insert(
            0,
            parse_xml(
                f'<w:numPr xmlns:w="{_W}"><w:ilvl w:val="{level - 1}"/>'
                f'<w:numId w:val="{_HEADING_NUM_ID}"/></w:numPr>'
            ),
        )


def _unnumbered_heading(document: DocumentObject, text: str, level: int) -> None:
    """A heading that opts out of the heading list (numId 0), like a References heading."""
    paragraph = document.add_heading(text, level=level)
    paragraph._p.get_or_add_pPr().append(
        parse_xml(f'<w:numPr xmlns:w="{_W}"><w:numId w:val="0"/></w:numPr>')
    )


def _table(document: DocumentObject, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A grid table whose first row repeats on every page (``w:tblHeader``)."""
    table = document.add_table(rows=1 + len(rows), cols=len(header))
    table.style = "Table Grid"
    for tr, values in zip(table.rows, [header, *rows], strict=True):
        for cell, value in zip(tr.cells, values, strict=True):
            cell.text = value
    table.rows[0]._tr.get_or_add_trPr().append(parse_xml(f'<w:tblHeader xmlns:w="{_W}"/>'))


def _temperature_rows(rng: random.Random) -> list[list[str]]:
    rows = []
    day = date(2024, 1, 1)
    for index in range(1, 161):
        zone, set_point = example_text.ZONES[(index - 1) % len(example_text.ZONES)]
        measured = round(set_point + rng.uniform(-1.6, 1.6), 1)
        status = "alarm raised" if abs(measured - set_point) > 1.3 else "within limit"
        rows.append(
            [
                f"T-{index:03d}",
                (day + timedelta(days=(index - 1) // len(example_text.ZONES))).isoformat(),
                zone,
                f"{measured:+.1f}",
                status,
                rng.choice(example_text.INSPECTORS),
            ]
        )
    return rows


def _checklist_rows(
    prefix: str, checks: Sequence[tuple[str, str]], count: int, rng: random.Random
) -> list[list[str]]:
    rows = []
    for index in range(1, count + 1):
        item, criterion = checks[(index - 1) % len(checks)]
        unit = (index - 1) // len(checks) + 1
        rows.append(
            [
                f"{prefix}-{index:02d}",
                f"{item} (unit {unit})",
                rng.choice(example_text.FREQUENCIES),
                criterion,
            ]
        )
    return rows


def _equation_paragraph(document: DocumentObject) -> None:
    """A display equation: COP = Q_c / W (OMML)."""

    def run(text: str) -> str:
        return f"<m:r><m:t>{text}</m:t></m:r>"

    omml = (
        f'<m:oMathPara xmlns:m="{_M}"><m:oMath>{run("COP")}{run("=")}'
        f"<m:f><m:num><m:sSub><m:e>{run('Q')}</m:e><m:sub>{run('c')}</m:sub></m:sSub></m:num>"
        f"<m:den>{run('W')}</m:den></m:f></m:oMath></m:oMathPara>"
    )
    document.add_paragraph()._p.append(parse_xml(omml))


def build_document() -> DocumentObject:
    """The example as a python-docx ``Document`` (deterministic: fixed seed, fixed dates)."""
    rng = random.Random(SEED)
    document = Document()
    _link_heading_numbering(document)

    document.add_paragraph(example_text.PREFACE[0], style="Title")
    document.add_paragraph(example_text.PREFACE[1])

    document.add_heading("Scope 适用范围", level=1)
    for text in example_text.SCOPE:
        document.add_paragraph(text)

    # A heading-only chapter: its clauses follow directly.
    document.add_heading("Terms and definitions", level=1)
    for term, definition in example_text.TERMS:
        document.add_heading(term, level=2)
        document.add_paragraph(definition)

    document.add_heading("Operation of the cold store", level=1)
    document.add_heading("Responsible person", level=2)
    document.add_paragraph(
        "The operator shall appoint a responsible person in writing for every cold store. "
        "The responsible person shall hold a refrigeration safety certificate and shall be "
        "reachable at all times while goods are stored."
    )
    document.add_heading("Doors and personnel alarms", level=2)
    for text in example_text.DOORS:
        document.add_paragraph(text)
    document.add_heading("Protective clothing", level=2)
    document.add_heading("Issue of clothing", level=3)
    document.add_paragraph("The operator shall issue, free of charge:")
    for text in example_text.BULLETS:
        document.add_paragraph(text, style="List Bullet")
    document.add_heading("Exposure limits", level=3)
    document.add_paragraph(
        "No person shall work continuously for more than 60 minutes in a frozen store; each "
        "period shall be followed by a break of at least 15 minutes in a warm area."
    )
    document.add_heading("通道与照明 Aisles and lighting", level=2)
    for text in example_text.AISLES_ZH:
        document.add_paragraph(text)

    document.add_heading("Temperature monitoring", level=1)
    document.add_paragraph(
        "Each room shall be fitted with a calibrated temperature recorder. The readings taken "
        "during the commissioning period are listed in Table 1. The set points are -25 °C "
        "(A1), -22 °C (A2), +2 °C (B1), +4 °C (B2) and +6 °C (C1); the status column shows "
        "whether the reading was more than 1.3 °C away from its set point."
    )
    document.add_paragraph("Table 1 — Commissioning temperature log", style="Caption")
    _table(
        document,
        ["Record", "Date", "Zone", "Measured (°C)", "Status", "Checked by"],
        _temperature_rows(rng),
    )
    document.add_paragraph(
        "Readings marked 'alarm raised' shall be investigated under clause 6 and the cause "
        "recorded next to the reading."
    )

    document.add_heading("Inspection and maintenance", level=1)
    document.add_heading("Inspection checklists", level=2)
    document.add_paragraph(
        "The plant room and the storage floor shall be inspected with the checklists in "
        "Table 2 and Table 3."
    )
    document.add_paragraph("Table 2 — Refrigeration plant checklist", style="Caption")
    checklist_header = ["Item", "Check", "Frequency", "Acceptance criterion"]
    _table(document, checklist_header, _checklist_rows("P", example_text.PLANT_CHECKS, 60, rng))
    document.add_paragraph(
        "Items P-01 to P-60 cover the plant room. The checklist below covers the storage floor; "
        "a defect found with either checklist shall be entered in the maintenance log within "
        "24 hours and the affected equipment tagged out of service."
    )
    document.add_paragraph("Table 3 — Storage floor checklist", style="Caption")
    _table(document, checklist_header, _checklist_rows("F", example_text.FLOOR_CHECKS, 60, rng))
    document.add_paragraph(
        "Completed checklists shall be kept for three years and shown to the Harbour Safety "
        "Authority on request."
    )

    document.add_heading("Incident reporting 事故报告", level=1)
    for heading, paragraphs in example_text.INCIDENTS.items():
        document.add_heading(heading, level=2)
        for text in paragraphs:
            document.add_paragraph(text)

    document.add_heading("Energy efficiency", level=1)
    document.add_paragraph(
        "The coefficient of performance of each refrigeration unit shall be calculated from "
        "the cooling capacity Q_c and the electrical power input W:"
    )
    _equation_paragraph(document)
    document.add_paragraph(
        "A unit whose measured COP falls below 70 % of its rated value shall be serviced "
        "within one month."
    )

    _unnumbered_heading(document, "References", level=1)
    for text in example_text.REFERENCES:
        document.add_paragraph(text)

    properties = document.core_properties
    properties.title = "Harbour Cold-Store Safety Standard HCS-7 (example)"
    properties.author = "lightrag-pchunk"
    properties.last_modified_by = "lightrag-pchunk"
    properties.created = FIXED_TIME
    properties.modified = FIXED_TIME
    properties.last_printed = FIXED_TIME
    properties.revision = 1
    properties.comments = "Generated by lightrag_pchunk/examples/make_example.py"
    return document


def _normalised_zip(data: bytes) -> bytes:
    """The same package with a fixed timestamp on every entry (python-docx writes "now")."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(data)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=_ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            target.writestr(entry, source.read(info.filename), compresslevel=9)
    return out.getvalue()


def build_example(path: str | Path) -> Path:
    """Write the example .docx to ``path`` and return it."""
    buffer = io.BytesIO()
    build_document().save(buffer)
    out = Path(path)
    out.write_bytes(_normalised_zip(buffer.getvalue()))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Write the example (default: next to this script)."""
    args = list(sys.argv[1:] if argv is None else argv)
    target = Path(args[0]) if args else Path(__file__).with_name(EXAMPLE_NAME)
    print(build_example(target))
    return 0


if __name__ == "__main__":
    sys.exit(main())
