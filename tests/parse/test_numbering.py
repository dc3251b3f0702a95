"""numbering.xml -> rendered list and heading labels, with Word's counter semantics."""

from __future__ import annotations

import csv
import zipfile

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from lightrag_pchunk.parse.numbering import NumberingCounter
from lightrag_pchunk.parse.numdefs import NumberingDefinitions
from lightrag_pchunk.parse.numfmt import SUPPORTED_FORMATS, format_number
from lightrag_pchunk.parse.xml import parse_xml, qn

from helpers import shared_dir

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"


def lvl(ilvl: int, fmt: str | None = "decimal", text: str | None = None, start="1", **extra) -> str:
    """One w:lvl; ``extra`` adds raw child XML by name (restart, suff, pstyle, font, lgl...)."""
    parts = [f'<w:start w:val="{start}"/>' if start is not None else ""]
    parts.append(f'<w:numFmt w:val="{fmt}"/>' if fmt is not None else "")
    if "restart" in extra:
        parts.append(f'<w:lvlRestart w:val="{extra["restart"]}"/>')
    if "pstyle" in extra:
        parts.append(f'<w:pStyle w:val="{extra["pstyle"]}"/>')
    if extra.get("lgl"):
        parts.append("<w:isLgl/>")
    if "suff" in extra:
        parts.append(f'<w:suff w:val="{extra["suff"]}"/>')
    if text is None:
        text = f"%{ilvl + 1}."
    parts.append(f'<w:lvlText w:val="{text}"/>' if text is not False else "")
    if extra.get("picture"):
        parts.append('<w:lvlPicBulletId w:val="0"/>')
    if "font" in extra:
        font = extra["font"]
        parts.append(
            f'<w:rPr><w:rFonts w:ascii="{font}" w:hAnsi="{font}" w:hint="default"/></w:rPr>'
        )
    return f'<w:lvl w:ilvl="{ilvl}">{"".join(parts)}</w:lvl>'


def abstract(aid: int | str, *levels: str, extra: str = "") -> str:
    return f'<w:abstractNum w:abstractNumId="{aid}">{extra}{"".join(levels)}</w:abstractNum>'


def num(num_id: int | str, aid: int | str, overrides: str = "") -> str:
    return f'<w:num w:numId="{num_id}"><w:abstractNumId w:val="{aid}"/>{overrides}</w:num>'


def start_override(ilvl: int, value: int | str) -> str:
    return f'<w:lvlOverride w:ilvl="{ilvl}"><w:startOverride w:val="{value}"/></w:lvlOverride>'


def numbering(*parts: str) -> etree._Element:
    return etree.fromstring(
        f'<w:numbering xmlns:w="{W}" xmlns:mc="{MC}">{"".join(parts)}</w:numbering>'
    )


def counter(*parts: str, style_num_ids=None) -> NumberingCounter:
    return NumberingCounter(NumberingDefinitions.from_xml(numbering(*parts), style_num_ids))


def labels(c: NumberingCounter, *calls: tuple[int, int]) -> list[str | None]:
    return [c.label(n, i) for n, i in calls]


def single(fmt: str, text: str = "%1", start: int = 1, **extra) -> NumberingCounter:
    return counter(abstract(0, lvl(0, fmt, text, start=str(start), **extra)), num(1, 0))


def run(fmt: str, count: int, start: int = 1, text: str = "%1") -> list[str | None]:
    c = single(fmt, text, start)
    return [c.label(1, 0) for _ in range(count)]


# ---------------------------------------------------------------- formats, through numbering.xml


