"""Text set small and raised off its line's baseline reads as a superscript (``<sup>``),
and set small and lowered under it as a subscript (``<sub>``), as the Word parser writes a
run its ``w:vertAlign`` raises or lowers."""

from __future__ import annotations

from pathlib import Path

import pytest

from lightrag_pchunk.pdf.layout import make_line
from lightrag_pchunk.pdf.outline import normalise
from lightrag_pchunk.pdf.paragraph_look import paragraph_look
from lightrag_pchunk.pdf.paragraphs import paragraphs
from lightrag_pchunk.pdf.segments import Segment

from pdf_builders import BOLD, CJK, Page, Text, boxes, parse_pages, printed_width, wrap

LOREM = (
    "Operators shall keep records of every inspection for five years and make them"
    " available to the authority on request. The records state the date, the inspector"
    " and the findings of each inspection, and what was done about them."
)


def _segment(text: str, x0: float, bottom: float, size: float, bold: bool = False) -> Segment:
    # Glyph boxes of a Helvetica-like font: caps about 0.72 of the size above the baseline.
    x1 = x0 + 0.55 * size * len(text)
    top = bottom - 0.72 * size
    return Segment(text, x0, top, x1, bottom, (x0, 0, x1, 1), 0, 0, 0, size, bold)


def test_a_small_raised_segment_is_a_superscript_and_leaves_the_line_bold() -> None:
    line = make_line(
        [_segment("FUNDING OPPORTUNITIES", 72, 100, 10, True), _segment("TOP", 300, 96, 5.8)],
        1, 0, 72, 540,
    )  # fmt: skip
    assert line.text == "FUNDING OPPORTUNITIES <sup>TOP</sup>"
    assert line.bold
    assert line.size == 10


def test_a_title_beside_a_larger_label_of_as_many_characters_is_no_superscript() -> None:
    # A report's chapter title: its label "A1" set large in bold, its title of as many
    # characters smaller, regular and set high beside it (their tops aligned).
    line = make_line(
        [_segment("A1", 72, 100, 48, True), _segment("注入", 130, 88, 32)], 1, 0, 72, 540
    )
    assert line.text == "A1 注入"
    assert not line.bold


def test_small_text_on_the_baseline_or_large_raised_text_is_no_superscript() -> None:
    on_baseline = make_line(
        [_segment("Price", 72, 100, 10), _segment("USD", 110, 100, 6)], 1, 0, 72, 540
    )
    assert on_baseline.text == "Price USD"
    raised_same_size = make_line(
        [_segment("Price", 72, 100, 10), _segment("note", 110, 96, 10)], 1, 0, 72, 540
    )
    assert raised_same_size.text == "Price note"


