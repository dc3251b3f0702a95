"""The PDF parser's text path: reading order, paragraphs, joins, furniture, rotation."""

from __future__ import annotations

from pathlib import Path

import pytest

from lightrag_pchunk.pdf.char_text import page_chars
from lightrag_pchunk.pdf.gutters import find_gutters
from lightrag_pchunk.pdf.hyphens import CUT_HYPHEN, PrintedWords, keep_printed_hyphens
from lightrag_pchunk.pdf.layout import Line
from lightrag_pchunk.pdf.line_ends import join_lines
from lightrag_pchunk.pdf.printed_paragraph import paragraph_of
from lightrag_pchunk.pdf.segments import Segment

from helpers import run_within_cpu
from pdf_builders import (
    BOLD,
    CJK,
    KASHIDA_QUOTE,
    LOREM,
    REGULAR,
    Page,
    Text,
    parse_pages,
    printed_width,
    unruled_rows,
    wrap,
)


def test_two_columns_read_column_by_column(tmp_path: Path) -> None:
    left = wrap("LEFT " + LOREM + " " + LOREM, 60, 700, 230)
    right = wrap("RIGHT " + LOREM + " " + LOREM, 320, 700, 230)
    # Written row by row across both columns, as some producers do.
    items = [item for pair in zip(left, right, strict=True) for item in pair]
    result = parse_pages(tmp_path, [Page(items)])
    text = result.content
    assert text.index("LEFT") < text.index("RIGHT")
    left_text = " ".join(t.text for t in left)
    assert left_text in text.replace("\n", " ")
    assert text.count("Operators") == 4


def test_lines_join_into_paragraphs_with_hyphens_and_cjk(tmp_path: Path) -> None:
    first = wrap("The compiler has to", 72, 720, 300)
    items = [
        Text(72, 720, "The plant operator has to check the com-"),
        Text(72, 706.8, "pressor every hour and writes the reading down."),
        Text(72, 680, "中文第一行文字中文第一行文字中文第一行文字中文第一", font=CJK),
        Text(72, 666.8, "第二行继续。", font=CJK),
    ]
    del first
    result = parse_pages(tmp_path, [Page(items)])
    lines = result.content.split("\n")
    assert "The plant operator has to check the compressor every hour" in lines[0]
    assert "中文第一行文字中文第一行文字中文第一行文字中文第一第二行继续。" in lines


def test_notes_set_with_a_hanging_indent_read_as_one_paragraph_each(tmp_path: Path) -> None:
    """Stacked notes whose first line stands out at the margin and whose sentence, broken
    at that full line, goes on indented under it: one paragraph each, the next note its
    own."""
    body = "The engine is type approved up to the tested ratings and pressures, and a type "
    notes = [
        (72, "Note 1: One type test will be considered adequate to cover a wide range of"),
        (86, "different numbers of cylinders. However, a type test of an in-line engine"),
        (86, "may not always cover the V-version."),
        (72, "Note 2: The engine is type approved up to the tested ratings and also to the"),
        (86, "pressures (100% corresponding to the maximum continuous rating)."),
    ]
    items = wrap(body * 4, 72, 720, 300, 10)
    items += [Text(x, 600 - 10 * i - 4 * (i > 2), text, 8) for i, (x, text) in enumerate(notes)]
    lines = parse_pages(tmp_path, [Page(items)]).content.split("\n")
    assert (
        "Note 1: One type test will be considered adequate to cover a wide range of different"
        " numbers of cylinders. However, a type test of an in-line engine may not always cover"
        " the V-version." in lines
    )
    assert (
        "Note 2: The engine is type approved up to the tested ratings and also to the pressures"
        " (100% corresponding to the maximum continuous rating)." in lines
    )


def test_a_cjk_answer_set_with_a_hanging_indent_reads_as_one_paragraph(tmp_path: Path) -> None:
    """An answer whose label stands out at the margin and whose sentence, broken between
    two characters at that full line, goes on indented under it: one paragraph; the next
    answer, after a line that ends its sentence, its own."""
    lines = [
        (72, "Ａ：同步式如台電之監視方式，滑動式又稱係最"),
        (96, "近需量監視之潮流，連續性之滑動式需量監"),
        (96, "視，使用上不方便。"),
        (72, "Ａ：電力需量測試值不正確無法與電力公司之"),
    ]
    items = [Text(x, 700 - 16 * i, text, 12, CJK) for i, (x, text) in enumerate(lines)]
    items.append(Text(72, 600, "本手冊以問與答方式編寫。", 12, CJK))
    content = parse_pages(tmp_path, [Page(items)]).content.split("\n")
    assert "".join(text for _, text in lines[:3]) in content
    assert lines[3][1] in content


def _reference_list_lines(tmp_path: Path, entries: list[tuple[float, str]]) -> list[str]:
    """The content lines of a page of text over a list of references set in 8 pt, each entry
    given as (x, line)."""
    items = wrap(LOREM * 3, 72, 720, 300, 10)
    items += [Text(x, 600 - 10 * i, text, 8) for i, (x, text) in enumerate(entries)]
    return parse_pages(tmp_path, [Page(items)]).content.split("\n")


