"""Numbering labels and the levels they give a flat outline."""

from __future__ import annotations

import pytest

from lightrag_pchunk.outline.numbering import (
    FamilyStack,
    chinese_number,
    levels_from_numbering,
    parse_label,
    roman_number,
)


@pytest.mark.parametrize(
    ("line", "family", "ordinals", "rest"),
    [
        ("第一章 总则", "legal-章", (1,), "总则"),
        ("第二章\u3000管理职责", "legal-章", (2,), "管理职责"),
        ("第十二条 为加强管理，制定本办法。", "legal-条", (12,), "为加强管理，制定本办法。"),
        ("第一百零五条", "legal-条", (105,), ""),
        ("第三节 检查", "legal-节", (3,), "检查"),
        # Traditional characters name the same units.
        ("第十八條 在香港特別行政區實行的法律", "legal-条", (18,), "在香港特別行政區實行的法律"),
        ("第二節 行政機關", "legal-节", (2,), "行政機關"),
        ("第一編 總則", "legal-编", (1,), "總則"),
        ("第四項 罰則", "legal-项", (4,), "罰則"),
        ("一、总则", "cn-enum", (1,), "总则"),
        ("（二）范围", "paren-cn", (2,), "范围"),
        ("(3) item", "paren-arabic", (3,), "item"),
        ("② 第二", "circled", (2,), "第二"),
        ("3、采购", "arabic-dun", (3,), "采购"),
        ("1.目的：", "decimal", (1,), "目的："),
        # A title opening on a document's name or a quotation, its mark right after the dot.
        ("2．《律师函》发送及送达情况", "decimal", (2,), "《律师函》发送及送达情况"),
        ("3.“三同时”制度", "decimal", (3,), "“三同时”制度"),
        ("4.1 物控部：负责外发", "decimal", (4, 1), "物控部：负责外发"),
        ("3 100 Years of Service", "decimal", (3,), "100 Years of Service"),
        ("１．２　范围", "decimal", (1, 2), "范围"),
        ("1 Introduction", "decimal", (1,), "Introduction"),
        ("2.3.1. Tables", "decimal", (2, 3, 1), "Tables"),
        ("Article 5 Scope", "keyword-article", (5,), "Scope"),
        ("CHAPTER IV Ends", "keyword-chapter", (4,), "Ends"),
        ("Annex B Tests", "keyword-annex", (2,), "Tests"),
        ("附录A 规范性附录", "keyword-附录", (1,), "规范性附录"),
        # The units in other languages take the English family, with a number sign or not.
        ("Приложение № 2", "keyword-appendix", (2,), ""),
        ("ГЛАВА 3. Общие положения", "keyword-chapter", (3,), "Общие положения"),
        ("Anlage Nr. 4 Preisblatt", "keyword-appendix", (4,), "Preisblatt"),
        ("Załącznik nr 3 Wzór umowy", "keyword-annex", (3,), "Wzór umowy"),
        ("Anexo Nº 2 Formulario", "keyword-annex", (2,), "Formulario"),
        ("Capítulo N° 4 Sanciones", "keyword-chapter", (4,), "Sanciones"),
        ("Chapitre 2 Méthodes", "keyword-chapter", (2,), "Méthodes"),
        ("Anexo B Glosario", "keyword-annex", (2,), "Glosario"),
        ("Apéndice 1. Datos", "keyword-appendix", (1,), "Datos"),
        ("Anhang A Glossar", "keyword-appendix", (1,), "Glossar"),
        ("付録A 用語集", "keyword-附录", (1,), "用語集"),
        ("附屬書 2 試験", "keyword-annex", (2,), "試験"),
        # A number with a letter: the unit after 7 (inserted by an amendment, or chapter 7's
        # first appendix), its letter one more ordinal.
        ("Appendix 7A: Pump curves", "keyword-appendix", (7, 1), "Pump curves"),
        ("Artikel 12a Geltungsbereich", "keyword-article", (12, 1), "Geltungsbereich"),
        ("§ 3a Übergangsregelung", "keyword-§", (3, 1), "Übergangsregelung"),
        # Roman numerals set in their own characters after a unit's word.
        ("Anexo Ⅱ Tablas", "keyword-annex", (2,), "Tablas"),
        ("第Ⅳ章 附则", "legal-章", (4,), "附则"),
        ("Part Ⅲ General", "keyword-part", (3,), "General"),
        ("附件Ⅱ 表格", "keyword-附件", (2,), "表格"),
        # Statutes' units in their languages, with the ordinal marks their writers type.
        ("Artículo 1º Objeto", "keyword-article", (1,), "Objeto"),
        ("Artículo 5.- Vigencia", "keyword-article", (5,), "Vigencia"),
        ("Art. 2o Das definições", "keyword-article", (2,), "Das definições"),
        ("Article premier Objet", "keyword-article", (1,), "Objet"),
        ("Article 1er - Champ", "keyword-article", (1,), "Champ"),
        ("Sección 1.ª Disposiciones", "keyword-section", (1,), "Disposiciones"),
        # Numbers written out: a code's ordinals, a book's cardinals.
        ("ARTÍCULO SEGUNDO.- Vigencia", "keyword-article", (2,), "Vigencia"),
        ("Capítulo único Disposiciones", "keyword-chapter", (1,), "Disposiciones"),
        ("Capitolo terzo Sanzioni", "keyword-chapter", (3,), "Sanzioni"),
        ("CHAPTER TWELVE The Return", "keyword-chapter", (12,), "The Return"),
        ("TÍTULO II De los derechos", "keyword-title", (2,), "De los derechos"),
        ("Titre III Du Gouvernement", "keyword-title", (3,), "Du Gouvernement"),
        ("Articolo 3 Oggetto", "keyword-article", (3,), "Oggetto"),
        ("Capitolo 2 Definizioni", "keyword-chapter", (2,), "Definizioni"),
        ("Sezione 4 Controlli", "keyword-section", (4,), "Controlli"),
        ("Hoofdstuk 3 Toezicht", "keyword-chapter", (3,), "Toezicht"),
        ("Afdeling 2 Begripsbepalingen", "keyword-section", (2,), "Begripsbepalingen"),
        ("Artigo 5 Prazo", "keyword-article", (5,), "Prazo"),
        ("Seção 2 Das penas", "keyword-section", (2,), "Das penas"),
        ("Secção 2 Das penas", "keyword-section", (2,), "Das penas"),
        # A financial statement's note, numbered before a dash.
        ("NOTE 3 - INITIAL PUBLIC OFFERING", "keyword-note", (3,), "INITIAL PUBLIC OFFERING"),
        ("Note 12 – Leases", "keyword-note", (12,), "Leases"),
        # A filing's item, its number and letter before a full stop.
        ("ITEM 1A. RISK FACTORS", "keyword-item", (1, 1), "RISK FACTORS"),
        ("Item 7. Management’s Discussion", "keyword-item", (7,), "Management’s Discussion"),
        ("A.2 General", "annex-decimal", (1, 2), "General"),
        ("II. Background", "roman-upper", (2,), "Background"),
        ("Ⅲ、方法", "roman-upper", (3,), "方法"),
        ("b) the operator", "rparen-lower", (2,), "the operator"),
        ("(c) The", "paren-lower", (3,), "The"),
        ("C. Results", "upper", (3,), "Results"),
        # CJK typesetting: a full-width letter or a roman numeral before an ideographic space.
        ("Ｂ\u3000讥刺诸祸（二6～20）", "upper", (2,), "讥刺诸祸（二6～20）"),
        ("IV\u3000Results", "roman-upper", (4,), "Results"),
        ("AC-11 Device Lock", "code", (11,), "Device Lock"),
        ("IA-2 (1) Multi-factor Authentication", "code", (2, 1), "Multi-factor Authentication"),
        ("SC-28(1) Cryptographic Protection", "code", (28, 1), "Cryptographic Protection"),
        ("4.1 年度内审计划", "decimal", (4, 1), "年度内审计划"),
        ("4.1.2 年度内审计划内容", "decimal", (4, 1, 2), "年度内审计划内容"),
    ],
)
def test_labels_are_recognised_with_family_ordinals_and_rest(line, family, ordinals, rest):
    label = parse_label(line)
    assert label is not None
    assert (label.family, label.ordinals, label.rest) == (family, ordinals, rest)
    assert line.lstrip().startswith(label.text)


