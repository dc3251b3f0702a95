"""Lines set apart that title no section: the lines of a title set on two, a cover page's."""

from __future__ import annotations

from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem, infer_outline

BODY = Look(size=10.5)
NAME = Look(size=14, centered=True)
SECTION = Look(bold=True, size=14)
TEXT = "本部分规定了核电厂定期安全评价的策划准备、评价执行等各阶段的工作内容和方法。" * 2


def text(line: str, look: Look = BODY) -> OutlineItem:
    return OutlineItem(ItemKind.TEXT, line, look=look)


def titles(items) -> list[str]:
    return [h.title for h in infer_outline(items, 10.5)]


def test_a_number_under_a_line_of_its_own_centred_look_ends_that_title():
    items = [
        text("Preparation of periodic safety review for nuclear power plants—", NAME),
        text("Part 1: General Requirements", NAME),
        text(TEXT),
        text("1 范围", SECTION),
        text(TEXT),
    ]
    assert titles(items) == ["1 范围"]


def test_a_numbered_heading_after_a_line_in_another_look_stays_one():
    items = [
        text("Preparation of periodic safety review for nuclear power plants—", NAME),
        text("Part 1: General Requirements", Look(bold=True, size=16, centered=True)),
        text(TEXT),
        text("1 范围", SECTION),
        text(TEXT),
    ]
    assert titles(items) == ["Part 1: General Requirements", "1 范围"]
