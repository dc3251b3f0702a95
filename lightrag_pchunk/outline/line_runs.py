"""Short lines that are no title by their neighbours: a run of lines numbered one after the
other, with nothing between them, is a list of a kind no reader takes for sections.

- An option of a multiple-choice question (:func:`in_a_run_of_options`): a capital letter
  alone, then the answer ("C Napoleon Bonaparte crosses the Alps and invades Italy"), in a
  run of :data:`RUN_LINES` lines or more lettered on ("A …", "B …", "C …"), or right under
  its question (a short line ending with "?": the question's first option, where the
  others were read elsewhere) when the question is numbered ("Question 3 Which …?") or
  option B follows (under a short question a section's title may open with the article
  "A": "Why does it matter?" over "A Brief History of Tea"); or a line holding a row of
  options ("A Beirut B Berlin C Beijing D Banjul", "A Djibouti C Dhaka E Doha": the options
  set in columns, read across).
- A line of a numbered listing (:func:`in_a_numbered_listing`): a number alone, then the
  line's text ("304 You have tried to define a font for the bibliographic element", a
  documented program's code line), next to the line numbered just before or after it, in a
  run of :data:`RUN_LINES` lines or more numbered on (303, 304, 305). A line may hold
  several of the listing's lines ("5229 if$ 5230 }", read as one); across what is no line
  of text (a table: the listing's lines read as a table's rows) the numbers go on further.
  A section's number is followed by its text, not by the next section's. A listing is set
  at the text's size: lines set larger are sections' titles, which ``candidates.py`` does
  not ask here ("1 Scope", "2 Terms", "3 Use" in a heading's size over empty sections).
- A table's row of a label and its count (:func:`in_a_run_of_counts`: "工商、金融界 200人"
  over "專業界 200人", a table read as lines; ``non_titles.is_count_row`` reads the shape),
  next to another such row or a count alone ("5.00%", an axis's), at most
  :data:`RUN_LINES` lines between them that end no sentence (a label's cell wrapped over
  lines: "香港地區全國人大代表、"), or with another row on its line, read across. One alone
  is a title naming an amount ("Early Bird Discount 15%").
- An entry of a dated log (:func:`in_a_dated_log`: a change log's "Jan 2009: Added HTML 4
  output as an option (thanks …)"): a date and a colon opening the line, and the line next
  to it, an entry too; dated titles ("March 2020: Quarterly Review") stand over their text.
- An entry of a list whose lines part their items with ";" (:func:`in_a_run_of_entries`: a
  members list's "Director, Example Consulting; Ottawa" under each member's name), in a run
  of :data:`RUN_LINES` such lines or more, each at most :data:`RUN_LINES` lines from the
  next. One alone, or beside a docket's line, may be a title naming its items ("Funding;
  Conflicts of interest", "Airworthiness Directives; The Example Company Airplanes").
- A table's row read across as a line (:func:`in_a_run_of_cell_rows`): a line closing on
  :data:`RUN_LINES` words or more, each a word alone in a capital, one of them twice
  ("b. Amounts in excess of specified Withhold Taxable Taxable", "Exempt Exempt Exempt":
  the row's cells, a column's value repeated), next to another such row, at most
  :data:`RUN_LINES` lines between them (a cell wrapped over lines); or next to a line
  closing on :data:`RUN_LINES` such words or more, two of them words of both ("Withhold
  Taxable Exempt" and "Withhold Taxable Taxable", each a row of the other). A title
  rarely repeats a word; one alone that does ("Bora Bora Island Guide") stays.
- The rest of a word a hyphen cuts (:func:`continues_a_cut_word`): the line after one that
  ends in half a word ("A nonresident alien employee may request addi-" over "tional
  withholding at his or her option", a margin's mark before it: "TIP tional …") opens
  inside that word, in the middle of its sentence.

Input: the lines of a document or a block, in order ("" for what is no line of text: a
table, a heading); an index. Output: whether that line is such a line. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise, takewhile

from lightrag_pchunk.outline.lines import ITEM_CAPITAL
from lightrag_pchunk.outline.non_titles import (
    ends_in_a_cut_word,
    holds_counts,
    is_count,
    is_count_row,
)
from lightrag_pchunk.outline.toc import SENTENCE_ENDS
from lightrag_pchunk.outline.unit_words import MONTH_PATTERN

#: Lines numbered or lettered on, one after another, that make a run.
RUN_LINES = 3
#: An option's letter standing alone before its answer ("A The Soviet Union …", "B) Cairo").
_OPTION = re.compile(r"([A-Z])[.)]?\s+\S")
#: A word that is an option's letter, in a row of options.
_LETTER = re.compile(r"[A-Z][.)]?")
#: A listing's line number standing alone before its text ("304 You have …"), or alone.
_LINE_NUMBER = re.compile(r"(\d+)(?:\s|$)")
#: A date, then a colon, opening a line: a month and its year, a day's date ("Jan 2009:",
#: "Mar 8, 2009:", "2009-03-08:", "2009年3月:").
_DATED = re.compile(
    rf"(?:\d{{1,2}}\s+)?(?:{MONTH_PATTERN})\.?\s+(?:\d{{1,2}},?\s+)?\d{{4}}\s*:"
    r"|\d{4}-\d{2}(?:-\d{2})?\s*:|\d{4}\s*年(?:\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?)?\s*[:：]",
    re.IGNORECASE,
)
#: A ";" inside a line before a capital: it parts the items of a title or of a list's entry
#: ("Funding; Conflicts of interest", "Director, Example Consulting; Ottawa"); before lower
#: case it ends a clause of a sentence.
_ITEMS_PARTED = re.compile(rf";\s+{ITEM_CAPITAL}")
#: A question's number before it ("Question 3 …", "Q3. …", "3. …").
_NUMBERED_QUESTION = re.compile(r"(?:(?:question|q)\s*)?\d+[.):]?\s", re.IGNORECASE)
#: Most words of a question on a line of its own.
_QUESTION_WORDS = 30
#: A number standing as a word inside a line: the next listed line's, read on the same line.
_NUMBER_WORD = re.compile(r"(?<!\S)\d+(?!\S)")


def no_title_by_neighbours(lines: Sequence[str], index: int, *, listed: bool = True) -> bool:
    """Whether line ``index`` is an option of a multiple-choice question, a line of a
    numbered listing (only when ``listed``: a caller that sees the line set larger than the
    text knows it is none), a table's row of a label and its count, a dated log's entry, an
    entry of a list whose lines part their items with ";", a table's row read across or the
    rest of a word a hyphen cuts."""
    return (
        continues_a_cut_word(lines, index)
        or in_a_run_of_options(lines, index)
        or (listed and in_a_numbered_listing(lines, index))
        or in_a_run_of_counts(lines, index)
        or in_a_dated_log(lines, index)
        or in_a_run_of_entries(lines, index)
        or in_a_run_of_cell_rows(lines, index)
    )


def continues_a_cut_word(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index`` follows a line of text ending in a word a hyphen cuts (see the
    module doc)."""
    return index > 0 and ends_in_a_cut_word(lines[index - 1])


