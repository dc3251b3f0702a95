"""A printed table of contents is one block of contents, read as a reader reads it: its
entries' titles and page numbers, never a table, a heading or leaders."""

from __future__ import annotations

import json
from pathlib import Path

from lightrag_pchunk.cli.main import main

from pdf_builders import (
    BODY,
    BOLD,
    Page,
    Text,
    build_pdf,
    contents_rows,
    outline_rows,
    parse_pages,
    printed_width,
    tags_of,
    wrap,
)

SECTIONS = [
    ("1", "General provisions", 2),
    ("1.1", "Scope", 2),
    ("1.1.1", "Terms used", 2),
    ("1.1.2", "Who reads this", 3),
    ("1.1.3", "Where it applies", 3),
    ("1.2", "Duties", 4),
    ("1.2.1", "Daily checks", 4),
    ("1.2.2", "Weekly checks", 5),
    ("1.2.3", "Records kept", 6),
]


def _contents_page() -> Page:
    """A contents as LaTeX sets it: each entry's number, title, spaced dot leaders and page
    number printed as runs apart, the numbers and titles indented by level and the page
    numbers flush in a column at the right: they line up as a table's columns would."""
    items = [Text(57, 740, "Contents", 20, BOLD)]
    for i, (number, title, page) in enumerate(SECTIONS):
        y = 710 - 18 * i
        x, title_x = (72, 100) if number.count(".") < 2 else (95, 131)
        leaders_x = title_x + printed_width(title) + 14
        leaders = "."
        while leaders_x + printed_width(leaders + " .") < 543:
            leaders += " ."
        items += [
            Text(x, y, number, 10),
            Text(title_x, y, title, 10),
            Text(leaders_x, y, leaders, 10),
            Text(557, y, str(page), 10),
        ]
    return Page(items)


def _body_pages() -> list[Page]:
    pages = []
    for number, title, _ in SECTIONS:
        size = (16, 14, 12)[number.count(".")]
        pages.append(
            Page([Text(72, 700, f"{number} {title}", size, BOLD), *wrap(BODY, 72, 670, 400)])
        )
    return pages


def test_a_contents_printed_in_columns_is_one_contents_not_a_table(tmp_path: Path) -> None:
    result = parse_pages(tmp_path, [_contents_page(), *_body_pages()])
    contents = contents_rows(result)
    assert len(contents) == 1
    assert tags_of(result) == []
    headings = [r.heading for r in outline_rows(result)]
    assert headings == [f"{number} {title}" for number, title, _ in SECTIONS]


def test_a_contents_keeps_its_entries_and_page_numbers_without_the_leaders(
    tmp_path: Path,
) -> None:
    result = parse_pages(tmp_path, [_contents_page(), *_body_pages()])
    (contents,) = contents_rows(result)
    assert ". ." not in contents.content
    for number, title, page in SECTIONS:
        assert f"{number} {title}\t{page}" in contents.content
    # Each entry's positions still name its text on the contents' page.
    for position in contents.positions:
        assert position["anchor"] == "1"
        start, end = position["charspan"]
        assert 0 <= start < end <= len(contents.content)


