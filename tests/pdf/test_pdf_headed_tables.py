"""PDF tables whose header row is ruled and whose body is not: a ruled band of column
titles over rows of text set in its columns."""

from __future__ import annotations

from pathlib import Path

import pytest

from lightrag_pchunk.pdf.header_rules import alike_rows
from lightrag_pchunk.pdf.segments import Segment

from pdf_builders import Page, Stroke, Text, parse_pages, tags_of

SUB_HEADING = (
    "Communication works, broadcasting and television: mounting of radio, television"
    " and electronic devices and",
    "equipment (1)",
)
#: The band's column borders: a wide first title over a label and its figure, then two.
BAND = [40, 400, 480, 560]


def band(titles: tuple[str, ...] = ("Name and value of the factors", "Value", "Direct")) -> list:
    """A ruled band of ``titles`` between y 700 and 686."""
    items: list = [Stroke(BAND[0], y, BAND[-1], y) for y in (700, 686)]
    items += [Stroke(x, 700, x, 686) for x in BAND]
    items += [Text(x + 4, 690, title, 10) for x, title in zip(BAND, titles, strict=False)]
    return items


def test_a_ruled_band_of_titles_over_unruled_rows_is_one_table(tmp_path: Path) -> None:
    """Under the band, lines whose cells stand in its columns (a label at the left and its
    figure at the right of the first title's column, then a figure under each other
    title) and a sub-heading across the columns, its text wrapped: one table, the first
    title's column parted where its cells leave a gap."""
    body = [
        Text(44, 674, "Wages", 10),
        Text(350, 674, "19231.37", 10),
        Text(440, 674, "1", 10),
        Text(510, 674, "19 231.37", 10),
        Text(44, 662, "Total", 10),
        Text(510, 662, "19 231.37", 10),
        Text(44, 650, SUB_HEADING[0], 10),
        Text(44, 638, SUB_HEADING[1], 10),
        Text(44, 626, "Overheads", 10),
        Text(330, 626, "(11000+0)*0.92", 10),
        Text(440, 626, "0.78", 10),
        Text(510, 626, "8 580.7", 10),
    ]
    (table,) = tags_of(parse_pages(tmp_path, [Page(band() + body)]))
    assert table == [
        ["Name and value of the factors", "Value", "Direct"],
        ["Wages", "19231.37", "1", "19 231.37"],
        ["Total", "", "", "19 231.37"],
        [" ".join(SUB_HEADING)],
        ["Overheads", "(11000+0)*0.92", "0.78", "8 580.7"],
    ]


def test_prose_under_a_ruled_band_stays_text(tmp_path: Path) -> None:
    """Lines that run across the band's columns are prose after a ruled box, no body."""
    prose = [
        "The contractor shall carry out the works listed above within the time agreed and",
        "report their progress every month to the customer in writing, signed by both",
        "parties to this contract and kept with the records of the works.",
    ]
    body = [Text(44, 674 - 12 * k, line, 10) for k, line in enumerate(prose)]
    result = parse_pages(tmp_path, [Page(band() + body)])
    text = "\n".join(row.content for row in result.rows)
    assert all(line in text for line in prose)
    assert all("contractor" not in cell for t in tags_of(result) for r in t for cell in r)


EMBEDDED = [
    ("created_by_ref", "identifier (of type identity)"),
    ("object_marking_refs", "list of type identifier (of type marking-definition)"),
]


def embedded(frame: list) -> list:
    """A title, ``frame`` (rules drawn under it), then two rows of a label beside its value
    and a sentence."""
    items: list = [Text(72, 700, "Embedded Relationships", 11), *frame]
    for k, (label, value) in enumerate(EMBEDDED):
        items += [Text(72, 682 - 18 * k, label, 10), Text(300, 682 - 18 * k, value, 10)]
    items.append(Text(72, 630, "The objects above are embedded in every object of this kind.", 10))
    return items


def test_two_rows_under_a_header_rule_are_a_table(tmp_path: Path) -> None:
    """Two rows of a label beside its value under a title whose rule runs across them
    (a table style that draws its header's underline alone): a table, though unruled
    text needs three rows to read as one."""
    items = embedded([Stroke(68, 694, 540, 694)])
    (table,) = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert table == [list(row) for row in EMBEDDED]


