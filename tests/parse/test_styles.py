"""Outline levels through the basedOn chain, paragraph overrides, localised heading names."""

from __future__ import annotations

import csv
from collections import Counter

import pytest
from lxml import etree

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.limits import PackageLimits
from lightrag_pchunk.parse.package import DocxPackage
from lightrag_pchunk.parse.plain import paragraph_props
from lightrag_pchunk.parse.style_names import builtin_heading_level, is_toc_heading
from lightrag_pchunk.parse.styles import StyleSheet
from lightrag_pchunk.parse.xml import parse_xml, qn

from docx_builders import paragraph, style, styles_xml
from helpers import shared_dir

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def sheet(*styles: str) -> StyleSheet:
    return StyleSheet.from_xml(parse_xml(styles_xml("".join(styles)).encode()))


def outline_of(s: StyleSheet, **kwargs) -> int | None:
    """The outline level the walk gives a paragraph built by docx_builders.paragraph: its
    own w:outlineLvl and style (``plain.paragraph_props``), else the default paragraph
    style's."""
    p = etree.fromstring(paragraph("t", **kwargs).replace("<w:p>", f'<w:p xmlns:w="{W}">', 1))
    return walk_level(s, p)


def walk_level(s: StyleSheet, p: etree._Element) -> int | None:
    style_id, own, _, _ = paragraph_props(p)
    return s.outline_level(own, style_id or s.default_paragraph_style)


BASE = (
    style("Normal", "Normal", default=True),
    style("Heading1", "heading 1", based_on="Normal", outline=0),
    style("Heading2", "heading 2", based_on="Heading1", outline=1),
)


def test_reads_own_settings():
    s = sheet(*BASE, style("List", "List Para", based_on="Normal", num_id=4, ilvl=2))
    info = s.get("List")
    assert (info.name, info.type, info.based_on, info.outline_level) == (
        "List Para",
        "paragraph",
        "Normal",
        None,
    )
    assert (info.num_id, info.ilvl, info.is_default) == (4, 2, False)
    assert s.get("Normal").is_default
    assert s.default_paragraph_style == "Normal"
    assert s.get("heading1").style_id == "Heading1"  # case-insensitive fallback
    assert s.get("nope") is None and s.get(None) is None


def test_basedon_chain_two_hops():
    s = sheet(
        *BASE,
        style("Custom", "My heading", based_on="Heading2"),
        style("Custom2", "My heading too", based_on="Custom"),
    )
    assert s.effective_outline_level("Custom") == 1
    assert s.effective_outline_level("Custom2") == 1
    assert s.effective_outline_level("Normal") is None


def test_own_outline_level_beats_the_parent_and_9_is_final():
    s = sheet(
        *BASE,
        style("Appendix", "Appendix Heading 1", based_on="Heading1", outline=3),
        style("Plain", "Plain", based_on="Heading1", outline=9),
        style("UnderPlain", "Under plain", based_on="Plain"),
    )
    assert s.effective_outline_level("Appendix") == 3
    assert s.effective_outline_level("Plain") is None
    assert s.effective_outline_level("UnderPlain") is None


def test_cycles_and_self_reference_are_body_and_terminate():
    s = sheet(
        style("A", "A", based_on="B"),
        style("B", "B", based_on="C"),
        style("C", "C", based_on="A"),
        style("Self", "Self", based_on="Self"),
        style("IntoCycle", "Into", based_on="A"),
    )
    for sid in ("A", "B", "C", "Self", "IntoCycle"):
        assert s.effective_outline_level(sid) is None
    assert s.numbering_of("A") is None
    assert s.title_kind("A") is None


def test_cycle_below_a_heading_keeps_the_heading():
    s = sheet(style("H", "X", based_on="L", outline=2), style("L", "L", based_on="H"))
    assert s.effective_outline_level("L") == 2
    assert s.effective_outline_level("H") == 2


def test_missing_parent_recognised_by_id_else_body():
    s = sheet(
        style("Orphan", "Orphan", based_on="DoesNotExist"),
        style("Derived", "Derived", based_on="Heading3"),
    )
    assert s.effective_outline_level("Orphan") is None
    assert s.effective_outline_level("Derived") == 2  # Heading3 undefined, named by its id


