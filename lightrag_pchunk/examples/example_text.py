"""The text of the bundled example (``make_example.py`` builds it): a fictional cold-store
safety standard's preface, clauses, terms, incidents, references and checklist rows."""

from __future__ import annotations

PREFACE = (
    "Harbour Cold-Store Safety Standard HCS-7 (fictional example)",
    "This standard was written for the lightrag-pchunk demonstration. It is not a real "
    "regulation; it only looks like one, so that its structure (numbered clauses, long "
    "tables, bilingual passages) shows how Paragraph Semantic chunking keeps each answer "
    "together with its heading path.",
)

SCOPE = (
    "This standard applies to refrigerated warehouses operated within the harbour free-trade "
    "zone, including frozen stores (-18 °C and below), chilled stores (0 °C to +8 °C) and "
    "their ante-rooms, loading docks and plant rooms.",
    "本标准适用于港区自由贸易区内运营的冷库，包括冷冻库（-18 °C 及以下）、冷藏库（0 °C 至 +8 °C）"
    "及其缓冲间、装卸平台和机房。",
    "It does not apply to refrigerated vehicles, reefer containers on board ships, or "
    "domestic refrigeration equipment.",
)

TERMS = (
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

DOORS = (
    "Every cold room door shall open from the inside without a key, even when locked from "
    "the outside.",
    "A door that can be closed on a person shall have an illuminated push-button alarm "
    "inside the room, wired to a manned location.",
    "Strip curtains or air curtains shall be kept in good repair at every frequently used door.",
)

BULLETS = (
    "insulated gloves and a thermal jacket for work in chilled stores;",
    "a full freezer suit, insulated boots and a hood for work in frozen stores;",
    "eye protection and a half-mask respirator within reach of every ammonia plant room door.",
)

AISLES_ZH = (
    "主通道宽度不得小于 2.5 米，叉车通道与人行通道应以黄色标线分隔。",
    "冷库内照明照度不得低于 100 勒克斯，应急照明应能持续工作至少 90 分钟。",
    "货物堆码应距墙面不少于 0.3 米，距顶棚和冷风机不少于 0.5 米，以保证冷风循环。",
)

INCIDENTS = {
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

REFERENCES = (
    "ISO 23953-2:2023, Refrigerated display cabinets — Part 2: Classification, requirements "
    "and test conditions.",
    "EN 378-1:2016+A1:2020, Refrigerating systems and heat pumps — Safety and environmental "
    "requirements.",
    "GB 50072-2021, 冷库设计标准.",
)

ZONES = (
    ("A1 Frozen", -25.0),
    ("A2 Frozen", -22.0),
    ("B1 Chilled", 2.0),
    ("B2 Chilled", 4.0),
    ("C1 Ante-room", 6.0),
)
INSPECTORS = ("J. Okafor", "M. Lindqvist", "陈晓明", "R. Alvarez", "S. Haddad")

PLANT_CHECKS = (
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
FLOOR_CHECKS = (
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
FREQUENCIES = ("daily", "weekly", "monthly", "quarterly")
