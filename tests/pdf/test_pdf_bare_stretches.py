"""Stretches a PDF's bookmarks leave bare get the outline a reader sees in them: a book's
front matter before its first bookmark (title page, preface, foreword), and a long chapter
whose sections no bookmark names, nested below that chapter. Short stretches keep only
what the bookmarks name."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import (
    BODY,
    BOLD,
    Bookmark,
    Page,
    Text,
    headings_of,
    parse_pages,
    unruled_rows,
    wrap,
)

#: A page of text: 260 words; four such pages make a long stretch (over 800 words), one does not.
PAGE_TEXT = " ".join([BODY] * 10)


def _page(title: str | None, size: float = 16) -> Page:
    """A page of text, under ``title`` set bold at ``size`` when one is given."""
    items = [Text(72, 730, title, size, BOLD)] if title else []
    return Page([*items, *wrap(PAGE_TEXT, 72, 700, 460, 10)])


def _front_matter() -> list[Page]:
    return [
        Page([Text(150, 600, "Refrigeration Plant Handbook", 24, BOLD)]),
        _page("Preface"),
        _page(None),
        _page("Foreword"),
        _page(None),
    ]


def test_the_front_matter_before_the_first_bookmark_gets_its_headings(tmp_path: Path) -> None:
    chapters = [_page("Chapter 1 Operation"), _page("Chapter 2 Maintenance")]
    bookmarks = [
        Bookmark("Chapter 1 Operation", 1, 5, 750),
        Bookmark("Chapter 2 Maintenance", 1, 6, 750),
    ]
    result = parse_pages(tmp_path, [*_front_matter(), *chapters], bookmarks=bookmarks)
    inferred = {r.heading for r in result.rows if r.extra.get("heading_source") == "inferred"}
    assert inferred == {"Preface", "Foreword"}
    assert headings_of(result)[-2:] == [
        "Chapter 1 Operation",
        "Chapter 2 Maintenance",
    ]
    assert result.meta["doc_title"] == "Refrigeration Plant Handbook"


def test_a_long_chapter_no_bookmark_parts_gets_its_sections_below_it(tmp_path: Path) -> None:
    chapter = [
        _page("Chapter 1 Operation"),
        _page("Daily checks", 12),
        _page(None),
        _page("Weekly checks", 12),
        _page(None),
    ]
    bookmarks = [
        Bookmark("Chapter 1 Operation", 1, 0, 750),
        Bookmark("Chapter 2 Maintenance", 1, 5, 750),
    ]
    result = parse_pages(tmp_path, [*chapter, _page("Chapter 2 Maintenance")], bookmarks=bookmarks)
    by_heading = {r.heading: r for r in result.rows}
    for title in ("Daily checks", "Weekly checks"):
        assert by_heading[title].parent_headings == ("Chapter 1 Operation",)
        assert by_heading[title].level == 2  # one below the chapter, whatever its look
    assert by_heading["Chapter 2 Maintenance"].parent_headings == ()


def test_a_short_stretch_keeps_only_what_the_bookmarks_name(tmp_path: Path) -> None:
    short = Page([Text(72, 730, "Chapter 1 Operation", 16, BOLD), *wrap(BODY, 72, 700, 460)])
    short.items += [Text(72, 600, "Daily checks", 12, BOLD), *wrap(BODY, 72, 580, 460)]
    bookmarks = [
        Bookmark("Chapter 1 Operation", 1, 0, 750),
        Bookmark("Chapter 2 Maintenance", 1, 1, 750),
    ]
    result = parse_pages(tmp_path, [short, _page("Chapter 2 Maintenance")], bookmarks=bookmarks)
    assert headings_of(result) == ["Chapter 1 Operation", "Chapter 2 Maintenance"]


def test_a_bare_stretchs_heading_numbered_on_in_the_stated_series_is_their_sibling(
    tmp_path: Path,
) -> None:
    # Bookmarks name the chapter and its first section; the next section, numbered on,
    # is left out, and a long stretch follows the first: 2.2 stands beside 2.1, and the
    # title under it nests below it.
    pages = [
        _page("2 Maintenance"),
        _page("2.1 Daily checks", 12),
        _page(None),
        _page("2.2 Weekly checks", 12),
        _page("Records kept", 11),
        _page(None),
        _page("3 Repairs"),
    ]
    bookmarks = [
        Bookmark("2 Maintenance", 1, 0, 750),
        Bookmark("2.1 Daily checks", 2, 1, 750),
        Bookmark("3 Repairs", 1, 6, 750),
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    by_heading = {r.heading: r for r in result.rows}
    assert by_heading["2.2 Weekly checks"].level == 2
    assert by_heading["2.2 Weekly checks"].parent_headings == ("2 Maintenance",)
    assert by_heading["Records kept"].parent_headings == ("2 Maintenance", "2.2 Weekly checks")


def test_a_bookmarked_chapter_of_a_table_alone_is_no_stretch_read(tmp_path: Path) -> None:
    # The bookmarks state the outline: the smart outline reads the stretches of text they
    # leave, and a chapter that holds only a table (its words are no text to find a
    # heading in) is not one of them; the table counts only where styles give the outline.
    rows = [["Pump", "Inlet", "Outlet", "Flow"]]
    rows += [[f"P-{n}", f"{10 + n} bar", f"{12 + n} bar", f"{40 + n} m3/h"] for n in range(12)]
    pages = [
        Page([Text(72, 740, "Chapter 1 Operation", 16, BOLD), *wrap(BODY, 72, 700, 460)]),
        Page(
            [
                Text(72, 740, "Chapter 2 Pump schedule", 16, BOLD),
                *unruled_rows(rows, (72, 180, 290, 400), 700, 16),
            ]
        ),
    ]
    bookmarks = [
        Bookmark("Chapter 1 Operation", 1, 0, 750),
        Bookmark("Chapter 2 Pump schedule", 1, 1, 750),
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert headings_of(result) == ["Chapter 1 Operation", "Chapter 2 Pump schedule"]
    assert "<table" in result.rows[-1].content
    assert result.meta["outline"]["stretches"] == 1