@pytest.mark.parametrize(
    "line",
    [
        "2019年度报告",
        "2019 年度报告",
        "3 月 5 日起施行",
        "4.1年",
        "12kg of steel",
        "",
        "The plan",
        "1目的",
        "1《律师函》",
        "2.《作业指导书》",  # a list of the documents to follow: each entry a name alone
        "4.【强制】类名使用驼峰风格",  # a rule's bracketed tag, no quoted name: an item
        "COVID-19 cases",
        "PM-2.5 levels",
        "Teilnehmer 3",
        "Приложению № 2",
        "Note 1: the figures are in thousands",
        "Note 2. Source: annual report",
        "Item 3 is checked daily",
        "A plan",
    ],
)
def test_numbers_inside_words_are_not_labels(line):
    assert parse_label(line) is None


@pytest.mark.parametrize(
    "line",
    [
        "6 089 750,85 руб. (Шесть миллионов восемьдесят девять тысяч рублей 85 копеек)",
        "1 000 000 USD",
        "12 345,00 € au total",
        "7\u202f500\u202f000 habitants",
    ],
)
def test_amounts_in_digit_groups_are_not_labels(line):
    assert parse_label(line) is None


@pytest.mark.parametrize(
    "line",
    ["15 to 24", "25 – 44 years", "15 bis 24 Jahre", "18 至 35 岁", "80 and over", "65 and older"],
)
def test_ranges_of_numbers_are_not_labels(line):
    """A chart's or table's groups ("15 to 24", "80 and over") set as lines of their own:
    read as numbered titles, each bar's label headed a section."""
    assert parse_label(line) is None


