"""A page's two text columns beside a table set in one of them: the columns are no table,
the table in its column is one."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BOLD, MONO, Bookmark, Page, Stroke, Text, parse_pages, tags_of, wrap

_PROSE = (
    "The operator keeps the refrigeration plant under continuous supervision and writes "
    "every reading of the gauges into the plant log before the end of each shift. "
)
_TOPICS = [
    ("751", "Suction pressure of the compressors", "and its gauges (Presión de", "succión)"),
    ("752", "Discharge pressure and its alarms", "(Presión de descarga y sus", "alarmas)"),
    ("753", "Brine pumps and their trips", "(Bombas de salmuera y sus", "disparos)"),
    ("755", "Condenser water and its filters", "(Agua del condensador y sus", "filtros)"),
    ("756", "Handover between two shifts", "(Entrega entre dos turnos de", "trabajo)"),
]
#: The baseline pitch of both columns' lines.
_PITCH = 10.8


def _topic_rows(top: float) -> list:
    """A topic list: numbers beside subjects wrapped over three lines, each row under a
    rule drawn in two pieces end to end (one under each column, as a table style draws
    it), a header row over them; its lines one :data:`_PITCH` apart."""
    items: list = [Text(320, top, "Topic", 9, font=BOLD), Text(370, top, "Subject", 9, font=BOLD)]
    y = top
    for topic, *subject in _TOPICS:
        y -= _PITCH
        items += [Stroke(318, y + 8.5, 368, y + 8.5), Stroke(367.5, y + 8.5, 560, y + 8.5)]
        items.append(Text(320, y, topic, 9))
        for number, line in enumerate(subject):
            items.append(Text(370, y - number * _PITCH, line, 9))
        y -= _PITCH * (len(subject) - 1)
    return items


def _page(title_size: float = 16) -> Page:
    """A two-column page under a running header across both columns: the left column's
    prose parted by a section title set large, the right column's text over a topic list
    whose lines stand on the left column's baselines."""
    items: list = [
        Text(
            60,
            760,
            "Publication 15 (2013): the type and rule above print on all proofs of the"
            " plant's departmental review",
            8,
        )
    ]
    items += wrap(_PROSE * 3, 60, 700, 230, size=9)[:10]
    items.append(Text(60, 700 - 11.5 * _PITCH, "Change of Address", title_size, font=BOLD))
    items += wrap(_PROSE * 6, 60, 700 - 13 * _PITCH, 230, size=9)[:20]
    items += wrap(_PROSE * 2, 320, 700, 230, size=9)
    items += _topic_rows(700 - 11 * _PITCH)
    return Page(items)


def test_a_column_beside_a_topic_list_in_the_next_is_no_table(tmp_path: Path) -> None:
    """The left column's title and prose align with the topic list's rows across the
    gutter; the running header across the page does not make the page one column: the
    title heads its section, and the topic list alone is a table."""
    result = parse_pages(tmp_path, [_page()])
    assert "Change of Address" in [row.heading for row in result.rows]
    tables = tags_of(result)
    assert len(tables) == 1
    cells = [cell for row in tables[0] for cell in row]
    assert "Change of Address" not in cells
    assert tables[0] == _topic_table()


def test_a_bookmarked_title_in_a_column_parts_no_table_in_the_next(tmp_path: Path) -> None:
    """The left column's title is bookmarked and stands on the row of the topic list's
    header in the right column: the rows the title prints are no table's, but the table
    found in the next column, which does not hold the title, is kept whole."""
    bookmark = Bookmark("Change of Address", 1, 0, 700 - 11.5 * _PITCH + 16)
    result = parse_pages(tmp_path, [_page()], bookmarks=[bookmark])
    assert "Change of Address" in [row.heading for row in result.rows]
    assert tags_of(result) == [_topic_table()]