@pytest.mark.parametrize(
    ("fmt", "start", "expected"),
    [
        ("decimal", 1, ["1", "2", "3"]),
        ("decimal", 0, ["0", "1", "2"]),
        ("decimalZero", 8, ["08", "09", "10"]),
        ("upperRoman", 3, ["III", "IV", "V"]),
        ("lowerRoman", 8, ["viii", "ix", "x"]),
        ("upperLetter", 25, ["Y", "Z", "AA"]),
        ("lowerLetter", 1, ["a", "b", "c"]),
        ("lowerLetter", 52, ["zz", "aaa", "bbb"]),
        ("ordinal", 1, ["1st", "2nd", "3rd", "4th"]),
        ("ordinal", 11, ["11th", "12th", "13th"]),
        ("ordinal", 21, ["21st", "22nd", "23rd"]),
        ("cardinalText", 1, ["One", "Two", "Three"]),
        ("cardinalText", 20, ["Twenty", "Twenty-one"]),
        ("cardinalText", 100, ["One hundred", "One hundred one"]),
        ("ordinalText", 1, ["First", "Second", "Third", "Fourth"]),
        ("ordinalText", 20, ["Twentieth", "Twenty-first"]),
        ("ordinalText", 12, ["Twelfth"]),
        ("chineseCounting", 1, ["一", "二", "三"]),
        ("chineseCounting", 9, ["九", "十", "十一", "十二"]),
        ("chineseCounting", 20, ["二十", "二十一"]),
        ("chineseCounting", 99, ["九十九", "一○○"]),
        ("chineseCountingThousand", 99, ["九十九", "一百", "一百零一"]),
        ("chineseCountingThousand", 110, ["一百一十"]),
        ("chineseCountingThousand", 1000, ["一千", "一千零一"]),
        ("chineseCountingThousand", 10000, ["一万", "一万零一"]),
        ("taiwaneseCounting", 10, ["十", "十一"]),
        ("japaneseCounting", 10, ["十", "十一"]),
        ("japaneseCounting", 100, ["百", "百一"]),
        ("chineseLegalSimplified", 1, ["壹", "贰", "叁"]),
        ("chineseLegalSimplified", 10, ["壹拾", "壹拾壹"]),
        ("chineseLegalSimplified", 100, ["壹佰", "壹佰零壹"]),
        ("ideographLegalTraditional", 2, ["貳", "參"]),
        ("ideographDigital", 9, ["九", "一〇", "一一"]),
        ("ideographTraditional", 1, ["甲", "乙", "丙", "丁"]),
        ("ideographTraditional", 10, ["癸", "甲"]),
        ("ideographZodiac", 1, ["子", "丑", "寅"]),
        ("ideographZodiac", 12, ["亥", "子"]),
        ("ideographZodiacTraditional", 1, ["甲子", "乙丑"]),
        ("ideographEnclosedCircle", 1, ["㈠", "㈡"]),
        ("decimalFullWidth", 9, ["９", "１０"]),
        ("decimalFullWidth2", 1, ["１"]),
        ("decimalHalfWidth", 1, ["1"]),
        ("decimalEnclosedCircle", 1, ["①", "②", "③"]),
        ("decimalEnclosedCircle", 20, ["⑳", "21", "22"]),
        ("decimalEnclosedCircleChinese", 1, ["①"]),
        ("decimalEnclosedParen", 1, ["⑴", "⑵"]),
        ("decimalEnclosedParen", 20, ["⒇", "(21)"]),
        ("decimalEnclosedFullstop", 1, ["⒈", "⒉"]),
        ("decimalEnclosedFullstop", 20, ["⒛", "21."]),
        ("numberInDash", 1, ["- 1 -"]),
        ("koreanDigital", 9, ["구", "일영", "일일"]),
        ("koreanCounting", 10, ["십", "십일"]),
        ("koreanLegal", 1, ["하나", "둘"]),
        ("koreanLegal", 10, ["열", "열하나"]),
        ("ganada", 1, ["가", "나", "다"]),
        ("ganada", 14, ["하", "가"]),
        ("chosung", 1, ["ㄱ", "ㄴ", "ㄷ"]),
        ("aiueoFullWidth", 1, ["ア", "イ"]),
        ("irohaFullWidth", 1, ["イ", "ロ", "ハ"]),
        ("hebrew1", 1, ["א", "ב"]),
        ("hebrew1", 10, ["י", "יא"]),
        ("hebrew1", 15, ["טו", "טז", "יז"]),
        ("hebrew2", 1, ["א", "ב"]),
        ("arabicAlpha", 1, ["أ", "ب", "ت"]),
        ("arabicAbjad", 1, ["أ", "ب", "ج"]),
        ("thaiNumbers", 10, ["๑๐"]),
        ("hindiNumbers", 1, ["१"]),
        ("notARealFormat", 1, ["1", "2"]),
    ],
)
def test_formats_render_as_word_shows_them(fmt, start, expected):
    assert run(fmt, len(expected), start) == expected


