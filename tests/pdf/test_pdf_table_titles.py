"""Column titles of PDF tables shown by their text's alignment, printed one space apart (a
statistics package's output): read as one segment, they are cut where the columns under
them part, and left whole where they name several columns together."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import Page, Text, headings_of, parse_pages, tags_of

SIZE = 10
#: Helvetica's glyph widths (thousandths of the size) of the text these tests set.
HELVETICA = {"T": 611, "i": 222, "m": 833, "e": 556, "S": 667, "t": 278, "a": 556, "n": 556,
             "d": 556, "r": 333, "E": 667, "o": 556, "N": 722, "u": 556, "b": 556, "F": 611,
             "l": 222, ".": 278, "v": 500, " ": 278, "C": 722, "f": 278, "c": 500, "L": 556,
             "s": 500, "w": 722, "p": 556, "U": 722, "P": 667, "O": 778,
             **dict.fromkeys("0123456789", 556)}  # fmt: skip


def width(text: str) -> float:
    return sum(HELVETICA[c] for c in text) * SIZE / 1000


def right(text: str, edge: float, y: float) -> Text:
    """``text`` set with its right side at ``edge``."""
    return Text(edge - width(text), y, text, SIZE)


def test_titles_one_space_apart_over_two_columns_are_two_cells(tmp_path: Path) -> None:
    """``Failure Survival Standard`` printed as one run: ``Failure`` right-aligned over
    its figures, ``Survival Standard`` (over ``Error``) over the next column's: two
    titles, and the figures under them two columns."""
    start = 260 - width("Failure")
    edge = start + width("Failure Survival Standard")
    items = [right("Time", 200, 700), Text(start, 700, "Failure Survival Standard", SIZE)]
    items += [right("Number", 420, 700), right("Error", edge, 689), right("Left", 420, 689)]
    figures = [
        ("1.0000", "0.0213", "0.0210", "46"),
        ("2.0000", "0.1083", "0.0457", "41"),
        ("3.0000", "0.2605", "0.0647", "34"),
        ("5.0000", "0.3053", "0.0681", "31"),
    ]
    for number, row in enumerate(figures):
        y = 670 - 18 * number
        items += [right(text, x, y) for x, text in zip((200, 260, edge, 420), row, strict=True)]
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table == [["Time", "Failure", "Survival Standard Error", "Number Left"]] + [
        list(row) for row in figures
    ]


def test_a_title_centred_over_two_columns_is_not_cut(tmp_path: Path) -> None:
    """``Confidence Limits`` centred over the columns ``Lower`` and ``Upper``, its word
    space over the gap between them: no piece lines up with a column, the title names
    both: it is not cut, and its words stay together in one cell."""
    middle = (300 + 360 - width("0.5112")) / 2
    title = "Confidence Limits"
    items = [right("Percent", 200, 700), Text(middle - width(title) / 2, 700, title, SIZE)]
    items += [right("Lower", 300, 689), right("Upper", 360, 689)]
    figures = [("75", "0.5112", "0.7884"), ("50", "0.5152", "0.8222"), ("25", "0.3000", "0.7000")]
    for number, row in enumerate(figures):
        y = 670 - 18 * number
        items += [right(text, x, y) for x, text in zip((200, 300, 360), row, strict=True)]
    tables = tags_of(parse_pages(tmp_path, [Page(items)]))
    cells = [cell for table in tables for row in table for cell in row]
    assert not any(cell in ("Confidence", "Limits") for cell in cells)
    assert any("Confidence Limits" in cell for cell in cells)


def test_column_titles_wrapped_to_a_letter_are_no_contents_entry(tmp_path: Path) -> None:
    """``Obs`` and ``Censored`` printed too wide for their columns, their last letters
    wrapped to a line of their own (``s`` and ``d``, as a statistics package prints them):
    that line reads as a contents entry ("s", then page "d", a roman 500), but its cells
    are letters alone, the tails of the titles above; the titles and figures stay one
    table and nothing becomes a heading."""
    xs = (120, 200, 280, 360, 440)
    items = [
        right(title, x, 700)
        for x, title in zip(xs, ("Ob", "Time", "Censore", "Treatment", "Number"), strict=True)
    ]
    items += [right("s", 120, 689), right("d", 280, 689)]
    figures = [("1", "5.0", "1", "2", "46"), ("2", "6.0", "0", "1", "41"),
               ("3", "7.5", "1", "2", "34"), ("4", "9.0", "0", "1", "31")]  # fmt: skip
    for number, row in enumerate(figures):
        y = 670 - 18 * number
        items += [right(text, x, y) for x, text in zip(xs, row, strict=True)]
    result = parse_pages(tmp_path, [Page(items)])
    assert headings_of(result) == []
    (table,) = tags_of(result)
    assert [list(row) for row in figures] == table[-len(figures) :]
    cells = " ".join(cell for row in table[: -len(figures)] for cell in row)
    assert cells.split() == ["Ob", "s", "Time", "Censore", "d", "Treatment", "Number"]