def test_long_chain_is_resolved_without_recursion_limits():
    chain = [style("S0", "S0", outline=4)]
    chain += [style(f"S{i}", f"S{i}", based_on=f"S{i - 1}") for i in range(1, 5000)]
    s = sheet(*chain)
    assert s.effective_outline_level("S4999") == 4


def test_paragraph_outline_level_overrides_the_style():
    s = sheet(*BASE)
    assert outline_of(s, style="Heading1") == 0
    assert outline_of(s, style="Heading1", outline=4) == 4
    assert outline_of(s, style="Normal", outline=2) == 2
    assert outline_of(s, style="Heading2", outline=9) is None  # 9 is final
    assert outline_of(s, style="Heading2", outline=12) == 1  # invalid: ignored
    assert outline_of(s) is None


def test_outline_level_own_level_wins_and_nine_is_body_text():
    # The walk reads a paragraph's own level from its plain scan and asks this rule.
    s = sheet(*BASE)
    assert s.outline_level(None, "Heading1") == 0
    assert s.outline_level(4, "Heading1") == 4
    assert s.outline_level(9, "Heading2") is None  # body text, final
    assert s.outline_level(None, "Normal") is None


def test_default_paragraph_style_applies_without_pstyle():
    s = sheet(style("Body", "Body"), style("Normal", "Normal", outline=3, default=True))
    assert s.default_paragraph_style == "Normal"
    assert outline_of(s) == 3
    assert outline_of(s, outline=None, ppr="<w:jc w:val='left'/>") == 3
    assert outline_of(s, style="Body") is None
    # An undefined style falls back to the default paragraph style, as in Word; a style based
    # on an undefined one does not.
    s = sheet(style("Normal", "Normal", outline=3, default=True), style("B", "B", based_on="Ghost"))
    assert s.effective_outline_level("B") is None
    assert outline_of(s, style="Ghost") == 3


def test_last_default_and_last_duplicate_win():
    s = sheet(
        style("A", "A", default=True),
        style("B", "B", default=True),
        style("Heading1", "heading 1"),
        style("Heading1", "heading 1", outline=0, num_id=3),
    )
    assert s.default_paragraph_style == "B"
    assert s.numbering_of("Heading1") == (3, None)


@pytest.mark.parametrize(
    ("name", "level"),
    [
        ("heading 1", 0),
        ("Heading 9", 8),
        ("HEADING 3", 2),
        ("heading1", 0),
        ("标题 1", 0),
        ("标题2", 1),
        ("標題 3", 2),
        ("Überschrift 1", 0),
        ("Titre 2", 1),
        ("Título 1", 0),
        ("Titolo 4", 3),
        ("Заголовок 1", 0),
        ("見出し 1", 0),
        ("見出し１", 0),  # full-width digit
        ("Kop 1", 0),
        ("Nagłówek 2", 1),
        ("Rubrik 1", 0),
        ("Overskrift 3", 2),
        ("제목 1", 0),
        ("Başlık 1", 0),
    ],
)
def test_localised_heading_names_without_outline_level(name, level):
    s = sheet(style("Normal", "Normal", default=True), style("X", name, based_on="Normal"))
    assert s.effective_outline_level("X") == level
    assert builtin_heading_level(name) == level


@pytest.mark.parametrize(
    ("style_id", "level"),
    [("Heading1", 0), ("berschrift1", 0), ("Titre1", 0), ("Ttulo2", 1), ("Nagwek3", 2)],
)
def test_heading_style_ids(style_id, level):
    assert builtin_heading_level(style_id) == level
    s = sheet(style(style_id, None))  # a style without a name is recognised by its id
    assert s.effective_outline_level(style_id) == level


@pytest.mark.parametrize(
    "name",
    ["Title", "heading", "heading 0", "heading 10", "TOC 1", "Heading 1 Char", "1", "Kop", "标题"],
)
def test_names_that_are_not_headings(name):
    assert builtin_heading_level(name) is None


def test_character_style_named_like_a_heading_is_not_a_paragraph_heading():
    s = sheet(style("Heading1Char", "heading 1", kind="character"))
    assert s.effective_outline_level("Heading1Char") is None


