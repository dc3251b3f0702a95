"""The PDF parser's pages of CJK text set in a font whose map to Unicode is broken."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import CJK, CJK_OTHER, Page, Text, parse_pages

#: Chinese text, one line each.
LINES = (
    "本标准规定了冷库氨制冷系统的安全操作要求。",
    "操作人员应经过培训并持证上岗，每班记录读数。",
    "发现氨泄漏时应立即报告并撤离现场等待处理。",
    "检查结果应记录在设备日志中并由负责人签字。",
)
#: A producer's map off by a constant over a range of codes: the ideographs U+6000 to
#: U+6FFF reach the text layer as letters and marks of other scripts ("服" as "᳡").
OFFSET = 0x4A2C


def _mismapped(line: str) -> str:
    return "".join(chr(ord(ch) - OFFSET) if 0x6000 <= ord(ch) <= 0x6FFF else ch for ch in line)


def _page(lines: list[str]) -> Page:
    return Page([Text(72, 720 - 20 * i, line, 12, CJK) for i, line in enumerate(lines)])


def test_a_broken_map_is_named_and_its_text_kept(tmp_path: Path) -> None:
    """The pages whose CJK font maps part of its ideographs to other scripts are named in
    a warning with what to do; their text is read as the file maps it, nothing left out."""
    broken = [_mismapped(line) for line in LINES]
    assert broken != list(LINES)
    result = parse_pages(tmp_path, [_page(list(LINES)), _page(broken)])
    (warning,) = [w for w in result.warnings if w.startswith("mismapped")]
    assert "1 page(s)" in warning and "(pages 2)" in warning
    assert "ocrmypdf --force-ocr" in warning
    text = result.content.replace("\n", "")
    assert all(line in text for line in [*LINES, *broken])


def test_symbols_of_cjk_text_are_no_broken_map(tmp_path: Path) -> None:
    """Circled numbers, arrows, Greek, signs, quotation marks and a rare ideograph mapped
    to private use once are a CJK font's own: nothing is said."""
    lines = [
        "①温度应≤５℃，②压力→０．５ＭＰａ，α值取“最大”—见表。",
        "③记录由负责人签字，报告送安全部门存档备查。",
        "氨泄漏时应立即报告并撤离，等待\ue50c处理结果。",
        *LINES,
    ]
    result = parse_pages(tmp_path, [_page(lines)])
    assert not [w for w in result.warnings if w.startswith("mismapped")]


def test_another_fonts_marks_beside_cjk_text_are_no_broken_map(tmp_path: Path) -> None:
    """Icons of an icon font read as private use (a telephone's and a letter's), each pair
    set against a line of CJK text, are that font's, not the text's: nothing is said."""
    items = []
    for i, line in enumerate(LINES * 2):
        items.append(Text(48, 720 - 20 * i, "\uf095\uf0e0", 12, CJK_OTHER))
        items.append(Text(72, 720 - 20 * i, line, 12, CJK))
    result = parse_pages(tmp_path, [Page(items)])
    assert result.content.count("\uf0e0") == len(LINES) * 2
    assert not [w for w in result.warnings if w.startswith("mismapped")]
