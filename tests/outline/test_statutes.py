"""The smart outline on statutes and law collections, given as items (no file needed):
long CJK titles of the documents a collection prints after its law, the annexes beside
them."""

from __future__ import annotations

import pytest

from lightrag_pchunk.outline.infer import (
    ItemKind,
    Look,
    OutlineItem,
    infer_outline,
    long_stretches,
)
from lightrag_pchunk.outline.lines import heading_text

BODY = Look(size=11)
TITLE = Look(bold=True, size=16)
CENTRED_TITLE = Look(bold=True, size=16, centered=True)
CLAUSES = "根據本法的規定，現將有關事項決定如下，自公布之日起施行，各方應當遵守並執行。" * 3


def text(line: str, look: Look | None = None) -> OutlineItem:
    return OutlineItem(ItemKind.TEXT, line, look=look)


def chapters(*titles: str) -> list[OutlineItem]:
    """Tagged chapters set in the centred title look, each over its text."""
    items: list[OutlineItem] = []
    for title in titles:
        items += [OutlineItem(ItemKind.HEADING, title, 1, CENTRED_TITLE), text(CLAUSES, BODY)]
    return items


def titles(items: list[OutlineItem], start: int) -> list[tuple[int, str]]:
    """The inferred headings after the known ones, read as a tagged file's long stretch."""
    stretch = [range(start, len(items))]
    found = infer_outline(items, 11, within=stretch, long_gaps=stretch)
    return [(h.level, h.title) for h in found]


def test_long_cjk_titles_set_like_shorter_titles_are_titles():
    # A decision's title names the law it decides on: longer than any title in the body
    # text's look, one in a look that shorter titles share, centred or set flush.
    long_decision = (
        "全國人民代表大會常務委員會關於批准香港特別行政區基本法起草委員會關於設立"
        "全國人民代表大會常務委員會香港特別行政區基本法委員會的建議的決定"
    )
    long_interpretation = (
        "全國人民代表大會常務委員會關於香港特別行政區行政長官普選問題和立法會產生辦法的決定"
    )
    plain_line = "根據本法規定香港特別行政區行政長官的產生辦法和立法會的產生辦法及表決程序另行規定"
    items = [
        text("全國人民代表大會關於設立香港特別行政區的決定", CENTRED_TITLE),
        text(CLAUSES, BODY),
        text("中華人民共和國國務院令第二百二十一號", TITLE),
        text(CLAUSES, BODY),
        text(long_decision, CENTRED_TITLE),
        text(CLAUSES, BODY),
        text(long_interpretation, TITLE),
        text(CLAUSES, BODY),
        # As long, in the body text's look: a line of text.
        text(plain_line, BODY),
        text(CLAUSES, BODY),
    ]
    assert [(h.level, h.title) for h in infer_outline(items, 11)] == [
        (1, "全國人民代表大會關於設立香港特別行政區的決定"),
        (1, "中華人民共和國國務院令第二百二十一號"),
        (1, long_decision),
        (1, long_interpretation),
    ]


def test_an_annex_numbered_on_after_a_title_set_like_the_chapters_stands_beside_it():
    items = chapters("第一章 總則", "第二章 中央和香港特別行政區的關係", "第三章 居民的權利")
    items += [
        text("附件一 香港特別行政區行政長官的產生辦法", TITLE),
        text(CLAUSES, BODY),
        text("全國人大常委會關於批准修正案的決定", CENTRED_TITLE),
        text(CLAUSES, BODY),
        text("附件二 香港特別行政區立法會的產生辦法和表決程序", TITLE),
        text(CLAUSES, BODY),
    ]
    assert titles(items, 6) == [
        (1, "附件一 香港特別行政區行政長官的產生辦法"),
        (1, "全國人大常委會關於批准修正案的決定"),
        (1, "附件二 香港特別行政區立法會的產生辦法和表決程序"),
    ]


SECTION = Look(bold=True, size=8)
CFR_TEXT = Look(size=8)


