"""Lines numbered or lettered on, one after another, head no inferred section
(``outline/line_runs.py``): a multiple-choice question's options, a numbered listing's
lines; sections numbered or lettered on with their text between them stay headings."""

from __future__ import annotations

from lightrag_pchunk.outline.line_runs import (
    continues_a_cut_word,
    in_a_dated_log,
    in_a_numbered_listing,
    in_a_run_of_cell_rows,
    in_a_run_of_entries,
    in_a_run_of_options,
)

from outline_items import BOLD, H1, H2, MEMBERS, PROSE, text, titles


def test_options_of_a_question_head_no_section() -> None:
    items = [
        text("History", H1),
        text("Question 1 Which of the following events are taking place during the year 1850?"),
        text("A Napoleon Bonaparte crosses the Alps", H2),
        text("B First horse-drawn omnibuses established in London", H2),
        text("C American Express is founded by Henry Wells", H2),
        text("D Kwang-su becomes emperor of China", H2),
        text(PROSE),
    ]
    assert titles(items) == ["History"]


def test_lines_of_a_numbered_listing_head_no_section() -> None:
    items = [
        text("Implementation", H1),
        text(PROSE),
        # Set in bold, each line would head a section of its own number.
        text("302 Heading of the package and the other files", BOLD),
        text("303 Bibliography font can not be set here", BOLD),
        text("304 You have tried to define a font for the bibliographic element", BOLD),
        text("305 which is unknown to babelbib and was never defined", BOLD),
        text(PROSE),
    ]
    assert titles(items) == ["Implementation"]


def test_lettered_and_numbered_sections_with_text_between_stay_headings() -> None:
    items = [
        text("A Proofs of the main results", H2),
        text(PROSE),
        text("B Further experiments on larger sets", H2),
        text(PROSE),
        text("C Hyperparameters used in training", H2),
        text(PROSE),
        text("1 Scope"),
        text(PROSE),
        text("2 Normative references"),
        text(PROSE),
        text("3 Terms and definitions"),
        text(PROSE),
    ]
    assert titles(items) == [
        "A Proofs of the main results",
        "B Further experiments on larger sets",
        "C Hyperparameters used in training",
        "1 Scope",
        "2 Normative references",
        "3 Terms and definitions",
    ]


def test_options_and_listed_lines_are_told_by_their_neighbours() -> None:
    options = ["Question 2 What is the capital of Egypt?", "A Cayenne", "B Caracas", "C Cairo"]
    assert [in_a_run_of_options(options, i) for i in range(4)] == [False, True, True, True]
    assert not in_a_run_of_options(["A Cayenne", "", "B Caracas", "", "C Cairo"], 2)
    listing = ["4505 { add.period$", "4506 write$", "4507 newline$", "4508 }", ""]
    assert [in_a_numbered_listing(listing, i) for i in range(5)] == [True] * 4 + [False]
    assert not in_a_numbered_listing(["1 Scope", "Text.", "2 Terms", "Text.", "3 Use"], 2)


def test_a_listing_read_in_pieces_is_still_a_listing() -> None:
    # Lines read as one, and lines read as a table's rows (no line of text here).
    listing = ["5231 h/bststdi", "5232 hbststd 5233 hbststd 5234 h*bststdi", "5235 if$"]
    assert in_a_numbered_listing(listing, 2)
    bridged = ["4900 h*bststd", "", "4907 h/bststd", "4908 h*bststd & bstshorti", ""]
    assert in_a_numbered_listing(bridged, 3)
    # Numbered lines with a table after each: no two stand next to each other.
    assert not in_a_numbered_listing(["1 Scope", "", "2 Terms", "", "3 Use"], 2)


def test_the_first_option_under_its_question_is_an_option() -> None:
    question = ["Question 3 Which of the following events took place in 1971?", "A Death of X"]
    assert in_a_run_of_options(question, 1)
    paragraph = " ".join(["word"] * 40) + " can we do better?"
    assert not in_a_run_of_options([paragraph, "A Proofs of the main results"], 1)


def test_a_title_opening_with_a_under_a_short_question_is_no_option() -> None:
    items = [
        text("Tea", H1),
        text(PROSE),
        text("Why does it matter?"),
        text("A Brief History of Tea", H2),
        text(PROSE),
    ]
    assert titles(items) == ["Tea", "A Brief History of Tea"]
    # Under a numbered question, or over option B, "A" opens an option.
    assert in_a_run_of_options(["Question 3 Which came first?", "A Brief History of Tea"], 1)
    assert in_a_run_of_options(["Which came first?", "A New Approach", "B Old Ways"], 1)
    assert not in_a_run_of_options(["Which came first?", "A New Approach", PROSE], 1)


def test_numbered_lines_set_larger_than_the_text_are_sections_not_a_listing() -> None:
    # Empty sections: their titles follow one another with no text between.
    items = [
        text("Standard", H1),
        text(PROSE),
        text("1 Scope", H2),
        text("2 Terms", H2),
        text("3 Use", H2),
        text(PROSE),
    ]
    assert titles(items) == ["Standard", "1 Scope", "2 Terms", "3 Use"]


