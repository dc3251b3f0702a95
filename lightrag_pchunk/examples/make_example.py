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

_PREFACE = (
    "Harbour Cold-Store Safety Standard HCS-7 (fictional example)",
    "This standard was written for the lightrag-pchunk demonstration. It is not a real "
    "regulation; it only looks like one, so that its structure (numbered clauses, long "
    "tables, bilingual passages) shows how Paragraph Semantic chunking keeps each answer "
    "together with its heading path.",
)

_SCOPE = (
    "This standard applies to refrigerated warehouses operated within the harbour free-trade "
    "zone, including frozen stores (-18 °C and below), chilled stores (0 °C to +8 °C) and "
    "their ante-rooms, loading docks and plant rooms.",
    "本标准适用于港区自由贸易区内运营的冷库，包括冷冻库（-18 °C 及以下）、冷藏库（0 °C 至 +8 °C）"
    "及其缓冲间、装卸平台和机房。",
    "It does not apply to refrigerated vehicles, reefer containers on board ships, or "
    "domestic refrigeration equipment.",
)

_TERMS = (
    (
        "Cold store (冷库)",
        "A thermally insulated building or room in which goods are kept at a controlled "
        "temperature below the ambient temperature by mechanical refrigeration.",
    ),
    (
        "Ante-room (缓冲间)",
        "An enclosed space between a cold room and the outside that limits the entry of warm, "
        "humid air when doors are opened.",
    ),
    (
        "Set point",
        "The air temperature that the control system of a room is configured to maintain.",
    ),
    (
        "Responsible person",
        "The person appointed by the operator under clause 3.1 to manage the safe operation "
        "of the cold store.",
    ),
)

_DOORS = (
    "Every cold room door shall open from the inside without a key, even when locked from "
    "the outside.",
    "A door that can be closed on a person shall have an illuminated push-button alarm "
    "inside the room, wired to a manned location.",
    "Strip curtains or air curtains shall be kept in good repair at every frequently used door.",
)

_BULLETS = (
    "insulated gloves and a thermal jacket for work in chilled stores;",
    "a full freezer suit, insulated boots and a hood for work in frozen stores;",
    "eye protection and a half-mask respirator within reach of every ammonia plant room door.",
)

_AISLES_ZH = (
    "主通道宽度不得小于 2.5 米，叉车通道与人行通道应以黄色标线分隔。",
    "冷库内照明照度不得低于 100 勒克斯，应急照明应能持续工作至少 90 分钟。",
    "货物堆码应距墙面不少于 0.3 米，距顶棚和冷风机不少于 0.5 米，以保证冷风循环。",
)

_INCIDENTS = {
    "What counts as an incident": (
        "An incident is any unplanned event that injured or could have injured a person, "
        "released refrigerant, or let the temperature of stored goods leave its permitted "
        "range for more than two hours.",
        "Near misses shall be reported in the same way as incidents.",
    ),
    "Notification deadlines": (
        "An ammonia leak that raises the concentration in any occupied area above 25 ppm "
        "shall be reported to the Harbour Safety Authority within 4 hours of its detection.",
        "A person trapped inside a cold room, even without injury, shall be reported to the "
        "Harbour Safety Authority within 24 hours.",
        "All other incidents shall be entered in the site incident log before the end of the "
        "shift in which they occurred.",
    ),
    "事故调查 Investigation": (
        "运营方应在事故发生后 10 个工作日内完成调查报告，报告应说明直接原因、根本原因和纠正措施。",
        "The investigation report shall be written in Chinese or English and signed by the "
        "responsible person.",
    ),
    "Records": (
        "Incident reports and investigation reports shall be kept for at least five years.",
        "调查报告应至少保存五年，并在港口安全管理部门要求时提供。",
    ),
}

_REFERENCES = (
    "ISO 23953-2:2023, Refrigerated display cabinets — Part 2: Classification, requirements "
    "and test conditions.",
    "EN 378-1:2016+A1:2020, Refrigerating systems and heat pumps — Safety and environmental "
    "requirements.",
    "GB 50072-2021, 冷库设计标准.",
)