def test_a_section_title_ending_with_a_full_stop_set_whole_in_bold_is_the_title():
    # A code of regulations ends its sections' titles with a full stop. Set in bold as a
    # whole over text in roman, label and title are the heading; in the text's look, a
    # section's label leads into its first sentence.
    items = [
        text("§ 1308.01 Scope of part 1308.", SECTION),
        text("Schedules of controlled substances are set forth in this part.", CFR_TEXT),
        text("§ 1308.23 Exemption of certain chemical preparations; application.", SECTION),
        text("(a) The Administrator may exempt a chemical preparation from the Act.", CFR_TEXT),
        text("§ 1308.24 The Administrator shall publish the list.", CFR_TEXT),
        text("Each exempted preparation is listed with its manufacturer.", CFR_TEXT),
    ]
    assert outline(items, 8) == [
        (1, "§ 1308.01 Scope of part 1308.", ""),
        (1, "§ 1308.23 Exemption of certain chemical preparations; application.", ""),
        (1, "§ 1308.24", "The Administrator shall publish the list."),
    ]


def outline(items: list[OutlineItem], body_size: float) -> list[tuple[int, str, str]]:
    return [(h.level, h.title, h.body) for h in infer_outline(items, body_size)]


def test_a_unit_cited_at_the_start_of_a_line_is_no_label():
    # A paragraph broken at a page's end may open its next line on a unit it cites: the
    # sentence goes on right after the label ("和", "第二款", "的"), a title's text would
    # stand apart or follow as its title.
    items = [
        text("第七條和附件二第三條的解釋》，就立法會產生辦法的修改問題向常委會提出報告。", BODY),
        text("第二十四條第二款前三項規定的居民在香港以外所生的中國籍子女。", BODY),
        text("第八條 本決定自公布之日起施行。", BODY),
        text(CLAUSES, BODY),
    ]
    assert outline(items, 11) == [(1, "第八條", "本決定自公布之日起施行。")]


@pytest.mark.parametrize(
    "line", ["第四章和平利用核能", "第六章第三方责任", "第二章及时报告", "第三节与外方合作"]
)
def test_a_chapters_title_set_right_after_its_label_may_start_as_a_citation_goes_on(line):
    # Connectives start words of titles too (和平, 及时, 第三方, 与): a chapter's or a
    # section's label is cited only when the connective goes on to another unit.
    assert heading_text(line).title == line


@pytest.mark.parametrize("line", ["第二章和第三章规定的期限", "第一章第二节所列", "第三章的规定"])
def test_a_chapter_cited_with_another_unit_is_no_title(line):
    assert heading_text(line) is None


def test_a_part_numbered_with_pian_holds_the_parts_and_chapters_under_it():
    # A handbook or code of practice parts into 篇, each holding its own 第一部分 (or 第一章)
    # again: without the 篇 the two runs of parts would stand side by side, unparented. The
    # 篇 is set as the text is, its parts in bold at the text's size: its label alone makes
    # it a title.
    body, part = text(CLAUSES, BODY), Look(bold=True, size=11)
    items = [
        text("第一篇 基本制度", BODY),
        text("第一部分 入职须知", part),
        body,
        text("第二部分 行为规范", part),
        body,
        text("第二篇 操作规程", BODY),
        text("第一部分 收案", part),
        body,
        text("第一章 阅卷", part),
        body,
    ]
    found = infer_outline(items, 11)
    assert [(h.level, h.title) for h in found] == [
        (1, "第一篇 基本制度"),
        (2, "第一部分 入职须知"),
        (2, "第二部分 行为规范"),
        (1, "第二篇 操作规程"),
        (2, "第一部分 收案"),
        (3, "第一章 阅卷"),
    ]


def test_a_sentence_opening_with_a_first_article_is_no_part():
    # 篇 also counts articles and papers: "第一篇文章…" is a sentence, no part's label.
    line = "第一篇论文发表于二〇一九年，此后作者又陆续发表了多篇相关的研究论文。"
    assert heading_text(line, markdown=False) is None


