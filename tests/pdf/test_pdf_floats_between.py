"""A paragraph that a column or page break cuts is one paragraph even where a table and its
caption stand at the top of the next column or page, between its two parts (a paper's
floats): the part after them opens in lower case, so it goes on with the sentence the break
cut; the table and its caption follow the joined paragraph. A part that opens a new sentence
after the floats stays a paragraph of its own."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import Page, Stroke, Text, parse_pages

#: The table's rows, ruled, and its caption, at the top of the right column.
_ROWS = (("Model", "Top-1", "Top-5"), ("Gold", "44.9", "66.8"), ("Silver", "43.9", "65.3"))
_CAPTION = ("Table 5: Retrieval accuracy of the models set on the", "development set of questions.")
#: A caption whose first line ends early: its second line, in lower case, is a paragraph of
#: its own, at the caption's leading under it.
_RAGGED_CAPTION = ("Table 5: Retrieval accuracy of each", "model on the development set.")


def _line(side: str, number: int) -> str:
    """A full line of a column's prose (about 52 characters), unique to its place."""
    return f"the {side} column holds its line {number:02d} of prose set full"


def _table(x0: float, top: float) -> list[Text | Stroke]:
    """The ruled table (three rows, three columns) whose top border is at ``top``, from
    ``x0`` across the width of a column's lines of prose (192 points)."""
    xs, step = tuple(x0 + offset for offset in (0.0, 64.0, 128.0, 192.0)), 16.0
    items: list[Text | Stroke] = []
    for i, row in enumerate(_ROWS):
        y = top - step * (i + 1) + 4
        items += [Text(x + 4, y, cell, 9) for x, cell in zip(xs, row, strict=False)]
    bottom = top - step * len(_ROWS)
    items += [Stroke(xs[0], top - step * i, xs[-1], top - step * i) for i in range(len(_ROWS) + 1)]
    items += [Stroke(x, top, x, bottom) for x in xs]
    return items


def _columns(left_end: str, right_start: str, caption: tuple[str, str] = _CAPTION) -> Page:
    """Two columns; the left one's 40 full lines end with ``left_end``, the right one opens
    with the table and its caption, then 30 full lines, the first starting with
    ``right_start``."""
    items: list[Text | Stroke] = [*_table(320, 750), *_caption(320, caption)]
    for number in range(40):
        left = _line("left", number)
        if number == 39:
            left = left[: -len(left_end)] + left_end
        items.append(Text(60, 740 - 11 * number, left, 9))
    for number in range(30):
        right = _line("right", number)
        if number == 0:
            right = right_start + right[len(right_start) :]
        items.append(Text(320, 640 - 11 * number, right, 9))
    return Page(items)


def _caption(x: float, caption: tuple[str, str] = _CAPTION) -> list[Text]:
    """The table's caption in two lines under it, at ``x``."""
    return [Text(x, 684 - 11 * i, line, 9) for i, line in enumerate(caption)]


def _paragraph_with(result, text: str) -> str:
    return next(p for row in result.rows for p in row.content.split("\n") if text in p)


def _in_order(result, *texts: str) -> bool:
    """Whether ``texts`` stand in the parse's rows in this order."""
    content = "\n".join(row.content for row in result.rows)
    places = [content.index(text) for text in texts]
    return places == sorted(places)


def test_a_column_break_with_a_table_above_the_rest_cuts_no_paragraph(tmp_path: Path) -> None:
    result = parse_pages(tmp_path, [_columns(" the migrating", "flamingos ")])
    paragraph = _paragraph_with(result, "migrating")
    assert paragraph.startswith("the left column holds its line 00")
    assert "the migrating flamingos column holds its line 00" in paragraph
    assert paragraph.endswith("the right column holds its line 29 of prose set full")
    # The floats follow the paragraph they stood in, the table before its caption.
    assert _in_order(result, "the migrating flamingos", '"Gold"', "Table 5:")
    assert "<table" not in paragraph and "Table 5:" not in paragraph


def test_a_new_sentence_after_the_floats_stays_a_paragraph(tmp_path: Path) -> None:
    result = parse_pages(tmp_path, [_columns(" the migrating", "Flamingos ")])
    assert "Flamingos" not in _paragraph_with(result, "migrating")
    assert _paragraph_with(result, "Flamingos").startswith("Flamingos")
    # In reading order: the left column, the table, its caption, the right column's text.
    assert _in_order(result, "migrating", '"Gold"', "Table 5:", "Flamingos")


def test_a_captions_own_next_line_is_no_rest_of_the_paragraph(tmp_path: Path) -> None:
    result = parse_pages(tmp_path, [_columns(" the migrating", "Flamingos ", _RAGGED_CAPTION)])
    paragraph = _paragraph_with(result, "migrating")
    assert paragraph.endswith("the migrating")
    assert "model on the development set." not in paragraph


def _pages(opening: str) -> list[Page]:
    """Two pages of one column of full lines (x 60-252): the first page's last line ends
    "the migrating", a ruled table and its caption open the second page above its lines,
    the first of which opens with ``opening``."""
    first = [_line("first", n) for n in range(60)]
    first[-1] = first[-1][: -len(" the migrating")] + " the migrating"
    second = [_line("second", n) for n in range(20)]
    second[0] = opening + second[0][len(opening) :]
    return [
        Page([Text(60, 740 - 11 * i, line, 9) for i, line in enumerate(first)]),
        Page(
            [*_table(60, 750), *_caption(60)]
            + [Text(60, 640 - 11 * i, line, 9) for i, line in enumerate(second)]
        ),
    ]


def test_a_page_break_with_a_table_above_the_rest_cuts_no_paragraph(tmp_path: Path) -> None:
    result = parse_pages(tmp_path, _pages("flamingos "))
    paragraph = _paragraph_with(result, "migrating")
    assert "the migrating flamingos" in paragraph
    assert paragraph.endswith("the second column holds its line 19 of prose set full")
    assert _in_order(result, "the migrating flamingos", '"Gold"', "Table 5:")


def test_a_new_sentence_after_the_floats_on_the_next_page_stays_apart(tmp_path: Path) -> None:
    result = parse_pages(tmp_path, _pages("Flamingos "))
    assert "Flamingos" not in _paragraph_with(result, "migrating")
    assert _paragraph_with(result, "Flamingos").startswith("Flamingos")