def test_format_number_is_total_on_edge_values():
    assert format_number(0, "upperRoman") == "0"
    assert format_number(4000, "upperRoman") == "4000"
    assert format_number(0, "lowerLetter") == "0"
    assert format_number(781, "lowerLetter") == "781"
    assert format_number(10**8, "chineseCountingThousand") == str(10**8)
    assert format_number(1000, "hebrew1") == "1000"
    assert format_number(5, "bullet") == "•"
    assert format_number(5, "none") == ""


def test_lvl_text_literals_wrap_the_number():
    assert run("chineseCounting", 2, text="第%1章") == ["第一章", "第二章"]
    assert run("lowerLetter", 2, text="(%1)") == ["(a)", "(b)"]
    assert run("lowerRoman", 4, text="%1.") == ["i.", "ii.", "iii.", "iv."]
    assert run("chineseCounting", 1, text="%1、") == ["一、"]
    assert run("upperLetter", 1, text="附　录　%1") == ["附　录　A"]


def test_custom_format_from_alternate_content():
    def custom_level(sample: str, fallback: str) -> str:
        return (
            '<w:lvl w:ilvl="0"><w:start w:val="1"/><mc:AlternateContent><mc:Choice Requires="w14">'
            f'<w:numFmt w:val="custom" w:format="{sample}"/></mc:Choice><mc:Fallback>'
            f'<w:numFmt w:val="{fallback}"/></mc:Fallback></mc:AlternateContent>'
            '<w:lvlText w:val="%1."/></w:lvl>'
        )

    c = counter(abstract(0, custom_level("001, 002, 003, ...", "decimalZero")), num(1, 0))
    assert labels(c, (1, 0), (1, 0)) == ["001.", "002."]
    c = counter(abstract(0, custom_level("α, β, γ, ...", "decimal")), num(1, 0))
    assert labels(c, (1, 0), (1, 0)) == ["α.", "β."]
    # A sample we cannot continue falls back to mc:Fallback's format.
    c = counter(abstract(0, custom_level("foo, bar", "upperRoman")), num(1, 0))
    assert labels(c, (1, 0), (1, 0)) == ["I.", "II."]


def test_numfmt_none_keeps_literal_text_and_drops_empty_labels():
    assert run("none", 2, text="%1注：") == ["注：", "注："]
    assert run("none", 1, text="%1") == [None]
    assert run("none", 1, text="") == [None]


# ---------------------------------------------------------------- counters


HEADINGS = abstract(
    0,
    lvl(0, "decimal", "%1"),
    lvl(1, "decimal", "%1.%2"),
    lvl(2, "decimal", "%1.%2.%3"),
)


def test_multilevel_numbers_reset_deeper_levels():
    c = counter(HEADINGS, num(1, 0))
    got = labels(c, (1, 0), (1, 1), (1, 1), (1, 2), (1, 2), (1, 1), (1, 2), (1, 0), (1, 1), (1, 2))
    assert got == ["1", "1.1", "1.2", "1.2.1", "1.2.2", "1.3", "1.3.1", "2", "2.1", "2.1.1"]


def test_skipped_levels_count_as_used_at_their_start_value():
    c = counter(HEADINGS, num(1, 0))
    # Word counts levels 0 and 1 of "1.1.1" as used: their next items are "1.2" and "2".
    assert labels(c, (1, 2), (1, 1), (1, 0), (1, 1)) == ["1.1.1", "1.2", "2", "2.1"]


