"""The members of one numbering series are decided together: all headings or none, as most
of them read (``outline/series_votes.py``)."""

from __future__ import annotations

import pytest

from lightrag_pchunk.markdown.document import parse_markdown
from lightrag_pchunk.outline.items import ItemKind, OutlineItem

from outline_items import BOLD, H1, H2, listed, text, titles

NUMERALS = "一二三四五六七八九十"


def _article(number: int, body: str) -> str:
    tens, units = divmod(number, 10)
    numeral = (NUMERALS[tens - 1] if tens > 1 else "") + ("十" if tens else "")
    numeral += NUMERALS[units - 1] if units else ""
    return f"第{numeral}条 {body}"


def test_a_law_s_lead_in_article_among_articles_of_text_heads_nothing_in_markdown(tmp_path):
    # Articles 1-9 are sentences (a stretch long enough for the smart outline); article 5
    # leads into a list with a colon. Its siblings stay whole paragraphs, so does it: no
    # crumb "第五条 …" over articles 6-9.
    articles = []
    for number in range(1, 10):
        if number == 5:
            articles += [
                _article(5, "劳动合同应当具备以下条款:"),
                "（一）用人单位的名称、住所和法定代表人；",
                "（二）劳动者的姓名、住址和居民身份证号码；",
                "（三）劳动合同期限和工作内容。",
            ]
        else:
            sentence = (
                "用人单位应当依法建立和完善劳动规章制度，保障劳动者享有劳动权利、履行劳动义务。"
            )
            articles.append(_article(number, sentence * 6))
    source = tmp_path / "law.md"
    source.write_text(
        "# 劳动合同法\n\n## 第一章 总则\n\n"
        + "\n\n".join(articles)
        + "\n\n## 第二章 附则\n\n"
        + _article(10, "本法自公布之日起施行。")
        + "\n",
        encoding="utf-8",
    )
    parsed = parse_markdown(source, tmp_path / "out", doc_id="doc-law")
    headings = [row.heading for row in parsed.rows]
    assert not any(heading.startswith("第五条") for heading in headings)
    assert "第一章 总则" in headings


def _process_control(first: OutlineItem) -> list[OutlineItem]:
    """Section 5.1, whose list's a) (``first``) and b) read as titles alone, c) to e) as
    sentences."""
    return [
        text("5 Production"),
        text("5.1 Process control"),
        text("The production office controls every process of the plant as follows:"),
        first,
        text("1. The office issues the production order with all its contents for the run."),
        text("b) Work instructions when needed:"),
        text("c) Suitable equipment: plate makers, presses and binders are kept in service."),
        text("d) Monitoring devices: rulers, thermometers and gauges are checked daily."),
        text("e) Measurement: every workshop measures its own products each shift."),
        text("5.2 Validation"),
        text("The production office validates the special processes before each run."),
    ]


def test_a_list_s_titled_members_among_sentences_head_nothing():
    # Under 5.1, a) and b) read as titles alone; c) to e) are sentences: one list.
    found = titles(_process_control(text("a) Product information")))
    assert not any(title.startswith(("a)", "b)")) for title in found)
    assert "5.2 Validation" in found


def test_a_list_s_member_the_contents_lists_keeps_its_title():
    # The same list, its a) listed by the document's contents: the document names it a
    # heading, whatever its siblings read as.
    found = titles(_process_control(text("a) Product information", in_toc=True)))
    assert "a) Product information" in found


def _preservation(first: str, *, second: bool = True) -> list:
    """A section whose a) to e) head their paragraphs; ``first``, its a), a Word list's
    item; ``second``: whether b) is there."""
    handling = [
        text("b) Handling"),
        text("Every workshop chooses handling tools that keep its products from harm."),
    ]
    return [
        text("7.5 Preservation"),
        text("The plant preserves its products at every stage, from receipt to delivery."),
        listed(first),
        text("The raw materials carry their marks from receipt to use on the presses."),
        *(handling if second else []),
        text("c) Storage"),
        text("Materials and products are stored in dry places fit for each of them."),
        text("d) Packing"),
        text("Packers wrap the finished books as the customer asks, in sound bundles."),
        text("e) Protection"),
        text("Each department sets the protection its products need while they wait."),
    ]


def test_a_series_of_titles_takes_the_member_the_rules_left_as_a_list_item():
    # b) to e) head their paragraphs; a), numbered by a Word list, joins them.
    found = titles(_preservation("a) Marking"))
    assert found[1:] == ["a) Marking", "b) Handling", "c) Storage", "d) Packing", "e) Protection"]