def in_a_run_of_options(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index`` is an option of a multiple-choice question (see the module
    doc)."""
    if _options_in_a_row(lines[index]):
        return True
    own = _option_letter(lines[index])
    if own is None:
        return False
    if own == ord("A") and index > 0 and _asks(lines[index - 1]):
        numbered = _NUMBERED_QUESTION.match(lines[index - 1].strip()) is not None
        if numbered or (index + 1 < len(lines) and _option_letter(lines[index + 1]) == own + 1):
            return True  # the first option, right under its question
    run = 1
    for step in (-1, 1):
        at, expected = index + step, own + step
        while 0 <= at < len(lines) and run < RUN_LINES and _option_letter(lines[at]) == expected:
            run += 1
            at, expected = at + step, expected + step
    return run >= RUN_LINES


def in_a_numbered_listing(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index`` is a line of a numbered listing (see the module doc)."""
    own = _listed_numbers(lines[index])
    if own is None:
        return False
    before = _listed_numbers(lines[index - 1]) if index > 0 else None
    after = _listed_numbers(lines[index + 1]) if index + 1 < len(lines) else None
    if (before is None or before[1] + 1 != own[0]) and (after is None or own[1] + 1 != after[0]):
        return False  # no line numbered just before or after it stands next to it
    run = 1 + _listed_on(lines, index, own, -1) + _listed_on(lines, index, own, 1)
    return run >= RUN_LINES


def in_a_run_of_counts(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index`` is a table's row of a label and its count (see the module
    doc)."""
    own = lines[index].strip()
    if not is_count_row(own):
        return False
    if holds_counts(own):
        return True  # the table's rows read across
    for step in (-1, 1):
        at, between = index + step, 0
        while 0 <= at < len(lines) and between <= RUN_LINES:
            line = lines[at].strip()
            if is_count_row(line) or is_count(line):
                return True
            if not line or line[-1] in SENTENCE_ENDS:
                break  # what is no line of text, or a sentence: no table's cell
            at, between = at + step, between + 1
    return False


def in_a_dated_log(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index`` is an entry of a dated log (see the module doc)."""
    if _DATED.match(lines[index].strip()) is None:
        return False
    return any(
        0 <= at < len(lines) and _DATED.match(lines[at].strip()) is not None
        for at in (index - 1, index + 1)
    )


def in_a_run_of_entries(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index`` is an entry of a list whose lines part their items with ";"
    (see the module doc)."""
    if _ITEMS_PARTED.search(lines[index]) is None:
        return False
    run = 1
    for step in (-1, 1):
        at, last = index + step, index
        while 0 <= at < len(lines) and run < RUN_LINES and abs(at - last) <= RUN_LINES:
            if _ITEMS_PARTED.search(lines[at]) is not None:
                run, last = run + 1, at
            at += step
    return run >= RUN_LINES


def in_a_run_of_cell_rows(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index`` is a table's row read across as a line (see the module
    doc)."""
    own = _closing_cells(lines[index])
    if len(own) < RUN_LINES:
        return False
    words = set(own)
    repeats = len(words) < len(own)
    reach = RUN_LINES + 1  # at most RUN_LINES lines between the rows
    for at in range(max(index - reach, 0), min(index + reach + 1, len(lines))):
        other = _closing_cells(lines[at]) if at != index else []
        if len(other) < RUN_LINES:
            continue
        cells = set(other)
        shared = len(words & cells) >= 2  # each a row of the other
        if (len(cells) < len(other) and (repeats or shared)) or (repeats and shared):
            return True
    return False


def _closing_cells(line: str) -> list[str]:
    """The words alone in a capital (letters only: "Taxable", "Exempt") that close
    ``line``, in order."""
    closing = takewhile(lambda word: word.isalpha() and word[0].isupper(), reversed(line.split()))
    return list(closing)[::-1]


def _asks(line: str) -> bool:
    """Whether ``line`` is a question on a line of its own: it ends with "?" and is no
    paragraph (at most :data:`_QUESTION_WORDS` words; a paragraph may end asking one)."""
    return line.rstrip().endswith("?") and len(line.split()) <= _QUESTION_WORDS


def _option_letter(line: str) -> int | None:
    found = _OPTION.match(line.strip())
    return ord(found.group(1)) if found is not None else None


def _listed_numbers(line: str) -> tuple[int, int] | None:
    """The first and the last listing's number ``line`` holds: its leading number, and
    the numbers after it that go on from it one by one ("5229 if$ 5230 }": 5229, 5230)."""
    found = _LINE_NUMBER.match(line.strip())
    if found is None:
        return None
    first = last = int(found.group(1))
    for word in _NUMBER_WORD.findall(line.strip()[found.end() :]):
        if int(word) == last + 1:
            last += 1
    return first, last


def _listed_on(lines: Sequence[str], index: int, own: tuple[int, int], step: int) -> int:
    """How many lines from ``index`` on, in the direction ``step``, go on with the
    listing's numbers: the next number next to it; any further one across what is no line
    of text. Counted up to :data:`RUN_LINES`."""
    count, current, bridged = 0, own, False
    at = index + step
    while 0 <= at < len(lines) and count < RUN_LINES:
        if not lines[at].strip():
            bridged = True  # a table (the listing's lines read as its rows), a heading
            at += step
            continue
        found = _listed_numbers(lines[at])
        if found is None:
            break
        earlier, later = (found, current) if step < 0 else (current, found)
        goes_on = earlier[1] < later[0] if bridged else earlier[1] + 1 == later[0]
        if not goes_on:
            break
        count, current, bridged = count + 1, found, False
        at += step
    return count


def _options_in_a_row(line: str) -> bool:
    """Whether ``line`` is a row of options: it opens with an option's letter, and
    :data:`RUN_LINES` letters or more, each before its answer, go on by one step (1, or 2
    where the options are set in two columns)."""
    words = line.split()
    if not words or _LETTER.fullmatch(words[0]) is None:
        return False
    letters = [
        (position, ord(word[0]))
        for position, word in enumerate(words)
        if _LETTER.fullmatch(word) is not None
    ]
    if len(letters) < RUN_LINES:
        return False
    steps = {b - a for (_, a), (_, b) in pairwise(letters)}
    answered = all(b - a > 1 for (a, _), (b, _) in pairwise(letters))
    return len(steps) == 1 and steps <= {1, 2} and answered and letters[-1][0] < len(words) - 1