def test_references_set_with_a_hanging_indent_read_as_one_entry_each(tmp_path: Path) -> None:
    """A list of references: each entry opens on its number in brackets at the margin and
    goes on indented under it, a page range broken after its dash ("pages 291-" over
    "300. ACM …") inside it; one paragraph each, the next entry its own."""
    entries = [
        (72, "[1] I. Piumarta and F. Riccardi. Optimizing direct threaded code by selective"),
        (86, "inlining. In Proceedings of the conference on Programming, pages 291-"),
        (86, "300. ACM New York, NY, USA, 1998."),
        (72, "[2] A. Rigo. Representation-Based Just-In-time Specialization and the"),
        (86, "Psyco Prototype for Python. In PEPM, 2004."),
    ]
    lines = _reference_list_lines(tmp_path, entries)
    assert " ".join(text for _, text in entries[:3]) in lines
    assert " ".join(text for _, text in entries[3:]) in lines


def test_a_reference_after_one_whose_last_line_is_full_opens_its_own_entry(
    tmp_path: Path,
) -> None:
    """A list of references whose entry ends on a line as wide as the list's: the next
    line, opening on its number in brackets, is the next entry, not more of that one."""
    entries = [
        (72, "[1] T. Suganuma, T. Yasue, and T. Nakatani. A Region-Based Compilation"),
        (86, "Technique for Dynamic Compilers. ACM Transactions on Programming"),
        (86, "Languages and Systems (TOPLAS), 28(1):134-174, in the year 2006."),
        (72, "[2] M. Zaleski, A. D. Brown, and K. Stoodley. YETI: A gradually Extensible"),
        (86, "Trace Interpreter. In VEE, 2007."),
    ]
    lines = _reference_list_lines(tmp_path, entries)
    assert " ".join(text for _, text in entries[:3]) in lines
    assert " ".join(text for _, text in entries[3:]) in lines


def test_a_paragraph_opening_on_a_citation_ends_where_the_next_one_is_indented(
    tmp_path: Path,
) -> None:
    """A paper's paragraph that opens on a citation ("[12] showed that …") is text, no entry
    of a list of references: its lines wrap to the margin, and the next line indented as its
    first line was opens the next paragraph, though the line above it is full."""
    lines = [
        (86, "[12] showed that the plant log is read at every change of shift by the"),
        (72, "operator on duty, who signs each page of it and files the signed pages of the"),
        (72, "log with the reports of the plant's chief engineer at the end of every week."),
        (86, "The operators of a second plant keep their readings in a book of their own,"),
        (72, "which the engineer reads at the end of each month."),
    ]
    items = [Text(x, 700 - 13.2 * i, text) for i, (x, text) in enumerate(lines)]
    paragraphs = parse_pages(tmp_path, [Page(items)]).content.split("\n")
    assert " ".join(text for _, text in lines[:3]) in paragraphs
    assert " ".join(text for _, text in lines[3:]) in paragraphs


