"""Bookmarked titles in the company of other text: a title sharing its line with a sidebar,
a row of bookmarked table cells, a numbered line repeating its section's number."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.pdf.bookmark_match import MATCH_SIMILARITY, _within_reach, match_bookmarks
from lightrag_pchunk.pdf.outline import Bookmark as OutlineBookmark
from lightrag_pchunk.pdf.outline import normalise, similarity

from pdf_builders import (
    BODY,
    BOLD,
    Bookmark,
    Page,
    Stroke,
    Text,
    boxes,
    parse_pages,
    sections,
    tags_of,
    wrap,
)


def test_a_bookmarked_title_sharing_its_line_with_a_sidebar_is_cut_from_it(
    tmp_path: Path,
) -> None:
    # "1.2 Related Documents" is printed on one baseline with a sidebar's first line far
    # to its right: the line reads as neither, so the bookmark found no paragraph. Its
    # first segment reads exactly as the title: it is the heading, the sidebar's words
    # the text of its section, nothing lost.
    pages = [
        Page(
            [
                Text(72, 740, "1 Overview", 18),
                *wrap(BODY, 72, 715, 460),
                Text(72, 660, "1.2 Related Documents", 14),
                Text(420, 660, "Refer to the Guide to", 9),
                Text(420, 649, "Content for its concepts.", 9),
                *wrap(BODY, 72, 630, 330),
            ]
        )
    ]
    bookmarks = [Bookmark("1 Overview", 1, 0, 758), Bookmark("1.2 Related Documents", 2, 0, 676)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert sections(result) == [("1 Overview", 1), ("1.2 Related Documents", 2)]
    section = result.rows[-1].content
    assert section.startswith("## 1.2 Related Documents\n")
    assert "Refer to the Guide to" in section and "plant log" in section


def test_a_row_of_bookmarked_cells_is_not_cut_into_a_title(tmp_path: Path) -> None:
    # A table's header cells that the file bookmarks one by one, all at one height: the
    # row's first cell is no title with text beside it, and the row stays one line.
    pages = [
        Page(
            [
                Text(72, 740, "9 Risks", 18),
                *wrap(BODY, 72, 715, 460),
                Text(150, 660, "RISK NAME", 10),
                Text(250, 660, "DESCRIPTION", 10),
                Text(350, 660, "SEVERITY", 10),
                *wrap(BODY, 72, 630, 460),
            ]
        )
    ]
    bookmarks = [
        Bookmark("9 Risks", 1, 0, 758),
        *(Bookmark(cell, 2, 0, 676) for cell in ("RISK NAME", "DESCRIPTION", "SEVERITY")),
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert sections(result) == [("9 Risks", 1)]
    assert "RISK NAME DESCRIPTION SEVERITY" in result.rows[-1].content


def test_a_line_repeating_its_sections_number_is_no_section_of_its_own(tmp_path: Path) -> None:
    # Bookmarks name the chapters; under them the classifier adds the controls they leave
    # out ("CM-8 System Component Inventory"). "CM-8 Control Requirement(s)" in the same
    # look repeats the number of the control it is in: text of that control.
    items = [Text(72, 740, "Configuration Management", 16, BOLD)]
    top = 715.0
    for code, name in (("CM-7", "Least Functionality"), ("CM-8", "System Component Inventory")):
        items += [Text(72, top, f"{code} {name}", 13, BOLD), *wrap(BODY, 72, top - 20, 460)]
        items += [Text(72, top - 75, f"{code} Control Requirement(s)", 13, BOLD)]
        items += wrap(BODY, 72, top - 95, 460)
        top -= 170
    pages = [Page(items), Page([Text(72, 740, "Audit", 16, BOLD), *wrap(BODY, 72, 715, 460)])]
    bookmarks = [Bookmark("Configuration Management", 1, 0, 755), Bookmark("Audit", 1, 1, 755)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert sections(result) == [
        ("Configuration Management", 1),
        ("CM-7 Least Functionality", 2),
        ("CM-8 System Component Inventory", 2),
        ("Audit", 1),
    ]
    assert "CM-8 Control Requirement(s)" in result.rows[2].content


def test_a_mark_after_a_bookmarked_title_stays_on_its_line(tmp_path: Path) -> None:
    # "Back cover" then a registered mark set apart: the line reads as the title already
    # (the mark is no word), so it is not cut, and the heading keeps its mark, raised as it is
    # printed.
    pages = [
        Page([Text(72, 740, "Back cover", 18), Text(200, 746, "®", 9), *wrap(BODY, 72, 715, 460)])
    ]
    result = parse_pages(tmp_path, pages, bookmarks=[Bookmark("Back cover", 1, 0, 758)])
    assert sections(result) == [("Back cover <sup>®</sup>", 1)]


def test_a_bookmarked_title_after_a_narrow_columns_line_is_cut_from_it(tmp_path: Path) -> None:
    # A résumé: a narrow column of short lines beside the sections, too short to be
    # found as a column, so "[Email]" and "EDUCATION" read as one line. The bookmark
    # points at that line and its title is the line's last segment: the title is cut
    # from the words before it, which stay text, and heads its section.
    pages = [
        Page(
            [
                Text(240, 740, "EXPERIENCE", 11),
                Text(240, 722, "Dates from and to, the company and the position held", 9),
                Text(40, 700, "[Telephone]", 10),
                Text(40, 686, "[Email]", 10),
                Text(240, 686, "EDUCATION", 11),
                Text(240, 668, "Dates from and to, the school and the degree", 9),
            ]
        )
    ]
    bookmarks = [Bookmark("Experience", 1, 0, 751), Bookmark("Education", 1, 0, 697)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert sections(result) == [("EXPERIENCE", 1), ("EDUCATION", 1)]
    assert "[Email]" in result.rows[0].content
    assert "the school and the degree" in result.rows[1].content


def test_a_numbered_title_page_line_before_the_bookmarks_is_no_section(tmp_path: Path) -> None:
    # The title page prints "Part 1: General Requirements" large under the document's
    # name; the bookmarks start at the foreword. A numbering none of them uses, printed
    # before the first of them, is the title page's, not a section the bookmarks left
    # out: it stays text, and the foreword opens the outline.
    cover = Page(
        [
            Text(150, 500, "Periodic safety review", 26),
            Text(150, 450, "Part 1: General Requirements", 26),
            *wrap(BODY, 72, 380, 460),
        ]
    )
    pages = [
        cover,
        *(
            Page([Text(72, 740, t, 16, BOLD), *wrap(BODY, 72, 715, 460)])
            for t in ("Foreword", "1 Scope")
        ),
    ]
    bookmarks = [Bookmark("Foreword", 1, 1, 755), Bookmark("1 Scope", 1, 2, 755)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert sections(result) == [("Foreword", 1), ("1 Scope", 1)]
    assert "Part 1: General Requirements" in result.rows[0].content


def test_boxes_framing_a_bookmarked_section_are_no_table(tmp_path: Path) -> None:
    # A page laid out in boxes that meet at their edges (a picture's frame beside a box
    # holding a section): the grid's right cell opens with the title a bookmark names,
    # over the section's text. No table: the title heads its section, its text is text.
    section = [
        Text(310, 700, "4.2 Individual Entries", 14),
        *wrap(BODY, 310, 680, 220),
    ]
    pages = [
        Page([Text(72, 760, "4.1 Representing the plan", 14), *boxes((60, 300, 550), 720, 560)])
    ]
    pages[0].items += [Text(80, 640, "Figure", 9), *section]
    bookmarks = [
        Bookmark("4.1 Representing the plan", 1, 0, 776),
        Bookmark("4.2 Individual Entries", 1, 0, 716),
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert sections(result) == [("4.1 Representing the plan", 1), ("4.2 Individual Entries", 1)]
    assert not tags_of(result)
    assert "plant log" in result.rows[-1].content


def test_boxes_framing_a_section_a_printed_contents_lists_are_no_table(tmp_path: Path) -> None:
    # The same page without bookmarks, after a printed table of contents listing the
    # section: the title it lists opens the box over the section's text. No table.
    entries = ["4.1 Representing the plan", "4.2 Individual Entries", "4.3 Remediation"]
    contents = [Text(72, 760, "Contents", 14)]
    contents += [
        Text(72, 730 - 20 * i, f"{entry} {'.' * 40} {i + 2}", 11) for i, entry in enumerate(entries)
    ]
    boxed = [
        Text(72, 760, entries[0], 14),
        *boxes((60, 300, 550), 720, 560),
        Text(80, 640, "Figure", 9),
        Text(310, 700, entries[1], 14),
        *wrap(BODY, 310, 680, 220),
    ]
    closing = [Text(72, 760, entries[2], 14), *wrap(BODY, 72, 730, 400)]
    result = parse_pages(tmp_path, [Page(contents), Page(boxed), Page(closing)])
    assert not tags_of(result)
    section = next(r for r in result.rows if r.heading == entries[1])
    assert "plant log" in section.content


def test_a_table_whose_header_cells_are_bookmarked_stays_a_table(tmp_path: Path) -> None:
    # Bookmarks name a table's header cells, each holding its label alone: the grid is
    # a table (a cell opening a section holds lines under its title).
    rows = [["Risk name", "Severity"], ["Flooding", "High"], ["Power loss", "Medium"]]
    items = [Text(72, 760, "9 Risks", 14)]
    for r in range(4):
        items.append(Stroke(72, 720 - 20 * r, 400, 720 - 20 * r))
    for x in (72, 200, 400):
        items.append(Stroke(x, 720, x, 660))
    for r, row in enumerate(rows):
        items += [Text(76, 706 - 20 * r, row[0], 10), Text(204, 706 - 20 * r, row[1], 10)]
    bookmarks = [Bookmark("9 Risks", 1, 0, 776), Bookmark("Risk name", 2, 0, 718)]
    result = parse_pages(tmp_path, [Page(items)], bookmarks=bookmarks)
    assert tags_of(result) == [rows]


def test_a_printed_entry_never_names_a_caption_run_on_into_a_list_item() -> None:
    # "Table 4. SSP Appendices" (a table's caption) over a bulleted list whose first item
    # reads "Appendix A: FedRAMP Security Controls": together they read almost as the
    # entry "2.4.1. SSP Appendix A: FedRAMP Security Controls", which names its own
    # heading further on. A caption titles no section, and no title runs on into a list
    # item.
    entries = [
        OutlineBookmark("2.4. SSP Appendices", 3, None),
        OutlineBookmark("2.4.1. SSP Appendix A: FedRAMP Security Controls", 4, None),
    ]
    texts = [
        ["2.4. SSP Appendices"],
        [BODY],
        ["Table 4. SSP Appendices"],
        ["● Appendix A: FedRAMP Security Controls*"],
        ["● Appendix B: Related Acronyms"],
        ["2.4.1. SSP Appendix A: FedRAMP Security Controls"],
        [BODY],
    ]
    matches = match_bookmarks(entries, texts, [1] * len(texts))
    assert [(m.bookmark, m.paragraph, m.lines) for m in matches] == [(0, 0, 1), (1, 5, 1)]


def test_a_printed_entry_never_names_a_caption_that_reads_as_it() -> None:
    # A figure's caption before the section it shares its words with: the entry names
    # the section's heading.
    title = "Authorization boundary and data flows of the system"
    entries = [OutlineBookmark(f"2.3. {title}", 3, None)]
    texts = [[BODY], [f"Figure 7. {title}"], [BODY], [f"2.3. {title}"], [BODY]]
    matches = match_bookmarks(entries, texts, [1] * len(texts))
    assert [(m.bookmark, m.paragraph, m.lines) for m in matches] == [(0, 3, 1)]


def test_a_printed_entry_never_runs_on_into_a_list_item() -> None:
    # A short line over a bulleted list whose first item reads "Safety inspection
    # records": run on into the item, the two would read as the entry "3.2. Plant safety
    # inspection records", which names its own heading further on.
    entries = [OutlineBookmark("3.2. Plant safety inspection records", 4, None)]
    texts = [
        [BODY],
        ["Plant"],
        ["● Safety inspection records"],
        ["● Staff rota"],
        ["3.2. Plant safety inspection records"],
        [BODY],
    ]
    matches = match_bookmarks(entries, texts, [1] * len(texts))
    assert [(m.bookmark, m.paragraph, m.lines) for m in matches] == [(0, 4, 1)]


def test_a_title_is_compared_only_with_lines_near_its_length() -> None:
    # Dice over character pairs is at most twice the fewer pairs over the sum: a line far
    # longer or shorter than the title cannot read as it, and is not compared.
    title = normalise("4.2 Findings of the review")
    assert not _within_reach(title, normalise("Findings"))
    assert not _within_reach(title, title * 2)
    assert _within_reach(title, normalise("Findings of the reviews"))
    for text in ("Findings", "Findings of the review board meeting", title * 2, "x"):
        if not _within_reach(title, normalise(text)):
            assert similarity(title, normalise(text)) < MATCH_SIMILARITY


def test_a_part_bookmarked_without_its_labels_word_names_its_label_and_title(
    tmp_path: Path,
) -> None:
    # A book prints "Part II" over its title "Plotting styles" in a larger size; the
    # bookmark at the top of the tree says "II Plotting styles". It names both lines: the
    # part heads its chapters, at the top.
    pages = []
    for part, title, chapter in [
        ("I", "Gnuplot", "Copyright notice"),
        ("II", "Plotting styles", "Boxes and bars"),
    ]:
        pages.append(
            Page(
                [
                    Text(72, 700, f"Part {part}", 14),
                    Text(72, 670, title, 20),
                    Text(72, 630, chapter, 14, BOLD),
                    *wrap(BODY, 72, 610, 460),
                ]
            )
        )
    bookmarks = [
        Bookmark("I Gnuplot", 1, 0, 709),
        Bookmark("Copyright notice", 2, 0, 645),
        Bookmark("II Plotting styles", 1, 1, 709),
        Bookmark("Boxes and bars", 2, 1, 645),
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert sections(result) == [
        ("Part I Gnuplot", 1),
        ("Copyright notice", 2),
        ("Part II Plotting styles", 1),
        ("Boxes and bars", 2),
    ]
    assert "name no line" not in str(result.meta)


def test_a_parts_label_is_no_title_its_number_merely_opens() -> None:
    # "Part I" over "Introduction": the bookmark "Introduction" opens with the letter of
    # the part's number, but names the title alone (the label is left to be joined to it).
    texts = [["Part I"], ["Introduction"], [BODY]]
    matches = match_bookmarks([OutlineBookmark("Introduction", 1, 1)], texts, [1, 1, 1])
    assert [(m.paragraph, m.lines) for m in matches] == [(1, 1)]


def test_a_bookmark_opening_with_a_name_like_a_label_names_its_numbered_line() -> None:
    # A board's name reads as a lettered label ("A20"); the line prints the section's own
    # number before it. Numbers of two families say nothing of each other: the title does.
    texts = [["7.6 Pioneer Edition"], [BODY], ["7.7 A20 OLinuXino Lime2"], [BODY]]
    entries = [
        OutlineBookmark("Pioneer Edition", 2, 1),
        OutlineBookmark("A20 OLinuXino Lime2", 2, 1),
    ]
    matches = match_bookmarks(entries, texts, [1] * len(texts))
    assert [(m.bookmark, m.paragraph, m.lines) for m in matches] == [(0, 0, 1), (1, 2, 1)]


def test_a_bookmark_names_a_title_printed_with_a_note_in_brackets(tmp_path: Path) -> None:
    # The outline says "3.3 Roles"; the page prints "3.3 Roles (Web Annex A)", a pointer
    # to where more is found. The printed title is the heading, its section its own.
    pages = [
        Page(
            [
                Text(72, 740, "3.2 Guideline development process", 14, BOLD),
                *wrap(BODY, 72, 715, 460),
                Text(72, 640, "3.3 Roles (Web Annex A)", 14, BOLD),
                Text(72, 615, "The steering group drafted the scope and chose the panel.", 11),
                Text(72, 560, "3.4 Evidence", 14, BOLD),
                *wrap(BODY, 72, 535, 460),
            ]
        )
    ]
    bookmarks = [
        Bookmark("3.2 Guideline development process", 1, 0, 756),
        Bookmark("3.3 Roles", 1, 0, 656),
        Bookmark("3.4 Evidence", 1, 0, 576),
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert sections(result) == [
        ("3.2 Guideline development process", 1),
        ("3.3 Roles (Web Annex A)", 1),
        ("3.4 Evidence", 1),
    ]
    roles = next(row for row in result.rows if row.heading.startswith("3.3"))
    assert "The steering group drafted" in roles.content
    assert roles.extra.get("heading_source") != "inferred"


def test_a_bookmark_naming_a_chapter_by_its_number_alone_finds_its_title(tmp_path: Path) -> None:
    # A book's bookmarks name its chapters "3: Catalogs", "4: Pirates" where the pages print
    # "CHAPTER THREE: Catalogs": without its keyword and number the title is the page's.
    # Each chapter heads its section as the bookmarks state it (not inferred from its label),
    # under the part they nest it in, and no bookmark is reported as naming no line.
    chapters = (("3: Catalogs", "CHAPTER THREE: Catalogs"), ("4: Pirates", "CHAPTER FOUR: Pirates"))
    pages = [Page([Text(72, 700, "PIRACY", 24), *wrap(BODY, 72, 660, 460)])]
    pages += [Page([Text(72, 700, printed), *wrap(BODY, 72, 670, 460)]) for _, printed in chapters]
    bookmarks = [Bookmark("PIRACY", 1, 0, 724)]
    bookmarks += [
        Bookmark(title, 2, page, 716) for page, (title, _) in enumerate(chapters, start=1)
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert sections(result) == [
        ("PIRACY", 1),
        ("CHAPTER THREE: Catalogs", 2),
        ("CHAPTER FOUR: Pirates", 2),
    ]
    assert not any(row.extra.get("heading_source") == "inferred" for row in result.rows)
    assert not result.warnings
