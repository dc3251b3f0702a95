"""The PDF parser's letter-spaced CJK: read without the spaces PDFium writes into its gaps."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdf_builders import CJK, Page, Stroke, Text, parse_pages, tags_of


def _read(tmp_path: Path, line: Text) -> list[str]:
    """The lines of a page printing ``line`` (and a paragraph below it, so that a short line
    alone is no document title)."""
    body = Text(72, 600, "本文件规定了核电厂定期安全评价的一般要求。", 12, CJK)
    result = parse_pages(tmp_path, [Page([line, body])])
    return [text.removeprefix("# ") for text in result.content.split("\n")]


@pytest.mark.parametrize(
    ("text", "size", "spacing", "read"),
    [
        # Letter-spaced, and distributed two ems apart (a segment each): one word.
        ("經濟部能源局", 18, (4.0,) * 5, "經濟部能源局"),
        ("經濟部能源局", 18, (36.0,) * 5, "經濟部能源局"),
        # Two characters set so read as one word too.
        ("前言", 16, (16.0,), "前言"),
        ("前言", 12, (42.0,), "前言"),
        # Two characters a column apart (a form's yes / no): two words.
        ("是否", 12, (300.0,), "是 否"),
        # Steps a distributed line rounds unevenly are still its letter spacing.
        ("中华人民共和国能源", 24, (11.0,) * 6 + (27.0, 11.0), "中华人民共和国能源"),
        # A label and its value, further off than the label's letters: two words.
        ("氏名山田太郎", 12, (6.0, 24.0, 6.0, 6.0, 6.0), "氏名 山田太郎"),
        # A mark set close against the run (a bracket, a contents entry's leader): the run
        # still stands alone.
        ("（經濟部）指導", 12, (0.0, 6.0, 6.0, 0.0), "（經濟部）指導"),
        ("總綱(附件)", 12, (12.0, 0.0, 0.0, 0.0), "總綱(附件)"),
        # Beside a word of several characters: as printed.
        ("經濟部能源局指導", 12, (6.0,) * 5 + (12.0,), "經濟部能源局 指導"),
        # Full-width digits are numbers apart; Hangul parts its words with spaces.
        ("１２３４", 12, (6.0,) * 3, "１ ２ ３ ４"),
        ("그더큰집", 12, (6.0,) * 3, "그 더 큰 집"),
    ],
)
def test_letter_spacing_is_read_from_the_glyphs(
    tmp_path: Path, text: str, size: float, spacing: tuple[float, ...], read: str
) -> None:
    assert read in _read(tmp_path, Text(72, 720, text, size, CJK, spacing=spacing))


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        # A form's blanks, typed as ideographic spaces, stay blanks between the words.
        ("平成　　年　　月　　日", "平成 年 月 日"),
        # A title the author spread with typed spaces reads as typed.
        ("提　案　書", "提 案 書"),
        ("目 录", "目 录"),
        ("第一节 重要提示", "第一节 重要提示"),
    ],
)
def test_typed_spaces_between_cjk_stay(tmp_path: Path, typed: str, read: str) -> None:
    assert read in _read(tmp_path, Text(72, 720, typed, 12, CJK))


def test_letter_spaced_digits_read_as_one_number(tmp_path: Path) -> None:
    """A cover's year set letter-spaced (a fifth of an em between its digits) reads as one
    number; single digits half an em apart are numbers apart."""
    items = [
        Text(72, 720, "中華民國", 18, CJK, spacing=(4.5,) * 3),
        Text(166, 720, "105", 18, spacing=(3.0, 3.0)),
        Text(211, 720, "年九月", 18, CJK),
        Text(72, 680, "123", 18, spacing=(9.0, 9.0)),
        Text(72, 600, "本文件規定了核電廠定期安全評價的一般要求。", 12, CJK),
    ]
    lines = parse_pages(tmp_path, [Page(items)]).content.split("\n")
    assert "中華民國 105 年九月" in [line.removeprefix("# ") for line in lines]
    assert "1 2 3" in lines


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


def test_latin_text_set_with_character_spacing_reads_as_its_words(tmp_path: Path) -> None:
    """A line shown by the '"' operator with character and word spacing set stands every
    letter apart (PDFium writes no space between them): it reads as its words, and so does
    a title spread so; words set close without a typed space still part."""
    items = [
        Text(72, 720, "Double quote operator", 11, char_spacing=4.0, word_spacing=5.0),
        Text(72, 700, "SPREAD TITLE", 14, char_spacing=4.0),
        Text(72, 680, "Closeset", 11, spacing=(0, 0, 0, 0, 4.0, 0, 0)),
        Text(72, 600, "A paragraph of text under the lines, set as usual.", 11),
    ]
    lines = parse_pages(tmp_path, [Page(items)]).content.split("\n")
    lines = [line.removeprefix("# ") for line in lines]
    assert "Double quote operator" in " ".join(lines)
    assert "SPREAD TITLE" in " ".join(lines)
    assert "Close set" in " ".join(lines)