def test_numbers_beside_subjects_parted_by_rules_are_a_table(tmp_path: Path) -> None:
    """Numbers beside text read as a list's items, but rows a table style parts with a
    rule each (drawn in pieces, one under each column) under column titles are a table."""
    result = parse_pages(tmp_path, [Page(_topic_rows(700))])
    assert tags_of(result) == [_topic_table()]


def _topic_table() -> list[list[str]]:
    return [["Topic", "Subject"], *([topic, " ".join(subject)] for topic, *subject in _TOPICS)]


_PERIODS = [
    ("Weekly", "7", "$ 42.30"),
    ("Biweekly", "14", "84.60"),
    ("Semimonthly", "15", "91.70"),
    ("Monthly", "30", "183.30"),
    ("Quarterly", "91", "550.00"),
    ("Annually", "365", "2,200.00"),
]


def test_a_chart_beside_prose_at_another_pitch_under_a_slug_across_the_page(
    tmp_path: Path,
) -> None:
    """A two-column page under a proof's slug printed across both columns: the right
    column's chart (its titles underlined) sets its rows wider apart than the left
    column's lines, which meet them in rows by chance, drifting a step each row. The chart
    is a table of its rows only, all of them; the left column's prose stays text."""
    items: list = [
        Text(
            60,
            760,
            "The type and rule above prints on all proofs including departmental"
            " reproduction proofs. MUST be removed before printing.",
            8,
        )
    ]
    items += wrap(_PROSE * 8, 60, 700, 230, size=9)[:40]
    items += wrap(_PROSE * 2, 320, 700, 230, size=9)
    top = 700 - 9 * _PITCH
    titles = [Text(320, top, "Payroll Period", 8), Text(400, top, "Days", 8)]
    items += [*titles, Text(460, top, "Add Additional", 8)]
    items += [Stroke(318, top - 2, 374, top - 2), Stroke(399, top - 2, 418, top - 2)]
    items.append(Stroke(459, top - 2, 518, top - 2))
    for number, row in enumerate(_PERIODS, start=1):
        y = top - number * _PITCH * 1.4
        items += [Text(x, y, cell, 8) for x, cell in zip((320, 400, 470), row, strict=True)]
    items += wrap(_PROSE * 3, 320, top - 10 * _PITCH, 230, size=9)
    result = parse_pages(tmp_path, [Page(items)])
    tables = tags_of(result)
    assert len(tables) == 1
    cells = [" ".join(row) for row in tables[0]]
    assert all(any(" ".join(period) in row for row in cells) for period in _PERIODS)
    assert not any("operator" in row for row in cells)
    assert "writes every reading" in result.content


#: A reference card's sections: a title, then commands beside what they do.
_CARD = [
    (
        "Starting the Plant",
        [
            ("start", "start the compressors in order"),
            ("start -q", "start without the alarm test"),
            ("status", "show each compressor's state"),
            ("halt", "stop after the running cycle"),
        ],
    ),
    (
        "Reading Gauges",
        [
            ("gauge p", "suction pressure of each stage"),
            ("gauge t", "brine temperature at the outlet"),
            ("log", "write the readings to the log"),
            ("trend", "plot the last day's readings"),
        ],
    ),
    (
        "Alarms",
        [
            ("ack", "acknowledge the sounding alarm"),
            ("mute", "silence the horn for an hour"),
            ("list", "list the alarms of the shift"),
            ("reset", "clear the acknowledged alarms"),
        ],
    ),
    (
        "Shift Handover",
        [
            ("sign", "sign the log as outgoing operator"),
            ("notes", "read the notes of the last shift"),
            ("keys", "record the keys handed over"),
            ("done", "close the shift in the log"),
        ],
    ),
    (
        "Brine Pumps",
        [
            ("pump a", "start the first brine pump"),
            ("pump b", "start the standby pump"),
            ("swap", "change over the duty pump"),
            ("trip", "show why a pump tripped"),
        ],
    ),
    (
        "Condensers",
        [
            ("fan n", "run the condenser fans at n"),
            ("wash", "start the water treatment"),
            ("drain", "drain the condenser sump"),
            ("purge", "purge air from the condenser"),
        ],
    ),
]


