"""A section's title a tagged page marks as furniture (a Word author's title in the header
of a chapter's first page): read as text where the document names it as a title."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import BODY, BOLD, LOREM, Bookmark, Page, Tag, Text, parse_pages, wrap

TITLES = ["Preface", "Chapter 1 Introduction", "Chapter 2 Operation"]
#: Chapter 1's text: long enough a stretch for its title to be found among the tags'.
CHAPTER = " ".join([BODY, LOREM] * 6)


def _document(*, title_in_header: bool, running_head: bool):
    # Preface and Chapter 2 tagged as headings; Chapter 1 over three pages of text, its
    # title in the header of its first page (an artifact) when ``title_in_header``;
    # ``running_head``: every page repeats Chapter 1's title at its top as an artifact.
    pages, tags, bookmarks = [], [], []
    for number, title in enumerate([TITLES[0], TITLES[1], "", "", TITLES[2]]):
        items = []
        if running_head:
            items.append(Text(72, 770, TITLES[1], 9, artifact=True))
        if title:
            bookmarks.append(Bookmark(title, 1, number, 740))
            if title == TITLES[1] and title_in_header:
                items.append(Text(72, 720, title, 16, BOLD, artifact=True))
            else:
                items.append(Text(72, 720, title, 16, BOLD, mcid=0))
                tags.append(Tag("H1", number, (0,)))
        items.extend(wrap(CHAPTER if number in (1, 2, 3) else BODY, 72, 695, 460, mcid=1))
        tags.append(Tag("P", number, (1,)))
        pages.append(Page(items))
    return pages, {"tags": tags, "bookmarks": bookmarks}


def test_a_bookmarked_title_marked_as_furniture_is_read_as_a_heading(tmp_path: Path) -> None:
    pages, marks = _document(title_in_header=True, running_head=False)
    result = parse_pages(tmp_path, pages, **marks)
    assert [(r.heading, r.level) for r in result.rows] == [(title, 1) for title in TITLES]
    assert result.content.count(TITLES[1]) == 1
    assert "Operations Manual" not in result.content and "Plant Log" not in result.content


def test_a_running_head_repeating_a_title_stays_furniture(tmp_path: Path) -> None:
    # The title in the body (tagged), the same words at the top of every page (artifacts):
    # the title is read once, as its heading.
    pages, marks = _document(title_in_header=False, running_head=True)
    result = parse_pages(tmp_path, pages, **marks)
    assert [(r.heading, r.level) for r in result.rows] == [(title, 1) for title in TITLES]
    assert result.content.count(TITLES[1]) == 1
    assert "Operations Manual" not in result.content and "Plant Log" not in result.content


def test_a_named_line_of_furniture_under_the_pages_text_is_no_title(tmp_path: Path) -> None:
    # A page whose furniture under its text (a copy of a table set as artifacts) holds a
    # cell's line reading as a title a bookmark names there too: not in a header's place,
    # not read.
    pages, marks = _document(title_in_header=False, running_head=False)
    copy = [Text(72, 740, "Notes of the inspectors on the plant log", 11, mcid=0)]
    copy.append(Text(72, 706, TITLES[1], 11, artifact=True))
    pages.insert(2, Page(copy))
    marks["bookmarks"] = [
        Bookmark(b.title, b.level, b.page + (b.page >= 2), b.y) for b in marks["bookmarks"]
    ]
    marks["tags"] = [Tag(t.role, t.page + (t.page >= 2), t.mcids) for t in marks["tags"]]
    marks["tags"].append(Tag("P", 2, (0,)))
    marks["bookmarks"].append(Bookmark(TITLES[1], 2, 2, 740))
    result = parse_pages(tmp_path, pages, **marks)
    assert [(r.heading, r.level) for r in result.rows] == [(title, 1) for title in TITLES]
    assert result.content.count(TITLES[1]) == 1
    assert "Operations Manual" not in result.content and "Plant Log" not in result.content


def test_a_title_set_larger_in_the_header_is_read_though_nothing_names_it(tmp_path: Path) -> None:
    # Chapter 1's title in the header of its first page, set larger than the text, and no
    # bookmark for it: read by its size, as a chapter's title at the bookmarks' top level.
    # A footer set smaller than the text, and a running head set as large as the title on
    # every page, stay furniture.
    pages, marks = _document(title_in_header=True, running_head=False)
    for number, page in enumerate(pages):
        page.items.append(Text(72, 40, f"Operations Manual {number + 1}", 9, artifact=True))
        page.items.append(Text(72, 770, "Plant Log", 16, artifact=True))
    marks["bookmarks"] = [b for b in marks["bookmarks"] if b.title != TITLES[1]]
    result = parse_pages(tmp_path, pages, **marks)
    assert [(r.heading, r.level) for r in result.rows] == [(title, 1) for title in TITLES]
    assert result.content.count(TITLES[1]) == 1
    assert "Operations Manual" not in result.content and "Plant Log" not in result.content
