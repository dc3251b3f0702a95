"""Lettered labels ("A1 注入", "A1.2 影响的环境"): a report's items numbered after a letter
read as one numbering family, so the items are siblings whatever their looks' noise and
an item's first part right under it keeps its short title."""

from __future__ import annotations

from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem, infer_outline
from lightrag_pchunk.outline.labels import parse_label

_BODY = (
    "检测应用程序是否存在注入漏洞的最好的办法就是确认所有解释器的使用都将不可信数据"
    "从命令语句中区分出来。"
)
_CHAPTER = Look(bold=False, size=32.0)
_SECTION = Look(bold=False, size=16.0)
_TEXT = Look(bold=False, size=10.0)


def _text(line: str, look: Look) -> OutlineItem:
    return OutlineItem(ItemKind.TEXT, line, look=look)


def _levels(items: list[OutlineItem]) -> list[tuple[int, str]]:
    return [(h.level, h.title) for h in infer_outline(items, 10.0)]


def test_a_letter_and_its_numbers_are_one_label() -> None:
    label = parse_label("A10.5 如何保护你自己")
    assert label is not None
    assert (label.family, label.series, label.ordinals, label.rest) == (
        "lettered", "A", (10, 5), "如何保护你自己",
    )  # fmt: skip
    assert parse_label("A1注入") is None  # a code run into its word: no label
    assert parse_label("P2 ein Tetraeder ist.") is None  # a symbol opening a sentence's line


def test_lettered_chapters_in_looks_that_differ_a_little_are_siblings() -> None:
    # Set alike, but one chapter title reads as centred and one in capitals (its Latin
    # letters): the labels, not those looks, say the three are siblings.
    items: list[OutlineItem] = []
    for title, look in (
        ("A1 注入", _CHAPTER),
        ("A2 跨站脚本 (XSS)", Look(bold=False, size=32.0, caps=True)),
        ("A3 失效的身份认证和会话管理", Look(bold=False, size=32.0, centered=True)),
    ):
        items += [
            _text(title, look),
            _text(_BODY, _TEXT),
            _text("我是否存在漏洞?", _SECTION),
            _text(_BODY, _TEXT),
        ]
    levels = _levels(items)
    assert [level for level, title in levels if title.startswith("A")] == [1, 1, 1], levels


def test_a_first_part_right_under_its_item_keeps_its_short_title() -> None:
    items = [OutlineItem(ItemKind.HEADING, "A1 未被验证的输入", 1)]
    for part in ("A1.1 描述", "A1.2 影响的环境", "A1.3 例子和参考"):
        items += [_text(part, _SECTION), _text(_BODY, _TEXT)]
    assert _levels(items) == [(2, "A1.1 描述"), (2, "A1.2 影响的环境"), (2, "A1.3 例子和参考")]