def _card_page() -> Page:
    """A landscape reference card: three columns of sections, every line on one baseline
    grid across the page, so the columns' lines meet in rows; a command and its meaning
    set as one run where they fit (the run crosses the gap between the two), and each
    column's titles on rows of their own."""
    items: list = []
    pitch = 9.0
    for column in range(3):
        x, row = 30 + column * 260, 3 * column  # each column's first title rows lower
        for title, commands in _CARD[2 * column : 2 * column + 2]:
            items.append(Text(x, 560 - row * pitch, title, 10, font=BOLD))
            row += 1
            for command, meaning in commands:
                y = 560 - row * pitch - 3
                if len(command) < 5:
                    items.append(Text(x, y, f"{command} {meaning}", 7))
                else:
                    items += [Text(x, y, command, 7), Text(x + 70, y, meaning, 7)]
                row += 1
            row += 1
    return Page(items, width=842, height=595)


def test_a_reference_cards_columns_of_sections_are_no_table(tmp_path: Path) -> None:
    """Titles set large over their commands in two of a "table"'s columns and more are
    sections running down the page's columns, not cells: the card reads column by column,
    each section under its title, and no table holds a title."""
    result = parse_pages(tmp_path, [_card_page()])
    cells = {cell for table in tags_of(result) for row in table for cell in row}
    assert not cells & {title for title, _ in _CARD}
    text = "\n".join(row.content for row in result.rows)
    places = [text.index(title) for title, _ in _CARD]
    assert places == sorted(places)  # column by column, top down
    assert text.index("start the compressors in order") < text.index("Reading Gauges")


def _justified(count: int, top: float) -> list[Text]:
    """``count`` lines of prose set flush on both sides, in a fixed-pitch face (every line
    as many glyphs), from the baseline ``top`` down at :data:`_PITCH`."""
    text = _PROSE * 12
    pieces = [text[i * 48 : (i + 1) * 48] for i in range(count)]
    pieces = [piece.replace(" ", "x", 1) if piece[0] == " " else piece for piece in pieces]
    pieces = [piece[:-1] + "s" if piece[-1] == " " else piece for piece in pieces]
    return [Text(60, top - i * _PITCH, piece, 8, font=MONO) for i, piece in enumerate(pieces)]


def test_a_column_beside_a_figure_set_in_from_the_next_columns_edge_is_no_table(
    tmp_path: Path,
) -> None:
    """A two-column paper's page: the left column's justified prose and a numbered section
    title beside a diagram in the right column whose labels start well in from that
    column's edge, on the prose's baselines. The border between the prose and the labels,
    halfway, lies past the gutter; the gutter lies in the strip their text leaves free: the
    page's columns, no table. The title heads its section and the prose stays text."""
    items: list = [*_justified(8, 700), Text(60, 700 - 9 * _PITCH, "2 Basic Idea", 11, BOLD)]
    items += _justified(22, 700 - 10 * _PITCH)
    items += wrap(_PROSE * 2, 320, 700, 230, size=9)[:6]
    for row in range(10):
        y = 700 - (7 + row) * _PITCH
        items += [Text(390, y, "article A" if row % 4 == 0 else ". . .", 8)]
        items += [Text(440, y, f"entity {row}", 8), Text(495, y, f"relation {row}", 8)]
    items += wrap(_PROSE * 3, 320, 700 - 18 * _PITCH, 230, size=9)
    result = parse_pages(tmp_path, [Page(items)])
    assert "2 Basic Idea" in [row.heading for row in result.rows]
    cells = [cell for table in tags_of(result) for row in table for cell in row]
    assert not any("refrigeration" in cell for cell in cells)