@pytest.mark.parametrize(
    ("line", "number"),
    [("15 Toxicology", (15,)), ("2 To be determined", (2,)), ("3 Terms and definitions", (3,))],
)
def test_a_section_number_before_a_title_is_no_range(line, number):
    label = parse_label(line)
    assert label is not None and label.ordinals == number


@pytest.mark.parametrize(
    "line",
    [
        # A unit's word before a lower-case word: an article, a conjunction, no letter number.
        "Anexo a la Resolución 12/2020",
        "Anexo e apêndice do contrato",
        "Part a of the contract",
        "Chapter Tenet of the faith",
        # A citation broken at its section sign; a US statute's prose on its title.
        "§ 1232g), and Census records (13 U.S.C. § 9).",
        "§ 12, as amended, applies.",
        "Title 49 of the United States Code specifies the FAA's authority.",
        # The list of the attachments (一览, 一覽, 一覧): no first attachment.
        "附件一览表",
        "附錄一覽表",
        "付録一覧",
        "附属書一覧",
    ],
)
def test_a_units_word_before_a_word_is_no_label(line):
    assert parse_label(line) is None


@pytest.mark.parametrize(
    "line",
    [
        "29 March 2024",
        "3 Mar. 2021",
        "1 May 2020",
        "14 Juli 2023",
        "2 septembre 2019",
        "5月",
        # Each language the list names, in full: a name left out reads as a title.
        "14 febrero 2024",
        "14 febbraio 2024",
        "7 augusti 2020",
        "3 März 2023",
        "2 mai 2023",
        "5 décembre 2022",
        "12 agosto 2021",
        "9 outubro 2020",
        "1 Oktober 2019",
    ],
)
def test_a_day_before_its_month_is_no_label(line):
    assert parse_label(line) is None