# Word's output for lists that skip levels: the paste-from-Word fixtures of CKEditor 4
# ("1. One", "i. Level", "ii. Here", "b. Is", "2. Skipped") and the corpus file
# tika__numbered-list-footnote-comment.docx, whose paragraph texts spell Word's labels.
SKIPPING = abstract(
    0,
    lvl(0, "upperLetter", "%1."),
    lvl(1, "lowerLetter", "%2."),
    lvl(2, "lowerRoman", "%3."),
    lvl(3, "decimal", "%4."),
    lvl(4, "lowerLetter", "%5."),
)


def test_a_skipped_level_not_shown_as_a_parent_still_counts():
    c = counter(SKIPPING, num(11, 0))
    # tika fixture: "A", "A i", "A ii", "A ii a", "A ii b", "A ii 2" (levels 0, 2, 2, 4, 4, 3).
    got = labels(c, (11, 0), (11, 2), (11, 2), (11, 4), (11, 4), (11, 3))
    assert got == ["A.", "i.", "ii.", "a.", "b.", "2."]


def test_a_level_restarted_then_skipped_counts_again():
    c = counter(
        abstract(0, lvl(0, "decimal", "%1."), lvl(1, "lowerLetter", "%2."), lvl(2, "lowerRoman")),
        num(1, 0),
    )
    got = labels(c, (1, 0), (1, 2), (1, 2), (1, 1), (1, 0), (1, 2), (1, 1))
    assert got == ["1.", "i.", "ii.", "b.", "2.", "i.", "b."]


def test_a_parent_shown_before_its_own_first_item_counts_it():
    # tika fixture: "1.2->1.1" and "1.3 -> 1.2" at level 1, then "2." and "2.1".
    c = counter(HEADINGS, num(14, 0))
    assert labels(c, (14, 1), (14, 1), (14, 0), (14, 1)) == ["1.1", "1.2", "2", "2.1"]


def test_skipped_levels_take_the_start_value_of_the_current_num():
    c = counter(HEADINGS, num(1, 0, start_override(0, 5) + start_override(1, 3)))
    assert labels(c, (1, 2), (1, 1), (1, 0)) == ["5.3.1", "5.4", "6"]


def test_each_level_renders_its_own_format():
    c = counter(
        abstract(
            0,
            lvl(0, "upperRoman", "%1."),
            lvl(1, "upperLetter", "%1.%2"),
            lvl(2, "lowerRoman", "%1.%2.%3"),
        ),
        num(1, 0),
    )
    assert labels(c, (1, 0), (1, 1), (1, 2), (1, 2)) == ["I.", "I.A", "I.A.i", "I.A.ii"]


def test_is_lgl_renders_previous_levels_decimal_and_keeps_its_own():
    c = counter(
        abstract(
            0,
            lvl(0, "upperRoman", "Article %1."),
            lvl(1, "decimalZero", "Section %1.%2", lgl=True),
        ),
        num(1, 0),
    )
    got = labels(c, (1, 0), (1, 1), (1, 1), (1, 0), (1, 1))
    assert got == ["Article I.", "Section 1.01", "Section 1.02", "Article II.", "Section 2.01"]


def test_two_nums_on_one_abstract_continue_one_sequence():
    c = counter(abstract(0, lvl(0)), num(1, 0), num(2, 0))
    assert labels(c, (1, 0), (1, 0), (2, 0), (2, 0), (1, 0)) == ["1.", "2.", "3.", "4.", "5."]


def test_start_override_restarts_a_shared_abstract_once():
    c = counter(abstract(0, lvl(0)), num(1, 0), num(2, 0, start_override(0, 1)))
    # numId 2 restarts at its first paragraph; after it, numId 1 continues the shared count.
    got = labels(c, (1, 0), (1, 0), (2, 0), (2, 0), (1, 0), (2, 0))
    assert got == ["1.", "2.", "1.", "2.", "3.", "4."]


def test_start_override_value_is_used_as_the_new_start():
    c = counter(abstract(0, lvl(0)), num(1, 0), num(2, 0, start_override(0, 8)))
    assert labels(c, (1, 0), (1, 0), (2, 0), (1, 0)) == ["1.", "2.", "8.", "9."]


