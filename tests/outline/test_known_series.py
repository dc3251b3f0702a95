"""Members of a known heading's series that the document left as text: between two styled
headings whose numbers the lines between them continue, the titled lines are headings."""

from __future__ import annotations

from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem, infer_outline

BODY = Look(size=10.5)
TEXT = "核电厂PSR通常每10年左右开展一次，每次持续4年左右时间，项目可划分为准备和执行两个阶段。"


def text(line: str) -> OutlineItem:
    return OutlineItem(ItemKind.TEXT, line, look=BODY)


def heading(line: str, level: int) -> OutlineItem:
    # A standard's headings set in the text's size (their font sets them apart, which the
    # look does not see).
    return OutlineItem(ItemKind.HEADING, line, level, BODY)


def titles(items) -> list[tuple[int, str]]:
    # No long stretch: only the series speak, as in a styled document read under ``auto``.
    found = infer_outline(items, 10.5, within=[])
    return [(h.level, h.title) for h in found]


def test_titled_clauses_between_two_styled_headings_of_their_series_are_headings():
    items = [
        heading("5.3 确定工作模式", 3),
        text("5.3.1 PSR一般工作模式"),
        text(TEXT),
        text("5.3.2 设计相近核电厂的PSR联合评价"),
        text(TEXT),
        heading("5.4 组建PSR技术团队", 3),
        text("5.4.1 核电厂定期安全评价的责任主体为核电厂营运单位，可委托外部单位开展评价。"),
        text("5.4.2 技术团队"),
        text(TEXT),
        heading("6 执行评价", 2),
    ]
    # 5.4.1 is a clause (a sentence), still a member: 5.4.2 after it is titled, a heading.
    assert titles(items) == [
        (4, "5.3.1 PSR一般工作模式"),
        (4, "5.3.2 设计相近核电厂的PSR联合评价"),
        (4, "5.4.2 技术团队"),
    ]


def test_numbered_lines_that_the_next_styled_heading_does_not_continue_stay_text():
    # A list restarting its numbers ("1 …", "2 …") under "5.3", or members the next heading
    # does not continue: no evidence from the series.
    items = [
        heading("5.3 确定工作模式", 3),
        text("5.3.1 PSR一般工作模式"),
        text(TEXT),
        text("5.3.5 设计相近核电厂的PSR联合评价"),
        text(TEXT),
        heading("5.4 组建PSR技术团队", 3),
        text("1 技术评价人员"),
        text(TEXT),
        text("2 分析评估人员"),
        text(TEXT),
        heading("5.5 建立PSR项目管理体系", 3),
    ]
    assert titles(items) == []


PART = Look(size=10.5, bold=True, caps=True)
SUB = Look(size=10.5, bold=True)
POLICY = "The Board of Directors reviews the investment activity of the Bank every month."


def test_a_member_left_as_text_after_known_sub_headings_continues_the_series():
    # A policy tags "I." to "V." and their bold sub-headings as headings, "VI." as text:
    # the sub-headings under "V." (one in the parts' own look) leave the series open, and
    # "V." (read alone, the letter V) is its member, so "VI." continues it.
    items = [
        OutlineItem(ItemKind.HEADING, "IV. RESPONSIBILITIES", 1, PART),
        OutlineItem(ItemKind.HEADING, "Board of Directors", 1, SUB),
        OutlineItem(ItemKind.TEXT, POLICY, look=BODY),
        OutlineItem(ItemKind.HEADING, "V. REPORTING REQUIREMENTS", 1, PART),
        OutlineItem(ItemKind.HEADING, "ALCO", 1, PART),
        OutlineItem(ItemKind.TEXT, POLICY, look=BODY),
        OutlineItem(ItemKind.HEADING, "Documentation", 1, SUB),
        OutlineItem(ItemKind.TEXT, POLICY, look=BODY),
        OutlineItem(ItemKind.TEXT, "VI. RISK CONSIDERATIONS", look=PART),
        OutlineItem(ItemKind.TEXT, POLICY, look=BODY),
        OutlineItem(ItemKind.HEADING, "Market Risk", 1, SUB),
        OutlineItem(ItemKind.TEXT, POLICY, look=BODY),
    ]
    assert [title for _, title in titles(items)] == ["VI. RISK CONSIDERATIONS"]


def test_a_known_heading_outside_the_series_ends_it():
    # An appendix (or a heading numbered otherwise) after "V." takes the series over: a
    # "VI." in the appendix, in the parts' look, is its own, no member of the policy's.
    for closing in ("Appendix", "1. Approved dealers"):
        items = [
            OutlineItem(ItemKind.HEADING, "IV. RESPONSIBILITIES", 1, PART),
            OutlineItem(ItemKind.TEXT, POLICY, look=BODY),
            OutlineItem(ItemKind.HEADING, "V. REPORTING REQUIREMENTS", 1, PART),
            OutlineItem(ItemKind.TEXT, POLICY, look=BODY),
            OutlineItem(ItemKind.HEADING, closing, 1, SUB),
            OutlineItem(ItemKind.TEXT, POLICY, look=BODY),
            OutlineItem(ItemKind.TEXT, "VI. RISK CONSIDERATIONS", look=PART),
            OutlineItem(ItemKind.TEXT, POLICY, look=BODY),
        ]
        assert titles(items) == [], closing


def test_a_known_series_first_members_left_as_text_before_it_are_headings():
    # A tender's chapter: "一、项目概述" typed bold over its text, then "二、" and "三、" in a
    # heading style. The known "二、" opens its series back to "一、": a member the author
    # did not style. Numbered lines at the text's look, or a count that never reaches the
    # first, are no members.
    bold = Look(bold=True, size=10.5)

    def styled(line: str) -> OutlineItem:
        return OutlineItem(ItemKind.HEADING, line, 2, bold)

    chapter = [
        heading("第一章 采购邀请", 1),
        text(TEXT),
        OutlineItem(ItemKind.TEXT, "一、项目概述", look=bold),
        text(TEXT),
        styled("二、供应商资格条件"),
        text(TEXT),
        styled("三、报名时间与地点"),
        text(TEXT),
    ]
    assert titles(chapter) == [(2, "一、项目概述")]
    chapter[2] = text("一、项目概述")  # at the text's look
    assert titles(chapter) == []
    # Its own first member styled above it: a line numbered "一、" under that is its note.
    chapter[0] = styled("一、项目概述")
    chapter[2] = OutlineItem(ItemKind.TEXT, "一、补充要求及说明", look=bold)
    assert titles(chapter) == []
    chapter[0] = heading("第一章 采购邀请", 1)
    chapter[2] = OutlineItem(ItemKind.TEXT, "二、项目概述", look=bold)
    chapter[4] = styled("三、供应商资格条件")
    chapter[6] = styled("四、报名时间与地点")
    assert titles(chapter) == []