_ZONES = (
    ("A1 Frozen", -25.0),
    ("A2 Frozen", -22.0),
    ("B1 Chilled", 2.0),
    ("B2 Chilled", 4.0),
    ("C1 Ante-room", 6.0),
)
_INSPECTORS = ("J. Okafor", "M. Lindqvist", "陈晓明", "R. Alvarez", "S. Haddad")

_PLANT_CHECKS = (
    ("Compressor oil level", "sight glass between the marks"),
    ("Compressor discharge temperature", "below 120 °C"),
    ("Condenser fan operation", "all fans running, no vibration"),
    ("Evaporator defrost cycle", "completed within 30 minutes"),
    ("Ammonia detector calibration", "certificate less than 6 months old"),
    ("Pressure relief valve tag", "tag present, test date legible"),
    ("Refrigerant charge log", "no unexplained top-up"),
    ("Emergency stop button", "stops all compressors"),
    ("Plant room ventilation", "extract fan starts at 25 ppm"),
    ("Pipe insulation", "no ice build-up, no damage"),
)
_FLOOR_CHECKS = (
    ("Pallet racking uprights", "no dents deeper than 5 mm"),
    ("Rack load signs", "present and legible"),
    ("Forklift brakes", "stops within 1.5 m at walking speed"),
    ("Forklift battery heater", "operational below -10 °C"),
    ("Floor heave", "no cracks wider than 2 mm"),
    ("Door heater cables", "door seal free of ice"),
    ("Personnel alarm button", "alarm sounds at the gatehouse"),
    ("Emergency lighting", "lit for the full test period"),
    ("Aisle markings", "yellow lines visible"),
    ("Fire extinguishers", "inspected within 12 months"),
)
_FREQUENCIES = ("daily", "weekly", "monthly", "quarterly")


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
        zone, set_point = _ZONES[(index - 1) % len(_ZONES)]
        measured = round(set_point + rng.uniform(-1.6, 1.6), 1)
        status = "alarm raised" if abs(measured - set_point) > 1.3 else "within limit"
        rows.append(
            [
                f"T-{index:03d}",
                (day + timedelta(days=(index - 1) // len(_ZONES))).isoformat(),
                zone,
                f"{measured:+.1f}",
                status,
                rng.choice(_INSPECTORS),
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
                rng.choice(_FREQUENCIES),
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

    document.add_paragraph(_PREFACE[0], style="Title")
    document.add_paragraph(_PREFACE[1])

    document.add_heading("Scope 适用范围", level=1)
    for text in _SCOPE:
        document.add_paragraph(text)

    # A heading-only chapter: its clauses follow directly.
    document.add_heading("Terms and definitions", level=1)
    for term, definition in _TERMS:
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
    for text in _DOORS:
        document.add_paragraph(text)
    document.add_heading("Protective clothing", level=2)
    document.add_heading("Issue of clothing", level=3)
    document.add_paragraph("The operator shall issue, free of charge:")
    for text in _BULLETS:
        document.add_paragraph(text, style="List Bullet")
    document.add_heading("Exposure limits", level=3)
    document.add_paragraph(
        "No person shall work continuously for more than 60 minutes in a frozen store; each "
        "period shall be followed by a break of at least 15 minutes in a warm area."
    )
    document.add_heading("通道与照明 Aisles and lighting", level=2)
    for text in _AISLES_ZH:
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
    _table(document, checklist_header, _checklist_rows("P", _PLANT_CHECKS, 60, rng))
    document.add_paragraph(
        "Items P-01 to P-60 cover the plant room. The checklist below covers the storage floor; "
        "a defect found with either checklist shall be entered in the maintenance log within "
        "24 hours and the affected equipment tagged out of service."
    )
    document.add_paragraph("Table 3 — Storage floor checklist", style="Caption")
    _table(document, checklist_header, _checklist_rows("F", _FLOOR_CHECKS, 60, rng))
    document.add_paragraph(
        "Completed checklists shall be kept for three years and shown to the Harbour Safety "
        "Authority on request."
    )

    document.add_heading("Incident reporting 事故报告", level=1)
    for heading, paragraphs in _INCIDENTS.items():
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
    for text in _REFERENCES:
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