def test_start_override_also_applies_when_a_shallower_level_restarts_it():
    c = counter(
        abstract(0, lvl(0, "decimal", "%1."), lvl(1, "lowerLetter", "%2)")),
        num(1, 0, start_override(1, 3)),
    )
    assert labels(c, (1, 0), (1, 1), (1, 1), (1, 0), (1, 1)) == ["1.", "c)", "d)", "2.", "c)"]


def test_level_override_replaces_the_whole_level():
    replacement = (
        f'<w:lvlOverride w:ilvl="0">{lvl(0, "upperLetter", "(%1)", start="4")}</w:lvlOverride>'
    )
    c = counter(abstract(0, lvl(0)), num(1, 0), num(2, 0, replacement))
    assert labels(c, (1, 0), (2, 0), (2, 0), (1, 0)) == ["1.", "(D)", "(E)", "6."]
    # A startOverride beside the replacement wins over the replacement's w:start.
    both = replacement.replace("</w:lvlOverride>", '<w:startOverride w:val="2"/></w:lvlOverride>')
    c = counter(abstract(0, lvl(0)), num(1, 0), num(2, 0, both))
    assert labels(c, (1, 0), (2, 0)) == ["1.", "(B)"]


def test_lvl_restart_zero_never_restarts():
    c = counter(
        abstract(0, lvl(0, "decimal", "%1."), lvl(1, "lowerLetter", "%2.", restart=0)),
        num(1, 0),
    )
    assert labels(c, (1, 0), (1, 1), (1, 1), (1, 0), (1, 1)) == ["1.", "a.", "b.", "2.", "c."]


def test_lvl_restart_names_the_level_that_restarts_it():
    c = counter(
        abstract(
            0,
            lvl(0, "decimal", "%1"),
            lvl(1, "decimal", "%1.%2"),
            lvl(2, "decimal", "(%3)", restart=1),  # restarts only after level 0
        ),
        num(1, 0),
    )
    got = labels(c, (1, 0), (1, 2), (1, 1), (1, 2), (1, 0), (1, 2))
    # The first "(1)" skips level 1, which Word then counts as used: the next is "1.2".
    assert got == ["1", "(1)", "1.2", "(2)", "2", "(1)"]


def test_num_style_link_resolves_through_the_numbering_style():
    parts = (
        abstract(0, extra='<w:numStyleLink w:val="ListHeadings"/>'),
        abstract(
            5,
            lvl(0, "decimal", "%1"),
            lvl(1, "decimal", "%1.%2"),
            extra='<w:styleLink w:val="ListHeadings"/>',
        ),
        num(1, 0),
        num(2, 5),
    )
    for style_num_ids in ({"ListHeadings": 2}, lambda s: 2 if s == "ListHeadings" else None, None):
        c = counter(*parts, style_num_ids=style_num_ids)
        # numId 1 delegates to abstractNum 5, so it shares numId 2's counters.
        assert labels(c, (1, 0), (1, 1), (2, 1), (2, 0)) == ["1", "1.1", "1.2", "2"]


def test_num_style_link_cycle_gives_no_label_and_no_error():
    c = counter(
        abstract(0, extra='<w:numStyleLink w:val="A"/>'),
        abstract(1, extra='<w:numStyleLink w:val="B"/>'),
        num(1, 0),
        num(2, 1),
        style_num_ids={"A": 2, "B": 1},
    )
    assert labels(c, (1, 0), (2, 0)) == [None, None]


def test_level_for_style_finds_the_linked_level():
    c = counter(
        abstract(0, lvl(0, pstyle="Heading1"), lvl(1, text="%1.%2", pstyle="Heading2")),
        num(1, 0),
    )
    assert c.level_for_style(1, "Heading2") == 1
    assert c.level_for_style(1, "Heading1") == 0
    assert c.level_for_style(1, "Normal") is None
    assert c.level_for_style(9, "Heading1") is None


# ---------------------------------------------------------------- bullets and suffix