@pytest.mark.parametrize(
    "frame",
    [
        [],
        # a box's top edge, its sides meeting it: a framed listing, no header's underline
        [Stroke(68, 694, 540, 694), Stroke(68, 694, 68, 640), Stroke(540, 694, 540, 640)],
    ],
    ids=["no rule", "a box"],
)
def test_two_aligned_rows_without_a_header_rule_stay_text(tmp_path: Path, frame: list) -> None:
    assert tags_of(parse_pages(tmp_path, [Page(embedded(frame))])) == []


def property_rows(top: float, rows: list[tuple[str, str, list[str]]]) -> list:
    """An unruled property table from the baseline ``top`` down: its header underlined,
    then ``rows`` of a name, a type and a description's lines."""
    items: list = [
        Text(x, top, title, 10) for x, title in zip(PROPERTY_XS, PROPERTY_TITLES, strict=True)
    ]
    items.append(Stroke(68, top - 4, 540, top - 4))
    y = top - 16
    for name, kind, lines in rows:
        items += [Text(PROPERTY_XS[0], y, name, 10), Text(PROPERTY_XS[1], y, kind, 10)]
        items += [Text(PROPERTY_XS[2], y - 12 * k, line, 10) for k, line in enumerate(lines)]
        y -= 12 * max(len(lines), 1) + 8
    return items


PROPERTY_XS = (72, 220, 330)
PROPERTY_TITLES = ("Property Name", "Type", "Description")


def test_an_unruled_table_goes_on_under_its_header_printed_again(tmp_path: Path) -> None:
    """A property table whose columns the text's alignment places, cut at a page's foot
    inside its last row: the next page prints its underlined header again, then the rest
    of that row's description alone in its column, then a row. One table: the header
    once, the row the page break cut one row again (as the document holds it)."""
    first = [
        ("type", "string", ["The value of this property", "must be campaign."]),
        ("name", "string", ["A name used to identify", "the campaign."]),
        ("last_seen", "timestamp", ["The time that this campaign"]),
    ]
    second = [("", "", ["was last seen."]), ("objective", "string", ["The primary goal."])]
    pages = [Page(property_rows(200, first)), Page(property_rows(740, second))]
    result = parse_pages(tmp_path, pages)
    (table,) = tags_of(result)
    assert table == [
        list(PROPERTY_TITLES),
        ["type", "string", "The value of this property must be campaign."],
        ["name", "string", "A name used to identify the campaign."],
        ["last_seen", "timestamp", "The time that this campaign was last seen."],
        ["objective", "string", "The primary goal."],
    ]


def test_a_header_printed_again_over_the_rest_of_a_cut_row_goes_on(tmp_path: Path) -> None:
    """The next page prints the table's underlined header again over nothing but the
    rest of the last row's description, then text: the rest joins that row, the header
    is not printed twice, and the paragraph under the table stays text."""
    first = [
        ("type", "string", ["The value of this property", "must be campaign."]),
        ("name", "string", ["A name used to identify", "the campaign."]),
        ("last_seen", "timestamp", ["The time that this campaign"]),
    ]
    second = property_rows(740, [("", "", ["was last seen by anyone."])])
    second.append(Text(72, 680, "Campaigns are grouped by their objective in the report.", 10))
    result = parse_pages(tmp_path, [Page(property_rows(200, first)), Page(second)])
    (table,) = tags_of(result)
    assert table[-1] == [
        "last_seen",
        "timestamp",
        "The time that this campaign was last seen by anyone.",
    ]
    assert table.count(list(PROPERTY_TITLES)) == 1
    assert any("Campaigns are grouped" in row.content for row in result.rows)


def test_a_row_of_a_group_on_the_next_page_stays_a_row(tmp_path: Path) -> None:
    """The first row on the next page leaves its first cell empty under a group's but
    fills every column the row above fills: a row of the group, not the rest of a cut
    row."""
    first = [
        ("type", "string", ["The value of this property."]),
        ("name", "string", ["A name used to identify it."]),
    ]
    second = [("", "integer", ["The same name's number."]), ("goal", "string", ["The goal."])]
    pages = [Page(property_rows(200, first)), Page(property_rows(740, second))]
    (table,) = tags_of(parse_pages(tmp_path, pages))
    assert table[2:] == [
        ["name", "string", "A name used to identify it."],
        ["", "integer", "The same name's number."],
        ["goal", "string", "The goal."],
    ]


