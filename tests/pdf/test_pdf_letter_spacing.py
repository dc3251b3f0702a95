"""The PDF parser's letter-spaced CJK: read without the spaces PDFium writes into its gaps."""

from __future__ import annotations

from pathlib import Path

import pytest

from lightrag_pchunk.pdf.letter_spacing import close_letter_spacing

from pdf_builders import CJK, Page, Stroke, Text, parse_pages, tags_of


@pytest.mark.parametrize(
    ("printed", "read"),
    [
        ("經 濟 部 能 源 局", "經濟部能源局"),
        ("以 15 分 鐘 為 週 期 重 排 ， 於 計 測", "以 15 分鐘為週期重排，於計測"),
        ("ふ り が な", "ふりがな"),
        # A mark set close against the run's first or last character (no gap to space).
        ("經 濟 部 能 源 局。", "經濟部能源局。"),
        ("（經 濟 部）指導", "（經濟部）指導"),
        ("臺 灣 電 力 公 司（台電）", "臺灣電力公司（台電）"),
        # Beside a word of several characters, a number or a Latin letter: as printed.
        ("經 濟 部 能 源 局 指導", "經濟部能源局 指導"),
        ("附 录 A", "附 录 A"),
        ("1990 年 4 月 4 日", "1990 年 4 月 4 日"),
        # Full-width digits and Latin letters are numbers and words too: a row of single
        # digits stays numbers apart.
        ("１ ２ ３ ４", "１ ２ ３ ４"),
        ("第 １ ２ 条", "第 １ ２ 条"),
        ("Ａ Ｂ Ｃ", "Ａ Ｂ Ｃ"),
        ("（ 一 ）", "（一）"),
        # Two words, or two characters alone (a title typed "目 录"): as printed.
        ("第一节 重要提示", "第一节 重要提示"),
        ("目 录", "目 录"),
        # Korean parts its words, many of one syllable, with spaces; Latin is not CJK.
        ("그 더 큰 집", "그 더 큰 집"),
        ("a b c d", "a b c d"),
    ],
)
def test_letter_spaced_runs_close_up(printed: str, read: str) -> None:
    assert close_letter_spacing(printed) == read


def test_letter_spaced_and_distributed_cjk_read_as_words(tmp_path: Path) -> None:
    """A line set with room after every character (PDFium writes a space into each gap)
    and a title distributed over the width (two ems apart: a segment each) read as their
    words; a space between two words stays."""
    items = [
        Text(72, 720, "經濟部能源局", 18, CJK, spacing=(36.0,) * 5),
        Text(72, 690, "需量計以十五分鐘為週期重排", 14, CJK, spacing=(4.0,) * 12),
        Text(72, 660, "第一节 重要提示", 14, CJK),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    lines = [line.removeprefix("# ") for line in result.content.split("\n")]
    assert "經濟部能源局" in lines
    assert "需量計以十五分鐘為週期重排" in lines
    assert "第一节 重要提示" in lines
    # The positions still give each line's characters.
    row = next(r for r in result.rows if "需量計" in r.content)
    start = row.content.index("需量計")
    spans = [p["charspan"] for p in row.positions]
    assert [start, start + len("需量計以十五分鐘為週期重排")] in spans


def test_letter_spaced_cjk_in_a_ruled_cell_reads_closed_up(tmp_path: Path) -> None:
    """A form's cell set letter-spaced ("項 目 名 稱") reads as its word in the table too."""
    grid = [Stroke(72, y, 372, y) for y in (700, 680, 660)]
    grid += [Stroke(x, 660, x, 700) for x in (72, 222, 372)]
    cells = [
        Text(80, 686, "項目名稱", 12, CJK, spacing=(6.0,) * 3),
        Text(230, 686, "金額", 12, CJK),
        Text(80, 666, "電費", 12, CJK),
        Text(230, 666, "一千二百", 12, CJK),
    ]
    result = parse_pages(tmp_path, [Page([*grid, *cells])])
    assert tags_of(result) == [[["項目名稱", "金額"], ["電費", "一千二百"]]]