@pytest.mark.parametrize(
    ("text", "font", "expected"),
    [
        ("\uf0b7", "Symbol", "•"),
        ("\uf0a7", "Wingdings", "▪"),
        ("\uf0d8", "Wingdings", "➢"),
        ("\uf0fc", "Wingdings", "✓"),
        ("\uf076", "Wingdings", "❖"),
        ("\uf06e", "Wingdings", "■"),
        ("\uf06c", "Wingdings", "●"),
        ("\uf075", "Wingdings", "◆"),
        ("\uf0a8", "Symbol", "♦"),
        ("\uf02d", "Symbol", "−"),
        ("§", "Wingdings", "▪"),  # the same glyph stored as its byte value
        ("o", "Courier New", "◦"),
        ("\uf0b7", None, "•"),  # font unknown: the usual Word bullet library
        ("\uf0a7", None, "▪"),
        ("\uf0d8", "Times New Roman", "➢"),
        ("\uf0fc", None, "✓"),
        ("\ue123", None, "•"),  # any other private-use glyph
        ("\uf094", "Symbol", "•"),
        ("P", "Wingdings 2", "✓"),
        ("}", "Wingdings 3", "•"),
        ("●", None, "●"),
        ("–", "Arial", "–"),
        ("-", "Calibri", "-"),
    ],
)
def test_bullets_render_plain_unicode(text, font, expected):
    extra = {"font": font} if font else {}
    assert single("bullet", text, **extra).label(1, 0) == expected


def test_picture_bullet_and_empty_bullet():
    assert single("bullet", "\uf0b7", font="Symbol", picture=True).label(1, 0) == "•"
    assert single("bullet", "").label(1, 0) is None


def test_separator_follows_the_suffix():
    c = counter(
        abstract(
            0,
            lvl(0, "decimal", "%1."),
            lvl(1, "decimal", "%1.%2", suff="space"),
            lvl(2, "chineseCounting", "第%3章", suff="nothing"),
            lvl(3, "decimal", "图%4\u3000", suff="nothing"),
        ),
        num(1, 0),
    )
    assert [c.separator(1, i) for i in range(4)] == [" ", " ", "", " "]
    # Labels are stripped: the ideographic space is rendered by the separator.
    assert labels(c, (1, 3)) == ["图1"]
    assert c.separator(99, 0) == " "


# ---------------------------------------------------------------- malformed input


def test_no_numbering_part_and_unknown_ids():
    c = NumberingCounter(NumberingDefinitions.from_xml(None))
    assert c.label(1, 0) is None
    c = counter(abstract(0, lvl(0)), num(1, 0), num(2, 77))
    assert labels(c, (0, 0), (3, 0), (2, 0), (1, 0)) == [None, None, None, "1."]


def test_malformed_values_degrade_without_raising():
    c = counter(
        abstract(0, lvl(0, "decimal", "%1.", start="abc"), lvl(1, "decimal", "%1.%2", start=None)),
        abstract("x", lvl(0, "upperRoman", "%1", start="-5")),
        abstract(2, '<w:lvl w:ilvl="zz"/>', '<w:lvl w:ilvl="12"/>', lvl(0, None, "%1")),
        abstract(3, lvl(0, "decimal", "%2.%1")),  # names a deeper level: Word drops the text
        abstract(4, lvl(0, "decimal", text=False)),
        num(1, 0),
        num(2, "x"),
        num(3, 2),
        num("bad", 0),
        num(4, 3),
        num(5, 4),
        num(6, 0, '<w:lvlOverride w:ilvl="42"><w:startOverride w:val="x"/></w:lvlOverride>'),
        num(7, 0, start_override(0, "nan")),
    )
    assert c.label(1, 0) == "1."  # non-integer start: 1
    assert c.label(1, 1) == "1.0"  # absent start: 0 (ECMA-376 §17.9.26)
    assert c.label(2, 0) == "0"  # negative start clamped to 0, which has no roman numeral
    assert c.label(3, 0) == "1"  # absent numFmt: decimal
    assert labels(c, (1, 12), (1, -1), (1, 5), (3, 1)) == [None, None, None, None]
    assert c.label(4, 0) is None
    assert c.label(5, 0) is None  # no lvlText: Word shows nothing
    assert c.label(6, 0) == "2."
    assert c.label("1", "0") == "3."  # type: ignore[arg-type]