def test_a_member_opening_in_lower_case_does_not_join_a_series_of_titles():
    # "a) marking" goes on into its sentence's next words: no title, though b) to e) are.
    assert "a) marking" not in titles(_preservation("a) marking"))


def test_a_member_beside_a_missing_number_does_not_join_a_series_of_titles():
    # b) missing: a) may be b) run into the line before, or a list's own: left in doubt.
    assert "a) Marking" not in titles(_preservation("a) Marking", second=False))


def _chapter(numeral: str, name: str) -> list:
    """A chapter of a manual: its title a list item, a duties list numbered from 一 again."""
    return [
        listed(f"{numeral}、{name}作业指导书"),
        text("领机职责"),
        text("一、严格按照生产任务单和质量标准的要求组织生产，保质保量、按时完成任务；"),
        text("二、严格执行安全操作规程，合理使用设备，按规定定期进行保养；"),
        text("三、对本机台所加工的活件进行抽查，做好相应记录。"),
    ]


def _manual(before: list[OutlineItem], after: list[OutlineItem]) -> list[OutlineItem]:
    """A manual's four chapters set as list items (:func:`_chapter`), ``before`` and
    ``after`` them."""
    names = ("切纸机", "折页机", "锁线机", "压平机")
    chapters = [
        line for n, name in zip("一二三四", names, strict=True) for line in _chapter(n, name)
    ]
    return [*before, *chapters, *after]


def test_a_manual_s_chapters_set_as_list_items_join_as_one_series():
    # 一、… 四、 chapters, each over a list that numbers from 一 again (its 三 before the
    # chapter 四 goes on from no chapter): the chapters are headings, their lists not.
    assert titles(_manual([], [])) == [
        "一、切纸机作业指导书",
        "二、折页机作业指导书",
        "三、锁线机作业指导书",
        "四、压平机作业指导书",
    ]


def test_a_styled_document_s_list_items_do_not_join_as_a_series_alone():
    # The document's styles give its headings (one styled title over the chapters): the
    # list items are what its author set them as, a list.
    styled = OutlineItem(ItemKind.HEADING, "印刷车间作业指导书", 1, H1)
    assert not any("、" in title for title in titles(_manual([styled], [])))


def test_a_series_alone_under_a_heading_found_before_it_is_a_section_s_list():
    # "5.4 人员" heads the lines: the chapters' series stands inside a section, a list,
    # not the document's outline.
    section = [text("5.4 人员"), text("本车间的人员按岗位分工，各司其职，具体如下。")]
    assert titles(_manual(section, [])) == ["5.4 人员"]


def test_a_series_alone_beside_a_heading_numbered_in_its_family_is_a_list():
    # "七、附则", after the chapters and not going on from them, is a heading numbered in
    # their family: the document's sections are numbered so, and the series of list
    # items is a list among them.
    closing = [
        text("七、附则"),
        text("本规程由生产部负责解释，自发布之日起施行，原有规程同时废止。"),
    ]
    assert titles(_manual([], closing)) == ["七、附则"]


def test_a_chapter_title_run_into_the_line_before_leaves_its_series_whole():
    # Chapter 三's title is run into the last line of chapter 二's list: 一、二、四、五
    # are one series still, one number missing, and join as they would whole.
    items = [
        line
        for numeral, name in zip(
            "一二三四五", ("切纸机", "折页机", "锁线机", "压平机", "装订机"), strict=True
        )
        for line in _chapter(numeral, name)
    ]
    at = next(i for i, item in enumerate(items) if item.text.startswith("三、锁线机"))
    items[at - 1 : at + 1] = [text(items[at - 1].text + items[at].text)]
    assert titles(items) == [
        "一、切纸机作业指导书",
        "二、折页机作业指导书",
        "四、压平机作业指导书",
        "五、装订机作业指导书",
    ]


def test_a_series_of_short_lines_one_under_another_is_a_list():
    # "1、人员：操作者" … "4、工具：钢板尺", one under another: a list's items, however
    # short, not a series of titles.
    items = [
        text("检验规则"),
        text("检验规则适用于本车间每一台机器所加工的全部产品，由质检员负责执行。"),
        listed("1、人员：操作者"),
        listed("2、数量：每两层"),
        listed("3、方法：手工抽查"),
        listed("4、工具：钢板尺"),
        text("以上检验结果均须记入本机台的生产记录，并由质检员签字确认后交车间存档。"),
    ]
    assert not any(title.startswith(("1、", "2、", "3、", "4、")) for title in titles(items))