def test_entries_of_a_dated_log_head_no_section() -> None:
    entries = [
        "Mar 8, 2009: Release Candidate 2.0-rc-1.",
        "Feb 2009: Added support for multi-level lists to new processors.",
        "Jan 2009: Added HTML 4 output as an option (thanks to a contributor)",
        "Nov 2008: Added Definition List ext. Replaced old core with processors.",
    ]
    # A guard: in the outline these entries, bold at the text's size one under the other,
    # head nothing with their dates unread too (this holds without in_a_dated_log); stage
    # C's anchors are where the dates decide (test_anchor_non_titles' dated log).
    items = [text("Change Log", H1), text(PROSE), *(text(entry, BOLD) for entry in entries)]
    assert titles([*items, text(PROSE)]) == ["Change Log"]
    assert in_a_dated_log(entries, 2)
    # Dated titles over their text stay headings.
    dated = [text("Reviews", H1), text(PROSE), text("March 2020: Quarterly Review", H2)]
    dated += [text(PROSE), text("June 2020: Half-year Review", H2), text(PROSE)]
    assert titles(dated) == [
        "Reviews",
        "March 2020: Quarterly Review",
        "June 2020: Half-year Review",
    ]


def test_entries_of_a_list_parting_their_items_with_semicolons_are_told_by_neighbours() -> None:
    assert all(in_a_run_of_entries(MEMBERS, index) for index in (1, 3, 5))
    # One alone, or beside a docket's line, names a title's items; a sentence's clause goes
    # on in lower case.
    alone = ["Methods", "Funding; Conflicts of interest", "Data were kept; the code is open."]
    assert not in_a_run_of_entries(alone, 1)
    notice = ["[Docket No. 2020-0686; Product Identifier 2019-035]", "RIN 2120-AA64"]
    notice += ["Airworthiness Directives; The Example Company Airplanes", "AGENCY: Example."]
    assert not in_a_run_of_entries(notice, 2)


def test_the_rest_of_a_word_a_hyphen_cuts_is_told_by_the_line_before() -> None:
    # The line opens inside the word the line before cut ("addi-|tional"), a margin's mark
    # set before it; after a dash set apart, or a word's own hyphen before a capital, the
    # next line may be a title.
    cut = ["A nonresident alien employee may request addi-", "TIP tional withholding at will"]
    assert continues_a_cut_word(cut, 1)
    assert not continues_a_cut_word(cut, 0)
    assert not continues_a_cut_word(["Part 1 –", "Withholding at will"], 1)
    assert not continues_a_cut_word(["Cases of non-Hodgkin lymphoma.", "Data Sources"], 1)
    assert not continues_a_cut_word(["", "Withholding at will"], 1)


def test_rows_of_a_table_read_across_are_told_by_their_neighbours() -> None:
    # A table's rows read as lines: each closes on its cells ("Withhold Taxable Taxable"),
    # a column's value repeated; a row without a repeat, beside one sharing its cells.
    rows = ["Household employees:", "Withhold Taxable Taxable", "Exempt Taxable if paid or"]
    rows += ["more in cash in a year.", "Withhold Taxable Exempt"]
    assert in_a_run_of_cell_rows(rows, 1)
    assert in_a_run_of_cell_rows(rows, 4)
    assert not in_a_run_of_cell_rows(rows, 0)
    items = ["a. Amounts not exceeding specified Exempt Exempt Exempt", "government rate."]
    items.append("b. Amounts in excess of specified Withhold Taxable Taxable")
    assert in_a_run_of_cell_rows(items, 0)
    assert in_a_run_of_cell_rows(items, 2)
    # Three lines between two rows: a cell wrapped over lines; four part them.
    wrapped = ["1. Wages paid to an estate in Exempt Taxable Taxable", "same calendar year."]
    wrapped += ["See the Instructions for Forms W-2 and", "W-3 for details."]
    wrapped.append("2. Wages paid to an estate Exempt Exempt Exempt")
    assert in_a_run_of_cell_rows(wrapped, 0)
    assert in_a_run_of_cell_rows(wrapped, 4)
    parted = [*wrapped[:4], "More details.", wrapped[4]]
    assert not in_a_run_of_cell_rows(parted, 0)
    # Titles in capitals side by side share no repeated column's value; one alone repeating
    # a word stays a title, and so does a title beside it.
    titles_ = ["Percentage Method Tables", "PROSE", "Wage Bracket Method Tables"]
    assert not in_a_run_of_cell_rows(titles_, 0)
    assert not in_a_run_of_cell_rows(titles_, 2)
    alone = ["Bora Bora Island Guide", "The island lies in the Pacific.", "Getting There By Sea"]
    assert not in_a_run_of_cell_rows(alone, 0)
    assert not in_a_run_of_cell_rows(alone, 2)
