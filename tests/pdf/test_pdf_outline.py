"""The PDF outline in order of trust: the structure tree, bookmarks, then the classifier."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.model import PREFACE_HEADING
from lightrag_pchunk.pdf.bookmark_match import match_bookmarks
from lightrag_pchunk.pdf.outline import Bookmark as OutlineBookmark

from pdf_builders import (
    BODY,
    BOLD,
    CJK,
    Bookmark,
    Page,
    Tag,
    Text,
    contents_rows,
    headings_of,
    outline_rows,
    parse_pages,
    sections,
    wrap,
)


def _document() -> list[Page]:
    """Two chapters with a section each, every heading in the body's own look (only the
    outline the file states can tell them from text)."""
    return [
        Page(
            [
                Text(72, 720, "General provisions"),
                *wrap(BODY, 72, 700, 400),
                Text(72, 640, "Definitions used here"),
                *wrap(BODY, 72, 620, 400),
            ]
        ),
        Page([Text(72, 720, "Operation of the plant"), *wrap(BODY, 72, 700, 400)]),
    ]


def test_bookmarks_name_the_headings_and_their_levels(tmp_path: Path) -> None:
    bookmarks = [
        Bookmark("General provisions", 1, 0, 735),
        Bookmark("Definitions used here", 2, 0, 655),
        Bookmark("Operation of the plant", 1, 1, 735),
    ]
    result = parse_pages(tmp_path, _document(), bookmarks=bookmarks)
    found = [(r.heading, r.level, r.parent_headings) for r in result.rows]
    assert found == [
        ("General provisions", 1, ()),
        ("Definitions used here", 2, ("General provisions",)),
        ("Operation of the plant", 1, ()),
    ]
    assert result.meta["outline"]["source"] == "bookmarks"
    assert not any("heading_source" in r.extra for r in result.rows)


def test_below_the_bookmarks_the_classifier_adds_the_numbered_headings_they_leave_out(
    tmp_path: Path,
) -> None:
    # Bookmarks name the two chapters only (a producer that stops at a depth); under them
    # controls numbered "AC-2", "AC-3" set larger and bold are headings, nested under their
    # chapter and marked inferred; a bold label and a numbered list in the body's look
    # stay text, and no bookmarked heading moves.
    def chapter(title: str, codes: list[str]) -> Page:
        items = [Text(72, 740, title, 16, BOLD)]
        top = 715.0
        for code in codes:
            items += [Text(72, top, f"{code} Account Management", 13, BOLD)]
            items += wrap(BODY, 72, top - 20, 460)
            items += [Text(72, top - 70, "Examples", 11, BOLD)]
            items += wrap(BODY, 72, top - 90, 460)
            items += [Text(90, top - 135, "1. the first step"), Text(90, top - 150, "2. the next")]
            top -= 190
        return Page(items)

    pages = [chapter("Access Control", ["AC-2", "AC-3"]), chapter("Audit", ["AU-2", "AU-3"])]
    bookmarks = [Bookmark("Access Control", 1, 0, 755), Bookmark("Audit", 1, 1, 755)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    found = [
        (r.heading, r.level, r.parent_headings, r.extra.get("heading_source"))
        for r in result.rows
        if r.heading != PREFACE_HEADING
    ]
    assert found == [
        ("Access Control", 1, (), None),
        ("AC-2 Account Management", 2, ("Access Control",), "inferred"),
        ("AC-3 Account Management", 2, ("Access Control",), "inferred"),
        ("Audit", 1, (), None),
        ("AU-2 Account Management", 2, ("Audit",), "inferred"),
        ("AU-3 Account Management", 2, ("Audit",), "inferred"),
    ]
    assert result.meta["outline"]["source"] == "bookmarks"


def test_a_numbering_the_bookmarks_use_is_theirs_to_name(tmp_path: Path) -> None:
    # Bookmarks name "1 Scope" and "2 Operation": the author chose the headings of that
    # numbering, so a bold "2.1 Records" they leave out is a numbered paragraph, not a
    # heading the classifier should add.
    pages = [
        Page([Text(72, 740, "1 Scope", 16, BOLD), *wrap(BODY, 72, 715, 460)]),
        Page(
            [
                Text(72, 740, "2 Operation", 16, BOLD),
                *wrap(BODY, 72, 715, 460),
                Text(72, 660, "2.1 Records", 13, BOLD),
                *wrap(BODY, 72, 640, 460),
            ]
        ),
    ]
    bookmarks = [Bookmark("1 Scope", 1, 0, 755), Bookmark("2 Operation", 1, 1, 755)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    headings = headings_of(result)
    assert headings == ["1 Scope", "2 Operation"]
    assert "2.1 Records" in result.rows[-1].content


def _two_sections(first: str, second: str) -> Page:
    """A page of two sections, each title set bold and larger over a paragraph of body."""
    return Page(
        [
            Text(72, 740, first, 16, BOLD),
            *wrap(BODY, 72, 715, 460),
            Text(72, 640, second, 16, BOLD),
            *wrap(BODY, 72, 615, 460),
        ]
    )


def _numbered_chapters(titles: list[str]) -> list[Page]:
    """One page per numbered title, set bold and larger, over two paragraphs of body."""
    return [
        Page([Text(72, 740, title, 16, BOLD), *wrap(BODY, 72, 715, 460), *wrap(BODY, 72, 665, 460)])
        for title in titles
    ]


def test_a_numbered_heading_that_fills_a_gap_in_the_bookmarks_is_added(tmp_path: Path) -> None:
    # Bookmarks name "1 Scope" and "3 Records" (a producer skipped a heading in a style of
    # its own): "2 Operation" between them, in their look, continues "1" and is continued
    # by "3"; it is a heading at their level, marked inferred.
    pages = _numbered_chapters(["1 Scope", "2 Operation", "3 Records"])
    bookmarks = [Bookmark("1 Scope", 1, 0, 755), Bookmark("3 Records", 1, 2, 755)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    found = [(r.heading, r.level, r.extra.get("heading_source")) for r in result.rows]
    assert found == [
        ("1 Scope", 1, None),
        ("2 Operation", 1, "inferred"),
        ("3 Records", 1, None),
    ]


def test_a_member_filling_a_gap_stands_at_its_stated_siblings_level(tmp_path: Path) -> None:
    # "II. Operation" fills the gap between the bookmarks "I. Scope" and "III. Records"
    # after "A. Terms", which the bookmarks nest below "I. Scope": it is their sibling, at
    # their level, though set smaller than they are (bold at the text's size), not a
    # heading nested below the section it ends.
    pages = _numbered_chapters(["I. Scope", "A. Terms"])
    pages.append(
        Page([Text(72, 740, "II. Operation", 11, BOLD), *wrap(BODY, 72, 715, 460)]),
    )
    pages += _numbered_chapters(["III. Records"])
    bookmarks = [
        Bookmark("I. Scope", 1, 0, 755),
        Bookmark("A. Terms", 2, 1, 755),
        Bookmark("III. Records", 1, 3, 755),
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    found = [(r.heading, r.level, r.extra.get("heading_source")) for r in result.rows]
    assert found == [
        ("I. Scope", 1, None),
        ("A. Terms", 2, None),
        ("II. Operation", 1, "inferred"),
        ("III. Records", 1, None),
    ]


def test_the_member_nearest_the_bookmark_after_it_fills_the_gap(tmp_path: Path) -> None:
    # A contract numbers its clauses from "1", and so does its annex, whose "2 Goals" is
    # the first bookmark: the annex's "1 Subject of the tender" fills the gap before it,
    # not the contract's "1 Subject of the contract", which a later "1" stands after.
    pages = _numbered_chapters(["1 Subject of the contract", "1 Subject of the tender"])
    pages += _numbered_chapters(["2 Goals", "3 Funding"])
    bookmarks = [Bookmark("2 Goals", 1, 2, 755), Bookmark("3 Funding", 1, 3, 755)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    found = [(r.heading, r.extra.get("heading_source")) for r in result.rows]
    assert found == [
        (PREFACE_HEADING, None),
        ("1 Subject of the tender", "inferred"),
        ("2 Goals", None),
        ("3 Funding", None),
    ]
    assert "1 Subject of the contract" in result.rows[0].content


def test_a_numbered_line_out_of_the_bookmarks_series_stays_text(tmp_path: Path) -> None:
    # "7 Annex" neither continues "1 Scope" nor is continued by "2 Operation": whatever its
    # look, it is no member the bookmarks left out.
    pages = _numbered_chapters(["1 Scope", "7 Annex", "2 Operation"])
    bookmarks = [Bookmark("1 Scope", 1, 0, 755), Bookmark("2 Operation", 1, 2, 755)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert [r.heading for r in result.rows] == ["1 Scope", "2 Operation"]
    assert "7 Annex" in result.rows[0].content


def test_a_bookmark_naming_a_passage_or_a_bare_number_makes_no_heading(tmp_path: Path) -> None:
    # A bookmark whose title is a whole paragraph of body text (a point a reader may jump
    # to) and one naming only a number ("2.", a heading without text) are no headings:
    # their text stays in the section of the bookmark before them, nothing lost.
    passage = BODY + " " + BODY
    pages = [
        Page(
            [
                Text(72, 740, "Inspection of the plant", 16, BOLD),
                *wrap(passage, 72, 715, 460),
                Text(72, 640, "2.", 11, BOLD),
                *wrap(BODY, 72, 620, 460),
            ]
        )
    ]
    bookmarks = [
        Bookmark("Inspection of the plant", 1, 0, 755),
        Bookmark(passage, 1, 0, 728),
        Bookmark("2.", 1, 0, 653),
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert [r.heading for r in result.rows] == ["Inspection of the plant"]
    content = " ".join(result.rows[0].content.split())
    assert "inspected every week" in content and "2." in content
    assert content.count("signs the entry") == 3


def test_a_bookmark_naming_a_paragraph_over_a_headings_length_makes_no_heading(
    tmp_path: Path,
) -> None:
    # A numbered clause of few, long words, bookmarked (its paragraph carries an outline
    # level): past LightRAG's 200 characters of a heading, text, as Word's parser keeps it.
    clause = (
        "8.1.2. The contractor updates the cartographic layer «Infrastructure installations"
        " of Saint Petersburg, equipped with comprehensive telecommunications and security"
        " systems», supplied by the customer (Appendices)."
    )
    pages = [
        Page(
            [
                Text(72, 740, "8.1. Quality of the works", 16, BOLD),
                *wrap(BODY, 72, 715, 460),
                *wrap(clause, 72, 660, 460),
                *wrap(BODY, 72, 610, 460),
            ]
        )
    ]
    bookmarks = [
        Bookmark("8.1. Quality of the works", 1, 0, 755),
        Bookmark(clause, 2, 0, 673),
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert [r.heading for r in result.rows] == ["8.1. Quality of the works"]
    assert "cartographic layer" in result.rows[0].content


def test_a_long_bookmarked_title_set_apart_stays_a_heading(tmp_path: Path) -> None:
    # A title of many words set bold is a heading however long: only a passage in the
    # body's look is text.
    title = (
        "Requirements for the inspection, maintenance, repair and replacement of the plant,"
        " its pressure vessels, pipework and safety devices by the operator and the owner"
    )
    pages = [Page([*wrap(title, 72, 740, 460, 11, font=BOLD), *wrap(BODY, 72, 690, 460)])]
    result = parse_pages(tmp_path, pages, bookmarks=[Bookmark(title, 1, 0, 755)])
    assert [" ".join(r.heading.split()) for r in result.rows] == [title]


def test_a_bookmarked_title_at_the_same_height_on_many_pages_is_no_running_header(
    tmp_path: Path,
) -> None:
    # Each chapter ends with its exercises on a page of their own, titled "Exercises" at
    # the page's top, as high as the running header: a line printed at one height on three
    # pages is furniture, but the bookmarks point at these, so they are headings; the
    # running header "Plant manual" nobody points at still goes.
    pages = []
    for _ in range(3):
        pages.append(Page([Text(72, 770, "Plant manual", 9), *wrap(BODY, 72, 700, 460)]))
        pages.append(
            Page(
                [
                    Text(72, 770, "Plant manual", 9),
                    Text(72, 745, "Exercises", 14, BOLD),
                    *wrap(BODY, 72, 700, 460),
                ]
            )
        )
    bookmarks = [Bookmark("Exercises", 1, page, 760) for page in (1, 3, 5)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    assert headings_of(result) == ["Exercises"] * 3
    assert "Plant manual" not in result.content


def test_two_bookmarks_name_two_lines_of_one_printed_paragraph(tmp_path: Path) -> None:
    # A title and its subtitle set as close as a paragraph's lines read as one paragraph;
    # the bookmarks name each line: two headings, each at its bookmark's depth.
    title = "Survey of the cold store and of the refrigeration plant of the harbour of the town"
    pages = [
        Page(
            [
                Text(72, 740, title),
                Text(72, 726.8, "Findings of the inspectors"),
                *wrap(BODY, 72, 690, 460),
            ]
        )
    ]
    bookmarks = [Bookmark(title, 1, 0, 752), Bookmark("Findings of the inspectors", 2, 0, 738)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    found = [(r.heading, r.level, r.extra.get("heading_source")) for r in result.rows]
    assert found == [(title, 1, None), ("Findings of the inspectors", 2, None)]
    assert "signs the entry" in result.rows[-1].content


def test_the_structure_tree_names_headings_and_drops_artifacts(tmp_path: Path) -> None:
    pages = [
        Page(
            [
                Text(72, 770, "Running title of every page", 9, artifact=True),
                Text(72, 720, "General provisions", mcid=0),
                *wrap(BODY, 72, 700, 400, mcid=1),
                Text(72, 640, "Definitions used here", mcid=2),
                *wrap(BODY, 72, 620, 400, mcid=3),
            ]
        )
    ]
    tags = [Tag("H1", 0, (0,)), Tag("P", 0, (1,)), Tag("H2", 0, (2,)), Tag("P", 0, (3,))]
    result = parse_pages(tmp_path, pages, tags=tags)
    assert [(r.heading, r.level) for r in result.rows] == [
        ("General provisions", 1),
        ("Definitions used here", 2),
    ]
    assert "Running title" not in result.content
    assert result.meta["outline"]["source"] == "tagged"


def test_a_tagged_paragraph_over_a_page_break_takes_no_other_text_of_its_pages(
    tmp_path: Path,
) -> None:
    # The paragraph under "General provisions" runs on to page 2, where its content has
    # the marked-content ids 0 and 1. Those ids number each page's own content: on page 1,
    # id 0 is the heading (and id 1 the paragraph), and both headings keep their role.
    pages = [
        Page(
            [
                Text(72, 720, "General provisions", mcid=0),
                *wrap(BODY, 72, 700, 400, mcid=1),
            ]
        ),
        Page(
            [
                *wrap(BODY, 72, 720, 400, mcid=0),
                Text(72, 640, "Definitions used here", mcid=1),
                *wrap(BODY, 72, 620, 400, mcid=2),
            ]
        ),
    ]
    tags = [
        Tag("H1", 0, (0,)),
        Tag("P", 0, (1,), later=((1, 0),)),
        Tag("H2", 1, (1,)),
        Tag("P", 1, (2,)),
    ]
    result = parse_pages(tmp_path, pages, tags=tags)
    assert [(r.heading, r.level) for r in result.rows] == [
        ("General provisions", 1),
        ("Definitions used here", 2),
    ]
    assert result.content.count("signs the entry") == 3


def test_a_chapter_the_tags_left_as_text_continues_their_numbered_series(
    tmp_path: Path,
) -> None:
    # "CHAPTER 2" is tagged P between the tagged "CHAPTER 1" and "CHAPTER 3", in their look;
    # "Section 4 ..." in the body's look stays text.
    titles = ["CHAPTER 1 General provisions", "CHAPTER 2 Operation", "CHAPTER 3 Records"]
    pages, tags = [], []
    for number, title in enumerate(titles):
        first = 3 * number
        pages.append(
            Page(
                [
                    Text(72, 720, title, 16, BOLD, mcid=first),
                    *wrap(BODY, 72, 695, 400, mcid=first + 1),
                    Text(72, 600, "Section 4 of the code applies.", mcid=first + 2),
                ]
            )
        )
        tags.append(Tag("P" if number == 1 else "H1", number, (first,)))
        tags.append(Tag("P", number, (first + 1, first + 2)))
    result = parse_pages(tmp_path, pages, tags=tags)
    assert [(r.heading, r.level) for r in result.rows] == [(title, 1) for title in titles]
    assert result.content.count("Section 4 of the code applies.") == 3


def test_only_the_next_member_of_a_tagged_series_continues_it(tmp_path: Path) -> None:
    # Tagged "1.2 Scope"; then, tagged as text in its look, "1.3 Records" (its next
    # sibling: a heading) and later "2.4 Registers" (its last number follows 3, but 2.4 is
    # no member after 1.3: text).
    items = [
        Text(72, 740, "1 General provisions", 16, BOLD, mcid=0),
        Text(72, 715, "1.2 Scope of the rules", 13, BOLD, mcid=1),
        *wrap(BODY, 72, 695, 400, mcid=2),
        Text(72, 620, "1.3 Records of the plant", 13, BOLD, mcid=3),
        *wrap(BODY, 72, 600, 400, mcid=4),
        Text(72, 525, "2.4 Registers of the plant", 13, BOLD, mcid=5),
        *wrap(BODY, 72, 505, 400, mcid=6),
    ]
    roles = ["H1", "H2", "P", "P", "P", "P", "P"]
    tags = [Tag(role, 0, (mcid,)) for mcid, role in enumerate(roles)]
    result = parse_pages(tmp_path, [Page(items)], tags=tags)
    assert [(r.heading, r.level) for r in result.rows] == [
        ("1 General provisions", 1),
        ("1.2 Scope of the rules", 2),
        ("1.3 Records of the plant", 2),
    ]
    assert "2.4 Registers of the plant" in result.rows[-1].content


def test_a_numbered_list_after_a_tagged_heading_in_the_body_look_stays_text(
    tmp_path: Path,
) -> None:
    # References "1." to "3.": the first tagged as a heading by mistake, all in the body's
    # look; the next numbers are no headings (nothing sets them apart from the body).
    references = [f"{n}. Plant log of the year 20{n + 10}, volume {n}." for n in (1, 2, 3)]
    items = [*wrap(BODY, 72, 740, 400, mcid=0)]
    items += [Text(72, 690 - 20 * i, text, mcid=i + 1) for i, text in enumerate(references)]
    tags = [Tag("P", 0, (0,)), Tag("H1", 0, (1,)), Tag("P", 0, (2,)), Tag("P", 0, (3,))]
    result = parse_pages(tmp_path, [Page(items)], tags=tags)
    assert headings_of(result) == [references[0]]
    assert all(text in result.content for text in references[1:])


def test_a_long_untagged_stretch_after_the_tagged_headings_gets_inferred_ones(
    tmp_path: Path,
) -> None:
    # Two tagged chapters, then two annexes the producer tagged as text, each over a page
    # of prose: the classifier reads that stretch (over 800 words without a heading).
    long_body = " ".join([BODY] * 20)
    pages = [
        Page(
            [
                Text(72, 720, "CHAPTER 1 General provisions", 16, BOLD, mcid=0),
                *wrap(BODY, 72, 695, 460, mcid=1),
            ]
        ),
        Page(
            [
                Text(72, 720, "CHAPTER 2 Operation", 16, BOLD, mcid=0),
                *wrap(BODY, 72, 695, 460, mcid=1),
            ]
        ),
        Page(
            [
                Text(72, 720, "ANNEX 1 Forms", 16, BOLD, mcid=0),
                *wrap(long_body, 72, 695, 460, mcid=1),
            ]
        ),
        Page(
            [
                Text(72, 720, "ANNEX 2 Registers", 16, BOLD, mcid=0),
                *wrap(long_body, 72, 695, 460, mcid=1),
            ]
        ),
    ]
    roles = ["H1", "H1", "P", "P"]
    tags = [
        t for page, role in enumerate(roles) for t in (Tag(role, page, (0,)), Tag("P", page, (1,)))
    ]
    result = parse_pages(tmp_path, pages, tags=tags)
    found = [(r.heading, r.extra.get("heading_source")) for r in result.rows]
    assert found == [
        ("CHAPTER 1 General provisions", None),
        ("CHAPTER 2 Operation", None),
        ("ANNEX 1 Forms", "inferred"),
        ("ANNEX 2 Registers", "inferred"),
    ]
    assert result.meta["outline"]["source"] == "tagged"


def test_without_a_stated_outline_size_weight_and_numbering_decide(tmp_path: Path) -> None:
    pages = [
        Page(
            [
                Text(72, 720, "1 General provisions", 16, BOLD),
                *wrap(BODY, 72, 695, 400),
                Text(72, 640, "1.1 Definitions used here", 13, BOLD),
                *wrap(BODY, 72, 620, 400),
                Text(72, 560, "1.2 Scope of the rules", 13, BOLD),
                *wrap(BODY, 72, 540, 400),
            ]
        )
    ]
    result = parse_pages(tmp_path, pages)
    found = [(r.heading, r.level, r.extra.get("heading_source")) for r in result.rows]
    assert found == [
        ("1 General provisions", 1, "inferred"),
        ("1.1 Definitions used here", 2, "inferred"),
        ("1.2 Scope of the rules", 2, "inferred"),
    ]
    assert result.meta["outline"]["source"] == "inferred"


def test_headings_set_larger_but_not_bold_keep_their_tiers_and_bold_labels_stay_text(
    tmp_path: Path,
) -> None:
    # A template whose headings are larger only (20, 16 pt), their numbers unprinted but
    # for one ("9.2 Constants"), with a run-in "Examples" in bold at the text's size
    # after each: the numbered one sits at its look's level, "Examples" is no heading.
    chapters = {
        "Introduction": ["Overview", "Document conventions", "Terminology"],
        "Common data types": ["Binary", "9.2 Constants", "Identifiers"],
    }
    pages = []
    for chapter, titles_under in chapters.items():
        items = [Text(72, 750, chapter, 20)]
        for number, title in enumerate(titles_under):
            y = 710 - 200 * number
            items += [Text(72, y, title, 16), *wrap(BODY, 72, y - 20, 460)]
            items += [Text(72, y - 60, "Examples", 11, BOLD), *wrap(BODY, 72, y - 80, 460)]
        pages.append(Page(items))
    result = parse_pages(tmp_path, pages)
    found = sections(result)
    assert found == [
        (title, level)
        for chapter, titles_under in chapters.items()
        for title, level in [(chapter, 1), *((section, 2) for section in titles_under)]
    ]
    assert result.content.count("Examples") == 6


def test_a_printed_table_of_contents_is_a_toc_block_not_headings(tmp_path: Path) -> None:
    entries = ["1 General provisions", "2 Definitions", "3 Operation", "4 Maintenance"]
    toc = [Text(72, 720, "Contents", 14, BOLD)]
    for i, entry in enumerate(entries):
        y = 700 - 16 * i
        toc += [Text(72, y, entry), Text(500, y, str(i + 2))]
    pages = [
        Page(toc),
        Page([Text(72, 720, "1 General provisions", 16, BOLD), *wrap(BODY, 72, 695, 400)]),
    ]
    result = parse_pages(tmp_path, pages)
    toc_rows = contents_rows(result)
    assert len(toc_rows) == 1
    assert "2 Definitions\t3" in toc_rows[0].content
    headings = [r.heading for r in outline_rows(result)]
    assert headings == ["1 General provisions"]
    assert PREFACE_HEADING not in headings


def test_a_printed_entry_numbered_below_another_is_its_child_however_indented(
    tmp_path: Path,
) -> None:
    # The table indents "1.1.1" no further than "1.1": its number puts it below "1.1".
    entries = [(72, "1 General provisions"), (90, "1.1 Scope"), (90, "1.1.1 Terms used")]
    entries.append((72, "2 Operation"))
    toc = [Text(72, 720, "Contents", 14, BOLD)]
    for i, (x, entry) in enumerate(entries):
        toc += [Text(x, 700 - 16 * i, entry), Text(500, 700 - 16 * i, str(i + 2))]
    body = []
    for i, (_, entry) in enumerate(entries):
        y = 740 - 150 * i
        body += [Text(72, y, entry, 12, BOLD), *wrap(BODY, 72, y - 22, 400)]
    result = parse_pages(tmp_path, [Page(toc), Page(body)])
    found = [(r.heading, r.level) for r in outline_rows(result)]
    assert found == [
        ("1 General provisions", 1),
        ("1.1 Scope", 2),
        ("1.1.1 Terms used", 3),
        ("2 Operation", 1),
    ]
    assert result.meta["outline"]["source"] == "toc"


def test_headings_a_printed_table_of_contents_leaves_out_are_read_around_its_own(
    tmp_path: Path,
) -> None:
    # The table lists the chapters only; the sections under them, set bold and larger
    # than the text, are headings all the same, below their chapter, though each chapter
    # is far shorter than the stretch a styled document is read in.
    entries = ["1 General provisions", "2 Operation", "3 Maintenance"]
    toc = [Text(72, 720, "Contents", 14, BOLD)]
    for i, entry in enumerate(entries):
        toc += [Text(72, 700 - 16 * i, entry), Text(500, 700 - 16 * i, str(i + 2))]
    pages = [Page(toc)]
    for entry in entries:
        body = [Text(72, 740, entry, 16, BOLD), *wrap(BODY, 72, 715, 400)]
        body += [Text(72, 640, f"Duties under {entry[2:].lower()}", 12.5, BOLD)]
        body += wrap(BODY, 72, 615, 400)
        pages.append(Page(body))
    result = parse_pages(tmp_path, pages)
    found = [(r.heading, r.level) for r in outline_rows(result)]
    assert found == [
        ("1 General provisions", 1),
        ("Duties under general provisions", 2),
        ("2 Operation", 1),
        ("Duties under operation", 2),
        ("3 Maintenance", 1),
        ("Duties under maintenance", 2),
    ]
    assert result.meta["outline"]["source"] == "toc"


def test_an_entry_wrapped_over_lines_keeps_the_table_of_contents_whole(tmp_path: Path) -> None:
    toc = [
        Text(72, 740, "Contents", 14, BOLD),
        Text(72, 720, "1 General provisions"),
        Text(500, 720, "2"),
        Text(72, 706, "2 Decision of the Standing"),
        Text(90, 692, "Committee on the method of"),
        Text(90, 678, "selecting the Chief Executive"),
        Text(500, 678, "3"),
        Text(72, 664, "3 Operation of the plant"),
        Text(500, 664, "4"),
        Text(72, 650, "4 Maintenance of the plant"),
        Text(500, 650, "5"),
    ]
    titles = [
        "1 General provisions",
        "2 Decision of the Standing Committee on the method of selecting the Chief Executive",
        "3 Operation of the plant",
        "4 Maintenance of the plant",
    ]
    # The body's pages are wide enough for the long title on one line (text past a page's
    # edge is not read).
    body = [
        Page([Text(72, 720, t, 16, BOLD), *wrap(BODY, 72, 695, 400)], width=1000) for t in titles
    ]
    result = parse_pages(tmp_path, [Page(toc), *body])
    toc_rows = contents_rows(result)
    assert len(toc_rows) == 1
    assert "Committee on the method of selecting the Chief Executive\t3" in toc_rows[0].content
    assert "4 Maintenance of the plant\t5" in toc_rows[0].content
    others = [r.heading for r in outline_rows(result)]
    assert others == titles


def test_lines_tagged_apart_but_printed_as_one_paragraph_are_one(tmp_path: Path) -> None:
    # A producer tagged each printed line as a paragraph of its own: a line that runs to
    # the column's end without ending its sentence goes on in the next line.
    lines = [
        (94, "任何公民享有憲法和法律規定的權利同時必須"),
        (72, "履行憲法和法律規定的義務。"),
        (94, "國家尊重和保障人權。"),
    ]
    items = [Text(x, 720 - 14 * i, text, font=CJK, mcid=i) for i, (x, text) in enumerate(lines)]
    result = parse_pages(tmp_path, [Page(items)], tags=[Tag("P", 0, (i,)) for i in range(3)])
    assert [r.heading for r in result.rows] == [PREFACE_HEADING]
    assert "權利同時必須履行憲法" in result.content
    assert "義務。\n國家尊重" in result.content


def test_a_centred_title_over_two_lines_is_one_heading(tmp_path: Path) -> None:
    # The title centred over two lines, then its date centred over two more: one heading,
    # its date a line of text.
    def centred(y: float, text: str, size: float) -> Text:
        return Text(72 + (330 - size * len(text)) / 2, y, text, size, CJK)

    body = "香港特別行政區自一九九七年七月一日起設立，其區域範圍由國務院另行公布。" * 4
    items = [
        centred(740, "全國人民代表大會關於", 16),
        centred(720.8, "設立香港特別行政區的決定", 16),
        centred(690, "(1990年4月4日第七屆全國人民代表大會", 11),
        centred(676, "第三次會議通過)", 11),
        *[Text(72, 650 - 14 * i, body[30 * i : 30 * i + 30], font=CJK) for i in range(4)],
    ]
    result = parse_pages(tmp_path, [Page(items)])
    assert [r.heading for r in result.rows] == ["全國人民代表大會關於設立香港特別行政區的決定"]
    assert "(1990年4月4日第七屆全國人民代表大會第三次會議通過)\n" in result.content


def test_a_bookmark_never_names_a_line_of_another_number() -> None:
    # "4.2" points at a page where its heading is not printed (inside a table); the next
    # page's "4.2.1 …" is its child's, which its own bookmark names.
    bookmarks = [
        OutlineBookmark("4.2 Individual Entries", 2, 1),
        OutlineBookmark("4.2.1 Individual Entries: Findings", 3, 2),
    ]
    texts = [["table-1"], ["4.2.1 Individual Entries: Findings"], [BODY]]
    matches = match_bookmarks(bookmarks, texts, [1, 2, 2])
    assert [(m.bookmark, m.paragraph) for m in matches] == [(1, 1)]


def test_a_title_starts_its_paragraph_never_the_line_of_code_before_it() -> None:
    # Entries of a printed table of contents (no page): "5.4.8 Property assignment"
    # follows a line of code that ends an example; the title reads alike from that line
    # on ("secure: true" + the title), but names only its own paragraph. A caption's
    # label before a title on its line does not stop it ("Table C-14. Database Scans").
    entries = [
        OutlineBookmark("5.4.8 Property assignment", 3, None),
        OutlineBookmark("Database Scans: False Positive Reports", 2, None),
    ]
    texts = [
        ["properties:"],
        ["secure: true"],
        ["5.4.8 Property assignment"],
        [BODY],
        ["Table C-14. Database Scans: False Positive Reports"],
        [BODY],
    ]
    matches = match_bookmarks(entries, texts, [1, 1, 1, 1, 2, 2])
    assert [(m.bookmark, m.paragraph, m.lines) for m in matches] == [(0, 2, 1), (1, 4, 1)]


def test_a_title_printed_as_several_paragraphs_is_one_heading(tmp_path: Path) -> None:
    # An annex title set on three lines far apart (three paragraphs on the page), named
    # by one bookmark: one heading of the three lines, the text after it its body.
    pages = [
        Page([Text(72, 740, "1 Scope", 16, BOLD), *wrap(BODY, 72, 715, 460)]),
        Page(
            [
                Text(250, 740, "Annex A", 14, BOLD),
                Text(230, 715, "(informative)", 14, BOLD),
                Text(200, 690, "Safety factor matrix", 14, BOLD),
                *wrap(BODY, 72, 650, 460),
            ]
        ),
    ]
    bookmarks = [
        Bookmark("1 Scope", 1, 0, 755),
        Bookmark("Annex A (informative) Safety factor matrix", 1, 1, 755),
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    rows = sections(result)
    assert rows == [("1 Scope", 1), ("Annex A (informative) Safety factor matrix", 1)]
    assert "refrigeration plant" in result.rows[-1].content
    assert not result.warnings


def test_a_bookmark_pointing_at_a_later_line_of_a_paragraph_names_it(tmp_path: Path) -> None:
    # "Operation of the plant" is set in the body's look at the body's line spacing, right
    # after a full line of the first chapter's text: one printed paragraph. Its bookmark
    # points at that line: the line is the heading, the lines before it stay the first
    # chapter's.
    lines = wrap(f"{BODY} {BODY}", 72, 700, 400)[:-1]
    below = lines[-1].y - 13.2
    heading = Text(72, below, "Operation of the plant")
    pages = [
        Page(
            [
                Text(72, 740, "General provisions", 16, BOLD),
                *lines,
                heading,
                *wrap(BODY, 72, below - 13.2, 400),
            ]
        )
    ]
    bookmarks = [
        Bookmark("General provisions", 1, 0, 755),
        Bookmark("Operation of the plant", 1, 0, below + 11),
    ]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    rows = [(r.heading, r.content.count("refrigeration")) for r in result.rows]
    assert rows == [("General provisions", 2), ("Operation of the plant", 1)]
    assert not result.warnings


def test_numbered_headings_after_the_bookmarked_ones_are_found_and_running_titles_are_not(
    tmp_path: Path,
) -> None:
    # Bookmarks name the chapters and their sections; the appendices after them are not
    # bookmarked (a style the producer left out): bold and numbered in a family of their
    # own, they are headings. A bold numbered title printed again over each table of
    # controls is a running title, not a heading.
    def running(top: float) -> list[Text]:
        return [
            Text(72, top, "Schedule Z Security Controls", 13, BOLD),
            *wrap(BODY, 72, top - 20, 460),
        ]

    pages = [
        Page(
            [
                Text(72, 740, "1 Scope", 16, BOLD),
                Text(72, 715, "1.1 Purpose", 13, BOLD),
                *wrap(BODY, 72, 695, 460),
                *running(600),
                *running(450),
            ]
        ),
        _two_sections("Appendix A Acronyms", "Appendix B Scan Results"),
    ]
    bookmarks = [Bookmark("1 Scope", 1, 0, 755), Bookmark("1.1 Purpose", 2, 0, 730)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    found = [
        (r.heading, r.extra.get("heading_source"))
        for r in result.rows
        if r.heading != PREFACE_HEADING
    ]
    assert found == [
        ("1 Scope", None),
        ("1.1 Purpose", None),
        ("Appendix A Acronyms", "inferred"),
        ("Appendix B Scan Results", "inferred"),
    ]


def test_a_printed_entry_is_never_matched_at_a_table_before_its_heading() -> None:
    # A table (its stand-in has no lines of text) right before "1.3 Basic Terminology":
    # the entry names the heading's paragraph, never the table run on into it.
    entries = [OutlineBookmark("1.3 Basic Terminology", 2, None)]
    texts = [[BODY], [], ["1.3 Basic Terminology"], [BODY]]
    matches = match_bookmarks(entries, texts, [1, 1, 1, 1])
    assert [(m.bookmark, m.paragraph, m.lines) for m in matches] == [(0, 2, 1)]


def test_headings_set_small_and_bold_are_headings_and_small_plain_lines_stay_text(
    tmp_path: Path,
) -> None:
    # Headings in bold a size below the text (a house style of some publishers), and a
    # footnote in the same small size, not bold: the headings are found, the footnote is
    # a line of text of its section.
    titles = ["Scope of the inspection", "Records kept on site", "Weekly tests of the plant"]
    items: list[Text] = []
    for number, title in enumerate(titles):
        y = 740 - 180 * number
        items += [Text(72, y, title, 10.5, BOLD), *wrap(BODY, 72, y - 22, 400, size=12)]
    items.append(Text(72, 200, "1 The log is kept for five years.", 10.5))
    result = parse_pages(tmp_path, [Page(items)])
    assert headings_of(result) == titles
    assert "1 The log is kept for five years." in result.rows[-1].content


def test_a_centred_lead_in_ending_in_a_colon_and_its_title_are_one_heading(
    tmp_path: Path,
) -> None:
    # "Part One:" centred over its title in the same look: one heading, as "Part Two:"
    # over its own.
    def centred(y: float, text: str) -> Text:
        # About 8 points a character: centred on the text's column (72 to 464).
        return Text(268 - 4.0 * len(text), y, text, 16, BOLD)

    items = []
    for number, (lead_in, title) in enumerate(
        [("Part One:", "The plant and its keepers"), ("Part Two:", "Tests and their records")]
    ):
        y = 740 - 300 * number
        items += [centred(y, lead_in), centred(y - 20, title), *wrap(BODY, 72, y - 50, 460)]
    result = parse_pages(tmp_path, [Page(items)])
    assert [r.heading for r in result.rows] == [
        "Part One: The plant and its keepers",
        "Part Two: Tests and their records",
    ]


def test_a_displayed_equation_set_large_is_no_heading(tmp_path: Path) -> None:
    # Equations on lines of their own, set larger as equation editors print their glyphs:
    # their operators and one- or two-letter names make no title, the text stays whole.
    items = [*wrap(BODY, 72, 720, 400)]
    for number, formula in enumerate(["Xn∩Yn", "∑ Ak − 1"]):
        items += [Text(250, 640 - 120 * number, formula, 16, CJK)]
        items += wrap(BODY, 72, 615 - 120 * number, 400)
    result = parse_pages(tmp_path, [Page(items)])
    assert [r.heading for r in result.rows] == [PREFACE_HEADING]
    assert "Xn∩Yn" in result.content and "∑ Ak − 1" in result.content


def test_a_title_printed_at_one_height_on_many_pages_is_no_section(tmp_path: Path) -> None:
    # A report printing its table's title again over each page of the table, inside the
    # text area (out of the bands of page furniture): the title stays text, read once per
    # page, and makes no section of each page; the chapter headings stay.
    pages = []
    for number in range(1, 5):
        items = [Text(72, 680, f"{number} Results of run {number}", 16, BOLD)]
        items += wrap(BODY, 72, 655, 400)
        items += [Text(72, 560, "Survival Estimates", 14, BOLD), *wrap(BODY, 72, 540, 400)]
        pages.append(Page(items))
    result = parse_pages(tmp_path, pages)
    headings = list(dict.fromkeys(r.heading for r in result.rows))
    assert headings == [f"{n} Results of run {n}" for n in range(1, 5)]
    assert result.content.count("Survival Estimates") == 4


def test_a_title_printed_again_as_continued_goes_on_with_its_section(tmp_path: Path) -> None:
    # A section that carries on over a page break names itself again at the new page's
    # top, marked "(Continued)": its text stays in the section, no new heading opens.
    pages = [
        _two_sections("Safety Rules", "Definitions"),
        _two_sections("Definitions (Continued)", "Maintenance"),
    ]
    result = parse_pages(tmp_path, pages)
    headings = headings_of(result)
    assert list(dict.fromkeys(headings)) == ["Safety Rules", "Definitions", "Maintenance"]
    assert any(
        "Definitions (Continued)" in r.content and r.heading == "Definitions" for r in result.rows
    )


def test_a_title_set_larger_than_the_listed_headings_is_never_nested_below_them(
    tmp_path: Path,
) -> None:
    # The table of contents lists the chapters and their sections; a divider page between
    # two chapters titles the second half in letters far larger than any chapter's. It is
    # no part of the section before it: it stands at the top, beside the chapters.
    entries = [(72, "Introduction"), (90, "1.0 Scope"), (90, "1.1 Terms used")]
    entries += [(72, "Operations"), (90, "2.0 Plant"), (90, "2.1 Logs")]
    toc = [Text(72, 720, "Contents", 14, BOLD)]
    for i, (x, entry) in enumerate(entries):
        toc += [Text(x, 700 - 16 * i, entry), Text(500, 700 - 16 * i, str(i + 2))]
    pages = [Page(toc)]
    for chapter in (entries[:3], entries[3:]):
        if chapter[0][1] == "Operations":
            divider = [Text(72, 500, "RUNNING THE PLANT", 40)]
            divider += wrap("This part covers the daily running of the plant.", 72, 460, 400)
            pages.append(Page(divider))
        body = [Text(72, 740, chapter[0][1], 20), *wrap(BODY, 72, 715, 400)]
        for i, (_, section) in enumerate(chapter[1:]):
            y = 640 - 150 * i
            body += [Text(72, y, section, 14, BOLD), *wrap(BODY, 72, y - 22, 400)]
        pages.append(Page(body))
    result = parse_pages(tmp_path, pages)
    found = [(r.heading, r.level) for r in outline_rows(result)]
    assert found == [
        ("Introduction", 1),
        ("1.0 Scope", 2),
        ("1.1 Terms used", 2),
        ("RUNNING THE PLANT", 1),
        ("Operations", 1),
        ("2.0 Plant", 2),
        ("2.1 Logs", 2),
    ]


def test_a_tagged_heading_set_over_two_lines_wide_apart_is_one_heading(tmp_path: Path) -> None:
    # One H1 element over two centred lines, set further apart than the document's other
    # lines in its size (a caption's): one title, not two sections.
    pages = [
        Page(
            [
                Text(150, 720, "IV. BEYOND STRING CONTROL: ENABLING CONTROL", 8, mcid=0),
                Text(190, 707, "THROUGH VOLTAGE DIFFERENCES", 8, mcid=0),
                *wrap(BODY, 72, 680, 400, mcid=1),
                *wrap(BODY, 72, 600, 400, size=8, mcid=2),
            ]
        )
    ]
    tags = [Tag("H1", 0, (0,)), Tag("P", 0, (1,)), Tag("Caption", 0, (2,))]
    result = parse_pages(tmp_path, pages, tags=tags)
    assert [r.heading for r in result.rows] == [
        "IV. BEYOND STRING CONTROL: ENABLING CONTROL THROUGH VOLTAGE DIFFERENCES"
    ]


def test_a_tagged_heading_holding_text_in_another_look_keeps_its_title_apart(
    tmp_path: Path,
) -> None:
    # A producer that tags a whole page H1: its title, set large and bold, and the text under
    # it in the body's look, one element. The title's lines are not the text's.
    pages = [
        Page(
            [
                Text(72, 740, "Inspection Rules", 16, BOLD, mcid=0),
                *wrap(BODY, 72, 700, 400, mcid=0),
            ]
        )
    ]
    result = parse_pages(tmp_path, pages, tags=[Tag("H1", 0, (0,))])
    assert result.rows[0].heading == "Inspection Rules"


def test_a_tagged_heading_over_lines_in_two_looks_is_one_heading(tmp_path: Path) -> None:
    # A chapter's label set small over its title set large, one H1 element.
    pages = [
        Page(
            [
                Text(72, 740, "CHAPTER 3", 12, BOLD, mcid=0),
                Text(72, 700, "Results of the Survey", 20, BOLD, mcid=0),
                *wrap(BODY, 72, 660, 400, mcid=1),
            ]
        )
    ]
    result = parse_pages(tmp_path, pages, tags=[Tag("H1", 0, (0,)), Tag("P", 0, (1,))])
    assert [r.heading for r in result.rows] == ["CHAPTER 3 Results of the Survey"]


def test_a_list_numbered_as_the_left_out_heading_leaves_it_a_heading(tmp_path: Path) -> None:
    # "2 Operation", which the bookmarks leave out between "1 Scope" and "3 Records",
    # holds a numbered list whose second item opens on its number: the item, set as the
    # text is, is no title numbered again, and "2 Operation" still fills the gap.
    steps = ["1. Drain the oil sump.", "2. Replace the filter.", "3. Refill the oil."]
    pages = _numbered_chapters(["1 Scope", "2 Operation", "3 Records"])
    pages[1].items += [Text(90, 600 - 16 * k, step) for k, step in enumerate(steps)]
    bookmarks = [Bookmark("1 Scope", 1, 0, 755), Bookmark("3 Records", 1, 2, 755)]
    result = parse_pages(tmp_path, pages, bookmarks=bookmarks)
    found = [(r.heading, r.level, r.extra.get("heading_source")) for r in result.rows]
    assert found == [
        ("1 Scope", 1, None),
        ("2 Operation", 1, "inferred"),
        ("3 Records", 1, None),
    ]
    assert "2. Replace the filter." in result.rows[1].content


def _parse_flat_bookmarked(tmp_path: Path, titles: list[str]):
    """A page for each of ``titles`` (bold 14 pt over a paragraph), each bookmarked at the top."""
    pages = [Page([Text(72, 740, title, 14, BOLD), *wrap(BODY, 72, 715, 400)]) for title in titles]
    bookmarks = [Bookmark(title, 1, page, 755) for page, title in enumerate(titles)]
    return parse_pages(tmp_path, pages, bookmarks=bookmarks)


def test_flat_bookmarks_take_the_levels_of_their_numbering(tmp_path: Path) -> None:
    # Exported from headings whose styles set no outline level, every bookmark stands at
    # the top; their numbers ("I.", "1.", "(1)") tell the sections from their parts.
    titles = ["I. The company", "1. Main business", "(1) Revenue", "2. Strengths", "II. Results"]
    result = _parse_flat_bookmarked(tmp_path, titles)
    found = [(r.heading, r.level, r.parent_headings) for r in outline_rows(result)]
    assert found == [
        ("I. The company", 1, ()),
        ("1. Main business", 2, ("I. The company",)),
        ("(1) Revenue", 3, ("I. The company", "1. Main business")),
        ("2. Strengths", 2, ("I. The company",)),
        ("II. Results", 1, ()),
    ]
    assert result.meta["outline"]["source"] == "bookmarks"


def test_flat_bookmarks_numbering_again_under_one_heading_leave_it(tmp_path: Path) -> None:
    # The list leaves out the chapter "II." whose parts number again from "1.": they are
    # no parts of "I." but stand where the chapter would, their own parts under them.
    titles = ["I. The company", "1. Main business", "2. Strengths", "1. Staff", "(1) Pay"]
    titles += ["2. Training", "III. Results"]
    result = _parse_flat_bookmarked(tmp_path, titles)
    found = [(r.heading, r.level, r.parent_headings) for r in outline_rows(result)]
    assert found == [
        ("I. The company", 1, ()),
        ("1. Main business", 2, ("I. The company",)),
        ("2. Strengths", 2, ("I. The company",)),
        ("1. Staff", 1, ()),
        ("(1) Pay", 2, ("1. Staff",)),
        ("2. Training", 1, ()),
        ("III. Results", 1, ()),
    ]


def test_flat_bookmarks_without_numbers_stay_at_one_level(tmp_path: Path) -> None:
    bookmarks = [
        Bookmark("General provisions", 1, 0, 735),
        Bookmark("Definitions used here", 1, 0, 655),
        Bookmark("Operation of the plant", 1, 1, 735),
    ]
    result = parse_pages(tmp_path, _document(), bookmarks=bookmarks)
    assert [r.level for r in result.rows] == [1, 1, 1]