@pytest.mark.parametrize(
    ("line", "rest"),
    [
        ("2.1 Market Stops", "Market Stops"),
        ("3 Decision making", "Decision making"),
        ("4.2 Novel approaches", "Novel approaches"),
        ("1.3 Separation of duties", "Separation of duties"),
        ("6 Augmented reality", "Augmented reality"),
    ],
)
def test_a_title_whose_first_word_opens_like_a_month_is_labelled(line, rest):
    found = parse_label(line)
    assert found is not None and found.rest == rest


def test_sequence_continuity():
    first, second = parse_label("1.2 A"), parse_label("1.3 B")
    child, jump = parse_label("1.2.1 C"), parse_label("1.5 D")
    up = parse_label("2 E")
    assert second.follows(first)
    assert child.follows(first)
    assert not jump.follows(first)
    assert up.follows(child)
    assert parse_label("第四条 x").follows(parse_label("第三条 y"))
    assert not parse_label("第四条 x").follows(parse_label("第三章 y"))


def test_an_inserted_unit_stands_between_its_number_and_the_next():
    # "Section 2A" (inserted by an amendment) is a sibling after 2, before 3: one key, the
    # numbers running on through the letters.
    two, two_a, two_b = parse_label("Section 2 Terms"), parse_label("Section 2A Fees"), None
    two_b, three = parse_label("Section 2B Costs"), parse_label("Section 3 Duties")
    assert two_a.key == two.key
    assert two_a.follows(two) and two_b.follows(two_a) and three.follows(two_b)
    assert not two_b.follows(two) and not three.follows(parse_label("Section 1 Scope"))
    assert parse_label("Appendix 8A Forms").follows(parse_label("Appendix 7B Data"))
    assert parse_label("§ 4 x").follows(parse_label("§ 3a y"))
    # A decimal number's part is no inserted unit: "Section 2.1" is a child of 2.
    assert parse_label("Section 2.1 Fees").key != two.key


def test_a_units_lone_roman_letter_continues_either_series():
    # "Chapter I", "Chapter V", "Chapter X": one letter, read alone as a letter (9, 22, 24),
    # continue and are continued as roman numerals too; "Appendix I" after "H" as a letter.
    pairs = [("Chapter I", "Chapter II"), ("Part IV", "Part V"), ("CHAPTER IX.", "CHAPTER X.")]
    pairs += [("Chapter X", "Chapter XI"), ("Appendix H", "Appendix I")]
    assert all(parse_label(b).follows(parse_label(a)) for a, b in pairs)
    assert not parse_label("Chapter III").follows(parse_label("Chapter I"))
    assert not parse_label("Chapter I").follows(parse_label("Chapter II"))


def test_a_title_stands_between_a_book_and_a_chapter():
    headings = ["Libro 1 Personas", "Título I Generales", "Capítulo 1 Objeto", "Artículo 1º x"]
    headings += ["Título II Bienes", "Capítulo 1 Clases", "Libro 2 Obligaciones"]
    assert levels_from_numbering(headings) == [1, 2, 3, 4, 2, 3, 1]


def test_numerals():
    numerals = ("一", "十", "十二", "二十三", "一百零五", "两千", "兩千")
    assert [chinese_number(t) for t in numerals] == [1, 10, 12, 23, 105, 2000, 2000]
    assert [roman_number(t) for t in ("iv", "XII", "mcmxc", "iiii", "vx")] == [
        4, 12, 1990, None, None,
    ]  # fmt: skip