def test_outline_only_styles():
    s = sheet(
        style("Normal", "Normal", default=True),
        style("a1", "章标题", based_on="Normal", outline=0),
        style("a2", "一级条标题", based_on="a1", outline=1),
        style("a3", "二级条标题", based_on="a2"),
    )
    assert [s.effective_outline_level(x) for x in ("a1", "a2", "a3")] == [0, 1, 1]


def test_toc_heading_is_body():
    s = sheet(
        *BASE,
        style("TOCHeading", "TOC Heading", based_on="Heading1", outline=9),
        style("TOCHeadingNoLevel", "TOC Heading", based_on="Heading1"),
        style("Inhaltsverzeichnisberschrift", "Inhaltsverzeichnisüberschrift", based_on="Heading1"),
    )
    for sid in ("TOCHeading", "TOCHeadingNoLevel", "Inhaltsverzeichnisberschrift"):
        assert s.effective_outline_level(sid) is None
    assert is_toc_heading("toc heading") and is_toc_heading("TOCHeading")
    assert not is_toc_heading("TOC 1")


def test_title_and_subtitle_are_body_but_reported():
    s = sheet(
        *BASE,
        style("Title", "Title", based_on="Normal"),
        style("Subtitle", "Subtitle", based_on="Normal"),
        style("BigTitle", "Big title", based_on="Title"),
        style("HeadingTitle", "Title", based_on="Heading1"),
    )
    assert s.effective_outline_level("Title") is None
    assert s.effective_outline_level("Subtitle") is None
    assert s.title_kind("Title") == "title"
    assert s.title_kind("BigTitle") == "title"
    assert s.title_kind("Subtitle") == "subtitle"
    assert s.title_kind("Heading1") is None
    # A Title based on Heading 1 inherits its outline level, as in Word.
    assert s.effective_outline_level("HeadingTitle") == 0


def test_numbering_of_through_the_chain():
    s = sheet(
        *BASE,
        style("Numbered", "Numbered", based_on="Normal", num_id=5, ilvl=1),
        style("Child", "Child", based_on="Numbered"),
        style("Deeper", "Deeper", based_on="Child", ilvl=3),
        style("NoList", "No list", based_on="Numbered", num_id=0),
        style("OnlyNum", "Only num", num_id=7),
    )
    assert s.numbering_of("Numbered") == (5, 1)
    assert s.numbering_of("Child") == (5, 1)
    assert s.numbering_of("Deeper") == (5, 3)
    assert s.numbering_of("NoList") is None
    assert s.numbering_of("OnlyNum") == (7, None)
    assert s.numbering_of("Normal") is None
    assert s.numbering_of("Ghost") is None


def test_empty_sheet():
    s = StyleSheet.from_xml(None)
    assert s.styles == {} and s.default_paragraph_style is None
    assert outline_of(s, style="Heading2") == 1  # recognised by its id
    assert outline_of(s, style="Body") is None
    assert outline_of(s, outline=0) == 0


# -- the corpus --------------------------------------------------------------------------------


def level_counts(path) -> Counter:
    """Headings per level (1-9) over every w:p of the main document, as MANIFEST counts them."""
    with DocxPackage.open(path, PackageLimits()) as package:
        styles = StyleSheet.from_xml(package.styles())
        document = package.read_xml(package.main_part)
    counts: Counter = Counter()
    for para in document.iter(qn("w:p")):
        level = walk_level(styles, para)
        if level is not None:
            counts[level + 1] += 1
    return counts


def test_corpus_headings_match_the_manifest_outline_counts():
    shared = shared_dir()
    if shared is None:
        pytest.skip("../shared (the DOCX corpus) is absent; set PCHUNK_SHARED_DIR to run this")
    corpus = shared / "corpus"
    with open(corpus / "MANIFEST.tsv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    checked = 0
    for row in rows:
        try:
            counts = level_counts(corpus / "docx" / row["local_name"])
        except DocxParseError:
            continue
        ours = ";".join(f"L{k}:{counts[k]}" for k in sorted(counts))
        assert ours == row["headings_by_outlineLvl"], row["local_name"]
        checked += 1
    assert checked >= 90