def test_a_cut_rows_label_wrapped_onto_the_next_page_goes_on(tmp_path: Path) -> None:
    """The page break cut a row whose label wrapped too: the next page prints the rest of
    the label ("(optional)") beside the rest of its description, which goes on in lower
    case the sentence the line above left unfinished: one row. The row after it, whose
    type in lower case stands under a value, not a sentence, stays a row."""
    first = [
        ("type", "string", ["The value of this property", "must be campaign."]),
        ("analysis_ended", "timestamp", ["The date and time that the"]),
    ]
    second = [
        ("(optional)", "", ["malware analysis ended."]),
        ("result (optional)", "string", ["The result."]),
    ]
    pages = [Page(property_rows(200, first)), Page(property_rows(740, second))]
    (table,) = tags_of(parse_pages(tmp_path, pages))
    assert table[2:] == [
        [
            "analysis_ended (optional)",
            "timestamp",
            "The date and time that the malware analysis ended.",
        ],
        ["result (optional)", "string", "The result."],
    ]


def test_a_row_of_dashes_under_an_underlined_header_is_a_table(tmp_path: Path) -> None:
    """An underlined header over one row of dashes, one in each column ("none"): a table
    of two rows; the text above and below stays text."""
    xs = (72, 190, 260, 350)
    titles = ("Source", "Type", "Target", "Description")
    items: list = [Text(72, 442, "There are no relationships defined for this object.", 10)]
    items += [Text(x, 416, t, 10) for x, t in zip(xs, titles, strict=True)]
    items.append(Stroke(68, 412, 540, 412))
    items += [Text(x, 400, "-", 10) for x in xs]
    items.append(Text(72, 370, "Examples of the object follow in the next section.", 10))
    result = parse_pages(tmp_path, [Page(items)])
    (table,) = tags_of(result)
    assert table == [list(titles), ["-"] * 4]
    assert any(row.content.startswith("There are no relationships") for row in result.rows)


def _cells(
    texts: list[str], top: float, size: float, height: float, advance: float = 6.0
) -> list[Segment]:
    """A row of segments, one in each column, ``advance`` points a character."""
    return [
        Segment(t, 72 + 100 * k, top, 72 + 100 * k + advance * len(t), top + height,
                (0, 0, 0, 0), 0, 0, 0, size)
        for k, t in enumerate(texts)
    ]  # fmt: skip


def test_rows_in_one_print_size_are_alike_whatever_their_glyphs_height() -> None:
    """A row of dashes, whose glyphs PDFium boxes lower than letters, is printed in the
    header's size: alike rows. A heading over a footer's line is not."""
    columns = [(72 + 100 * k, 72 + 100 * k + 60) for k in range(3)]
    header = _cells(["Source", "Target", "Notes"], 0, 10, 11)
    dashes = _cells(["\u2014"] * 3, 16, 10, 7, advance=10.0)
    assert alike_rows([header, dashes], columns)
    heading = _cells(["Annual", "Report", "2024"], 0, 18, 20)
    footer = _cells(["Page", "3", "of 9"], 30, 8, 9, advance=4.0)
    assert not alike_rows([heading, footer], columns)


def test_a_header_title_wrapped_above_its_row_is_one_cell(tmp_path: Path) -> None:
    """An unruled table whose header is underlined, one title wrapped over three lines
    set at the header's foot (its first lines above the others' baseline): the title is
    one header cell, and the paragraph above the table stays text."""
    xs = (72, 190, 260, 350)
    items: list = [Text(72, 742, "These are the relationships defined between the objects.", 10)]
    items += [Text(190, 716, "Relation", 10), Text(190, 704, "ship", 10)]
    items += [
        Text(x, 692, t, 10) for x, t in zip(xs, ("Source", "Type", "Target", "Notes"), strict=True)
    ]
    items.append(Stroke(68, 688, 540, 688))
    rows = [
        ("attack-pattern", "delivers", "malware", "Delivers this malware."),
        ("attack-pattern", "targets", "identity", "Targets this identity."),
        ("attack-pattern", "uses", "tool", "Uses this tool."),
    ]
    for k, row in enumerate(rows):
        items += [Text(x, 676 - 16 * k, t, 10) for x, t in zip(xs, row, strict=True)]
    result = parse_pages(tmp_path, [Page(items)])
    (table,) = tags_of(result)
    assert table[0] == ["Source", "Relation ship Type", "Target", "Notes"]
    assert table[1:] == [list(row) for row in rows]
    assert "These are the relationships" not in table[0][0]