def test_flat_numbered_outline_gets_levels_from_its_numbers():
    headings = [
        "Abstract",
        "1 Introduction",
        "1.1 Scope",
        "1.2 Terms",
        "2 Method",
        "2.1 Setup",
        "Example",
        "2.1.1 Detail",
        "2.2 Runs",
        "References",
    ]
    assert levels_from_numbering(headings) == [1, 1, 2, 2, 1, 2, 3, 3, 2, 1]


def test_letter_that_continues_a_roman_series_is_a_roman_numeral():
    headings = ["I. Contents", "II. Summary", "III. Company", "IV. Products", "V. Marketing"]
    headings += ["VI. Operations", "IX. Expenses", "X. Financial Plan", "XI. Appendices"]
    assert levels_from_numbering(headings) == [1] * 9
    # A letter that does not continue the roman series stays a letter, one level below.
    assert levels_from_numbering(["I. Intro", "A. Scope", "B. Terms", "C. Use", "II. Method"]) == [
        1, 2, 2, 2, 1,
    ]  # fmt: skip
    assert levels_from_numbering(["iv. Products", "v. Marketing", "c. Notes"]) == [1, 1, 2]


def test_chinese_legal_units_nest_by_rank():
    headings = [
        "第一章 总则",
        "第一条",
        "第二条",
        "第二章 职责",
        "第一节 部门",
        "第三条",
        "第二节 人员",
    ]
    assert levels_from_numbering(headings) == [1, 2, 2, 1, 2, 3, 2]


def test_gb_sequence_nests_by_rank_whatever_comes_first():
    headings = ["（一）范围", "1.适用", "一、总则", "（一）目的", "（1）细则", "二、职责"]
    assert levels_from_numbering(headings) == [1, 2, 1, 2, 3, 1]


def test_numbering_decides_only_when_most_headings_are_numbered():
    assert levels_from_numbering(["Intro", "Method", "1 Results"]) is None
    assert levels_from_numbering(["1 Intro"]) is None


def test_a_catalogue_series_continues_by_its_own_letters() -> None:
    ac2, ac3, enhancement = (parse_label(t) for t in ("AC-2 A", "AC-3 B", "AC-3(1) C"))
    assert ac3.follows(ac2) and enhancement.follows(ac3)
    assert parse_label("AU-1 Policy").follows(ac3)  # a new series starts at 1
    assert not parse_label("AU-5 Failures").follows(ac3)
    assert ac2.key == parse_label("AU-5 Failures").key  # one level for every series


def test_a_styled_families_level_never_lifts_a_number_above_its_parent():
    # The styled headings set "1." at level 3 and "1.1" at level 2 (an author's styles need
    # not follow the numbers): an inferred "4.1" still nests below the open "4.", and the
    # next "5." goes back to where "4." stood, not below "4.1".
    stack = FamilyStack({("decimal", 1): 3, ("decimal", 2): 2})
    stack.open_fixed(1, None)
    levels = [stack.place(parse_label(text)) for text in ("4. Rights", "4.1 Duties", "5. Terms")]
    assert levels == [2, 3, 2]


@pytest.mark.parametrize(
    "appendix",
    ["附录 A 试验方法", "附件 1 表格", "Appendix A Methods", "Annex B Forms", "Приложение № 1"],
)
def test_an_appendix_after_decimal_chapters_is_their_sibling(appendix):
    headings = ["1 Scope", "1.1 Terms", "2 Requirements", "2.1 General", appendix, "A.1 Rig"]
    assert levels_from_numbering(headings) == [1, 2, 1, 2, 1, 2]
    # Below a part (a unit of smaller rank), beside the chapters the part holds.
    assert levels_from_numbering(["Part 1 Body", "1 Scope", "1.1 Terms", appendix]) == [1, 2, 3, 2]
    # Under the chapter that names the appendices, its parts.
    assert levels_from_numbering(["1 Scope", "1.1 Terms", "2 Appendices", appendix]) == [1, 2, 1, 2]
    assert levels_from_numbering(["1 Scope", "2 附录", "2.1 说明", appendix]) == [1, 1, 2, 2]


