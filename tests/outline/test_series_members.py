"""A numbered series of inferred headings takes the member the rules left out between two."""

from __future__ import annotations

from lightrag_pchunk.outline.infer import ItemKind, Look, OutlineItem

from outline_items import text, titles

TITLE = Look(size=14)


def _initiatives(*under_the_wiki: str) -> list[OutlineItem]:
    """Initiatives numbered 1-4 set larger than the text, each over its goal, the third
    ending with a full stop; ``under_the_wiki``: the lines under the second."""
    return [
        text("1. State of Documentation", TITLE),
        text("Goal: metrics tracking how useful and complete the documents are."),
        text("2. Wiki", TITLE),
        *map(text, under_the_wiki),
        text("3. Code Review Bot (CRBot).", TITLE),
        text("Goal: feedback on basic violations within minutes of a change."),
        text("4. Education efforts", TITLE),
        text("Goal: broad channels for updates and news."),
    ]


def test_a_member_between_two_in_their_look_is_a_heading_however_it_ends():
    items = [
        text("For each initiative below are outlined its goals and a rough schedule."),
        *_initiatives("Goal: documentation that is archived, searchable and easy to write."),
    ]
    assert titles(items) == [
        "1. State of Documentation",
        "2. Wiki",
        "3. Code Review Bot (CRBot).",
        "4. Education efforts",
    ]


def test_a_member_in_the_texts_look_between_two_stays_text():
    # Set like the text, "2. Methods of the survey (MS)." is a numbered sentence, no title.
    items = [
        text("1. Scope", TITLE),
        text("The rules apply to every site the company runs in the region."),
        text("2. Methods of the survey (MS)."),
        text("The inspectors visit every site twice a year."),
        text("3. Reports", TITLE),
        text("Every report is kept for ten years after the visit it records."),
    ]
    assert titles(items) == ["1. Scope", "3. Reports"]


def test_a_list_in_the_texts_look_before_the_member_hides_it_not():
    # Section 2 holds a typed numbered list set like the text; "3." is still the member.
    items = _initiatives(
        "The steps are these, in this order, every time:",
        "1. Install the wiki on the server.",
        "2. Import the pages of the old site.",
    )
    assert titles(items) == [
        "1. State of Documentation",
        "2. Wiki",
        "3. Code Review Bot (CRBot).",
        "4. Education efforts",
    ]


def _changes(first: str, second: str) -> list[OutlineItem]:
    """A note's numbered changes in the text's look, "3)" and "4)" over their reasons."""
    return [
        text("The main changes to the standard and the reasons for them are these:"),
        text(first),
        text(second),
        text("Reason: the industry describes the findings of a review in many ways."),
        text("3) New points to evaluate"),
        text("Reason: the earlier standard's list of points left several of them out."),
        text("4) Criteria replace the reference documents"),
        text("Reason: the reference documents stood among the inputs of the review."),
    ]


def test_the_first_members_of_a_series_of_headings_are_headings_however_they_end():
    # "3)" and "4)" head their reasons; "1)" and "2)" before them, in their look, open the
    # series: headings too, though "1)" ends as a sentence and the two, one over the
    # other, read alone as a list's short items.
    items = _changes("1) Review renamed evaluation.", "2) Difference items defined")
    assert titles(items) == [
        "1) Review renamed evaluation.",
        "2) Difference items defined",
        "3) New points to evaluate",
        "4) Criteria replace the reference documents",
    ]


def test_numbered_paragraphs_before_a_series_of_headings_stay_text():
    # Longer than a title, "1)" and "2)" are the note's numbered paragraphs.
    items = _changes(
        "1) The word review is replaced by the word evaluation in every clause of the text.",
        "2) Difference items are defined, as the reviews of several plants found them.",
    )
    assert titles(items) == [
        "3) New points to evaluate",
        "4) Criteria replace the reference documents",
    ]


def test_members_set_after_a_tab_before_a_series_of_headings_stay_text():
    # A number and a tab before the text is how a word processor sets a list's items.
    items = _changes("1)\tReview renamed evaluation", "2)\tDifference items defined")
    assert titles(items) == [
        "3) New points to evaluate",
        "4) Criteria replace the reference documents",
    ]


def test_a_series_numbered_anew_under_a_known_heading_opens_at_its_first_member():
    # The first section's "1)" and "2)" head their parts; a known heading numbered in their
    # family ("1) Second section", a styled one) starts the numbering again, so the later
    # "3)" goes on from none of them, and its "1)" and "2)" open its series as in one alone.
    items = [
        text("1) First change explained"),
        text("Reason: the earlier standard's list of points left several of them out."),
        text("2) Second change explained"),
        text("Reason: the reference documents stood among the inputs of the review."),
        OutlineItem(ItemKind.HEADING, "1) Second section", 1, Look(bold=True, size=16)),
        *_changes("1) Review renamed evaluation.", "2) Difference items defined"),
    ]
    assert titles(items) == [
        "1) First change explained",
        "2) Second change explained",
        "1) Review renamed evaluation.",
        "2) Difference items defined",
        "3) New points to evaluate",
        "4) Criteria replace the reference documents",
    ]