def _club_rules() -> list[OutlineItem]:
    """A club's rules: articles that run their text on after the label, article 3 a
    lead-in to a list, article 2 a title over its own articles 2.1 and 2.2."""
    rule = "The club meets every first Monday of the month in the hall of the village school."
    return [
        text("Club rules", H1),
        text(rule),
        text(f"Article 1 {rule}"),
        text("Article 2 Scope"),
        text(
            "Article 2.1 These rules bind every member of the club and every guest at its meetings."
        ),
        text("Article 2.2 They bind the board of the club too, in each of its meetings."),
        text("Article 3 The members elect the board:"),
        text("(a) a chair;"),
        text("(b) a treasurer;"),
        text("(c) a secretary."),
        text("Article 4 The board reports on the accounts of the club to the members each year."),
        text("Article 5 The treasurer keeps the accounts and pays the bills of the club on time."),
        text("Article 6 These rules change only by a vote of two thirds of the members present."),
        text(f"Article 7 {rule}"),
    ]


def test_a_lead_in_article_among_run_in_articles_takes_their_shape():
    # Articles 1 and 4-7 head their own text ("Article 4" over "The board reports …"):
    # article 3, a lead-in to its list, is an article as they are, not a line of text.
    found = titles(_club_rules())
    assert "Article 3" in found
    assert found.index("Article 3") < found.index("Article 4")


def test_a_member_over_its_own_first_part_keeps_its_title_among_run_in_articles():
    # Article 2 titles its own articles 2.1 and 2.2: a section's title, whole, not a
    # label over the text "Scope".
    assert "Article 2 Scope" in titles(_club_rules())


def test_an_article_inserted_after_a_member_is_not_its_first_part():
    # "Article 2A", inserted after article 2, numbers no part of it ("Article 2.1" would):
    # article 2 is a run-in member as its siblings are, its label over its text.
    items = _club_rules()
    items[4:6] = [text("Article 2A These rules bind every guest at the club's meetings too.")]
    found = titles(items)
    assert "Article 2 Scope" not in found
    assert found[2:4] == ["Article 2", "Article 2A"]


def _numbered_on(first: str, second: str) -> list[OutlineItem]:
    """Rules whose paragraphs are numbered on across two styled sections, ``first`` and
    ``second``: (1) to (3) under the first, (1) a lead-in to a list; (4) and (5) titles
    over their paragraphs under the second."""
    rule = "The club meets every first Monday of the month in the hall of the village school."
    return [
        text("Club rules", H1),
        text(rule),
        OutlineItem(ItemKind.HEADING, first, 2, H2),
        text("(1) The members elect the board:"),
        text("(a) a chair;"),
        text("(b) a treasurer."),
        text(f"(2) {rule}"),
        text(f"(3) {rule}"),
        OutlineItem(ItemKind.HEADING, second, 2, H2),
        text("(4) Dues"),
        text("Every member pays the dues the board sets before the end of January."),
        text("(5) Fees"),
        text("Guests pay a fee for each meeting they attend, set by the board."),
    ]


@pytest.mark.parametrize(
    ("first", "second"), [("Meetings", "Accounts"), ("1 Meetings", "2 Accounts")]
)
def test_a_section_s_heading_parts_the_paragraphs_numbered_on_across_it(first, second):
    # A heading with no number, or one numbered as a heading before the series is, parts
    # the paragraphs around it: (4) and (5) keep their titles, though (1) to (3) read as
    # text and (1) leads into a list.
    assert titles(_numbered_on(first, second))[-2:] == ["(4) Dues", "(5) Fees"]


def test_bold_titles_ending_with_a_colon_over_their_parts_are_a_series_of_titles():
    # A tender's services, each a short bold title ending with "：" over its text or its
    # own numbered parts: titles, not lead-ins into lists, though most end with a colon.
    work = "服务人员按照招标人的要求完成日常工作，并做好工作记录，每月报招标人审核。"
    items = [
        text("一、项目要求：", BOLD),
        text("1、驾驶服务：", BOLD),
        text(work),
        text("2、保洁会务服务：", BOLD),
        text(work),
        text("3、业务综合辅助服务：", BOLD),
        text("（1）服务内容：日常宣传照片、视频拍摄及处理，文书档案的收集整理。"),
        text("（2）服务工作中需要使用的设施设备由招标人提供。"),
        text("4、业务现场辅助服务", BOLD),
        text(work),
        text("5、信息系统运维辅助服务：", BOLD),
        text(work),
    ]
    assert [title for title in titles(items) if title[0].isdigit()] == [
        "1、驾驶服务",
        "2、保洁会务服务",
        "3、业务综合辅助服务",
        "4、业务现场辅助服务",
        "5、信息系统运维辅助服务",
    ]