def test_a_chapters_appendices_lettered_after_its_number_are_siblings():
    headings = ["6 Pumps", "7 Seals", "7.1 Duty", "Appendix 7A Curves", "Appendix 7B Data"]
    assert levels_from_numbering(headings)[-2:] == [1, 1]
    assert levels_from_numbering(["1 Scope", "2 Use", "Anexo A Tablas", "Anexo B Datos"]) == [
        1, 1, 1, 1,
    ]  # fmt: skip


def test_the_body_numbered_on_after_an_appendix_goes_back_to_its_own_levels():
    # An appendix inside a chapter ("Appendix A" after "7.1", then "7.2"): the appendix was
    # put beside the top units, closing them; the body's next chapter continues the number
    # of the chapter it closed and takes that chapter's level, not one below the appendix.
    headings = ["7 Pumps", "7.1 Duty", "Appendix A Pump curves", "7.2 Seals", "8 Motors"]
    assert levels_from_numbering(headings)[-1] == 1
    # "7.2" goes back to its level, and the appendix it resumes after was inside chapter 7:
    # it moves down beside "7.2", with its own parts, so "7.2" is no part of it.
    assert levels_from_numbering(headings) == [1, 2, 2, 2, 1]
    headings = ["7 Pumps", "7.1 Duty", "Appendix A Pump curves", "A.1 Rig", "7.2 Seals"]
    assert levels_from_numbering(headings) == [1, 2, 2, 3, 2]
    # Nor is a chapter numbered on after an exhibit placed under it.
    headings = ["1 Scope", "1.1 Terms", "Exhibit 3 Rates", "1.2 Costs", "2 Outlook", "2.1 Sales"]
    assert levels_from_numbering(headings)[-2:] == [1, 2]


def test_an_appendix_after_a_styled_chapter_stands_beside_it_not_below_it():
    stack = FamilyStack()
    stack.open_fixed(1, parse_label("第九章 附則"))
    assert stack.place(parse_label("附件一 行政長官的產生辦法")) == 1
    assert stack.place(parse_label("附件二 立法會的產生辦法")) == 1
    # Below a styled heading that is no numbered unit, it is one of its parts.
    stack = FamilyStack()
    stack.open_fixed(1, None)
    assert stack.place(parse_label("Appendix A Forms")) == 2


@pytest.mark.parametrize(
    "line",
    ["Titolo di studio richiesto", "Sezione di Roma", "Capo di stato maggiore", "Chapitre dix"],
)
def test_a_word_after_a_units_word_that_spells_a_large_roman_numeral_is_prose(line):
    # Italian "di" (501) and French "dix" (509) are words of the sentence, no unit's number.
    assert parse_label(line) is None


def test_a_units_roman_numeral_up_to_a_hundred_is_read():
    assert parse_label("Capitolo xi Conclusioni").ordinals == (11,)
    assert parse_label("PART XC").ordinals == (90,)


@pytest.mark.parametrize(
    ("line", "family", "label"),
    [
        ("★一、技术及服务要求", "cn-enum", "★一、"),
        ("▲（二）服务标准", "paren-cn", "▲（二）"),
        ("★3.投标供应商须签订劳动合同。", "decimal", "★3."),
    ],
)
def test_a_requirements_mark_touching_a_label_is_part_of_it(line, family, label):
    # A tender marks its binding terms with "★" (its weighty ones with "▲") before the
    # label: the line is numbered all the same, its label written with the mark.
    found = parse_label(line)
    assert found is not None and (found.family, found.text) == (family, label)
    assert found.ordinals == parse_label(line[1:]).ordinals


@pytest.mark.parametrize("line", ["★ 重要提示", "★重要提示", "▲", "★★"])
def test_a_requirements_mark_before_words_is_no_label(line):
    assert parse_label(line) is None