def test_a_ruled_banner_with_an_empty_cell_takes_no_body(tmp_path: Path) -> None:
    """A one-row ruled box that leaves a cell empty (a banner: a logo's place beside a
    title) names no columns: the label and its figure below it stay outside it."""
    items: list = [Stroke(BAND[0], y, BAND[-1], y) for y in (700, 686)]
    items += [Stroke(x, 700, x, 686) for x in BAND]
    items += [Text(404, 690, "Value", 10), Text(484, 690, "Direct", 10)]
    items += [Text(44, 674, "Wages", 10), Text(350, 674, "19231.37", 10)]
    items += [Text(44, 662, "Total", 10), Text(510, 662, "19 231.37", 10)]
    tables = tags_of(parse_pages(tmp_path, [Page(items)]))
    assert all("Wages" not in cell for table in tables for row in table for cell in row)


def test_a_ruled_table_of_other_widths_under_the_same_header_is_a_new_table(
    tmp_path: Path,
) -> None:
    """A page opening with a ruled table whose header repeats the table that ended the
    page before, but whose columns are ruled at other widths: the next table of a series
    (each titled alike), not the same one going on."""

    def ruled(rows: list[list[str]], top: float, xs: list[float]) -> list:
        items: list = [Stroke(xs[0], top - 20 * r, xs[-1], top - 20 * r) for r in range(4)]
        items += [Stroke(x, top, x, top - 60) for x in xs]
        items += [
            Text(xs[c] + 4, top - 20 * r - 14, text, 10)
            for r, row in enumerate(rows)
            for c, text in enumerate(row)
        ]
        return items

    header = ["Parameter", "Alarm", "Indication"]
    first = ruled([header, ["Fuel leakage", "H", "local"], ["Oil pressure", "L", "local"]],
                  140, [72, 250, 320, 420])  # fmt: skip
    second = ruled([header, ["Speed", "H", "local"], ["Cooling water", "L", "local"]],
                   740, [72, 220, 300, 430])  # fmt: skip
    tables = tags_of(parse_pages(tmp_path, [Page(first), Page(second)]))
    assert [table[0] for table in tables] == [header, header]


#: A ruled grid's column borders: a narrow number, a wide name, then three figures.
GRID = [40, 70, 300, 380, 460, 560]


def ruled_grid() -> list:
    """A ruled grid of a title row and two rows of items between y 700 and 658."""
    items: list = [Stroke(GRID[0], y, GRID[-1], y) for y in (700, 686, 672, 658)]
    items += [Stroke(x, 700, x, 658) for x in GRID]
    rows = [
        ("No", "Item", "Wages", "Machines", "Total"),
        ("1", "Cable laying", "120.50", "30.00", "150.50"),
        ("2", "Panel mounting", "80.25", "0", "80.25"),
    ]
    for top, row in zip((690, 676, 662), rows, strict=True):
        items += [Text(x + 4, top, text, 10) for x, text in zip(GRID, row, strict=False)]
    return items


def test_a_total_row_under_a_ruled_grid_joins_it(tmp_path: Path) -> None:
    """Unruled lines right under a ruled grid with a figure in each of its columns (a
    total, its label over the narrow first columns, and a line of figures under it)
    are the grid's last rows."""
    totals = [
        Text(44, 648, "TOTAL:", 10),
        Text(384, 648, "200.75", 10),
        Text(464, 648, "30.00", 10),
        Text(384, 636, "0", 10),
        Text(464, 636, "0", 10),
    ]
    (table,) = tags_of(parse_pages(tmp_path, [Page(ruled_grid() + totals)]))
    # The label merged over the first two columns: one cell in its row.
    assert table[-2:] == [["TOTAL:", "", "200.75", "30.00"], ["", "", "", "0", "0"]]


def test_prose_and_signatures_under_a_ruled_grid_stay_text(tmp_path: Path) -> None:
    """A sentence and a caption under a ruled grid, in one segment a line, and the
    signatures set in its columns under a statement (no figures) stay text."""
    lines = [
        "The totals above include the tax and are paid within thirty days of the invoice.",
        "Table 1: costs",
    ]
    body = [Text(44, 636 - 12 * k, line, 10) for k, line in enumerate(lines)]
    signatures = [(74, "Director: J. Smith"), (384, "Clerk: B. Brown")]
    body += [Text(x, 648, text, 10) for x, text in signatures]
    lines += [text for _, text in signatures]
    result = parse_pages(tmp_path, [Page(ruled_grid() + body)])
    (table,) = tags_of(result)
    assert len(table) == 3
    text = "\n".join(row.content for row in result.rows)
    assert all(line in text for line in lines)