@given(st.sampled_from(sorted(SUPPORTED_FORMATS)), st.integers(min_value=0, max_value=2**31 - 1))
def test_every_format_renders_every_counter_value(fmt, value):
    text = format_number(value, fmt)
    assert isinstance(text, str) and len(text) < 100
    assert fmt in ("none",) or text


@given(st.lists(st.tuples(st.integers(-2, 6), st.integers(-2, 12)), max_size=40))
def test_any_paragraph_sequence_gives_labels_or_none(calls):
    c = counter(
        HEADINGS,
        abstract(1, lvl(0, "bullet", "\uf0a7", font="Wingdings"), lvl(1, "lowerLetter", "%2)")),
        abstract(2, extra='<w:numStyleLink w:val="S"/>'),
        num(1, 0),
        num(2, 0, start_override(1, 5)),
        num(3, 1),
        num(4, 2),
        num(5, 9),
    )
    for num_id, ilvl in calls:
        label = c.label(num_id, ilvl)
        assert label is None or (label == label.strip() and label)
        assert label is None or not any(0xE000 <= ord(ch) <= 0xF8FF for ch in label)
        assert c.separator(num_id, ilvl) in ("", " ")


def test_huge_start_values_stay_bounded():
    c = single("lowerLetter", "%1", start=10**30)
    assert c.label(1, 0) == str(2**31 - 1)


# ---------------------------------------------------------------- the corpus


def _corpus_labels(path, part: bytes) -> list[str]:
    defs = NumberingDefinitions.from_xml(parse_xml(part, path=str(path), part="word/numbering.xml"))
    c = NumberingCounter(defs)
    with zipfile.ZipFile(path) as zf:
        body = parse_xml(zf.read("word/document.xml"), path=str(path), part="word/document.xml")
    out = []
    for p in body.iter(qn("w:p")):
        num_pr = p.find(f"{qn('w:pPr')}/{qn('w:numPr')}")
        if num_pr is None:
            continue
        num_id = num_pr.find(qn("w:numId"))
        ilvl = num_pr.find(qn("w:ilvl"))
        if num_id is None:
            continue
        level = ilvl.get(qn("w:val")) if ilvl is not None else "0"
        label = c.label(num_id.get(qn("w:val")), level)  # type: ignore[arg-type]
        if label is not None:
            c.separator(num_id.get(qn("w:val")), level)  # type: ignore[arg-type]
            out.append(label)
    return out


def test_corpus_labels_never_raise_nor_leak_private_use_glyphs():
    shared = shared_dir()
    if shared is None or not (shared / "corpus" / "docx").is_dir():
        pytest.skip("corpus absent: /work/shared/corpus/docx (set PCHUNK_SHARED_DIR) not found")
    corpus = shared / "corpus" / "docx"
    manifest = shared / "corpus" / "MANIFEST.tsv"
    cjk: set[str] = set()
    if manifest.is_file():
        with manifest.open(encoding="utf-8") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                if float(row.get("cjk_ratio") or 0) > 0:
                    cjk.add(row["local_name"])
    checked = 0
    cjk_labels: list[str] = []
    for path in sorted(corpus.iterdir()):
        try:
            with zipfile.ZipFile(path) as zf:
                if "word/numbering.xml" not in zf.namelist():
                    continue
                part = zf.read("word/numbering.xml")
                zf.getinfo("word/document.xml")
        except (zipfile.BadZipFile, KeyError, OSError):
            continue  # refused files are the package reader's business, not numbering's
        found = _corpus_labels(path, part)
        checked += 1
        bad = [lab for lab in found if any(0xE000 <= ord(ch) <= 0xF8FF for ch in lab)]
        assert not bad, f"{path.name}: private-use glyphs in labels {bad[:5]}"
        if path.name in cjk:
            cjk_labels.extend(found)
    assert checked > 10
    assert cjk_labels, "the CJK standard drafts carry numbered clauses"
