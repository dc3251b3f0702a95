"""A bulleted list set with a hanging indent: each bullet in a column of its own, the
item's lines beside it. Justified, a wrapped line may print gaps wide enough to part its
words into segments: such rows start in the items' column, not the bullets'. The list stays
text, its bullets before their items, however many such rows it holds; a numbered form's
lines beside their numbers are no such list."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import Page, Stroke, Text, parse_pages, tags_of


def _item_lines(bullet: str, n: int, y: float) -> list[Text]:
    return [
        Text(60, y, bullet, 9),
        Text(74, y, f"Agent kind {n} operates at a high level by receiving the input", 9),
        # The wrapped lines, justified: their words part at gaps wider than a space.
        Text(74, y - 11, "determining", 9),
        Text(150, y - 11, "the", 9),
        Text(190, y - 11, "tool", 9),
        Text(230, y - 11, "and", 9),
        Text(270, y - 11, "running", 9),
        Text(74, y - 22, "it until the agent can answer the user directly.", 9),
    ]


def test_bullets_beside_justified_items_are_a_list_not_a_table(tmp_path: Path) -> None:
    items = [Text(60, 760, "Agents are of two kinds, each described below in turn.", 9)]
    for n, y in ((1, 740), (2, 700)):
        items += _item_lines("*", n, y)
    result = parse_pages(tmp_path, [Page(items)])
    assert tags_of(result) == []
    text = "\n".join(row.content for row in result.rows)
    assert "* Agent kind 1 operates" in text and "* Agent kind 2 operates" in text
    assert "determining the tool and running it until" in text


def test_bullets_parted_by_rules_stay_a_table(tmp_path: Path) -> None:
    # The same rows between rules across them: a table style's, the author's table.
    items = [Text(60, 760, "Agents are of two kinds, each described below in turn.", 9)]
    for n, y in ((1, 740), (2, 700), (3, 660)):
        items += _item_lines("*", n, y)
    items += [Stroke(56, y, 520, y) for y in (750, 710, 670, 630)]
    result = parse_pages(tmp_path, [Page(items)])
    assert len(tags_of(result)) == 1
