"""Lines that look like headings in a PDF and title no section: a cover page's lines, a
bulleted item a printed table of contents seems to name, a line numbered as the section it
is in."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from lightrag_pchunk.model import PREFACE_HEADING
from lightrag_pchunk.pdf.bookmark_match import match_bookmarks
from lightrag_pchunk.pdf.outline import Bookmark as OutlineBookmark

from pdf_builders import BODY, BOLD, REGULAR, Page, Stroke, Text, parse_pages, wrap


def _chapters() -> list[Text]:
    return [
        Text(72, 720, "Introduction", 16, BOLD),
        *wrap(BODY, 72, 695, 400),
        Text(72, 640, "Scope of the rules", 16, BOLD),
        *wrap(BODY, 72, 615, 400),
    ]


def _headings(result) -> list[str]:
    return [r.heading for r in result.rows]


def test_a_cover_pages_version_and_date_are_no_headings(tmp_path: Path) -> None:
    cover = Page(
        [
            Text(120, 600, "Plant Inspection Procedures", 28, BOLD),
            Text(250, 500, "Version 5.0", 14, BOLD),
            Text(250, 470, "09/12/2024", 14, BOLD),
            Text(230, 440, "Prepared for the Board", 14, BOLD),
        ]
    )
    result = parse_pages(tmp_path, [cover, Page(_chapters())])
    # The title stands beside the chapters, not over them: the document's title, in its
    # preface with the cover's lines (as a Word document's Title style is).
    assert _headings(result) == [PREFACE_HEADING, "Introduction", "Scope of the rules"]
    assert result.rows[0].content.startswith("Plant Inspection Procedures")
    assert "Version 5.0" in result.rows[0].content
    assert "Prepared for the Board" in result.rows[0].content
    assert result.meta["doc_title"] == "Plant Inspection Procedures"


def test_a_title_over_sections_listed_deeper_than_a_later_chapter_is_the_title(
    tmp_path: Path,
) -> None:
    # The contents indents its first entries below a later chapter's: they nest below the
    # title only by that, the chapter opens at the title's level. The title stands beside
    # the chapters: it goes to the preface.
    leaders = "." * 50
    entries = [(90, "Figures", "i"), (90, "Tables", "ii"), (72, "1 Introduction", "1")]
    contents = [Text(120, 740, "Plant Inspection Procedures", 28, BOLD)]
    contents += [Text(72, 715, "11 August 2017", 12), Text(72, 690, "Contents", 14, BOLD)]
    for i, (x, title, page) in enumerate(entries):
        contents.append(Text(x, 670 - 16 * i, f"{title} {leaders} {page}"))
    body = []
    for i, (_, title, _) in enumerate(entries):
        y = 640 - 150 * i
        body += [Text(72, y, title, 14, BOLD), *wrap(BODY, 72, y - 22, 400)]
    result = parse_pages(tmp_path, [Page(contents), Page(body)])
    headed = [r for r in result.rows if r.heading in ("Figures", "Tables", "1 Introduction")]
    assert [r.heading for r in headed] == ["Figures", "Tables", "1 Introduction"]
    assert result.meta["doc_title"] == "Plant Inspection Procedures"
    assert not any(r.heading == "Plant Inspection Procedures" for r in result.rows)
    assert not any("Plant Inspection Procedures" in r.parent_headings for r in headed)
    # Listed below the title, the first sections stood below it: they move up its level.
    assert [r.level for r in headed] == [1, 1, 1]


def test_a_name_set_far_larger_than_the_headings_is_the_title(tmp_path: Path) -> None:
    # A résumé's name at the margin, twice the size of its section titles and more: the
    # document's title, beside its sections rather than over them.
    page = Page(
        [
            Text(72, 740, "James Hetfield", 30),
            Text(72, 690, "EXPERIENCE", 13),
            *wrap(BODY, 72, 668, 400),
            Text(72, 610, "EDUCATION", 13),
            *wrap(BODY, 72, 588, 400),
        ]
    )
    result = parse_pages(tmp_path, [page])
    assert _headings(result) == [PREFACE_HEADING, "EXPERIENCE", "EDUCATION"]
    assert result.meta["doc_title"] == "James Hetfield"
    assert not any(r.parent_headings for r in result.rows)


def test_the_sections_below_a_title_in_the_preface_move_up_its_level(tmp_path: Path) -> None:
    # A résumé's name over its sections, then a line set larger than them (a job title)
    # at the name's level: the name is the title, and the sections it stood over stand
    # beside that line, at the top, their levels as their paths say.
    page = [Text(72, 740, "Jane Doe", 36)]
    parts = [("OBJECTIVE", 11), ("EXPERIENCE", 11), ("Guitarist", 13), ("EDUCATION", 11)]
    for i, (title, size) in enumerate(parts):
        y = 690 - 110 * i
        page += [Text(72, y, title, size), *wrap(BODY, 72, y - 22, 400, 10)]
    result = parse_pages(tmp_path, [Page(page)])
    assert result.meta["doc_title"] == "Jane Doe"
    levels = {r.heading: (r.level, r.parent_headings) for r in result.rows}
    assert levels["OBJECTIVE"] == (1, ())
    assert levels["EXPERIENCE"] == (1, ())
    assert levels["Guitarist"] == (1, ())


def test_a_masthead_ranked_below_a_later_part_is_the_title(tmp_path: Path) -> None:
    # A newsletter's masthead opens it, its sections below it in a smaller look; a notice
    # at its end is set larger still and ranks above the masthead. The masthead stands
    # over no more than the sections before that notice: it is the title, and the sections
    # have no parent.
    page = [Text(72, 740, "Plant Safety Bulletin, May 2004", 14, BOLD)]
    parts = [("Inspections", 12), ("Training", 12), ("Subscription", 18)]
    for i, (title, size) in enumerate(parts):
        y = 700 - 110 * i
        page += [Text(72, y, title, size, BOLD), *wrap(BODY, 72, y - 22, 400, 10)]
    result = parse_pages(tmp_path, [Page(page)])
    assert result.meta["doc_title"] == "Plant Safety Bulletin, May 2004"
    assert result.rows[0].heading == PREFACE_HEADING
    assert result.rows[0].content.startswith("Plant Safety Bulletin, May 2004")
    paths = {r.heading: r.parent_headings for r in result.rows}
    assert paths == {PREFACE_HEADING: (), "Inspections": (), "Training": (), "Subscription": ()}


def test_a_first_heading_ranked_below_a_later_one_after_text_is_a_section(
    tmp_path: Path,
) -> None:
    # Text before it: the first heading is not the line a reader reads first, and a
    # later heading set larger is another part; it heads its own sections.
    page = [*wrap(BODY, 72, 740, 400, 10), Text(72, 690, "Plant Safety Bulletin", 14, BOLD)]
    parts = [("Inspections", 12), ("Training", 12), ("Subscription", 18)]
    for i, (title, size) in enumerate(parts):
        y = 650 - 110 * i
        page += [Text(72, y, title, size, BOLD), *wrap(BODY, 72, y - 22, 400, 10)]
    result = parse_pages(tmp_path, [Page(page)])
    paths = {r.heading: r.parent_headings for r in result.rows}
    assert paths["Inspections"] == ("Plant Safety Bulletin",)


def test_a_first_heading_ranked_below_a_later_one_over_no_section_is_a_section(
    tmp_path: Path,
) -> None:
    # A report opens on its foreword, set between its chapters' look and its sections':
    # the foreword heads its own text and no section before the first chapter, ranked
    # above it. It is a section beside the chapters, no title.
    part = [("Foreword", 14), ("Plant and its parts", 18), ("Inspections", 12)]
    part += [("Training", 12), ("Records and logs", 18), ("Logs", 12)]
    items = []
    for i, (title, size) in enumerate(part):
        y = 750 - 110 * i
        items += [Text(72, y, title, size, BOLD), *wrap(f"{title}: {BODY}", 72, y - 22, 400, 10)]
    result = parse_pages(tmp_path, [Page(items)])
    paths = {r.heading: r.parent_headings for r in result.rows}
    assert paths["Foreword"] == ()
    assert paths["Inspections"] == ("Plant and its parts",)
    assert result.rows[0].heading == "Foreword"


def test_the_first_of_chapters_set_alike_is_a_chapter(tmp_path: Path) -> None:
    # The first heading shares its look with the next: a chapter, not the title.
    result = parse_pages(tmp_path, [Page(_chapters())])
    assert _headings(result) == ["Introduction", "Scope of the rules"]


def test_a_numbered_first_heading_beside_the_next_is_no_title(tmp_path: Path) -> None:
    # Numbered, the first heading is the first chapter, whatever its size.
    page = Page(
        [
            Text(72, 740, "1. Plant Inspection Procedures", 24, BOLD),
            *wrap(BODY, 72, 715, 400),
            Text(72, 640, "2. Scope of the rules", 16, BOLD),
            *wrap(BODY, 72, 615, 400),
        ]
    )
    result = parse_pages(tmp_path, [page])
    assert _headings(result) == ["1. Plant Inspection Procedures", "2. Scope of the rules"]


def test_a_short_first_page_of_headings_over_their_text_is_no_cover(tmp_path: Path) -> None:
    first = Page(
        [
            Text(72, 720, "Test Document", 28),
            Text(72, 660, "1. Section 1", 20),
            Text(72, 630, "Paragraph 1.1"),
            Text(72, 590, "1.1. Section 1.1", 16),
            Text(72, 560, "Paragraph 1.1.1"),
            Text(72, 520, "2. Section 2", 20),
            Text(72, 490, "Paragraph 2.1"),
        ]
    )
    later = Page([Text(72, 720, "2.1. Section 2.1", 16), *wrap(BODY, 72, 695, 400)])
    result = parse_pages(tmp_path, [first, later])
    assert _headings(result)[-4:] == [
        "1. Section 1",
        "1.1. Section 1.1",
        "2. Section 2",
        "2.1. Section 2.1",
    ]


def test_a_printed_entry_never_names_a_bulleted_item() -> None:
    # The entry's heading is printed after a bulleted item that reads as it: the item is
    # one of a list, the heading is the section's.
    entries = [OutlineBookmark("II. Working definition of Internet governance", 1, None)]
    texts = [
        [BODY],
        ["\uf0b7 Develop a working definition of Internet governance;"],
        [BODY],
        ["II. Working definition of Internet governance"],
        [BODY],
    ]
    matches = match_bookmarks(entries, texts, [1, 1, 1, 2, 2])
    assert [(m.bookmark, m.paragraph) for m in matches] == [(0, 3)]


def test_a_bookmark_pointing_at_a_bulleted_heading_names_it() -> None:
    # A bookmark points at its page: the author made the bulleted line a heading.
    bookmarks = [OutlineBookmark("• CALL FOR ABSTRACTS", 1, 1)]
    texts = [["• CALL FOR ABSTRACTS"], [BODY], ["CALL FOR ABSTRACTS TOP"], [BODY]]
    matches = match_bookmarks(bookmarks, texts, [1, 1, 2, 2])
    assert [(m.bookmark, m.paragraph) for m in matches] == [(0, 0)]


def test_a_line_numbered_as_its_listed_section_is_no_heading_of_its_own(tmp_path: Path) -> None:
    # The printed table of contents names "AC-2 Account Management"; the bold line under it
    # with its number is a line of that section ("AC-2" names one section), not another.
    controls = ["AC-1 Policy and Procedures", "AC-2 Account Management", "AC-3 Enforcement"]
    toc = [Text(72, 740, "Contents", 14, BOLD)]
    for i, control in enumerate(controls):
        toc.append(Text(72, 716 - 16 * i, f"{control} {'.' * 40} {i + 2}"))
    body = []
    for i, control in enumerate(controls):
        y = 640 - 180 * i
        body += [Text(72, y, control, 14, BOLD), *wrap(BODY, 72, y - 22, 400)]
        if i == 1:
            body += [
                Text(72, y - 70, "AC-2 Additional Requirements and Guidance", 11, BOLD),
                *wrap(BODY, 72, y - 92, 400),
            ]
    result = parse_pages(tmp_path, [Page(toc), Page(body)])
    headings = [r.heading for r in result.rows if r.extra.get("session_type") != "toc"]
    assert headings == controls
    assert "AC-2 Additional Requirements and Guidance" in result.rows[2].content


def test_a_charts_title_over_its_axis_numbers_is_no_heading(tmp_path: Path) -> None:
    # A chart drawn in the text: its title set larger than the text over its axis's tick
    # labels, each printed alone and evenly stepped, then its categories.
    chart = [
        Text(200, 560, "Chart Title", 14),
        *[Text(80, 540 - 14 * k, str(value), 9) for k, value in enumerate((60, 50, 40, 30))],
        Text(100, 470, "Category 1    Category 2    Category 3", 9),
    ]
    # Headings set larger, not bold (as Word's own heading styles are).
    chapters = [replace(text, font=REGULAR) for text in _chapters()]
    page = Page([*chapters, *chart, *wrap(BODY, 72, 440, 400)])
    result = parse_pages(tmp_path, [page])
    assert _headings(result) == ["Introduction", "Scope of the rules"]
    assert "Chart Title" in result.rows[-1].content


def test_a_numbered_paragraph_reserved_in_brackets_is_no_heading(tmp_path: Path) -> None:
    # A regulation keeps a paragraph's number with "[Reserved]" for its text: at the
    # text's look no title; a template's "[Insert ...]" title in a heading's look is one.
    page = Page(
        [
            Text(72, 740, "1. Plant Inspection Procedures", 16, BOLD),
            Text(72, 715, "(1) Anabolic steroids", 11),
            *wrap(BODY, 72, 700, 400),
            Text(72, 665, "(2) [Reserved]", 11),
            Text(72, 650, "[39 FR 22142, June 20, 1974, as amended at 41 FR 43401]", 11),
            Text(72, 630, "2. [Insert the section's title]", 16, BOLD),
            *wrap(BODY, 72, 605, 400),
        ]
    )
    result = parse_pages(tmp_path, [page])
    assert _headings(result) == [
        "1. Plant Inspection Procedures",
        "(1) Anabolic steroids",
        "2. [Insert the section's title]",
    ]


def test_a_cell_of_a_tables_second_column_on_a_line_of_its_own_is_no_heading(
    tmp_path: Path,
) -> None:
    # A table without column rules read as text: its values in bold in a second column, one
    # printed between the two lines of its row's first cell ("Varies").
    rows = [
        (600, "Current agency use", "1 point"),
        (559, "Indirect demand", ".5 points"),
        (518, "Potential use", ".25 points"),
        (480, "Policy, priorities,", None),
        (469, None, "Varies"),
        (458, "shared services", None),
        (420, "Defined demand", "Varies"),
    ]
    table = []
    for y, name, value in rows:
        table += [Text(120, y, name, 18)] if name else []
        table += [Text(340, y, value, 18, BOLD)] if value else []
    items = [
        Text(72, 720, "Scoring of demand", 16, BOLD),
        *wrap(BODY, 72, 690, 400),
        *table,
        Text(72, 370, "Business case", 16, BOLD),
        *wrap(BODY, 72, 340, 400),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    assert _headings(result) == ["Scoring of demand", "Business case"]


def _ruled_table(top: float, rows: list[tuple[str, str]]) -> list:
    """A ruled grid of two columns whose first row stands ``top`` high (points)."""
    items: list = []
    bottom = top - 20 * len(rows)
    for r in range(len(rows) + 1):
        items.append(Stroke(72, top - 20 * r, 400, top - 20 * r))
    items += [Stroke(x, top, x, bottom) for x in (72, 230, 400)]
    for r, (left, right) in enumerate(rows):
        items += [Text(76, top - 14 - 20 * r, left, 10), Text(234, top - 14 - 20 * r, right, 10)]
    return items


def _titled_tables(titles: list[str], size: float) -> list:
    items: list = []
    top = 740
    for title in titles:
        items += [
            Text(72, top, title, size, BOLD),
            *_ruled_table(top - 10, [("A", "B"), ("C", "D")]),
        ]
        top -= 90
    return items + wrap(BODY, 72, top, 400)


def test_titles_over_each_table_in_one_look_are_no_headings(tmp_path: Path) -> None:
    # A sampler of tables: each titled by a bold line right above it, set like its cells,
    # and no other line in that look. The titles name their tables, not sections.
    titles = ["Shading and row height", "Merged cells", "Empty cells"]
    result = parse_pages(tmp_path, [Page(_titled_tables(titles, 11))])
    assert _headings(result) == [PREFACE_HEADING]
    assert all(title in result.rows[0].content for title in titles)


def test_headings_set_larger_than_the_table_each_opens_stay_headings(tmp_path: Path) -> None:
    # Each section of a sampler holds its table alone under a heading set well above the
    # cells' size: headings.
    titles = ["Shading and row height", "Merged cells", "Empty cells"]
    result = parse_pages(tmp_path, [Page(_titled_tables(titles, 16))])
    assert _headings(result)[:3] == titles


def test_a_heading_over_a_table_among_headings_over_text_stays_one(tmp_path: Path) -> None:
    # One section opens with its table; the other headings of its look head text.
    items = [
        Text(72, 740, "Inspection rounds", 14, BOLD),
        *_ruled_table(730, [("Week", "Inspector"), ("1", "Lee")]),
        *wrap(BODY, 72, 660, 400),
        Text(72, 600, "Plant log", 14, BOLD),
        *wrap(BODY, 72, 580, 400),
        Text(72, 520, "Repairs", 14, BOLD),
        *wrap(BODY, 72, 500, 400),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    assert _headings(result) == ["Inspection rounds", "Plant log", "Repairs"]


def test_headings_of_sections_each_opening_with_its_table_stay_headings(
    tmp_path: Path,
) -> None:
    # A report whose every section opens with its table, then its text: the bold lines
    # over the tables, set like their cells, head the sections.
    titles = ["Inspection rounds", "Plant log", "Repairs"]
    items: list = []
    top = 740
    for title in titles:
        items += [
            Text(72, top, title, 11, BOLD),
            *_ruled_table(top - 10, [("Week", "Inspector"), ("1", "Lee")]),
            *wrap(BODY, 72, top - 70, 400),
        ]
        top -= 130
    result = parse_pages(tmp_path, [Page(items)])
    assert _headings(result) == titles
