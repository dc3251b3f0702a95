"""Entries of a printed table of contents set over several lines stay entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from lightrag_pchunk.model import PREFACE_HEADING

from pdf_builders import (
    BODY,
    BOLD,
    REGULAR,
    Page,
    Text,
    contents_rows,
    outline_rows,
    parse_pages,
    printed_width,
    unruled_rows,
    wrap,
)

LEADERS = "." * 60


def _entry(
    x: float, y: float, title: str, page: int, size: float = 11.0, font: str = REGULAR
) -> Text:
    """A contents entry: ``title``, leaders to the 60th character, the page number."""
    return Text(x, y, f"{title} {LEADERS[: 60 - len(title)]} {page}", size, font)


def _outline_under_contents(tmp_path: Path, pages: list[list[tuple[str, int]]], x_of) -> list:
    """The outline parsed from a contents over ``pages`` (each its entries' titles and
    levels; chapters bold at 11 pt, sections at 9 pt, each entry at ``x_of(page index,
    level)``), then a page for each title (chapters at 16 pt, sections smaller)."""
    printed = [[Text(72, 740, "Contents", 14, BOLD)]] + [[] for _ in pages[1:]]
    for index, entries in enumerate(pages):
        for i, (title, level) in enumerate(entries):
            size, font = (11, BOLD) if level == 1 else (9, REGULAR)
            printed[index].append(
                _entry(x_of(index, level), 716 - 16 * i, title, i + 3, size, font)
            )
    body = [
        Page([Text(72, 700, title, {1: 16, 2: 13}.get(level, 12), BOLD), *wrap(BODY, 72, 678, 400)])
        for entries in pages
        for title, level in entries
    ]
    result = parse_pages(tmp_path, [*map(Page, printed), *body])
    skipped = ("Contents", PREFACE_HEADING)
    return [(r.heading, r.level) for r in outline_rows(result) if r.heading not in skipped]


def test_an_entry_whose_page_number_wraps_onto_its_own_line_is_no_heading(
    tmp_path: Path,
) -> None:
    # The leaders after "Attachment 1" push the title to the line's end and its page
    # number onto the next line: an entry all the same, bold as the table sets it.
    chapters = ["1 General provisions", "2 Operation", "3 Maintenance"]
    toc = [Text(72, 740, "Contents", 14, BOLD)]
    for i, chapter in enumerate(chapters):
        toc.append(_entry(72, 716 - 16 * i, chapter, i + 2))
    attachments = ["Security Policies", "User Guide", "Rules of Behavior"]
    for i, name in enumerate(attachments):
        y = 660 - 30 * i
        toc += [
            Text(90, y, f"Attachment {i + 1} {LEADERS} {name}", 11, BOLD),
            Text(160, y - 13, str(40 + i), 11, BOLD),
        ]
    body = []
    for i, chapter in enumerate(chapters):
        y = 640 - 150 * i  # below the band a running header is printed in
        body += [Text(72, y, chapter, 14, BOLD), *wrap(BODY, 72, y - 22, 400)]
    result = parse_pages(tmp_path, [Page(toc), Page(body)])
    headings = [r.heading for r in outline_rows(result)]
    assert headings == chapters
    toc_text = "".join(r.content for r in contents_rows(result))
    assert f"Attachment 2 {LEADERS} User Guide\t41" in toc_text


def test_an_entry_whose_title_fills_its_line_up_to_the_page_number_stays_an_entry(
    tmp_path: Path,
) -> None:
    # The page numbers are set flush right at one edge; one title is so long that a
    # plain space parts it from its number. It is an entry like the others: the table of
    # contents goes on after it, and the entries after it make no headings of their own.
    right = 540.0
    chapters = [
        "1 General provisions",
        "2 Operation of the refrigeration plant: who does what and how is it recorded?",
        "3 Maintenance",
        "4 Records",
    ]
    toc = [Text(72, 740, "Contents", 14, BOLD)]
    for i, chapter in enumerate(chapters):
        y, number = 716 - 16 * i, str(i + 2)
        if len(chapter) > 40:
            line = f"{chapter} {number}"
            toc.append(Text(right - printed_width(line, 11), y, line))
        else:
            toc += [Text(72, y, chapter), Text(right - printed_width(number, 11), y, number)]
    body = []
    for i, chapter in enumerate(chapters):
        y = 640 - 150 * i
        body += [Text(72, y, chapter, 14, BOLD), *wrap(BODY, 72, y - 22, 400)]
    result = parse_pages(tmp_path, [Page(toc), Page(body)])
    toc_rows = contents_rows(result)
    assert len(toc_rows) == 1
    assert f"{chapters[1]}\t3" in toc_rows[0].content
    assert "4 Records\t5" in toc_rows[0].content


def test_entries_whose_leaders_wrap_onto_a_line_of_their_own_stay_apart(
    tmp_path: Path,
) -> None:
    # Two titles fill their line, so their leaders and page number wrap onto the next; the
    # entries after each are entries of their own, and the contents is one block.
    chapters = [
        "1 General provisions",
        "2 Materials for working with the refrigeration plant",
        "3 Materials for working with the pressure vessels",
        "4 Maintenance",
        "5 Records",
    ]
    toc, y = [Text(72, 740, "Contents", 14, BOLD)], 716
    for i, chapter in enumerate(chapters):
        if len(chapter) > 40:
            toc += [Text(72, y, chapter), Text(72, y - 14, f"{LEADERS} {i + 2}")]
            y -= 28
        else:
            toc.append(_entry(72, y, chapter, i + 2))
            y -= 14
    body = []
    for i, chapter in enumerate(chapters):
        y = 660 - 120 * i
        body += [Text(72, y, chapter, 14, BOLD), *wrap(BODY, 72, y - 22, 400)]
    result = parse_pages(tmp_path, [Page(toc), Page(body)])
    toc_rows = contents_rows(result)
    assert len(toc_rows) == 1
    entries = toc_rows[0].content.splitlines()[1:]
    assert [entry.split("\t")[0].split(" ...")[0] for entry in entries] == chapters
    assert entries[1] == f"{chapters[1]}\t3"
    assert [r.heading for r in outline_rows(result)] == chapters


def test_a_contents_with_column_headings_lists_the_headings_and_is_none(tmp_path: Path) -> None:
    # "Section  Page" heads the contents' columns: the contents stays one, its title and
    # column headings no headings, and it gives the sections their levels.
    chapters = ["1 General provisions", "2 Operation", "3 Maintenance"]
    toc = [Text(72, 740, "CONTENTS", 14, BOLD), Text(72, 720, "Section", 12, BOLD)]
    toc.append(Text(500, 720, "Page", 12, BOLD))
    for i, chapter in enumerate(chapters):
        toc.append(_entry(72, 700 - 16 * i, chapter, i + 2, 12))
    body = []
    for i, chapter in enumerate(chapters):
        y = 640 - 150 * i
        body += [Text(72, y, chapter, 14, BOLD), *wrap(BODY, 72, y - 22, 400)]
    result = parse_pages(tmp_path, [Page(toc), Page(body)])
    assert [(r.heading, r.level) for r in outline_rows(result)] == [(c, 1) for c in chapters]
    toc_text = "".join(r.content for r in contents_rows(result))
    assert "Section" in toc_text


def test_a_contents_of_two_entries_names_its_sections(tmp_path: Path) -> None:
    # Two dot-leader entries, then the two titles they list, with nothing written below
    # them yet: the contents lists them, they are the document's headings.
    entries = enumerate(("Title", "Title2"))
    toc = [Text(72, 740 - 18 * i, f"{title} {LEADERS} 2", 12, BOLD) for i, title in entries]
    titles = Page([Text(72, 740, "Title", 16), Text(72, 700, "Title2", 16)])
    result = parse_pages(tmp_path, [Page(toc), titles])
    assert [r.heading for r in outline_rows(result)] == ["Title", "Title2"]


@pytest.mark.parametrize("grade", ["Mild", "did", "mix"])
def test_a_word_of_roman_numeral_letters_after_a_gap_is_no_page_number(
    tmp_path: Path, grade: str
) -> None:
    # A two-column list of symptoms and their grades: the grade after a wide gap is a word
    # made of the letters roman numerals use ("Mild" in two cases, "did" ill-formed, "mix"
    # past any front matter's page): no entry's page number, so the lines read as they do
    # with any other word there ("Severe"), not as a table of contents' entries.
    def text_of(word: str) -> list[str]:
        rows = [("Cough", word), ("Fever", "Severe"), ("Rash", word), ("Pain", "Severe")]
        items = [Text(72, 740, "Symptoms and their grades", 14, BOLD)]
        items += [*wrap(BODY, 72, 716, 400), *unruled_rows(rows, (72, 300), 640, 14)]
        (tmp_path / word).mkdir()
        result = parse_pages(tmp_path / word, [Page(items)])
        return [row.content.replace(word, "Severe") for row in result.rows]

    found = text_of(grade)
    assert found == text_of("Severe")
    assert "\t" not in "".join(found)


def test_a_contents_setting_its_chapters_larger_than_their_sections_gives_their_levels(
    tmp_path: Path,
) -> None:
    # Every entry at one indentation, none numbered: the chapters' entries set larger
    # than their sections' (small capitals) say which entries are the sections.
    outline = [("Preface", 1), ("Scope", 2), ("Terms", 2), ("Operation", 1), ("Records", 2)]
    toc = [Text(72, 740, "Contents", 14, BOLD)]
    for i, (title, level) in enumerate(outline):
        toc += [Text(72, 716 - 16 * i, title.upper(), 11 if level == 1 else 9, BOLD)]
        toc += [Text(500, 716 - 16 * i, str(i + 2), 11, BOLD)]
    body = []
    for i, (title, level) in enumerate(outline):
        y = 700 - 130 * i
        body += [Text(72, y, title, 16 if level == 1 else 13), *wrap(BODY, 72, y - 22, 400)]
    result = parse_pages(tmp_path, [Page(toc), Page(body)])
    assert [(r.heading, r.level) for r in outline_rows(result)] == outline


def test_a_running_header_repeating_the_chapter_title_is_not_the_chapter(
    tmp_path: Path,
) -> None:
    # A manual prints its chapter's title small atop each page, over the title itself: the
    # contents' entry names the title, set large, not the header above it; the header
    # heads nothing, and the chapters' sections stay below their chapters.
    chapters = ["Introduction", "Installation", "Tutorial"]
    toc = [Text(72, 740, "Contents", 14, BOLD)]
    for i, chapter in enumerate(chapters):
        toc += [
            _entry(72, 716 - 32 * i, chapter, i + 2),
            _entry(90, 700 - 32 * i, f"{chapter} steps", i + 2),
        ]
    pages = [Page(toc)]
    for chapter in chapters:
        items = [Text(72, 760, chapter, 8), Text(72, 720, chapter, 16, BOLD)]
        items += [*wrap(BODY, 72, 696, 400), Text(72, 600, f"{chapter} steps", 12, BOLD)]
        pages.append(Page([*items, *wrap(BODY, 72, 580, 400)]))
    result = parse_pages(tmp_path, pages)
    skipped = ("Contents", PREFACE_HEADING)
    sections = [(r.heading, r.level) for r in outline_rows(result) if r.heading not in skipped]
    assert sections == [
        (name, level) for c in chapters for name, level in ((c, 1), (f"{c} steps", 2))
    ]


def test_a_contents_over_facing_pages_with_their_own_margins_keeps_its_levels(
    tmp_path: Path,
) -> None:
    # A booklet's right page sets its text 40 pt further in than its left page: the
    # contents' chapters (bold, larger) and sections (regular) start at one indentation on
    # each page, but the second page's are all 40 pt left of the first's.
    outline = [
        ("Diagnosis", 1), ("Mammogram", 2), ("Biopsy", 2),
        ("Treatment", 1), ("Surgery", 2), ("Radiotherapy", 2),
        ("Living well", 1), ("Nerve pain", 2), ("Wigs", 2),
    ]  # fmt: skip
    pages = [outline[:4], outline[4:]]
    assert _outline_under_contents(tmp_path, pages, lambda page, _: (112, 72)[page]) == outline


def test_a_contents_page_of_deeper_entries_alone_keeps_them_deeper(tmp_path: Path) -> None:
    # The contents' second page lists a section's subsections alone, set as the sections
    # are but further in: one look of entry further right is a deeper level, not a margin.
    outline = [("Scope", 1), ("Terms", 2), ("Records", 1), ("Forms", 2)]
    outline += [("Form A", 3), ("Form B", 3)]
    pages = [outline[:4], outline[4:]]
    indent = {1: 72, 2: 96, 3: 120}
    assert _outline_under_contents(tmp_path, pages, lambda _, level: indent[level]) == outline