def _placed_levels(*lines: str) -> list[int]:
    """The levels a :class:`FamilyStack` places ``lines``' labels at, one after another."""
    stack = FamilyStack()
    return [stack.place(parse_label(line)) for line in lines]


def test_a_lone_letter_that_numbers_two_ways_continues_the_open_series():
    # "i." alone reads as roman one and "v." as the letter v; after "h." the letter i is
    # its sibling, after "iv." roman five; elsewhere each keeps its own reading.
    assert _placed_levels("3. Expenses", "g. Noticing", "h. Phone", "i. Postage") == [1, 2, 2, 2]
    assert _placed_levels("B. Taunts", "iii. Violence", "iv. Ruin", "v. Idols") == [1, 2, 2, 2]
    # "i." after "a." is roman one below it; "v." after roman one (not four) is the letter
    # v, beside "a.".
    assert _placed_levels("a. Scope", "i. Terms", "v. Forms") == [1, 2, 1]
    # A roman section's lettered parts stay open when the next section comes: "V." after
    # "IV.", "A.", "B." is roman five beside "IV.", not the letter after "B." below it;
    # after "U." it is the letter.
    assert _placed_levels("IV. Terms", "A. Fees", "B. Taxes", "V. Forms") == [1, 2, 2, 1]
    assert _placed_levels("IV. Terms", "T. Fees", "U. Taxes", "V. Forms") == [1, 2, 2, 2]
    assert _placed_levels("H. Rent", "i. Deposit", "ii. Keys", "I. Repairs") == [1, 2, 2, 1]


@pytest.mark.parametrize(
    ("line", "family", "ordinals", "rest"),
    [
        ("IV.CONCLUSION", "roman-upper", (4,), "CONCLUSION"),
        ("1.INTRODUCTION", "decimal", (1,), "INTRODUCTION"),
        ("14.PID 如何應用於需量控制？", "decimal", (14,), "PID 如何應用於需量控制？"),
        ("115.WHO model list of medicines", "decimal", (115,), "WHO model list of medicines"),
    ],
)
def test_a_title_in_capitals_typed_right_after_its_labels_dot_is_labelled(
    line, family, ordinals, rest
):
    label = parse_label(line)
    assert (label.family, label.ordinals) == (family, ordinals)
    assert label.rest == rest


@pytest.mark.parametrize("line", ["IV.Conclusion", "1.5MM", "3.ABCs of the plan", "V.I.P. lounge"])
def test_a_word_glued_to_a_dot_that_is_no_title_in_capitals_is_no_label(line):
    assert parse_label(line) is None


@pytest.mark.parametrize(
    ("line", "family", "ordinals"),
    [
        ("a)Prestazioni in caso di vita", "rparen-lower", (1,)),
        ("(3)Specificity", "paren-arabic", (3,)),
    ],
)
def test_a_closing_parenthesis_parts_a_label_from_a_capital(line, family, ordinals):
    label = parse_label(line)
    assert (label.family, label.ordinals) == (family, ordinals)


@pytest.mark.parametrize("line", ["a)lower case goes on", "f(x)Y"])
def test_a_closing_parenthesis_before_a_small_letter_is_no_label(line):
    assert parse_label(line) is None


def test_an_excerpt_starting_inside_its_numbering_keeps_the_numbers_order():
    # A report's chapter printed from "5.1.3" on: "5.2" and "6." number parts above the
    # ones before them, not below; a list numbered from "1." again under "1.1.1" does not.
    assert _placed_levels(
        "5.1.3. Noste",
        "5.2. Training",
        "5.2.1. Upper",
        "5.3. Labour",
        "6. Teachers",
        "6.1. Types",
        "6.2.1. Core",
    ) == [1, 1, 2, 1, 1, 2, 3]
    assert _placed_levels("1.1 Scope", "1.1.1 Terms", "1. First", "2. Second") == [1, 2, 3, 3]