def test_a_title_with_a_raised_link_back_reads_as_its_heading(tmp_path: Path) -> None:
    # A bold title set at the text's size with a small, raised, regular "TOP" after it (a
    # link back to the contents): the mark no longer makes the line regular text.
    items = [
        Text(72, 720, "Scope of the rules", 11, BOLD),
        Text(300, 724, "TOP", 6),
        *wrap(LOREM, 72, 695, 300),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    first = result.rows[0]
    assert first.heading == "Scope of the rules <sup>TOP</sup>"
    assert first.content.split("\n")[0] == "# Scope of the rules <sup>TOP</sup>"


def test_words_apart_raised_or_a_mark_beside_no_word_are_no_superscript() -> None:
    # A fraction's numerator over its line ("x = −b ± √b" over "2a"), and a raised "O"
    # beside a quotation mark alone (text that reads as no words).
    numerator = make_line(
        [_segment("x =", 72, 100, 10), _segment("−b ± √b", 95, 95, 7)], 1, 0, 72, 540
    )
    assert numerator.text == "x = −b ± √b"
    no_word = make_line([_segment('"', 72, 100, 10), _segment("O", 80, 96, 6)], 1, 0, 72, 540)
    assert no_word.text == '" O'


def test_a_small_word_raised_over_another_is_no_superscript() -> None:
    # A matrix's entry set small over another raised off the line's baseline: stacked,
    # not after a word. A mark after its word still is one.
    over = make_line(
        [_segment("JF =", 40, 100, 10), _segment("du(p)", 72, 94, 10), _segment("dx", 74, 89, 7)],
        1, 0, 40, 540,
    )  # fmt: skip
    assert over.text == "JF = du(p) dx"
    after = make_line(
        [_segment("JF =", 40, 100, 10), _segment("du(p)", 72, 94, 10), _segment("dx", 102, 89, 7)],
        1, 0, 40, 540,
    )  # fmt: skip
    assert after.text == "JF = du(p) <sup>dx</sup>"


def test_a_mark_inside_a_segments_span_at_its_height_is_a_superscript() -> None:
    # PDFium may cut a right-to-left line around a footnote's mark so that the mark lies
    # inside the span of a segment on the baseline (boxes of a Persian line at 14 pt, its
    # mark at 6.4 pt).
    def placed(text: str, x0: float, x1: float, top: float, bottom: float, size: float):
        return Segment(text, x0, top, x1, bottom, (x0, 0, x1, 1), 0, 0, 0, size, False)

    line = make_line(
        [
            placed("د، گم", 42.7, 75.2, 100.6, 116.5, 14.0),
            placed("اریکسون عربی میدانست و قرآن را میخوان", 74.9, 354.3, 100.0, 116.5, 14.0),
            placed("1", 298.1, 302.2, 104.1, 110.4, 6.4),
        ],
        1, 0, 42, 355,
    )  # fmt: skip
    assert "<sup>1</sup>" in line.text


def test_a_title_is_matched_to_its_bookmark_without_its_superscript_tags() -> None:
    # The bookmark's title is plain text: "NEWS AND NOTICES TOP".
    assert normalise("NEWS AND NOTICES <sup>TOP</sup>") == normalise("NEWS AND NOTICES TOP")


def test_a_title_in_capitals_with_its_superscript_is_in_capitals() -> None:
    line = make_line(
        [_segment("NEWS AND NOTICES", 72, 100, 10, True), _segment("TOP", 300, 96, 5.8)],
        1, 0, 72, 540,
    )  # fmt: skip
    assert paragraph_look([line], line.text).caps


def test_a_note_opening_on_a_raised_number_is_a_paragraph_of_its_own(tmp_path: Path) -> None:
    # Notes set under the text, each opening on its number set small and raised: the
    # first note's last line stops mid-phrase at the column's end, and the next note is
    # still a paragraph of its own, as when its number is printed on the line.
    notes = [
        (204, "106", "Aus: Weltanschauung der Hindu, nach Eugen Drewermann: Der"),
        (190, None, "tödliche Fortschritt. Freiburg 1991, S. 133 und folgende Seiten der Ausgabe"),
        (184, "107", "Francis Crick: Was die Seele wirklich ist. Die naturwissenschaftliche"),
        (170, None, "Erforschung des Bewusstseins. Hamburg 1997"),
    ]
    items = [*wrap(LOREM, 72, 700, 300)]
    for top, mark, text in notes:
        if mark:
            items += [Text(72, top, mark, 5), Text(100, top - 4, text, 8)]
        else:
            items.append(Text(72, top, text, 8))
    paragraphs = parse_pages(tmp_path, [Page(items)]).content.split("\n")
    assert [p[:20] for p in paragraphs if "<sup>" in p] == [
        "<sup>106</sup> Aus: ",
        "<sup>107</sup> Franc",
    ]


def test_a_small_segment_lowered_under_the_line_is_a_subscript() -> None:
    # "CO2" with its count set small, its foot lowered under the line's.
    line = make_line(
        [_segment("Emissions of CO", 72, 100, 10), _segment("2", 160, 102.5, 5.8)], 1, 0, 72, 540
    )
    assert line.text == "Emissions of CO <sub>2</sub>"


def test_small_letters_descending_under_the_line_are_no_subscript() -> None:
    # A unit set small, its foot under the capitals' by less than a quarter of its size.
    line = make_line(
        [_segment("PRICE", 72, 100, 10), _segment("jpy", 110, 101.2, 6)], 1, 0, 72, 540
    )
    assert line.text == "PRICE jpy"


def test_a_note_mark_set_below_a_title_is_no_numbering_label(tmp_path: Path) -> None:
    # A small "1" set left of a line in capitals, lowered under its baseline (a note's mark
    # on a letterhead's picture): the line is no heading numbered 1.
    items = [
        Text(72, 720, "REPUBLIC OF THE EXAMPLE", 10),
        Text(60, 687, "1", 5.8),
        Text(110, 690, "MINISTRY OF FOREIGN AFFAIRS", 12),
        *wrap(LOREM, 72, 660, 300),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    assert "<sub>1</sub> MINISTRY OF FOREIGN AFFAIRS" in result.rows[0].content
    assert not [r.heading for r in result.rows if r.heading.startswith("1 ")]


def test_a_script_s_tags_take_no_room_where_a_line_is_measured() -> None:
    # A line ending in a subscript under one that left room for about its first word: the
    # letters printed decide whether that word would have fitted, not the "<sub>" markup.
    above = make_line([_segment("x" * 75, 72, 100, 10)], 1, 0, 72, 540)
    line = make_line(
        [_segment("Thereafter the emissions of CO", 72, 112, 10), _segment("2", 238, 114.5, 5.8)],
        1, 0, 72, 540,
    )  # fmt: skip
    assert line.text.endswith("<sub>2</sub>")
    assert len(paragraphs([[above, line]])) == 1


def test_a_line_ending_on_a_note_mark_after_its_period_ends_its_sentence() -> None:
    # A full line ending "… on request.¹", the note's mark raised after the period, then a
    # numbered line: the sentence ended, so the numbered line opens a paragraph of its own.
    words = "Operators keep the records of each inspection and show them on request."
    above = make_line(
        [_segment(words, 72, 100, 10), _segment("1", 72 + 5.5 * len(words) + 1, 96, 5.8)],
        1, 0, 72, 72 + 5.5 * len(words) + 5,
    )  # fmt: skip
    assert above.text.endswith(".<sup>1</sup>") or above.text.endswith(". <sup>1</sup>")
    below = make_line(
        [_segment("2. The inspector signs each record.", 72, 112, 10)],
        1, 0, 72, 72 + 5.5 * len(words) + 5,
    )  # fmt: skip
    assert len(paragraphs([[above, below]])) == 2


@pytest.mark.parametrize("drop", [5, 3])
def test_a_small_number_set_apart_after_a_heading_is_no_contents_page_number(
    tmp_path: Path, drop: float
) -> None:
    # "1. Emissions of CO" (16 pt bold, ending near x = 218) and its "2" set 9 pt, 22 pt
    # after it: lowered (a subscript), or on about the baseline; neither is a contents
    # entry's page number, which stands on the line's baseline at about its text's size.
    items = [
        Text(72, 740, "1. Emissions of CO", 16, BOLD),
        Text(240, 740 - drop, "2", 9, BOLD),
        *wrap(LOREM, 72, 710, 400),
        Text(72, 620, "2. Storage of water", 16, BOLD),
        *wrap(LOREM, 72, 590, 400),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    assert "\t" not in result.content
    assert result.rows[0].heading.startswith("1. Emissions of CO")


def test_a_note_mark_printed_against_its_word_at_a_line_end_is_a_superscript(
    tmp_path: Path,
) -> None:
    # Marks set small and raised right against the word they mark (the CJK font's glyphs
    # are an em wide; a mark's side bearing reaches back over its word's last glyph), at
    # the end of their line: "^@" after an annex's title, a note's number after a
    # sentence. Each is a superscript, closed up to its word; a raised letter (a formula's
    # index) and a raised number with text after it on the baseline stay as printed.
    def marked(y: float, text: str, mark: str, after: str = "") -> list[Text]:
        end = 72 + len(text) * 16 - 0.3
        return [Text(72, y, text, 16, CJK), Text(end, y + 5, mark, 9)] + (
            [Text(end + 5, y, after, 16, CJK)] if after else []
        )

    items = [
        *marked(720, "附件一 香港特別行政區行政長官的產生辦法", "^@"),
        *marked(680, "本法自公布之日起施行。", "6"),
        *marked(640, "其值依公式計算", "n"),
        *marked(600, "保存", "3", "份紀錄備查。"),
    ]
    content = parse_pages(tmp_path, [Page(items)]).content
    assert "附件一 香港特別行政區行政長官的產生辦法<sup>^@</sup>" in content
    assert "本法自公布之日起施行。<sup>6</sup>" in content
    assert "<sup>n</sup>" not in content
    assert "<sup>3</sup>" not in content


def test_a_note_number_printed_against_a_titles_last_word_is_a_superscript(
    tmp_path: Path,
) -> None:
    # A report's titles carry a footnote's number set small and raised right against their
    # last letter ("Privacy23", no gap): the number is the title's superscript, so the
    # heading reads its title apart from its mark. Raised letters after a word (an index),
    # a number with text after it on the baseline and a number raised after a formula's
    # short names (a square: "mc2") stay as printed.
    def marked(y: float, title: str, mark: str, size: float = 14) -> list[Text]:
        return [Text(72, y, title, size), Text(72 + printed_width(title, size), y + 5, mark, 9)]

    items = [
        *marked(740, "Privacy", "23"),
        *wrap(LOREM, 72, 715, 400),
        *marked(620, "Records kept", "n"),
        *wrap(LOREM, 72, 595, 400),
        *marked(500, "Data location", "24"),
        Text(72 + printed_width("Data location", 14) + 10, 500, "and", 14),
        *wrap(LOREM, 72, 475, 400),
        *marked(380, "Energy E = mc", "2"),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    assert result.rows[0].heading == "Privacy<sup>23</sup>"
    assert "<sup>n</sup>" not in result.content
    assert "<sup>24</sup>" not in result.content
    assert "<sup>2</sup>" not in result.content


def test_a_note_number_against_a_cells_last_word_is_a_superscript(tmp_path: Path) -> None:
    # A table of one column, ruled: its title cell "General Questions" carries a footnote's
    # number set small and raised against its last letter. It reads as a superscript, as on
    # a line of text, not as digits of the word ("Questions75").
    title = "General Questions"
    items = [*wrap(LOREM, 72, 740, 400)]
    items += boxes((72, 472), 600, 576) + boxes((72, 472), 576, 552) + boxes((72, 472), 552, 528)
    items += [Text(78, 584, title), Text(78 + printed_width(title, 11), 588, "75", 7)]
    items += [Text(78, 560, "1. Who reviews the contract?"), Text(78, 536, "2. Who signs it?")]
    content = parse_pages(tmp_path, [Page(items)]).content
    assert "General Questions<sup>75</sup>\n1. Who reviews the contract?" in content