def test_a_line_end_hyphen_the_document_prints_inside_a_line_is_kept(tmp_path: Path) -> None:
    """PDFium marks every line-end hyphen as a hyphenation break: the document's own
    "non-governmental" inside a line (more often than "nongovernmental") says the one cut at
    a line end is real; a word printed in neither form is joined; one printed joined as
    often as hyphenated is joined too."""
    items = [
        Text(72, 720, "Each Non-Governmental body files its report with the ministry."),
        Text(72, 690, "The ministry asks every non-"),
        Text(72, 676.8, "governmental body and every ordinary office for infor-"),
        Text(72, 663.6, "mation on the re-"),
        Text(72, 650.4, "organisation of its staff and the long-"),
        Text(72, 637.2, "term plan."),
        Text(72, 610, "A re-organisation is planned; the reorganisation of offices is late."),
        Text(72, 580, "A nongovernmental body and a non-governmental one are treated alike."),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    paragraph = next(line for line in result.content.split("\n") if "ministry asks" in line)
    assert (
        "every non-governmental body and every ordinary office for information on the"
        " reorganisation of its staff and the longterm plan." in paragraph
    )


def test_a_line_end_hyphen_before_a_capital_cuts_a_word_the_document_prints_joined(
    tmp_path: Path,
) -> None:
    """A marked hyphen before a capital is kept ("COVID-" "19") unless the document prints
    the word joined: "FED-" over "ERAL REGISTER", in a document that prints "FEDERAL"."""
    items = [
        Text(72, 720, "Every order the Administrator issues is published in the FEDERAL REGISTER."),
        Text(
            72,
            690,
            "An order controlling an immediate precursor of a drug is published in the FED-",
        ),
        Text(
            72,
            676.8,
            "ERAL REGISTER at once, and the Administrator hears the objections of the COVID-",
        ),
        Text(72, 663.6, "19 task force to it."),
    ]
    paragraph = parse_pages(tmp_path, [Page(items)]).content.split("\n")[1]
    assert "published in the FEDERAL REGISTER at once" in paragraph
    assert "objections of the COVID-19 task force" in paragraph


def _joined(texts: list[str], printed: PrintedWords | None = None) -> str:
    """``texts``, one paragraph's lines, joined as the parser joins them, the document
    printing ``printed`` inside its lines."""
    lines = [Line(text, 0, 0, 1, 1, 10, False, (), 0) for text in texts]
    kept = keep_printed_hyphens(lines, printed or PrintedWords())
    return join_lines([line.text for line in kept])[0]


def test_an_unmarked_line_end_hyphen_cuts_a_word_the_document_prints_joined() -> None:
    """A line-end hyphen PDFium leaves unmarked (a producer wrote a space after it) is kept
    ("well-" "known") unless the document prints the word joined ("precur-" "sors" in a
    document that prints "precursors"), then dropped as a marked one is. Before a capital,
    only the word printed joined in those very letters is cut: "Er-" "Leben" is no
    "Erleben"."""
    title = ["Control of immediate precur-", "sors and of well-", "known substances."]
    printed = PrintedWords(words=frozenset({"precursors", "substances"}))
    assert (
        _joined(title, printed) == "Control of immediate precursors and of well-known substances."
    )
    assert (
        _joined(title, PrintedWords())
        == "Control of immediate precur-sors and of well-known substances."
    )
    german = PrintedWords(words=frozenset({"erleben"}), spelled=frozenset({"Erleben"}))
    assert _joined(["das Er\ufffe", "Leben"], german) == "das Er-Leben"


def test_a_non_breaking_hyphen_ending_a_line_is_read_as_a_marked_one() -> None:
    """A producer that prints its hyphenation break as a non-breaking hyphen (U+2011, which
    no line may end in; a Word export: "ar\u2011" over "chitects"): the word is joined as at
    a marked hyphen, and the hyphen kept where the document prints the word with it ("out-"
    "of-band") or the next line opens on a capital; one inside a line stays as printed."""
    nb = "\u2011"
    assert _joined([f"Security ar{nb}", "chitects review it."]) == "Security architects review it."
    assert (
        _joined(
            [f"an out{nb}", "of-band check"], PrintedWords(hyphenated=frozenset({"out-of-band"}))
        )
        == "an out-of-band check"
    )
    assert _joined([f"the Diffie{nb}", "Hellman exchange"]) == "the Diffie-Hellman exchange"
    assert _joined([f"an organization{nb} or domain{nb}specific rule"]) == (
        f"an organization{nb} or domain{nb}specific rule"
    )


def test_a_paragraph_ending_in_a_cut_word_prints_its_hyphen() -> None:
    """A line whose cut word the document prints joined carries the mark of a hyphen to
    drop; where the paragraph ends at that line (the next line opened the next one), the
    hyphen is printed as a plain one, never left as an invisible U+00AD."""
    text, _ = join_lines(["Control of immediate precur" + CUT_HYPHEN])
    assert text == "Control of immediate precur-"


def test_the_word_before_a_line_end_hyphen_is_found_in_linear_time() -> None:
    """The word a marked line-end hyphen ends (with its own hyphens: "so-called-") is found
    from the line's end; a line of a hostile PDF holding a run of 200,000 letters that stops
    short of its end (a space or a stop before the hyphen) is read in linear time (a search
    anchored at the end is quadratic: hours). The run is in a child process the kernel stops
    after 30 CPU-s."""

    def line(text: str) -> Line:
        return Line(text, 0, 0, 1, 1, 10, False, (), 0)

    lines = [line("a so-called\ufffe"), line("well-known word, infor\x02"), line("mation")]
    kept = keep_printed_hyphens(lines, PrintedWords(frozenset({"so-called-well-known"})))
    assert [k.text for k in kept] == ["a so-called-", "well-known word, infor\x02", "mation"]
    code = (
        "from lightrag_pchunk.pdf.hyphens import PrintedWords, keep_printed_hyphens\n"
        "from lightrag_pchunk.pdf.layout import Line\n"
        "run = 'a' * 200_000\n"
        "texts = [run + ' \\x02', 'b', run + '.\\ufffe', 'c']\n"
        "lines = [Line(text, 0, 0, 1, 1, 10, False, (), 0) for text in texts]\n"
        "kept = keep_printed_hyphens(lines, PrintedWords(frozenset({'a-b'})))\n"
        "assert [line.text for line in kept] == texts\n"
    )
    done = run_within_cpu(code, 30)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_line_end_hyphen_joins_no_word_across_boxes_side_by_side() -> None:
    """Two captions side by side read as one pair of lines: the right one's "Außenwin-"
    ends the first line, the left one's "vgl. 61.c" starts the second, far left of it and
    parted from the right caption's "kel in PQR" by a wide gap. The cut word does not go on
    in the other box ("Außenwinvgl" is printed nowhere): the hyphen stays. Within one box,
    a cut word set in a run of its own ("Außenwin-" italic, "kel" italic, then the line's
    roman text right after it) is joined as ever."""

    def segment(text: str, x0: float, x1: float) -> Segment:
        return Segment(text, x0, 0, x1, 9, (x0, 0, x1, 9), 0, 0, 0, 9.0)

    def line(*segments: Segment) -> Line:
        text = " ".join(s.text for s in segments)
        return Line(text, segments[0].x0, 0, segments[-1].x1, 9, 9.0, False, segments, 1)

    pair = [
        line(
            segment("(a) kleiner als R2,", 177, 320),
            segment("(b) Innen und Außenwin\ufffe", 322, 453),
        ),
        line(segment("vgl. 61.c", 193, 269), segment("kel in PQR", 338, 453)),
    ]
    text, _ = join_lines([k.text for k in keep_printed_hyphens(pair, PrintedWords())])
    assert "Außenwin-vgl. 61.c kel in PQR" in text
    one_box = [
        line(segment("the plant and its", 72, 380), segment("Außenwin\ufffe", 400, 453)),
        line(segment("kel", 72, 85), segment("of the triangle and the rest", 87, 453)),
    ]
    text, _ = join_lines([k.text for k in keep_printed_hyphens(one_box, PrintedWords())])
    assert "its Außenwinkel of the triangle" in text


def test_space_between_paragraphs_and_a_short_last_line_start_new_ones(tmp_path: Path) -> None:
    items = [*wrap(LOREM, 72, 720, 300), *wrap("Second paragraph " + LOREM, 72, 640, 300)]
    result = parse_pages(tmp_path, [Page(items)])
    paragraphs = result.content.split("\n")
    assert len(paragraphs) == 2
    assert paragraphs[1].startswith("Second paragraph")


def test_running_headers_footers_and_page_numbers_are_removed(tmp_path: Path) -> None:
    pages = []
    words = ["ammonia", "brine", "freezer", "valve"]
    for number, word in enumerate(words, start=1):
        pages.append(
            Page(
                [
                    Text(72, 760, f"Cold store safety manual - revision {number}", 9),
                    *wrap(f"Body text about the {word}. " + LOREM, 72, 700, 400),
                    Text(300, 30, str(number), 9),
                ]
            )
        )
    result = parse_pages(tmp_path, pages)
    assert "Cold store safety manual" not in result.content
    assert all(f"Body text about the {word}." in result.content for word in words)
    assert not any(line.strip().isdigit() for line in result.content.split("\n"))


def test_a_running_footer_with_its_page_number_on_alternate_sides_is_removed(
    tmp_path: Path,
) -> None:
    # Facing pages: "18 ANNUAL REPORT" at the left of even pages, "ANNUAL REPORT 19" at the
    # right of odd ones; each form is on two of the four pages only.
    pages = []
    words = ["ammonia", "brine", "freezer", "valve"]
    for number, word in enumerate(words, start=18):
        footer = (
            Text(72, 30, f"{number} COLD STORE INC. ANNUAL REPORT", 9)
            if number % 2 == 0
            else Text(380, 30, f"COLD STORE INC. ANNUAL REPORT {number}", 9)
        )
        pages.append(Page([*wrap(f"Body text about the {word}. " + LOREM, 72, 700, 400), footer]))
    result = parse_pages(tmp_path, pages)
    assert "ANNUAL REPORT" not in result.content
    assert all(f"Body text about the {word}." in result.content for word in words)


def test_a_running_header_printed_higher_on_odd_pages_is_removed(tmp_path: Path) -> None:
    # Facing pages: the section's title 14 pt higher on odd pages than on even ones; at
    # each height it is on two of the four pages only.
    pages = []
    words = ["ammonia", "brine", "freezer", "valve"]
    for number, word in enumerate(words, start=1):
        header = Text(72, 774 if number % 2 else 760, "Refrigeration", 9)
        pages.append(Page([header, *wrap(f"Body text about the {word}. " + LOREM, 72, 700, 400)]))
    result = parse_pages(tmp_path, pages)
    assert "Refrigeration" not in result.content
    assert all(f"Body text about the {word}." in result.content for word in words)


def test_running_lines_of_a_page_printed_small_in_the_middle_of_the_sheet_are_removed(
    tmp_path: Path,
) -> None:
    # A register's pages set on a letter sheet: the print starts 160 pt below the sheet's
    # top, outside its top band; the running header alternates between facing pages.
    pages = []
    words = ["ammonia", "brine", "freezer", "valve", "gauge", "pump"]
    for number, word in enumerate(words, start=1):
        header = "Cold Store Administration, Safety" if number % 2 else "21 CSR Part 4 (Edition 2)"
        items = [Text(140, 632, header, 9)]
        items += wrap(f"Body text about the {word}. " + LOREM, 140, 610, 300, size=8)
        pages.append(Page(items))
    result = parse_pages(tmp_path, pages)
    assert "Cold Store Administration" not in result.content
    assert "21 CSR Part 4" not in result.content
    assert all(f"Body text about the {word}." in result.content for word in words)


def test_a_line_repeated_at_the_printed_edge_inside_its_paragraph_is_kept(
    tmp_path: Path,
) -> None:
    # Every page ends with the same paragraph, its last line at the same height: the line
    # is no footer, the paragraph's other lines sit right above it.
    pages = []
    words = ["ammonia", "brine", "freezer", "valve"]
    for word in words:
        items = wrap(f"Body text about the {word}. " + LOREM, 72, 500, 400)
        items += [
            Text(72, 440, "This clause is set for demonstration only and has no legal force;"),
            Text(72, 427, "it repeats so that every page ends alike."),
        ]
        pages.append(Page(items))
    result = parse_pages(tmp_path, pages)
    assert result.content.count("it repeats so that every page ends alike.") == len(words)


def test_a_heading_repeated_on_pages_that_open_lower_than_the_others_is_kept(
    tmp_path: Path,
) -> None:
    # Most pages start their print at one height; three open with the same heading 12 pt
    # lower: the heading is not at the printed edge, no running header.
    pages = []
    for number in range(8):
        items = [] if number % 3 else [Text(72, 640, "Key points", 14, font=BOLD)]
        top = 610 if items else 652
        items += wrap(f"Body text of page {number}. " + LOREM, 72, top, 400)
        pages.append(Page(items))
    result = parse_pages(tmp_path, pages)
    assert result.content.count("Key points") == 3


def test_a_rotated_page_reads_upright(tmp_path: Path) -> None:
    # A landscape table set on a portrait page: the text runs upwards, /Rotate 90 shows it.
    items = [
        Text(100, 100 + 0, "First line of the rotated page", angle=90),
        Text(115, 100, "Second line of the rotated page", angle=90),
    ]
    result = parse_pages(tmp_path, [Page(items, rotate=90)])
    text = result.content
    assert "First line of the rotated page" in text
    assert text.index("First") > -1
    assert "F i r s t" not in text


def test_a_paragraph_cut_by_a_page_break_is_one_with_its_footnote_after_it(
    tmp_path: Path,
) -> None:
    # Lines of one width, the last one full too: the page break cut the paragraph.
    lines = [
        "Opening paragraph. The operators keep the plant under",
        "continuous supervision and record every reading of the",
        "pressure gauges in the plant log, and then the sentence",
    ]
    first = Page(
        [
            *(Text(72, 140 - 13.2 * i, line) for i, line in enumerate(lines)),
            Text(72, 60, "1 A footnote in small type.", 8),
        ]
    )
    second = Page([*wrap("after the page break " + LOREM, 72, 740, 300)])
    result = parse_pages(tmp_path, [first, second])
    paragraphs = result.content.split("\n")
    joined = next(p for p in paragraphs if p.startswith("Opening paragraph."))
    assert "and then the sentence after the page break" in joined
    assert paragraphs.index(joined) < paragraphs.index("1 A footnote in small type.")
    assert result.headings == {}


def test_a_date_set_right_at_a_page_s_foot_never_joins_the_next_page_s_label(
    tmp_path: Path,
) -> None:
    # A notice signed at the foot of its page, issuer and date set flush right; the next
    # page opens on a label set flush right over a document's title. The date ends no
    # sentence and leaves no room at its end, but a line set to the column's far side is
    # no line of text the page break cut.
    body = "根據基本法附件二的規定，修正案自公布之日起生效，特此公告並請各有關機關遵照執行。"
    right = 72 + 12 * len(body)
    first = [Text(72, 700 - 20 * i, body, 12, CJK) for i in range(3)]
    first += [
        Text(right - 12 * 12, 600, "全國人民代表大會常務委員會", 12, CJK),
        Text(right - 12 * 10, 580, "2010年8月28日", 12, CJK),
    ]
    second = [Text(right - 12 * 3, 740, "文件四", 12, CJK)]
    second += [Text(72, 700 - 20 * i, body, 12, CJK) for i in range(3)]
    paragraphs = parse_pages(tmp_path, [Page(first), Page(second)]).content.split("\n")
    assert "2010年8月28日" in paragraphs
    assert "文件四" in paragraphs


def test_a_title_over_bullets_set_smaller_never_joins_the_next_page_s_title(
    tmp_path: Path,
) -> None:
    # A slide's box title in the body's size over its points set a step smaller (none wider
    # than the title, which leaves no room at its end), the next slide opening with its
    # title in that size: the points are a list, no footnotes under a paragraph the page
    # break cut, and the two titles stay apart.
    points = ["\x95 The office reviews", "\x95 The board decides"]
    first = Page(
        [
            Text(72, 350, "Phase Three: Selection", 20),
            *(Text(72, 310 - 30 * i, point, 17) for i, point in enumerate(points)),
        ],
        width=720,
        height=405,
    )
    second = Page(
        [
            Text(72, 350, "Phase One: Demand Scoring", 20),
            *wrap("In order to pass the demand criteria " + LOREM, 72, 310, 560, size=20),
        ],
        width=720,
        height=405,
    )
    result = parse_pages(tmp_path, [first, second])
    paragraphs = [" ".join(p.lstrip("# ").split()) for p in result.content.split("\n")]
    assert "Phase Three: Selection" in paragraphs
    assert paragraphs.index("Phase Three: Selection") < paragraphs.index(
        "\u2022 The office reviews"
    )


def test_a_title_opening_a_page_never_joins_the_title_of_the_page_before(
    tmp_path: Path,
) -> None:
    # Each page opens with a centred title set large, the text under it in the body's size:
    # the text is no footnote between two halves of one title.
    pages = [
        Page(
            [
                Text(98, 650, "Business Plan for a Startup Business", 20, font=BOLD),
                *wrap("The plan consists of a narrative. " + " ".join([LOREM] * 3), 72, 620, 460),
            ]
        ),
        Page(
            [
                Text(228, 650, "Business Plan", 20, font=BOLD),
                *wrap("Owners and their addresses. " + LOREM, 72, 620, 460),
            ]
        ),
    ]
    result = parse_pages(tmp_path, pages)
    assert [(row.heading, row.content.split("\n")[1][:20]) for row in result.rows] == [
        ("Business Plan for a Startup Business", "The plan consists of"),
        ("Business Plan", "Owners and their add"),
    ]


def test_bold_and_larger_lines_are_their_own_paragraphs(tmp_path: Path) -> None:
    items = [
        Text(72, 720, "Scope of the rules", 16, BOLD),
        *wrap(LOREM, 72, 695, 300),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    first = result.rows[0]
    assert first.heading == "Scope of the rules"
    assert first.extra.get("heading_source") == "inferred"
    assert first.content.split("\n")[1].startswith("Operators shall")


def _centred(text: str, top: float, size: float = 14.0) -> Text:
    # Centred on the column of LOREM's lines (72 to 482 points); Helvetica Bold's
    # capitals and lower case average about 0.52 em, close enough to centre a line.
    return Text(277 - 0.26 * size * len(text), top, text, size, BOLD)


def test_centred_title_lines_join_only_when_one_breaks_inside_a_phrase(tmp_path: Path) -> None:
    items = [
        _centred("Plant Reports Second Quarter and", 740),
        _centred("Reaffirms Guidance", 723),
        *wrap(LOREM + " " + LOREM, 72, 690, 468),
        _centred("APPENDIX B", 600),
        _centred("STANDARDS FOR CREWS", 583),
        *wrap(LOREM + " " + LOREM, 72, 550, 468),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    text = "\n".join(row.heading + "\n" + row.content for row in result.rows)
    assert "Plant Reports Second Quarter and Reaffirms Guidance" in text
    assert "APPENDIX B STANDARDS" not in text
    assert "STANDARDS FOR CREWS" in text


def test_word_second_level_o_bullets_are_items_of_their_own(tmp_path: Path) -> None:
    items = [
        Text(72, 720, "- Identical sales without fuel increased by one percent in the quarter"),
        Text(108, 706.8, "o Includes a charge for the nationwide settlement framework that"),
        Text(126, 693.6, "was agreed"),
        Text(108, 680.4, "o Excludes the fuel sales of the quarter"),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    lines = result.content.split("\n")
    assert any(line.endswith("settlement framework that was agreed") for line in lines)
    assert "o Excludes the fuel sales of the quarter" in lines


@pytest.mark.parametrize(("kashida", "shown"), [("\u0640", "\u0640"), ("\x17", "")])
def test_kashidas_stretching_justified_arabic_add_no_space_inside_a_word(
    tmp_path: Path, kashida: str, shown: str
) -> None:
    # Justified Arabic is stretched with kashidas between a word's letters (PDFium reads
    # LibreOffice's as U+0017, no text; a font mapping them to '"': the next test):
    # two overlapping kashida glyphs between "ل" and "ر", set as LibreOffice sets them, in
    # one run written in visual order ("کس", then "قلرن").
    spacing = (0, 0, 0, 0, -0.2, -8.0, -0.2)
    run = Text(72, 700, f"سک نر{kashida * 2}لق", font=CJK, spacing=spacing)
    result = parse_pages(tmp_path, [Page([run])])
    assert result.content.split() == [f"قل{shown * 2}رن", "کس"]


def test_a_quotation_mark_between_arabic_letters_is_a_kashida_only_where_drawn_as_one(
    tmp_path: Path,
) -> None:
    # Two words set alike, right to left, a '"' between "ل" and "ر" in each: in the left one
    # the glyph is a quotation mark drawn high (Helvetica's), a real mark kept; in the right
    # one it is drawn as a kashida, a flat stroke on the baseline, which joins the letters
    # and is no text.
    def word(x: float, font: str) -> list[Text]:
        mark = Text(x + 22, 700, '"', font=font)
        return [Text(x, 700, "قل", font=CJK), mark, Text(x + 27, 700, "رن", font=CJK)]

    result = parse_pages(tmp_path, [Page(word(100, REGULAR) + word(200, KASHIDA_QUOTE))])
    assert result.content.split() == ["نرلق", 'نر"لق']


def test_a_lam_alef_ligature_reads_lam_then_alef(tmp_path: Path) -> None:
    # "مشکلات" with lam-alef set as one glyph whose characters are "لا" (lam, then alef),
    # the glyphs in visual order. PDFium reverses the right-to-left run letter by letter,
    # the ligature's two with it ("مشکالت"): they are put back, lam first, in a word and
    # in a letter-spaced one ("ع لا ق"). A lam and an alef set as glyphs of their own
    # ("الف": alef, lam, fa) keep PDFium's order.
    word = Text(400, 700, "مشکلات", 14, CJK, glyphs=("ت", "لا", "ک", "ش", "م"))
    spaced = Text(300, 700, "ع لا ق", 14, CJK, glyphs=("ق", " ", "لا", " ", "ع"))
    plain = Text(200, 700, "الف", 14, CJK, glyphs=("ف", "ل", "ا"))
    result = parse_pages(tmp_path, [Page([word, spaced, plain])])
    assert result.content.split() == ["مشکلات", "ع", "لا", "ق", "الف"]


def test_a_line_is_in_capitals_only_where_most_of_its_letters_are() -> None:
    # An acronym in a Cyrillic or CJK line does not set the line in capitals (a heading
    # "Импорт XHTML" ranked above its siblings as if it were); a Latin line in capitals is.
    def look(text: str):
        line = Line(text, 72, 100, 300, 114, 14.0, True, (), 1, 0, 72, 540)
        return paragraph_of([line]).look

    assert look("CALL FOR ABSTRACTS").caps
    assert look("APPENDIX B: TERMS").caps
    assert not look("Импорт XHTML").caps
    assert not look("3 PSR 工作模式").caps
    assert not look("Import XHTML").caps


def test_columns_are_found_where_the_prose_has_no_size() -> None:
    """Segments whose font size reads 0 (PDFium reports no size for their font) beside a
    short line: the columns are found from the prose alone, no title is told by its type
    (its weight, its size over the prose's, would divide by 0)."""

    def segment(text: str, x0: float, top: float) -> Segment:
        x1 = x0 + 5.0 * len(text)
        return Segment(text, x0, top, x1, top + 9, (x0, 0, x1, 9), 0, 0, 0, 0.0)

    prose = "the provider describes its system"
    left = [segment(prose, 72, 100 + 12 * i) for i in range(4)]
    right = [segment(prose, 320, 100 + 12 * i) for i in range(4)]
    gutters = find_gutters([*left, *right, segment("Title", 250, 112)])
    assert [(g.x0 > left[0].x1, g.x1 <= 320) for g in gutters] == [(True, True)]


def test_a_blank_glyph_of_code_2_between_words_is_a_space_not_a_hyphen(tmp_path: Path) -> None:
    # A font without a text map whose word space is its glyph of code 2 (a figure's labels
    # in a paper's embedded chart): PDFium writes U+0002, its mark for a hyphen at a line
    # end in some fonts, but the glyph draws nothing. Set close (no space written by PDFium)
    # and set apart (one written beside it).
    labels = ["Behavioral\x02Beliefs\x02and\x02Attitude", "Outcome\x02Evaluations"]
    items = [
        Text(
            72,
            700 - 40 * row,
            label,
            11,
            spacing=tuple(gap if c == "\x02" else 0.0 for c in label[:-1]),
        )
        for row, (label, gap) in enumerate(zip(labels, (1.0, 3.0), strict=True))
    ]
    result = parse_pages(tmp_path, [Page(items)])
    assert result.content.split("\n") == ["Behavioral Beliefs and Attitude", "Outcome Evaluations"]


def test_a_cover_title_wider_than_the_page_s_other_lines_reads_as_one_paragraph(
    tmp_path: Path,
) -> None:
    # A Chinese cover: a title of two centred lines set large, its first line wider than
    # the lines the page's column is measured on (it reaches past both of the column's
    # edges: neither centred nor balanced in it), the second centred on its middle. One
    # title, its lines joined without a space.
    items = [
        Text(88, 600, "電能管理與需量控制手冊", 36, font=CJK),
        Text(172, 546, "節能技術手冊", 36, font=CJK),
        Text(124, 160, "經濟部能源局指導", 18, font=CJK),
        Text(114, 135, "財團法人台灣綠色生產力基金會編印", 18, font=CJK),
        Text(135, 110, "中華民國一〇五年九月再版", 18, font=CJK),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    paragraphs = [p.lstrip("# ") for p in result.content.split("\n") if p]
    assert paragraphs[0] == "電能管理與需量控制手冊節能技術手冊"


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["電費為新台幣１", "２３元"], "電費為新台幣１２３元"),  # full-width digits: one number
        (["𠀋𠀋𠀋", "𠀋測試"], "𠀋𠀋𠀋𠀋測試"),  # ideographs past the BMP
        (["\uf900\uf901\uf902", "\uf903\uf904"], "\uf900\uf901\uf902\uf903\uf904"),  # compatibility
        (["中文", "English"], "中文English"),  # a CJK side: no space, as before
        (["first line", "second line"], "first line second line"),
    ],
)
def test_lines_of_cjk_join_without_a_space_whatever_block_their_characters_are_in(
    lines: list[str], joined: str
) -> None:
    assert join_lines(lines)[0] == joined


class _TextPage:
    """As much of a PDFium text page as reading its characters asks."""

    def __init__(self, text: str) -> None:
        self.text = text

    def count_chars(self) -> int:
        return len(self.text)

    def get_text_range(self, start: int, count: int) -> str:
        return self.text[start : start + count]


def test_compatibility_ideographs_read_as_the_ideographs_a_user_searches() -> None:
    # A Taiwanese font maps 率 and 量 to U+F961 and U+F97E: "契約容量" typed by a user must
    # find the text, and each character keeps its place (one per PDFium index).
    text = page_chars(_TextPage("執行\uf961 契約容\uf97e 𠀋 é"))
    assert text == "執行率 契約容量 𠀋 é"
    assert len(text) == len("執行\uf961 契約容\uf97e 𠀋 é")


def test_cover_lines_ending_in_a_word_set_apart_stay_lines_of_their_own(tmp_path: Path) -> None:
    # A cover's publishers, each with its role set apart at the right, over the date: CJK
    # lines join without a space, so read as one paragraph they would run together
    # ("指導財團法人", "編印中華民國").
    cover = [
        Text(150, 600, "節能技術手冊", 36, CJK),
        Text(124, 160, "經濟部能源局", 18, CJK),
        Text(454, 160, "指導", 18, CJK),
        Text(114, 135, "財團法人綠色生產力基金會", 18, CJK),
        Text(454, 135, "編印", 18, CJK),
        Text(150, 110, "中華民國一百零五年九月再版", 18, CJK),
    ]
    body = [
        Text(72, 720, "前言", 16, CJK),
        Text(72, 690, "本手冊說明電能管理的基本觀念。", 11, CJK),
    ]
    lines = parse_pages(tmp_path, [Page(cover), Page(body)]).content.split("\n")
    assert lines[1:4] == [
        "經濟部能源局 指導",
        "財團法人綠色生產力基金會 編印",
        "中華民國一百零五年九月再版",
    ]


def test_a_bold_title_broken_inside_a_phrase_goes_on_into_its_regular_reference(
    tmp_path: Path,
) -> None:
    """A bold numbered title broken after "for" goes on, still bold, on the next line,
    which ends in the text's look on the title's reference (a funding notice: "… Women
    (HHS-2004-0017)"): one paragraph (whether it heads a section is the classifier's
    call), not a title cut before its last words."""
    first = "2. Family Support Services for Relatives Providing Caregiving for"
    bold_rest = "Children of Substance Abusing Women"
    items = [
        Text(72, 700, first, 10, BOLD),
        Text(72, 688, bold_rest, 10, BOLD),
        Text(72 + printed_width(bold_rest + " ", 10), 688, "(HHS-2004-0017)", 10, REGULAR),
        # The text fills the title's measure: the title's first line ended at the margin.
        *wrap(LOREM, 72, 664, printed_width(first, 10), size=10),
    ]
    result = parse_pages(tmp_path, [Page(items)])
    lines = [line.lstrip("# ") for row in result.rows for line in row.content.split("\n")]
    assert f"{first} {bold_rest} (HHS-2004-0017)" in lines  # as a heading or as text
    assert not any(row.heading == first for row in result.rows)


def test_a_title_printed_again_over_the_next_page_is_not_joined_to_itself(
    tmp_path: Path,
) -> None:
    """A table's title printed again at the top of the next page, over the table's next
    rows (a statistics package's output): the page break cuts no sentence there, so the
    two are never one title "… Estimates … Estimates"; the table goes on under it, so the
    title printed again is dropped as its header printed again is (``table_pages``)."""
    title = "Product-Limit Survival Estimates"

    def rows(first: int) -> list[tuple[str, ...]]:
        figures = [(f"{first + i}.0000", "0.9787", "0.0213", str(46 - i)) for i in range(8)]
        return [("Time", "Survival", "Failure", "Left"), *figures]

    xs = (72, 200, 330, 460)
    first_page = [
        *wrap(LOREM, 72, 740, 468),
        Text(220, 560, title, 12, BOLD),
        *unruled_rows(rows(1), xs, 532, 16),
    ]
    next_page = [
        Text(220, 740, title, 12, BOLD),
        *unruled_rows(rows(9), xs, 712, 16),
        *wrap(LOREM, 72, 540, 468),
    ]
    result = parse_pages(tmp_path, [Page(first_page), Page(next_page)])
    lines = [line.lstrip("# ") for row in result.rows for line in row.content.split("\n")]
    assert lines.count(title) == 1
    assert not any(f"{title} {title}" in row.heading for row in result.rows)