ARTICLE = (
    "全國人民代表大會常務委員會行使下列職權，"
    "依照法律規定的程序辦理有關事項並向全國人民代表大會報告工作。"
)


def _section(title: str, labels: list[str], body: int) -> list[OutlineItem]:
    """A known section of a chapter over its articles: each label run in with its text in
    the body's look, then ``body`` times the text again."""
    items = [OutlineItem(ItemKind.HEADING, title, 2, TITLE)]
    for label in labels:
        items += [text(f"{label} {ARTICLE}", BODY), text(ARTICLE * body, BODY)]
    return items


def _articles(*sections: list[OutlineItem]) -> list[str]:
    """The inferred headings of a chapter of ``sections``, its long stretches read."""
    items = [OutlineItem(ItemKind.HEADING, "第三章 國家機構", 1, TITLE)]
    for section in sections:
        items += section
    stretches = long_stretches(items, 800)
    found = infer_outline(items, 11, within=stretches, long_gaps=stretches)
    return [h.title for h in found]


LONG_SECTION = "第五十七條 第五十八條 第五十九條 第六十條 第六十一條 第六十二條 第六十三條".split()


def test_a_laws_articles_run_on_over_its_short_sections():
    """Articles numbered through the chapter: in a long section the rules find them; in
    the short sections after it (read by nobody else) they continue the series, so every
    article heads its part, not only those of the long sections."""
    found = _articles(
        _section("第一節 全國人民代表大會", LONG_SECTION, body=8),
        _section("第二節 中華人民共和國主席", ["第六十四條", "第六十五條"], body=1),
        _section("第三節 國務院", ["第六十六條"], body=1),
    )
    assert found == [*LONG_SECTION, "第六十四條", "第六十五條", "第六十六條"]


def test_a_numbering_that_does_not_go_on_is_not_taken_past_a_known_heading():
    """Past a known section, an article numbered anew (第一條 after 第六十三條: another
    law's) continues nothing; nor does one past a known article of its own."""
    found = _articles(
        _section("第一節 全國人民代表大會", LONG_SECTION, body=8),
        _section("第二節 附錄", ["第一條"], body=1),
    )
    assert found == LONG_SECTION
    found = _articles(
        _section("第一節 全國人民代表大會", LONG_SECTION, body=8),
        [OutlineItem(ItemKind.HEADING, "第六十四條 國家主席", 2, TITLE)],
        _section("第二節 中華人民共和國主席", ["第六十五條"], body=1),
    )
    assert found == LONG_SECTION


def test_a_laws_first_articles_in_a_short_section_open_its_series():
    """The first articles in a short section before the long one (第一條 to 第三條, read by
    nobody else) open the series its long section continues: each heads its part too."""
    long_section = "第四條 第五條 第六條 第七條 第八條 第九條 第十條".split()
    found = _articles(
        _section("第一節 總則", ["第一條", "第二條", "第三條"], body=1),
        _section("第二節 全國人民代表大會", long_section, body=8),
    )
    assert found == ["第一條", "第二條", "第三條", *long_section]


def test_articles_that_do_not_reach_the_first_open_nothing():
    """Numbers before the series that never reach its first (第五十五條, 第五十六條 before
    第五十七條) open nothing: all of a series' opening members, or none."""
    found = _articles(
        _section("第一節 總則", ["第五十五條", "第五十六條"], body=1),
        _section("第二節 全國人民代表大會", LONG_SECTION, body=8),
    )
    assert found == LONG_SECTION


@pytest.mark.parametrize("known", ["附件一 實施細則", "說明", "Annex 1 Forms"])
def test_an_article_quoted_past_an_annex_or_an_unnumbered_heading_stays_text(known):
    """Past a known heading outside the law's units (an annex, a heading with no unit of its
    own), a line opening on the next article's number quotes it: the series stops there."""
    found = _articles(
        _section("第一節 全國人民代表大會", LONG_SECTION, body=8),
        [OutlineItem(ItemKind.HEADING, known, 1, TITLE), text("第六十四條 " + ARTICLE, BODY)],
    )
    assert found == LONG_SECTION