def test_a_run_of_entries_with_spaced_dot_leaders_is_a_contents_without_a_title(
    tmp_path: Path,
) -> None:
    # No "Contents" over it (its title is a bookmark's page, or none): the run of entries
    # with spaced dot leaders, as LaTeX sets them, says what it is.
    items = []
    for i, (number, title, page) in enumerate(SECTIONS):
        dots = " ".join(["."] * (30 - len(title) // 2))
        items.append(Text(72, 740 - 16 * i, f"{number} {title} {dots} {page}", 10))
    result = parse_pages(tmp_path, [Page(items), *_body_pages()])
    contents = contents_rows(result)
    assert len(contents) == 1
    assert "1.2.3 Records kept\t6" in contents[0].content
    headings = [r.heading for r in outline_rows(result)]
    assert headings == [f"{number} {title}" for number, title, _ in SECTIONS]


INDEX = [
    ("Factors", "17, 57"),
    ("Formulae", "55"),
    ("Generic functions", "52"),
    ("Linear models", "58"),
    ("Ordered factors", "17, 57"),
    ("Outer products of arrays", "23"),
    ("Recycling rule", "9, 22"),
]


def test_an_index_entry_with_several_pages_is_an_entry(tmp_path: Path) -> None:
    # An index lists a term's pages after its leaders: "17, 57" ends the entry as one page
    # number would, and the next term starts an entry of its own.
    items = [Text(72, 740, "Index", 16, BOLD)]
    for i, (term, pages) in enumerate(INDEX):
        dots = " ".join(["."] * (30 - len(term) // 2))
        items.append(Text(72, 710 - 14 * i, f"{term} {dots} {pages}", 10))
    result = parse_pages(tmp_path, [*_body_pages(), Page(items)])
    (index,) = contents_rows(result)
    assert index.content.split("\n")[1:] == [f"{term}\t{pages}" for term, pages in INDEX]


def test_the_contents_make_one_chunk_or_none_with_drop_toc(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    # Its entries are one table of contents, chunked as a .docx's is: in one chunk (never
    # cut at them, never a heading), and in none under CHUNK_P_DROP_TOC.
    path = tmp_path / "doc.pdf"
    path.write_bytes(build_pdf([_contents_page(), *_body_pages()]))
    assert main(["chunk", str(path), "--json", "--size", "1200"]) == 0
    chunks = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    with_entries = [c for c in chunks if "Records kept\t6" in c["content"]]
    assert len(with_entries) == 1
    assert all(
        f"{title}\t" not in c["heading"]["heading"] for c in chunks for _, title, _ in SECTIONS
    )
    monkeypatch.setenv("CHUNK_P_DROP_TOC", "true")
    assert main(["chunk", str(path), "--json", "--size", "1200"]) == 0
    dropped = capsys.readouterr().out
    assert "Records kept\t6" not in dropped
    assert "Records kept" in dropped  # the section itself stays


def test_a_line_printed_small_between_its_pages_leaves_the_contents_one(tmp_path: Path) -> None:
    # The contents runs over two pages; the first prints a line of its own at its foot,
    # set small (a running footer printed once): the contents stays one, the line in it.
    first = [Text(72, 740, "Contents", 16, BOLD)]
    second = []
    for i, (number, title, page) in enumerate(SECTIONS):
        dots = " ".join(["."] * (30 - len(title) // 2))
        line = f"{number} {title} {dots} {page}"
        if i < 5:
            first.append(Text(72, 710 - 16 * i, line, 10))
        else:
            second.append(Text(72, 740 - 16 * (i - 5), line, 10))
    first.append(Text(72, 60, "ii Contents", 7))
    result = parse_pages(tmp_path, [Page(first), Page(second), *_body_pages()])
    contents = contents_rows(result)
    assert len(contents) == 1
    assert "1.2.3 Records kept\t6" in contents[0].content
    assert [r.heading for r in outline_rows(result)] == [
        f"{number} {title}" for number, title, _ in SECTIONS
    ]


def test_an_entry_names_no_line_without_its_number_that_only_nears_its_title(
    tmp_path: Path,
) -> None:
    """A contents whose numbers the body no longer prints ("1.1.1 Examples" listed, "1.1.2
    Examples" printed): the entry looks further on, where a code line without a number
    reads nearly as its title ("example1:" beside "Examples"). A line without the entry's
    number is its section only when it prints the very title: the code stays text."""
    sections = [("1", "Functions", 2), ("1.1", "Join", 2), ("1.1.1", "Examples", 3)]
    sections += [("1.2", "Split", 4), ("1.2.1", "Examples", 5)]
    toc = [Text(57, 740, "Contents", 20, BOLD)]
    for i, (number, title, page) in enumerate(sections):
        y = 710 - 18 * i
        toc += [Text(72, y, f"{number} {title} {'.' * 40}", 10), Text(557, y, str(page), 10)]
    pages = [Page(toc)]
    code = ["outputs:", "example1:", "value: { $join: [ a, b ] }", "example2:", "value: c"]
    for number, title, _ in sections:
        printed = "1.1.2" if number == "1.1.1" else number
        size = (16, 14, 12)[number.count(".")]
        items = [Text(72, 700, f"{printed} {title}", size, BOLD), *wrap(BODY, 72, 670, 400)]
        if title == "Examples":
            items += [Text(72, 600 - 14 * k, line, 10) for k, line in enumerate(code)]
        pages.append(Page(items))
    result = parse_pages(tmp_path, pages)
    headings = [r.heading for r in outline_rows(result)]
    assert headings == ["1 Functions", "1.1 Join", "1.1.2 Examples", "1.2 Split", "1.2.1 Examples"]
